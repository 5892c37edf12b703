"""`wasserspiele arena`: bots against bots, seat-rotated and seeded, with confidence intervals."""

from __future__ import annotations

import os
import shutil

import click
from rich.console import Console
from rich.table import Table

from ..bots.arena import arena_games, parse_bots, run_arena
from ..bots.runner import DuplicateSeating
from ..core.errors import WasserspieleError
from ..core.registry import game_class, load
from .console import Reporter, make_console
from .flags import games_problem, jobs_problem


@click.command("arena")
@click.argument("game")
@click.option("--bots", required=True, help="comma-separated bots: ismcts, heuristic, random or a level "
              "(easy…expert), with settings as ismcts:iterations=500 (docs/bots.md)")
@click.option("--games", type=int, default=100, show_default=True, help="games to play (whole duplicate groups)")
@click.option("--players", type=int, help="number of players (games with a variable count)")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--jobs", type=int, default=None, help="worker processes (default: all cores)")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="a game option; repeatable")
@click.option("--quiet", is_flag=True, help="no progress output")
def arena_cmd(game, bots, games, players, seed, jobs, options, quiet) -> None:
    """Play bots against each other in GAME and report win rates with 95 % intervals."""
    from .main import UsageFailure, parse_options_for
    # as `lab` and `leaderboard` refuse it: `jobs or cpu_count` read 0 as "all cores" and passed
    # -1 on to the workers, and a huge count ended in the worker pool's OverflowError
    if jobs_problem(jobs):
        raise click.BadParameter(jobs_problem(jobs), param_hint="--jobs")
    if games < 1:
        raise click.BadParameter("must be at least 1", param_hint="--games")
    if games_problem(games):  # `run_arena` lists every game's number first: a MemoryError
        raise click.BadParameter(games_problem(games), param_hint="--games")
    try:
        opts = parse_options_for(game, list(options))
        cls = game_class(game)
        name = cls.name
        if players is not None:
            # as `lab` refuses them: a fixed count other than the game's was dropped without a
            # word (watten --players 3 played four), and --players overrode --option players=
            if cls.fixed_players is not None and players != cls.fixed_players:
                raise click.BadParameter(f"{name} is for exactly {cls.fixed_players} players, not {players}",
                                         param_hint="--players")
            if "players" in opts and opts["players"] != players:  # the same count twice says one thing
                raise click.BadParameter(f"--players {players} and --option players={opts['players']} say two "
                                         f"player counts: give one", param_hint="--players")
            if cls.fixed_players is None:
                opts["players"] = players
        loaded = load(name, **opts)
        specs = parse_bots([bots], loaded)
        # refused here, before the progress header: run_arena checked it only once the
        # "watten arena" line was out
        DuplicateSeating().check(loaded, len(specs))
        jobs = jobs or os.cpu_count() or 1
        # wide enough for bot specs with settings, even when the output goes to a file
        console = make_console(width=max(shutil.get_terminal_size().columns, 120))
        # progress on stderr as the lab shows it (a bar on a terminal, plain lines in a log),
        # so a long arena is seen working and stdout holds the table alone
        with Reporter(Console(stderr=True), quiet) as report:
            # the games really played (whole duplicate groups), so the count ends at its total
            report.set_total(arena_games(loaded, games), f"{name} arena")
            result = run_arena(name, opts, specs, games, seed, jobs, on_progress=report.advance)
    except WasserspieleError as exc:
        raise UsageFailure(str(exc)) from None
    table = Table(title=f"{name}: {len(result.games)} games, seed {seed}, {result.game.players} players")
    # a long bot spec wraps; the figures never do (a narrow terminal or a log file
    # must not cut them to "0.6…")
    table.add_column("bot", justify="left", overflow="fold", ratio=1)
    for col in ("seats", "win rate", "95 % CI", "mean score", "mean place"):
        table.add_column(col, justify="right", no_wrap=True, min_width=len(col))
    for r in result.by_spec():
        rate, score, place = r.win_rate(), r.mean_score(), r.mean_place()
        table.add_row(r.spec, str(r.seats), f"{rate.value:.3f}", f"{rate.low:.3f}–{rate.high:.3f}",
                      f"{score.value:.2f} ± {(score.high - score.low) / 2:.2f}",
                      f"{place.value:.2f} ± {(place.high - place.low) / 2:.2f}")
    console.print(table)
