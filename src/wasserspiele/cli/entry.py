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

SIGHUP (the terminal window closed, an ssh connection dropped) is taken as an interrupt too,
for the same reason: its default action ended a study on the spot and lost its report.  What
the command says after it would go to a terminal that is gone (EIO) or a pipe whose reader
went with it (`| tee log`: EPIPE), and the first such write, a line before the report was
written, ended the command with an OSError all the same: standard output and error that lead
nowhere any more are pointed at the null device first (`detach_lost_output`).

What runs before this module is Python's own start and the `wasserspiele` package, which
loads nothing until a name of it is asked for (its __init__), so the window left for
Python's traceback is the interpreter's start-up alone.
"""

from __future__ import annotations

import os
import select
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
# SIGHUP where the platform has it (not on Windows)
SIGHUP: int | None = getattr(signal, "SIGHUP", None)
_hung_up = False  # the owner has taken a hangup as its interrupt already


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP taken as an interrupt: every handling of Ctrl-C serves it, but
    what a Ctrl-C only cancels (a hint being searched, cli/play.py) it still ends."""


# retry in this many seconds an interrupt that came inside a callback from compiled code
INTERRUPT_RETRY_SECONDS = 0.05


# Where Python prints an exception and drops it ("Exception ignored in …"): llvmlite's
# callbacks from compiled code (ctypes), the weak references' callbacks (a WeakSet's
# `_remove`, `weakref.finalize`) and finalizers (`__del__`), run when an object is freed,
# wherever the program is
_DROPPING_MODULES = ("llvmlite.", "_weakrefset", "weakref")


def _dropping(frame) -> bool:
    return frame.f_globals.get("__name__", "").startswith(_DROPPING_MODULES) or frame.f_code.co_name == "__del__"


def _deferred(signum: int, frame) -> bool:
    """Whether the interrupt `signum` arrived inside a callback whose exceptions Python
    prints and drops (`_DROPPING_MODULES`): llvmlite's, while numba compiles a kernel (a
    training's first searches), or a weak reference's, as a bot's search frees its trees.  A
    KeyboardInterrupt raised there was lost, and with it the closed window's only SIGHUP
    (`train` went on to its last generation, one run in four in tests/cli/test_hangups.py; a
    terminal game stopped while a bot thought printed a traceback from `_weakrefset` and
    played on, test_interrupts.py).  The signal is then sent again a moment later, from
    outside the callback."""
    while frame is not None:
        if _dropping(frame):
            import threading
            timer = threading.Timer(INTERRUPT_RETRY_SECONDS, os.kill, (os.getpid(), signum))
            timer.daemon = True
            timer.start()
            return True
        frame = frame.f_back
    return False


def _sigint(signum: int, frame) -> None:
    """Python's own Ctrl-C (KeyboardInterrupt), but one that came inside a callback from
    compiled code is sent again a moment later (`_deferred`): raised there, it was dropped and
    `train` went on to its last generation (CI, tests/cli/test_interrupts.py)."""
    if not _deferred(signum, frame):
        signal.default_int_handler(signum, frame)


def _sigterm(signum: int, frame) -> None:
    if os.getpid() != _owner:
        # a worker forked from the command (the lab's and the arena's process pool) inherits
        # the handler: there SIGTERM is the pool's way to stop it and must end it as before
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        return
    # raised where the main thread is, as Ctrl-C's KeyboardInterrupt is: every command's
    # handling of an interrupt (save, report, table) then serves a SIGTERM too
    if not _deferred(signum, frame):
        raise Stopped


def _sighup(signum: int, frame) -> None:
    global _hung_up
    if os.getpid() != _owner:
        # a worker forked from the command: a closed terminal hangs up the whole process
        # group, and the worker plays the games it holds to the end, as on Ctrl-C (it ignores
        # SIGINT), for the command to keep them; a worker whose command is gone ends all the
        # same (bots/runner.py exit_with_parent)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        return
    detach_lost_output()
    # one hangup comes by several ways (the shell passes it on, the kernel sends it again as
    # the shell ends): not a second Ctrl-C's "stop now", which drops the games under way; one
    # inside a callback from compiled code comes again a moment later (`_deferred`)
    if _hung_up or _deferred(signum, frame):
        return
    _hung_up = True
    raise Stopped


def take_sigterm_as_interrupt() -> None:
    """SIGTERM and SIGHUP from now on raise KeyboardInterrupt in this process, unless
    something else owns them already (a handler set by a program that runs the command line in
    its process; SIGHUP ignored by `nohup`); Ctrl-C's does so even inside a callback from
    compiled code (`_sigint`)."""
    global _owner
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _sigint)
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        _owner = os.getpid()
        signal.signal(signal.SIGTERM, _sigterm)
    if SIGHUP is not None and signal.getsignal(SIGHUP) == signal.SIG_DFL:
        _owner = os.getpid()
        signal.signal(SIGHUP, _sighup)


