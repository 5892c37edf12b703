"""Writing a study's report: results.csv, report.md, report.html (self-contained),
plots (matplotlib, Agg) and the records of notable games (replayable)."""

from __future__ import annotations

import base64
import csv
import html
import io
import json
import math
import os
import re
from pathlib import Path
from typing import Any

from ..core.errors import BadOption
from ..core.messages import Reason
from ..core.paths import failed, replace_from, write_file, write_problem
from ..core.records import write_record
from ..core.registry import manifest
from ..core.stats import Estimate, wilson
from .analysis import (ALPHA, CLOSE, COUNTS, MARGIN_SHARE, MIN_EFFECT, VARIANTS, Comparison, ConditionSummary, Line,
                       SplitSummary, _is_share, analyse, raise_flags)
from .kernels import kernel_note
from .measures import measures_class
from .settings import STUDY_FILE, study_json
from .study import StudyResult, replay_game, seating_note

NOTABLE = ("longest", "shortest", "most_lopsided")


def _poss(noun: str) -> str:
    """'species' → "species'", 'seat' → "seat's"."""
    return noun + ("'" if noun.endswith("s") else "'s")


def _described(text: str, m) -> str:
    """A column's meaning, with what its measure counts where the measure says."""
    return f"{text}: {m.description}" if m.description else text


# ----------------------------------------------------------------------------- results.csv
def measure_columns(rows: list[dict]) -> list[str]:
    cols: list[str] = []
    for r in rows:
        for k in r["measures"]:
            if k not in cols:
                cols.append(k)
    return cols


def write_csv(result: StudyResult, path: Path) -> None:
    """One row per game: its seed, seats and bots, scores, winners, length and measures."""
    rows = result.rows
    players = max([r["players"] for r in rows], default=0)
    mcols = measure_columns(rows)
    header = csv_header(result)

    def write(binary) -> None:
        f = io.TextIOWrapper(binary, newline="", encoding="utf-8")
        w = csv.writer(f)
        w.writerow(header)
        for r in rows:
            pad = [""] * (players - r["players"])
            w.writerow([r["condition"], r["game"], r["seed"], r["players"]] + r["bots"] + pad
                       + [_num(x) for x in r["scores"]] + pad + [_num(x) for x in r["returns"]] + pad
                       + [" ".join(map(str, r["winners"])), r["shared"], r["actions"], r["units"], r["lead_changes"]]
                       + [_num(r["measures"].get(c, "")) for c in mcols])
        f.flush()
        f.detach()  # the binary file is closed by `replace_from`, which renames it

    # beside it and renamed: a full disk left results.csv.tmp behind, a half file that `lab_files` took
    # for the lab's own
    replace_from(path.with_name(path.name + ".tmp"), path, write)


def csv_header(result: StudyResult) -> list[str]:
    """results.csv's columns, in order."""
    rows = result.rows
    players = max([r["players"] for r in rows], default=0)
    return (["condition", "game", "seed", "players"] + [f"bot_{s}" for s in range(players)]
            + [f"score_{s}" for s in range(players)] + [f"return_{s}" for s in range(players)]
            + ["winners", "shared_win", "actions", "units", "lead_changes"]
            + [f"m_{c}" for c in measure_columns(rows)])


def csv_columns(result: StudyResult) -> list[list[str]]:
    """[column, meaning] of every column of results.csv, the game's own measures by their report labels."""
    study = result.study
    labels: dict[str, str] = {}
    units = ""
    for cond in study.conditions:
        own = measures_class(cond.load(study.game))
        units = units or own.units
        for m in own.describe:
            if m.kind == "ratio" and m.denominator:
                labels.setdefault(m.name, _described(f"the numerator of “{m.label}” in this game (the report "
                                                     f"divides its total over the games by m_{m.denominator}'s)", m))
                labels.setdefault(m.denominator, f"the denominator of “{m.label}” in this game")
            elif m.kind == "share":
                labels.setdefault(m.name, _described(f"1 or 0: one game's “{m.label}”", m))
            else:
                labels.setdefault(m.name, _described(f"this game's value of “{m.label}”", m))
    players = max([r["players"] for r in result.rows], default=0)
    last = players - 1
    rows = [["condition", "the condition's label: the player count and the compared option values"],
            ["game", "the game's number within its condition (0 first); the same number is the same deal under "
                     "every condition"],
            ["seed", "the game's seed (derived from the master seed and the game's number)"],
            ["players", "the number of seats in this game"],
            [f"bot_0 … bot_{last}", "the bot spec in each seat"],
            [f"score_0 … score_{last}", "each seat's final score (points)"],
            [f"return_0 … return_{last}", "each seat's win credit: 1 for a sole win, 1/k for a win shared by k "
                                          "(partners win whole), 0 for a loss; the win rates are its means"],
            ["winners", "the winning seat(s), space-separated seat numbers"],
            ["shared_win", "1 when the win was shared by more than one seat (team), else 0"],
            ["actions", "moves (decisions) in the game"],
            ["units", f"{units} in the game" if units else "the game's length in its own unit (0: it has none)"],
            ["lead_changes", "how often the lead (the single highest score) passed to another seat (team)"]]
    for c in measure_columns(result.rows):
        rows.append([f"m_{c}", labels.get(c, "a measure of the game (see its measures plug-in)")])
    return rows


def read_csv(path: Path) -> list[dict[str, str]]:
    with Path(path).open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _num(x: Any) -> Any:
    if isinstance(x, float):
        return int(x) if x.is_integer() else round(x, 6)
    return x


# ----------------------------------------------------------------------------- notable games
def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "default"


def notable_rows(rows: list[dict]) -> dict[str, dict]:
    """The longest, shortest and most lopsided game (largest spread of scores) of a condition."""
    if not rows:
        return {}
    def spread(r):
        return max(r["scores"]) - min(r["scores"])
    return {
        "longest": max(rows, key=lambda r: (r["actions"], -r["game"])),
        "shortest": min(rows, key=lambda r: (r["actions"], r["game"])),
        "most_lopsided": max(rows, key=lambda r: (spread(r), -r["game"])),
    }


def notable_games(summaries: list[ConditionSummary]) -> list[tuple[dict, dict]]:
    """(the report's entry, the results row) of every notable game, its record's file named in the entry:
    what `write_notable` records and `lab render` finds recorded."""
    out = []
    for summ in summaries:
        for kind, row in notable_rows(summ.rows).items():
            name = f"{slug(summ.label)}-{kind}-game{row['game']}.json"
            out.append(({"condition": summ.label, "kind": kind, "game": row["game"], "seed": row["seed"],
                         "actions": row["actions"], "scores": row["scores"], "winners": row["winners"],
                         "bots": row["bots"], "file": f"records/{name}"}, row))
    return out


def write_notable(result: StudyResult, summaries: list[ConditionSummary], out: Path) -> list[dict]:
    """Play the notable games again and save their records (checked to repeat exactly)."""
    folder = out / "records"
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for entry, row in notable_games(summaries):
        path = out / entry["file"]
        write_record(replay_game(result.study, row), path)  # nothing half-written left if it fails
        written.append(entry)
    return written


def _remove(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError:  # the folder made read-only: the error that stopped the write is the one said
        pass


# ----------------------------------------------------------------------------- plots
DPI = 180          # twice the screen's 90: sharp on a high-density display and when zoomed to 2×
FONT = 10
WIDTH = 7.0        # inches: one column, so a phone (390 px) shows each figure at a readable scale
# Okabe & Ito's palette: distinguishable with the common colour-vision deficiencies (and in grey)
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#F0E442")
# a condition's colour: the palette without its black (a black bar hid its black whiskers and the fair
# share's black line) and its yellow (too pale for a histogram's line on white); past these six, the
# colours come again with a hatch (bars) or a dash (lines), so that twelve conditions are twelve styles,
# not six colours each shown twice
CONDITION_COLOURS = PALETTE[:6]
HATCHES = ("", "//", "..", "xx")
DASHES = ("-", "--", ":", "-.")
FLAGGED_COLOUR, PLAIN_COLOUR = "#D55E00", "#0072B2"
# flagged and not flagged differ in shape too: printed in grey the two colours are nearly one (luminance 0.22
# and 0.15)
FLAGGED_MARKER, PLAIN_MARKER = "D", "o"
LABEL_WIDTH = 44   # characters of a row label before it wraps
# a row of a figure with row labels (variants, bots) is as tall as its label: a line of the tick font (9 pt at
# 1.2 line spacing, 0.15 in) and a little air, plus the gap between rows.  One pitch for every row put a
# three-line label over its neighbours (wildwasser-river-flow's variants figure)
LINE_INCH, ROW_GAP_INCH = 0.16, 0.18
LEGEND_ROW_INCH = 0.22  # a legend row below a figure's panels (9 pt text, half a line between rows)
# the tallest variants figure drawn for a whole study: past it, each comparison gets a figure of its own.  At
# WIDTH's scale a phone (390 px wide) shows 12 inches in 670 px, one screen; a laptop's report column (about
# 960 px) in about 1,650 px, under two screens.  wildwasser-river-flow's seven comparisons in one figure were 58
# inches (10,451 px), a ribbon whose "[figure]" links all led to its top.  A comparison is never cut across
# figures (its flagged-first order would be), so one comparison alone can still be taller
VARIANTS_MAX_INCH = 12.0
VARIANTS_FILE = "variants.png"
TITLE_WIDTH = 72        # characters of a figure's title before it wraps (11 pt across WIDTH)
TITLE_LINE_INCH = 0.2   # a further line of a figure's title (11 pt at 1.2 line spacing, and air)


def _figure_png(fig, title: str = "", caption: str = "") -> bytes:
    """The figure as PNG, its title and caption in the file's metadata (Title, Description)."""
    buf = io.BytesIO()
    # a title wrapped in the figure (a comparison's own variants figure) is one line in the metadata
    meta = {"Title": (title or (fig._suptitle.get_text() if fig._suptitle else "")).replace("\n", " "),
            "Description": caption}
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight", metadata={k: v for k, v in meta.items() if v})
    import matplotlib.pyplot as plt
    plt.close(fig)
    return buf.getvalue()


def _condition_style(k: int) -> tuple[str, str, str]:
    """The colour, hatch and line style of the k-th condition of a figure."""
    cycle = k // len(CONDITION_COLOURS)
    return CONDITION_COLOURS[k % len(CONDITION_COLOURS)], HATCHES[cycle % len(HATCHES)], DASHES[cycle % len(DASHES)]


def _err(e: Estimate, scale: float = 1.0) -> tuple[float, float]:
    return (max(0.0, (e.value - e.low) * scale), max(0.0, (e.high - e.value) * scale))


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"font.size": FONT, "axes.titlesize": FONT + 1, "legend.fontsize": FONT - 1,
                         "xtick.labelsize": FONT - 1, "ytick.labelsize": FONT - 1,
                         "axes.prop_cycle": plt.cycler(color=list(PALETTE))})
    return plt


