"""One place that makes the rich console, so colour and width follow the terminal."""

from __future__ import annotations

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
