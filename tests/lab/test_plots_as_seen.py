"""The report's plots as a game designer sees them: no row label over its neighbour, no label broken inside a
name, no legend over the bars it explains, no figure wider than the report's column, whole-number axes with
whole-number ticks, every flagged change the Findings link to the variants figure drawn in it, and every interval
seen.  Tested on the matplotlib objects (text extents, tick values, plotted points), on pixels only where one
artist hides another."""

import itertools
import math
import re

import matplotlib.pyplot as plt
import pytest
from matplotlib.collections import PathCollection
from matplotlib.colors import to_rgb

from wasserspiele.core.stats import Estimate
from wasserspiele.core.stats import Test as SignificanceTest  # named "Test…", pytest would try to collect it
from wasserspiele.lab import make_study
from wasserspiele.lab.analysis import Comparison, Line, analyse, raise_flags
from wasserspiele.lab.report import LABEL_WIDTH, WIDTH, _wrap, finding_text, plot_figures
from wasserspiele.lab.study import StudyResult

from lab.test_species_between_counts import _made_up, _turtle_scores_with_more_players

ALL_TIPS_OFF = "heuristic:avoid_second_card=0,keep_pairs=0,grow_herds=0,watch_eights=0"


def _wasserloch(games: int, bots: str = "random", compare: tuple[str, ...] = (), actions=lambda i: 40 + i % 7,
                options: tuple[str, ...] = ("rounds=1",), players: tuple[str, ...] = ("3",)):
    """Made-up Wasserloch games (seat i % players wins game i), so figures are drawn without playing."""
    study = make_study("wasserloch", players=list(players), bots=[bots], options=list(options),
                       compare=list(compare), games=games, seed=1)
    rows = []
    for c, cond in enumerate(study.conditions):
        game = cond.load(study.game)
        p = game.players
        for i in range(games):
            lineup = study.seating.lineup(game, len(study.bots), i, study.seed)
            rows.append({"condition": cond.label, "cond": c, "game": i, "seed": i, "players": p,
                         "bots": [study.bots[b].text for b in lineup], "bot_index": list(lineup),
                         "scores": [10.0 + 5 * (s == i % p) + (i + s + c) % 4 for s in range(p)],
                         "winners": [i % p], "returns": [float(s == i % p) for s in range(p)], "shared": 0,
                         "actions": actions(i) + 3 * c, "units": 1, "lead_changes": i % 4, "measures": {}})
    return StudyResult(study, rows)


def _figures(result, comparisons=None):
    summaries, found = analyse(result)
    raise_flags(summaries, found)
    return summaries, {name: fig for name, _, fig in plot_figures(summaries, found if comparisons is None
                                                                     else comparisons)}


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _overlapping(texts, renderer):
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts if t.get_text() and t.get_visible()]
    return [(a, b) for (a, ea), (b, eb) in itertools.combinations(boxes, 2) if ea.overlaps(eb)]


def _legends(fig):
    return [lg for lg in [*fig.legends, *(ax.get_legend() for ax in fig.axes)] if lg is not None]


# ----------------------------------------------------------------------------- labels
def _broken_at(text: str, wrapped: str) -> list[str]:
    """The characters before each line break of `wrapped` in `text` (" " where a space was dropped)."""
    before, pos = [], 0
    for k, line in enumerate(wrapped.split("\n")):
        at = text.index(line, pos)
        if k:
            before.append(text[at - 1])
        pos = at + len(line)
    return before


def test_a_bot_spec_label_breaks_after_a_comma_never_inside_a_trait_name():
    """`heuristic:…,grow_herds=0,…` has no space: textwrap broke it inside a name ("…,g" / "row_herds=0")."""
    for text in (ALL_TIPS_OFF, f"{ALL_TIPS_OFF}  (players=2)"):
        wrapped = _wrap(text)
        assert "\n" in wrapped and all(len(line) <= LABEL_WIDTH for line in wrapped.split("\n")), wrapped
        assert set(_broken_at(text, wrapped)) <= {",", ":", " "}, wrapped
    # on the figure: every row label of bots.png breaks only after a comma, a colon or a space
    _, figs = _figures(_wasserloch(30, f"heuristic {ALL_TIPS_OFF} random"))
    labels = [t.get_text() for t in figs["bots.png"].axes[0].get_yticklabels()]
    (label,) = [lb for lb in labels if "grow" in lb]
    assert "\n" in label and set(_broken_at(ALL_TIPS_OFF, label)) <= {",", ":", " "}, label
    # and the long labels stay inside the report's column (the image was 8.7 inches wide, not 7)
    fig = figs["bots.png"]
    fig.canvas.draw()
    assert fig.get_tightbbox(fig.canvas.get_renderer()).width <= WIDTH * 1.02