def _break_points(text: str) -> list[str]:
    """`text` in pieces after which a line may break: a space, or a comma or colon with no space after it
    (a bot spec such as `heuristic:keep_pairs=0,grow_herds=0` has none).  Never between a sign and its
    number ("≤ 0") nor before a number or a percent sign ("seat 0", "10 %"), which read wrongly apart."""
    pieces, start = [], 0
    for i, ch in enumerate(text[:-1]):
        after = text[i + 1]
        if (ch in ",:" and after != " ") or (ch == " " and text[i - 1:i] not in ("≤", "≥", "±", "<", ">", "=")
                                             and not after.isdigit() and after not in "%)"):
            pieces.append(text[start:i + 1])
            start = i + 1
    pieces.append(text[start:])
    return pieces


def _wrap(text: str, width: int = LABEL_WIDTH, tail: str = "") -> str:
    """A row label in lines of at most `width` characters, broken only where `_break_points` allows.
    textwrap broke a bot spec, which has no space, inside a name ("…,keep_pairs=0,g" over "row_herds=0");
    a piece longer than a line stays whole (a longer line, not a name cut apart).  `tail` (a row's
    condition, "(players=2 river_flow=back)") follows `text` after a space, kept on one line where it fits:
    "(players=2" at the end of one line and "river_flow=back)" on the next read as two things."""
    pieces = _break_points(text)
    if tail:
        pieces[-1] += " "
        pieces += [tail] if len(tail) <= width else _break_points(tail)
    lines, line = [], ""
    for piece in pieces:
        if line.strip() and len((line + piece).rstrip()) > width:
            lines.append(line.rstrip())
            line = piece.lstrip()
        else:
            line += piece
    lines.append(line.rstrip())
    return "\n".join(lines) or text


def _row_positions(labels: list[str]) -> tuple[list[float], float]:
    """Each row's centre and all rows' height, in inches from the top: a row is as tall as its label's
    lines (LINE_INCH each) and the gap between rows."""
    centres, top = [], 0.0
    for label in labels:
        height = ROW_GAP_INCH + LINE_INCH * (label.count("\n") + 1)
        centres.append(top + height / 2)
        top += height
    return centres, top


def _legend_columns(labels: list[str]) -> int:
    """As many legend columns as fit the figure's width, at most 3: three columns of "players=4
    river_flow=forward" made species_share.png 7.5 inches wide, so a page showed it smaller than the rest."""
    widest = max(len(t) for t in labels)
    entry = 0.6 * (FONT - 1) * widest + 45  # points: the text at about 0.6 em a character, its handle, the gap
    return max(1, min(3, len(labels), int(WIDTH * 72 // entry)))


def _hist_panel(ax, summaries, values, xlabel: str, title: str, ylabel: str) -> None:
    """One histogram per condition on common bins (whole numbers where the values are), each
    summing to 100 %, so the heights compare between conditions."""
    import numpy as np
    data = [list(values(s)) for s in summaries]
    every = [x for xs in data for x in xs]
    if not every:
        return
    lo, hi = min(every), max(every)
    if all(float(x).is_integer() for x in every):
        # whole numbers get bins of a whole width centred between them: a width such as 5.95 (the
        # default's 40 bins over 238 actions) holds 5 values in some bins and 6 in others, drawing dips
        # and spikes that are no property of the games
        width = max(1, math.ceil((hi - lo + 1) / 40)) if hi - lo > 60 else 1
        bins = np.arange(lo - 0.5, hi + width + 0.5, width)
        # and ticks on whole numbers: a narrow range (a 2-game study's 49 and 51 actions) was ticked 48.5,
        # 49.0, 49.5 …, values no game can have
        ax.locator_params(axis="x", integer=True)
    else:
        bins = np.histogram_bin_edges(every, bins=min(40, max(5, len(set(every)))))
    for k, (s, xs) in enumerate(zip(summaries, data)):
        colour, _, dashes = _condition_style(k)
        ax.hist(xs, bins=bins, histtype="step", weights=[100.0 / len(xs)] * len(xs), label=s.label, lw=1.5,
                color=colour, linestyle=dashes)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)


def plot_figures(summaries: list[ConditionSummary], comparisons: list[Comparison],
                 min_effect: float = MIN_EFFECT) -> list[tuple[str, str, Any]]:
    """(file name, caption, matplotlib figure) of every plot: one figure per kind of question, a panel
    per kind of measure, one column wide (a phone shows it whole)."""
    figures: list[tuple[str, str, Any]] = []
    if not summaries:
        return figures
    plt = _pyplot()
    # 1. win rate by seat (by team where partners play together)
    most = max(len(s.teams) for s in summaries)
    fig, ax = plt.subplots(figsize=(WIDTH, 4.2))
    width = 0.8 / len(summaries)
    for k, s in enumerate(summaries):
        xs = [i + k * width for i in range(len(s.teams))]
        colour, hatch, _ = _condition_style(k)
        ax.bar(xs, [100 * e.value for e in s.team_win], width, label=s.label if len(summaries) > 1 else "win rate",
               color=colour, hatch=hatch,
               yerr=list(zip(*[_err(e, 100) for e in s.team_win])), capsize=4,
               error_kw={"ecolor": "0.2", "elinewidth": 1.2})
        ax.hlines([100 * s.bot_fair] * len(xs), [x - width / 2 for x in xs], [x + width / 2 for x in xs],
                  colors="k", linewidths=1.5, linestyles="--", label="fair share" if k == 0 else None)
    widest = max(summaries, key=lambda s: len(s.teams))
    ax.set_xticks([i + (len(summaries) - 1) * width / 2 for i in range(most)],
                  [widest.team_label(t).replace("team of seats ", "seats ") for t in range(most)])
    alone = all(len(t) == 1 for t in widest.teams)
    ax.set_xlabel("seat (seat 0 begins)" if alone else "team (seat 0 begins)")
    ax.set_ylabel("win rate, % (whiskers: 95 % CI)")
    ax.set_title("Win rate by seat" if alone else "Win rate by team")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), frameon=False,
              ncol=_legend_columns(["fair share", *(s.label for s in summaries)]))
    figures.append(("seat_win_rate.png", "Win rate by seat (by team where partners play together) with 95 % Wilson "
                    "intervals; the dashed line is a fair share; the bots rotate over the seats.", fig))

    # 1b. the game's splits (Wildwasser: each species' share of the points) against a fair share
    for j, first in enumerate(summaries[0].splits):
        figures.append(_split_figure(plt, summaries, j, first))

    # 2. outcomes: scores and length, one panel each, one above the other
    labels = [s.label for s in summaries]
    columns = _legend_columns(labels)
    below = LEGEND_ROW_INCH * math.ceil(len(labels) / columns) + 0.1 if len(summaries) > 1 else 0.0
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(WIDTH, 7 + below))
    _hist_panel(a1, summaries, lambda s: [x for r in s.rows for x in r["scores"]], "final score, points",
                "Final scores (every seat)", "% of the seats' scores")
    _hist_panel(a2, summaries, lambda s: [r["actions"] for r in s.rows], "actions (moves) per game",
                "Game length", "% of the games")
    if below:
        # one legend for both panels, below them: inside a panel ("best") it hid the tallest bars of a
        # study of four conditions (Wildwasser's game lengths)
        handles, names = a1.get_legend_handles_labels()
        fig.legend(handles, names, loc="lower center", ncol=columns, frameon=False)
    fig.tight_layout(rect=(0, below / (7 + below), 1, 1))
    figures.append(("outcomes.png", "Distributions of final scores (every seat) and of game length, each "
                    "condition's histogram summing to 100 %.", fig))

    # 3. bots
    if any(len(s.bot_win) > 1 for s in summaries):
        labels, vals, errs = [], [], []
        for s in summaries:
            for b, e in s.bot_win.items():
                labels.append(_wrap(b, tail=f"({s.label})" if len(summaries) > 1 else ""))
                vals.append(100 * (e.value - s.bot_fair))
                errs.append(_err(e, 100))
        ys, rows = _row_positions(labels)
        fig, ax = plt.subplots(figsize=(WIDTH, 1.4 + rows))
        ax.barh(ys, vals, height=[0.8 * (ROW_GAP_INCH + LINE_INCH)] * len(ys), xerr=list(zip(*errs)), capsize=4,
                color=PALETTE[2])
        ax.axvline(0, color="k", lw=1, ls="--")
        ax.set_yticks(ys, labels)
        ax.set_ylim(rows, 0)  # the first bot at the top
        ax.set_xlabel("win rate minus a fair share, percentage points (95 % CI)")
        ax.set_title("Bots: win rate against a fair share (dashed)")  # per seat played: the caption says so
        fig.tight_layout()  # long bot specs stay inside the figure's width instead of widening the image
        figures.append(("bots.png", "Each bot's win credit per seat it played, against an equal share.", fig))

    # 4. variants (and a split's parts between player counts): shares in percentage points, counts and lengths
    # in percent of the baseline; one figure for the study, or one per comparison where one would be too tall
    for name, drawn, words in variants_figures(comparisons):
        fig = _variants_figure(plt, drawn, words, many=len(drawn) > 1)
        if fig is not None:
            figures.append((name, words(_has_from_zero(drawn))[1], fig))
    return figures


def _variant_panels(comparisons: list[Comparison]) -> list[tuple]:
    """The panels of a variants figure: (title, x label, [(comparison, line)], scale, relative)."""
    panels = []
    shares = [(c, x) for c in comparisons for x in c.shown() if x.pct]
    counts = [(c, x) for c in comparisons for x in c.shown() if not x.pct and not math.isnan(x.relative())]
    # a count whose baseline is 0 has no percentage of it; left out, a flagged one was missing from the figure
    # its Finding links ("… falls from 0.00 to -0.77 … [figure]"), so it is drawn in its own unit
    from_zero = [(c, x) for c in comparisons for x in c.shown() if _from_zero(x)]
    if shares:
        panels.append(("Shares", "difference to the baseline, percentage points (95 % CI)", shares, 100.0, False))
    if counts:
        panels.append(("Counts and lengths", "change, % of the baseline (95 % CI)", counts, None, True))
    if from_zero:
        panels.append(("Counts from a baseline of 0", "change, in the measure's own unit (95 % CI)", from_zero,
                       1.0, False))
    return panels


