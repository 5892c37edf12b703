"""The ISMCTS bot: views only, deterministic, always legal, within its budget — in every game."""

from __future__ import annotations

import json
import random
import time

import pytest

from wasserspiele import game_names, load
from wasserspiele.bots.base import Decision, decision_for
from wasserspiele.bots.ismcts import MAX_ITERATIONS, ISMCTSBot
from wasserspiele.bots.specs import parse_bot_spec
from wasserspiele.core.errors import BadOption
from wasserspiele.bots.registry import make_bot
from wasserspiele.core.protocol import State
from .spies import spy_on


def _midgame(name: str, seed: int = 3, steps: int = 7) -> State:
    state = load(name).new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        seat = state.current_seat
        state.apply(rng.choice(list(state.legal_actions(seat))), seat)
    return state


@pytest.mark.parametrize("name", game_names())
def test_bot_receives_views_only_and_never_touches_the_true_state(name, monkeypatch):
    state = _midgame(name)
    seat = state.current_seat
    decision = decision_for(state, seat)
    # nothing in what the bot is handed is a State: the view is plain JSON data
    assert not any(isinstance(getattr(decision, f), State) for f in ("game", "seat", "view", "legal"))
    json.dumps(decision.view)
    touched = spy_on(state, monkeypatch)
    bot = ISMCTSBot(seed=1, iterations=60, game=state.game)
    action = bot.choose(decision)
    assert action in decision.legal
    assert touched == [], f"the bot reached the true state through {touched}"


@pytest.mark.parametrize("name", game_names())
def test_deterministic_for_a_fixed_seed_and_iteration_budget(name):
    state = _midgame(name, seed=5)
    seat = state.current_seat
    runs = []
    for _ in range(2):
        bot = ISMCTSBot(seed=42, iterations=80, game=state.game)
        runs.append([(str(c.action), c.visits, round(c.value, 9)) for c in bot.search(decision_for(state, seat))])
    assert runs[0] == runs[1]


@pytest.mark.parametrize("name", game_names())
def test_always_returns_a_legal_action_through_a_whole_game(name):
    game = load(name)
    state = game.new_game(seed=11)
    bot = make_bot("ismcts", game, seed=3, iterations=8)
    rng = random.Random(0)
    moves = 0
    while not state.is_terminal() and moves < 400:
        seat = state.current_seat
        if moves % 3 == 0:
            decision = decision_for(state, seat)
            action = bot.choose(decision)
            assert action in decision.legal
        else:
            action = rng.choice(list(state.legal_actions(seat)))
        state.apply(action, seat)
        moves += 1


def test_respects_its_iteration_budget():
    state = _midgame("wasserloch")
    bot = ISMCTSBot(seed=1, iterations=37, game=state.game)
    choices = bot.search(decision_for(state, state.current_seat))
    assert bot.last_iterations == 37
    assert sum(c.visits for c in choices) <= 37


def test_respects_its_time_budget():
    state = _midgame("wasserloch")
    bot = ISMCTSBot(seed=1, iterations=None, seconds=0.1, game=state.game)
    start = time.perf_counter()
    bot.search(decision_for(state, state.current_seat))
    # generous slack: this only checks that the clock is consulted, not the machine's speed
    assert time.perf_counter() - start < 2.0
    assert bot.last_iterations > 0


def test_a_single_legal_action_needs_no_search():
    game = load("wasserloch")
    state = game.new_game(seed=1)
    decision = decision_for(state, 0)
    only = Decision(decision.game, 0, decision.view, decision.legal[:1], decision.sample)
    bot = ISMCTSBot(seed=1, iterations=1000, game=game)
    assert bot.choose(only) is decision.legal[0] and bot.last_iterations == 0


def test_budget_must_be_given():
    with pytest.raises(ValueError, match="budget"):
        ISMCTSBot(seed=1, iterations=None, seconds=None)


