"""One place that makes the rich console, so colour and width follow the terminal, and
shows the progress of long runs (the lab, the arena)."""

from __future__ import annotations

import threading
import unicodedata
from contextlib import contextmanager
from typing import Iterator

import click
from rich.console import Console
from rich.text import Text

from ..core.messages import catalogue, render

# How long a wait goes unremarked before `thinking` shows its spinner: a bot that answers
# at once (random, heuristic) draws nothing, rather than a line that flashes and vanishes
# before every move; a searching bot (hard about 0.1-0.25 s, expert up to about a second,
# Seven Waters' longer) is shown thinking.
THINKING_DELAY = 0.25


def make_console(**kwargs) -> Console:
    return Console(highlight=False, soft_wrap=False, **kwargs)


def clear_screen(console: Console) -> None:
    """Clear the screen and the terminal's scrollback, as `clear` does: between the turns
    of players sharing one screen, the last player's hand (and a secret pick) must not be
    a scroll away (many terminals and tmux keep a cleared screen in the scrollback)."""
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
def thinking(console: Console, text: str, delay: float | None = None) -> Iterator[None]:
    """A spinner and `text` ("Seat 1 (expert) is thinking …") while the block runs, once it
    has run `delay` seconds (default THINKING_DELAY; 0: at once), removed when it ends.
    Only on an interactive terminal: output to a pipe or a file (scripts, tests' captured
    output) is as it was without it.  The spinner is started from a timer thread (the
    kernels the searches run release the GIL: fast/), under a lock so that a block ending
    just then never leaves it running."""
    if not console.is_terminal:
        yield
        return
    delay = THINKING_DELAY if delay is None else delay
    status = console.status(Text(text), spinner="dots")
    lock = threading.Lock()
    state = {"done": False, "shown": False}
    if delay <= 0:
        status.start()
        state["shown"] = True

    def show() -> None:
        with lock:
            if not state["done"]:
                status.start()
                state["shown"] = True

    timer = threading.Timer(delay, show)
    timer.daemon = True
    if not state["shown"]:
        timer.start()
    try:
        yield
    finally:
        timer.cancel()
        with lock:
            state["done"] = True
            if state["shown"]:
                status.stop()


def decimal(value: float, places: int, lang: str) -> str:
    """`value` with `places` decimals as `lang` writes it (0.512, 0,512): Python's rounding
    whatever the language, so the English figures stay those the f-strings printed."""
    from babel.numbers import get_decimal_symbol

    text = f"{value:.{places}f}"
    return text.replace(".", get_decimal_symbol(catalogue(lang).locale)) if lang != "en" else text


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
                rate = "" if speed is None else render("cli.progress.rate", {"rate": decimal(speed, 1, lang), "n": 2},
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
        return self

    def __exit__(self, *exc):
        self.bar.__exit__(*exc)

    def set_total(self, total: int, description: str = "games") -> None:
        self.total = total
        self.bar.update(self.task, total=total, description=description)
        if not self.live and not self.quiet and description != "games":
            click.echo(description, err=True)

    def advance(self, n: int) -> None:
        self.done += n
        self.bar.advance(self.task, n)
        if not self.live and not self.quiet and self.done >= self.next_line:
            click.echo(render("cli.progress.finished", {"done": self.done, "n": self.total}, self.lang), err=True)
            step = max(1, self.total // 10)
            self.next_line = (self.done // step + 1) * step