def _from_zero(x: Line) -> bool:
    return (not x.pct and x.base is not None and bool(x.base.n) and x.base.value == 0
            and math.isfinite(x.diff.value))


def _has_from_zero(comparisons: list[Comparison]) -> bool:
    return any(_from_zero(x) for c in comparisons for x in c.shown())


def _variant_rows(panels: list[tuple], many: bool) -> list[list[str]]:
    """Each panel's row labels; a row names its comparison where the figure draws more than one."""
    return [[_wrap(x.what, tail=f"({_row_of(c)})" if many else "") for c, x in p[2]] for p in panels]


def variants_height(comparisons: list[Comparison]) -> float:
    """The height in inches of the variants figure of `comparisons` (0 when it has no row): the rows of its
    panels (`_row_positions`), a title and a legend above them and each panel's title and axis."""
    panels = _variant_panels(comparisons)
    if not panels:
        return 0.0
    rows = _variant_rows(panels, len(comparisons) > 1)
    return 1.4 + sum(_row_positions(labels)[1] for labels in rows) + 1.0 * len(panels)


def _comparison_file(k: int, c: Comparison) -> str:
    """The file of the k-th comparison's own variants figure (from 1, in the report's order of the
    comparisons), named by the comparison so a reader of plots/ tells them apart:
    variants-1-players-2-river-flow-back.png, variants-4-players-4-against-2-river-flow-forward.png."""
    return f"variants-{k}-{slug(_row_of(c))}.png"


def variants_figures(comparisons: list[Comparison]) -> list[tuple[str, list[Comparison], Any]]:
    """(file name, the comparisons it draws, its words) of every variants figure: one variants.png where the
    study's rows fit VARIANTS_MAX_INCH (or it makes one comparison), else one figure per comparison.
    `words(from_zero)` gives the figure's title and caption.  Each compared line's `figure` is set to the
    figure that draws it, so that its Finding links there (finding_text)."""
    drawn = [c for c in comparisons if _variant_panels([c])]
    if len(drawn) <= 1 or variants_height(drawn) <= VARIANTS_MAX_INCH:
        out = [(VARIANTS_FILE, comparisons, lambda z: _variants_figure_words(comparisons, z))] if drawn else []
    else:
        out = [(_comparison_file(k, c), [c], lambda z, c=c: _comparison_figure_words(c, len(drawn), z))
               for k, c in enumerate(drawn, 1)]
    for name, cs, _ in out:
        for c in cs:
            for x in c.lines:
                x.figure = name
    return out


def _variants_figure(plt, comparisons: list[Comparison], words, many: bool):
    """One variants figure: a panel per kind of row, flagged rows as orange-red diamonds, the others as blue
    dots, each with its interval; None when the comparisons have no row to draw."""
    panels = _variant_panels(comparisons)
    if not panels:
        return None
    from matplotlib.lines import Line2D
    rows = _variant_rows(panels, many)
    placed = [_row_positions(labels) for labels in rows]
    sizes = [total for _, total in placed]
    title, _caption = words(_has_from_zero(comparisons))
    # a long title (a comparison's own figure names it) wraps; each further line moves the legend down
    title = _wrap(title, TITLE_WIDTH)
    extra = TITLE_LINE_INCH * title.count("\n")
    height = 1.4 + sum(sizes) + 1.0 * len(panels) + extra
    fig, axes = plt.subplots(len(panels), 1, figsize=(WIDTH, height), squeeze=False,
                             gridspec_kw={"height_ratios": sizes})
    for ax, (ptitle, xlabel, items, scale, relative), labels, (ys, total) in zip(axes[:, 0], panels, rows, placed):
        xs, errs = [], []
        for c, x in items:
            f = 100 / abs(x.base.value) if relative else scale
            xs.append(x.diff.value * f)
            errs.append(_err(x.diff, f))
        for flagged, colour, marker in ((True, FLAGGED_COLOUR, FLAGGED_MARKER),
                                        (False, PLAIN_COLOUR, PLAIN_MARKER)):
            points = [(px, py) for px, py, (_, x) in zip(xs, ys, items) if x.flagged == flagged]
            if points:
                ax.scatter(*zip(*points), color=colour, marker=marker, zorder=3)
        # the whiskers over the points: an interval narrower than its marker (a large study's) vanished
        # under it, and read as none; drawn over, it shows as the two caps on the point
        ax.errorbar(xs, ys, xerr=list(zip(*errs)), fmt="none", ecolor="0.4", capsize=4, zorder=4)
        ax.axvline(0, color="k", lw=1)
        ax.set_yticks(ys, labels)
        ax.set_ylim(total, 0)  # the first row at the top
        ax.set_xlabel(xlabel)
        ax.set_title(ptitle)
    # the title and the legend are placed by hand, the panels below them in the rect: tight_layout also made
    # room for the title within the rect, half an inch of blank between the legend and the first panel.  The
    # title is left out of that one layout only: savefig's bbox_inches="tight" keeps what is in the layout.
    sup = fig.suptitle(title, y=1 - 0.1 / height)
    fig.legend(handles=[Line2D([], [], marker=FLAGGED_MARKER, ls="", color=FLAGGED_COLOUR, label="flagged"),
                        Line2D([], [], marker=PLAIN_MARKER, ls="", color=PLAIN_COLOUR, label="not flagged")],
               loc="upper center", bbox_to_anchor=(0.5, 1 - (0.4 + extra) / height), ncol=2, frameon=False)
    sup.set_in_layout(False)
    fig.tight_layout(rect=(0, 0, 1, 1 - (0.75 + extra) / height))
    sup.set_in_layout(True)
    return fig


def _row_of(c: Comparison) -> str:
    """Which comparison a figure's row belongs to: a variant by its label (its baseline is the first
    condition with its player count), a player count with its baseline's, short enough for two lines:
    "players=4 against 2, river_flow=back" (a condition can be a variant and a player count at once)."""
    if c.between == VARIANTS:
        return c.label
    this, _, others = c.label.partition(" ")  # a study of several counts labels "players=N" first
    base = c.baseline.partition(" ")[0].removeprefix("players=")
    return f"{this} against {base}" + (f", {others}" if others else "")


def _variants_figure_words(comparisons: list[Comparison], from_zero: bool = False) -> tuple[str, str]:
    """The title and caption of variants.png: the variants' own where it shows only variants."""
    kinds = {c.between for c in comparisons}
    title = {frozenset([VARIANTS]): "Variants against their baseline",
             frozenset([COUNTS]): "Player counts against the smallest",
             }.get(frozenset(kinds), "Variants and player counts against their baselines")
    what = {frozenset([VARIANTS]): "Each variant against its baseline",
            frozenset([COUNTS]): "Each player count against the smallest with the same options",
            }.get(frozenset(kinds), "Each variant against its baseline, and each player count against the smallest "
                                     "with the same options")
    return title, f"{what}, each comparison's {_rows_words(from_zero)}"


def _comparison_figure_words(c: Comparison, of: int, from_zero: bool = False) -> tuple[str, str]:
    """The title and caption of one comparison's own variants figure (a study of `of` comparisons whose
    rows, drawn in one figure, would be taller than VARIANTS_MAX_INCH)."""
    what = (f"The variant {c.label} against its baseline, {c.baseline}" if c.between == VARIANTS else
            f"The player count {c.label} against the smallest with the same options, {c.baseline}")
    return comparison_title(c), (f"{what} (one of the study's {of} comparisons, each in a figure of its own), "
                                 f"its {_rows_words(from_zero)}")


def _rows_words(from_zero: bool) -> str:
    """How a variants figure orders and marks its rows, the caption's tail in both kinds of figure."""
    zero = (" A count whose baseline is 0 has no percentage of it: it is drawn in its own unit, in a panel of its "
            "own." if from_zero else "")
    return ("flagged rows first (orange-red diamonds: significant after Holm's correction and at least the "
            "practical size), then the others (blue dots), each group by the size of its standardised effect. "
            f"Rows with nothing to test (the same value in every game under both) are left out.{zero}")


def _split_figure(plt, summaries: list[ConditionSummary], j: int, first: SplitSummary) -> tuple[str, str, Any]:
    """Each part's share of a split per condition, with its interval and the fair share (dashed)."""
    split, parts = first.split, first.split.parts
    fig, ax = plt.subplots(figsize=(WIDTH, 4.2))
    width = 0.8 / len(summaries)
    for k, s in enumerate(summaries):
        shares = s.splits[j].shares
        colour, hatch, _ = _condition_style(k)
        ax.bar([i + k * width for i in range(len(parts))], [100 * e.value for e in shares], width,
               color=colour, hatch=hatch,
               label=s.label if len(summaries) > 1 else split.label,
               yerr=list(zip(*[_err(e, 100) for e in shares])), capsize=4,
               error_kw={"ecolor": "0.2", "elinewidth": 1.2})
    ax.axhline(100 * first.fair, color="k", lw=1.5, ls="--", label="fair share")
    ax.set_xticks([i + (len(summaries) - 1) * width / 2 for i in range(len(parts))], list(parts))
    ax.set_xlabel(split.name)
    ax.set_ylabel(f"{split.label}, % (whiskers: 95 % CI)")
    ax.set_title(f"{split.name.capitalize()}: {split.label}")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), frameon=False,
              ncol=_legend_columns(["fair share", *(s.label for s in summaries)]))
    return (first.figure, f"Each {_poss(split.name)} {split.label} over all the games, with 95 % Wilson intervals "
                          f"(the game as the unit); the dashed line is a fair share, one in {len(parts)}.", fig)


def make_plots(summaries: list[ConditionSummary], comparisons: list[Comparison],
               min_effect: float = MIN_EFFECT) -> list[tuple[str, str, bytes]]:
    """(file name, caption, PNG) of every plot (`plot_figures`), the caption in each PNG's metadata."""
    out = []
    for name, caption, fig in plot_figures(summaries, comparisons, min_effect):
        title = fig.axes[0].get_title() if fig.axes else ""
        out.append((name, caption, _figure_png(fig, title if not fig._suptitle else "", caption)))
    return out


# ----------------------------------------------------------------------------- text
def _games(n: int) -> str:
    """"1 game", "200 games": a study of one game per condition read "1 games cannot rule out …"."""
    return f"{n} game{'s' * (n != 1)}"


def _pct(e: Estimate) -> str:
    return e.fmt(pct=True)


