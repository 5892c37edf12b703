"""The Watten kernel plays by the engine's rules: thousands of kernel games replayed
through the Python engine (the kernel's deals and signal checks as the record's setup,
the same actions) give the same seat to move and the same legal actions at every
decision, the same scores and the same winners; the greedy seats play
heuristic.rollout_policy; and the compiled kernel equals its pure-Python fallback."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import subprocess
import sys

import numpy as np
import pytest

from wasserspiele import load
from wasserspiele.fast import COMPILED
from wasserspiele.games.watten import kernel as K
from wasserspiele.games.watten.actions import CARD_NAMES
from wasserspiele.games.watten.heuristic import rollout_policy

R, G = K.RANDOM, K.GREEDY
CASES = [  # (games, policies, options, seed)
    (1000, R, {}, 1),                                                         # the defaults
    (300, G, {}, 2),
    (400, (G, R, R, G), {"raising": True}, 3),
    (400, R, {"raising": True, "signal_detection_p": 0.3, "target": 7}, 4),
    (300, (R, G, G, R), {"jack_order": "first_played", "follow": "trump_only", "caller": "dealer_left",
                         "hand_value": 2, "target": 15, "raising": True, "first_dealer": 2}, 5),
    (300, R, {"signals": "off", "signal_detection_p": 0.5, "raising": True}, 6),
    (200, G, {"signals": "public", "signal_detection_p": 0.2, "raising": True, "target": 5}, 7),
]


@pytest.mark.parametrize("games, policies, options, seed", CASES)
def test_wa_1_to_wa_6_kernel_games_replay_in_the_engine_with_equal_legal_actions_scores_and_winners(games, policies, options,
                                                                                          seed):
    t = K.trace_games(games, seed, policies, **options)
    game = load("watten", **options)
    for g in range(games):
        setup = {"deals": [[CARD_NAMES[c] for c in deck] for deck in t["decks"][g, :t["hands"][g]]],
                 "signal_checks": [float(x) for x in t["checks"][g, :t["checks_used"][g]]]}
        state = game.new_game(setup=setup)
        for step in range(t["steps"][g]):
            seat = state.current_seat
            assert seat == t["seats"][g, step], (g, step)
            legal = sorted(K.code_of(a) for a in state.legal_actions(seat))
            assert legal == K.legal_codes(int(t["legal"][g, step])), (g, step)
            state.apply(K.ACTIONS[t["played"][g, step]], seat)
        assert state.is_terminal(), g
        assert state.chance.used("deals") == t["hands"][g]                      # every deal was played
        assert state.chance.used("signal_checks") == t["checks_used"][g]
        assert state.scores() == [*t["scores"][g], *t["scores"][g]]
        assert state.winners() == K.winners(t["scores"][g], game.target)


def test_play_games_end_at_the_target_and_refuse_bad_settings():
    scores = K.play_games(500, seed=8, policies=(G, R, G, R), raising=True, target=9)
    assert scores.shape == (500, 2) and (scores.max(axis=1) >= 9).all() and (scores.min(axis=1) < 9).all()
    with pytest.raises(ValueError, match="policies"):
        K.play_games(1, policies=(0, 1))
    with pytest.raises(ValueError, match="target"):
        K.play_games(1, target=0)
    with pytest.raises(ValueError, match="no option 'players'"):
        K.play_games(1, players=3)


def test_the_greedy_seats_win_more_than_random_ones():
    """Not a rule, a sanity check of the greedy policy: partners playing it beat random partners."""
    scores = K.play_games(2000, seed=9, policies=(G, R, G, R))
    assert (scores[:, 0] >= 11).mean() > 0.6


_FALLBACK = """
import json
import numpy as np
from wasserspiele.fast import COMPILED
from wasserspiele.games.watten import kernel as K
from wasserspiele.games.watten.vector import WattenVectorEnv
scores = K.play_games(60, seed=12, policies=(K.GREEDY, K.RANDOM, K.RANDOM, K.GREEDY), raising=True,
                      signal_detection_p=0.25)
t = K.trace_games(10, 13, raising=True, signal_detection_p=0.25)
envs = WattenVectorEnv(4, seat=1, opponents="greedy", seed=14, raising=True)
obs, info = envs.reset()
rewards = []
for i in range(200):
    obs, r, *_rest, info = envs.step([int(np.flatnonzero(m)[i % m.sum()]) if m.any() else 0
                                      for m in info["action_mask"]])
    rewards.append(r.tolist())
print(json.dumps([COMPILED, scores.tolist(), t["played"].tolist(), t["legal"].tolist(), t["checks"].tolist(),
                  obs.tolist(), rewards]))
"""


def test_pure_python_fallback_plays_the_same_games_as_the_compiled_kernel():
    """Whole games, traces (legal sets, actions, signal checks) and vector-env steps."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", _FALLBACK], env=env, capture_output=True, text=True, check=True)
    compiled, *results = json.loads(out.stdout)
    assert compiled is False
    # the compiled side in this process: a second child would pay the interpreter, numba's
    # import and the kernels' loading again (about 2 CPU-s) for the same numbers
    here = io.StringIO()
    with contextlib.redirect_stdout(here):
        exec(_FALLBACK, {})
    compiled_here, *expected = json.loads(here.getvalue())
    assert compiled_here is COMPILED
    assert results == expected
    assert results[0] == K.play_games(60, seed=12, policies=(G, R, R, G), raising=True,
                                      signal_detection_p=0.25).tolist()


class _Ties:
    """A stand-in generator for rollout_policy: `random()` prefers suit k among tied ones."""

    def __init__(self, k: int):
        self.k, self.n = k, 0

    def random(self) -> float:
        self.n += 1
        return 1.0 if self.n - 1 == self.k else 0.0

    def randrange(self, n: int) -> int:
        return 0


@pytest.mark.parametrize("options", [{}, {"raising": True, "jack_order": "first_played", "follow": "trump_only"}])
def test_kernel_greedy_is_the_heuristic_rollout_policy(options):
    """At every decision of random engine games the kernel's greedy code is rollout_policy's
    action; where rollout_policy breaks a tie of the trump call at random, the kernel picks
    one of the same tied suits."""
    game = load("watten", **options)
    rules = K.Rules(**options)
    codes = np.zeros(8, np.int64)
    rng = random.Random(4)
    for g in range(60):
        state = game.new_game(seed=g)
        while not state.is_terminal():
            seat = state.current_seat
            t = K.table_of(state)
            k = K.legal(t, rules.opts, rules.eff, codes)
            code, _ = K.greedy(t, rules.opts, rules.eff, rules.strength, 777 + g, codes, k)
            options_ = {K.code_of(rollout_policy(state, seat, _Ties(j))) for j in range(4)}
            assert code in options_, (g, state.history[-3:])
            if len(options_) == 1:
                assert code == options_.pop()
            legal = state.legal_actions(seat)
            state.apply(legal[rng.randrange(len(legal))], seat)


def test_table_of_an_engine_position_has_the_engine_legal_actions():
    game = load("watten", raising=True, follow="trump_only")
    rules = K.Rules(raising=True, follow="trump_only")
    codes = np.zeros(8, np.int64)
    rng = random.Random(5)
    for g in range(40):
        state = game.new_game(seed=100 + g)
        while not state.is_terminal():
            seat = state.current_seat
            k = K.legal(K.table_of(state), rules.opts, rules.eff, codes)
            legal = state.legal_actions(seat)
            assert list(codes[:k]) == [K.code_of(a) for a in legal]  # the same order, too
            state.apply(legal[rng.randrange(len(legal))], seat)
