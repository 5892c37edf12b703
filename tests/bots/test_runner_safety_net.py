"""A search's CPU safety net (bots/ismcts.py) that fires under `arena` or `lab` fired in the runner's
games, where its log record reached stderr through logging's last resort: an English line per bot
and game in the middle of the run's progress display (even for `arena --lang de`).  The runner
now counts, per seat, the moves each bot made and those the net cut short (`Played.cut_short`);
the arena's result and the lab's study result hold them per bot, said once at the end, and no
line reaches stderr while the games run.

The net is made to fire at a known iteration: a search's CPU clock (`ismcts.time.thread_time`)
that advances one second at every reading, so `cpu_seconds=5` ends every search at 40
iterations, on any machine, and the games repeat from their seeds."""

from __future__ import annotations

import itertools
import logging
import time
import types

import pytest

from wasserspiele import load
from wasserspiele.bots import ismcts
from wasserspiele.bots.ismcts import ISMCTSBot
from wasserspiele.bots.random_bot import RandomBot
from wasserspiele.bots.runner import NET_LOGGER, FactoryBot, RotatedSeating, Series, _searches

SPEC = "ismcts:iterations=1000000,cpu_seconds=5"


@pytest.fixture
def net(monkeypatch):
    """Every search of an ISMCTSBot cut short by its net; the firings and the bots' moves counted
    here, apart from the runner, by the bot's own methods."""
    ticks = itertools.count()
    monkeypatch.setattr(ismcts, "time", types.SimpleNamespace(perf_counter=time.perf_counter,
                                                              thread_time=lambda: float(next(ticks))))
    seen = {"fired": 0, "moves": 0}
    fired, choose = ISMCTSBot._net_fired, ISMCTSBot.choose

    def counted_fired(self, done):
        seen["fired"] += 1
        return fired(self, done)

    def counted_choose(self, decision):
        seen["moves"] += 1
        return choose(self, decision)

    monkeypatch.setattr(ISMCTSBot, "_net_fired", counted_fired)
    monkeypatch.setattr(ISMCTSBot, "choose", counted_choose)
    return seen


def test_the_arena_counts_the_moves_the_net_cut_short_per_bot_and_writes_no_log_line(net, capsys):
    from wasserspiele.bots.arena import run_arena
    result = run_arena("wasserloch", {"players": 2, "rounds": 1}, [SPEC, "random"], 2, seed=3, jobs=1)
    assert net["fired"] > 1 and net["moves"] >= net["fired"]
    assert result.cut_short() == {SPEC: (net["fired"], net["moves"])}
    assert "safety net" not in capsys.readouterr().err  # logging's last resort said it, in English


def test_the_arena_s_figures_are_the_games_without_the_count(net):
    """The count rides along with the games: the same seeds play the same games as before."""
    from wasserspiele.bots.arena import run_arena
    from wasserspiele.bots.match import bots_choose, play_out
    from wasserspiele.bots.runner import DuplicateSeating
    from wasserspiele.bots.specs import parse_bot_spec
    result = run_arena("wasserloch", {"players": 2, "rounds": 1}, [SPEC, "random"], 2, seed=3, jobs=1)
    game = load("wasserloch", players=2, rounds=1)
    seating, specs = DuplicateSeating(), [parse_bot_spec(SPEC), parse_bot_spec("random")]
    for p in result.games:
        # the runner's game as Series.play played it before it counted (bots_choose)
        bots = [specs[b].make(game, seating.bot_seed(3, p.index, s)) for s, b in enumerate(p.lineup)]
        state = play_out(game.new_game(seed=seating.game_seed(3, p.index, game, 2)), bots_choose(bots))
        assert (p.scores, p.actions) == (list(state.scores()), len(state.history))


def test_a_study_counts_them_in_its_result_and_notes_not_in_its_rows(net, capsys):
    from wasserspiele.lab import make_study, run_study
    from wasserspiele.lab.study import NET
    study = make_study("wasserloch", players=[2], bots=[SPEC, "random"], options=["rounds=1"], games=2, seed=3)
    result = run_study(study, jobs=1)
    assert net["fired"] > 1
    assert result.cut_short == {SPEC: (net["fired"], net["moves"])}
    assert not any(NET in row for row in result.rows)  # the results table as it was
    said = [n for n in result.notes if "CPU safety net" in n]
    assert said == [f"**CPU safety net**: bot '{SPEC}': {net['fired']} of its {net['moves']} moves were cut short "
                    f"by its search's CPU safety net, so the same seed may not repeat these results (give it fewer "
                    f"iterations or a larger cpu_seconds)."]
    assert "safety net" not in capsys.readouterr().err