def _signed(x: float, digits: int) -> str:
    """x with its sign and `digits` decimals; a value that rounds to zero has no sign, "0.0": "-0.0 pp"
    (the cheetah's 19.98 % of the points against a fair 20 %) read as a loss the table does not show, and
    "+0.0 %" beside a change of -0.02 as a gain."""
    text = f"{x:+.{digits}f}"
    return text[1:] if float(text) == 0 else text


def _diff(d: Estimate, pct: bool) -> str:
    if d.n == 0:
        return "–"
    if pct:
        return f"{_signed(100 * d.value, 1)} pp [{_signed(100 * d.low, 1)}, {_signed(100 * d.high, 1)}]"
    return f"{_signed(d.value, 2)} [{_signed(d.low, 2)}, {_signed(d.high, 2)}]"


def _rel(rel: float) -> str:
    """A change in % of the baseline: whole percent, one decimal below 1 % (never a bare "-0 %")."""
    pct = 100 * rel
    return f"{pct:+.0f} %" if abs(pct) >= 0.95 else f"{_signed(pct, 1)} %"


def _p(p: float, alpha: float = ALPHA) -> str:
    """A p-value to three decimals, or more where three would round it onto α: a Holm-adjusted p of 0.05001,
    printed "0.050", read as flagged beside a verdict that says it is not."""
    if math.isnan(p):
        return "–"
    if p < 0.001:
        return "< 0.001"
    for digits in range(3, 8):
        text = f"{p:.{digits}f}"
        if p == alpha or float(text) != alpha:
            return text
    return text


FIGURE_OF = {"seats": "seat_win_rate.png", "bots": "bots.png"}


def finding_text(where: str, x: Line) -> str:
    """One sentence a designer can act on: the effect, its interval, its test and its figure."""
    if x.section == "seats" and x.reference is not None:
        word = "more" if x.diff.value > 0 else "less"
        head = (f"{x.what.replace(' win rate', '').capitalize()} wins {word} often than a fair share ({where}): "
                f"{_pct(x.this)} against {100 * x.reference:.1f} %")
    elif x.reference is not None:
        word = "above" if x.diff.value > 0 else "below"
        head = f"{x.what.capitalize()} is {word} a fair share ({where}): {_pct(x.this)} against {100 * x.reference:.1f} %"
    elif x.base is not None and x.section != "bots":
        rel = x.relative()
        change = _diff(x.diff, x.pct) + ("" if math.isnan(rel) else f", {_rel(rel)}")
        head = (f"{where}: {x.what} {'rises' if x.diff.value > 0 else 'falls'} from "
                f"{x.base.fmt(pct=x.pct)} to {x.this.fmt(pct=x.pct)} ({change})")
    else:
        head = f"{x.what.capitalize()} ({where}): {_diff(x.diff, x.pct)}"
    figure = x.figure or FIGURE_OF.get(x.section, VARIANTS_FILE if x.base is not None else "seat_win_rate.png")
    return f"{head}; {x.test.name}, Holm-adjusted p {_p(x.p_adjusted)} [figure](plots/{figure})."


def more_flags(n: int) -> str:
    """"1 more flag", "10 more flags": the flags past the five a report's Findings (and the terminal) list."""
    return f"{n} more flag{'s' * (n != 1)}"


def findings(summaries: list[ConditionSummary], comparisons: list[Comparison], alpha: float = ALPHA,
             min_effect: float = MIN_EFFECT) -> list[str]:
    """A sentence for every flag of the report, largest effect first."""
    flags = raise_flags(summaries, comparisons, alpha, min_effect)
    variants_figures(comparisons)  # each compared line links the variants figure that draws it
    return [finding_text(w, x) for w, x in flags]


# ----------------------------------------------------------------------------- the answer up front
FLAGGED, SMALL, UNSETTLED = "flagged", "small", "not settled"
MANY_TIES = 0.25  # from this share of shared wins on, the win rates are mostly split credit


def practical_size(x: Line, min_effect: float = MIN_EFFECT) -> float:
    """The practical size in the line's own units: `min_effect` for shares, that fraction of the
    baseline (or the reference) for counts and lengths."""
    if x.pct:
        return min_effect
    scale = abs(x.base.value) if x.base is not None and x.base.n else abs(x.reference or 0.0)
    return min_effect * scale


def verdict(x: Line, min_effect: float = MIN_EFFECT) -> str:
    """What a line tells a designer: FLAGGED (a difference to act on), SMALL (the whole 95 % interval lies
    within the practical size: no difference worth acting on), or UNSETTLED (not flagged, but the interval
    still holds differences of the practical size: more games are needed; not evidence of no difference)."""
    if x.flagged:
        return FLAGGED
    size = practical_size(x, min_effect)
    if x.diff.n and not math.isnan(x.diff.low) and -size <= x.diff.low and x.diff.high <= size:
        return SMALL
    return UNSETTLED


def _size_words(x: Line, min_effect: float) -> str:
    return f"{100 * min_effect:g} pp" if x.pct else f"{100 * min_effect:g} % of the baseline"


def verdict_cell(x: Line, min_effect: float = MIN_EFFECT) -> str:
    """The last column of a table: **flag**, `within ±3 pp` or `not settled`."""
    v = verdict(x, min_effect)
    if v == FLAGGED:
        return "**flag**"
    if v == SMALL:
        return f"within ±{_size_words(x, min_effect)}"
    return UNSETTLED


def _rotation_note(result) -> str:
    """Rotated seating balances the bots over the seats only in whole turns of the line-up (3
    games at 3 seats, every ordered choice with more bots than seats); the report said "so that
    seat and bot effects separate" where 20 games at 3 seats sat a bot in seats 0/1/2 in 7/7/6."""
    study = result.study
    if study.seating.name != "rotated" or len(study.bots) < 2:
        return ""
    played: dict[int, int] = {}
    for r in result.rows:
        played[r["cond"]] = played.get(r["cond"], 0) + 1
    odd = []
    for c, n in sorted(played.items()):
        players = study.conditions[c].load(study.game).players
        turn = players if len(study.bots) <= players else math.perm(len(study.bots), players)
        if n % turn:
            where = "" if len(study.conditions) == 1 else f" of {study.conditions[c].label}"
            odd.append(f"the {_games(n)}{where} are not a multiple of the line-up's {turn} seatings")
    if not odd:
        return ""
    return (f"Rotated seating: {'; '.join(odd)}, so some bots sat in some seats one game more than in others; "
            f"a multiple balances them exactly.")


def _wilson_half(p: float, m: float) -> float:
    w = wilson(p * m, m)
    return (w.high - w.low) / 2


def _trials_for(p: float, half: float) -> float:
    """The (effective) number of trials at which the Wilson interval of a share `p` is ±`half`
    (it narrows as the trials grow: bisected on a log scale)."""
    lo, hi = 1e-3, 1e9
    for _ in range(80):
        mid = math.sqrt(lo * hi)
        lo, hi = (mid, hi) if _wilson_half(p, mid) > half else (lo, mid)
    return hi


def _games_needed(n: int, half_width: float, target: float, share: float = 0.5) -> int:
    """About how many games (per condition) narrow a share's interval of half-width `half_width` at `n`
    games to ±`target`, rounded up to two significant digits.  The interval's effective trials now
    and then are the Wilson interval's at the share, the games per trial kept (the units' design
    effect): scaling the half-width by 1/√n underestimated at few games, where Wilson's interval is
    narrower than 1/√n says (890 games said, 1,086 needed at 20)."""
    need = n * _trials_for(share, target) / _trials_for(share, half_width)
    digits = max(0, int(math.log10(need)) - 1) if need >= 1 else 0
    step = 10 ** digits
    return int(math.ceil(need / step) * step)


def _who(s: ConditionSummary) -> str:
    return "seat" if all(len(t) == 1 for t in s.teams) else "team"


def _where(label: str) -> str:
    return f" ({label})" if label != "default" else ""


def _leaves_out_zero(x: Line) -> bool:
    """Whether a line's difference has an interval that leaves out zero (no difference)."""
    return bool(x.diff.n) and not math.isnan(x.diff.low) and not x.diff.low <= 0 <= x.diff.high


def _edge_notes(named: list[tuple[str, Line]], min_effect: float, alpha: float = ALPHA) -> str:
    """Sentences on the unflagged edges against a fair share whose interval leaves the fair share out: "not
    settled" alone reads as "nothing known", where such an edge is clear but may be under the practical size
    (Seven Waters' first player, 52.8 % [51.3, 54.3] in 4000 games), or would be clear but for Holm's
    correction over the report's other tests."""
    out = []
    for name, x in named:
        # flagged, or clear and settled as under the practical size: nothing left open
        if x.flagged or not _leaves_out_zero(x) or verdict(x, min_effect) == SMALL:
            continue
        side = "above" if x.diff.value > 0 else "below"
        if x.p_adjusted <= alpha:
            out.append(f"{name} is clearly {side} a fair share (Holm-adjusted p {_p(x.p_adjusted, alpha)}), by "
                       f"{_signed(100 * x.diff.value, 1)} pp as estimated: whether by {_size_words(x, min_effect)} "
                       f"or more is what is not settled.")
        else:
            out.append(f"{name}'s interval lies {side} a fair share, but after Holm's correction over every test "
                       f"of this report that is not clear (adjusted p {_p(x.p_adjusted, alpha)}).")
    return "".join(f" {t[:1].upper()}{t[1:]}" for t in out)


