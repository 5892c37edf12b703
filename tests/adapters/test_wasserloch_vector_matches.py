"""`gymnasium.make_vec("wasserspiele/Wasserloch-v0")` plays the game `gymnasium.make` plays:
whole matches (WL-5.5: 3 rounds by default, points added up, the start player one seat on
per round; WL-5.2: a round ends with the turn that emptied a hand).

The kernel VectorEnv and the single-table env run side by side: the single-table env's
chance and its other seats draw from each table's own xorshift32 generator as the kernel
does (its shuffle, its random and greedy seat policies), so both play the same deals and
the same moves, and every step's observation, mask, reward, termination and truncation
must agree, and so must the generators' states after it.  The single-table env decides
its rewards and ends itself (`WasserspieleEnv.step`); only its shuffles and its other
seats' choices are the kernel's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import gymnasium
import numpy as np
import pytest

import wasserspiele.adapters.gymnasium  # noqa: F401 - registers the ids
from wasserspiele.adapters.common import new_counted_game
from wasserspiele.fast import below, shuffle_xorshift, xorshift32
from wasserspiele.games.seven_waters.vector import SevenWatersVectorEnv
from wasserspiele.games.wasserloch import kernel as K
from wasserspiele.games.wasserloch.actions import PLAYS
from wasserspiele.games.wasserloch.vector import POLICIES, WasserlochVectorEnv
from wasserspiele.games.watten.vector import WattenVectorEnv
from wasserspiele.games.wildwasser.vector import WildwasserVectorEnv

ID = "wasserspiele/Wasserloch-v0"


class TableGenerator:
    """One kernel table's generator (its state `x`) as the engine's chance source and the
    other seats' bots draw from it."""

    def __init__(self, x: int):
        self.x = int(x)

    def shuffle(self, deck: list) -> None:
        """core.chance.Shuffle's hook for a generator of its own kind: Fisher-Yates as the
        kernel's `deal` shuffles (the engine's deck is in value order, as the kernel's)."""
        order = np.arange(len(deck), dtype=np.int64)
        self.x = shuffle_xorshift(order, len(deck), self.x)
        deck[:] = [deck[i] for i in order]

    def below(self, n: int) -> int:
        self.x = xorshift32(self.x)
        return below(self.x, n)


