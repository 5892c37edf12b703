"""`wasserspiele lab`: balance studies from the command line (GitHub issues 7 and 16).

`wasserspiele lab GAME …` runs a study and writes its report; `wasserspiele lab render DIR`
writes a study's report again from its saved games (lab/render.py); `wasserspiele lab tune
GAME --vary OPTION=RANGE …` searches option values for a goal (lab/tune.py).
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path
from typing import Any, Callable

import click

from ..core.errors import BadOption, WasserspieleError
from .entry import WORKER_DIED, uninterrupted
from .flags import DECIMAL, WHOLE, games_problem, jobs_problem, writable

BOTS_HELP = """Bot specs, e.g. `heuristic`, `random`, `ismcts`, `expert`, `heuristic:keep_pairs=0,avoid_second_card=2`
(KIND[:NAME=VALUE,...] as in the arena; for `heuristic` the names are the game's strategy traits,
0 switches a tip off; every kind takes blunder=P, a share P of its moves played at random).
Several per value separated by commas or spaces, or repeat --bots.  Fewer bots than seats:
with rotated seating the lineup repeats and rotates one seat per game (`heuristic,random` at
three seats: heuristic, random, heuristic); with duplicate seating each team gets the next bot
and the last bot fills every team left over (heuristic, random, random); more bots than seats
(rotated only): every seating in turn."""

DEFAULT_GAMES = 200
DEFAULT_CAP = 100_000  # games per condition at most with --precision


class LabFailure(click.ClickException):
    exit_code = 2


class LabGroup(click.Group):
    """`lab GAME …` runs a study; `lab tune GAME …` and `lab render DIR` are the subcommands."""

    def parse_args(self, ctx, args):
        ctx.meta["lab_args"] = list(args)  # as typed, for the study's study.json (`command`)
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["study", *args]
        return super().parse_args(ctx, args)


class _StudyContext(click.Context):
    """The study is `lab GAME`, its command name only inserted by LabGroup: usage lines
    and hints name `wasserspiele lab`, not a `lab study` nobody typed."""

    @property
    def command_path(self) -> str:
        return self.parent.command_path if self.parent is not None else super().command_path


class _StudyCommand(click.Command):
    context_class = _StudyContext


@click.group("lab", cls=LabGroup)
def lab_cmd() -> None:
    """Balance studies: `lab GAME [options]` plays many seeded bot games of GAME and writes a
    report; `lab render DIR` writes a study's report again from its saved games, playing none;
    `lab tune GAME --vary OPTION=RANGE --goal …` searches option values for a goal.
    `lab GAME --help`, `lab render --help` and `lab tune --help` list the options."""


PLAYERS_HELP = "player count(s) to study, e.g. 3 or 2,3,4 (default: the game's)"
# `lab tune` plays one player count (its goals compare the seats of one table): its help must
# not offer the 2,3,4 that `lab GAME` takes
TUNE_PLAYERS_HELP = "the player count to tune for, one only, e.g. 3 (default: the game's)"


MIN_EFFECT_HELP = ("the smallest effect worth a flag: percentage points for shares, percent of the baseline for "
                   "counts and lengths")
# `lab tune` raises no flags: there the same size decides when the survivor is named the best
TUNE_MIN_EFFECT_HELP = ("the smallest lead worth naming a best: the survivor must beat every other candidate by "
                        "this much (percentage points for fair-seats and decisive, percent of its value for "
                        "shorter) as well as by its 95 % interval")


def study_options(f: Callable | None = None, *, players_help: str = PLAYERS_HELP,
                  min_effect_help: str = MIN_EFFECT_HELP) -> Callable:
    """The options that say which games a study plays (shared by `lab` and `lab tune`)."""
    if f is None:
        return lambda g: study_options(g, players_help=players_help, min_effect_help=min_effect_help)
    for decorator in reversed([
        click.option("--players", "players", multiple=True, metavar="P[,P...]", help=players_help),
        click.option("--bots", "bots", multiple=True, metavar="SPEC", help=BOTS_HELP),
        click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
                     help="a fixed game option; repeatable"),
        click.option("--seed", type=WHOLE, default=0, show_default=True,
                     help="master seed (every game's seed derives from it)"),
        click.option("--jobs", type=WHOLE, default=None, help="parallel processes (default: the local cores)"),
        click.option("--backend", type=click.Choice(["process", "ray"]), default="process", show_default=True),
        click.option("--address", metavar="ADDRESS",
                     help="Ray cluster to join (with --backend ray; every node needs wasserspiele installed): "
                          "HOST:PORT of its head node, ray://HOST:PORT (Ray Client) or auto (the one RAY_ADDRESS "
                          "names or this machine runs); without it a local Ray instance is started and stopped"),
        click.option("--seating", type=click.Choice(["rotated", "duplicate"]), default="rotated", show_default=True,
                     help="rotated: a new deal every game, the line-up one seat on; duplicate: every rotation of "
                          "the line-up over the teams plays the same deal"),
        click.option("--min-effect", "min_effect", type=DECIMAL, default=3.0, show_default=True, metavar="PP",
                     help=min_effect_help),
        click.option("--quiet", is_flag=True, help="no progress output"),
    ]):
        f = decorator(f)
    return f


def check_common(jobs, backend, address, min_effect) -> None:
    if jobs_problem(jobs):
        raise BadOption(f"--jobs: {jobs_problem(jobs)}")
    from ..bots.runner import address_problem  # refused before any game, as the backend would refuse it later
    problem = address_problem(backend, address)
    if problem:
        raise BadOption(problem)
    if not 0 <= min_effect < 100:
        # the bound said as it is checked: "(0 to 100)" refused 100 while naming it allowed
        raise BadOption(f"--min-effect: {min_effect:g} is not a size in percentage points (at least 0 and "
                        f"below 100)")


TUNE_FILE = "tune.md"


def _tune_file(path) -> bool:
    return path.name.removesuffix(".tmp") == TUNE_FILE


def earlier_files(out, tuning: bool) -> list:
    """The files of an earlier run of the same command in `out`, to be replaced.

    `lab GAME` and `lab tune` share what counts as the lab's own (lab/report.py `lab_files`),
    and each replaced the whole of it: `lab tune --out study` deleted a balance study's
    report.html, report.md and results.csv (hours of play), `lab GAME --out tuning` a tune.md.
    Each replaces only its own report now and refuses the other's, as it refuses a user's file."""
    from ..lab.report import lab_files  # the report's plotting libraries load only when a study runs
    files = lab_files(out)
    other = [p for p in files if _tune_file(p) != tuning]
    if other:
        what = "a balance study's report" if tuning else "a tuning result"
        shown = ", ".join(sorted({p.name if p.parent == Path(out) else p.parent.name + "/" for p in other}))
        raise BadOption(f"--out {out}: holds {what} ({shown}), which this command would not replace; choose "
                        f"another directory")
    return files


def study_plan(params: dict[str, Any]) -> tuple[dict[str, Any], float | None]:
    """`make_study`'s arguments from `lab GAME`'s options, and the --precision target (None without it):
    what a study runs (study_cmd) and what a recorded command ran (`study_arguments`), read alike."""
    from ..lab.precision import parse_precision
    precision, games = params["precision"], params["games"]
    target = parse_precision(precision) if precision is not None else None
    if games is not None and games < 1:
        raise BadOption(f"--games: {games} is not a positive number of games")
    if games_problem(games):
        raise BadOption(f"--games: {games_problem(games)}")
    args = {key: params[key] for key in ("game", "players", "bots", "options", "compare", "seed", "seating")}
    # with --precision, --games is the cap
    args["games"] = games or (DEFAULT_CAP if target else DEFAULT_GAMES)
    return args, target


@lab_cmd.command("study", cls=_StudyCommand, hidden=True)
@click.argument("game")
@click.option("--compare", "compare", multiple=True, metavar="KEY=V1,V2",
              help="compare values of an option, e.g. rounds=1,3 or slide_limit=7,null; repeatable")
@click.option("--games", type=WHOLE, default=None,
              help=f"games per condition (default {DEFAULT_GAMES}; with --precision the most to play, "
                   f"default {DEFAULT_CAP})")
@click.option("--precision", metavar="PP", default=None,
              help="play until every headline interval (each seat's or team's win rate) is at most ±PP wide, "
                   "in percentage points with the unit: 1pp, 0.5pp or 1% (a fixed-width sequential rule; the "
                   "same seed stops at the same games)")
@click.option("--out", "out", type=click.Path(file_okay=False), default=None, callback=writable,
              help="report directory (default: lab-GAME); an earlier report there is replaced, other files "
                   "(a tune.md too) make the lab refuse")
@study_options
def study_cmd(game, players, bots, options, compare, games, precision, seed, jobs, backend, address, out, seating,
              min_effect, quiet) -> None:
    """Play many seeded bot games of GAME and write a balance report to --out.

    The report (report.html, report.md, results.csv, plots/, records/) answers: win rate
    by seat, score distributions, game length, ties, the game's own measures, bots and
    strategy traits against each other, and variants against each other (with several
    --players also each Wildwasser species' share of the points against the smallest
    count), each with 95 % confidence intervals and tested flags.  Ctrl-C stops early and
    reports the games that finished."""
    from .console import Console  # rich's, going on past a pipe whose reader has gone

    from ..bots.runner import cut_short_reasons, default_jobs, open_backend
    from ..lab.backends import run_study
    from ..lab.precision import run_until
    from ..lab.study import make_study, mark_worker_death
    from .console import Reporter

    try:
        args, target = study_plan(click.get_current_context().params)
        most = args["games"]
        study = make_study(**args)
        check_common(jobs, backend, address, min_effect)
        out = out or f"lab-{study.game}"
        earlier_files(out, tuning=False)  # refuse a directory holding other files before any game is played
    except WasserspieleError as exc:
        raise LabFailure(str(exc)) from None
    jobs = jobs or default_jobs()
    console = Console(stderr=True, soft_wrap=True)  # a log file gets whole lines, not lines cut at 80 columns
    conds = len(study.conditions)
    if study.asked is not None:  # duplicate seating: whole deal groups, as the arena and the leaderboard play
        what = "the cap --games" if target else "--games"
        click.echo(f"{what} {study.asked} rounded up to {study.games}: whole duplicate groups ({study.group} games: "
                   f"each line-up in every seat (team) on the same deal)", err=True)
    # "games until ±1 pp, at most 100,000 per condition (1 condition)", not "until ±1 pp (…) games (1 condition)"
    size = (f"games until ±{100 * target:g} pp, at most {most:,} per condition" if target
            else f"{study.total} games")
    result = None
    died = ""  # a worker process's death, said, where one cut the run short
    try:
        with open_backend(backend, jobs, address, quiet) as runner:
            if not quiet:
                console.print(f"{study.game}: {size} ({conds} condition{'s' * (conds != 1)}), bots "
                              f"{', '.join(b.text for b in study.bots)}, {runner.name} backend, {jobs} job(s)")
            with Reporter(console, quiet) as report:
                if target:
                    def batch(have: int, goal: int, widest: float) -> None:
                        report.set_total(goal * conds, f"widest ±{100 * widest:.2f} pp → ±{100 * target:g} pp")

                    report.set_total(min(most, 100) * conds)
                    result = run_until(study, target, runner, most=most, progress=report.advance, on_batch=batch)
                else:
                    report.set_total(study.total)
                    result = run_study(study, runner=runner, progress=report.advance)
            if runner.failure is not None:
                died = runner.failure.reason().render("en")
    except KeyboardInterrupt:  # while starting Ray, say, or a second Ctrl-C while the workers stop
        if result is None or not result.rows:
            console.print("interrupted before any game finished: no report written")
            sys.exit(130)
        result.interrupted = True
        died = ""
    except WasserspieleError as exc:
        raise LabFailure(str(exc)) from None
    if not result.rows:
        if died:
            console.print(f"{died} before any game finished: no report written")
            sys.exit(WORKER_DIED)
        console.print("interrupted before any game finished: no report written")
        sys.exit(130)
    # a search's CPU safety net that fired in the workers: said once a bot, here (before the report, whose
    # notable games then may not repeat: NotRepeated) and in the report's notes; it was an English log
    # line a game, through the progress display
    for reason in cut_short_reasons(result.cut_short):
        console.print(reason.render("en"), markup=False)
    if died:
        # the report says the run was cut short by the worker's death, not by Ctrl-C; where the
        # pool's BrokenProcessPool traceback lost every game of the study
        mark_worker_death(result, died)
    command = "wasserspiele lab " + shlex.join(click.get_current_context().meta.get("lab_args", []))
    info = write_study_report(result, out, min_effect, command)
    rate = len(result.rows) / result.seconds if result.seconds else 0.0
    console.print(f"{len(result.rows)} games in {result.seconds:.1f} s ({rate:.3g} games/s); "
                  f"report: {info['dir'] / 'report.html'}")
    echo_summary(info)
    if result.interrupted:
        # a study does not resume: said, with what running it again does (the same games again)
        again = "running the command again plays the study from its first game (the same seed, the same games)"
        if died:
            console.print(f"{died}; the run stopped: reported the {len(result.rows)} games that finished; {again}")
            sys.exit(WORKER_DIED)
        console.print(f"interrupted: reported the {len(result.rows)} games that finished; {again}")
        sys.exit(130)


def write_study_report(result, out, min_effect: float, command: str) -> dict[str, Any]:
    """`write_report` for the command line: a write that fails (a full disk, --out made read-only, replaced
    by a file or given other files while the games ran) is one line saying what --out keeps, exit 4; it was
    a traceback, and the games held in memory were lost without a word."""
    from ..core.paths import WriteFailed
    from ..lab.report import STUDY_FILE, write_report
    from ..lab.study import NotRepeated
    from .main import WriteFailure
    lost = (f"the {len(result.rows)} games played are not saved: run the study again with --out naming a folder "
            f"it can write")
    try:
        return uninterrupted(lambda: write_report(result, out, min_effect=min_effect / 100, command=command))
    except WriteFailed as exc:
        raise WriteFailure(f"{exc}{'' if exc.written else '; ' + lost}") from None
    except NotRepeated as exc:  # no folder to blame: results.csv and study.json are written before the records
        raise WriteFailure(f"{exc}; {out}/results.csv and {STUDY_FILE} hold the {len(result.rows)} games played, "
                           f"and no report was written") from None
    except WasserspieleError as exc:  # --out checked before the games, changed while they ran
        raise WriteFailure(f"{exc}; {lost}") from None


def echo_summary(info: dict[str, Any]) -> None:
    """The report's answer on the terminal: its At a glance, then its first five findings."""
    from ..lab.report import more_flags
    # the answer first (as the report begins), in plain words: a study with nothing flagged says whether
    # that means "fair within the practical size" or "not settled: too few games"
    for line in info["answers"]:
        click.echo(f"  * {line.replace('**', '')}")
    for line in info["findings"][:5]:
        click.echo("  - " + re.sub(r" ?\[figure\]\(plots/[^)]*\)", "", line))  # no Markdown link on a terminal
    if len(info["findings"]) > 5:  # as the report's Findings say it: the flags past five are in its tables
        click.echo(f"  ({more_flags(len(info['findings']) - 5)} in the report's tables)")


