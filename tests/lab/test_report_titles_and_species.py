"""A report as a designer reads it: titled and headed by the game's title (not its code name), every
measure of the game named and described in words, and in Wildwasser each species' share of the points
tested against a fair share like the seats' win rates (WW-1: every player races one animal of each
species, so a species is neither a seat nor a choice)."""

import math
import re

import pytest
from click.testing import CliRunner

from wasserspiele.cli.main import main
from wasserspiele.core.registry import load
from wasserspiele.games.wildwasser.board import SPECIES
from wasserspiele.lab import make_study, run_study, write_report
from wasserspiele.lab.measures import measures_class, measures_for
from wasserspiele.lab.study import StudyResult, replay_game

GAMES = ("wasserloch", "watten", "seven_waters", "wildwasser")
TITLES = {"wasserloch": "Wasserloch", "watten": "Watten", "seven_waters": "Seven Waters", "wildwasser": "Wildwasser"}


def _section(md: str, title: str) -> str:
    start = md.index(f"{title}\n")
    end = md.find("\n#", start + 1)
    return md[start:] if end < 0 else md[start:end]


@pytest.fixture(scope="module")
def wildwasser(tmp_path_factory):
    """40 heuristic games each of two- and four-player Wildwasser, and their report."""
    study = make_study("wildwasser", players=["2", "4"], bots=["heuristic"], games=40, seed=11)
    result = run_study(study, jobs=1)
    out = tmp_path_factory.mktemp("ww")
    info = write_report(result, out)
    return result, out, info


# ----------------------------------------------------------------------------- titles
@pytest.fixture(scope="module")
def seven_waters(tmp_path_factory):
    out = tmp_path_factory.mktemp("sw")
    res = CliRunner().invoke(main, ["lab", "seven_waters", "--bots", "random", "--games", "6", "--jobs", "1",
                                    "--quiet", "--out", str(out)])
    assert res.exit_code == 0, res.output
    return out


def test_a_report_is_titled_and_headed_by_the_games_title(seven_waters):
    md = (seven_waters / "report.md").read_text()
    assert md.startswith("# Balance study: Seven Waters\n")
    assert "### Seven Waters measures\n" in md
    headings = [line for line in md.splitlines() if line.startswith("#")]
    assert not [h for h in headings if "seven_waters" in h], headings
    page = (seven_waters / "report.html").read_text()
    assert "<title>Balance study: Seven Waters</title>" in page and "<h1>Balance study: Seven Waters</h1>" in page


