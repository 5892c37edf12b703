"""One place that makes the rich console, so colour and width follow the terminal, and
shows the progress of long runs (the lab, the arena)."""

from __future__ import annotations

import click
from rich.console import Console


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


class Reporter:
    """Progress on stderr: a live bar on a terminal, plain lines (first games, then every
    tenth) when stderr is a file or a pipe, nothing with --quiet."""

    def __init__(self, console, quiet: bool):
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)
        from rich.text import Text

        class RateColumn(ProgressColumn):
            def render(self, task):
                speed = task.finished_speed or task.speed
                return Text("" if speed is None else f"{speed:.1f} games/s", style="progress.data.speed")

        self.console, self.quiet = console, quiet
        self.live = console.is_terminal and not quiet
        self.bar = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                            RateColumn(), TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
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
            click.echo(f"{self.done}/{self.total} games finished", err=True)
            step = max(1, self.total // 10)
            self.next_line = (self.done // step + 1) * step