def seat_answer(s: ConditionSummary, min_effect: float = MIN_EFFECT) -> str:
    """Is any seat (team) favoured under this condition, in plain words: flagged, fair to within the
    practical size, or not settled (with about how many games would settle it)."""
    lines = [x for x in s.lines if x.section == "seats" and not x.hidden]
    who = _who(s)
    fair = 100 * s.bot_fair
    if not lines:
        return f"**{who.capitalize()}s**{_where(s.label)}: nothing to test."
    flagged = [x for x in lines if x.flagged]
    if flagged:
        out = []
        for x in flagged:
            name = x.what.replace(" win rate", "")
            text = (f"**{name.capitalize()} is {'favoured' if x.diff.value > 0 else 'at a disadvantage'}**"
                    f"{_where(s.label)}: it wins {_pct(x.this)} of the games against a fair {fair:.1f} % "
                    f"({_diff(x.diff, True)}; flagged)")
            if len(s.teams) == 2:
                text += f", so {s.team_label(1)} wins {100 * (1 - x.this.value):.1f} %"
            out.append(text + ".")
        return " ".join(out) + _edge_notes([(x.what.replace(" win rate", ""), x) for x in lines], min_effect)
    verdicts = [verdict(x, min_effect) for x in lines]
    if all(v == SMALL for v in verdicts):
        far = max(max(abs(x.diff.low), abs(x.diff.high)) for x in lines)
        return (f"**No {who} is favoured by {100 * min_effect:g} pp or more**{_where(s.label)}: every {who}'s "
                f"95 % interval lies within {100 * far:.1f} pp of a fair {fair:.1f} % ({_games(s.n)}).")
    widest = max(lines, key=lambda x: max(abs(x.diff.low), abs(x.diff.high)))
    name = widest.what.replace(" win rate", "")
    they = "it does" if s.n == 1 else "they do"
    but = (f"but {_games(s.n)} cannot rule out an edge of {100 * min_effect:g} pp, so {they} not show the {who}s "
           f"fair" if min_effect > 0 else "but with no practical size (`--min-effect 0`) any edge counts")
    text = (f"**{who.capitalize()}s: not settled**{_where(s.label)}: no {who} is flagged, {but}: {name} wins "
            f"{_pct(widest.this)} against a fair {fair:.1f} %, an edge anywhere from {_signed(100 * widest.diff.low, 1)} "
            f"to {_signed(100 * widest.diff.high, 1)} pp.")
    text += _edge_notes([(x.what.replace(" win rate", ""), x) for x in lines], min_effect)
    if min_effect > 0:
        loosest = max(lines, key=lambda x: x.this.high - x.this.low)
        half, share = (loosest.this.high - loosest.this.low) / 2, loosest.this.value
        edge = max(abs(x.diff.value) for x in lines)
        # to show every seat within the practical size, the intervals must be narrower than the practical size
        # less the largest estimated edge (if the estimates held)
        goal = math.floor(1000 * (min_effect - edge)) / 1000
        if goal >= 0.85 * min_effect - 1e-12 and half > min_effect:
            goal = min_effect
        if goal >= 0.002 and half > goal:
            text += (f" About {_games_needed(s.n, half, goal, share):,} games per condition would narrow every {who} to "
                     f"±{100 * goal:g} pp" + (f", enough to show every {who} within ±{100 * min_effect:g} pp if the "
                                              f"estimates held" if goal < min_effect else "")
                     + f" (`--precision {100 * goal:g}pp`).")
        elif half > min_effect:
            text += (f" About {_games_needed(s.n, half, min_effect, share):,} games per condition would narrow every "
                     f"{who} to ±{100 * min_effect:g} pp (`--precision {100 * min_effect:g}pp`).")
    return text


def split_answer(s: ConditionSummary, sp: SplitSummary, min_effect: float = MIN_EFFECT) -> str:
    """Does any part of a split (Wildwasser: a species) take more or less than a fair share, in plain
    words: flagged, within the practical size, or not settled."""
    whats = {sp.what(i): part for i, part in enumerate(sp.split.parts)}
    lines = [x for x in s.lines if x.section == "parts" and x.what in whats and not x.hidden]
    name, label, fair = sp.split.name, sp.split.label, 100 * sp.fair
    if not lines:
        return f"**{name.capitalize()}**{_where(s.label)}: nothing to test."
    flagged = [x for x in lines if x.flagged]
    if flagged:
        return " ".join(f"**The {whats[x.what]} takes {'more' if x.diff.value > 0 else 'less'} than a fair {label}**"
                        f"{_where(s.label)}: {_pct(x.this)} against a fair {fair:.1f} % ({_diff(x.diff, True)}; "
                        f"flagged)." for x in flagged) + _edge_notes([(f"the {whats[x.what]}", x) for x in lines],
                                                                     min_effect)
    if all(verdict(x, min_effect) == SMALL for x in lines):
        far = max(max(abs(x.diff.low), abs(x.diff.high)) for x in lines)
        return (f"**No {name} takes {100 * min_effect:g} pp more or less than a fair {label}**{_where(s.label)}: "
                f"every {_poss(name)} 95 % interval lies within {100 * far:.1f} pp of a fair {fair:.1f} % "
                f"({_games(s.n)}).")
    widest = max(lines, key=lambda x: max(abs(x.diff.low), abs(x.diff.high)))
    but = (f"but {_games(s.n)} cannot rule out an edge of {100 * min_effect:g} pp" if min_effect > 0
           else "but with no practical size (`--min-effect 0`) any edge counts")
    return (f"**{name.capitalize()}: not settled**{_where(s.label)}: no {name} is flagged, {but}: the "
            f"{whats[widest.what]} takes {_pct(widest.this)} against a fair {fair:.1f} %, an edge anywhere from "
            f"{_signed(100 * widest.diff.low, 1)} to {_signed(100 * widest.diff.high, 1)} pp."
            + _edge_notes([(f"the {whats[x.what]}", x) for x in lines], min_effect))


def _change_text(x: Line, min_effect: float) -> str:
    rel = x.relative()
    change = _diff(x.diff, x.pct) + ("" if math.isnan(rel) else f", {_rel(rel)}")
    return f"{x.what} {x.base.fmt(pct=x.pct)} → {x.this.fmt(pct=x.pct)} ({change})"


def _unsettled_why(x: Line, min_effect: float, alpha: float = ALPHA) -> str:
    """Why an unsettled line whose interval leaves out zero is not settled, where "the interval holds changes
    of the practical size" would not say it: the change is clear after Holm's correction but may be smaller
    than the practical size, or its interval leaves out zero (or lies wholly beyond the practical size) but
    the change is not clear once corrected for the report's other tests.  "" for an interval that holds 0."""
    if not _leaves_out_zero(x):
        return ""
    size = _size_words(x, min_effect)
    if x.p_adjusted <= alpha:
        return (f"the change is clear (Holm-adjusted p {_p(x.p_adjusted, alpha)}), but its interval holds changes "
                f"both under and over {size}")
    beyond = min(abs(x.diff.low), abs(x.diff.high)) >= practical_size(x, min_effect)
    where = f"lies wholly beyond {size}" if beyond else "leaves out zero"
    return (f"its 95 % interval {where}, but after Holm's correction over every test of this report the change "
            f"is not clear (adjusted p {_p(x.p_adjusted, alpha)})")


def _verdict_words(x: Line, min_effect: float) -> str:
    v = verdict(x, min_effect)
    if v == FLAGGED:
        return "**flagged**"
    if v == SMALL:
        return f"no change of {_size_words(x, min_effect)} or more"
    why = _unsettled_why(x, min_effect)
    if why:
        return f"**not settled**: {why}"
    return f"**not settled** (the interval holds changes of {_size_words(x, min_effect)} or more)"


def comparison_answer(c: Comparison, min_effect: float = MIN_EFFECT) -> str:
    """What a variant changes in the designer's first questions: who wins (the seats), how long a game
    lasts and how often it ends in a shared win, each with its interval and its verdict."""
    shown = [x for x in c.lines if not x.hidden]
    seats = [x for x in shown if x.section == "seats"]
    parts = []
    if seats:
        parts.append(_shares_answer("Who wins", "seat's win rate", seats, min_effect))
    parts += split_changes(shown, min_effect)
    for x in shown:
        if x.section == "length" or x.what.startswith("shared wins"):
            parts.append(f"{_change_text(x, min_effect)}: {_verdict_words(x, min_effect)}")
    others = sum(1 for x in shown if x.flagged and x.section not in ("seats", "parts", "length")
                 and not x.what.startswith("shared wins"))
    if others:
        table = comparison_title(c)
        parts.append(f"{others} other flagged difference{'s' * (others != 1)} (in the table “{table}”)")
    if not parts:  # every line hidden (one game a side, or nothing varies): the line said only ": ."
        parts.append(f"nothing could be compared; the table “{comparison_title(c)}” says why for each line")
    return f"**{c.label} against {c.baseline}**: " + ". ".join(p[:1].upper() + p[1:] for p in parts) + "."


def comparison_title(c: Comparison) -> str:
    """The heading of a comparison's table."""
    return f"{'Variant' if c.between == VARIANTS else 'Player count'}: {c.label} against {c.baseline}"


def split_changes(shown: list[Line], min_effect: float = MIN_EFFECT) -> list[str]:
    """What a variant changes in each split's shares (WW-5.3: the species' shares of the points), one
    sentence a split as the seats' one: the flagged parts with their change (largest first), else whether every part
    stays within the practical size or the largest possible change is not settled."""
    return [_shares_answer(split.name.capitalize(), f"{_poss(split.name)} {split.label}",
                           sorted((x for x in shown if x.part_of == split), key=lambda x: -abs(x.diff.value)),
                           min_effect)
            for split in dict.fromkeys(x.part_of for x in shown if x.part_of is not None)]


def _shares_answer(head: str, what: str, lines: list[Line], min_effect: float) -> str:
    """One sentence on a group of shares between two variants (the seats' win rates, a split's parts):
    the flagged ones with their change, in the order given; else whether every interval lies within the
    practical size, or which change is widest and not settled."""
    flagged = [x for x in lines if x.flagged]
    if flagged:
        return f"{head}: " + "; ".join(f"{_change_text(x, min_effect)}, **flagged**" for x in flagged)
    if all(verdict(x, min_effect) == SMALL for x in lines):
        return (f"{head}: no {what} changes by {100 * min_effect:g} pp or more (every interval within "
                f"±{100 * min_effect:g} pp)")
    widest = max(lines, key=lambda x: max(abs(x.diff.low), abs(x.diff.high)))
    why = _unsettled_why(widest, min_effect)
    return (f"{head}: no change is flagged, but **not settled**: {_change_text(widest, min_effect)}"
            + (f" ({why})" if why else ""))


def bot_answers(s: ConditionSummary, min_effect: float = MIN_EFFECT) -> list[str]:
    """Each bot against the first bot, under one condition."""
    out = []
    for x in s.lines:
        if x.section == "bots" and x.base is not None and not x.hidden:
            out.append(f"**{x.what.capitalize()}**{_where(s.label)}: win rate per seat played "
                       f"{x.base.fmt(pct=True)} → {x.this.fmt(pct=True)} ({_diff(x.diff, True)}): "
                       f"{_verdict_words(x, min_effect).replace('change', 'difference').replace('changes', 'differences')}.")
    return out


