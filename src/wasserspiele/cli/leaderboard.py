"""`wasserspiele leaderboard`: a round-robin of the levels per game, rated, as Markdown."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click
from click.core import ParameterSource

from ..core.errors import WasserspieleError
from ..core.paths import write_file
from ..core.registry import game_class, load, manifests
from .language import quoted
from .entry import INTERRUPTED, WORKER_DIED, uninterrupted
from .flags import WHOLE, games_problem, jobs_problem, writable

DEFAULT_BOTS = "easy,medium,hard,expert,learned"


@click.command("leaderboard")
@click.argument("games_", metavar="[GAME]...", nargs=-1)
@click.option("--bots", default=DEFAULT_BOTS, show_default=True,
              help="the specs to rank, weakest first (levels or any bot spec)")
@click.option("--games", type=WHOLE, default=40, show_default=True,
              help="games per pairing of neighbours in --bots (the steps), rounded up to whole groups on "
                   "duplicate deals: every line-up in every seat (team) on the same deal (Wasserloch: 6, "
                   "Watten: 2); the progress line says how many")
@click.option("--far-games", type=WHOLE, default=None,
              help="games per other pairing (default: --games; 0 plays only the neighbours), rounded up "
                   "the same way")
@click.option("--seed", type=WHOLE, default=0, show_default=True)
@click.option("--jobs", type=WHOLE, default=None, help="worker processes (default: all cores)")
@click.option("--data", type=click.Path(dir_okay=False), default=None, callback=writable,
              help="merge the boards into this JSON (the package's is src/wasserspiele/bots/leaderboard.json) "
                   "and render the page from all its boards; a saved pairing gains the games of another "
                   "--seed and is replaced by a replay of its own")
@click.option("--out", type=click.Path(dir_okay=False), default=None, callback=writable,
              help="write the Markdown page here")
@click.option("--page-only", is_flag=True, help="play nothing: render the page from --data")
def leaderboard_cmd(games_, bots, games, far_games, seed, jobs, data, out, page_only) -> None:
    """Rank BOTS in each GAME (default: every game) by a seat-rotated round-robin on
    duplicate deals, with Elo ratings (Bradley–Terry), 95 % intervals and CPU per move; print or
    write the Markdown (docs/leaderboard.md)."""
    # --data reaches `writable` as typed: made a Path by Click, `--data ""` was "." (a folder),
    # passed the check and ended in a traceback once the boards were played
    data = Path(data) if data is not None else None
    from ..bots.leaderboard import (check_bot_count, checked_specs, markdown, pairing_games, pairing_group,
                                    read_boards, replaced_games, round_robin, save_boards)
    from ..bots.runner import WorkerDiedError, default_jobs
    from ..bots.specs import split_spec_texts
    from .main import UsageFailure, WriteFailure
    if games < 1:
        raise click.BadParameter("must be at least 1", param_hint="--games")
    if far_games is not None and far_games < 0:
        raise click.BadParameter("must be 0 or more", param_hint="--far-games")
    for flag, count in (("--games", games), ("--far-games", far_games)):
        if games_problem(count):  # a pairing lists every game's number first: a MemoryError
            raise click.BadParameter(games_problem(count), param_hint=flag)
    if jobs_problem(jobs):  # a huge count ended in the worker pool's OverflowError
        raise click.BadParameter(jobs_problem(jobs), param_hint="--jobs")
    if page_only:
        if data is None:
            raise click.BadParameter("--page-only renders the page from --data: name the file", param_hint="--data")
        if not data.is_file():
            # `read_boards` reads a missing file as no boards (a first run's --data is made
            # by the run), which rendered an empty page here: a typo went unnoticed
            raise click.BadParameter(f"no such file {quoted(data)}: --page-only renders the page from saved "
                                     f"boards (made by a run with --data)", param_hint="--data")
        # --page-only plays nothing: a game or a setting of the play would be dropped without a word
        # (`leaderboard watten --page-only` rendered every game's board)
        ctx = click.get_current_context()
        given = ["GAME"] if games_ else []
        given += [f"--{name.replace('_', '-')}" for name in ("bots", "games", "far_games", "seed", "jobs")
                  if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE]
        if given:
            raise click.BadParameter(f"--page-only plays nothing and renders every board in --data: leave out "
                                     f"{', '.join(given)}", param_hint="--page-only")
        try:
            page = markdown(list(read_boards(data).values()))
        except WasserspieleError as exc:
            raise UsageFailure(str(exc)) from None
        _write(page, out)
        return
    specs = split_spec_texts([bots])
    boards = []
    try:
        check_bot_count(specs)  # before the first announcement
        names = [game_class(g).name for g in games_] if games_ else [m.name for m in manifests()]
        if len(set(names)) != len(names):
            # each game's board was played in full once for every time it was named (by the
            # registry's reading: `watten Watten`, `seven_waters seven-waters` name one game)
            raise click.BadParameter("a game is named twice", param_hint="GAME")
        if data is not None:
            read_boards(data)  # a broken data file stops the run before any play
        for name in names:
            # every spec checked against every game before any play: a spec the last game refuses
            # (a trait only the first game's heuristic has) stopped the run after the earlier
            # games' boards were played, and lost them (--data is saved at the end)
            checked_specs(load(name), specs)
        for name in names:
            # what regenerates this game's board (jobs change nothing in the results)
            words = ["wasserspiele", "leaderboard", name, "--bots", bots, "--games", str(games)]
            if far_games is not None:
                words += ["--far-games", str(far_games)]
            words += ["--seed", str(seed)]
            n = len(specs)
            # what a pairing really plays: `play_pairing` rounds up to whole duplicate
            # groups, and the line must say the count the table will show
            game = load(name)
            near = pairing_games(game, games)
            far = near if far_games is None else pairing_games(game, far_games)
            asked = [f"--{flag} {value}" for flag, value in (("games", games), ("far-games", far_games))
                     if value is not None and pairing_games(game, value) != value]
            rounded = (f" ({', '.join(asked)} rounded up to whole groups of {pairing_group(game)} games: "
                       f"each line-up in every seat (team) on the same deal)" if asked else "")
            click.echo(f"{name}: {n - 1} neighbour pairings × {near} games, "
                       f"{(n - 1) * (n - 2) // 2} others × {far}{rounded}", err=True)
            # a search's CPU safety net that fired in the workers: said once a bot and pairing, after
            # its games (it was a log line a bot and game)
            board = round_robin(name, {}, specs, games, seed, jobs or default_jobs(), far_games=far_games,
                                command=" ".join(shlex.quote(w) for w in words),
                                on_cut_short=lambda reasons: [click.echo(r.render("en"), err=True) for r in reasons])
            boards.append(board)
            if data is not None:
                # each game's board merged into --data as soon as it is played, with Ctrl-C and
                # SIGTERM held off while the file is written: an interrupt in the next game kept
                # none of the boards played before it, and one while writing left half a file
                try:
                    before = read_boards(data).get(name) if data.is_file() else None
                    saved = uninterrupted(lambda: save_boards([board], data))
                except WasserspieleError as exc:
                    # a full disk (WriteFailed), or --data replaced by another file while the games ran
                    # (BadOption: not leaderboard data): the boards played are shown rather than lost
                    # with a traceback or a usage error; --data, written beside itself and renamed,
                    # holds what it held
                    click.echo(markdown(boards))
                    held = f"{data} is as it was before {name}'s board" if data.exists() else f"{data} was not made"
                    raise WriteFailure(f"{exc}; {held}; the page of the boards played "
                                       f"({', '.join(b.game for b in boards)}) is printed above instead") from None
                click.echo(f"wrote {data} ({name})", err=True)
                for line in replaced_games(before, board):
                    click.echo(f"{name}: {line}", err=True)
        if data is not None:
            boards = list(saved.values())
    except (KeyboardInterrupt, WorkerDiedError) as exc:
        if data is None:
            kept = "nothing written (with --data FILE each game's board is kept as soon as it is played)"
        elif boards:
            kept = f"{data} holds the boards of {', '.join(b.game for b in boards)}, the games played to the end"
        else:
            kept = f"no game's board was played to the end: {data} is as it was"
        if isinstance(exc, WorkerDiedError):  # a worker process died (the out-of-memory killer, kill -9)
            click.echo(f"\n{exc.died.reason().render('en')}; the run stopped: {kept}", err=True)
            sys.exit(WORKER_DIED)
        click.echo(f"\ninterrupted: {kept}", err=True)
        sys.exit(INTERRUPTED)
    except WasserspieleError as exc:
        raise UsageFailure(str(exc)) from None
    _write(markdown(boards), out)


def _write(page: str, out: str | None) -> None:
    from ..core.paths import WriteFailed
    from .main import WriteFailure
    if out:
        try:
            write_file(out, page)  # beside it and renamed: a full disk left half a page in place of the old one
        except WriteFailed as exc:
            click.echo(page)
            raise WriteFailure(f"{exc}; {out} is as it was; the page is printed above instead") from None
        click.echo(f"wrote {out}")
    else:
        click.echo(page)
