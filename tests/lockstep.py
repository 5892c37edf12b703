"""One seeded random game played twice in lockstep: through the checked `apply` and
through the trusted `apply_legal`, on the same actions (the shared check of
tests/test_trusted_apply.py and the games' own, stricter per-step checks)."""

from __future__ import annotations

import random


def play_checked_and_trusted(game, seed: int, each_step=None):
    """Both paths from `game.new_game(seed=seed)` to the end, the actions drawn by
    `random.Random(seed)` from the checked side's legal list (which the trusted side must
    offer too); `each_step(checked, trusted)` runs after every action.  Returns both."""
    checked, trusted = game.new_game(seed=seed), game.new_game(seed=seed)
    rng = random.Random(seed)
    while not checked.is_terminal():
        seat = checked.current_seat
        legal = checked.legal_actions(seat)
        assert trusted.legal_actions(seat) == legal
        action = legal[rng.randrange(len(legal))]
        checked.apply(action, seat)
        trusted.apply_legal(action, seat)
        if each_step is not None:
            each_step(checked, trusted)
    return checked, trusted
