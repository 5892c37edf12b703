"""Wildwasser's species between player counts (WW-1, WW-5.3): a species' fair share of the points is a
fifth at every player count, so a study of several counts compares each species' share between them —
each count against the smallest with the same other options — as it compares a seat's win rate between
variants (Newcombe's interval, the two-proportion z test at the effective sizes), in the report's Holm
family, with the same verdicts, in At a glance, a table and the variants figure.  Seats are not compared
between counts (their fair share changes with the count)."""

import math
import re

import numpy as np
from click.testing import CliRunner
from PIL import Image
from scipy.stats import norm

from wasserspiele.cli.main import main
from wasserspiele.games.wildwasser.board import SPECIES
from wasserspiele.lab import make_study
from wasserspiele.lab.analysis import COUNTS, VARIANTS, analyse, raise_flags
from wasserspiele.lab.measures import measures_for
from wasserspiele.lab.report import answers, blocks, plot_figures, render_md, verdict
from wasserspiele.lab.study import StudyResult

Z = norm.ppf(0.975)


def _made_up(players: list[str], finishes, games: int, compare: list[str] = ()) -> StudyResult:
    """Made-up Wildwasser games: `finishes(players, flow, i)` gives game i's finishes per species (SPECIES
    order) at that player count and river flow; a species' points are its podium places' (WW-5.3), and the
    players' scores add up to them."""
    study = make_study("wildwasser", players=players, bots=["random"], compare=list(compare), games=games, seed=1)
    rows = []
    for c, cond in enumerate(study.conditions):
        options = dict(cond.options)
        p, flow = options["players"], options.get("river_flow", "forward")
        own = measures_for(cond.load(study.game))
        for i in range(games):
            measures = {f"finish_{sp}": n for sp, n in zip(SPECIES, finishes(p, flow, i))}
            total = math.fsum(own.split_amounts(own.splits[0], measures))
            scores = [total - (p - 1) * (total // p)] + [total // p] * (p - 1)
            rows.append({"condition": cond.label, "cond": c, "game": i, "seed": i, "players": p,
                         "bots": ["random"] * p, "bot_index": [0] * p, "scores": scores, "winners": [i % p],
                         "returns": [float(s == i % p) for s in range(p)], "shared": 0, "actions": 30 * p,
                         "units": 30, "lead_changes": 1, "measures": measures})
    return StudyResult(study, rows)


def _turtle_scores_with_more_players(p, flow, i):
    """With 2 players one animal finishes a game, of each species in turn; with more players a turtle
    finishes in every game besides (and a second one every third game)."""
    one = [int(i % 5 == k) for k in range(5)]
    return one if p == 2 else [n + (sp == "turtle") * (1 + (i % 3 == 0)) for n, sp in zip(one, SPECIES)]


def _points(result: StudyResult, cond: int) -> np.ndarray:
    """Each game's points per species under a condition (games × species), by the game's podiums."""
    study = result.study
    own = measures_for(study.conditions[cond].load(study.game))
    return np.array([own.split_amounts(own.splits[0], r["measures"]) for r in result.rows if r["cond"] == cond])


def _wilson(r: float, n: float) -> tuple[float, float]:
    centre = (r + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(r * (1 - r) / n + Z * Z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def _share(amounts: np.ndarray, totals: np.ndarray) -> tuple[float, float, float, float]:
    """A species' pooled share Σ its points / Σ all points, its effective sample size (the games as the
    units: r(1 − r) over the linearised variance with the small-sample factor, at most the points behind
    it) and its Wilson interval."""
    r = amounts.sum() / totals.sum()
    g = len(amounts)   # with the small-sample factor g/(g − 1)
    var = ((amounts - r * totals) ** 2).sum() / totals.sum() ** 2 * g / (g - 1)
    n = min(r * (1 - r) / var, totals.sum()) if var > 0 and 0 < r < 1 else float(len(amounts))
    return (r, n, *_wilson(r, n))


def _expected(result: StudyResult, base: int, this: int, i: int) -> tuple[float, float, float, float]:
    """Species i's share under `this` minus under `base`: Newcombe's hybrid score interval and the pooled
    two-proportion z test's p, both at the effective sizes."""
    pb, po = _points(result, base), _points(result, this)
    rb, nb, lb, ub = _share(pb[:, i], pb.sum(axis=1))
    ro, no, lo, uo = _share(po[:, i], po.sum(axis=1))
    d = ro - rb
    pooled = (ro * no + rb * nb) / (no + nb)
    z = d / math.sqrt(pooled * (1 - pooled) * (1 / no + 1 / nb))
    return (d, d - math.hypot(ro - lo, ub - rb), d + math.hypot(uo - ro, rb - lb), 2 * norm.sf(abs(z)))


def _holm(ps: list[float]) -> list[float]:
    order = np.argsort(ps, kind="stable")
    steps = np.maximum.accumulate([min(1.0, (len(ps) - k) * ps[j]) for k, j in enumerate(order)])
    out = np.empty(len(ps))
    out[order] = steps
    return list(out)


def test_ww_5_3_a_species_share_that_differs_between_player_counts_is_flagged_and_checked_by_hand():
    result = _made_up(["2", "4"], _turtle_scores_with_more_players, 150)
    summaries, comparisons = analyse(result)
    flags = raise_flags(summaries, comparisons)
    assert [(c.between, c.label, c.baseline) for c in comparisons] == [(COUNTS, "players=4", "players=2")]
    (c,) = comparisons
    # only the species: a seat's fair share changes with the count, and lengths grow with it by the rules
    assert [x.what for x in c.lines] == [f"the {sp}'s share of the points" for sp in SPECIES]
    assert all(x.section == "parts" and x.part_of.name == "species" for x in c.lines)
    for i, x in enumerate(c.lines):
        d, low, high, p = _expected(result, 0, 1, i)
        assert (x.base.value, x.this.value) == (summaries[0].splits[0].shares[i].value,
                                               summaries[1].splits[0].shares[i].value)
        assert np.allclose([x.diff.value, x.diff.low, x.diff.high, x.test.p], [d, low, high, p], rtol=1e-9,
                           atol=1e-12), (x.what, x.diff, x.test, (d, low, high, p))
        assert x.test.name == "two-proportion z test"
    turtle = c.lines[4]
    assert turtle.diff.low > 0.1 and turtle.flagged and verdict(turtle) == "flagged"
    assert ("players=4 against players=2", turtle) in flags
    # one Holm family: every test of both conditions and the five between the counts
    family = [x for s in summaries for x in s.lines if not x.hidden] + [x for x in c.lines if not x.hidden]
    assert len(family) == sum(1 for s in summaries for x in s.lines if not x.hidden) + 5
    assert np.allclose([x.p_adjusted for x in family], _holm([x.test.p for x in family]), rtol=1e-12)
    # At a glance: the change with both shares and its interval, as between variants
    text = " ".join(answers(summaries, comparisons))
    assert re.search(r"\*\*players=4 against players=2\*\*: Species: the turtle's share of the points "
                     rf"{100 * turtle.base.value:.1f} % \[[\d.]+, [\d.]+\] → {100 * turtle.this.value:.1f} % "
                     r"\[[\d.]+, [\d.]+\] \(\+[\d.]+ pp \[\+[\d.]+, \+[\d.]+\]\), \*\*flagged\*\*", text), text
    assert "Who wins" not in text  # no seat is compared between the counts
    md = render_md(blocks(result, summaries, comparisons, [], []))
    table = md[md.index("## Player count: players=4 against players=2"):md.index("## results.csv")]
    assert re.search(r"^\| species \| the turtle's share of the points \| [\d.]+ % \[[\d.]+, [\d.]+\] \| "
                     r"[\d.]+ % \[[\d.]+, [\d.]+\] \| \+[\d.]+ pp \[.+\] \| \+[\d.]+ \| two-proportion z test \| "
                     r"(< 0\.001|0\.0\d\d) \| \*\*flag\*\* \|$", table, re.M), table
    assert sum(line.startswith("| species |") for line in table.splitlines()) == 5
    assert not any(line.startswith(("| seats |", "| length |")) for line in table.splitlines())
    assert f"Holm's correction over all {len(family)} tests of this report" in md
    assert ("Between player counts each species' share is compared as two variants' win rates of a seat are "
            "(Newcombe's interval and the two-proportion z test, both at the two shares' effective sample sizes), "
            "each count against the smallest with the same other options") in md
    assert "Between variants each species' share" not in md  # no variant in this study


def test_ww_5_3_each_player_count_is_compared_with_the_smallest_under_each_compared_value():
    result = _made_up(["2", "4", "6"], _turtle_scores_with_more_players, 20)
    _, comparisons = analyse(result)
    assert [(c.label, c.baseline) for c in comparisons] == [("players=4", "players=2"), ("players=6", "players=2")]
    # with a compared option: the variants as before, then the counts under each value, never across values
    result = _made_up(["2", "4"], _turtle_scores_with_more_players, 20, ["river_flow=forward,back"])
    summaries, comparisons = analyse(result)
    raise_flags(summaries, comparisons)
    assert [(c.between, c.label, c.baseline) for c in comparisons] == [
        (VARIANTS, "players=2 river_flow=back", "players=2 river_flow=forward"),
        (VARIANTS, "players=4 river_flow=back", "players=4 river_flow=forward"),
        (COUNTS, "players=4 river_flow=forward", "players=2 river_flow=forward"),
        (COUNTS, "players=4 river_flow=back", "players=2 river_flow=back")]
    assert all(len(c.lines) == 5 for c in comparisons if c.between == COUNTS)
    # the variants figures: both kinds, each comparison in a figure of its own (their rows in one figure were
    # taller than VARIANTS_MAX_INCH), a count's titled by its baseline (a condition is a variant and a count)
    figures = {f._suptitle.get_text().replace("\n", " "): f for name, _, f in plot_figures(summaries, comparisons)
               if name.startswith("variants")}
    for title in ("Player count: players=4 river_flow=back against players=2 river_flow=back",
                  "Variant: players=4 river_flow=back against players=4 river_flow=forward"):
        rows = [t.get_text().replace("\n", " ") for t in figures[title].axes[0].get_yticklabels()]
        assert "the turtle's share of the points" in rows, (title, rows)
    import matplotlib.pyplot as plt
    plt.close("all")


def test_ww_5_3_a_study_of_one_player_count_compares_no_counts():
    result = _made_up(["4"], _turtle_scores_with_more_players, 20, ["river_flow=forward,back"])
    _, comparisons = analyse(result)
    assert [c.between for c in comparisons] == [VARIANTS]


def test_ww_5_3_a_real_study_of_two_player_counts_says_the_species_change_in_its_report_and_on_the_terminal(
        tmp_path):
    out = tmp_path / "counts"
    res = CliRunner().invoke(main, ["lab", "wildwasser", "--players", "2,4", "--bots", "random", "--games", "6",
                                    "--jobs", "1", "--quiet", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert re.search(r"^  \* players=4 against players=2: Species: ", res.output, re.M) and "**" not in res.output
    md = (out / "report.md").read_text()
    glance = md[md.index("## At a glance"):md.index("## Findings")]
    assert "**players=4 against players=2**: Species: " in glance
    section = md[md.index("## Player count: players=4 against players=2"):md.index("## Notable games")]
    assert sum(line.startswith("| species | the ") for line in section.splitlines()) == 5
    assert "![Each player count against the smallest with the same options" in md
    with Image.open(out / "plots" / "variants.png") as im:
        assert im.info["Title"] == "Player counts against the smallest"