def test_a_label_keeps_a_sign_with_its_number():
    """Seven Waters' "points per player for cards left in hand (≤ 0)" was drawn as "… (≤" over "0)"."""
    for text in ("points per player for cards left in hand (≤ 0)",
                 "close games (margin ≤ 10 % of the winning score) (players=2 chase=adjacent)"):
        lines = _wrap(text).split("\n")
        assert all(not line.endswith(("≤", "≥", "±")) and not line.startswith(("%", "0")) for line in lines), lines
        assert " ".join(lines) == text


def test_variant_rows_of_three_lines_do_not_run_into_each_other():
    """wildwasser-river-flow's variants figure: a three-line row label ("games ended by the empty tile stack
    (WW-5.2), not a third finish (players=2 river_flow=back)") was drawn over the rows above and below it."""
    summaries, _ = analyse(_wasserloch(30))
    # the rows of wildwasser-river-flow's Shares panel, two variants of eight rows each (a third made the figure
    # taller than VARIANTS_MAX_INCH: each comparison then gets its own figure, whose rows name no comparison)
    shares = ["games ended by the empty tile stack (WW-5.2), not a third finish",
              "share of washed animals that belonged to the eventual winner(s)",
              "games in which the meerkat podium's 1st place was taken", "the cheetah's share of the points",
              "the turtle's share of the points",
              "shared wins (ties)", "close games (margin ≤ 10 % of the winning score)", "seat 0 win rate"]

    def line(what, k):
        base = Estimate(0.3, 0.25, 0.35, 300)
        return Line("measures", what, base, Estimate(0.3 + 0.01 * k, 0.26, 0.4, 300),
                    Estimate(0.01 * k, -0.05, 0.08, 300), True, SignificanceTest("two-proportion z test", 0.2), sd=0.4)

    comparisons = [Comparison(f"players={p} river_flow=back", f"players={p} river_flow=forward",
                              [line(w, k) for k, w in enumerate(shares)]) for p in (2, 4)]
    fig = {n: f for n, _, f in plot_figures(summaries, comparisons)}["variants.png"]
    renderer = fig.canvas.get_renderer()
    fig.canvas.draw()
    for ax in fig.axes:
        ticks = ax.get_yticklabels()
        assert max(t.get_text().count("\n") for t in ticks) >= 2  # three-line labels are there
        assert not _overlapping(ticks, renderer)
        low, high = sorted(ax.get_ylim())
        assert all(low < y < high for y in ax.get_yticks())  # every row inside its panel


# ----------------------------------------------------------------------------- legends and width
def test_the_histograms_legend_covers_no_bars():
    """Four conditions' histograms: the legend was put inside the axes ("best"), over the tallest bars of
    wildwasser's game lengths; it now stands below the panels, once."""
    _, figs = _figures(_wasserloch(40, compare=("chase=nearest,adjacent", "rounds=1,3"), options=()))
    fig = figs["outcomes.png"]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    legends = _legends(fig)
    assert len(legends) == 1 and len(legends[0].get_texts()) == 4
    for lg in legends:
        box = lg.get_window_extent(renderer)
        assert not any(box.overlaps(ax.get_window_extent(renderer)) for ax in fig.axes)


def test_a_legend_of_long_condition_labels_keeps_the_figure_one_column_wide():
    """Six "players=N river_flow=…" entries in three columns made species_share.png 7.5 inches wide (1350 px
    where the others are 1260), so a page showed it smaller than the others."""
    result = _made_up(["2", "4", "6"], _turtle_scores_with_more_players, 20, ["river_flow=forward,back"])
    _, figs = _figures(result)
    for name in ("seat_win_rate.png", "species_share.png", "outcomes.png"):
        fig = figs[name]
        fig.canvas.draw()
        box = fig.get_tightbbox(fig.canvas.get_renderer())
        assert box.width <= WIDTH * 1.02, (name, box.width)
        for lg in _legends(fig):
            assert not _overlapping(lg.get_texts(), fig.canvas.get_renderer()), name


