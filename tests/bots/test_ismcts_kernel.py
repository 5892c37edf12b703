"""ISMCTS rollouts through a game's compiled kernel (issue 17 items 2 and 3).

Where a game's heuristic module offers `kernel_rollout`, the search draws each rollout
from a kernel generator seeded by its own: the compiled kernel plays the world, and
without numba the engine plays it in Python drawing the same numbers (`KernelStream`).
Both must be the same rollout, and so the same search."""

from __future__ import annotations

import random

import pytest

from wasserspiele import load
from wasserspiele.bots.base import decision_for
from wasserspiele.bots.ismcts import (
    ISMCTSBot, KernelStream, evaluate, random_policy, returns_of, rewards, rollout,
)
from wasserspiele.games.seven_waters import heuristic as sw_heuristic

SW_OPTIONS = [{}, {"first_player": 1, "slide_limit": None, "final_turns": "none"},
              {"slide_limit": 2, "final_turns": "opponent_only"}]


def _worlds(game, count: int, seed: int):
    """Worlds sampled from a seat's view at random points of random games."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_game(seed=rng.randrange(10**6))
        for _ in range(rng.randrange(70)):
            if state.is_terminal():
                break
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            state.apply(legal[rng.randrange(len(legal))], seat)
        if not state.is_terminal():
            out.append(decision_for(state, state.to_move()[0]).sample(rng))
    return out


@pytest.mark.parametrize("options", SW_OPTIONS)
def test_sw_4_sw_5_kernel_rollout_is_the_engine_rollout_from_the_same_seed(options):
    """SW-4, SW-5: from the same world and generator state, the kernel and the engine
    (rollout_policy or random_policy drawing from a KernelStream) make the same moves to
    the same scores and winners, at any depth."""
    game = load("seven_waters", **options)
    rng = random.Random(3)
    played = over = 0
    for n, world in enumerate(_worlds(game, 60, seed=len(options))):
        for kind, policy in (("policy", sw_heuristic.rollout_policy), ("random", random_policy)):
            depth = (4, 15, 120)[n % 3]
            x = rng.getrandbits(32) or 1
            scores, winners = sw_heuristic.kernel_rollout(world, kind, depth, x)
            engine = world.clone()
            rollout(engine, policy, KernelStream(x), depth)
            assert scores == engine.scores(), (n, kind)
            assert winners == (engine.winners() if engine.is_terminal() else None), (n, kind)
            assert rewards(game, scores, None if winners is None else returns_of(game, winners)) == evaluate(engine)
            played += 1
            over += winners is not None
    assert over > played // 4  # whole games as well as cut-off ones were compared


def test_a_rollout_kind_the_kernel_does_not_play_is_left_to_the_engine():
    world = _worlds(load("seven_waters"), 1, seed=1)[0]
    assert sw_heuristic.kernel_rollout(world, "heuristic", 10, 1) is None


def _searched(game, seed: int, compiled: bool, iterations: int = 60):
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(3, 30)):
        state.apply(rng.choice(state.legal_actions()))
    bot = ISMCTSBot(seed=seed, iterations=iterations, game=game, compiled=compiled,
                    **dict(game.manifest.search.ismcts))
    choices = bot.search(decision_for(state, state.current_seat))
    return bot, [(str(c.action), c.visits, c.value) for c in choices]


@pytest.mark.parametrize("seed", range(3))
def test_search_through_the_kernel_builds_the_tree_of_the_engine_search(seed):
    """Same seed, rollouts compiled or played by the engine: the same root visits and values."""
    game = load("seven_waters")
    compiled_bot, compiled = _searched(game, seed, compiled=True)
    engine_bot, engine = _searched(game, seed, compiled=False)
    assert compiled_bot.compiled and not engine_bot.compiled
    assert compiled == engine
    assert sum(v for _, v, _ in compiled) == 60


def test_search_through_the_kernel_is_reproducible_for_a_seed():
    game = load("seven_waters", slide_limit=None)
    assert _searched(game, 7, compiled=True)[1] == _searched(game, 7, compiled=True)[1]


def test_games_without_a_kernel_rollout_search_as_before():
    """Wasserloch's heuristic offers no kernel rollout: its rollouts keep the bot's generator."""
    game = load("wasserloch")
    bot = ISMCTSBot(seed=1, iterations=10, game=game, compiled=True, **dict(game.manifest.search.ismcts))
    assert not bot.compiled


def test_returns_of_winners_are_the_engine_returns():
    game = load("seven_waters")
    assert returns_of(game, [1]) == [0.0, 1.0]
    assert returns_of(game, [0, 1]) == [0.5, 0.5]
    assert returns_of(game, []) == [0.0, 0.0]


def _ww_outcomes(world, n: int, kernel: bool, policy=random_policy) -> tuple[list[int], list[float]]:
    """Who wins (a shared win counts as -1) and seat 0's points in n rollouts of `world` to the end."""
    from wasserspiele.games.wildwasser import heuristic as ww_heuristic

    rng = random.Random(11)
    won, points = [], []
    for _ in range(n):
        x = rng.getrandbits(32) or 1
        if kernel:
            scores, winners = ww_heuristic.kernel_rollout(world, "random", 1000, x)
        else:
            engine = world.clone()
            engine.chance = world.chance.blind(random.Random(x))  # the world's own die, anew
            rollout(engine, policy, KernelStream(x), 1000)
            scores, winners = engine.scores(), engine.winners()
        assert winners is not None
        won.append(winners[0] if len(winners) == 1 else -1)
        points.append(scores[0])
    return won, points


