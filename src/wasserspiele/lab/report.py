"""Writing a study's report: results.csv, report.md, report.html (self-contained),
plots (matplotlib, Agg) and the records of notable games (replayable)."""

from __future__ import annotations

import base64
import csv
import html
import io
import json
import re
from pathlib import Path
from typing import Any

from ..core.records import write_record
from .analysis import Comparison, ConditionSummary, analyse
from .measures import measures_class
from ..core.stats import Estimate
from .study import StudyResult, replay_game

NOTABLE = ("longest", "shortest", "most_lopsided")


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
    header = (["condition", "game", "seed", "players"] + [f"bot_{s}" for s in range(players)]
              + [f"score_{s}" for s in range(players)] + [f"return_{s}" for s in range(players)]
              + ["winners", "shared_win", "actions", "units"] + [f"m_{c}" for c in mcols])
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        for r in rows:
            pad = [""] * (players - r["players"])
            w.writerow([r["condition"], r["game"], r["seed"], r["players"]] + r["bots"] + pad
                       + [_num(x) for x in r["scores"]] + pad + [_num(x) for x in r["returns"]] + pad
                       + [" ".join(map(str, r["winners"])), r["shared"], r["actions"], r["units"]]
                       + [_num(r["measures"].get(c, "")) for c in mcols])
    tmp.replace(path)


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


def write_notable(result: StudyResult, summaries: list[ConditionSummary], out: Path) -> list[dict]:
    """Play the notable games again and save their records (checked to repeat exactly)."""
    folder = out / "records"
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for summ in summaries:
        for kind, row in notable_rows(summ.rows).items():
            state = replay_game(result.study, row)
            name = f"{slug(summ.label)}-{kind}-game{row['game']}.json"
            write_record(state, folder / name)
            written.append({"condition": summ.label, "kind": kind, "game": row["game"], "seed": row["seed"],
                            "actions": row["actions"], "scores": row["scores"], "winners": row["winners"],
                            "bots": row["bots"], "file": f"records/{name}"})
    return written


# ----------------------------------------------------------------------------- plots
def _figure_png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    import matplotlib.pyplot as plt
    plt.close(fig)
    return buf.getvalue()


def _err(e: Estimate, scale: float = 1.0) -> tuple[float, float]:
    return (max(0.0, (e.value - e.low) * scale), max(0.0, (e.high - e.value) * scale))