# ----------------------------------------------------------------------------- colours
def _luminance(colour) -> float:
    """WCAG relative luminance of an RGB(A) colour."""
    def channel(c):
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in to_rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a, b) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_twelve_conditions_are_twelve_styles_each_visible():
    """`--players 2,3,4 --compare chase=… --compare rounds=…` is twelve conditions: the eight colours came
    round again, so players=2 and players=4 drew the same blue bars and lines; the seventh was black (its black
    whiskers and the fair share's black line vanished on it) and the eighth a yellow line hardly seen on white."""
    _, figs = _figures(_wasserloch(12, players=("2", "3", "4"), options=(),
                                   compare=("chase=nearest,adjacent", "rounds=1,3")))
    from matplotlib.container import BarContainer
    bars = [c for c in figs["seat_win_rate.png"].axes[0].containers if isinstance(c, BarContainer)]
    bar_styles = [(to_rgb(c.patches[0].get_facecolor()), c.patches[0].get_hatch() or "") for c in bars]
    assert len(bar_styles) == 12 and len(set(bar_styles)) == 12, bar_styles
    assert all(_contrast(colour, "black") >= 3 for colour, _ in bar_styles)  # whiskers and fair share show
    for ax in figs["outcomes.png"].axes:
        lines = [p for p in ax.patches if p.get_label() and not p.get_label().startswith("_")]
        line_styles = [(to_rgb(p.get_edgecolor()), str(p.get_linestyle())) for p in lines]
        assert len(line_styles) == 12 and len(set(line_styles)) == 12, line_styles
        assert all(_contrast(colour, "white") >= 2 for colour, _ in line_styles)


def test_flagged_and_unflagged_variant_rows_differ_in_shape_not_only_in_colour():
    """Orange-red and blue circles: printed in grey (or to a reader who cannot tell the two hues apart) a
    flagged row looked like any other."""
    summaries, _ = analyse(_wasserloch(30))

    def line(what, flagged):
        return Line("measures", what, Estimate(0.3, 0.25, 0.35, 300), Estimate(0.4, 0.35, 0.45, 300),
                    Estimate(0.1, 0.03, 0.17, 300), True, SignificanceTest("two-proportion z test", 0.001), sd=0.4,
                    flagged=flagged)

    comparison = Comparison("chase=adjacent", "chase=nearest", [line("shared wins (ties)", True),
                                                                 line("seat 0 win rate", False)])
    fig = {n: f for n, _, f in plot_figures(summaries, [comparison])}["variants.png"]
    (ax,) = fig.axes
    ticks = dict(zip(ax.get_yticks(), (t.get_text() for t in ax.get_yticklabels())))
    shape_of = {}
    for collection in ax.collections:
        if isinstance(collection, PathCollection):  # the scatter's points, not the whiskers
            for _, y in collection.get_offsets():
                shape_of[ticks[y]] = collection.get_paths()[0].vertices.round(3).tobytes()
    assert set(shape_of) == {"shared wins (ties)", "seat 0 win rate"}
    assert shape_of["shared wins (ties)"] != shape_of["seat 0 win rate"]
    markers = {h.get_label(): h.get_marker() for lg in fig.legends for h in lg.legend_handles}
    assert markers["flagged"] != markers["not flagged"]


# ----------------------------------------------------------------------------- scales
def test_whole_number_histograms_have_whole_number_ticks():
    """A 2-game study drew its game lengths (49 and 51 actions) on ticks 48.5, 49.0, 49.5 …"""
    _, figs = _figures(_wasserloch(2, actions=lambda i: 49 + 2 * i))
    for ax in figs["outcomes.png"].axes:
        low, high = ax.get_xlim()
        shown = [x for x in ax.get_xticks() if low <= x <= high]
        assert shown and all(float(x).is_integer() for x in shown), (ax.get_title(), shown)


