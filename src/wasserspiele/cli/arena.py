"""`wasserspiele arena`: bots against bots, seat-rotated and seeded, with confidence intervals."""

from __future__ import annotations

import os
import shutil
import sys
from typing import TYPE_CHECKING

import click

from ..core.errors import WasserspieleError
from ..core.messages import localised_digits, render
from ..core.registry import game_class, load
from .flags import WHOLE, games_problem, jobs_problem
from .language import Argument, Command

from .entry import INTERRUPTED, WORKER_DIED

if TYPE_CHECKING:
    from rich.table import Table


@click.command("arena", cls=Command)
@click.argument("game", cls=Argument)
@click.option("--bots", required=True, help="comma-separated bots: ismcts, heuristic, random or a level "
              "(easy…expert), with settings as ismcts:iterations=500 (docs/bots.md)")
@click.option("--games", type=WHOLE, default=100, show_default=True, help="games to play (whole duplicate groups)")
@click.option("--players", type=WHOLE, help="number of players (games with a variable count)")
@click.option("--seed", type=WHOLE, default=0, show_default=True)
@click.option("--jobs", type=WHOLE, default=None, help="worker processes (default: all cores)")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="a game option; repeatable")
@click.option("--quiet", is_flag=True, help="no progress output")
@click.option("--lang", type=click.Choice(["en", "de"]), default="en", show_default=True,
              help="language of the refusals, the progress and the table")
def arena_cmd(game, bots, games, players, seed, jobs, options, quiet, lang) -> None:
    """Play bots against each other in GAME and report win rates with 95 % intervals."""
    # the bots, the worker pool and rich load when an arena runs, not with every command line
    from .console import Console  # rich's, going on past a pipe whose reader has gone

    from ..bots.arena import arena_games, parse_bots, run_arena
    from ..bots.runner import DuplicateSeating, cut_short_reasons
    from .console import Reporter, make_console
    from .main import UsageFailure, parse_options_for

    def refused(code: str, hint: str, **params) -> click.BadParameter:
        return click.BadParameter(render(code, params, lang), param_hint=hint)

    # as `lab` and `leaderboard` refuse it: `jobs or cpu_count` read 0 as "all cores" and passed
    # -1 on to the workers, and a huge count ended in the worker pool's OverflowError
    if jobs_problem(jobs):
        raise click.BadParameter(jobs_problem(jobs).render(lang), param_hint="--jobs")
    if games < 1:
        raise refused("cli.arena.games_below_1", "--games", games=games)
    if games_problem(games):  # `run_arena` lists every game's number first: a MemoryError
        raise click.BadParameter(games_problem(games).render(lang), param_hint="--games")
    try:
        opts = parse_options_for(game, list(options))
        cls = game_class(game)
        name = cls.name
        shown = cls.manifest.title_in(lang)  # the game in the prose (Watten, not watten)
        if players is not None:
            # as `lab` refuses them: a fixed count other than the game's was dropped without a
            # word (watten --players 3 played four), and --players overrode --option players=
            if cls.fixed_players is not None and players != cls.fixed_players:
                raise refused("cli.arena.exact_players", "--players", game=shown, n=cls.fixed_players, given=players)
            if "players" in opts and opts["players"] != players:  # the same count twice says one thing
                raise refused("cli.arena.players_twice", "--players", players=players, option=opts["players"])
            if cls.fixed_players is None:
                opts["players"] = players
        loaded = load(name, **opts)
        specs = parse_bots([bots], loaded)
        # refused here, before the progress header: run_arena checked the count only once the
        # "watten arena" line was out (a Reason, said below in the command's language)
        DuplicateSeating().check(loaded, len(specs))
        jobs = jobs or os.cpu_count() or 1
        # wide enough for bot specs with settings, even when the output goes to a file
        console = make_console(width=max(shutil.get_terminal_size().columns, 120))
        # progress on stderr as the lab shows it (a bar on a terminal, plain lines in a log),
        # so a long arena is seen working and stdout holds the table alone
        total = arena_games(loaded, games)  # the games really played (whole duplicate groups)
        if total != games and not quiet:
            # said as `lab` and `leaderboard` say it: `--games 4` played 6 without a word (--quiet keeps
            # stderr for refusals alone; the table's title says the games played)
            group = DuplicateSeating().group(loaded, len(specs))
            click.echo(render("cli.arena.rounded", {"asked": games, "games": total, "group": group, "n": group}, lang),
                       err=True)
        with Reporter(Console(stderr=True), quiet, lang) as report:
            report.set_total(total, render("cli.arena.progress", {"game": shown}, lang))
            result = run_arena(name, opts, specs, games, seed, jobs, on_progress=report.advance)
    except WasserspieleError as exc:
        raise UsageFailure(exc, lang) from None
    # a worker process that died (the out-of-memory killer, kill -9, a crash) cut the run short as an
    # interrupt does, where the pool's BrokenProcessPool traceback lost every game: said as what it was,
    # with its own exit status (cli/main.py, Exit status)
    died = result.failure.reason().render(lang) if result.failure is not None else None
    status = WORKER_DIED if died else INTERRUPTED
    if result.interrupted and not result.games:
        if died:
            click.echo(render("cli.arena.worker_died_empty", {"why": died}, lang), err=True)
        else:
            click.echo(render("cli.arena.interrupted_empty", {}, lang), err=True)
        sys.exit(status)
    console.print(result_table(result, seed, lang))
    # a search's CPU safety net that fired in the workers: said once a bot, after the table and in
    # the command's language (it was an English log line a game, through the progress display)
    for reason in cut_short_reasons(result.cut_short()):
        click.echo(reason.render(lang), err=True)
    if result.interrupted:
        # Ctrl-C (or SIGTERM, SIGHUP): the table of the games that finished, said to be cut short, and
        # the interrupt's exit status; it was shown as a finished run's, exit 0, without a word
        params = {"n": len(result.games), "total": total, "why": died}
        click.echo(render("cli.arena.worker_died" if died else "cli.arena.interrupted", params, lang), err=True)
        sys.exit(status)


