"""Wasserloch rules (shared/spec/wasserloch.md), in the order of the rulebook."""

from __future__ import annotations

import random
from typing import Any, Mapping

from ...core.chance import Chance, Shuffle
from ...core.errors import BadRecord
from ...core.inline import inline_tail_calls
from ...core.messages import Reason
from ...core.protocol import Game, State
from . import view as _view
from .manifest import MANIFEST
from .actions import HAND_LIMIT, PLAYS, VALUE_MASK, VALUES, Play, parse_action
from .state import UNIT, WasserlochData, hand_size, hands_up_to, packed, unit_of, unpack

CARDS_PER_VALUE = 8  # WL-2: 64 cards, eight of each value A … 8
DECK_SIZE = CARDS_PER_VALUE * len(VALUES)
ACE, EIGHT = 0, 7
DRIVE_THRESHOLD = 3  # WL-4.2: a place with 3 or more cards drives off


# Legal plays depend on the hand alone: LEGAL[packed hand] for every hand of ≤ 5 cards
# (1,287), made as the module loads (2 ms); other hands (a position a test sets up) on demand.
LEGAL: dict[int, tuple[Play, ...]] = {}


def _legal_plays(key: int) -> tuple[Play, ...]:
    """WL-4.1: every play of one value, 1 … all held cards, by value (hand packed as `key`);
    kept in LEGAL (outside `legal_actions`, whose every call would otherwise build a closure cell)."""
    hand = unpack(key)
    found = LEGAL[key] = tuple(PLAYS[v][n] for v in range(8) if hand[v] for n in range(1, hand[v] + 1))
    return found


for _key in hands_up_to(HAND_LIMIT):
    _legal_plays(_key)


class Wasserloch(Game):
    """Wasserloch: a Kariba-like game for 2–4 players with 64 cards."""

    manifest = MANIFEST  # name, title, options and seat count

    def __init__(self, /, **options: Any):
        super().__init__(**options)
        adjacent = self.options["chase"] == "adjacent"
        # what every game of these options starts with, worked out once (random playouts
        # deal thousands of games a second): rounds, chase=adjacent, the chase table
        # (WL-4.2, WL-4.3, WL-4.5), the next seats (WL-3.3) and the first start player
        self._fixed = (self.options["rounds"], adjacent, _CHASE[adjacent], _AFTER[self.players],
                       self.options["first_player"])

    def parse_action(self, text: str) -> Play:
        return parse_action(text)

    def validate_setup(self, setup: Mapping[str, Any]) -> None:
        """`{"decks": [[64 values], …]}`: one permutation of 8×A…8 per round, top first.
        Refusals are `wasserloch.setup.*` codes, said in the reader's language; the field
        path (`setup.decks[0][3]`) is data, and a value the file holds is quoted as the
        language quotes (text) or shown as JSON writes it."""
        self._setup_keys(setup, ("decks",))
        decks = setup.get("decks")
        if not isinstance(decks, list):
            raise BadRecord(Reason("wasserloch.setup.decks_not_list", field="setup.decks"))
        rounds = self.options["rounds"]
        if len(decks) > rounds:
            raise BadRecord(Reason("wasserloch.setup.too_many_decks", field="setup.decks", decks=len(decks), n=rounds))
        for i, deck in enumerate(decks):
            if not isinstance(deck, list):
                raise BadRecord(Reason("wasserloch.setup.deck_not_list", field=f"setup.decks[{i}]", size=DECK_SIZE))
            if len(deck) != DECK_SIZE:
                raise BadRecord(Reason("wasserloch.setup.deck_size", field=f"setup.decks[{i}]", size=DECK_SIZE,
                                       given=len(deck)))
            counts = dict.fromkeys(VALUES, 0)
            for j, v in enumerate(deck):
                if not isinstance(v, str) or v not in counts:  # (a list is no key: TypeError)
                    # the value as the file holds it: `{value:shown}` quotes text, writes JSON
                    raise BadRecord(Reason("wasserloch.setup.not_value", field=f"setup.decks[{i}][{j}]", value=v))
                counts[v] += 1
            wrong = [f"{v}×{n}" for v, n in counts.items() if n != CARDS_PER_VALUE]
            if wrong:
                raise BadRecord(Reason("wasserloch.setup.value_counts", field=f"setup.decks[{i}]",
                                       count=CARDS_PER_VALUE, wrong=", ".join(wrong)))

    def _initial_state(self, chance: Chance) -> "WasserlochState":
        s = object.__new__(WasserlochState)
        s.game = self
        s.chance = chance
        chance.record_as("decks", DECK_RECORD)  # drawn as value indices, written as names
        s.history = []
        s.players = self.players
        s.rounds, s.chase_adjacent, s.chase, s.after, s.start_player = self._fixed
        s._loot = []  # `loot`: start_round adds each round's row (and sets `round_loot`)
        s.drives = None  # WL-3.3, WL-5.2, WL-5.5: the plays that drove a herd off (state.py)
        s.round_ends = ()
        s.start_round(0)
        return s


