"""One place that makes the rich console, so colour and width follow the terminal, and
shows the progress of long runs (the lab, the arena)."""

from __future__ import annotations

import codecs
import os
import re
import shutil
import signal
import sys
import threading
import unicodedata
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import click
from rich.console import Console as RichConsole
from rich.text import Text

from ..core.messages import catalogue, render

# How long a wait goes unremarked before `thinking` shows its spinner: a bot that answers
# at once (random, heuristic) draws nothing, rather than a line that flashes and vanishes
# before every move; a searching bot (hard about 0.1-0.25 s, expert up to about a second,
# Seven Waters' longer) is shown thinking.
THINKING_DELAY = 0.25

# What a terminal whose encoding lacks a character (a Latin-1 or ASCII locale,
# PYTHONIOENCODING=ascii) is shown instead of a UnicodeEncodeError's traceback: cards keep
# the notation's suit letters (K♠ → KS, typed back as such), German letters the spelling
# the catalogue's move words accept (`zuege`, `schildkroete`), marks their ASCII look-alike.
FALLBACK = {
    "♠": "S", "♥": "H", "♦": "D", "♣": "C",
    "ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss",
    "–": "-", "—": "-", "…": "...", "„": '"', "“": '"', "”": '"', "‚": "'", "‘": "'", "’": "'",
    "·": "-", "×": "x", "±": "+/-", "≈": "~", "∞": "inf", "→": "->", "←": "<-", "⇶": ">>>",
    "▶": ">", "◀": "<", "✓": "v", "\xa0": " ",
}
FALLBACK_ERRORS = "wasserspiele.fallback"


