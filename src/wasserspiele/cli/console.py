"""One place that makes the rich console, so colour and width follow the terminal."""

from __future__ import annotations

from rich.console import Console


def make_console(**kwargs) -> Console:
    return Console(highlight=False, soft_wrap=False, **kwargs)
