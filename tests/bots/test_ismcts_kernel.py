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


def _searched(game, seed: int, compiled: bool, iterations: int = 60, steps: tuple = (3, 30), **settings):
    """The root's choices of a seeded search at a position `steps` random actions into a game."""
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(*steps)):
        state.apply(rng.choice(state.legal_actions()))
    bot = ISMCTSBot(seed=seed, iterations=iterations, game=game, compiled=compiled,
                    **{**dict(game.manifest.search.ismcts), **settings})
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


WW_TABLES = [(players, flow) for players in range(2, 7) for flow in ("forward", "back")]


@pytest.mark.parametrize("estimate", [False, True])
@pytest.mark.parametrize("players, river_flow", WW_TABLES)
def test_ww_4_3_ww_5_3_kernel_rollout_is_the_engine_rollout_from_the_same_seed(players, river_flow, estimate):
    """WW-3.2, WW-4.3 (the die), WW-5.3: the search's rollout of a world from the same
    generator, played by the kernel (`kernel_rollout`) and by the engine in Python (the
    search without its compiled kernel, `_kernel_playout`), rolls the same dice and makes
    the same choices: the same scores, winners and values, cut off or to the end.  The
    engine used to roll the world's own die, and the two parted at its first roll.  With
    the search's `estimate`, a cut-off rollout's scores are the game's estimate of where
    it stopped, the same from the kernel and from the engine's world."""
    from wasserspiele.games.wildwasser import heuristic as ww_heuristic

    game = load("wildwasser", players=players, river_flow=river_flow)
    rng = random.Random(players)
    bots = {depth: ISMCTSBot(seed=0, game=game, rollout="random", rollout_depth=depth, compiled=False,
                             estimate=estimate) for depth in (3, 30, 1000)}
    over = rolled = 0
    for n, world in enumerate(_worlds(game, 24, seed=players + len(river_flow))):
        depth = (3, 30, 1000)[n % 3]
        seed = rng.randrange(2**32)
        x = random.Random(seed).getrandbits(32) or 1  # what the search draws for the rollout
        scores, winners = ww_heuristic.kernel_rollout(world, "random", depth, x, estimate=estimate)
        engine = world.clone()
        before = len(engine.chance.setup.get("dice", []))
        values = bots[depth]._kernel_playout(engine, random.Random(seed))  # plays `engine` in place
        cut = estimate and not engine.is_terminal()
        assert scores == (ww_heuristic.estimated_scores(engine) if cut else engine.scores()), (n, depth)
        assert winners == (engine.winners() if engine.is_terminal() else None), (n, depth)
        assert values == rewards(game, scores, None if winners is None else returns_of(game, winners)), (n, depth)
        over += winners is not None
        rolled += len(engine.chance.setup.get("dice", [])) > before
    assert over >= 6 and rolled >= 12  # whole games and cut-off ones, most with dice rolled


def test_kernel_stream_draws_the_kernels_numbers():
    """`KernelStream` writes out `fast.xorshift32` and `fast.below`: the same states and draws."""
    from wasserspiele.fast import below, xorshift32

    rng = random.Random(5)
    for _ in range(300):
        x = rng.getrandbits(32) or 1
        stream = KernelStream(x)
        for n in (1, 2, 5, 6, 7, 41):
            x = xorshift32(x)
            assert stream.randrange(n) == below(x, n) and stream.x == x


@pytest.mark.parametrize("players, river_flow, seed, depth, estimate", [
    (2, "forward", 0, None, False), (2, "back", 6, None, False), (3, "back", 7, None, False),
    (4, "forward", 2, 1000, False), (5, "back", 3, 1000, False), (6, "forward", 4, 1000, False),
    (3, "back", 5, None, True), (4, "back", 1, None, True), (5, "forward", 2, None, True)])
def test_ww_search_through_the_kernel_builds_the_tree_of_the_engine_search(players, river_flow, seed, depth,
                                                                          estimate):
    """Same seed, Wildwasser rollouts compiled or played by the engine in Python (numba
    absent): the same root visits and values, and so the same move; with the manifest's
    30-action rollouts and with rollouts to the end, in positions 40-120 actions into a game
    (where rollouts meet dice and finishes, so the values tell rollouts apart), and with
    cut-off rollouts valued by the game's estimate (`estimate`)."""
    game = load("wildwasser", players=players, river_flow=river_flow)
    settings = {"estimate": estimate} if depth is None else {"rollout_depth": depth, "estimate": estimate}
    compiled_bot, compiled = _searched(game, seed, compiled=True, steps=(40, 120), **settings)
    engine_bot, engine = _searched(game, seed, compiled=False, steps=(40, 120), **settings)
    assert compiled_bot.compiled and not engine_bot.compiled
    assert compiled == engine
    assert sum(v for _, v, _ in compiled) == 60
    assert len({v for _, _, v in compiled}) > 1  # the rollouts' values differ between actions


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
