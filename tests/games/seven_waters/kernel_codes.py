"""Engine actions as the kernel's action indices (the codec's: games/seven_waters/codec.py)."""

from __future__ import annotations

from wasserspiele.core.cards import ALL_CARDS, SUITS
from wasserspiele.games.seven_waters import kernel as K
from wasserspiele.games.seven_waters.actions import (
    Discard, Pool, River, Slide, Take, Theme, piece_rank, piece_suit,
)


def code(action, hand) -> int:
    """The kernel's (the codec's) index of an engine action, from the mover's hand."""
    slot = {c: i for i, c in enumerate(hand)}

    def mask(cards) -> int:
        return sum(1 << slot[c] for c in cards)

    t = type(action)
    if t is Take:
        return K.TAKE + action.index
    if t is Theme:
        return K.THEME + slot[action.card]
    if t is Discard:
        return K.DISCARD + mask(action.cards) - 1
    cards = [p.card for p in getattr(action, "pieces", ())]
    if t is Slide:
        return K.SLIDE + (action.line - 1) * K.MASKS + mask(cards) - 1
    if t is River:
        return K.RIVER + (min(piece_rank(p) for p in action.pieces) - 1) * K.MASKS + mask(cards) - 1
    if t is Pool:
        return K.POOL + SUITS.index(piece_suit(action.pieces[0])) * K.MASKS + mask(cards) - 1
    return K.PASS


def engine_game(game, deck):
    return game.new_game(setup={"deck": [ALL_CARDS[c].name for c in deck]})