def test_team_rewards_are_shared_between_partners():
    state = load("watten").new_game(seed=2)
    rng = random.Random(1)
    while not state.is_terminal():
        seat = state.current_seat
        state.apply(rng.choice(list(state.legal_actions(seat))), seat)
    r = state.returns()
    assert r[0] == r[2] and r[1] == r[3] and sorted({r[0], r[1]}) == [0.0, 1.0]


def test_belief_and_conventions_need_a_heuristic_that_offers_them():
    game = load("wildwasser")
    with pytest.raises(ValueError, match="plausibility"):
        ISMCTSBot(seed=1, iterations=10, belief=True, game=game)
    with pytest.raises(ValueError, match="convention"):
        ISMCTSBot(seed=1, iterations=10, conventions=True, game=game)
    with pytest.raises(ValueError, match="requires the game"):
        ISMCTSBot(seed=1, iterations=10, belief=True)


def test_solved_rollouts_need_a_game_whose_heuristic_offers_a_solver():
    with pytest.raises(ValueError, match="solved rollouts: the wasserloch heuristic does not define kernel_solve"):
        ISMCTSBot(seed=1, iterations=10, rollout="solve", game=load("wasserloch"))
    with pytest.raises(ValueError, match="unknown rollout 'solved' .*solve"):
        ISMCTSBot(seed=1, iterations=10, rollout="solved", game=load("watten"))


def test_solved_rollouts_play_legal_reproducible_moves_and_value_leaves_by_the_solver(monkeypatch):
    """Watten's search with the deal solved at its leaves (`rollout="solve"`): legal and
    the same for a seed from the call through the tricks, and every iteration's leaf
    valued by the game's solver (the policy only plays the call and signals before it)."""
    from wasserspiele.games.watten import heuristic

    game = load("watten")
    state = game.new_game(seed=8)
    answers = []
    solve = heuristic.kernel_solve

    def counting_solve(world):
        result = solve(world)
        answers.append(result is not None)
        return result

    monkeypatch.setattr(heuristic, "kernel_solve", counting_solve)
    rng = random.Random(2)
    searched = iterations = solved = 0
    while not state.is_terminal() and searched < 12:
        seat = state.current_seat
        decision = decision_for(state, seat)
        if len(decision.legal) == 1:
            state.apply(decision.legal[0], seat)
            continue
        runs = []
        for _ in range(2):
            bot = ISMCTSBot(seed=7, iterations=40, rollout="solve", rollout_depth=25, game=game)
            bot.load_compiled()  # (one solved deal, which the first search would make first)
            answers.clear()
            runs.append([(c.action, c.visits) for c in bot.search(decision)])
            iterations += bot.last_iterations
            solved += sum(answers)
        assert runs[0] == runs[1] and runs[0][0][0] in decision.legal
        searched += 1
        state.apply(rng.choice(decision.legal), seat)
    assert searched == 12 and iterations == 2 * 12 * 40
    assert solved == iterations  # one solved deal per iteration, none cut short


@pytest.mark.parametrize("name, rollout", [("watten", "solve"), ("wildwasser", "random")])
def test_a_search_loads_the_compiled_kernel_before_its_clocks_start_not_when_the_bot_is_made(name, rollout, monkeypatch):
    """Loading the solver or a rollout kernel from numba's disk cache costs about a
    CPU-second (a compilation on a fresh install): paid before the first search reads its
    clocks, whose CPU safety net would count it, and not when the bot is made, as a bot is
    also made only to check its settings (an arena's parent process, the docs' commands)."""
    from wasserspiele.bots import ismcts
    from wasserspiele.fast import COMPILED

    if not COMPILED:
        pytest.skip("numba is not installed: the kernels run as plain Python")
    events = []
    monkeypatch.setattr(ismcts.ISMCTSBot, "_solved_playout",
                        lambda self, world, rng, real=ismcts.ISMCTSBot._solved_playout:
                        events.append("solver") or real(self, world, rng))
    monkeypatch.setattr(ismcts.ISMCTSBot, "_run_kernel",
                        lambda self, world, depth, x, real=ismcts.ISMCTSBot._run_kernel:
                        events.append("kernel") or real(self, world, depth, x))

    class Clock:
        def __getattr__(self, name):
            events.append("clock")
            return getattr(time, name)
    monkeypatch.setattr(ismcts, "time", Clock())
    game = load(name)
    bot = ISMCTSBot(seed=1, iterations=10, rollout=rollout, game=game)
    assert events == []  # made: nothing loaded, no clock read
    state = game.new_game(seed=3)
    bot.search(decision_for(state, state.current_seat))
    loaded = "solver" if rollout == "solve" else "kernel"
    assert events[0] == loaded and events.index("clock") > 0, events[:5]
    events.clear()
    bot.search(decision_for(state, state.current_seat))
    assert events[0] == "clock"  # loaded once