def _fallback(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler of FALLBACK: a character it does not name is written as its
    letters without accents (é → e), else as `?`."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    out = []
    for ch in error.object[error.start:error.end]:
        sub = FALLBACK.get(ch)
        if sub is None:
            sub = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode("ascii") or "?"
        out.append(sub)
    return "".join(out), error.end


codecs.register_error(FALLBACK_ERRORS, _fallback)


def can_show(text: str, encoding: str | None) -> bool:
    """Whether a stream in `encoding` writes `text` as it is."""
    try:
        text.encode(encoding or "utf-8")
    except UnicodeEncodeError:
        return False
    except LookupError:  # an encoding Python does not know: leave the stream as it is
        return True
    return True


def fit_streams() -> None:
    """Standard output and error in an encoding that lacks the boards' characters write
    them through FALLBACK (where they raised UnicodeEncodeError and the game ended in a
    traceback); standard input in such an encoding reads a byte it cannot decode as �
    (a refusal quotes it) rather than failing."""
    for stream in (sys.stdout, sys.stderr):
        if (hasattr(stream, "reconfigure") and getattr(stream, "errors", None) in ("strict", "backslashreplace")
                and not can_show("".join(FALLBACK), getattr(stream, "encoding", None))):
            stream.reconfigure(errors=FALLBACK_ERRORS)
    stdin = sys.stdin
    if (hasattr(stdin, "reconfigure") and getattr(stdin, "errors", None) == "strict"
            and not can_show("".join(FALLBACK), getattr(stdin, "encoding", None))):
        stdin.reconfigure(errors="replace")


class Console(RichConsole):
    """rich's console, but a stream whose reader has gone (`| tee log` ended with the terminal)
    is pointed at the null device and the command goes on: rich's own answer, SystemExit(1),
    ended a study before its report was written (cli/entry.py, SIGHUP)."""

    def on_broken_pipe(self) -> None:
        from .entry import detach_lost_output
        detach_lost_output()


# Where plain output breaks a line too long for the terminal, best first: between the parts
# of a line (a plain line separates them with a semicolon, then a comma: cli/render.py; a
# list of moves with semicolons, since a move's words may hold commas), then between phrases
# (before a bracket, after a dash or a colon), then between any two words but a figure and
# its sign ("48 %").  A card's words ("king of hearts", "joker 1 as 5") are one part of a
# list, and so kept on one row.
PLAIN_BREAKS = (re.compile(r"(?<=;) +"), re.compile(r"(?<=,) +"), re.compile(r" +(?=\()|(?<= [–—]) +|(?<=:) +"),
                re.compile(r" +(?!%)"))


class PlainConsole(Console):
    """The console of plain output (`play --plain`): a line too long for the terminal is
    broken where its words allow (PLAIN_BREAKS), never inside a card's words.  rich broke
    it at the last space that fitted, so a screen reader or braille display, which reads
    the terminal row by row, read "king of" at the end of one row and "hearts" at the start
    of the next (or "48" and "%")."""

    def print(self, *objects: Any, sep: str = " ", end: str = "\n", soft_wrap: bool | None = None,
              markup: bool | None = None, emoji: bool | None = None, width: int | None = None, **kwargs) -> None:
        if soft_wrap or kwargs.get("no_wrap") or not objects or not all(isinstance(o, str) for o in objects):
            # a line never to be broken (a command to copy), a blank line, or rich's own objects
            super().print(*objects, sep=sep, end=end, soft_wrap=soft_wrap, markup=markup, emoji=emoji, width=width,
                          **kwargs)
            return
        # plain output has no styles: the markup is read for its text alone
        text = sep.join(self.render_str(o, markup=markup, emoji=emoji, highlight=False).plain for o in objects)
        most = max(1, width or self.width)
        rows = "\n".join(row for line in text.split("\n") for row in _indented_rows(line, most))
        super().print(rows, end=end, markup=False, emoji=False, highlight=False, soft_wrap=True)


def _indented_rows(line: str, width: int) -> list[str]:
    """`plain_rows` of a line, each row indented as the line is (a hint's alternatives)."""
    body = line.lstrip(" ")
    indent = line[:len(line) - len(body)]
    if not body or len(indent) * 2 > width:
        return plain_rows(line, width)
    return [indent + row for row in plain_rows(body, width - len(indent))]


def plain_rows(line: str, width: int, level: int = 0) -> list[str]:
    """`line` as rows of at most `width` cells, broken at the first of PLAIN_BREAKS (from
    `level` on) that makes the pieces fit, the pieces packed greedily; a word longer than a
    row is folded, as rich folds it."""
    from rich.cells import cell_len
    if cell_len(line) <= width:
        return [line]
    if level == len(PLAIN_BREAKS):
        from rich.cells import chop_cells
        return chop_cells(line, width)
    rows: list[str] = []
    for piece in PLAIN_BREAKS[level].split(line):
        if rows and cell_len(rows[-1]) + 1 + cell_len(piece) <= width:
            rows[-1] += " " + piece
        else:
            rows.extend(plain_rows(piece, width, level + 1))
    return rows


def make_console(plain: bool = False, **kwargs) -> Console:
    """The console the terminal commands print through; `plain` (`play --plain`): no
    colours or styles at all (rich's color_system=None), for a screen reader or braille
    display that reads the terminal line by line, its long lines broken between words
    that belong apart (PlainConsole)."""
    if plain:
        kwargs.setdefault("color_system", None)
    kwargs.setdefault("highlight", False)
    kwargs.setdefault("soft_wrap", False)
    return PlainConsole(**kwargs) if plain else Console(**kwargs)


def clear_screen(console: Console) -> None:
    """Clear the screen and the terminal's scrollback, as `clear` does: between the turns
    of players sharing one screen, the last player's hand (and a secret pick) must not be
    a scroll away (many terminals and tmux keep a cleared screen in the scrollback).
    A dumb terminal (TERM=dumb: Emacs' shell, some IDE consoles) obeys no escape code:
    rich clears nothing there and ED 3 showed as junk, so the last hand stayed in view;
    it is pushed off the screen with blank lines instead."""
    if console.is_dumb_terminal:
        # rich takes a dumb terminal for 80 x 25; the window may be taller
        console.file.write("\n" * max(console.size.height, shutil.get_terminal_size((80, 25)).lines))
        console.file.flush()
        return
    console.clear()
    if console.is_terminal:
        console.file.write("\x1b[3J")  # ED 3: erase the saved lines
        console.file.flush()


def printable(text: str) -> str:
    """`text` with its control characters written as escapes (`\\x1b[A`), for a line that
    quotes what someone typed or a file holds (play's refusals, main.error_line): an arrow
    key typed where the terminal has no line editing sends an escape sequence into the
    line, and quoted back raw it moved the cursor and garbled the screen."""
    return "".join(c if c in "\n\t" or unicodedata.category(c) != "Cc" else repr(c)[1:-1] for c in text)


@contextmanager
def thinking(console: Console, text: str, delay: float | None = None, plain: bool = False) -> Iterator[None]:
    """A spinner and `text` ("Seat 1 (expert) is thinking …") while the block runs, once it
    has run `delay` seconds (default THINKING_DELAY; 0: at once), removed when it ends.
    Only on an interactive terminal: output to a pipe or a file (scripts, tests' captured
    output) is as it was without it.  The spinner is started from a timer thread (the
    kernels the searches run release the GIL: fast/), under a lock so that a block ending
    just then never leaves it running.
    `plain` (`play --plain`): `text` is said once as a line of its own, no spinner: the
    spinner redraws its line about twelve times a second with a carriage return, and a
    screen reader reads every redraw aloud (or a braille display flickers with it)."""
    if not console.is_terminal:
        yield
        return
    delay = THINKING_DELAY if delay is None else delay
    if plain:
        with _after(delay, lambda: console.print(text, markup=False, emoji=False)):
            yield
        return
    # the dots are Braille cells: a terminal in ASCII or Latin-1 turns the bar instead
    spinner = "dots" if can_show("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏", console.encoding) else "line"
    status = console.status(Text(text), spinner=spinner)
    with _after(delay, status.start, status.stop):
        yield


@contextmanager
def _after(delay: float, start: Callable[[], None], stop: Callable[[], None] | None = None) -> Iterator[None]:
    """`start()` once the block has run `delay` seconds (0: at once), from a timer thread,
    and `stop()` as it ends if it was started; under a lock, so that a block ending just
    then never leaves a spinner running nor has a line land inside what it prints next."""
    lock = threading.Lock()
    state = {"done": False, "started": False}

    def begin() -> None:
        with lock:
            if not state["done"]:
                start()
                state["started"] = True

    timer = None
    if delay <= 0:
        begin()
    else:
        timer = threading.Timer(delay, begin)
        timer.daemon = True
        timer.start()
    try:
        yield
    finally:
        if timer is not None:
            timer.cancel()
        with lock:
            state["done"] = True
            if state["started"] and stop is not None:
                stop()


class Reporter:
    """Progress on stderr: a live bar on a terminal, plain lines (first games, then every
    tenth) when stderr is a file or a pipe, nothing with --quiet; its words in `lang` (the
    arena's; the lab's are English)."""

    def __init__(self, console, quiet: bool, lang: str = "en"):
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)
        from rich.text import Text

        class RateColumn(ProgressColumn):
            def render(self, task):
                speed = task.finished_speed or task.speed
                # a plural entry whose forms agree: a figure with decimals takes the plural ("1.0 games/s")
                rate = "" if speed is None else render("cli.progress.rate", {"rate": speed, "n": 2},
                                                       lang)
                return Text(rate, style="progress.data.speed")

        self.console, self.quiet, self.lang = console, quiet, lang
        self.live = console.is_terminal and not quiet
        self.bar = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                            RateColumn(), TimeElapsedColumn(), TextColumn(render("cli.progress.eta", {}, lang)),
                            TimeRemainingColumn(),
                            console=console, disable=not self.live, transient=False)
        self.task = self.bar.add_task("games", total=None)
        self.done, self.total, self.next_line = 0, 0, 1

    def __enter__(self):
        self.bar.__enter__()
        self._take_interrupts()
        return self

    def __exit__(self, *exc):
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)
        self._say(lambda: self.bar.__exit__(*exc))  # the bar's last drawing

    @staticmethod
    def _say(write: Callable[[], Any]) -> None:
        """`write` progress, dropped where its stream is lost (cli/entry.py `said`): the games
        go on to their report, which an OSError here lost."""
        from .entry import said
        said(write)

    def _take_interrupts(self) -> None:
        """The first Ctrl-C (or SIGTERM or SIGHUP, cli/entry.py) of a run is said: the backends
        keep the games the workers are playing and wait for them (bots/runner.py), minutes of
        an expert's games in which the bar went on as if nothing had been pressed, and a second
        Ctrl-C, pressed for want of an answer, dropped them.  The interrupt itself is raised
        by the handler that was there (Python's, or cli/entry.py's), as before."""
        self.previous: dict[int, Any] = {}
        self.stopping = False
        self.pid = os.getpid()  # a worker forked during the run inherits the handler: it says nothing
        if threading.current_thread() is not threading.main_thread():
            return
        from .entry import SIGHUP, _sighup, _sigint, _sigterm
        ours = [(signal.SIGINT, (signal.default_int_handler, _sigint)), (signal.SIGTERM, (_sigterm,))]
        if SIGHUP is not None:
            ours.append((SIGHUP, (_sighup,)))
        for signum, handlers in ours:
            if signal.getsignal(signum) in handlers:  # a handler someone else set is left alone
                self.previous[signum] = signal.signal(signum, self._stopping)

    def _stopping(self, signum: int, frame) -> None:
        if os.getpid() == self.pid and not self.stopping:
            self.stopping = True
            from .entry import SIGHUP, detach_lost_output
            if signum == SIGHUP:
                detach_lost_output()  # the line goes to a log file still, not to a terminal that is gone
            text = render("cli.progress.stopping", {}, self.lang)
            if self.live:
                self._say(lambda: self.bar.console.print(text, markup=False, highlight=False))  # above the bar
            else:
                self._say(lambda: click.echo(text, err=True))
        self.previous[signum](signum, frame)

    def set_total(self, total: int, description: str = "games") -> None:
        self.total = total
        self.bar.update(self.task, total=total, description=description)
        if not self.live and not self.quiet and description != "games":
            self._say(lambda: click.echo(description, err=True))

    def advance(self, n: int) -> None:
        self.done += n
        self.bar.advance(self.task, n)
        if not self.live and not self.quiet and self.done >= self.next_line:
            line = render("cli.progress.finished", {"done": self.done, "n": self.total}, self.lang)
            self._say(lambda: click.echo(line, err=True))
            step = max(1, self.total // 10)
            self.next_line = (self.done // step + 1) * step
            if self.done < self.total:  # the last line says the whole: 56 games in steps of 5 ended at 55/56
                self.next_line = min(self.next_line, self.total)
