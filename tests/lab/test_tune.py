"""`lab tune`: successive halving finds the option value that serves the goal."""

import re

import pytest
from click.testing import CliRunner

from wasserspiele.bots.runner import open_backend
from wasserspiele.cli.main import main
from wasserspiele.core import registry
from wasserspiele.core.errors import BadOption
from wasserspiele.lab.tune import expand_vary, tune, tune_markdown


@pytest.fixture
def dice_duel():
    """Register the test-only dice duel (tests/lab/dice_game.py) for this test (in this process)."""
    from lab.dice_game import MANIFEST
    registry.register(MANIFEST)
    yield MANIFEST.name
    registry.unregister(MANIFEST.name)


def test_tune_finds_the_fair_handicap(dice_duel):
    with open_backend("process", 1) as runner:
        result = tune(dice_duel, ["handicap=-3..3"], "fair-seats", runner, bots=["random"], first=200, seed=2)
    assert result.best.label == "handicap=0"
    # the clearly unfair values go first: ±3 never survive the first round
    dropped = {c.label: c.dropped for c in result.candidates}
    assert dropped["handicap=3"] == 1 and dropped["handicap=-3"] == 1
    assert [n for n, _ in result.rounds] == [7, 4, 2, 1]
    assert len(result.best.rows) == 200 * 8 and result.best.score.low == 0.0
    text = tune_markdown(result)
    assert "**Best: handicap=0**" in text and "Successive halving over 7 candidates" in text


def test_tune_for_shorter_games_on_a_real_game():
    with open_backend("process", 1) as runner:
        result = tune("wasserloch", ["rounds=1..2"], "shorter", runner, players=["2"], bots=["random"], first=4)
    assert result.best.label == "players=2 rounds=1"  # one round is shorter than two, game by game
    assert {c.label: c.dropped for c in result.candidates}["players=2 rounds=2"] == 1


def test_vary_ranges_and_bad_input():
    assert expand_vary("seven_waters", ["slide_limit=5..7,null"]) == ["slide_limit=5,6,7,null"]
    for texts, words in ((["slide_limit"], "OPTION=RANGE"), (["colour=1..2"], "no option 'colour'"),
                         (["slide_limit=9..5"], "LOW..HIGH"), ([], "at least one")):
        with pytest.raises(BadOption, match=words):
            expand_vary("seven_waters", texts)
    with open_backend("process", 1) as runner:
        with pytest.raises(BadOption, match="--goal"):
            tune("seven_waters", ["slide_limit=5..6"], "prettier", runner)
        with pytest.raises(BadOption, match="at least two values"):
            tune("seven_waters", ["slide_limit=5"], "shorter", runner)