class KernelSeat:
    """A seat of the single-table env playing a kernel policy from the table's generator."""

    def __init__(self, generator: TableGenerator, policy: int, adjacent: bool):
        self.generator, self.policy, self.adjacent = generator, policy, adjacent

    def choose(self, decision):
        legal = decision.legal
        if self.policy == K.RANDOM:  # the kernel's random seat: legal play number r, in the engine's order
            return legal[self.generator.below(len(legal))]
        hand = np.array(decision.view["hand"], np.int64)
        hole = np.array(decision.view["waterhole"], np.int64)
        code, self.generator.x = K.greedy(hand, 0, hole, self.adjacent, self.generator.x,
                                          np.zeros(8, np.int64), np.zeros(8, np.int64))
        play = PLAYS[code // 8][code % 8 + 1]
        assert play in legal
        return play


def restart(env, x: int, policy: int):
    """`env.reset()` with the table's generator state `x` as its chance and its seats'
    choices: (generator, (observation, info))."""
    generator = TableGenerator(x)
    env._over = False
    env.state = new_counted_game(env.game, rng=generator)
    adjacent = env.game.options["chase"] == "adjacent"
    env.bots = {s: KernelSeat(generator, policy, adjacent) for s in range(env.game.players) if s != env.seat}
    env._play_bots()
    return generator, env._observation()


def play_side_by_side(options: dict, num_envs: int, matches: int, seed: int, illegal_p: float = 0.0) -> dict:
    """make_vec's kernel env (with `options`, the game's defaults for the rest) and one
    gymnasium.make env per table, stepped together until `matches` matches have ended
    by the rules; every step's results compared.  Counts of what was seen."""
    envs = gymnasium.make_vec(ID, num_envs=num_envs, **options)
    kernel = envs.unwrapped
    policy = POLICIES[options.get("opponents", "random")]
    single_options = {k: v for k, v in options.items() if k != "opponents"}
    singles = [gymnasium.make(ID, **single_options).unwrapped for _ in range(num_envs)]
    assert kernel.single_observation_space == singles[0].observation_space
    assert kernel.single_action_space == singles[0].action_space
    dealt = []
    deal_tables = kernel._reset_tables

    def capture(xs):  # each table's first generator state
        dealt.append(xs.copy())
        deal_tables(xs)
    kernel._reset_tables = capture
    obs, info = envs.reset(seed=seed)
    generators, firsts = zip(*(restart(singles[e], dealt[0][e], policy) for e in range(num_envs)))
    generators = list(generators)
    for e, (o, i) in enumerate(firsts):
        assert np.array_equal(obs[e], o) and np.array_equal(info["action_mask"][e], i["action_mask"]), e
    rng = np.random.default_rng(seed)
    seen = {"matches": 0, "illegal": 0, "rounds": set(), "rewards": set(), "steps": 0}
    while seen["matches"] < matches:
        masks = info["action_mask"]
        actions = np.array([int(np.flatnonzero(m == 0)[0]) if m.any() and rng.random() < illegal_p else
                            int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks])
        fresh, before = kernel.needs_reset.copy(), kernel.xs.copy()
        obs, rewards, terminated, truncated, info = envs.step(actions)
        seen["steps"] += 1
        for e, single in enumerate(singles):
            if fresh[e]:  # next-step autoreset: a new match from the generator's state
                generators[e], (o, i) = restart(single, before[e], policy)
                r, t, tr = 0.0, False, False
            else:
                o, r, t, tr, i = single.step(actions[e])
            where = (e, seen["steps"], single.state.round)
            assert np.array_equal(info["action_mask"][e], i["action_mask"]), where
            assert np.array_equal(obs[e], o), where
            assert (rewards[e], bool(terminated[e]), bool(truncated[e])) == (r, t, tr), where
            assert kernel.xs[e] == generators[e].x, where  # the same deals and choices so far
            seen["rounds"].add(single.state.round)
            if t and "illegal_action" in i:
                seen["illegal"] += 1
            elif t:
                assert single.state.is_terminal() and single.state.round == single.game.options["rounds"] - 1
                seen["matches"] += 1
                seen["rewards"].add(round(r, 6))
    envs.close()
    return seen


@pytest.mark.parametrize("options, num_envs, matches", [
    ({}, 16, 150),                                                  # the defaults: 3 players, 3 rounds
    ({"players": 2, "seat": 1, "opponents": "greedy", "rounds": 2, "first_player": 1}, 8, 100),
    ({"players": 4, "seat": 3, "opponents": "greedy", "chase": "adjacent", "first_player": 2}, 8, 60),
    ({"players": 3, "seat": 2, "rounds": 5, "chase": "adjacent"}, 8, 40),
    ({"players": 3, "rounds": 1}, 8, 60),                          # the one-round variant (WL-7.1)
])
def test_wl_5_5_make_vec_plays_the_same_matches_as_gymnasium_make(options, num_envs, matches):
    rounds = options.get("rounds", 3)
    seen = play_side_by_side(options, num_envs, matches, seed=len(options) * 7 + num_envs)
    assert seen["matches"] >= matches
    assert seen["rounds"] == set(range(rounds))  # every round of the match was played
    if options.get("opponents", "random") == "random":  # (a random agent loses every match to greedy seats)
        assert len(seen["rewards"]) >= 2  # won and lost matches both seen


def test_wl_5_2_an_illegal_index_ends_the_episode_alike_and_the_tables_go_on_alike():
    seen = play_side_by_side({"players": 3, "opponents": "greedy"}, 6, 30, seed=5, illegal_p=0.03)
    assert seen["illegal"] >= 5 and seen["matches"] >= 30


def test_wl_5_5_make_vec_defaults_are_the_games_defaults():
    """Plain make_vec: the game's 3-round match with gymnasium.make's spaces (it was a
    one-round game with other observation bounds)."""
    envs = gymnasium.make_vec(ID, num_envs=2)
    single = gymnasium.make(ID)
    assert envs.unwrapped.rounds == single.unwrapped.game.options["rounds"] == 3
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    assert envs.unwrapped.max_game_length == single.unwrapped.max_game_length
    # an option given is the caller's, whether as a keyword or in `options`
    assert gymnasium.make_vec(ID, num_envs=2, rounds=1).unwrapped.rounds == 1
    assert gymnasium.make_vec(ID, num_envs=2, options={"rounds": 2}).unwrapped.rounds == 2


def test_the_vector_env_checks_the_match_options_as_the_game_does():
    with pytest.raises(ValueError, match="rounds"):
        WasserlochVectorEnv(2, rounds=0)
    with pytest.raises(ValueError, match="first_player"):
        WasserlochVectorEnv(2, players=2, first_player=2)


KERNEL_ENVS = {
    "wasserloch": lambda: WasserlochVectorEnv(3, players=2, seed=1),
    "watten": lambda: WattenVectorEnv(3, seed=1),
    "seven_waters": lambda: SevenWatersVectorEnv(3, seed=1),
    "wildwasser": lambda: WildwasserVectorEnv(3, players=3, seed=1),
}


@pytest.mark.parametrize("name", KERNEL_ENVS)
def test_after_an_illegal_index_nothing_is_legal_as_in_the_single_table_env(name):
    """The episode is over, so the mask is all zeros (the single-table env's, and the
    kernel envs' own after a truncation); it kept the table's legal plays."""
    envs = KERNEL_ENVS[name]()
    _obs, info = envs.reset()
    bad = np.array([int(np.flatnonzero(m == 0)[0]) for m in info["action_mask"]])
    bad[0] = int(np.flatnonzero(info["action_mask"][0])[0])  # table 0 plays on
    _obs, _r, terminated, _t, info = envs.step(bad)
    assert list(terminated[1:]) == [True, True] and not terminated[0]
    assert not info["action_mask"][1:].any() and not envs.action_masks()[1:].any()
    assert info["action_mask"][0].any() and envs.action_masks()[0].any()


_FALLBACK = """
import json, sys
import numpy as np
from wasserspiele.fast import COMPILED
from wasserspiele.games.wasserloch.vector import WasserlochVectorEnv
envs = WasserlochVectorEnv(6, players=3, seat=1, opponents=sys.argv[1], rounds=3, first_player=2, seed=4)
obs, info = envs.reset()
rng = np.random.default_rng(1)
out = [obs.sum(dtype=np.float64)]
for _ in range(int(sys.argv[2])):
    actions = [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]]
    obs, rewards, terminated, truncated, info = envs.step(actions)
    out += [obs.sum(dtype=np.float64), rewards.tolist(), terminated.tolist(), envs.banked.tolist(), envs.rnd.tolist()]
print(json.dumps([COMPILED, out]))
"""


@pytest.mark.parametrize("opponents", ["random", "greedy"])
def test_the_pure_python_fallback_plays_the_same_matches(opponents):
    runs = []
    for jit in ("0", "1"):
        env = {**os.environ, "NUMBA_DISABLE_JIT": jit}
        done = subprocess.run([sys.executable, "-c", _FALLBACK, opponents, "120"], env=env, capture_output=True,
                              text=True, check=True)
        runs.append(json.loads(done.stdout))
    (compiled, fast), (fallback, slow) = runs
    assert fallback is False
    assert fast == slow
    assert any(max(rnd) == 2 for rnd in slow[5::5])  # third rounds were reached


@pytest.mark.parametrize("name", KERNEL_ENVS)
def test_a_finished_game_shows_an_all_zero_mask(name):
    """The kernels' encoders zero the mask of a game that is over (the base env zeroes
    only the tables an illegal index or the length bound ended)."""
    envs = KERNEL_ENVS[name]()
    _obs, info = envs.reset(seed=2)
    rng = np.random.default_rng(2)
    ends = 0
    for _ in range(400):
        actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in info["action_mask"]]
        _obs, _r, terminated, _t, info = envs.step(actions)
        assert "illegal_action" not in info
        assert not info["action_mask"][terminated].any() and not envs.action_masks()[terminated].any()
        ends += int(terminated.sum())
    assert ends >= 3
