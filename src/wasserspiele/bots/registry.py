"""Bots by name: `make_bot("heuristic", game, seed=1)`."""

from __future__ import annotations

import random
from importlib import import_module
from typing import Callable

from ..core.errors import BadOption
from ..core.manifest import PluginMissing
from ..core.protocol import Game
from .base import Blundering, Bot
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


def _learned(game: Game, seed: int | None, **kwargs) -> Bot:
    from .learned import LearnedBot
    return LearnedBot(seed, game=game, **kwargs)


def _python(game: Game, seed: int | None, factory: str = "", **kwargs) -> Bot:
    """An outside policy: `factory(game, seed)` from `package.module:factory` returns a
    bot (anything with `choose(decision)`; it is handed views only, like every bot)."""
    module_name, colon, attr = factory.rpartition(":")
    if not colon or not module_name or not attr:
        raise BadOption(f"bot 'python': {factory!r} is not package.module:factory")
    if kwargs:
        raise BadOption(f"bot 'python:{factory}': takes no settings (got {', '.join(kwargs)})")
    try:
        module = import_module(module_name)
    except ImportError as exc:
        raise BadOption(f"bot 'python:{factory}': cannot import {module_name} ({exc})") from None
    make = getattr(module, attr, None)
    if not callable(make):
        raise BadOption(f"bot 'python:{factory}': {module_name} has no callable {attr!r}")
    bot = make(game, seed)
    if not callable(getattr(bot, "choose", None)):
        raise BadOption(f"bot 'python:{factory}': the factory returned {bot!r}, which has no choose(decision)")
    return bot


BOT_KINDS: dict[str, Callable[..., Bot]] = {
    "random": lambda game, seed, **kwargs: RandomBot(seed),
    "heuristic": _heuristic,
    "ismcts": _ismcts,
    "learned": _learned,
    "python": _python,
}


def bot_kinds() -> list[str]:
    return list(BOT_KINDS)


def unavailable(kind: str, game: Game) -> str | None:
    """Why a bot of `kind` cannot play `game` as it is set up (None: it can).  Only the
    learned bot depends on more than the game's name: its weights fit one set of options."""
    if kind == "learned":
        from .learned import weights_problem
        return weights_problem(game)
    return None


# Settings every kind of bot takes (`make_bot` applies them around the bot it makes):
# `blunder`, the share of decisions played at random (`base.Blundering`).
COMMON_SETTINGS = ("blunder",)


def make_bot(kind: str, game: Game, seed: int | None = None, **kwargs) -> Bot:
    """A bot of the named kind for `game`, with its own generator seeded by `seed`."""
    factory = BOT_KINDS.get(kind.strip().lower())
    if factory is None:
        raise BadOption(f"unknown bot {kind!r} (bots: {', '.join(BOT_KINDS)})")
    blunder = kwargs.pop("blunder", 0)
    if isinstance(blunder, bool) or not isinstance(blunder, (int, float)) or not 0 <= blunder <= 1:
        raise BadOption(f"blunder={blunder!r}: the share of moves played at random must be a number "
                        f"from 0 to 1")
    bot = factory(game, seed, **kwargs)
    if not blunder:
        return bot
    if not isinstance(getattr(bot, "rng", None), random.Random):
        raise BadOption(f"blunder={blunder!r}: the {kind} bot has no generator of its own to draw its slips from")
    return Blundering(bot, blunder)