@pytest.mark.parametrize("name, rollout", [("wasserloch", "policy"), ("watten", "policy"),
                                           ("seven_waters", "policy"), ("wildwasser", "random")])
def test_other_seats_in_the_tree_play_the_policy_with_others_by_policy(name, rollout, monkeypatch):
    """`others="policy"`: the tree branches on the searching seat's own moves; every other
    seat's move added to it is the rollout policy's answer in that walk's world (a spy
    records the policy's last answer as each node is made), so the search answers the
    policy's play.  The plain search (`others="search"`) also adds other moves there
    (progressive widening tries untried actions): the check tells the two apart."""
    from wasserspiele.bots import ismcts

    state = _midgame(name, seed=4, steps=9)
    seat = state.current_seat
    decision = decision_for(state, seat)
    last = [None]
    made = []

    class RecordedNode(ismcts.Node):
        __slots__ = ()

        def __init__(self, action, seat):
            super().__init__(action, seat)
            made.append((seat, action, last[0]))

    monkeypatch.setattr(ismcts, "Node", RecordedNode)
    strays = {}
    for others in ("policy", "search"):
        bot = ISMCTSBot(seed=5, iterations=150, game=state.game, rollout=rollout, others=others)
        policy = bot._policy

        def spy(world, who, rng, _policy=policy):
            action = _policy(world, who, rng)
            last[0] = (who, action)
            return action

        bot._policy = spy
        made.clear()
        choices = bot.search(decision)
        assert choices[0].action in decision.legal
        theirs = [(who, action, answer) for who, action, answer in made if action is not None and who != seat]
        assert theirs, "the search never reached another seat's move"
        strays[others] = [(who, action) for who, action, answer in theirs if answer != (who, action)]
    assert strays["policy"] == []
    assert strays["search"], "the plain search adds other seats' moves beyond the policy's"


def test_others_setting_is_checked():
    with pytest.raises(ValueError, match="unknown others 'heuristic' .*search, policy"):
        ISMCTSBot(seed=1, iterations=10, others="heuristic", game=load("watten"))
    with pytest.raises(ValueError, match="others=policy is a setting of the plain search"):
        ISMCTSBot(seed=1, iterations=10, others="policy", guide=object(), game=load("watten"))


