"""Wildwasser actions and their notation (`pick zebra`, `move`, `move rhino`, `action`,
`action 2`, `sun turtle`, `marker 0`); every action is interned."""

from __future__ import annotations

from ...core.errors import BadNotation
from ...core.messages import Reason
from ...core.notation import ascii_number
from .board import SPECIES, SPECIES_INDEX

PICK, MOVE, ACTION, SUN, MARKER = "pick", "move", "action", "sun", "marker"
KINDS = (PICK, MOVE, ACTION, SUN, MARKER)
MAX_SEATS = 6


class WildAction:
    """One decision: `kind` and its argument (a species index, a seat, or None); interned.
    `index` numbers the interned actions 0.. (ALL[index] is the action), so the engine can
    keep per-action tables in tuples instead of dicts (hashing calls __hash__ in Python).

    Made once per seat (any game, any table size) and shared, so the engine's trusted path
    builds no tuple for them: `event[seat]`, the log event of the seat taking it
    (`("pick", seat)` for a pick, else `("decide", seat, text)`); `alone[seat]` and
    `together[seat]`, its history entries `(seat, action, together)`; `bit`, a species
    action's bit (`1 << arg`, as hands keep species; 0 for the others)."""

    __slots__ = ("kind", "arg", "_text", "_hash", "index", "event", "alone", "together", "bit")

    def __init__(self, kind: str, arg: int | None, text: str):
        self.kind = kind
        self.arg = arg
        self._text = text
        self._hash = hash((kind, arg))
        self.index = len(ALL)
        ALL.append(self)
        seats = range(MAX_SEATS)
        self.event = tuple(("pick", s) if kind == PICK else ("decide", s, text) for s in seats)
        self.alone = tuple((s, self, False) for s in seats)
        self.together = tuple((s, self, True) for s in seats)
        self.bit = 1 << arg if kind in (PICK, MOVE, SUN) and arg is not None else 0

    # No __eq__: every action is interned (made once here; copies and unpickling go
    # through `parse_action` by __reduce__), so equal means identical, and the default
    # identity test runs in C: `action in legal` costs no Python call per element.

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"WildAction({self._text!r})"

    def __reduce__(self):
        return (parse_action, (self._text,))


ALL: list[WildAction] = []  # every interned action, by index


def _species_action(kind: str) -> tuple[WildAction, ...]:
    return tuple(WildAction(kind, i, f"{kind} {name}") for i, name in enumerate(SPECIES))


def _seat_action(kind: str) -> tuple[WildAction, ...]:
    return tuple(WildAction(kind, s, f"{kind} {s}") for s in range(MAX_SEATS))


PICKS = _species_action(PICK)
MOVE_ANIMAL = _species_action(MOVE)
SUNS = _species_action(SUN)
MOVE_CARD = WildAction(MOVE, None, MOVE)
ACT = WildAction(ACTION, None, ACTION)
ACT_SEAT = _seat_action(ACTION)
MARKERS = _seat_action(MARKER)

_BY_SPECIES = {PICK: PICKS, MOVE: MOVE_ANIMAL, SUN: SUNS}
_BY_SEAT = {ACTION: ACT_SEAT, MARKER: MARKERS}


def parse_action(text: str, last_seat: int = MAX_SEATS - 1) -> WildAction:
    """Parse notation (case-insensitive, extra spaces tolerated) into the interned action.
    `last_seat`: the table's last seat, which a refusal of a seat that is none names (a
    seat past it is notation still, refused by the rules: `no_such_player`)."""
    if not isinstance(text, str):
        raise BadNotation(Reason("wildwasser.notation.not_text", text=repr(text)))
    words = text.lower().split()
    if not words or words[0] not in KINDS or len(words) > 2:
        raise BadNotation(Reason("wildwasser.notation.unknown", text=text))
    kind = words[0]
    if len(words) == 1:
        if kind == MOVE:
            return MOVE_CARD
        if kind == ACTION:
            return ACT
        raise BadNotation(Reason(f"wildwasser.notation.{kind}_alone", text=text))  # pick, sun, marker
    arg = words[1]
    if kind in _BY_SPECIES:
        if arg not in SPECIES_INDEX:
            raise BadNotation(Reason("wildwasser.notation.animal", text=text, animal=arg))
        return _BY_SPECIES[kind][SPECIES_INDEX[arg]]
    seat = ascii_number(arg)
    if seat is None or seat >= MAX_SEATS:
        # the seat as typed (`Z`, not the `z` the words were read as)
        raise BadNotation(Reason("wildwasser.notation.seat", text=text, seat=text.split()[1], last=last_seat))
    return _BY_SEAT[kind][seat]