def result_table(result, seed: int, lang: str) -> Table:
    """The arena's result, one row a bot, its words and decimals in `lang`."""
    from rich.table import Table

    def t(code: str, **params) -> str:
        return render(f"cli.arena.{code}", params, lang)

    def num(value: float, places: int) -> str:
        # Python's digits and rounding (English as the f-strings printed it), the language's signs
        return localised_digits(f"{value:.{places}f}", lang)

    table = Table(title=t("title", game=result.game.manifest.title_in(lang), n=len(result.games), seed=seed,
                          players=result.game.players))
    # a long bot spec wraps; the figures never do (a narrow terminal or a log file
    # must not cut them to "0.6…")
    table.add_column(t("col.bot"), justify="left", overflow="fold", ratio=1)
    for code in ("seats", "win_rate", "interval", "mean_score", "mean_place"):
        heading = t(f"col.{code}")
        table.add_column(heading, justify="right", no_wrap=True, min_width=len(heading))
    rows = result.by_spec()
    specs = [r.spec for r in rows]
    for k, r in enumerate(rows):
        rate, score, place = r.win_rate(), r.mean_score(), r.mean_place()
        # a spec given twice (`--bots easy,easy`: does a seat matter?) is two rows, told apart
        # by their place in --bots; both were labelled "easy"
        label = t("bot_numbered", spec=r.spec, n=k + 1) if specs.count(r.spec) > 1 else r.spec
        table.add_row(label, str(r.seats), num(rate.value, 3), f"{num(rate.low, 3)}–{num(rate.high, 3)}",
                      f"{num(score.value, 2)} ± {num((score.high - score.low) / 2, 2)}",
                      f"{num(place.value, 2)} ± {num((place.high - place.low) / 2, 2)}")
    return table