def study_arguments(command: str) -> dict[str, Any]:
    """`make_study`'s arguments (and min_effect, the --precision target) from a recorded `wasserspiele lab
    GAME …` command line, read as `lab GAME` reads its own (`lab render` of a study saved before study.json)."""
    words = shlex.split(command)
    if words[:2] != ["wasserspiele", "lab"] or len(words) < 3 or words[2] in lab_cmd.commands:
        raise BadOption(f"{command!r} is not a `wasserspiele lab GAME …` study command")
    try:
        ctx = study_cmd.make_context("lab", words[2:])
    except click.ClickException as exc:
        raise BadOption(exc.format_message()) from None
    args, target = study_plan(ctx.params)
    return {**args, "min_effect": ctx.params["min_effect"] / 100, "precision": target}


@lab_cmd.command("render")
@click.argument("folder", metavar="DIR", type=click.Path(file_okay=False))
@click.option("--quiet", is_flag=True, help="print nothing but errors")
def render_cmd(folder, quiet) -> None:
    """Write a finished study's report again (report.md, report.html, plots/) from its saved games,
    playing none: in the lab's current layout, from DIR's results.csv and the settings the study saved
    in study.json (a study made before study.json: the `wasserspiele lab …` command its README.md
    records, and its report.md's run line; study.json is saved beside it then).

    results.csv and records/ are read, never written.  Rows that do not fit the settings (another
    game, another seed, a damaged line, an unknown column, a game missing from a study that was not
    interrupted) or a missing record are refused, naming the line or file, and leave every file as it
    was."""
    from ..core.paths import WriteFailed
    from ..lab.render import render_study
    from .main import WriteFailure
    try:
        info = uninterrupted(lambda: render_study(folder, study_arguments))
    except WriteFailed as exc:
        raise WriteFailure(str(exc)) from None
    except WasserspieleError as exc:
        raise LabFailure(str(exc)) from None
    if not quiet:
        settings = info["settings"]
        games = sum(s.n for s in info["summaries"])
        click.echo(f"{info['dir'] / 'report.html'}: rendered from {games} games of results.csv (settings from "
                   f"{settings.source}); no game played", err=True)
        echo_summary(info)


