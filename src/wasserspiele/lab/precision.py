"""Precision on demand: play until every headline interval is as narrow as asked.

The headline intervals are the win rates of every seat (team) under every condition
(95 % Wilson; under duplicate seating with the deal group as the unit, and every batch
whole deal groups).  The stopping rule is the fixed-width rule of Chow & Robbins (1965):
play in batches and stop at the first batch boundary where every interval's
half-width is at most the target.  As the target shrinks, its coverage tends to the
nominal 95 % (their theorem: the rule stops when n·d² ≈ z²σ², and the stopped
interval covers with probability → 1 − α), which is the regime `--precision 1pp`
(thousands of games per condition) is in; a pilot of `PILOT` games per condition
keeps the rule from stopping on an early, degenerate estimate (a win rate of 0 %
has a narrow interval at tiny n).  Checking only at batch boundaries looks at a
subsequence of the games, which keeps the theorem.

Batch sizes depend only on the results so far, and every game's seed on the master
seed and its number, so the same command stops at the same number of games whatever
`--jobs` or backend, and writes the same report: results.csv, the plots, the records and
every figure and table of report.md and report.html repeat byte for byte; only the
report's run line (backend, jobs, wall-clock time, games per second) says how this run
went (tests/lab/test_report.py).
"""

from __future__ import annotations

import dataclasses
import math
import re
import time
from typing import Any, Callable

from ..bots.runner import Backend, add_cut_short, whole_groups
from ..core.errors import BadOption
from ..core.messages import shown
from ..core.stats import Z95
from .backends import run_study, table_order
from .clustered import share
from .study import Study, StudyResult, note_cut_short

PILOT = 100          # games per condition before the rule may stop
GROWTH = 2.0         # a batch at most doubles the games played (the variance estimate is refreshed)


ACCEPTED = "1pp, 0.5pp or 1%, in percentage points of a win rate"


