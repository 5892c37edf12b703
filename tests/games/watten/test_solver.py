"""The Watten kernel's solver (kernel.hand_winner: the rest of a hand with every hand
open, the search leaves of `ismcts:rollout=solve`) gives the result of an exhaustive
search over the engine's own rules (WA-3, WA-4.1) on positions from the first card to
the last trick, under every option that changes the card play; the hook the search
calls scores the hand as the engine would; and the pure-Python fallback agrees."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import numpy as np
import pytest

from wasserspiele import load
from wasserspiele.games.watten import kernel as K
from wasserspiele.games.watten.actions import PLAY
from wasserspiele.games.watten.heuristic import kernel_solve
from wasserspiele.games.watten.state import PLAY_PHASE


def reference_winner(state) -> int:
    """The team that wins the hand in progress when all play perfectly, all cards open:
    every card the engine allows, tried on clones (no pruning but the answer found)."""
    results = len(state.results)

    def team0_wins(s) -> bool:
        if len(s.results) > results:  # the fifth trick ended the hand
            return s.results[results][3] == 0
        if s.won[0] >= 3:  # WA-4.1: three tricks win, whatever the rest
            return True
        if s.won[1] >= 3:
            return False
        seat = s.current_seat
        team0 = seat % 2 == 0
        for a in s.legal_actions(seat):
            if a.kind != PLAY:  # raising is not played by the solver (a bet on hidden cards)
                continue
            child = s.clone()
            child.apply_legal(a, seat)
            if team0_wins(child) == team0:
                return team0
        return not team0

    return 0 if team0_wins(state) else 1


def positions(options: dict, count: int, seed: int, min_cards: int = 0):
    """Engine positions in the card play of random games: a card to play, at least
    `min_cards` of the hand already played."""
    game = load("watten", **options)
    rng = random.Random(seed)
    found = []
    g = 0
    while len(found) < count:
        state = game.new_game(seed=seed * 1000 + g)
        g += 1
        stop = rng.randrange(min_cards, 20)
        while not state.is_terminal():
            seat = state.current_seat
            played = sum(len(trick[1]) for trick in state.tricks) + len(state.trick)
            if state.phase == PLAY_PHASE and played >= stop and state.won[0] < 3 and state.won[1] < 3:
                found.append(state.clone())
                break
            legal = state.legal_actions(seat)
            state.apply(legal[rng.randrange(len(legal))], seat)
    return found


OPTIONS = [{}, {"jack_order": "first_played"}, {"follow": "trump_only"},
           {"raising": True, "jack_order": "first_played", "follow": "trump_only", "caller": "dealer_left"}]


@pytest.mark.parametrize("options", OPTIONS)
def test_wa_3_wa_4_1_the_solver_finds_the_exhaustive_search_s_winner(options):
    rules = K.Rules(**options)
    deep = positions(options, 120, seed=1, min_cards=8)  # tricks under way, every stage to the last
    whole = positions(options, 12, seed=2)  # from the first card of the hand on
    winners = []
    for state in deep + whole:
        got = K.hand_winner(K.table_of(state), rules.opts, rules.eff, rules.strength)
        assert got == reference_winner(state), (state.history[-6:], state.hands)
        winners.append(got)
    assert 0 < sum(winners) < len(winners)  # both teams win some: the test can tell them apart


def test_the_solver_sees_what_greedy_play_misses():
    """Perfect play with open hands wins hands the rollout policy loses: on positions
    where the two differ, the solver's winner is the exhaustive search's."""
    rules = K.Rules()
    greedy = K.GREEDY
    differ = 0
    for state in positions({}, 150, seed=3, min_cards=4):
        t = K.table_of(state)
        solved = K.hand_winner(t, rules.opts, rules.eff, rules.strength)
        # the greedy policy for all four plays the hand out in the kernel
        x = 99
        codes = np.zeros(8, np.int64)
        while t[K.WON] < 3 and t[K.WON + 1] < 3:
            k = K.legal(t, rules.opts, rules.eff, codes)
            code, x = K.choose(greedy, t, rules.opts, rules.eff, rules.strength, x, codes, k)
            K.play_card(t, rules.opts, rules.eff, rules.strength, code)
        if (0 if t[K.WON] >= 3 else 1) != solved:
            differ += 1
            assert solved == reference_winner(state)
    assert differ >= 5


def test_kernel_solve_scores_the_hand_and_ends_the_game_at_the_target():
    """The search hook: the winning team gets the hand's value (WA-4.1), the game is won
    at the target (WA-4.2); no answer before the card play."""
    game = load("watten", target=3)
    state = game.new_game(seed=5)
    assert kernel_solve(state) is None  # the trump call is the policy's
    found = {False: 0, True: 0}
    for state in positions({"target": 3}, 80, seed=6):
        team = reference_winner(state)
        scores, winners = kernel_solve(state)
        expected = state.team_scores[:]
        expected[team] += state.value
        assert scores == [expected[0], expected[1], expected[0], expected[1]]
        over = expected[team] >= 3
        assert winners == ([team, team + 2] if over else None)
        found[over] += 1
    assert found[False] and found[True]


_FALLBACK = """
import json, random
from wasserspiele import load
from wasserspiele.fast import COMPILED
from wasserspiele.games.watten import kernel as K
rules = K.Rules(jack_order="first_played")
game = load("watten", jack_order="first_played")
rng = random.Random(7)
out = []
for g in range(12):
    s = game.new_game(seed=g)
    stop = rng.randrange(6, 20)
    while not (s.phase == 2 and sum(len(t[1]) for t in s.tricks) + len(s.trick) >= stop
               and s.won[0] < 3 and s.won[1] < 3):
        legal = s.legal_actions(s.current_seat)
        s.apply(legal[rng.randrange(len(legal))], s.current_seat)
        if s.is_terminal():
            break
    if not s.is_terminal():
        out.append(int(K.hand_winner(K.table_of(s), rules.opts, rules.eff, rules.strength)))
