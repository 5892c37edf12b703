"""Wildwasser's species between variants (WW-1, WW-5.3): a study that compares option values compares
each species' share of the podium points between them, as it compares a seat's win rate — the same
difference of shares (Newcombe's interval, the two-proportion z test at the effective sizes), in the
report's Holm family, with the same verdicts, in At a glance, the variant's table and the terminal."""

import math
import re

from click.testing import CliRunner

from wasserspiele.cli.main import main
from wasserspiele.core.registry import load
from wasserspiele.core.stats import holm
from wasserspiele.games.wildwasser.board import SPECIES
from wasserspiele.lab import make_study
from wasserspiele.lab.analysis import analyse, raise_flags
from wasserspiele.lab.clustered import share, share_difference
from wasserspiele.lab.measures import measures_for
from wasserspiele.lab.report import answers, blocks, render_md, verdict
from wasserspiele.lab.study import StudyResult

FORWARD, BACK = "players=2 river_flow=forward", "players=2 river_flow=back"


def _two_flows(games: int, forward, back) -> StudyResult:
    """Made-up two-player games under `river_flow=forward` and `back`: `forward(i)` / `back(i)` give game
    i's finishes per species (SPECIES order) under each; a species' points are its podium places' (WW-5.3)."""
    study = make_study("wildwasser", players=["2"], bots=["random"], compare=["river_flow=forward,back"],
                       games=games, seed=1)
    assert [c.label for c in study.conditions] == [FORWARD, BACK]
    rows = []
    for c, finishes in enumerate((forward, back)):
        own = measures_for(study.conditions[c].load(study.game))
        for i in range(games):
            measures = {f"finish_{sp}": n for sp, n in zip(SPECIES, finishes(i))}
            total = math.fsum(own.split_amounts(own.splits[0], measures))
            scores = [total - total // 2, total // 2]
            rows.append({"condition": study.conditions[c].label, "cond": c, "game": i, "seed": i, "players": 2,
                         "bots": ["random"] * 2, "bot_index": [0, 0], "scores": scores, "winners": [i % 2],
                         "returns": [float(s == i % 2) for s in range(2)], "shared": 0, "actions": 90,
                         "units": 30, "lead_changes": 1, "measures": measures})
    return StudyResult(study, rows)


def _species_lines(comparison):
    return {x.what: x for x in comparison.lines if x.section == "parts"}


def _one_each(i):
    """One animal finishes, of species i mod 5 in turn."""
    return [int(i % 5 == k) for k in range(5)]


def _plus_meerkat(i):
    """As `_one_each`, and a meerkat finishes in every game besides (its 1st place, or 2nd)."""
    return [n + (sp == "meerkat") for n, sp in zip(_one_each(i), SPECIES)]


def test_ww_5_3_a_species_share_that_differs_between_variants_is_flagged():
    result = _two_flows(200, _one_each, _plus_meerkat)
    summaries, comparisons = analyse(result)
    flags = raise_flags(summaries, comparisons)
    (c,) = comparisons
    lines = _species_lines(c)
    assert list(lines) == [f"the {sp}'s share of the points" for sp in SPECIES]
    meerkat = lines["the meerkat's share of the points"]
    # the conditions' own pooled shares (Σ a species' points / Σ all points): 8 of 33 points per five games
    # under forward; 4·8 + (8 + 5) of 70 under back
    assert meerkat.base.value == summaries[0].splits[0].shares[3].value == 8 / 33
    assert meerkat.this.value == summaries[1].splits[0].shares[3].value == 45 / 70
    assert meerkat.diff.value == meerkat.this.value - meerkat.base.value
    assert meerkat.diff.low > 0.3 and meerkat.test.name == "two-proportion z test"
    assert meerkat.flagged and verdict(meerkat) == "flagged" and meerkat.part_of.name == "species"
    assert ("players=2 river_flow=back against players=2 river_flow=forward", meerkat) in flags
    # in the report's one Holm family, with every other test of the report
    family = [x for s in summaries for x in s.lines if not x.hidden] + [x for x in c.lines if not x.hidden]
    assert [x.p_adjusted for x in family] == holm([x.test.p for x in family])
    text = " ".join(answers(summaries, comparisons))
    # the largest change first, each with both shares, the difference and its interval
    assert re.search(r"Species: the meerkat's share of the points 24\.2 % \[[\d.]+, [\d.]+\] → 64\.3 % \[[\d.]+, "
                     r"[\d.]+\] \(\+40\.0 pp \[\+[\d.]+, \+[\d.]+\]\), \*\*flagged\*\*; the turtle's", text), text
    # the five species' flags are said in their own sentence, not counted again among the
    # "other flagged differences": that is the one game measure flagged besides them
    assert sum(x.flagged for x in lines.values()) == 5
    assert [x.what for x in c.lines if x.flagged and x.section == "measures"] == ["meerkats finished per round"]
    assert "1 other flagged difference " in text, text


def test_ww_5_3_the_species_difference_is_the_seats_difference_of_shares_with_points_as_denominators():
    result = _two_flows(60, _one_each, _plus_meerkat)
    summaries, comparisons = analyse(result)
    x = _species_lines(comparisons[0])["the turtle's share of the points"]
    units = list(range(60))
    own = [measures_for(load("wildwasser", players=2, river_flow=f)) for f in ("forward", "back")]
    amounts = [[own[c].split_amounts(own[c].splits[0], r["measures"]) for r in result.rows if r["cond"] == c]
               for c in (0, 1)]
    a, b = (share([g[4] for g in amounts[c]], [math.fsum(g) for g in amounts[c]], units=units) for c in (1, 0))
    diff, test = share_difference(a, b)
    assert (x.diff, x.test) == (diff, test)


def test_ww_5_3_species_that_keep_their_shares_between_variants_are_not_flagged():
    # every game all five species finish once, and one species (in turn) a second time: the same shares under
    # both flows (the turn shifted by a game), each within a narrow interval
    def steady(shift):
        return lambda i: [1 + ((i + shift) % 5 == k) for k in range(5)]
    result = _two_flows(400, steady(0), steady(1))
    summaries, comparisons = analyse(result)
    raise_flags(summaries, comparisons)
    lines = _species_lines(comparisons[0])
    assert len(lines) == 5 and not any(x.flagged or x.hidden for x in lines.values())
    assert all(verdict(x) == "small" for x in lines.values()), [x.diff for x in lines.values()]
    text = " ".join(answers(summaries, comparisons))
    assert ("Species: no species' share of the points changes by 3 pp or more (every interval within ±3 pp)"
            in text)


def test_ww_5_3_a_thin_study_leaves_a_species_change_not_settled():
    result = _two_flows(10, _one_each, lambda i: _one_each(i + 1))
    summaries, comparisons = analyse(result)
    raise_flags(summaries, comparisons)
    assert not any(x.flagged for x in _species_lines(comparisons[0]).values())
    assert "Species: no change is flagged, but **not settled**: the " in " ".join(
        answers(summaries, comparisons))


def test_ww_5_3_the_variants_table_lists_each_species_share_under_its_kind():
    result = _two_flows(200, _one_each, _plus_meerkat)
    summaries, comparisons = analyse(result)
    md = render_md(blocks(result, summaries, comparisons, [], []))
    table = md[md.index(f"## Variant: {BACK} against {FORWARD}"):md.index("## results.csv")]
    assert re.search(r"^\| species \| the meerkat's share of the points \| 24\.2 % \[[\d.]+, [\d.]+\] \| "
                     r"64\.3 % \[[\d.]+, [\d.]+\] \| \+40\.0 pp \[.+\] \| \+[\d.]+ \| two-proportion z test \| "
                     r"< 0\.001 \| \*\*flag\*\* \|$", table, re.M), table
    assert sum(line.startswith("| species |") for line in table.splitlines()) == 5
    assert "Between variants each species' share is compared as a seat's win rate is" in md
    tests = sum(1 for s in summaries for x in s.lines if not x.hidden) + sum(
        1 for x in comparisons[0].lines if not x.hidden)
    assert f"Holm's correction over all {tests} tests of this report" in md


def test_ww_5_3_a_real_variant_study_says_the_species_change_in_its_report_and_on_the_terminal(tmp_path):
    out = tmp_path / "flow"
    res = CliRunner().invoke(main, ["lab", "wildwasser", "--players", "2", "--compare", "river_flow=forward,back",
                                    "--bots", "random", "--games", "8", "--jobs", "1", "--quiet", "--out", str(out)])
    assert res.exit_code == 0, res.output
    said = re.search(r"Species: (the \w+'s share of the points .*, flagged|no .*)", res.output)
    assert said and "**" not in res.output, res.output
    md = (out / "report.md").read_text()
    glance = md[md.index("## At a glance"):md.index("## Findings")]
    assert f"**{BACK} against {FORWARD}**: " in glance and "Species: " in glance
    assert sum(line.startswith("| species | the ") for line in md.splitlines()) == 5
    page = (out / "report.html").read_text()
    assert "<td>species</td><td>the turtle&#x27;s share of the points</td>" in page