def test_a_tuning_report_is_titled_by_the_games_title(tmp_path):
    out = tmp_path / "tuned"
    res = CliRunner().invoke(main, ["lab", "tune", "wasserloch", "--players", "2", "--bots", "random", "--vary",
                                    "rounds=1,2", "--goal", "shorter", "--games", "4", "--jobs", "1", "--quiet",
                                    "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert (out / "tune.md").read_text().startswith("# Tuning Wasserloch: shorter\n")


# ----------------------------------------------------------------------------- measures in words
@pytest.mark.parametrize("game", GAMES)
def test_every_measure_of_a_game_has_a_readable_name_and_says_what_it_counts(game):
    for m in measures_class(load(game)).describe:
        assert m.label != m.name and " " in m.label and "_" not in m.label, m
        assert len(m.description.split()) >= 5 and "_" not in m.description.replace("`slide_limit`", "").replace(
            "`hand_value`", ""), m


def test_the_report_prints_each_measures_description_beside_its_name(seven_waters):
    md = (seven_waters / "report.md").read_text()
    table = _section(md, "### Seven Waters measures")
    assert table.splitlines()[2] == "| measure | value | what it counts |"
    own = measures_class(load("seven_waters")).describe
    pool = next(m for m in own if m.name == "pts_pool")
    assert pool.label == "points per player from the wave-pool bonus"
    assert re.search(rf"^\| {re.escape(pool.label)} \| [^|]+ \| {re.escape(pool.description)} \|$", table, re.M)
    # results.csv's column table names the measure and says what it counts
    columns = _section(md, "## results.csv")
    assert f"| m_pts_pool | this game's value of “{pool.label}”: {pool.description} |" in columns


# ----------------------------------------------------------------------------- Wildwasser's species
def test_ww_5_3_a_species_points_are_its_podium_places_and_add_up_to_the_scores(wildwasser):
    """WW-4.2 / WW-5.3: a species' points in a game are those of the podium places its animals took;
    over the species they are every player's score together."""
    result, _, _ = wildwasser
    split = measures_class(load("wildwasser")).splits[0]
    assert (split.name, split.parts) == ("species", SPECIES)
    for row in result.rows:
        own = measures_for(load("wildwasser", players=row["players"]))
        amounts = own.split_amounts(split, row["measures"])
        assert math.fsum(amounts) == math.fsum(row["scores"]), row["game"]
    row = max(result.rows, key=lambda r: r["measures"]["finishes"])
    state = replay_game(result.study, row)  # the podiums of the finished game itself
    by_species = [0] * len(SPECIES)
    for a, place in enumerate(state.place):
        if place:
            by_species[a % len(SPECIES)] += state.board.points(a % len(SPECIES), place)
    own = measures_for(load("wildwasser", players=row["players"]))
    assert own.split_amounts(split, row["measures"]) == by_species


def test_ww_1_ww_5_3_each_species_share_of_the_points_is_tested_against_a_fair_fifth(wildwasser):
    result, out, info = wildwasser
    for s in info["summaries"]:
        lines = [x for x in s.lines if x.section == "parts"]
        assert [x.what for x in lines] == [f"the {sp}'s share of the points" for sp in SPECIES]
        totals = [math.fsum(r["scores"]) for r in s.rows]
        for i, (x, sp) in enumerate(zip(lines, SPECIES)):
            points = sum(measures_for(load("wildwasser", players=s.players)).split_amounts(
                s.splits[0].split, r["measures"])[i] for r in s.rows)
            assert x.this.value == pytest.approx(points / math.fsum(totals))
            assert x.reference == 0.2 and x.diff.value == pytest.approx(x.this.value - 0.2)
            assert x.this.low <= x.this.value <= x.this.high and x.this.high - x.this.low > 0
            assert x.test.name == "score test against 20.0 % (games as units)"
            assert x.p_adjusted >= x.test.p  # adjusted in the report's family
        # the same family as the seats: Holm over every test of the report
        assert sum(x.section == "seats" for x in s.lines) == s.players - (s.players == 2)
    # and the species' shares between the two player counts (test_species_between_counts.py), in one family
    (counts,) = info["comparisons"]
    assert len(counts.lines) == len(SPECIES)
    tests = sum(1 for s in info["summaries"] for x in s.lines if not x.hidden) + sum(
        1 for x in counts.lines if not x.hidden)
    md = (out / "report.md").read_text()
    assert f"Holm's correction over all {tests} tests of this report" in md
    table = _section(md, "### Species: share of the points")
    assert ("| species | share of the points | points per game | against a fair share | test | Holm p | verdict |"
            in table)
    for sp in SPECIES:
        assert re.search(rf"^\| {sp} \| [\d.]+ % \[[\d.]+, [\d.]+\] \| .+ \| [-+][\d.]+ pp \[.+\] \| score test .+ \| "
                         rf"(< 0.001|[\d.]+) \| (\*\*flag\*\*|within ±3 pp|not settled) \|$", table, re.M), sp
    assert "neither a seat nor a choice" in table
    glance = _section(md, "## At a glance")
    assert glance.count("species") + glance.count("share of the points") >= 2  # one line per condition
    assert (out / "plots" / "species_share.png").exists()


def _wildwasser_rows(games: int, finishes) -> StudyResult:
    """Made-up two-player Wildwasser games: `finishes(i)` gives game i's finishes per species."""
    study = make_study("wildwasser", players=["2"], bots=["random"], games=games, seed=1)
    own = measures_for(load("wildwasser", players=2))
    split = own.splits[0]
    rows = []
    for i in range(games):
        measures = {f"finish_{sp}": n for sp, n in zip(SPECIES, finishes(i))}
        total = math.fsum(own.split_amounts(split, measures))
        scores = [total - total // 2, total // 2]
        rows.append({"condition": study.conditions[0].label, "cond": 0, "game": i, "seed": i, "players": 2,
                     "bots": ["random"] * 2, "bot_index": [0, 0], "scores": scores, "winners": [i % 2],
                     "returns": [float(s == i % 2) for s in range(2)], "shared": 0, "actions": 90, "units": 30,
                     "lead_changes": 1, "measures": measures})
    return StudyResult(study, rows)


def _answers(result):
    from wasserspiele.lab.analysis import analyse, raise_flags
    from wasserspiele.lab.report import answers
    summaries, comparisons = analyse(result)
    raise_flags(summaries, comparisons)
    return " ".join(answers(summaries, comparisons))


def test_ww_5_3_a_species_that_takes_most_of_the_points_is_flagged():
    # every game: one turtle and one cheetah finish first: 10 and 4 of the 14 points
    text = _answers(_wildwasser_rows(200, lambda i: (1, 0, 0, 0, 1)))
    assert "**The turtle takes more than a fair share of the points** (players=2): 71.4 %" in text
    assert "**The cheetah takes more than a fair share of the points**" in text
    assert "**The zebra takes less than a fair share of the points** (players=2): 0.0 %" in text


def test_ww_5_3_a_few_games_leave_the_species_not_settled():
    # one animal finishes a game, each species in turn: every share is 0 or 1 in a game
    text = _answers(_wildwasser_rows(10, lambda i: [int(i % 5 == k) for k in range(5)]))
    assert "**Species: not settled** (players=2): no species is flagged, but 10 games cannot rule out an edge of " \
           "3 pp: the turtle takes 30.3 % [" in text