def test_a_study_without_a_net_firing_says_nothing_of_it():
    from wasserspiele.lab import make_study, run_study
    study = make_study("wasserloch", players=[2], bots=["ismcts:iterations=20", "random"], options=["rounds=1"],
                       games=2, seed=3)
    result = run_study(study, jobs=1)
    assert result.cut_short == {} and not any("safety net" in n for n in result.notes)


class _Hidden:
    """An outside policy's bot whose search the runner cannot see (no attributes to look in)."""

    __slots__ = ("_search",)

    def __init__(self, search):
        self._search = search

    def choose(self, decision):
        return self._search.choose(decision)


def test_a_search_out_of_reach_is_counted_by_its_log_record(net):
    """The net logs a bot's first firing only, so such a bot counts one a game: the run still says it."""
    game = load("wasserloch", players=2, rounds=1)
    hidden = FactoryBot(lambda seed: _Hidden(ISMCTSBot(seed=seed, iterations=1000000, cpu_seconds=5, game=game)),
                        "hidden")
    assert _searches(hidden.make(game, 1)) == []
    series = Series("wasserloch", (("players", 2), ("rounds", 1)), (hidden, FactoryBot(RandomBot, "random")), 3,
                    RotatedSeating(), net_reported=True)
    p = series.play(0)
    seat = p.lineup.index(0)
    assert p.cut_short[seat] == 1 and p.bot_moves[seat] == net["moves"] > 1
    assert p.cut_short[1 - seat] == 0


def test_a_caller_that_does_not_say_the_net_keeps_its_log_record(net, caplog):
    """(the leaderboard's pairings, until they say it: their line is still the search's own)"""
    game = load("wasserloch", players=2, rounds=1)
    search = FactoryBot(lambda seed: ISMCTSBot(seed=seed, iterations=1000000, cpu_seconds=5, game=game), "s")
    series = Series("wasserloch", (("players", 2), ("rounds", 1)), (search, search), 3, RotatedSeating())
    with caplog.at_level(logging.WARNING, logger=NET_LOGGER):
        p = series.play(0)
    assert sum(p.cut_short) == net["fired"]
    assert len([r for r in caplog.records if r.name == NET_LOGGER]) == 2  # one a bot, as the search logs it
    assert not logging.getLogger(NET_LOGGER).handlers  # nothing of the game's left behind


def test_the_searches_of_the_levels_and_of_a_wrapper_are_found():
    from wasserspiele.bots.specs import parse_bot_spec
    for name in ("wasserloch", "watten", "seven_waters", "wildwasser"):
        game = load(name)
        expert = parse_bot_spec("expert").make(game, 1)
        assert len(_searches(expert)) == 1, name
        wrapped = types.SimpleNamespace(bot=expert, choose=lambda decision: None)  # the leaderboard's timing bot
        assert len(_searches(wrapped)) == 1, name
        assert _searches(parse_bot_spec("heuristic").make(game, 1)) == []


def test_precision_batches_and_tuning_rounds_add_their_counts_up(net, monkeypatch):
    """`lab --precision` and `lab tune` run a study batch by batch: each batch's count is added."""
    from wasserspiele.bots.runner import open_backend
    from wasserspiele.lab import make_study, precision
    from wasserspiele.lab.tune import tune, tune_markdown
    monkeypatch.setattr(precision, "PILOT", 4)
    study = make_study("wasserloch", players=[2], bots=[SPEC, "random"], options=["rounds=1"], games=8, seed=3)
    batches = []
    with open_backend("process", 1) as runner:  # a pilot of 4 games, then a batch to the cap of 8
        result = precision.run_until(study, 0.01, runner, most=8, on_batch=lambda *a: batches.append(a))
    assert len(batches) == 2 and len(result.rows) == 8
    assert result.cut_short == {SPEC: (net["fired"], net["moves"])} and net["fired"] > 1
    assert len([n for n in result.notes if "CPU safety net" in n]) == 1
    net["fired"] = net["moves"] = 0
    with open_backend("process", 1) as runner:
        tuned = tune("wasserloch", ["rounds=1..2"], "shorter", runner, players=["2"], bots=[SPEC, "random"], first=2)
    assert tuned.cut_short == {SPEC: (net["fired"], net["moves"])} and net["fired"] > 1
    assert (f"**CPU safety net**: bot '{SPEC}': {net['fired']} of its {net['moves']} moves were cut short"
            in tune_markdown(tuned))
