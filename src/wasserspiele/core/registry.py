"""The registry of games: `load("wasserloch", players=3, rounds=1)`."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .errors import UnknownGame
from .protocol import Game

# Games are imported on first use so that `wasserspiele --help` stays fast and a
# broken game module cannot stop the others from loading.
_GAMES: dict[str, str] = {
    "wasserloch": "wasserspiele.games.wasserloch.rules:Wasserloch",
    "wildwasser": "wasserspiele.games.wildwasser.rules:Wildwasser",
    "seven_waters": "wasserspiele.games.seven_waters.rules:SevenWaters",
    "watten": "wasserspiele.games.watten.rules:Watten",
}

_loaded: dict[str, type[Game]] = {}


def game_names() -> list[str]:
    """The registered game names, in a fixed order."""
    return list(_GAMES)


def game_class(name: str) -> type[Game]:
    """The Game subclass registered under `name`."""
    key = name.strip().lower().replace("-", "_") if isinstance(name, str) else name
    if key not in _GAMES:
        raise UnknownGame(f"unknown game {name!r} (games: {', '.join(_GAMES)})")
    if key not in _loaded:
        module, _, attr = _GAMES[key].partition(":")
        _loaded[key] = getattr(import_module(module), attr)
    return _loaded[key]


def load(name: str, **options: Any) -> Game:
    """The game `name` with the given options (unknown options or bad values raise BadOption)."""
    return game_class(name)(**options)