def test_tune_command_writes_its_report(tmp_path):
    out = tmp_path / "tuned"
    res = CliRunner().invoke(main, ["lab", "tune", "wasserloch", "--players", "2", "--bots", "random", "--vary",
                                    "rounds=1,2", "--goal", "shorter", "--games", "4", "--jobs", "1", "--quiet",
                                    "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "**Best: players=2 rounds=1**" in (out / "tune.md").read_text()
    bad = CliRunner().invoke(main, ["lab", "tune", "wasserloch", "--vary", "rounds=1,2", "--goal", "faster"])
    assert bad.exit_code == 2 and "faster" in bad.output


# ----------------------------------------------------------------------------- a best only when it is one
def test_a_tie_names_no_best_in_tune_md_nor_on_the_console(tmp_path):
    # every candidate of this Watten tune has a single winner in all its games: all score 0.0 %,
    # and the survivor is only the first listed (the halving breaks ties by the candidates' order)
    out = tmp_path / "tied"
    res = CliRunner().invoke(main, ["lab", "tune", "watten", "--vary", "target=3,11", "--vary", "hand_value=1,2",
                                    "--goal", "decisive", "--games", "4", "--jobs", "1", "--quiet",
                                    "--out", str(out)])
    assert res.exit_code == 0, res.output
    for text in ((out / "tune.md").read_text(), res.output):
        assert "**Best:" not in text
        assert "**No candidate is better than the others**: all 4 scored 0.0 %" in text
        assert "a tie goes to the candidate listed first" in text


def _candidate(label, cond, value, low, high, n, dropped):
    from wasserspiele.core.stats import Estimate
    from wasserspiele.lab.tune import Candidate
    return Candidate(label, cond, rows=[{}] * n, dropped=dropped, score=Estimate(value, low, high, n),
                     detail=f"{100 * value:.1f} % of games without a single winner")


def test_a_rival_within_the_survivors_interval_means_no_clear_best():
    from wasserspiele.lab import make_study
    from wasserspiele.lab.tune import TuneResult
    study = make_study("wasserloch", players=["2"], bots=["random"], compare=["rounds=1,2,3"], games=50)
    labels = [c.label for c in study.conditions]

    def result(second_low):
        cands = [_candidate(labels[0], 0, 0.10, 0.05, 0.15, 100, None),
                 _candidate(labels[1], 1, 0.14, second_low, 0.30, 50, 2),
                 _candidate(labels[2], 2, 0.40, 0.30, 0.50, 50, 1)]
        return TuneResult(study, "decisive", cands, [(3, 50), (2, 100), (1, 200)])

    text = tune_markdown(result(second_low=0.08))  # rounds=2 lies within rounds=1's interval
    assert "**Best:" not in text
    assert f"**No clear best**: {labels[0]} scored lowest" in text
    assert f"{labels[1]} (14.0 % [8.0, 30.0])" in text and f"{labels[2]} (" not in text.split("|")[0]
    text = tune_markdown(result(second_low=0.16))  # now every other interval lies above the survivor's
    assert f"**Best: {labels[0]}**" in text and "No clear best" not in text


# ----------------------------------------------------------------------------- --vary mistakes
@pytest.mark.parametrize("vary, words", [
    ("rounds=1,1", ["--vary rounds", "'1' is given twice"]),
    ("rounds=1..2,2", ["--vary rounds", "'2' is given twice"]),
    ("players=2..4", ["--vary 'players=2..4'", "player counts are not tuned", "--players N"]),
    ("rounds=a..b", ["--vary rounds", "'a..b' is not a range of whole numbers", "LOW..HIGH"]),
    ("rounds=0,1", ["--vary rounds", "0 is below the minimum 1"]),
    ("chase=nearest,sideways", ["--vary chase", "'sideways' is not one of nearest, adjacent"]),
    ("rounds=3", ["--vary rounds=3", "at least two values"]),
])
def test_vary_mistakes_name_vary_and_the_problem(tmp_path, vary, words):
    out = tmp_path / "never"
    res = CliRunner().invoke(main, ["lab", "tune", "wasserloch", "--vary", vary, "--goal", "shorter",
                                    "--games", "4", "--jobs", "1", "--quiet", "--out", str(out)])
    assert res.exit_code == 2, res.output
    assert "--compare" not in res.output  # lab tune has no --compare: never name it
    for word in words:
        assert word in res.output
    assert not out.exists()


def test_vary_mistakes_across_options():
    from wasserspiele.lab.tune import plan_tune
    with pytest.raises(BadOption, match=r"--vary rounds: given twice"):
        plan_tune("wasserloch", ["rounds=1,2", "rounds=3,4"], "shorter")
    with pytest.raises(BadOption, match=r"--vary rounds: also fixed with --option rounds"):
        plan_tune("wasserloch", ["rounds=1,2"], "shorter", options=["rounds=2"])
    with pytest.raises(BadOption, match=r"--players: tune one player count at a time"):
        plan_tune("wasserloch", ["rounds=1,2"], "shorter", players=["2,3"])
    plan = plan_tune("wasserloch", ["rounds=1..3", "chase=adjacent"], "shorter")
    assert plan.compare == ["rounds=1,2,3"] and plan.fixed == ["chase=adjacent"] and plan.candidates == 3


# ----------------------------------------------------------------------------- the help's examples work
def test_every_example_in_the_lab_help_works():
    import re

    from wasserspiele.cli.lab import lab_cmd
    from wasserspiele.core.registry import game_class, game_names
    from wasserspiele.lab import make_study
    from wasserspiele.lab.precision import parse_precision

    def helps(command):
        return {p.opts[0]: p.help or "" for p in lab_cmd.commands[command].params if hasattr(p, "help")}

    def games_with(option):
        return [g for g in game_names() if option in {o.name for o in game_class(g).option_list}]

    def some_game_takes(example, check):
        games = games_with(example.partition("=")[0])
        assert games, f"{example}: no game has this option"
        problems = []
        for g in games:
            try:
                check(g)
                return
            except BadOption as exc:
                problems.append(f"{g}: {exc}")
        raise AssertionError(f"help example {example} works for no game: {problems}")

    tune_help, study_help = helps("tune"), helps("study")
    examples = re.findall(r"[a-z_]+=[\w.,-]+\w", tune_help["--vary"])
    for ex in examples:  # every value checked, and every condition loaded, before any game
        some_game_takes(ex, lambda g: make_study(g, compare=expand_vary(g, [ex]), games=1))
    assert "river_flow=forward,back" in examples and "slide_limit=5..9" in examples
    for ex in re.findall(r"[a-z_]+=[\w.,-]+\w", study_help["--compare"]):
        some_game_takes(ex, lambda g: make_study(g, compare=[ex], games=1))
    for help_text in (tune_help, study_help):
        for spec in re.findall(r"`([^`]+)`", help_text["--bots"]):
            make_study("wasserloch", bots=[spec], games=1)
    forms = re.findall(r"\d+(?:\.\d+)?(?:pp|%)", study_help["--precision"])
    assert forms and all(parse_precision(f) > 0 for f in forms)
    for count in re.findall(r"e\.g\. ([\d,]+)|or ([\d,]+)", study_help["--players"]):
        make_study("wasserloch", players=[c for c in count if c], games=1)
    from wasserspiele.lab.tune import plan_tune  # tune takes one player count: its help must not offer 2,3,4
    for count in re.findall(r"e\.g\. ([\d,]+)", tune_help["--players"]):
        plan_tune("wasserloch", ["rounds=1,2"], "shorter", players=[count])


def test_vary_players_of_a_fixed_count_game_says_the_count_instead_of_a_players_list():
    """A game for exactly N players has no counts to compare: the refusal says so rather
    than suggesting `lab GAME --players 2,3,4`, which that game refuses."""
    from wasserspiele.core.registry import game_class
    fixed = [n for n in ("seven_waters", "watten") if game_class(n).fixed_players]
    assert fixed
    for name in fixed:
        n = game_class(name).fixed_players
        with pytest.raises(BadOption) as err:
            expand_vary(name, ["players=2"])
        text = str(err.value)
        assert f"{name} is for exactly {n} players" in text and "--players" not in text, text
    # a game for several counts still points to the study that compares them
    with pytest.raises(BadOption, match=r"compare counts with `lab wasserloch --players 2,3,4`"):
        expand_vary("wasserloch", ["players=2..4"])


def test_fair_seats_gaps_are_percentage_points_not_percent():
    # `lab tune seven_waters --vary slide_limit=5..9 --goal fair-seats` (README) printed the largest gap
    # between a seat's win rate and a fair share as "3.2 % [0.0, 6.7]": a difference of two win rates is
    # in percentage points, as --min-effect and the reports' seat tables give it
    from wasserspiele.lab import make_study
    from wasserspiele.lab.tune import TuneResult
    study = make_study("seven_waters", compare=["slide_limit=5,6,7"], games=50)
    labels = [c.label for c in study.conditions]
    cands = [_candidate(labels[0], 0, 0.032, 0.0, 0.067, 200, None),
             _candidate(labels[1], 1, 0.040, 0.0, 0.088, 100, 2),
             _candidate(labels[2], 2, 0.105, 0.007, 0.195, 50, 1)]
    fair = tune_markdown(TuneResult(study, "fair-seats", cands, [(3, 50), (2, 100), (1, 200)]))
    assert f"{labels[0]} | 200 | 3.2 pp [0.0, 6.7] |" in fair
    assert f"{labels[1]} (4.0 pp [0.0, 8.8])" in fair and "3.2 pp [0.0, 6.7] over 200 games" in fair
    assert not re.search(r"\d %( \[|\))", fair.split("|")[0])  # no gap in % in the verdict
    decisive = tune_markdown(TuneResult(study, "decisive", cands, [(3, 50), (2, 100), (1, 200)]))
    assert f"{labels[0]} | 200 | 3.2 % [0.0, 6.7] |" in decisive  # a share of games stays in %


@pytest.mark.parametrize("game, players", [("seven_waters", "2,2"), ("watten", "4,4"), ("wildwasser", "2,3")])
def test_several_player_counts_are_refused_with_an_example_the_game_takes(game, players):
    # "e.g. --players 3" for Seven Waters (2 players only) or Watten (4) sent the user to the next refusal
    from wasserspiele import load
    from wasserspiele.lab.tune import plan_tune
    vary = {"seven_waters": "slide_limit=6,7", "watten": "target=3,11", "wildwasser": "river_flow=forward,back"}
    with pytest.raises(BadOption) as info:
        plan_tune(game, [vary[game]], "fair-seats", players=[players])
    assert str(info.value) == f"--players: tune one player count at a time, e.g. --players {load(game).players}"


@pytest.mark.parametrize("games, text", [(1, "--games: 1 game is too few for the first round (at least 2)"),
                                         (0, "--games: 0 games are too few for the first round (at least 2)")])
def test_too_few_first_round_games_are_refused_in_plain_english(games, text):
    # it said "--games: 1 games in the first round are too few"
    from wasserspiele.lab.tune import plan_tune
    with pytest.raises(BadOption) as info:
        plan_tune("seven_waters", ["slide_limit=6,7"], "shorter", first=games)
    assert str(info.value) == text


def test_an_interrupted_tune_names_no_best_over_a_candidate_that_played_no_games():
    # Ctrl-C in the first round: rounds=2 had played none of its games yet.  Its goal is NaN,
    # and every comparison with NaN is false, so the verdict read "**Best: rounds=1** — every
    # other candidate's interval lies above it" about a candidate nothing was known of.
    from wasserspiele.core.stats import Estimate
    from wasserspiele.lab import make_study
    from wasserspiele.lab.tune import Candidate, TuneResult
    study = make_study("wasserloch", players=["2"], bots=["random"], compare=["rounds=1,2,3"], games=50)
    labels = [c.label for c in study.conditions]
    nothing = Estimate(float("nan"), float("nan"), float("nan"), 0)
    for order in ((0, 1, 2), (1, 0, 2), (1, 2, 0)):  # the unplayed one first too: min() over NaN keys
        cands = {0: _candidate(labels[0], 0, 0.10, 0.05, 0.15, 30, None),
                 1: Candidate(labels[1], 1, rows=[], score=nothing, detail="no games"),
                 2: _candidate(labels[2], 2, 0.40, 0.30, 0.50, 30, None)}
        result = TuneResult(study, "decisive", [cands[i] for i in order], [(3, 50)], interrupted=True)
        text = tune_markdown(result)
        assert result.best.label == labels[0], order
        assert "**Best:" not in text
        assert f"**No clear best**: {labels[0]} scored lowest" in text
        assert f"{labels[1]} (no games)" in text
        assert f"{labels[2]} (" not in text.split("|")[0]  # clearly worse: not a rival
    unplayed = [Candidate(c.label, i, rows=[], score=nothing, detail="no games") for i, c in enumerate(study.conditions)]
    text = tune_markdown(TuneResult(study, "decisive", unplayed, [(3, 50)], interrupted=True))
    assert "**No candidate played a game**" in text and "**Best:" not in text
