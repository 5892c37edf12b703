"""Checks of the flags several commands share, made when the command line is read, so that
a flag no run can use is refused before any game is played or any network trained, not
with a traceback once hours of work are done.

* Where a command will write (`--out`, `--data`, `--save`, `--positions`: `writable`):
  `--out afile/report` where `afile` is a file is refused.  A folder that does not exist
  yet is fine when it can be made: the nearest existing folder above it must be a folder
  this user may write in (the writers make the rest).
* How many processes and games a run takes (`--jobs`, `--games` of lab, arena and
  leaderboard: `jobs_problem`, `games_problem`).
* Every number a flag takes (`WHOLE`, `DECIMAL`, `WholeRange`, `DecimalRange`): written in
  the ASCII digits its reader sees, as game options and bot settings are."""

from __future__ import annotations

import math

import click

# the most --jobs and --games any study, arena or leaderboard takes, refused when the
# command line is read
from ..bots.limits import MAX_GAMES, MAX_JOBS
from ..core.messages import Reason, render
from ..core.options import number_text
from ..core.paths import write_problem
from .language import current_lang


def writable(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A click callback for an option naming a file or folder the command writes."""
    if value is None:
        return None
    problem = write_problem(value)
    if problem:
        # in the command line's language: Click refuses it before the command reads its --lang
        lang = current_lang()
        raise click.BadParameter(render("cli.path.cannot_write", {"problem": problem.render(lang)}, lang),
                                 ctx=ctx, param=param)
    return value




class _AsWritten:
    """Click's number types read "٣" as 3 and "1_0" as 10, a value the command line does not
    show its reader.  These read only what `core.options.number_text` reads, as the game
    options and bot settings do; the refusal is Click's own "'٣' is not a valid integer",
    said in the command line's language."""

    _kind: type

    def _number_class(self, value):
        return number_text(value, self._kind) if isinstance(value, str) else self._kind(value)


class WholeNumber(_AsWritten, click.types.IntParamType):
    _kind = int


class WholeRange(_AsWritten, click.IntRange):
    _kind = int


class DecimalNumber(_AsWritten, click.types.FloatParamType):
    _kind = float


class DecimalRange(_AsWritten, click.FloatRange):
    """A NaN compares false with both ends, so Click's range let it through (`--bot-delay
    nan` as a bot's pause): refused with Click's own out-of-range words."""

    _kind = float

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if math.isnan(number):
            self.fail(click.types._("{value} is not in the range {range}.").format(
                value=number, range=self._describe_range()), param, ctx)
        return number


WHOLE = WholeNumber()  # for `type=int`
DECIMAL = DecimalNumber()  # for `type=float`


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
