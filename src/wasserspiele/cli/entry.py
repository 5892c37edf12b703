"""The installed `wasserspiele` command ([project.scripts] in pyproject.toml).

Python imports the command line before any of it runs (Click, rich, the records' schema:
about a tenth of a second), and a Ctrl-C in that time ended in a KeyboardInterrupt
traceback and the status of a process killed by the signal.  `main` imports the commands
itself and says an interrupt there as the commands say theirs: one line in the language
of the command line and exit status 130 (cli/main.py, Exit status).

SIGTERM (`kill`, a service manager stopping the command) is taken as Ctrl-C is, so a
terminal game is saved and says how to resume, a study reports the games that finished and
the arena shows its table of them; the default action ended the process on the spot, and a
study's games, held in memory until the report, were lost.  (`serve` hands SIGTERM back to
uvicorn, whose way to stop it is: cli/serve.py.)

What runs before this module is Python's own start and the `wasserspiele` package, which
loads nothing until a name of it is asked for (its __init__), so the window left for
Python's traceback is the interpreter's start-up alone.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Callable, NoReturn, Sequence, TypeVar

T = TypeVar("T")

INTERRUPTED = 130  # cli/main.py, Exit status
# A worker process died under a run (the out-of-memory killer, kill -9, a crash in a compiled
# kernel): the finished games are kept and reported as an interrupt's are, but the run failed,
# so not the interrupt's 130 (lab, lab tune, arena)
WORKER_DIED = 3

_owner: int | None = None  # the process that took SIGTERM as an interrupt


def _sigterm(signum: int, frame) -> None:
    if os.getpid() != _owner:
        # a worker forked from the command (the lab's and the arena's process pool) inherits
        # the handler: there SIGTERM is the pool's way to stop it and must end it as before
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        return
    # raised where the main thread is, as Ctrl-C's KeyboardInterrupt is: every command's
    # handling of an interrupt (save, report, table) then serves a SIGTERM too
    raise KeyboardInterrupt


def take_sigterm_as_interrupt() -> None:
    """SIGTERM from now on raises KeyboardInterrupt in this process, unless something else
    owns it already (a handler set by a program that runs the command line in its process)."""
    global _owner
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        _owner = os.getpid()
        signal.signal(signal.SIGTERM, _sigterm)


def release_sigterm() -> None:
    """SIGTERM's default action again where `take_sigterm_as_interrupt` took it (`serve`)."""
    if signal.getsignal(signal.SIGTERM) is _sigterm:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def uninterrupted(write: Callable[[], T]) -> T:
    """Run `write` with Ctrl-C and SIGTERM held off: the work it saves is done, and a
    half-written file (a report, a checkpoint, a board) helps nobody."""
    held = (signal.SIGINT, signal.SIGTERM)
    previous = {signum: signal.signal(signum, signal.SIG_IGN) for signum in held}
    try:
        return write()
    finally:
        for signum in held:
            signal.signal(signum, previous[signum])


def requested_lang(args: Sequence[str]) -> str:
    """The language a command line asks for with `--lang X` or `--lang=X` (the last one,
    as Click takes it), read before Click parses it (here: before Click is even loaded);
    English when it names none we speak (Click then refuses the value in English, or
    accepts it)."""
    from ..core.messages import supported_lang  # loaded with the package already
    lang = None
    words = iter(args)
    for word in words:
        if word == "--":  # what follows is no option
            break
        if word == "--lang":
            lang = next(words, None)
        elif word.startswith("--lang="):
            lang = word.partition("=")[2]
    return supported_lang(lang) or "en"


def interrupted(args: list[str]) -> NoReturn:
    """Say the interrupt in the command line's language, exit 130.  Ctrl-C is held off while
    it is said: a second one must not end in the traceback the first was kept from."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    from ..core.messages import render
    sys.stderr.write("\n" + render("cli.usage.aborted", {}, requested_lang(args)) + "\n")
    sys.stderr.flush()
    raise SystemExit(INTERRUPTED)


def main(prog_name: str | None = None) -> None:
    """`wasserspiele ARGS`: the Click command line of cli/main.py, a Ctrl-C while it loads
    included (`prog_name` as Click's: the name usage lines give the command)."""
    args = sys.argv[1:]
    try:
        take_sigterm_as_interrupt()
        from .main import main as command
    except KeyboardInterrupt:
        interrupted(args)
    try:
        command(prog_name=prog_name)
    except KeyboardInterrupt:  # past Click's own handling: as it starts, or as it ends
        interrupted(args)