_SEATS = tuple((s,) for s in range(4))


# _PAIRS[a][b]: two cards of value indices a and b, packed (a block of five is dealt as two pairs
# and a card)
_PAIRS = tuple(tuple(unit_of(a) + unit_of(b) for b in range(8)) for a in range(8))


def _written_deal(players: int):
    """WL-3.2: `deal(deck)`, the packed hands of `players` blocks of five from the top of
    `deck` (value indices), in the order dealt, each two pairs from _PAIRS and a card: the
    steps written out as straight-line code (as core.chance writes out a shuffle), made
    once per player count.  A loop over the blocks spent a third of the deal's bytecodes on
    itself (the iteration and each card's index worked out, 2.7k instructions a random
    3-player round)."""
    hands = ", ".join(f"p[d[{i}]][d[{i + 1}]] + p[d[{i + 2}]][d[{i + 3}]] + u[d[{i + 4}]]"
                      for i in range(0, players * HAND_LIMIT, HAND_LIMIT))
    namespace: dict[str, Any] = {}
    exec(compile(f"def deal(d, p=_PAIRS, u=UNIT):\n return [{hands}]", f"<deal of {players}>", "exec"),
         {"_PAIRS": _PAIRS, "UNIT": UNIT}, namespace)
    return namespace["deal"]


# _DEALS[players]: the deal of that many blocks (_written_deal)
_DEALS = {p: _written_deal(p) for p in (2, 3, 4)}
# WL-3.3: _AFTER[players][seat], the seat that plays next (clockwise)
_AFTER = {p: tuple(range(1, p)) + (0,) for p in (2, 3, 4)}
# WL-4.2, WL-4.3, WL-4.5: _CHASE[adjacent][v], the places a drive by value index v may
# take, nearest first: aces only the 8s; any other value the nearest lower occupied
# place (chase=adjacent: only the place directly below), never wrapping round to the 8s
_CHASE = (tuple((EIGHT,) if v == ACE else tuple(range(v - 1, -1, -1)) for v in range(8)),
          tuple((EIGHT,) if v == ACE else (v - 1,) for v in range(8)))


def drive_targets(hole: list[int], adjacent: bool) -> list[int]:
    """Per value A…8, the place a drive by it would take from `hole` (whether or not it
    holds 3 yet), or -1: aces the 8s only (WL-4.3); any other value the nearest lower
    occupied place, never wrapping round (WL-4.2), with chase=adjacent only the place
    directly below."""
    out = [EIGHT if hole[EIGHT] else -1]
    if adjacent:
        out += [v if hole[v] else -1 for v in range(7)]
        return out
    lower = -1
    for v in range(7):
        if hole[v]:
            lower = v
        out.append(lower)
    return out


def unseen(hole: list[int], gone: list[int], hand: list[int]) -> list[int]:
    """Per value A…8, the cards of it a seat cannot see (in the other hands or the pile):
    WL-2 eight of each, less the waterhole, the round's loot (WL-5.3: every looted card lay
    face up at the waterhole, so its value is public) and the seat's own hand (WL-5.5:
    each round deals all 64 anew, so earlier rounds' loot is back in the deck).  The
    compiled twin is kernel._encode_tactics's."""
    return [CARDS_PER_VALUE - hole[v] - gone[v] - hand[v] for v in range(len(hole))]


# the deck's names as bytes -> value indices ("A2…8" -> 0…7) and back: byte tables, one look-up a card
_TO_INDEX = bytes.maketrans(VALUES.encode(), bytes(range(len(VALUES))))
_TO_NAME = bytes.maketrans(bytes(range(len(VALUES))), VALUES.encode())


class _DeckRecord(Shuffle):
    """The deck as a record writes it: value names ("A" … "8"); `DECK`'s draws are value
    indices, the form the rules read, so no deal turns 64 names into indices (records.md:
    records hold names; `Chance.record_as` converts a record's decks once, as a game sets up)."""

    __slots__ = ()

    def to_record(self, outcome):
        return list(bytes(outcome).translate(_TO_NAME).decode())

    def from_record(self, written):
        return list("".join(written).encode().translate(_TO_INDEX))

    def __reduce__(self):
        return "DECK_RECORD"  # the module's own (Shuffle's would unpickle a plain Shuffle, writing indices)


# WL-2: the whole deck, shuffled anew for every round, as value indices (eight of each of 0 … 7)
DECK = Shuffle([v for v in range(len(VALUES)) for _ in range(CARDS_PER_VALUE)], "deck")
DECK_RECORD = _DeckRecord(DECK.items, "deck")


