"""Building Watten positions from explicit deals."""

from __future__ import annotations

import random

from wasserspiele import load
from wasserspiele.games.watten.actions import CARD_NAMES


def deal(hands: dict[int, str], caller: int, unused: str = "") -> list[str]:
    """A 32-card deal giving each listed seat its cards ('JC 8C AH ...'); other seats and
    the unused 12 get the remaining cards in deck order.  First 5 go to the caller."""
    fixed = {s: h.split() for s, h in hands.items()}
    used = [c for h in fixed.values() for c in h] + unused.split()
    assert len(used) == len(set(used)), "a card is listed twice"
    rest = [c for c in CARD_NAMES if c not in used]
    order: list[str] = []
    for k in range(4):
        seat = (caller + k) % 4
        h = fixed.get(seat)
        if h is None:
            h, rest = rest[:5], rest[5:]
        assert len(h) == 5, f"seat {seat} needs 5 cards"
        order += h
    order += unused.split() + rest
    assert len(order) == 32
    return order


def new(hands: dict[int, str], *, deals_after=0, seed=0, checks=None, unused="", **options):
    """A game whose first hand deals `hands` (dealer = option first_dealer, default 0).
    Later hands come from a seeded generator unless `deals_after` < 0 (strict record)."""
    game = load("watten", **options)
    caller = (game.options["first_dealer"] + (3 if game.options["caller"] == "dealer_right" else 1)) % 4
    setup = {"deals": [deal(hands, caller, unused)]}
    if checks is not None:
        setup["signal_checks"] = list(checks)
    rng = None if deals_after < 0 else random.Random(seed)
    return game.new_game(setup=setup, rng=rng)


def play(state, *actions: str):
    """Apply actions in notation, each for the seat to move."""
    for a in actions:
        state.apply(a)
    return state


def start(hands, trump="H", **options):
    """Deal, name trump, and pass the signal phase with `signal none` (if signals are on)."""
    state = new(hands, **options)
    state.apply(f"trump {trump}")
    if state.view(None)["phase"] == "signal":
        play(state, *["signal none"] * 4)
    return state