def parse_precision(text: str) -> float:
    """`1pp`, `0.5pp` or `1%` (percentage points) → the half-width as a share (0.01).

    The unit is required: a bare `5` could be read as 5 percentage points or as 5 % of the
    win rate (or as the share 5), and the lab will not guess which was meant."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(pp|%)?\s*", str(text))
    if not m:
        raise BadOption(f"--precision: {shown(text)} is not a half-width in percentage points; write {ACCEPTED}")
    if not m.group(2):
        raise BadOption(f"--precision: {shown(text)} has no unit; write {m.group(1)}pp for ±{m.group(1)} percentage "
                        f"points (accepted forms: {ACCEPTED})")
    value = float(m.group(1))
    if not 0.05 <= value <= 50:
        raise BadOption(f"--precision: {shown(text)} is out of range (0.05pp to 50pp)")
    return value / 100


def _headlines(study: Study, rows: list[dict[str, Any]]):
    """Each team's win rate under each condition, with the deal group as the unit under duplicate seating
    (the report's intervals)."""
    for c, cond in enumerate(study.conditions):
        mine = [r for r in rows if r["cond"] == c]
        group = study.group_of(c)
        units = [r["game"] // group for r in mine]
        for team in study.series(c).load().teams:
            yield share([sum(r["returns"][s] for s in team) / len(team) for r in mine], units=units), len(mine)


def headline_half_widths(study: Study, rows: list[dict[str, Any]]) -> list[float]:
    """The half-width of every headline interval: each team's win rate under each condition."""
    return [max(x.est.value - x.est.low, x.est.high - x.est.value) if n else math.inf
            for x, n in _headlines(study, rows)]


def next_games(study: Study, rows: list[dict[str, Any]], have: int, target: float, most: int) -> int:
    """Games per condition to have after the next batch: the estimated need, at most doubling; whole deal
    groups under duplicate seating (`study.group`)."""
    need = have
    for x, n in _headlines(study, rows):
        p = x.value if n else 0.5
        var = max(p * (1 - p), 0.01)  # never plan from a degenerate 0 % or 100 %
        deff = n / x.n_eff if n and x.n_eff > 0 else 1.0  # duplicate deals: games of one deal correlate
        # the Wilson half-width is a little wider than the normal one: plan 2 % more
        need = max(need, math.ceil(1.02 * Z95 * Z95 * var * max(deff, 1.0) / (target * target)))
    step = max(1, math.ceil(have / 20))  # at least 5 % more per batch: no crawling towards the target
    return min(most, whole_groups(max(have + step, min(need, math.ceil(GROWTH * have))), study.group))


def run_until(study: Study, target: float, runner: Backend, *, most: int = 100_000,
              progress: Callable[[int], None] | None = None,
              on_batch: Callable[[int, int, float], None] | None = None) -> StudyResult:
    """Play batches of every condition until every headline half-width ≤ `target` (or `most` games each).

    `on_batch(games per condition so far, planned next, widest half-width)` after every batch."""
    start = time.perf_counter()
    rows: list[dict[str, Any]] = []
    pilot_games = whole_groups(PILOT, study.group)  # duplicate seating: whole deal groups in every batch
    most = whole_groups(most, study.group)
    have, goal = 0, min(most, pilot_games)
    interrupted = False
    widest = math.inf
    cut_short: dict[str, tuple[int, int]] = {}
    while True:
        batch = dataclasses.replace(study, games=goal)
        part = run_study(batch, runner=runner, progress=progress, start=have)
        rows += part.rows
        add_cut_short(cut_short, part.cut_short)
        if part.interrupted:
            interrupted = True
            break
        have = goal
        widest = max(headline_half_widths(study, rows))
        if widest <= target or have >= most:
            if on_batch:
                on_batch(have, have, widest)
            break
        goal = next_games(study, rows, have, target, most)
        if on_batch:
            on_batch(have, goal, widest)
    played = max((r["game"] for r in rows), default=-1) + 1
    # the games played decide the count (its rounding to whole groups is said in the note below)
    final = dataclasses.replace(study, games=max(have, 1) if not interrupted else max(played, 1), asked=None)
    cap = f"--games {most}" if study.asked is None or study.asked == most else \
        f"--games {study.asked}, rounded up to {most} for whole deal groups"
    result = StudyResult(final, table_order(rows), interrupted, time.perf_counter() - start, runner.name, runner.jobs,
                         target=target, cut_short=cut_short)
    reached = widest <= target and not interrupted
    # the pilot is cut to the cap when --games is below it: say the pilot that was played, not PILOT
    pilot = (f"a pilot of {pilot_games} games per condition" if most >= pilot_games
             else f"the pilot of {pilot_games} games per condition cut to the cap of {most} ({cap})")
    goal = f"every headline interval was within ±{100 * target:g} pp"
    if reached:
        outcome = f"Reached after {have} games per condition (widest ±{100 * widest:.2f} pp)."
        result.stopped = f"the precision rule stopped it there: {goal}"
    elif interrupted:
        so_far = (f"widest ±{100 * widest:.2f} pp after the last complete batch, {have} games per condition"
                  if have else "during the pilot, before any interval was checked")
        # Ctrl-C (or SIGTERM), or a worker process that died
        if runner.failure is not None:
            result.died = runner.failure.reason().render("en")
        cut = f"{result.died}, which stopped" if result.died else "Ctrl-C stopped"
        outcome = f"Not reached: {cut} the run ({so_far})."
        result.stopped = f"{cut} it before {goal}"
    else:
        outcome = (f"Not reached: stopped at {have} games per condition (widest ±{100 * widest:.2f} pp), "
                   f"the cap ({cap}).")
        result.stopped = f"the cap ({cap}) stopped it before {goal} (widest ±{100 * widest:.2f} pp)"
    result.notes.append(
        f"Precision on demand: play until every headline interval (each seat's or team's win rate under each "
        f"condition) has a half-width of at most {100 * target:g} pp — the fixed-width stopping rule of Chow & "
        f"Robbins (1965), checked after each batch, with {pilot}"
        + (f", every batch a multiple of {study.group} games: whole deal groups under every condition (duplicate "
           f"seating)" if study.group > 1 else "")
        + f". {outcome}")
    note_cut_short(result)  # over every batch (each batch's own result said its part)
    return result