# ----------------------------------------------------------------------------- what the text links
def test_a_flagged_change_from_zero_is_drawn_where_the_finding_links():
    """Seven Waters `--compare final_turns=none,both`: "points per player for discarded cards (≤ 0) falls from
    0.00 to -0.77 … [figure](plots/variants.png)" was the report's second Finding, and the variants figure left
    it out (no percentage of a zero baseline).  It is drawn in its own unit, in a panel of its own."""
    summaries, _ = analyse(_wasserloch(30))
    what = "points per player for discarded cards (≤ 0)"
    zero = Line("measures", what, Estimate(0.0, 0.0, 0.0, 60), Estimate(-0.77, -0.95, -0.58, 60),
                Estimate(-0.77, -0.95, -0.58, 60), False, SignificanceTest("Welch t test", 1e-6), sd=0.5, flagged=True)
    count = Line("measures", "actions per game", Estimate(41.8, 41.5, 42.1, 60), Estimate(43.9, 43.5, 44.2, 60),
                 Estimate(2.08, 1.64, 2.52, 60), False, SignificanceTest("Welch t test", 1e-6), sd=1.2, flagged=True)
    comparison = Comparison("final_turns=both", "final_turns=none", [count, zero])
    assert "[figure](plots/variants.png)" in finding_text(comparison.label, zero)
    fig = {n: f for n, _, f in plot_figures(summaries, [comparison])}["variants.png"]
    rows = {t.get_text().replace("\n", " "): (ax, y) for ax in fig.axes
            for t, y in zip(ax.get_yticklabels(), ax.get_yticks())}
    assert what in rows, sorted(rows)
    ax, y = rows[what]
    assert ax is not rows["actions per game"][0]  # not on the percentage axis of the other counts
    assert "% of the baseline" not in ax.get_xlabel() and "own unit" in ax.get_xlabel()
    points = [tuple(p) for c in ax.collections for p in c.get_offsets()]
    assert any(math.isclose(x, -0.77) and math.isclose(py, y) for x, py in points), points


# ----------------------------------------------------------------------------- a degenerate study in words
def test_a_study_of_one_game_per_condition_is_not_told_its_values_are_fixed_by_the_rules():
    """`lab seven_waters --compare final_turns=both,none --games 1`: At a glance read "**final_turns=none against
    final_turns=both**: ." (every line hidden), the hidden lines "actions per game (fixed by the rules: 55 in
    every game under final_turns=both, 53 under …)" — one game does not vary, the rules need not fix it — and
    "1 games cannot rule out …"."""
    from wasserspiele.lab.report import answers, comparison_answer, key_numbers
    summaries, comparisons = analyse(_wasserloch(1, compare=("chase=nearest,adjacent",)))
    raise_flags(summaries, comparisons)
    hidden = {x.what: x.hidden for c in comparisons for x in c.lines if x.hidden}
    assert not [h for h in hidden.values() if "fixed by the rules" in h], hidden
    assert hidden["winning margin (share of the winner's score)"] == (
        "0.2 under players=3 chase=nearest, 0.1875 under players=3 chase=adjacent: too few games under "
        "players=3 chase=nearest and players=3 chase=adjacent to test a difference")
    text = " ".join(answers(summaries, comparisons)) + " ".join(key_numbers(summaries))
    assert "1 game cannot rule out" in text and "(1 game)" in text and not re.search(r"\b1 games\b", text), text
    from wasserspiele.lab.report import blocks, render_md
    result = _wasserloch(1, compare=("chase=nearest,adjacent",))
    md = render_md(blocks(result, summaries, comparisons, [], []))
    assert "or a ratio with no denominator, or too few games to test): " in md
    # a comparison with every line hidden still says something
    nothing = Comparison(comparisons[0].label, comparisons[0].baseline, [x for x in comparisons[0].lines if x.hidden])
    said = comparison_answer(nothing)
    assert not said.endswith(": .") and "Nothing could be compared" in said, said


def test_a_value_the_rules_fix_is_still_called_fixed_with_two_games_a_side():
    """The rounds of `rounds=1` against `rounds=3`: the same in every game, by the rules."""
    summaries, comparisons = analyse(_wasserloch(2, compare=("rounds=1,3",), options=(), actions=lambda i: 40))
    hidden = {x.what: x.hidden for c in comparisons for x in c.lines if x.hidden}
    assert hidden["actions per round"].startswith("fixed by the rules: 40 in every game under"), hidden


