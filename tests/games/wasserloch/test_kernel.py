"""The Wasserloch kernel plays by the engine's rules: thousands of kernel games replayed
through the Python engine (same deck, same plays) give the same legal plays at every
step, the same loot and the same winners; and the compiled kernel equals its
pure-Python fallback."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from wasserspiele import load
from wasserspiele.games.wasserloch import kernel as K
from wasserspiele.games.wasserloch.actions import PLAYS, VALUES


def _code(play) -> int:
    return 8 * play.value + play.count - 1


@pytest.mark.parametrize("players, chase, policies, seed", [
    (2, "nearest", K.RANDOM, 1), (3, "nearest", K.RANDOM, 2), (4, "nearest", K.RANDOM, 3),
    (3, "adjacent", K.RANDOM, 4), (3, "nearest", K.GREEDY, 5), (4, "adjacent", (K.GREEDY, K.RANDOM) * 2, 6),
])
def test_wl_4_kernel_games_replay_in_the_engine_with_equal_legal_plays_loot_and_winners(players, chase, policies,
                                                                                          seed):
    games = 400
    t = K.trace_rounds(games, players, seed, policies, chase)
    game = load("wasserloch", players=players, rounds=1, chase=chase)
    for g in range(games):
        deck = [VALUES[v] for v in t["decks"][g]]
        state = game.new_game(setup={"decks": [deck]})
        for step in range(t["steps"][g]):
            seat = state.current_seat
            legal = [_code(a) for a in state.legal_actions(seat)]
            assert legal == [c for c in t["legal"][g, step] if c >= 0], (g, step)
            code = int(t["played"][g, step])
            state.apply(PLAYS[code // 8][code % 8 + 1], seat)
        assert state.is_terminal(), g
        assert state.scores() == list(t["loot"][g])
        assert state.winners() == K.winners(t["loot"][g])


def test_play_rounds_loot_adds_up_and_refuses_bad_settings():
    loot = K.play_rounds(300, players=4, seed=9, policies=K.GREEDY)
    assert loot.shape == (300, 4) and (loot >= 0).all() and (loot.sum(axis=1) <= 64).all()
    with pytest.raises(ValueError, match="players must be 2-4"):
        K.play_rounds(1, players=5)
    with pytest.raises(ValueError, match="policies"):
        K.play_rounds(1, players=2, policies=(0, 7))


_FALLBACK = """
import json, sys
from wasserspiele.fast import COMPILED
from wasserspiele.games.wasserloch import kernel as K
loot = K.play_rounds(200, players=3, seed=12, policies=(K.GREEDY, K.RANDOM, K.GREEDY))
print(json.dumps([COMPILED, loot.tolist()]))
"""


def test_pure_python_fallback_plays_the_same_games_as_the_compiled_kernel():
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", _FALLBACK], env=env, capture_output=True, text=True, check=True)
    compiled, loot = json.loads(out.stdout)
    assert compiled is False
    expected = K.play_rounds(200, players=3, seed=12, policies=(K.GREEDY, K.RANDOM, K.GREEDY))
    assert np.array_equal(np.array(loot), expected)


class _Pick:
    """A stand-in generator whose random index is the k-th choice: every choice in turn."""

    def __init__(self, k: int):
        self.k = k

    def randrange(self, n: int) -> int:
        return min(self.k, n - 1)


def test_kernel_greedy_is_the_heuristic_rollout_policy():
    """Where rollout_policy's choice is forced (a herd to take) the kernel plays it; where
    it picks at random, the kernel picks among the same plays."""
    import random

    from wasserspiele.games.wasserloch.heuristic import rollout_policy
    rng = random.Random(3)
    game = load("wasserloch", players=3, rounds=1)
    trial, codes = np.zeros(8, np.int64), np.zeros(40, np.int64)
    for g in range(300):
        state = game.new_game(seed=g)
        while not state.is_terminal():
            seat = state.current_seat
            hands = np.array([v for h in state.hands for v in h], np.int64)
            hole = np.array(state.hole, np.int64)
            code, _ = K.greedy(hands, 8 * seat, hole, False, 12345 + g, trial, codes)
            options = {_code(rollout_policy(state, seat, _Pick(k))) for k in range(40)}
            assert code in options
            if len(options) == 1:
                assert code == options.pop()
            legal = state.legal_actions(seat)
            state.apply(legal[rng.randrange(len(legal))], seat)