print(json.dumps([COMPILED, out]))
"""


def test_pure_python_fallback_solves_alike():
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", _FALLBACK], env=env, capture_output=True, text=True, check=True)
    compiled, results = json.loads(out.stdout)
    assert compiled is False
    here = subprocess.run([sys.executable, "-c", _FALLBACK], capture_output=True, text=True, check=True)
    assert json.loads(here.stdout)[1] == results
    assert len(results) >= 8


_FALLBACK_MANY = """
import json, random, sys
from wasserspiele import load
from wasserspiele.fast import COMPILED
from wasserspiele.games.watten import kernel as K
out = []
for options in ({}, {"jack_order": "first_played"}, {"follow": "trump_only"}):
    rules, game, rng = K.Rules(**options), load("watten", **options), random.Random(11)
    g = n = 0
    while n < 40:  # from the first card of a hand to its last trick
        s = game.new_game(seed=5000 + g)
        g += 1
        stop = rng.randrange(0, 20)
        while not s.is_terminal():
            if s.phase == 2 and sum(len(t[1]) for t in s.tricks) + len(s.trick) >= stop \\
                    and s.won[0] < 3 and s.won[1] < 3:
                out.append(int(K.hand_winner(K.table_of(s), rules.opts, rules.eff, rules.strength)))
                n += 1
                break
            legal = s.legal_actions(s.current_seat)
            s.apply(legal[rng.randrange(len(legal))], s.current_seat)
print(json.dumps([COMPILED, out]))
"""


def test_the_pure_python_fallback_solves_without_an_overflow_warning():
    """The remembered trick starts' slot was ((key * 0x9E3779B1) >> 7): a 41-bit key times
    a 32-bit constant overflows int64; compiled, numba wrapped it silently, but the
    fallback's numpy scalars said "RuntimeWarning: overflow encountered in scalar
    multiply" to a user without numba.  Warnings are errors here; the answers are the
    compiled solver's (the table is only a cache: its slots change no answer)."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    strict = [sys.executable, "-W", "error::RuntimeWarning", "-c", _FALLBACK_MANY]
    out = subprocess.run(strict, env=env, capture_output=True, text=True)
    assert out.returncode == 0 and "Warning" not in out.stderr, out.stderr[-600:]
    compiled, results = json.loads(out.stdout)
    assert compiled is False
    here = subprocess.run([sys.executable, "-c", _FALLBACK_MANY], capture_output=True, text=True, check=True)
    assert json.loads(here.stdout)[1] == results
    assert len(results) == 120 and 0 < sum(results) < 120