def answers(summaries: list[ConditionSummary], comparisons: list[Comparison],
            min_effect: float = MIN_EFFECT) -> list[str]:
    """The report's first lines: the variants first when the study compares options (that is what it
    asked), then the splits' parts between player counts, then each condition's seats, then the bots;
    each with its interval and verdict."""
    out = [comparison_answer(c, min_effect) for c in comparisons]
    out += [seat_answer(s, min_effect) for s in summaries]
    out += [split_answer(s, sp, min_effect) for s in summaries for sp in s.splits]
    for s in summaries:
        out += bot_answers(s, min_effect)
    for s in summaries:
        if s.shared.value >= MANY_TIES:
            out.append(f"**Many shared wins**{_where(s.label)}: {_pct(s.shared)} of the games end in a shared "
                       f"win, which splits the credit (1/k to each of k winners), so the win rates lie close to a "
                       f"fair share whatever the {_who(s)}s' strength; compare the mean scores in the "
                       f"{_who(s)} table too.")
    return out


def _fewer_bots_than_teams(study) -> bool:
    """Some condition seats fewer bots than it has teams (duplicate seating fills them from the last bot)."""
    return any(len(study.bots) < len(c.load(study.game).teams) for c in study.conditions)


def reading_guide(study, tests: int, alpha: float, min_effect: float, splits: list[SplitSummary] = ()) -> str:
    """The terms every table and sentence uses, for a reader who is not a statistician."""
    parts = "".join(f" A {_poss(sp.split.name)} fair {sp.split.label} is one in {len(sp.split.parts)} "
                    f"({100 * sp.fair:.1f} %)." for sp in splits)
    dup = (" Under duplicate seating every rotation of the line-up plays the same deal, so a deal's luck "
           "falls on every bot alike; the deal group, not the game, is then the unit of every interval."
           + (" With fewer bots than teams each team gets the next bot and the last bot fills every team left "
              "over (rotated seating repeats the whole line-up instead)." if _fewer_bots_than_teams(study) else "")
           if study.seating.name == "duplicate" else "")
    return (f"How to read this: a **win rate** is the share of the games a seat (team, bot) wins, a win shared "
            f"by k winners counting 1/k for each; a **fair share** is one over the number of seats (teams).{parts} "
            f"Seats are numbered from 0, as in results.csv and the records: seat 0 is the seat the game begins "
            f"with (its first player, or first dealer, unless the option `first_player` or `first_dealer` moves "
            f"it), seat 1 the next. **pp** are percentage points; "
            f"[a, b] is a 95 % confidence interval. **Flagged**: the difference is clear after Holm's correction "
            f"over {'the' if tests == 1 else 'all'} {_tests(tests)} of this report "
            f"(about a {100 * alpha:g} % chance of any false flag in the whole report: the tests are "
            f"large-sample ones, a little more eager with few games) and at least the practical size, {100 * min_effect:g} pp for shares or "
            f"{100 * min_effect:g} % of the baseline for counts and lengths (`--min-effect`). **Within ±"
            f"{100 * min_effect:g} pp**: the whole interval lies inside the practical size — no difference worth "
            f"acting on. **Not settled**: neither; the interval still holds differences of the practical size, "
            f"so more games are needed — this is not evidence that the game is fair.{dup}")


def key_numbers(summaries: list[ConditionSummary]) -> list[str]:
    """The headline figures of every condition, whether or not an effect shows."""
    out = []
    for s in summaries:
        where = f"{s.label}: " if s.label != "default" else ""
        teams = ", ".join(f"{s.team_label(t)} {_pct(e)}" for t, e in enumerate(s.team_win))
        text = (f"{where}win rate {teams} (fair {100 * s.bot_fair:.1f} %); shared wins {_pct(s.shared)}; "
                f"{s.actions.fmt(digits=1)} actions per game")
        if s.units_name and s.units.high > s.units.low:  # a fixed number of rounds says nothing
            text += f", {s.units.fmt(digits=1)} {s.units_name}"
        out.append(text + f" ({_games(s.n)}).")
    return out


def played_text(result: StudyResult) -> str:
    """What the header says was played: the games that finished, per condition (counted from the
    rows, not taken from the plan, which a Ctrl-C or the precision rule cuts short), and why the
    run stopped when it stopped before the planned number of games."""
    study, rows = result.study, result.rows
    k = len(study.conditions)
    counts = [sum(1 for r in rows if r["cond"] == c) for c in range(k)]
    if len(set(counts)) == 1:
        per = f"{counts[0]} per condition, {k} condition{'s' * (k != 1)}"
    elif k <= 6:  # cut short unevenly: each condition's count, as its section shows it
        per = ", ".join(f"{n} under {c.label}" for n, c in zip(counts, study.conditions))
    else:
        per = f"{min(counts)} to {max(counts)} per condition, {k} conditions"
    text = f"{_games(len(rows))} played ({per})"
    if result.target is not None:
        # the precision rule decides the number of games: run_until says why it stopped
        return f"{text}; {result.stopped or 'Ctrl-C stopped it'}"
    if result.interrupted:
        # Ctrl-C (or SIGTERM), or a worker process that died (lab/study.py `mark_worker_death`)
        cause = f"{result.died}, which stopped the run" if result.died else "Ctrl-C stopped the run"
        return f"{text}; {cause} after {len(rows)} of the {study.total} planned games ({study.games} per condition)"
    return text


RUN_LINE = "Run:"


def run_line(result: StudyResult) -> str:
    """How this run went: the one paragraph of a report that depends on the machine and the backend.
    Everything else (results.csv, plots, records, every figure and table) repeats byte for byte from
    the same command whatever `--jobs` or backend."""
    if result.run_text:
        return result.run_text
    rate = len(result.rows) / result.seconds if result.seconds > 0 else 0.0
    return (f"{RUN_LINE} backend {result.backend} with {result.jobs} job(s), {result.seconds:.1f} s, {rate:.3g} "
            f"games/s. Only this line depends on how the games were run: the same command repeats every other "
            f"line, figure and table of this report, results.csv, the plots and the records byte for byte, "
            f"whatever `--jobs` or backend.")


def _tests(n: int) -> str:
    return f"{n} test" + "s" * (n != 1)


