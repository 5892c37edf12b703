"""The arena: seat rotation, duplicate deals, reproducible results, clear errors."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from wasserspiele import load
from wasserspiele.bots.arena import parse_bots, run_arena
from wasserspiele.bots.runner import team_rotations
from wasserspiele.bots.specs import parse_bot_spec, split_spec_texts
from wasserspiele.cli.main import main
from wasserspiele.core.errors import BadOption
from wasserspiele.core.stats import mean_ci, placements, wilson


def test_lineups_rotate_bots_over_seats_and_teams():
    assert team_rotations(load("wasserloch", players=3), 2) == [(0, 1, 1), (1, 1, 0), (1, 0, 1)]
    assert team_rotations(load("watten"), 2) == [(0, 1, 0, 1), (1, 0, 1, 0)]


def test_duplicate_groups_share_the_deal_and_results_reproduce_whatever_jobs():
    specs = [parse_bot_spec("heuristic"), parse_bot_spec("random")]
    a = run_arena("wasserloch", {"players": 2, "rounds": 1}, specs, 6, seed=9, jobs=1)
    b = run_arena("wasserloch", {"players": 2, "rounds": 1}, specs, 6, seed=9, jobs=2)
    assert [(g.seed, g.lineup, g.scores) for g in a.games] == [(g.seed, g.lineup, g.scores) for g in b.games]
    assert a.games[0].seed == a.games[1].seed and a.games[0].lineup != a.games[1].lineup
    heuristic = a.by_spec()[0]
    assert heuristic.win_rate().value > 0.5


def test_bot_specs_take_settings_and_levels():
    texts = split_spec_texts(["ismcts:iterations=50,exploration=0.5,heuristic"])
    assert texts == ["ismcts:iterations=50,exploration=0.5", "heuristic"]
    spec = parse_bot_spec(texts[0])
    assert spec.kind == "ismcts" and dict(spec.params) == {"iterations": 50, "exploration": 0.5}
    expert = parse_bot_spec("expert:iterations=10")
    assert expert.kind == "ismcts" and expert.text == "expert:iterations=10"
    bot = expert.make(load("wasserloch"), 1)
    assert bot.iterations == 10 and bot.cpu_seconds == 2.0  # the level's CPU safety net, the given budget
    with pytest.raises(BadOption, match="unknown bot 'robot'"):
        parse_bots(["robot"], load("wasserloch"))
    with pytest.raises(BadOption, match="not NAME=VALUE"):
        parse_bot_spec("ismcts:iterations")


@pytest.mark.parametrize(("spec", "message"), [
    ("ismcts:iterationz=5", "the ismcts bot has no setting 'iterationz' (its settings: iterations, seconds,"),
    ("expert:depth=3", "the ismcts bot has no setting 'depth'"),
    ("learned:iterations=5", "the learned bot has no setting 'iterations' (its settings: weights, search,"),
    # a bot that takes no settings used to ignore any it was given
    ("random:iterations=5", "the random bot has no setting 'iterations' (its settings: blunder)"),
])
def test_a_misspelt_bot_setting_is_named_with_the_settings_the_bot_takes(spec, message):
    with pytest.raises(BadOption, match=re.escape(message)):
        parse_bots([spec], load("wasserloch"))


def test_too_many_bots_for_the_table_is_an_error():
    with pytest.raises(BadOption, match="3 bots for 2"):
        run_arena("watten", {}, [parse_bot_spec("random")] * 3, 2)


def test_arena_and_lab_read_the_same_bot_specs():
    from wasserspiele.lab import study
    assert study.parse_bot_spec is parse_bot_spec


def test_arena_command_prints_a_table_with_intervals():
    out = CliRunner().invoke(main, ["arena", "wasserloch", "--bots", "heuristic,random", "--games", "4",
                                    "--players", "2", "--jobs", "1", "--option", "rounds=1"])
    assert out.exit_code == 0, out.output
    assert "win rate" in out.output and "heuristic" in out.output and "95 % CI" in out.output
    bad = CliRunner().invoke(main, ["arena", "wasserloch", "--bots", "robot"])
    assert bad.exit_code == 2 and "unknown bot 'robot'" in bad.output


def test_statistics():
    est = wilson(50, 100)
    assert est.low < 0.5 < est.high and abs((est.low + est.high) / 2 - 0.5) < 1e-9
    assert wilson(0, 10).low == 0.0
    m = mean_ci([1, 2, 3, 4])
    assert m.value == 2.5 and m.low < 2.5 < m.high
    assert placements([5, 9, 5, 1]) == [2.5, 1.0, 2.5, 4.0]


def test_arena_games_is_what_the_arena_plays_so_its_progress_bar_ends_at_its_total():
    """The bar's total was --games while whole duplicate groups were played (7 asked, 9
    played in Wasserloch's three seats): it ran past its end."""
    from wasserspiele.bots.arena import arena_games
    game = load("wasserloch", rounds=1)
    assert [arena_games(game, n) for n in (1, 3, 7)] == [3, 3, 9]
    result = run_arena("wasserloch", {"rounds": 1}, parse_bots(["random", "random"], game), games=7, seed=1)
    assert len(result.games) == arena_games(game, 7) == 9