@lab_cmd.command("tune")
@click.argument("game")
@click.option("--vary", "vary", multiple=True, required=True, metavar="OPTION=RANGE",
              help="option values to choose from: a list (river_flow=forward,back; slide_limit=6,7,null) or "
                   "an integer range LOW..HIGH (slide_limit=5..9); several --vary try every combination")
@click.option("--goal", type=click.Choice(["fair-seats", "decisive", "shorter"]), required=True,
              help="fair-seats: every seat (team) wins a fair share; decisive: fewest games without a single "
                   "winner; shorter: fewest actions per game")
@click.option("--games", type=WHOLE, default=100, show_default=True,
              help="games per candidate in the first round (doubled each round)")
@click.option("--out", "out", type=click.Path(file_okay=False), default=None, callback=writable,
              help="directory for tune.md (default: tune-GAME); an earlier tune.md there is replaced, other files "
                   "(a study's report too) make the lab refuse")
@study_options(players_help=TUNE_PLAYERS_HELP, min_effect_help=TUNE_MIN_EFFECT_HELP)
def tune_cmd(game, vary, goal, games, out, players, bots, options, seed, jobs, backend, address, seating, min_effect,
             quiet) -> None:
    """Search values of GAME's options for a goal by successive halving (docs/reports/README.md).

    Every candidate plays the first --games games; the better half by the goal plays on
    with twice as many, until one is left.  Writes tune.md and prints the ranking."""
    from .console import Console  # rich's, going on past a pipe whose reader has gone

    from ..bots.runner import default_jobs, open_backend
    from ..bots.specs import split_spec_texts
    from ..lab.study import refuse_empty
    from ..core.paths import failed, write_file
    from ..lab.tune import plan_tune, tune, tune_markdown
    from .console import Reporter
    from .main import WriteFailure

    from ..core.registry import game_class
    try:
        # every --vary, --goal, --games and --players mistake is refused here, before a backend starts
        plan = plan_tune(game, vary, goal, players=players, options=options, first=games)
        refuse_empty("bots", bots, split_spec_texts(bots), "the default bots", specs=True)  # before a backend starts
        if games_problem(games):
            raise BadOption(f"--games: {games_problem(games)}")
        check_common(jobs, backend, address, min_effect)
        out = Path(out or f"tune-{game_class(game).name}")
        earlier_files(out, tuning=True)
    except WasserspieleError as exc:
        raise LabFailure(str(exc)) from None
    console = Console(stderr=True, soft_wrap=True)  # a log file gets whole lines, not lines cut at 80 columns
    candidates = plan.candidates
    try:
        with open_backend(backend, jobs or default_jobs(), address, quiet) as runner, \
                Reporter(console, quiet) as report:
            report.set_total(candidates * games)

            def next_round(rnd, alive):
                report.set_total(report.done + len(alive) * games * 2 ** (rnd - 1),
                                 f"round {rnd + 1}: {len(alive)} candidate(s) left")

            result = tune(game, vary, goal, runner, players=players, bots=bots, options=options, first=games,
                          seed=seed, seating=seating, progress=report.advance, on_round=next_round,
                          min_effect=min_effect / 100)
    except KeyboardInterrupt:
        console.print("interrupted before any game finished: nothing written")
        sys.exit(130)
    except WasserspieleError as exc:
        raise LabFailure(str(exc)) from None
    text = tune_markdown(result)

    def write():
        for path in earlier_files(out, tuning=True):
            if path != out / TUNE_FILE:  # an interrupted write's tune.md.tmp; tune.md itself is replaced whole
                path.unlink()
        write_file(out / TUNE_FILE, text)

    try:
        uninterrupted(write)
    except (WasserspieleError, OSError) as exc:
        # a full disk or --out changed while the candidates played: the ranking is printed all the same
        # (it was lost with a traceback), then the failure, exit 4
        click.echo(text)
        said = str(exc) if isinstance(exc, WasserspieleError) else str(failed(out / TUNE_FILE, exc))
        raise WriteFailure(f"{said}; the ranking is printed above instead") from None
    click.echo(text)
    if runner.failure is not None:  # a worker process died: the ranking is of the games that finished
        click.echo(f"{runner.failure.reason().render('en')}; the run stopped: {out / 'tune.md'} ranks the "
                   f"{result.games()} games that finished", err=True)
        sys.exit(WORKER_DIED)
    if result.interrupted:
        sys.exit(130)
