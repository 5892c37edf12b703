"""Bots by name: `make_bot("heuristic", game, seed=1)`."""

from __future__ import annotations

import inspect
import random
from importlib import import_module
from typing import Callable

from ..core.errors import BadOption
from ..core.manifest import PluginMissing
from ..core.messages import Reason
from ..core.protocol import Game
from .base import Blundering, Bot
from .random_bot import RandomBot


def _heuristic(game: Game, seed: int | None, **kwargs) -> Bot:
    try:
        cls = game.manifest.plugin("heuristic")
    except PluginMissing:
        raise BadOption(Reason("bot.no_heuristic", game=game.name)) from None
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
    # what was typed is quoted by the catalogue (`quote`), in the reader's language
    spec = f"python:{factory}"
    module_name, colon, attr = factory.rpartition(":")
    if not colon or not module_name or not attr:
        raise BadOption(Reason("bot.python_not_factory", factory=factory))
    # settings typed after the factory (`python:mybots:make:x=1`) were read as a module
    # named `mybots:make` that cannot be imported
    typed = [part.partition("=")[0].strip() for part in attr.split(",")] if "=" in attr else []
    if kwargs or typed:
        raise BadOption(Reason("bot.python_no_settings", spec=spec, names=", ".join([*kwargs, *typed])))
    try:
        module = import_module(module_name)
    except ImportError as exc:  # Python's own words say why (as a file's cannot_read does)
        # the module itself (or its package) not found: the `wasserspiele` command, unlike
        # `python -m wasserspiele`, does not look in the current folder, and says where it looks
        missing = isinstance(exc, ModuleNotFoundError) and exc.name is not None \
            and (module_name == exc.name or module_name.startswith(exc.name + "."))
        raise BadOption(Reason("bot.python_not_found" if missing else "bot.python_import", spec=spec,
                               module=module_name, error=str(exc))) from None
    make = getattr(module, attr, None)
    if not callable(make):
        raise BadOption(Reason("bot.python_not_callable", spec=spec, module=module_name, attr=attr))
    bot = make(game, seed)
    if not callable(getattr(bot, "choose", None)):  # the object as Python shows it: it is code, not typed text
        raise BadOption(Reason("bot.python_no_choose", spec=spec, bot=repr(bot)))
    return bot


BOT_KINDS: dict[str, Callable[..., Bot]] = {
    "random": lambda game, seed: RandomBot(seed),
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


# Arguments of a bot's constructor that are not settings: the factory passes them, or they
# are objects (a learned guide, a network) no spec can spell.
_NOT_SETTINGS = frozenset({"self", "seed", "game", "guide", "network"})


def _bot_class(kind: str, game: Game) -> type | None:
    """The class a kind's factory builds (None: `python`, whose factory is the user's)."""
    if kind == "random":
        return RandomBot
    if kind == "heuristic":
        try:
            return game.manifest.plugin("heuristic")
        except PluginMissing:
            return None  # the factory says so
    if kind == "ismcts":
        from .ismcts import ISMCTSBot
        return ISMCTSBot
    if kind == "learned":
        from .learned import LearnedBot
        return LearnedBot
    return None


def bot_settings(kind: str, game: Game) -> tuple[str, ...] | None:
    """The settings (keyword arguments) a bot of `kind` takes for `game`, besides
    COMMON_SETTINGS, read from its constructor; None if the kind's factory checks its own."""
    cls = _bot_class(kind, game)
    if cls is None:
        return None
    params = inspect.signature(cls.__init__).parameters.values()
    return tuple(p.name for p in params if p.name not in _NOT_SETTINGS
                 and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))


def check_settings(kind: str, game: Game, settings) -> None:
    """Refuse a setting the bot of `kind` does not take, naming the ones it does: a
    misspelt setting must never be passed on to fail as a TypeError (or, for a bot that
    takes none, be ignored).  Values are the constructor's to check (it knows their
    range: `iterations=abc` and `iterations=0` are one refusal, from a spec or a call)."""
    known = bot_settings(kind, game)
    if known is None:
        return
    unknown = [k for k in settings if k not in known and k not in COMMON_SETTINGS]
    if unknown:
        takes = ", ".join((*known, *COMMON_SETTINGS))
        raise BadOption(Reason("bot.unknown_setting", kind=kind, name=unknown[0], settings=takes))


def make_bot(kind: str, game: Game, seed: int | None = None, **kwargs) -> Bot:
    """A bot of the named kind for `game`, with its own generator seeded by `seed`."""
    kind = kind.strip().lower()
    factory = BOT_KINDS.get(kind)
    if factory is None:
        raise BadOption(Reason("bot.unknown", kind=kind, bots=", ".join(BOT_KINDS)))
    check_settings(kind, game, kwargs)
    blunder = kwargs.pop("blunder", 0)
    if isinstance(blunder, bool) or not isinstance(blunder, (int, float)) or not 0 <= blunder <= 1:
        raise BadOption(Reason("bot.blunder", value=blunder))  # `{value:shown}`: 'abc' typed, true as JSON
    bot = factory(game, seed, **kwargs)
    if not blunder:
        return bot
    if not isinstance(getattr(bot, "rng", None), random.Random):
        raise BadOption(Reason("bot.blunder_no_rng", value=blunder, kind=kind))
    return Blundering(bot, blunder)