def blocks(result: StudyResult, summaries, comparisons, notable, plots, min_effect: float = MIN_EFFECT,
           alpha: float = ALPHA) -> list[tuple]:
    """The report as a list of blocks both writers render: h1 h2 h3 p ul table img."""
    study = result.study
    done = len(result.rows)
    flags = raise_flags(summaries, comparisons, alpha, min_effect)
    variants_figures(comparisons)  # each compared line links the variants figure that draws it
    tests = sum(1 for s in summaries for x in s.lines if not x.hidden) + sum(
        1 for c in comparisons for x in c.lines if not x.hidden)
    title = manifest(study.game).title_in("en")  # "Seven Waters"; the code name stays in commands
    b: list[tuple] = [("h1", f"Balance study: {title}")]
    setup = (f"{played_text(result)}; master seed {study.seed}; "
             f"bots: {', '.join(f'`{x.text}`' for x in study.bots)} ({study.seating.name} seating, so that seat "
             f"and bot effects separate). Fixed options: "
             f"{json.dumps(dict(study.base_options)) if study.base_options else 'the defaults'}.")
    b.append(("p", setup))
    seats_note = seating_note(study) or _rotation_note(result)
    if seats_note:
        b.append(("p", seats_note))
    for note in result.notes:
        b.append(("p", note))
    if result.interrupted:
        if result.died:  # not an interrupt: a worker process died under the run (the out-of-memory killer, a crash)
            b.append(("p", f"**Cut short**: {result.died}; only the {_games(done)} that had finished are reported."))
        else:
            b.append(("p", f"**Interrupted**: only the {_games(done)} that had finished are reported."))
    # the answer first, in plain words: what the study asked (the variants when it compares options, else
    # the seats and the bots), each with its interval and whether it is flagged, small or not settled
    b.append(("h2", "At a glance"))
    b.append(("ul", answers(summaries, comparisons, min_effect)))
    b.append(("p", reading_guide(study, tests, alpha, min_effect, summaries[0].splits if summaries else [])))
    b.append(("h2", "Findings"))
    shown = [finding_text(w, x) for w, x in flags[:5]]
    if shown:
        b.append(("ul", shown))
        if len(flags) > 5:
            b.append(("p", f"{more_flags(len(flags) - 5)} in the tables below (marked **flag**)."))
    else:
        b.append(("p", f"No effect is both significant after Holm's correction over the {_tests(tests)} of this "
                       f"report (α = {100 * alpha:g} %) and at least the practical size ({100 * min_effect:g} "
                       f"percentage points for shares, {100 * min_effect:g} % of the baseline otherwise)."))
    b.append(("h2", "Key numbers"))
    b.append(("ul", key_numbers(summaries)))
    for name, caption, _png in plots:
        b.append(("img", name, caption))
    for s in summaries:
        b.append(("h2", f"Condition: {s.label}" if s.label != "default" else "Results"))
        b.append(("p", f"{_games(s.n)}, {s.players} players."))
        b.append(("h3", "Seats" if all(len(t) == 1 for t in s.teams) else "Teams"))
        tested = {x.what: x for x in s.lines if x.section == "seats"}
        b.append(("table", ["who", "win rate", "mean score", "against a fair share", "test", "Holm p", "verdict"],
                  [[s.team_label(t), _pct(w), s.seat_score[s.teams[t][0]].fmt(),
                    _diff(tested[k].diff, True) if (k := f"{s.team_label(t)} win rate") in tested else "–",
                    tested[k].test.name if k in tested else "", _p(tested[k].p_adjusted) if k in tested else "",
                    verdict_cell(tested[k], min_effect) if k in tested else ""]
                   for t, w in enumerate(s.team_win)]))
        for sp in s.splits:
            b += split_blocks(s, sp, min_effect)
        if len(s.bot_win) > 1:
            b.append(("h3", "Bots and strategy traits"))
            b.append(("table", ["what", "value", "effect", "test", "Holm p", "verdict"],
                      [[x.what, _pct(x.this), _diff(x.diff, True), x.test.name, _p(x.p_adjusted), verdict_cell(x, min_effect)]
                       for x in s.lines if x.section == "bots"]))
        b.append(("h3", "Outcome and length"))
        rows = [["shared wins (tie)", _pct(s.shared)], ["games without a winner", _pct(s.no_winner)],
                [f"close games (margin ≤ {100 * CLOSE:.0f} % of the winning score)", _pct(s.close)],
                ["lead changes per game", s.lead_changes.fmt()],
                ["winning margin (points)", s.margin.fmt()], [MARGIN_SHARE, s.margin_share.fmt(pct=True)],
                ["actions per game", s.actions.fmt(digits=1)]]
        if s.units_name:
            rows.append([f"{s.units_name} per game", s.units.fmt(digits=2)])
        b.append(("table", ["what", "value"], rows))
        shown_m = [(m, e) for m, e in s.measures if e.n and not (e.value == 0 and e.high - e.low == 0)]
        if shown_m:
            b.append(("h3", f"{title} measures"))
            if any(m.description for m, _ in shown_m):
                b.append(("table", ["measure", "value", "what it counts"],
                          [[m.label, e.fmt(pct=_is_share(m)), m.description or "–"] for m, e in shown_m]))
            else:
                b.append(("table", ["measure", "value"], [[m.label, e.fmt(pct=_is_share(m))] for m, e in shown_m]))
            if len(shown_m) < len(s.measures):
                b.append(("p", "Always 0 here, so left out: " + ", ".join(
                    m.label for m, e in s.measures if (m, e) not in shown_m) + "."))
    for c in comparisons:
        b.append(("h2", comparison_title(c)))
        if c.between == COUNTS:
            b.append(("p", counts_note(c)))
        else:
            b.append(("p", "Flags first, then by the size of the standardised effect (d: the difference in per-game "
                           "standard deviations); shares in percentage points, other differences in their own units "
                           "with the change in % of the baseline."))
        b.append(("table", ["kind", "what", c.baseline, c.label, "difference", "d", "test", "Holm p", "verdict"],
                  [[x.part_of.name if x.part_of else x.section, x.what, x.base.fmt(pct=x.pct), x.this.fmt(pct=x.pct),
                    _diff(x.diff, x.pct) + ("" if math.isnan(x.relative()) else f" ({_rel(x.relative())})"),
                    _signed(x.effect(), 2), x.test.name, _p(x.p_adjusted), verdict_cell(x, min_effect)] for x in c.shown()]))
        if c.hidden():
            few = ", or too few games to test" if any("too few games" in x.hidden for x in c.hidden()) else ""
            b.append(("p", "Not compared, as there is nothing to test (the same value in every game under both "
                           f"conditions, or a value fixed by the rules under each, or a ratio with no denominator{few}): "
                           + "; ".join(f"{x.what} ({x.hidden})" for x in c.hidden()) + "."))
    if notable:
        b.append(("h2", "Notable games"))
        b.append(("p", "Replay any of them with `wasserspiele replay FILE`."))
        b.append(("table", ["condition", "kind", "game", "seed", "actions", "scores", "bots", "record"],
                  [[n["condition"], n["kind"].replace("_", " "), str(n["game"]), str(n["seed"]), str(n["actions"]),
                    " ".join(str(_num(x)) for x in n["scores"]), ", ".join(n["bots"]), f"link:{n['file']}"]
                   for n in notable]))
    b.append(("h2", "results.csv"))
    b.append(("p", "One row per game, in this column order; seats are numbered from 0 (seat 0 begins), as in the "
                   "report and the records. Replay any game from its seed and line-up."))
    b.append(("table", ["column", "meaning"], csv_columns(result)))
    b.append(("h2", "Method"))
    b.append(("p", run_line(result)))
    played_in = kernel_note(study)
    if played_in:
        b.append(("p", played_in))
    b.append(("ul", [
        "Each game's seed is derived from the master seed and the game's number alone, so the same command "
        "repeats every game, figure and table of this report whatever `--jobs` or backend (only the run line "
        "says how the games were played and how long they took); every condition uses the same game seeds "
        "(common random numbers).",
        "Win rate = share of the win credit (a k-way shared win gives each 1/k; partners win whole); "
        "intervals: Wilson score.",
        "The unit of every interval and test is what is independent: the game — or, with `--seating "
        "duplicate`, the deal group (the games that replay one deal, which correlate), with cluster-robust "
        "variances over the groups: shares get a Wilson interval and score test at the effective sample size "
        "p(1 − p) / variance (Korn & Graubard), means and ratios a t interval over the groups.",
        "Bots: a bot's win rate is its credit per seat played, with the game as the unit (a bot holding both "
        "seats of a team wins or loses both at once; its seats are not independent samples). Two bots are "
        "compared by the difference of their rates in the same games, with the variance of both at once over "
        "the games (two bots at one table split its credit: with two players the difference is 2·p − 1); its "
        "interval is a Wilson interval for (1 + difference) / 2 at the effective sample size, its test that "
        "interval's score test (“paired score test”) — with two bots splitting each game 1 : 0 "
        "exactly the Wilson interval and score test of one bot's share of the games.",
        *[split_method(sp, any(c.between == VARIANTS for c in comparisons),
                       any(c.between == COUNTS for c in comparisons))
          for sp in (summaries[0].splits if summaries else [])],
        "Means: Student t; differences of means: Welch t; differences of shares: Newcombe's score "
        "interval; ratios pooled over games (e.g. loot per drive-off, per round): delta method over games; "
        "t quantiles are exact (scipy). An interval of a mean or ratio is cut to the values it can take "
        "(a count never below 0, a share within 0 and 100 %).",
        "Tests: a share against the fair share — the score test (the one the Wilson interval inverts); "
        "two shares — the two-proportion z test; two means — Welch's t test; two pooled ratios — Welch's t "
        "test on their delta-method standard errors (Welch–Satterthwaite degrees of freedom over the games). The conditions are tested as independent samples "
        "(they share seeds, which only makes the tests conservative). A share of 0 % or 100 % under one "
        "condition is compared like any other; a line is left out only when it has the same value in every "
        "game under both conditions, or a mean fixed by the rules under each (nothing to test).",
        f"Multiple comparisons: Holm's step-down correction over every test of the report ({tests} here), "
        "which keeps the chance of any false flag at or below α whatever the dependence between the tests — "
        "the seats' shares of one game sum to one, so their tests are negatively dependent, where the "
        "Benjamini–Hochberg false-discovery-rate guarantee does not hold.",
        f"A flag also needs a practical size (`--min-effect`, here {100 * min_effect:g}): {100 * min_effect:g} "
        f"percentage points for shares (the winning margin's share of the winning score too), "
        f"{100 * min_effect:g} % of the baseline for counts and lengths.",
        "Counts are normalised per round (hand) where the game has such a unit, and variants compare the "
        "winning margin as a share of the winner's score (of the largest score in absolute value where scores "
        "can be negative), not in points, which grow with the points in play: so a longer variant does not win "
        "every comparison by being longer. The margin in points is in each condition's table. A game's own "
        "yes/no measures (“games in which … at least once”) are per game and cannot be "
        "normalised: they can rise with length alone.",
        "The full table is `results.csv` (one row per game).",
    ]))
    return b


def split_method(sp: SplitSummary, variants: bool = False, counts: bool = False) -> str:
    """The Method's bullet on a split's statistic (`variants`: the report compares variants, which compare
    each part's share too; `counts`: it compares each part's share between player counts)."""
    name, amount = sp.split.name, sp.split.amount
    text = (f"{_poss(name).capitalize()} {sp.split.label}: Σ of a {_poss(name)} {amount} over the games / Σ of all "
            f"{amount}, with the seats' Wilson interval and score test against a fair {100 * sp.fair:.1f} % at the "
            f"effective sample size, the game as the unit (a game's {amount} split among the {name} count once, as "
            f"its win credit split among the seats does; the deal group under duplicate seating), in the same Holm "
            f"family.")
    how = "Newcombe's interval and the two-proportion z test, both at the two shares' effective sample sizes"
    if variants:
        text += f" Between variants each {_poss(name)} share is compared as a seat's win rate is: {how}."
    if counts:
        text += (f" Between player counts each {_poss(name)} share is compared "
                 + ("the same way" if variants else f"as two variants' win rates of a seat are ({how})")
                 + f", each count against the smallest with the same other options (“stronger with 2 players than "
                   f"with 6?” is then one test, where steps between neighbouring counts would have to be chained): "
                   f"a {_poss(name)} fair share is one in {len(sp.split.parts)} at every count, so its shares compare "
                   f"across counts; a seat's fair share changes with the count, so seats are not compared between "
                   f"counts.")
    return text


def counts_note(c: Comparison) -> str:
    """What a comparison between player counts compares, and what it leaves out (WW-1: a species' fair
    share is the same at every count)."""
    splits = list(dict.fromkeys(x.part_of for x in c.lines if x.part_of is not None))
    what = " and ".join(f"each {_poss(sp.name)} {sp.label}" for sp in splits)
    fair = "; ".join(f"a {_poss(sp.name)} fair share is one in {len(sp.parts)}" for sp in splits)
    return (f"Between player counts only {what} is compared ({fair} at every count; a seat's fair share changes "
            f"with the count, so seats are compared only between variants). Flags first, then by the size of the "
            f"standardised effect (d: the difference in per-game standard deviations); differences in percentage "
            f"points.")


def split_blocks(s: ConditionSummary, sp: SplitSummary, min_effect: float = MIN_EFFECT) -> list[tuple]:
    """A condition's table of a split (Wildwasser: the species' shares of the points), as its seats' table."""
    split = sp.split
    tested = {x.what: x for x in s.lines if x.section == "parts"}
    rows = []
    for i, part in enumerate(split.parts):
        x = tested.get(sp.what(i))
        live = x is not None and not x.hidden
        rows.append([part, _pct(sp.shares[i]), sp.amounts[i].fmt(),
                     _diff(x.diff, True) if live else "–", x.test.name if live else "",
                     _p(x.p_adjusted) if live else "", verdict_cell(x, min_effect) if live else ""])
    out: list[tuple] = [("h3", f"{split.name.capitalize()}: {split.label}"),
                        ("table", [split.name, split.label, f"{split.amount} per game", "against a fair share", "test",
                                   "Holm p", "verdict"], rows)]
    if split.description:
        out.append(("p", split.description[:1].upper() + split.description[1:] + "."))
    return out


def render_md(bl: list[tuple]) -> str:
    out = []
    for block in bl:
        kind = block[0]
        if kind in ("h1", "h2", "h3"):
            out.append("#" * int(kind[1]) + " " + block[1] + "\n")
        elif kind == "p":
            out.append(block[1] + "\n")
        elif kind == "ul":
            out.append("\n".join(f"* {x}" for x in block[1]) + "\n")
        elif kind == "img":
            out.append(f"![{block[2]}](plots/{block[1]})\n")
        elif kind == "table":
            head, rows = block[1], block[2]
            cells = lambda r: "| " + " | ".join(
                (f"[{c[5:]}]({c[5:]})" if c.startswith("link:") else c).replace("|", "\\|") for c in r) + " |"
            out.append("\n".join([cells(head), "|" + "---|" * len(head)] + [cells(r) for r in rows]) + "\n")
    return "\n".join(out)