def make_plots(summaries: list[ConditionSummary], comparisons: list[Comparison]) -> list[tuple[str, str, bytes]]:
    """(file name, caption, PNG) of every plot."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plots = []
    if not summaries:
        return plots
    # 1. win rate by seat
    fig, ax = plt.subplots(figsize=(7, 3.6))
    width = 0.8 / len(summaries)
    for k, s in enumerate(summaries):
        xs = [i + k * width for i in range(s.players)]
        ys = [100 * e.value for e in s.seat_win]
        errs = list(zip(*[_err(e, 100) for e in s.seat_win]))
        ax.bar(xs, ys, width, yerr=errs, capsize=3, label=s.label)
        ax.hlines([100 * s.bot_fair] * len(xs), [x - width / 2 for x in xs], [x + width / 2 for x in xs],
                  colors="k", linewidths=1.5)
    ax.set_xlabel("seat (0 starts)")
    ax.set_ylabel("win rate, % (95 % CI)")
    most = max(s.players for s in summaries)
    ax.set_xticks([i + (len(summaries) - 1) * width / 2 for i in range(most)], [str(i) for i in range(most)])
    ax.set_title("Win rate by seat (black line on each bar: a fair share)")
    if len(summaries) > 1:
        ax.legend(fontsize=7)
    plots.append(("seat_win_rate.png", "Win rate by seat with 95 % Wilson intervals; bots rotate over the seats.",
                  _figure_png(fig)))

    # 2. score distributions
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for s in summaries:
        scores = [x for r in s.rows for x in r["scores"]]
        ax.hist(scores, bins=min(40, max(5, len(set(scores)))), histtype="step", density=True, label=s.label)
    ax.set_xlabel("final score (every seat)")
    ax.set_ylabel("density")
    ax.set_title("Score distribution")
    if len(summaries) > 1:
        ax.legend(fontsize=7)
    plots.append(("scores.png", "Distribution of final scores over all seats.", _figure_png(fig)))

    # 3. game length
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for s in summaries:
        xs = [r["actions"] for r in s.rows]
        ax.hist(xs, bins=min(40, max(5, len(set(xs)))), histtype="step", density=True, label=s.label)
    ax.set_xlabel("actions per game")
    ax.set_ylabel("density")
    ax.set_title("Game length")
    if len(summaries) > 1:
        ax.legend(fontsize=7)
    plots.append(("length.png", "Distribution of game length in actions.", _figure_png(fig)))

    # 4. bots
    if any(len(s.bot_win) > 1 for s in summaries):
        fig, ax = plt.subplots(figsize=(7, 0.8 + 0.35 * sum(len(s.bot_win) for s in summaries)))
        labels, vals, errs, y = [], [], [], 0
        for s in summaries:
            for b, e in s.bot_win.items():
                labels.append(f"{b}  ({s.label})" if len(summaries) > 1 else b)
                vals.append(100 * (e.value - s.bot_fair))
                errs.append(_err(e, 100))
        ax.barh(range(len(vals)), vals, xerr=list(zip(*errs)), capsize=3, color="tab:green")
        ax.axvline(0, color="k", lw=0.8)
        ax.set_yticks(range(len(vals)), labels, fontsize=7)
        ax.invert_yaxis()
        ax.set_xlabel("win rate minus a fair share, percentage points (95 % CI)")
        ax.set_title("Bots and strategy traits")
        plots.append(("bots.png", "Each bot's win credit per seat it played, against an equal share.",
                      _figure_png(fig)))

    # 5. comparisons of proportions
    items = [(f"{c.label}: {what}", d) for c in comparisons for what, _, _, d, pct in c.rows
             if pct and d.n > 0]
    if items:
        fig, ax = plt.subplots(figsize=(7, 0.8 + 0.3 * len(items)))
        ax.errorbar([100 * d.value for _, d in items], range(len(items)),
                    xerr=list(zip(*[_err(d, 100) for _, d in items])), fmt="o", capsize=3)
        ax.axvline(0, color="k", lw=0.8)
        ax.set_yticks(range(len(items)), [w for w, _ in items], fontsize=7)
        ax.invert_yaxis()
        ax.set_xlabel("difference to the baseline, percentage points (95 % CI)")
        ax.set_title("Variants against the baseline")
        plots.append(("variants.png", "Differences of shares between each variant and its baseline.",
                      _figure_png(fig)))
    return plots


# ----------------------------------------------------------------------------- text
def _pct(e: Estimate) -> str:
    return e.fmt(pct=True)


def _diff(d: Estimate, pct: bool) -> str:
    if d.n == 0:
        return "–"
    if pct:
        txt = f"{100 * d.value:+.1f} pp [{100 * d.low:+.1f}, {100 * d.high:+.1f}]"
    else:
        txt = f"{d.value:+.2f} [{d.low:+.2f}, {d.high:+.2f}]"
    return txt + (" *" if d.excludes(0.0) else "")


def findings(summaries: list[ConditionSummary], comparisons: list[Comparison]) -> list[str]:
    """Plain sentences for the effects whose 95 % interval excludes 'no effect'."""
    out = []
    for s in summaries:
        where = f" ({s.label})" if len(summaries) > 1 else ""
        for seat, e in enumerate(s.seat_win):
            if e.excludes(s.bot_fair) and s.players > 1:
                word = "more" if e.value > s.bot_fair else "less"
                out.append(f"Seat {seat} wins {word} often than a fair share{where}: {_pct(e)} "
                           f"against {100 * s.bot_fair:.1f} %.")
        if len(s.bot_win) > 1:
            first = next(iter(s.bot_win))
            for b, d in s.bot_vs_first.items():
                if d.excludes(0.0):
                    word = "more" if d.value > 0 else "less"
                    out.append(f"Bot `{b}` wins {word} often than `{first}`{where}: "
                               f"{_diff(d, True).rstrip(' *')}.")
            for b, e in s.bot_win.items():
                if e.excludes(s.bot_fair):
                    word = "above" if e.value > s.bot_fair else "below"
                    out.append(f"Bot `{b}` wins {word} a fair share{where}: {_pct(e)} against "
                               f"{100 * s.bot_fair:.1f} %.")
    for c in comparisons:
        for what, _, _, d, pct in c.rows:
            if d.excludes(0.0):
                out.append(f"{c.label} against {c.baseline}: {what} changes by {_diff(d, pct).rstrip(' *')}.")
    return out


def key_numbers(study, summaries: list[ConditionSummary]) -> list[str]:
    """The headline figures of every condition, whether or not an effect shows."""
    out = []
    measures = measures_class(study.game)
    # a length the options fix (Wasserloch's rounds) is no finding
    units = "" if measures.units_fixed else measures.units
    for s in summaries:
        where = f"{s.label}: " if s.label != "default" else ""
        seat0 = s.seat_win[0]
        lead = "team of seat 0" if len(s.teams[0]) > 1 else "seat 0 (starts)"
        text = (f"{where}{lead} wins {_pct(seat0)} (fair {100 * s.bot_fair:.1f} %); shared wins "
                f"{_pct(s.shared)}; {s.actions.fmt(digits=1)} actions per game")
        if units:
            text += f", {s.units.fmt(digits=1)} {units}"
        out.append(text + f" ({s.n} games).")
    return out


def blocks(result: StudyResult, summaries, comparisons, notable, plots) -> list[tuple]:
    """The report as a list of blocks both writers render: h1 h2 h3 p ul table img."""
    study = result.study
    done = len(result.rows)
    rate = done / result.seconds if result.seconds > 0 else 0.0
    b: list[tuple] = [("h1", f"Balance study: {study.game}")]
    setup = (f"{done} games played ({study.games} per condition, {len(study.conditions)} condition(s)), "
             f"master seed {study.seed}; bots: {', '.join(f'`{x.text}`' for x in study.bots)} "
             f"(rotated over the seats so that seat and bot effects separate). "
             f"Fixed options: {json.dumps(dict(study.base_options)) if study.base_options else 'the defaults'}. "
             f"Backend {result.backend} with {result.jobs} job(s): {result.seconds:.1f} s, {rate:.1f} games/s.")
    b.append(("p", setup))
    if result.interrupted:
        b.append(("p", f"**Interrupted**: only the {done} of {study.total} games that had finished are reported."))
    b.append(("h2", "Key numbers"))
    b.append(("ul", key_numbers(study, summaries)))
    b.append(("h2", "Findings"))
    fs = findings(summaries, comparisons)
    b.append(("ul", fs) if fs else ("p", "No effect is clear at 95 % confidence with this many games."))
    b.append(("p", "Every figure is followed by its 95 % confidence interval in brackets; "
                   "`*` marks a difference whose interval excludes zero."))
    for name, caption, _png in plots:
        b.append(("img", name, caption))
    for s in summaries:
        b.append(("h2", f"Condition: {s.label}" if s.label != "default" else "Results"))
        b.append(("p", f"{s.n} games, {s.players} players."))
        b.append(("h3", "Seats"))
        b.append(("table", ["seat", "win rate", "mean score"],
                  [[str(i), _pct(w), sc.fmt()] for i, (w, sc) in enumerate(zip(s.seat_win, s.seat_score))]))
        if len(s.bot_win) > 1:
            b.append(("h3", "Bots and strategy traits"))
            first = next(iter(s.bot_win))
            b.append(("table", ["bot", "win rate per seat played", "fair share", f"difference to `{first}`"],
                      [[f"`{k}`", _pct(e), f"{100 * s.bot_fair:.1f} %",
                        _diff(s.bot_vs_first[k], True) if k in s.bot_vs_first else "–"]
                       for k, e in s.bot_win.items()]))
        b.append(("h3", "Outcome and length"))
        rows = [["shared wins (tie)", _pct(s.shared)], ["games without a winner", _pct(s.no_winner)],
                ["winning margin (points)", s.margin.fmt()], ["actions per game", s.actions.fmt(digits=1)]]
        units = measures_class(study.game).units
        if units:
            rows.append([f"{units} per game", s.units.fmt(digits=2)])
        b.append(("table", ["what", "value"], rows))
        if s.measures:
            b.append(("h3", f"{study.game} measures"))
            b.append(("table", ["measure", "value"],
                      [[m.label, e.fmt(pct=(m.kind == "share" or m.label.startswith(("share", "hands"))))]
                       for m, e in s.measures]))
    for c in comparisons:
        b.append(("h2", f"Variant: {c.label} against {c.baseline}"))
        b.append(("table", ["what", c.baseline, c.label, "difference"],
                  [[w, e1.fmt(pct=p), e2.fmt(pct=p), _diff(d, p)] for w, e1, e2, d, p in c.rows]))
    if notable:
        b.append(("h2", "Notable games"))
        b.append(("p", "Replay any of them with `wasserspiele replay FILE`."))
        b.append(("table", ["condition", "kind", "game", "seed", "actions", "scores", "bots", "record"],
                  [[n["condition"], n["kind"].replace("_", " "), str(n["game"]), str(n["seed"]), str(n["actions"]),
                    " ".join(str(_num(x)) for x in n["scores"]), ", ".join(n["bots"]), f"link:{n['file']}"]
                   for n in notable]))
    b.append(("h2", "Method"))
    b.append(("ul", [
        "Each game's seed is derived from the master seed and the game's number alone, so a study "
        "repeats exactly whatever `--jobs` or backend; every condition uses the same game seeds "
        "(common random numbers).",
        "Win rate = share of the win credit (a k-way shared win gives each 1/k; partners win whole); "
        "intervals: Wilson score.",
        "Means: Student t; differences of means: Welch t; differences of shares: Newcombe's score "
        "interval; ratios pooled over games (e.g. loot per drive-off): delta method over games.",
        "Bot win rates count each seat a bot played; seats of one game are not independent, so "
        "treat those intervals as slightly optimistic.",
        "The full table is `results.csv` (one row per game).",
    ]))
    return b


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
            body.append(f'<figure><img alt="{html.escape(block[2])}" src="data:image/png;base64,{data}">'
                        f"<figcaption>{html.escape(block[2])}</figcaption></figure>")
        elif kind == "table":
            def cell(c, tag):
                if c.startswith("link:"):
                    return f'<{tag}><a href="{html.escape(c[5:])}">{html.escape(c[5:])}</a></{tag}>'
                return f"<{tag}>{_html_inline(c)}</{tag}>"
            rows = ["<tr>" + "".join(cell(c, "th") for c in block[1]) + "</tr>"]
            rows += ["<tr>" + "".join(cell(c, "td") for c in r) + "</tr>" for r in block[2]]
            body.append("<table>" + "".join(rows) + "</table>")
    style = ("body{font-family:system-ui,sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#222}"
             "table{border-collapse:collapse;margin:.5em 0 1em}td,th{border:1px solid #ccc;padding:.2em .5em;"
             "text-align:left;font-size:90%}th{background:#f3f3f3}code{background:#f6f6f6;padding:0 .2em}"
             "figure{margin:1em 0}figcaption{font-size:85%;color:#555}img{max-width:100%}")
    title = next((b[1] for b in bl if b[0] == "h1"), "Balance study")
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<style>{style}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


def _write_text(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def write_report(result: StudyResult, out: str | Path) -> dict[str, Any]:
    """Write every report file into `out`; returns the paths and the analysis."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    summaries, comparisons = analyse(result)
    write_csv(result, out / "results.csv")
    notable = write_notable(result, summaries, out)
    plots = make_plots(summaries, comparisons)
    (out / "plots").mkdir(exist_ok=True)
    for name, _caption, png in plots:
        (out / "plots" / name).write_bytes(png)
    bl = blocks(result, summaries, comparisons, notable, plots)
    _write_text(out / "report.md", render_md(bl))
    _write_text(out / "report.html", render_html(bl, {n: p for n, _, p in plots}))
    return {"dir": out, "summaries": summaries, "comparisons": comparisons, "notable": notable,
            "findings": findings(summaries, comparisons)}
