"""A study of many comparisons draws one variants figure per comparison, not one ribbon of an image:
wildwasser-river-flow's seven comparisons made one variants.png 58 inches (10,451 px) tall, and every
Finding's "[figure]" link led to its top.  A study whose rows fit VARIANTS_MAX_INCH keeps its single
variants.png.  Made-up games (no game is played); tested on the matplotlib figures and the rendered text."""

import re

import matplotlib.pyplot as plt
import pytest

from wasserspiele.lab.analysis import analyse, raise_flags
from wasserspiele.lab.report import (VARIANTS_MAX_INCH, blocks, findings, plot_figures, render_html, render_md,
                                     make_plots)

from lab.test_plots_as_seen import _wasserloch
from lab.test_species_between_counts import SPECIES, _made_up

LINK = re.compile(r"\[figure\]\(plots/([^()\s]+)\)")


def _finishes(p, flow, i):
    """One animal finishes a game, of each species in turn; with more players a turtle besides (a second
    every third game); with the river flowing back a cheetah every other game besides."""
    one = [int(i % 5 == k) for k in range(5)]
    more = [n + (sp == "turtle") * (1 + (i % 3 == 0)) for n, sp in zip(one, SPECIES)] if p > 2 else one
    return [n + (flow == "back" and sp == "cheetah" and i % 2 == 0) for n, sp in zip(more, SPECIES)]


def _river_flow():
    """wildwasser-river-flow's design: 2, 4, 6 players × river_flow forward/back, seven comparisons (three
    variants, four player counts)."""
    result = _made_up(["2", "4", "6"], _finishes, 60, compare=["river_flow=forward,back"])
    summaries, comparisons = analyse(result)
    flags = raise_flags(summaries, comparisons)
    return result, summaries, comparisons, flags


def _variant_figures(summaries, comparisons):
    return {name: (caption, fig) for name, caption, fig in plot_figures(summaries, comparisons)
            if name.startswith("variants")}


def _rows(fig) -> list[str]:
    return [t.get_text().replace("\n", " ") for ax in fig.axes for t in ax.get_yticklabels()]


def _title(fig) -> str:
    return fig._suptitle.get_text().replace("\n", " ")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def river_flow():
    """The study and its variants figures, drawn once for the three tests that read them (drawing all of
    its figures is most of each test's time); the tests only read them (Agg figures stay readable and
    drawable after pyplot's close)."""
    result, summaries, comparisons, flags = _river_flow()
    return result, summaries, comparisons, flags, _variant_figures(summaries, comparisons)


def test_a_study_of_many_comparisons_draws_one_figure_per_comparison_within_the_height_limit(river_flow):
    _, summaries, comparisons, _, figures = river_flow
    assert len(comparisons) == 7
    assert "variants.png" not in figures and len(figures) == len(comparisons), sorted(figures)
    for name, (caption, fig) in figures.items():
        height = fig.get_size_inches()[1]
        assert height <= VARIANTS_MAX_INCH, (name, height)
        # drawn, the image is within the limit too (bbox_inches="tight" neither adds a ribbon back)
        fig.canvas.draw()
        box = fig.get_tightbbox(fig.canvas.get_renderer())
        assert box.height <= VARIANTS_MAX_INCH + 0.5, (name, box.height)
        # the conventions of the single figure: flagged rows first in the caption's words, the legend
        assert "flagged rows first" in caption and "orange-red diamonds" in caption, caption
        assert {h.get_label() for lg in fig.legends for h in lg.legend_handles} == {"flagged", "not flagged"}


def test_every_comparisons_rows_are_drawn_in_exactly_one_figure_titled_by_it(river_flow):
    _, summaries, comparisons, _, figures = river_flow
    for c in comparisons:
        named = [name for name, (_, fig) in figures.items()
                 if f"{c.label} against {c.baseline}" in _title(fig)]
        assert len(named) == 1, (c.label, c.baseline, named)
        caption, fig = figures[named[0]]
        assert sorted(_rows(fig)) == sorted(x.what for x in c.shown()), named[0]
        assert c.label in caption and c.baseline in caption
        # the file's name says which comparison it draws
        assert named[0].removesuffix(".png").endswith(c.label.split()[-1].replace("=", "-").replace("_", "-"))
    # no row drawn twice, none left out
    assert sum(len(_rows(fig)) for _, fig in figures.values()) == sum(len(c.shown()) for c in comparisons)


def test_each_finding_links_the_figure_that_draws_its_row(river_flow):
    result, summaries, comparisons, flags, figures = river_flow
    where_of = {f"{c.label} against {c.baseline}": c for c in comparisons}
    texts = findings(summaries, comparisons)
    compared = [(w, x, t) for (w, x), t in zip(flags, texts) if w in where_of]
    assert len({w for w, _, _ in compared}) >= 4, "the made-up games flag rows of several comparisons"
    for where, x, text in compared:
        (linked,) = LINK.findall(text)
        assert linked in figures, (text, sorted(figures))
        _, fig = figures[linked]
        assert x.what in _rows(fig) and where in _title(fig), (text, _title(fig))
    # the report shows every figure it links, in Markdown and in HTML (whose link is an anchor on the page)
    plots = make_plots(summaries, comparisons)
    bl = blocks(result, summaries, comparisons, [], plots)
    md, page = render_md(bl), render_html(bl, {n: p for n, _, p in plots})
    for name in figures:
        assert f"](plots/{name})" in md and f'<figure id="{name}">' in page
    linked = LINK.findall(md)
    assert any(name.startswith("variants-") for name in linked), linked  # the Findings list five flags
    for name in linked:  # every link leads to a figure of the report
        assert f"](plots/{name})\n" in md and f'href="#{name}"' in page and f'<figure id="{name}">' in page
    assert "plots/variants.png" not in md


def test_a_small_study_keeps_its_single_variants_figure():
    """Three variants of Wasserloch (chase at 2, 3, 4 players): their rows fit the limit in one figure."""
    summaries, comparisons = analyse(_wasserloch(60, compare=("chase=nearest,adjacent",), players=("2", "3", "4")))
    flags = raise_flags(summaries, comparisons)
    assert len(comparisons) == 3
    figures = _variant_figures(summaries, comparisons)
    assert list(figures) == ["variants.png"]
    assert figures["variants.png"][1].get_size_inches()[1] <= VARIANTS_MAX_INCH
    assert flags and all("[figure](plots/variants.png)" in t for t in findings(summaries, comparisons))
