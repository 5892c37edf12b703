"""What one Pebbles seat may know: its own hand, everything placed, the prize turned up.
Hidden: the other hands, the prizes still face down, the bag."""

from __future__ import annotations

import random
from typing import Any

from .manifest import PEBBLES, ROUNDS


def view(state, seat: int | None) -> dict[str, Any]:
    s = state
    return {
        "game": "pebbles", "seat": seat, "players": s.players, "round": s.round + 1, "rounds": ROUNDS,
        "to_move": [] if s.over else [s.current],
        "hand": list(s.hands[seat]) if seat is not None else None,
        "hand_sizes": [len(h) for h in s.hands],
        "prize": None if s.over else s.prizes[s.round],
        "placed": list(s.placed), "discards": sorted(s.discards),
        "won": [list(w) for w in s.won], "scores": s.totals(),
        "last": None if s.last is None else {"winner": s.last[0], "pebble": s.last[1], "prize": s.last[2]},
        "over": s.over, "winners": s.winners() if s.over else [],
    }


def sample_world(state, seat: int, rng: random.Random):
    """The other hands, the face-down prizes and the bag dealt anew from what `seat` cannot see."""
    world = state.clone()
    shown = ROUNDS if state.over else state.round + 1  # prizes turned face up so far
    seen = {*state.hands[seat], *state.discards, *state.prizes[:shown],
            *(n for n in state.placed if n is not None)}
    unseen = [n for n in range(1, PEBBLES + 1) if n not in seen]
    rng.shuffle(unseen)
    for other in range(state.players):
        if other != seat:
            k = len(state.hands[other])
            world.hands[other], unseen = sorted(unseen[:k]), unseen[k:]
    hidden = ROUNDS - shown
    world.prizes = state.prizes[:shown] + tuple(unseen[:hidden])
    world.bag = tuple(unseen[hidden:])
    world.chance = state.chance.blind(rng)
    return world