@inline_tail_calls("apply", "apply_legal")  # the checked path without a second call (core.inline)
class WasserlochState(WasserlochData, State):
    """A Wasserloch position with the rules as methods."""

    __slots__ = ()  # the data's slots only (core.protocol.State)

    # -- WL-3 / WL-5.5: preparing a round ------------------------------------
    def start_round(self, r: int) -> None:
        """WL-3.2, WL-5.5: clear the waterhole, shuffle all 64, deal 5 each in blocks
        from the round's start player; the start player moves one seat clockwise per round."""
        self.round = r
        players = self.players
        # WL-5.5: the start player moves one seat clockwise per round (the first round's is
        # the option's, set as the game sets up)
        start = self.after[self.start_player] if r else self.start_player
        self.start_player = start
        # the deck as value indices, as DECK draws it (a record's names became indices as the game
        # set up): the chance stream's own list, kept as it is (never changed; the chance's clones
        # share it too), as a tuple copy cost 0.7k instructions a random round
        deck = self._pile = self.chance.draw("decks", DECK)
        self.pile_len = self.fast_end = len(deck)
        # the blocks in the order dealt, each a packed hand (_DEALS), then turned so that the
        # start player's comes first
        dealt = _DEALS[players](deck)
        self.keys = dealt[players - start:] + dealt[:players - start] if start else dealt
        self.pile_pos = players * HAND_LIMIT
        self.hole = [0] * 8
        self.gone = [0] * 8
        self.round_loot = [0] * players
        self._loot.append(self.round_loot)
        self.current_seat = self.seat = start  # WL-3.3: then clockwise

    # -- whose turn -----------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        seat = self.current_seat
        return () if seat is None else _SEATS[seat]

    def is_terminal(self) -> bool:
        return self.current_seat is None

    # -- WL-4.1: the play -----------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> tuple[Play, ...]:
        """WL-4.1: one or more cards of one value; no pass (a hand is never empty mid-round)."""
        if seat != self.current_seat:
            if seat is not None:
                return ()  # another seat's turn
            seat = self.current_seat
        try:
            return LEGAL[self.keys[seat]]
        except KeyError:  # a hand no deal makes (a position set up by hand)
            return _legal_plays(self.keys[seat])
        except TypeError:  # keys[None]: the match is over, no seat is to move
            return ()

    def _why_illegal(self, action: Any, seat: int) -> Reason | None:
        """WL-4.1: the cards must be in the player's hand."""
        if type(action) is not Play:
            return Reason("not_an_action", action=repr(action), game=self.game.title)
        held = (self.keys[seat] >> action.shift) & VALUE_MASK
        if held >= action.count:
            return None
        if held == 0:
            return Reason("wasserloch.holds_none", seat=seat, value=VALUES[action.value])
        return Reason("wasserloch.holds_only", seat=seat, value=VALUES[action.value], n=held)

    def apply(self, action: Play | str, seat: int | None = None) -> None:
        """The protocol's checked `apply`: a play of cards the seat to move holds (WL-4.1,
        as `_why_illegal` says; `Play.field` reads the count in place) is played by the
        trusted path; anything else (a refusal and its reason, notation) takes the
        protocol's own way."""
        if seat is None:
            seat = self.current_seat
            if seat is None:  # the match is over: the protocol says so
                State.apply(self, action, seat)
                return
        # (a seat named once the match is over is not the seat to move, None)
        if action.__class__ is not Play or seat != self.current_seat or self.keys[seat] & action.field < action.bits:
            State.apply(self, action, seat)
            return
        self.apply_legal(action, seat)

    def apply_legal(self, action: Play, seat: int) -> None:
        """The protocol's trusted path (an action from `legal_actions(seat)`; `apply` comes
        here after its checks): `_apply`'s rules with the two common cases inlined.  While
        the pile lasts every hand holds 5 and draws exactly what it played (WL-4.4, WL-5.1),
        so the play and the draw are one change of the packed hand; once the pile is empty
        a hand that keeps a card only shrinks (WL-5.1).  The play that draws the pile's
        last cards and the play that empties a hand (WL-5.2: the round ends, the next is
        dealt) are `_apply`'s; a strict replay (no generator) takes the latter through
        `State.apply`, as a transaction, since it deals.  WL-3.3, WL-5.2, WL-5.5: a play
        that drives a herd off joins `drives` (the others are the history's alone)."""
        n = action.count
        pos = self.pile_pos
        end = pos + n
        if end <= self.fast_end:
            # WL-4.1, WL-4.4: the cards leave the hand and as many are drawn from the pile
            if n == 1:
                self.keys[seat] += action.swaps[self._pile[pos]]
            elif n == 2:  # a play of two draws two (a fifth of the plays): `sum(map(...))` over a slice cost ~2k instructions more
                pile = self._pile
                self.keys[seat] += action.swaps2[pile[pos]][pile[pos + 1]]
            else:
                self.keys[seat] += sum(map(unit_of, self._pile[pos:end])) - action.bits
            self.pile_pos = end
        elif pos == self.pile_len and self.keys[seat] != action.bits:
            # WL-4.1, WL-5.1: the pile is empty; the hand keeps a card (it is more than the
            # play), so the round goes on
            self.keys[seat] -= action.bits
        else:
            if self.chance.rng is None and self.keys[seat] == action.bits and pos == self.pile_len:
                State.apply(self, action, seat)
                return
            self._apply(action, seat)
            self.history.append(action.entries[seat])
            return
        v = action.value
        hole = self.hole
        placed = hole[v] = hole[v] + n
        if placed >= 3:  # DRIVE_THRESHOLD, written out: a global's look-up a play was 1.0k instructions a round
            # WL-4.2, WL-4.3, WL-4.5 (`drive_off` inlined): the nearest place this value may take
            for target in self.chase[v]:
                taken = hole[target]
                if taken:
                    hole[target] = 0
                    self.gone[target] += taken
                    self.round_loot[seat] += taken
                    self.drives = (len(self.history), target, taken, self.drives)  # WL-3.3: this play's
                    break
        self.current_seat = self.after[seat]  # WL-3.3
        self.history.append(action.entries[seat])

    def _apply(self, action: Play, seat: int) -> None:
        """WL-4.1 the play; WL-4.2 a place with 3 or more cards drives off (drive_off);
        WL-4.4, WL-5.1 draw up; WL-5.2 a hand left empty ends the round.  WL-3.3, WL-5.5:
        a play that drives a herd off joins `drives` (state.py: `recent`, the match's latest
        plays in order, reads them), and the round's end its index in `round_ends`."""
        v = action.value
        n = action.count
        keys = self.keys
        keys[seat] -= action.bits  # the hand, packed: n cards of value v leave it
        size = hand_size(keys[seat])
        self.hole[v] += n
        driven, taken = self.drive_off(v)
        if taken:
            self.round_loot[seat] += taken
            self.drives = (len(self.history), driven, taken, self.drives)  # WL-3.3: this play's (state.py)
        # WL-4.4, WL-5.1: draw until holding 5 again or the pile is empty
        pos, last = self.pile_pos, self.pile_len
        if size < HAND_LIMIT and pos < last:
            end = min(pos + HAND_LIMIT - size, last)
            keys[seat] += packed(self._pile[pos:end])
            self.pile_pos = end
            size += end - pos
        if size:
            self.current_seat = self.after[seat]
        else:
            self.end_round()

    def drive_off(self, v: int) -> tuple[int, int]:
        """WL-4.2, WL-4.3, WL-4.5: a place with 3+ cards after a play drives off one place.

        Aces drive off the 8s and only the 8s; any other value the nearest lower
        occupied place (option chase=adjacent: only the place directly below),
        never wrapping round to the 8s (`_CHASE`).  The driving cards stay.  Returns
        the driven-off value index and the number of cards taken (-1, 0 if none).
        """
        hole = self.hole
        if hole[v] < DRIVE_THRESHOLD:
            return -1, 0
        for target in self.chase[v]:
            if hole[target]:
                taken = hole[target]
                hole[target] = 0
                self.gone[target] += taken
                return target, taken
        return -1, 0

    def end_round(self) -> None:
        """WL-5.2, WL-5.5: the round ends with the turn that emptied a hand; the next
        round starts (start player one seat on) unless the match is complete."""
        self.round_ends += (len(self.history),)  # the play ending it (not in the history yet)
        if self.round + 1 < self.rounds:
            self.start_round(self.round + 1)
        else:
            self.seat = self.current_seat  # the seat that ended it, as `current` keeps
            self.current_seat = None  # WL-5.5: the match is over

    # -- WL-5.3 / WL-5.4: scoring ----------------------------------------------
    def scores(self) -> list[float]:
        """WL-5.3: one point per looted card, added over the rounds (WL-5.5)."""
        return self.totals()

    def winners(self) -> list[int]:
        """WL-5.4: most points win; every tied player shares the win."""
        if self.current_seat is not None:
            return []
        totals = self.totals()
        best = max(totals)
        return [s for s, t in enumerate(totals) if t == best]

    # -- information -------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        return _view.view(self, seat)

    def sample_world(self, seat: int, rng: random.Random) -> "WasserlochState":
        return _view.sample_world(self, seat, rng)
