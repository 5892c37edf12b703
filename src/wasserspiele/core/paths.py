"""Whether a file or folder can be written where a caller names it, asked before any work
is done: the command line's --out and --save (cli/flags.py) and a Python caller's report
folder (lab/report.py `write_report`) refuse alike, in the catalogue's words."""

from __future__ import annotations

import os
from pathlib import Path

from .messages import Reason


def write_problem(path: str | Path) -> Reason | None:
    """Why nothing can be written at `path` (a file or a folder to be), or None: it exists
    and is not writable, or the nearest folder above that exists is a file (`afile/out`
    raised NotADirectoryError from mkdir) or not writable (a folder under /proc raised
    FileNotFoundError)."""
    path = Path(path)
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
