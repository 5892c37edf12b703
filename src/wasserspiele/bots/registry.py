"""Bots by name: `make_bot("heuristic", game, seed=1)`."""

from __future__ import annotations

from typing import Callable

from ..core.errors import BadOption
from ..core.manifest import PluginMissing
from ..core.protocol import Game
from .base import Bot
from .random_bot import RandomBot


def _heuristic(game: Game, seed: int | None, **kwargs) -> Bot:
    try:
        cls = game.manifest.plugin("heuristic")
    except PluginMissing:
        raise BadOption(f"bot 'heuristic': there is no heuristic bot for {game.name} yet "
                        f"(use random or ismcts)") from None
    return cls(seed=seed, **kwargs)


def _ismcts(game: Game, seed: int | None, **kwargs) -> Bot:
    from .ismcts import ISMCTSBot, search_defaults
    return ISMCTSBot(seed, game=game, **{**search_defaults(game), **kwargs})


BOT_KINDS: dict[str, Callable[..., Bot]] = {
    "random": lambda game, seed, **kwargs: RandomBot(seed),
    "heuristic": _heuristic,
    "ismcts": _ismcts,
}


def bot_kinds() -> list[str]:
    return list(BOT_KINDS)


def make_bot(kind: str, game: Game, seed: int | None = None, **kwargs) -> Bot:
    """A bot of the named kind for `game`, with its own generator seeded by `seed`."""
    factory = BOT_KINDS.get(kind.strip().lower())
    if factory is None:
        raise BadOption(f"unknown bot {kind!r} (bots: {', '.join(BOT_KINDS)})")
    return factory(game, seed, **kwargs)
