"""`wasserspiele leaderboard`: a round-robin of the levels per game, rated, as Markdown."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import click

from ..core.errors import WasserspieleError
from ..core.registry import game_class, manifests

DEFAULT_BOTS = "easy,medium,hard,expert,learned"


@click.command("leaderboard")
@click.argument("games_", metavar="[GAME]...", nargs=-1)
@click.option("--bots", default=DEFAULT_BOTS, show_default=True, help="the specs to rank (levels or any bot spec)")
@click.option("--games", type=int, default=40, show_default=True, help="games per pairing")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--jobs", type=int, default=None, help="worker processes (default: all cores)")
@click.option("--out", type=click.Path(dir_okay=False), default=None, help="write the Markdown page here")
def leaderboard_cmd(games_, bots, games, seed, jobs, out) -> None:
    """Rank BOTS in each GAME (default: every game) by a seat-rotated round-robin with
    openskill ratings and 95 % intervals; print or write the Markdown (docs/leaderboard.md)."""
    from ..bots.leaderboard import markdown, round_robin
    from ..bots.specs import split_spec_texts
    from .main import UsageFailure
    if games < 1:
        raise click.BadParameter("must be at least 1", param_hint="--games")
    try:
        import openskill  # noqa: F401
    except ImportError:
        raise UsageFailure("the leaderboard needs openskill: pip install 'wasserspiele[lab]'") from None
    names = [game_class(g).name for g in games_] if games_ else [m.name for m in manifests()]
    specs = split_spec_texts([bots])
    boards = []
    try:
        for name in names:
            click.echo(f"{name}: {len(specs) * (len(specs) - 1) // 2} pairings × {games} games", err=True)
            boards.append(round_robin(name, {}, specs, games, seed, jobs or os.cpu_count() or 1))
    except WasserspieleError as exc:
        raise UsageFailure(str(exc)) from None
    # what regenerates the page (jobs change nothing in the results)
    words = ["wasserspiele", "leaderboard", *games_, "--bots", bots, "--games", str(games), "--seed", str(seed)]
    page = markdown(boards, " ".join(shlex.quote(w) for w in words))
    if out:
        Path(out).write_text(page)
        click.echo(f"wrote {out}")
    else:
        click.echo(page)