@pytest.mark.parametrize("kwargs, message", [
    ({"iterations": 0}, "iterations must be a whole number from 1 to 1000000, not 0"),
    ({"seconds": -1.0, "iterations": None}, "seconds must be a number of seconds above 0 and at most 3600"),
    ({"exploration": -0.1}, "exploration must be a non-negative number"),
    ({"rollout_depth": "deep"}, "rollout_depth must be a whole number from 0 to 1000000, not 'deep'"),
])
def test_bad_budget_or_setting_is_refused_naming_it(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ISMCTSBot(seed=1, game=load("watten"), **kwargs)


def test_levels_are_reproducible_when_the_wall_clock_races(monkeypatch):
    """Search levels are budgeted in iterations: a wall clock that jumps a minute per
    reading (a very busy machine) changes nothing about a seeded bot's move."""
    from wasserspiele.bots import ismcts
    from wasserspiele.bots.levels import bot_for_level
    state = _midgame("wasserloch")
    decision = decision_for(state, state.current_seat)
    calm = bot_for_level("hard", state.game, seed=5)
    expected = [(str(c.action), c.visits) for c in calm.search(decision)]
    clock = iter(range(0, 10**9, 60))
    monkeypatch.setattr(ismcts.time, "perf_counter", lambda: float(next(clock)))
    busy = bot_for_level("hard", state.game, seed=5)
    assert [(str(c.action), c.visits) for c in busy.search(decision)] == expected
    assert busy.last_stop == "iterations" and busy.last_iterations == 200


def test_cpu_safety_net_ends_the_search_and_says_so(caplog):
    state = _midgame("wasserloch")
    bot = ISMCTSBot(seed=1, iterations=MAX_ITERATIONS, cpu_seconds=0.05, game=state.game)
    with caplog.at_level("WARNING", logger="wasserspiele.bots.ismcts"):
        bot.search(decision_for(state, state.current_seat))
    assert bot.last_stop == "cpu_seconds" and 0 < bot.last_iterations < MAX_ITERATIONS
    assert "safety net" in caplog.text


def test_issue17_5_a_spec_without_cpu_seconds_gets_the_default_safety_net_and_says_so(monkeypatch, caplog):
    """`ismcts:iterations=N` named no net and searched on however long N took (1e9: hours a
    move, the user left waiting).  Every search whose budget is iterations now keeps
    DEFAULT_CPU_SECONDS when its spec gives none, reported as the levels' net is."""
    from wasserspiele.bots import ismcts
    monkeypatch.setattr(ismcts, "DEFAULT_CPU_SECONDS", 0.05)  # the net, not the search, is under test
    state = _midgame("wasserloch")
    bot = parse_bot_spec(f"ismcts:iterations={MAX_ITERATIONS}").make(state.game, 1)
    with caplog.at_level("WARNING", logger="wasserspiele.bots.ismcts"):
        bot.search(decision_for(state, state.current_seat))
    assert bot.last_stop == "cpu_seconds" and 0 < bot.last_iterations < MAX_ITERATIONS
    assert "safety net" in caplog.text and "the default net" in caplog.text
    # a given net is the net (the levels' 1 s), and a wall-clock budget bounds a search already
    assert ISMCTSBot(seed=1, iterations=10, cpu_seconds=1.0).cpu_net == 1.0
    assert ISMCTSBot(seed=1, iterations=None, seconds=0.5).cpu_net is None
    # the learned bot's search keeps it too
    guided = parse_bot_spec("learned:search=50").make(load("wasserloch"), 1)
    assert guided.searcher.cpu_net == 0.05 and guided.searcher.cpu_seconds is None


@pytest.mark.parametrize("setting, value, message", [
    ("iterations", 10**9, "iterations must be a whole number from 1 to 1000000, not 1000000000"),
    ("iterations", 1e9, "iterations must be a whole number from 1 to 1000000, not 1000000000"),
    ("iterations", float("nan"), "iterations must be a whole number from 1 to 1000000, not NaN"),
    ("iterations", float("inf"), "iterations must be a whole number from 1 to 1000000, not Infinity"),
    ("iterations", 1.5, "iterations must be a whole number from 1 to 1000000, not 1.5"),
    ("rollout_depth", 1.5, "rollout_depth must be a whole number from 0 to 1000000, not 1.5"),
    ("rollout_depth", 1e9, "rollout_depth must be a whole number from 0 to 1000000, not 1000000000"),
    ("root_candidates", 2.5, "root_candidates must be a whole number from 0 to 1000000, not 2.5"),
    ("seconds", float("inf"), "seconds must be a number of seconds above 0 and at most 3600, not Infinity"),
    ("seconds", 1e9, "seconds must be a number of seconds above 0 and at most 3600, not 1000000000"),
    ("cpu_seconds", float("nan"), "cpu_seconds must be a number of seconds above 0 and at most 3600, not NaN"),
    ("cpu_seconds", float("inf"), "cpu_seconds must be a number of seconds above 0 and at most 3600, not Infinity"),
    ("exploration", float("nan"), "exploration must be a finite number, not NaN"),
    ("exploration", float("inf"), "exploration must be a finite number, not Infinity"),
    ("widening", float("inf"), "widening must be a finite number, not Infinity"),
])
def test_issue17_5_a_runaway_or_meaningless_number_is_refused_naming_the_range(setting, value, message):
    """Before: iterations of 1e9, NaN or inf searched for hours or for ever, a NaN net never
    fired, NaN exploration crashed mid-game, and a fraction where a count is meant crashed
    (rollout_depth, root_candidates) or was rounded up (iterations=1.5 searched 2)."""
    with pytest.raises(BadOption) as refused:
        ISMCTSBot(seed=1, game=load("wasserloch"), **{setting: value})
    assert str(refused.value) == message
    assert refused.value.reason.render("de")  # said in German too (tests/cli: the words)


def test_issue17_5_a_whole_float_is_the_count_it_spells_and_searches_as_before():
    """`iterations=1e3` worked before the counts were checked and plays the same moves as
    `iterations=1000`; `learned:search=1e2` was refused, though the count is whole."""
    state = _midgame("wasserloch")
    decision = decision_for(state, state.current_seat)
    picks = []
    for text in ("ismcts:iterations=1e3", "ismcts:iterations=1000"):
        bot = parse_bot_spec(text).make(state.game, 5)
        assert bot.iterations == 1000 and type(bot.iterations) is int
        picks.append([(str(c.action), c.visits) for c in bot.search(decision)])
    assert picks[0] == picks[1]
    assert parse_bot_spec("learned:search=1e2").make(state.game, 5).searcher.iterations == 100


@pytest.mark.parametrize("name", ["seven_waters", "wasserloch", "watten", "wildwasser"])
def test_a_search_leaves_no_garbage_for_the_cyclic_collector(name):
    # nodes point only to their children and worlds hold no cycles, so reference
    # counting frees a whole search (with the collector paused while it runs)
    import gc
    state = _midgame(name)
    seat = state.to_move()[0]
    bot = ISMCTSBot(seed=1, game=state.game, iterations=80)
    # a first search warms what is made once (modules imported, kernels compiled on first
    # use), which may leave cycles of its own: run alone, this test failed on those
    bot.search(decision_for(state, seat))
    gc.collect()
    gc.disable()
    try:
        bot.search(decision_for(state, seat))
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_the_collector_is_paused_during_a_search_and_restored_after_it_even_on_error():
    import gc
    state = _midgame("wasserloch")
    seat = state.to_move()[0]
    seen = []
    fail = True

    def policy(world, s, rng):
        seen.append(gc.isenabled())
        if len(seen) == 30 and fail:
            raise RuntimeError("a policy that fails")
        return world.legal_actions(s)[0]

    def bot(iterations):
        searcher = ISMCTSBot(seed=1, game=state.game, iterations=iterations)
        searcher._policy, searcher._kernel_rollout = policy, None  # rollouts in Python, through `policy`
        return searcher

    assert gc.isenabled()
    with pytest.raises(RuntimeError, match="a policy that fails"):
        bot(50).search(decision_for(state, seat))
    assert seen and not any(seen) and gc.isenabled()
    fail = False
    gc.disable()  # a caller that keeps the collector off finds it off after a search
    try:
        bot(10).search(decision_for(state, seat))
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_issue17_5_a_move_made_without_searching_leaves_no_stop_behind():
    """`last_stop` says what ended the bot's last search (the terminal reads it after every
    move): a move with one legal action, made without a search, kept the stop of the search
    before it, so a fired safety net would have been said twice."""
    from dataclasses import replace
    game = load("wasserloch", players=2, rounds=1)
    bot = ISMCTSBot(iterations=50, cpu_seconds=1e-6, seed=1)
    state = game.new_game(seed=4)
    decision = decision_for(state, state.current_seat)
    bot.choose(decision)
    assert bot.last_stop == "cpu_seconds"
    bot.choose(replace(decision, legal=decision.legal[:1]))
    assert bot.last_stop == "" and bot.last_iterations == 0