def test_the_variants_caption_orders_the_rows_as_the_figure_draws_them():
    """The caption said "largest effect first", but a flagged row of a small effect is drawn above an
    unflagged one of a larger effect (Comparison.shown: flagged first, each group by its effect)."""
    summaries, _ = analyse(_wasserloch(30))

    def line(what, diff, flagged):
        return Line("measures", what, Estimate(0.3, 0.25, 0.35, 300), Estimate(0.3 + diff, 0.25, 0.35, 300),
                    Estimate(diff, diff - 0.05, diff + 0.05, 300), True,
                    SignificanceTest("two-proportion z test", 0.001), sd=0.4, flagged=flagged)

    comparison = Comparison("chase=adjacent", "chase=nearest", [line("seat 0 win rate", 0.2, False),
                                                                 line("shared wins (ties)", 0.06, True)])
    ((_, caption, fig),) = [f for f in plot_figures(summaries, [comparison]) if f[0] == "variants.png"]
    (ax,) = fig.axes
    top_down = [t.get_text() for _, t in sorted(zip(ax.get_yticks(), ax.get_yticklabels()),
                                                 key=lambda yt: yt[0], reverse=ax.yaxis_inverted() is False)]
    assert top_down == ["shared wins (ties)", "seat 0 win rate"]  # the flagged row first, though smaller
    assert "largest effect first" not in caption and "flagged rows first" in caption


def _one_variant():
    summaries, found = analyse(_wasserloch(60, compare=("chase=adjacent,nearest",)))
    raise_flags(summaries, found)
    return summaries, found


def _seven_comparisons():  # one figure each, the player counts' titles over two lines
    from lab.test_variants_split import _river_flow
    _, summaries, comparisons, _ = _river_flow()
    return summaries, comparisons


@pytest.mark.parametrize("study", [_one_variant, _seven_comparisons])
def test_the_variants_legend_stands_right_above_the_first_panel(study):
    """Title and legend are placed by hand above the panels; tight_layout also made room for the title inside
    the panels' rect: half an inch of blank between the legend and the first panel of every variants figure."""
    figures = [fig for name, _, fig in plot_figures(*study()) if name.startswith("variants")]
    assert figures
    for fig in figures:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        title = fig._suptitle.get_window_extent(renderer)
        legend = fig.legends[0].get_window_extent(renderer)
        panel = fig.axes[0].title.get_window_extent(renderer)
        assert title.y0 >= legend.y1 - 1 and legend.y0 >= panel.y1 - 1  # nothing over anything
        gap = (legend.y0 - panel.y1) / fig.dpi
        assert gap <= 0.3, f"{gap:.2f} in between the legend and the first panel ({fig._suptitle.get_text()!r})"
        # and the saved image (bbox_inches="tight": what is in the layout) still holds the title
        saved = fig.get_tightbbox(renderer)
        assert saved.y1 * fig.dpi >= title.y1 - 1, "the title is cut off the saved image"


def test_an_interval_narrower_than_its_marker_is_drawn_over_it():
    """A study of 10,000 games gives intervals of a few tenths of a point: on the variants figure's scale they were
    narrower than the dot, drawn under it, and the row read as one without an interval.  Looked at in pixels: the
    whiskers' grey shows inside the dot."""
    import numpy as np

    summaries, _ = analyse(_wasserloch(30))
    wide = Line("measures", "seat 0 win rate", Estimate(0.3, 0.25, 0.35, 300), Estimate(0.5, 0.45, 0.55, 300),
                Estimate(0.2, 0.1, 0.3, 300), True, SignificanceTest("two-proportion z test", 0.001), sd=0.4)
    narrow = Line("measures", "seat 1 win rate", Estimate(0.3, 0.299, 0.301, 10**6),
                  Estimate(0.25, 0.249, 0.251, 10**6), Estimate(-0.05, -0.0502, -0.0498, 10**6), True,
                  SignificanceTest("two-proportion z test", 1e-9), sd=0.4)
    fig = {n: f for n, _, f in plot_figures(summaries, [Comparison("chase=adjacent", "chase=nearest",
                                                                    [wide, narrow])])}["variants.png"]
    fig.canvas.draw()
    pixels = np.asarray(fig.canvas.buffer_rgba())[:, :, :3].astype(int)
    (ax,) = fig.axes
    ticks = dict(zip((t.get_text() for t in ax.get_yticklabels()), ax.get_yticks()))
    x, y = ax.transData.transform((100 * -0.05, ticks["seat 1 win rate"]))
    row, col = round(fig.bbox.height - y), round(x)
    dot = pixels[row - 2:row + 3, col - 2:col + 3].reshape(-1, 3)
    grey = np.all(np.abs(dot - 102) <= 12, axis=1)  # ecolor "0.4"
    assert grey.any(), dot
