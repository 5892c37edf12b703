"""What one Wasserloch seat may know, and worlds consistent with it.

Hidden: the other hands (their sizes are public) and the draw pile's order.
Public: the waterhole, every loot count, and — since every looted card lay
face up at the waterhole — which values have gone this round.
"""

from __future__ import annotations

import random
from typing import Any

from ...core.chance import shuffle_fast
from .actions import VALUES

CARDS_PER_VALUE = 8


def view(state, seat: int | None) -> dict[str, Any]:
    """The position as `seat` sees it (None: a spectator)."""
    s = state
    out: dict[str, Any] = {
        "game": "wasserloch",
        "seat": seat,
        "players": s.players,
        "round": s.round + 1,
        "rounds": s.rounds,
        "start_player": s.start_player,
        "to_move": [] if s.over else [s.current],
        "waterhole": list(s.hole),
        "hand": list(s.hands[seat]) if seat is not None else None,
        "hand_sizes": list(s.hand_sizes),
        "pile": s.pile_size,
        "gone": list(s.gone),
        "loot": [list(r) for r in s.loot],
        "scores": s.totals(),
        "last": [None if e is None else {"play": e[0], "drove_off": VALUES[e[1]] if e[1] >= 0 else None,
                                          "loot": e[2], "round": e[3] + 1, "move": m}
                 for e, m in zip(s.last, play_numbers(s))],
        # who played last (the board marks that play): the turn order does not say it once
        # a round has ended (WL-5.2: any seat's emptied hand ends it); it is the seat whose
        # `last` entry has the highest `move`
        "last_mover": s.history[-1][0] if s.history else None,
        "chase": "adjacent" if s.chase_adjacent else "nearest",
        "over": s.over,
        "winners": s.winners() if s.over else [],
    }
    return out


def play_numbers(state) -> list[int | None]:
    """Per seat, the number of its last play in the match (1: the match's first play,
    counted over every seat and round), None before its first.  WL-3.3, WL-5.2, WL-5.5:
    the seats' order round the table does not give the order of their last plays once a
    round has ended (any seat's emptied hand ends it, and the next round's start player is
    one seat on), and the view keeps one play per seat; the numbers order them.  Every play
    is public, so every seat and a spectator get the same numbers."""
    history = state.history
    out: list[int | None] = [None] * state.players
    missing = state.players - state.last.count(None)  # a seat with a last play is in the history
    k = len(history)
    while missing and k:
        k -= 1
        seat = history[k][0]
        if out[seat] is None:
            out[seat] = k + 1
            missing -= 1
    return out


def unseen_values(state, seat: int) -> list[int]:
    """Value indices of the cards `seat` cannot see (other hands and the pile)."""
    out: list[int] = []
    own = state.hands[seat]
    for v in range(len(VALUES)):
        out += [v] * (CARDS_PER_VALUE - own[v] - state.hole[v] - state.gone[v])
    return out


def sample_world(state, seat: int, rng: random.Random):
    """Deal the other hands and the pile anew from the cards `seat` cannot see."""
    world = state.clone()
    cards = unseen_values(state, seat)
    shuffle_fast(cards, rng)
    pos = 0
    for other in range(state.players):
        if other == seat:
            continue
        hand = [0] * len(VALUES)
        for v in cards[pos:pos + state.hand_sizes[other]]:
            hand[v] += 1
        world.hands[other] = hand
        pos += state.hand_sizes[other]
    world.pile = tuple(cards[pos:])
    world.pile_pos = 0
    world.chance = state.chance.blind(rng)
    return world