def _differ(a: tuple, b: tuple) -> float:
    """The smaller p-value of a chi-square test on the winners and a two-sample
    Kolmogorov-Smirnov test on seat 0's points."""
    from scipy.stats import chi2_contingency, ks_2samp

    labels = sorted(set(a[0]) | set(b[0]))
    table = [[run.count(w) for w in labels] for run in (a[0], b[0])]
    return min(chi2_contingency(table)[1], ks_2samp(a[1], b[1], method="asymp").pvalue)


@pytest.mark.parametrize("players, river_flow", [(3, "forward"), (4, "back")])
def test_ww_5_kernel_rollouts_agree_with_engine_rollouts_in_distribution(players, river_flow):
    """WW-5.3: the kernel rolls its own die, so its rollouts of a world differ from the
    engine's draw by draw; over 600 rollouts of the same world each, the winners and seat 0's
    points agree (no test below p = 0.001), while an engine rollout that always takes the
    first legal action is told apart by the same tests."""
    game = load("wildwasser", players=players, river_flow=river_flow)
    world = _worlds(game, 1, seed=players)[0]
    kernel = _ww_outcomes(world, 600, kernel=True)
    assert _differ(kernel, _ww_outcomes(world, 600, kernel=False)) > 0.001
    first = _ww_outcomes(world, 600, kernel=False, policy=lambda w, seat, rng: w.legal_actions(seat)[0])
    assert _differ(kernel, first) < 0.001


def test_ww_search_through_the_kernel_is_reproducible_for_a_seed():
    game = load("wildwasser", players=4)
    first = _searched(game, 4, compiled=True)
    assert first[0].compiled and first[1] == _searched(game, 4, compiled=True)[1]


@pytest.mark.parametrize("compiled, hard, expert", [(True, 200, 1500), (False, 40, 300)])
def test_seven_waters_levels_buy_fewer_iterations_without_the_compiled_kernel(monkeypatch, compiled, hard, expert):
    """Without numba the rollouts run in Python, six times slower: the manifest's
    `python_levels` keep hard and expert within their time (bots/levels.py)."""
    import wasserspiele.fast as fast
    from wasserspiele.bots.levels import level_settings
    monkeypatch.setattr(fast, "COMPILED", compiled)
    game = load("seven_waters", first_player=1)  # the plain search (expert's guided one: tests/bots/test_levels.py)
    assert level_settings("hard", game)[1]["iterations"] == hard
    assert level_settings("expert", game) == ("ismcts", {"iterations": expert, "cpu_seconds": 2.0})
    assert level_settings("expert", load("wildwasser"))[1]["iterations"] == 3000  # no python_levels: unchanged
