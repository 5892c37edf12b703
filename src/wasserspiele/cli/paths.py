"""Where a command will write, checked when its command line is read: a path that cannot
take the file is refused before any game is played or any network trained, not with a
traceback once hours of work are done (`--out afile/report` where `afile` is a file).

A folder that does not exist yet is fine when it can be made: the nearest existing
folder above it must be a folder this user may write in (the writers make the rest)."""

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