def _html_inline(text: str) -> str:
    t = html.escape(text)
    t = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", t)
    # the figure is embedded below; a link's text holds no bracket (an interval's "[91.8, 96.3]" before it
    # is not part of the link)
    t = re.sub(r"\[([^\[\]]+)\]\(plots/([^()\s]+)\)", r'<a href="#\2">\1</a>', t)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", t)


def render_html(bl: list[tuple], images: dict[str, bytes]) -> str:
    body = []
    for block in bl:
        kind = block[0]
        if kind in ("h1", "h2", "h3"):
            body.append(f"<{kind}>{_html_inline(block[1])}</{kind}>")
        elif kind == "p":
            body.append(f"<p>{_html_inline(block[1])}</p>")
        elif kind == "ul":
            body.append("<ul>" + "".join(f"<li>{_html_inline(x)}</li>" for x in block[1]) + "</ul>")
        elif kind == "img":
            data = base64.b64encode(images[block[1]]).decode()
            body.append(f'<figure id="{html.escape(block[1])}"><img alt="{html.escape(block[2])}" src="data:image/png;base64,{data}">'
                        f"<figcaption>{html.escape(block[2])}</figcaption></figure>")
        elif kind == "table":
            def cell(c, tag):
                if c.startswith("link:"):
                    return f'<{tag}><a href="{html.escape(c[5:])}">{html.escape(c[5:])}</a></{tag}>'
                return f"<{tag}>{_html_inline(c)}</{tag}>"
            rows = ["<tr>" + "".join(cell(c, "th") for c in block[1]) + "</tr>"]
            rows += ["<tr>" + "".join(cell(c, "td") for c in r) + "</tr>" for r in block[2]]
            # a wide table scrolls inside its own box: the page keeps the phone's width
            body.append('<div class="table"><table>' + "".join(rows) + "</table></div>")
    style = ("body{font-family:system-ui,sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#222}"
             "table{border-collapse:collapse;margin:.5em 0 1em}td,th{border:1px solid #ccc;padding:.2em .5em;"
             "text-align:left;font-size:90%}th{background:#f3f3f3}code{background:#f6f6f6;padding:0 .2em}"
             "figure{margin:1em 0}figcaption{font-size:85%;color:#555}img{max-width:100%;height:auto}"
             "div.table{overflow-x:auto;max-width:100%}")
    title = next((b[1] for b in bl if b[0] == "h1"), "Balance study")
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{html.escape(title)}</title>"
            f"<style>{style}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


# ----------------------------------------------------------------------------- the report directory
OWN_FILES = ("report.html", "report.md", "results.csv", STUDY_FILE, "tune.md")
# The names the lab gives the files of plots/ and records/, and nothing else there is its own:
# judged by the ending alone, a designer's own chart.png or a saved game's .json beside the
# report were deleted without a word as the report was replaced.  The figures `make_plots`
# draws (a split's `Shares.figure`, a comparison's `_comparison_file`) and the notable games'
# records (`notable_games`: the condition's `slug`, the kind, the game).
_SLUG = r"[a-z0-9]+(?:-[a-z0-9]+)*"
OWN_DIRS = {
    "plots": re.compile(rf"(?:seat_win_rate|outcomes|bots|variants|variants-\d+-{_SLUG}|[a-z0-9_]+_share)\.png"),
    "records": re.compile(rf"{_SLUG}-(?:{'|'.join(NOTABLE)})-game\d+\.json"),
}
KEPT = ("README.md",)  # a designer's summary beside the report (docs/reports/*/README.md) stays as it is


def _own(path: Path, top: bool) -> bool:
    name = path.name[:-4] if path.name.endswith(".tmp") else path.name  # an interrupted write
    if top:
        return (path.is_file() and name in OWN_FILES) or (path.is_dir() and name in OWN_DIRS)
    return path.is_file() and OWN_DIRS[path.parent.name].fullmatch(name) is not None


def lab_files(out: str | Path) -> list[Path]:
    """The lab's own files of an earlier report in `out` (to be replaced).

    Raises BadOption naming what else `out` holds: the lab never deletes what it did not write."""
    out = Path(out)
    if not out.exists():
        return []
    if not out.is_dir():
        # as `write_report` and the command line's --out say it; "--out x: is a file, not a directory"
        # read as if --out were the file
        raise BadOption(f"--out {out}: {Reason('cli.path.cannot_write', problem=Reason('cli.path.not_a_folder', path=str(out)))}")
    mine, others = [], []
    for entry in sorted(out.iterdir()):
        if entry.name in KEPT and entry.is_file():
            continue
        if not _own(entry, True):
            others.append(entry.name)
        elif entry.is_dir():
            for sub in sorted(entry.iterdir()):
                (mine if _own(sub, False) else others).append(sub if _own(sub, False) else f"{entry.name}/{sub.name}")
        else:
            mine.append(entry)
    if others:
        shown = ", ".join(map(str, others[:5])) + (f" and {len(others) - 5} more" if len(others) > 5 else "")
        raise BadOption(f"--out {out}: holds files the lab did not write ({shown}); choose an empty or new "
                        f"directory")
    return mine


def clear_out(out: str | Path) -> None:
    """Remove an earlier report's files from `out`, so no old plot or record stays beside the new report."""
    for path in lab_files(out):
        path.unlink()


def rendered_files(result: StudyResult, summaries: list[ConditionSummary], comparisons: list[Comparison],
                   notable: list[dict], min_effect: float = MIN_EFFECT, alpha: float = ALPHA,
                   command: str | None = None) -> dict[str, bytes]:
    """Every file a study's report is rendered into from its analysis, by its path in the report
    directory: the plots, report.md, report.html and study.json (what `lab render` reads back).
    results.csv and the records are the study's data, written only when its games are played."""
    plots = make_plots(summaries, comparisons, min_effect)
    files = {f"plots/{name}": png for name, _caption, png in plots}
    bl = blocks(result, summaries, comparisons, notable, plots, min_effect, alpha)
    files["report.md"] = render_md(bl).encode("utf-8")
    files["report.html"] = render_html(bl, {n: p for n, _, p in plots}).encode("utf-8")
    files[STUDY_FILE] = study_json(result, min_effect, alpha, command).encode("utf-8")
    return files


def replace_all(folder: Path, files: dict[str, bytes]) -> None:
    """Write every file to NAME.tmp first, then replace the targets: an error while writing leaves every
    earlier file as it was (and no .tmp behind).  Plots the new report no longer draws are removed."""
    (folder / "plots").mkdir(exist_ok=True)
    written: list[Path] = []
    try:
        for name, data in files.items():
            tmp = folder / (name + ".tmp")
            written.append(tmp)
            tmp.write_bytes(data)
    except BaseException as exc:
        for tmp in written:
            _remove(tmp)
        if isinstance(exc, OSError):  # the file it was, not NAME.tmp nor the folder
            raise failed(folder / name, exc) from None
        raise
    for tmp in written:
        tmp.replace(tmp.with_name(tmp.name[:-4]))
    drawn = {Path(name).name for name in files if name.startswith("plots/")}
    for old in (folder / "plots").iterdir():
        if old.name not in drawn and _own(old, False):  # a figure of the earlier report, not a designer's own
            old.unlink()


def kept_data(out: Path, written: list[str]) -> Reason:
    """What a report folder holds of a study whose report could not be written in full."""
    if not written:
        text = f"no file of the report was written to {out}"
    elif STUDY_FILE not in written:
        text = (f"{out / 'results.csv'} holds the games' rows, without the settings ({STUDY_FILE}) that "
                f"`wasserspiele lab render` needs")
    elif "records/" not in written:
        text = (f"{out} holds the games' rows and settings (results.csv, {STUDY_FILE}), not all the notable games' "
                f"records that `wasserspiele lab render` needs")
    else:
        text = (f"{out} holds the games' data (results.csv, {STUDY_FILE}, records/): `wasserspiele lab render "
                f"{out}` writes the report from it, playing no game, once there is room")
    return Reason("text", text=text)


def write_report(result: StudyResult, out: str | Path, min_effect: float = MIN_EFFECT,
                 alpha: float = ALPHA, command: str | None = None) -> dict[str, Any]:
    """Write every report file into `out` (replacing an earlier report's); returns the paths and the analysis.
    `command`: the command line that ran the study, kept in study.json for a reader (`lab render` reads the
    settings themselves, not this text).

    A path that cannot hold the report (a file, a folder not writable, one holding other files) is refused
    (BadOption) before anything is written.  A write that fails on the way (a full disk, the folder made
    read-only meanwhile) raises core/paths.py WriteFailed naming the file and saying what `out` keeps:
    the games' data is written first (results.csv, study.json, the notable games' records), so once all
    of it is there `wasserspiele lab render OUT` writes the rest without playing a game; `result` is
    unchanged, so a Python caller can also write the report to another folder."""
    if not isinstance(out, (str, os.PathLike)):
        raise BadOption(f"--out: {out!r} is no folder to write the report in")
    out = Path(out)
    # asked first: a file given as `out` was refused by `clear_out` as "--out x: is a file, not a directory"
    problem = write_problem(out, folder=True)
    if problem:  # a Python caller's path is not checked by the command line's `--out` callback
        raise BadOption(f"--out {out}: {Reason('cli.path.cannot_write', problem=problem)}")
    clear_out(out)
    summaries, comparisons = analyse(result)
    raise_flags(summaries, comparisons, alpha, min_effect)  # the plots mark the flags
    written: list[str] = []  # the games' data written so far, said when a later write fails
    at = out  # the file being written, named when it fails
    try:
        out.mkdir(parents=True, exist_ok=True)
        at = out / "results.csv"
        write_csv(result, at)
        written.append("results.csv")
        # the settings beside the rows before the slow part: with both (and the records) `lab render`
        # writes the report again without playing a game; study.json came last, with the plots
        write_file(out / STUDY_FILE, study_json(result, min_effect, alpha, command))
        written.append(STUDY_FILE)
        at = out / "records"
        notable = write_notable(result, summaries, out)
        written.append("records/")
        files = rendered_files(result, summaries, comparisons, notable, min_effect, alpha, command)
        at = out
        replace_all(out, files)
    except OSError as exc:
        raise failed(at, exc).keeping(kept_data(out, written), tuple(written)) from None
    return {"dir": out, "summaries": summaries, "comparisons": comparisons, "notable": notable,
            "findings": findings(summaries, comparisons, alpha, min_effect),
            "answers": answers(summaries, comparisons, min_effect)}