def release_sigterm() -> None:
    """SIGTERM's and SIGHUP's default action again where `take_sigterm_as_interrupt` took them
    (`serve`: uvicorn's way to stop), and Python's own Ctrl-C."""
    if signal.getsignal(signal.SIGINT) is _sigint:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if signal.getsignal(signal.SIGTERM) is _sigterm:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if SIGHUP is not None and signal.getsignal(SIGHUP) is _sighup:
        signal.signal(SIGHUP, signal.SIG_DFL)


def detach_lost_output() -> bool:
    """Point standard output and error at the null device where they lead nowhere any more: a
    terminal that hung up (writes fail with EIO) or a pipe whose reader has gone (EPIPE; rich
    then ended the process with SystemExit).  What is written after is dropped, from every
    thread (the progress bar's too), and the command goes on to write its files; a stream to
    a file, or to a terminal that is still there, is left as it is.  Standard input from a
    terminal that hung up reads the null device's end of input (it failed with EIO).
    Whether any of the three was lost."""
    poll = getattr(select, "poll", None)
    if poll is None:  # Windows: no hangups to take
        return False
    lost = False
    for fd, mode, flags in ((0, select.POLLIN, os.O_RDONLY), (1, select.POLLOUT, os.O_WRONLY),
                            (2, select.POLLOUT, os.O_WRONLY)):
        poller = poll()
        try:
            poller.register(fd, mode)
            events = poller.poll(0)
        except (OSError, ValueError):  # closed already
            continue
        revents = sum(ev for _, ev in events)
        # POLLHUP alone on standard input is a pipe's end of input, not a loss
        if revents & select.POLLERR or (fd and revents & select.POLLHUP):
            null = os.open(os.devnull, flags)
            try:
                os.dup2(null, fd)
            finally:
                os.close(null)
            lost = True
    return lost


def hung_up() -> None:
    """The command ends for a terminal found gone by a failed read or write (its own way, as
    `play` saves its game): the SIGHUP that follows is the same hangup, taken already, not an
    interrupt of that ending."""
    global _hung_up
    _hung_up = True


def lost_output(exc: OSError) -> bool:
    """Whether `exc`, from a read or write of the standard streams, says that one leads nowhere
    any more (a hung-up terminal, a pipe without a reader): it is then pointed at the null
    device (`detach_lost_output`), and the caller goes on."""
    import errno
    return exc.errno in (errno.EIO, errno.EPIPE) and detach_lost_output()


def said(write: Callable[[], T]) -> T | None:
    """`write()` to the standard streams; one that fails because the terminal hung up or the
    pipe's reader went (EIO, EPIPE) is dropped, and so is every later one (`lost_output`)."""
    try:
        return write()
    except OSError as exc:
        if not lost_output(exc):
            raise
        return None


def say(text: str, err: bool = False) -> None:
    """`click.echo(text)`, dropped as `said` drops a write: a closed window's SIGHUP comes a
    moment after its terminal's hangup, and a log line written in that moment (`train`'s
    generations, `corpus`'s closing line) ended the command with an OSError, not with the
    interrupt the SIGHUP then makes of it (or, with no SIGHUP to come, not at all: the
    work goes on to its files, as a study's does)."""
    import click
    said(lambda: click.echo(text, err=err))


def uninterrupted(write: Callable[[], T]) -> T:
    """Run `write` with Ctrl-C and SIGTERM held off: the work it saves is done, and a
    half-written file (a report, a checkpoint, a board) helps nobody.  A hangup is held off
    too, and taken once `write` has returned: dropped, it left the command running on a
    terminal that is gone (its next line an OSError)."""
    held = (signal.SIGINT, signal.SIGTERM)
    previous = {signum: signal.signal(signum, signal.SIG_IGN) for signum in held}
    hangups: list[int] = []
    if SIGHUP is not None:
        def later(signum: int, frame) -> None:
            detach_lost_output()
            hangups.append(signum)
        previous[SIGHUP] = signal.signal(SIGHUP, later)
    try:
        result = write()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if hangups:
        signal.raise_signal(SIGHUP)  # to whatever takes it now: the interrupt, as it would have been
    return result


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
    if SIGHUP is not None:
        signal.signal(SIGHUP, signal.SIG_IGN)
    from ..core.messages import render
    try:
        sys.stderr.write("\n" + render("cli.usage.aborted", {}, requested_lang(args)) + "\n")
        sys.stderr.flush()
    except OSError as exc:  # the terminal hung up: nobody to tell
        if not lost_output(exc):
            raise
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
