"""Watten actions: interned, hashable, `str()` is the spec's notation.

Cards are numbered 0..31 inside the engine: `suit * 8 + rank` with suits in the
order C S H D (the jack order of WA-2) and ranks 7 8 9 T J Q K A.
"""

from __future__ import annotations

from ...core.cards import Card, card as parse_card
from ...core.errors import BadNotation
from ...core.messages import Reason

SUITS = "CSHD"  # clubs > spades > hearts > diamonds (jack order, WA-2)
RANKS = "789TJQKA"  # rank index 0..7, low to high
JACK = RANKS.index("J")
N_CARDS = 32

CARD_NAMES: tuple[str, ...] = tuple(RANKS[i % 8] + SUITS[i // 8] for i in range(N_CARDS))
CARD_OBJECTS: tuple[Card, ...] = tuple(parse_card(n) for n in CARD_NAMES)
CARD_ID: dict[str, int] = {n: i for i, n in enumerate(CARD_NAMES)}
SUIT_OF = tuple(i // 8 for i in range(N_CARDS))
RANK_OF = tuple(i % 8 for i in range(N_CARDS))
JACKS = tuple(s * 8 + JACK for s in range(4))

SIGNAL_LEVELS = ("none", "weak", "medium", "strong")

# action kinds
PLAY, TRUMP, SIGNAL, RAISE, ACCEPT, CONCEDE = range(6)


class Action:
    """One Watten decision: a kind and an integer argument (card id, suit, signal level).

    Interned: each action exists once (PLAYS, TRUMPS, SIGNALS and the three answers
    below; parse_action, copying and unpickling return those very objects), so two
    actions are equal exactly when they are the same object, which is object's own
    equality, in C: `action in legal` (apply's test) calls no Python method."""

    __slots__ = ("kind", "arg", "_text", "_hash")

    def __init__(self, kind: int, arg: int, text: str):
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "arg", arg)
        object.__setattr__(self, "_text", text)
        object.__setattr__(self, "_hash", hash((kind, arg)))

    def __setattr__(self, name, value):
        raise AttributeError("actions are immutable")

    def __hash__(self):
        return self._hash

    def __str__(self):
        return self._text

    def __repr__(self):
        return f"Action({self._text!r})"

    def __reduce__(self):  # keep interning through pickling
        return (parse_action, (self._text,))


PLAYS: tuple[Action, ...] = tuple(Action(PLAY, i, CARD_NAMES[i]) for i in range(N_CARDS))
TRUMPS: tuple[Action, ...] = tuple(Action(TRUMP, s, f"trump {SUITS[s]}") for s in range(4))
SIGNALS: tuple[Action, ...] = tuple(Action(SIGNAL, i, f"signal {lvl}") for i, lvl in enumerate(SIGNAL_LEVELS))
RAISE_ACTION = Action(RAISE, 0, "raise")
ACCEPT_ACTION = Action(ACCEPT, 0, "accept")
CONCEDE_ACTION = Action(CONCEDE, 0, "concede")

_SUIT_WORDS = {"C": 0, "S": 1, "H": 2, "D": 3, "CLUBS": 0, "SPADES": 1, "HEARTS": 2, "DIAMONDS": 3,
               "♣": 0, "♠": 1, "♥": 2, "♦": 3}
_WORDS = {"raise": RAISE_ACTION, "accept": ACCEPT_ACTION, "concede": CONCEDE_ACTION}


def card_id(text: str) -> int:
    """The engine number of a card of the 32-card deck; BadNotation otherwise."""
    i = CARD_ID.get(text)
    if i is not None:
        return i
    try:
        c = parse_card(text)  # other spellings of a card ("10H", "th")
    except BadNotation:  # core's words describe the 54-card deck (2-6, jokers): say Watten's
        raise BadNotation(Reason("watten.notation.not_a_card", text=text)) from None
    i = CARD_ID.get(c.name)
    if i is None:
        raise BadNotation(Reason("watten.notation.not_in_deck", text=text))
    return i


def parse_action(text: str) -> Action:
    """Parse notation (case-insensitive, extra spaces allowed) into an interned action."""
    if not isinstance(text, str):
        raise BadNotation(Reason("watten.notation.not_text", text=repr(text)))
    words = text.split()
    if not words:
        raise BadNotation(Reason("watten.notation.empty"))
    head = words[0].lower()
    if head in _WORDS:
        if len(words) != 1:
            raise BadNotation(Reason(f"watten.notation.{head}_alone", text=text))  # raise, accept, concede
        return _WORDS[head]
    if head == "trump":
        if len(words) != 2 or words[1].upper() not in _SUIT_WORDS:
            raise BadNotation(Reason("watten.notation.trump", text=text))
        return TRUMPS[_SUIT_WORDS[words[1].upper()]]
    if head == "signal":
        if len(words) != 2 or words[1].lower() not in SIGNAL_LEVELS:
            raise BadNotation(Reason("watten.notation.signal", text=text))
        return SIGNALS[SIGNAL_LEVELS.index(words[1].lower())]
    if len(words) == 1:
        try:
            return PLAYS[card_id(words[0])]
        except BadNotation as exc:  # the card's problem, and what else an action can be
            code = ("watten.notation.play_not_in_deck" if exc.reason.code == "watten.notation.not_in_deck"
                    else "watten.notation.play_not_a_card")
            raise BadNotation(Reason(code, text=text, card=words[0])) from None
    raise BadNotation(Reason("watten.notation.unknown", text=text))
