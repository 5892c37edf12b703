"""Checks of the flags several commands share, made when the command line is read, so that
a flag no run can use is refused before any game is played or any network trained, not
with a traceback once hours of work are done.

* Where a command will write (`--out`, `--data`, `--save`, `--positions`: `writable`):
  `--out afile/report` where `afile` is a file is refused.  A folder that does not exist
  yet is fine when it can be made: the nearest existing folder above it must be a folder
  this user may write in (the writers make the rest).
* How many processes and games a run takes (`--jobs`, `--games` of lab, arena and
  leaderboard: `jobs_problem`, `games_problem`)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ..core.messages import Reason, render
from .language import current_lang


def _problem(path: Path) -> Reason | None:
    """Why nothing can be written at `path` (a file or a folder to be), or None."""
    if path.exists():
        return None if os.access(path, os.W_OK) else Reason("cli.path.not_writable", path=str(path))
    above = path.parent
    while not above.exists() and above != above.parent:
        above = above.parent
    if not above.is_dir():
        return Reason("cli.path.not_a_folder", path=str(above))
    if not os.access(above, os.W_OK | os.X_OK):
        return Reason("cli.path.folder_not_writable", path=str(above))
    return None


def write_problem(path: str | Path) -> Reason | None:
    """Why nothing can be written at `path` (a default file a command picks itself, which no
    callback checks), or None."""
    return _problem(Path(path))


def writable(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A click callback for an option naming a file or folder the command writes."""
    if value is None:
        return None
    problem = _problem(Path(value))
    if problem:
        # in the command line's language: Click refuses it before the command reads its --lang
        lang = current_lang()
        raise click.BadParameter(render("cli.path.cannot_write", {"problem": problem.render(lang)}, lang),
                                 ctx=ctx, param=param)
    return value


# The most --jobs and --games any study, arena or leaderboard takes. A digit too many is
# refused when the command line is read: --jobs 99999999999 ended in the worker pool's
# OverflowError traceback, --games 99999999999 in a MemoryError (the arena, the
# leaderboard) or in days of play (the lab); both are far beyond any real run.
MAX_JOBS = 1024
MAX_GAMES = 10_000_000


def jobs_problem(jobs: int | None) -> Reason | None:
    """Why `--jobs` cannot be used (shared by lab, arena and leaderboard), or None: a Reason,
    English as a str (lab and leaderboard), said in its language by the arena."""
    if jobs is None:
        return None
    if jobs < 1:
        return Reason("cli.flags.jobs_below_1", jobs=jobs)
    if jobs > MAX_JOBS:
        return Reason("cli.flags.jobs_too_many", jobs=jobs, most=MAX_JOBS)
    return None


def games_problem(games: int | None) -> Reason | None:
    """Why a `--games` count is too large to play (its lower bound each command checks), or
    None; a Reason as `jobs_problem`'s."""
    if games is not None and games > MAX_GAMES:
        return Reason("cli.flags.games_too_many", n=games, most=MAX_GAMES)
    return None
