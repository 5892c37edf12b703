"""`wasserspiele lab`: balance studies from the command line (GitHub issue 7)."""

from __future__ import annotations

import signal
import sys

import click

from ..core.errors import BadOption, WasserspieleError

BOTS_HELP = """Bot specs, e.g. `heuristic`, `random`, `ismcts`, `expert`, `heuristic:keep_pairs=0,avoid_second_card=2`
(KIND[:NAME=VALUE,...] as in the arena; for `heuristic` the names are the game's strategy traits,
0 switches a tip off).  Several per value separated by commas or spaces, or repeat --bots.  Fewer bots than seats:
the lineup repeats and rotates one seat per game; more bots than seats: every seating in turn."""


class LabFailure(click.ClickException):
    exit_code = 2


@click.command("lab")
@click.argument("game")
@click.option("--players", "players", multiple=True, metavar="P[,P...]",
              help="player count(s) to study, e.g. 3 or 2,3,4 (default: the game's)")
@click.option("--bots", "bots", multiple=True, metavar="SPEC", help=BOTS_HELP)
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="a fixed game option; repeatable")
@click.option("--compare", "compare", multiple=True, metavar="KEY=V1,V2",
              help="compare values of an option, e.g. rounds=1,3 or slide_limit=7,null; repeatable")
@click.option("--games", type=int, default=200, show_default=True, help="games per condition")
@click.option("--seed", type=int, default=0, show_default=True, help="master seed (every game's seed derives from it)")
@click.option("--jobs", type=int, default=None, help="parallel processes (default: the local cores)")
@click.option("--backend", type=click.Choice(["process", "ray"]), default="process", show_default=True)
@click.option("--address", metavar="HOST:PORT", help="Ray cluster to join (with --backend ray; every node needs wasserspiele installed); "
                   "without it a local Ray instance is started")
@click.option("--out", "out", type=click.Path(file_okay=False), default=None,
              help="report directory (default: lab-GAME)")
@click.option("--seating", type=click.Choice(["rotated", "duplicate"]), default="rotated", show_default=True,
              help="rotated: a new deal every game, the line-up one seat on; duplicate: every rotation of the "
                   "line-up over the teams plays the same deal")
@click.option("--min-effect", "min_effect", type=float, default=3.0, show_default=True, metavar="PP",
              help="the smallest effect worth a flag: percentage points for shares, percent of the baseline "
                   "for counts and lengths")
@click.option("--quiet", is_flag=True, help="no progress bar")
def lab_cmd(game, players, bots, options, compare, games, seed, jobs, backend, address, out, seating, min_effect,
            quiet) -> None:
    """Play many seeded bot games of GAME and write a balance report to --out.

    The report (report.html, report.md, results.csv, plots/, records/) answers: win rate
    by seat, score distributions, game length, ties, the game's own measures, bots and
    strategy traits against each other, and variants against each other, each with 95 %
    confidence intervals.  Ctrl-C stops early and reports the games that finished."""
    from ..lab.backends import default_jobs, run_study
    from ..lab.report import write_report
    from ..lab.study import make_study

    try:
        study = make_study(game, players=players, bots=bots, options=options, compare=compare,
                           games=games, seed=seed, seating=seating)
        if not 0 <= min_effect < 100:
            raise BadOption(f"--min-effect: {min_effect:g} is not a size in percentage points (0 to 100)")
        if jobs is not None and jobs < 1:
            raise BadOption(f"--jobs: {jobs} is not a positive number of processes")
        if address and backend != "ray":
            raise BadOption("--address needs --backend ray")
    except WasserspieleError as exc:
        raise LabFailure(str(exc)) from None
    jobs = jobs or default_jobs()
    out = out or f"lab-{study.game}"
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)
    from rich.text import Text

    class RateColumn(ProgressColumn):
        def render(self, task):
            speed = task.finished_speed or task.speed
            return Text("" if speed is None else f"{speed:.1f} games/s", style="progress.data.speed")

    console = Console(stderr=True)
    conds = len(study.conditions)
    console.print(f"{study.game}: {study.total} games ({conds} condition{'s' * (conds != 1)} × {study.games}), "
                  f"bots {', '.join(b.text for b in study.bots)}, {backend} backend, {jobs} job(s)")
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                        RateColumn(), TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
                        console=console, disable=quiet, transient=False)
    try:
        with progress:
            task = progress.add_task("games", total=study.total)
            result = run_study(study, jobs=jobs, backend=backend, address=address,
                               progress=lambda n: progress.advance(task, n))
    except WasserspieleError as exc:
        raise LabFailure(str(exc)) from None
    if not result.rows:
        console.print("interrupted before any game finished: no report written")
        sys.exit(130)
    # the games are played: a Ctrl-C now must not leave a half-written report behind
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        info = write_report(result, out, min_effect=min_effect / 100)
    finally:
        signal.signal(signal.SIGINT, previous)
    rate = len(result.rows) / result.seconds if result.seconds else 0.0
    console.print(f"{len(result.rows)} games in {result.seconds:.1f} s ({rate:.1f} games/s); "
                  f"report: {info['dir'] / 'report.html'}")
    for line in info["findings"][:12]:
        click.echo(f"  - {line}")
    if result.interrupted:
        console.print(f"interrupted: reported the {len(result.rows)} of {study.total} games that finished")
        sys.exit(130)
