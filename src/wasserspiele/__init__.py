"""wasserspiele: four tabletop games behind one protocol.

    >>> from wasserspiele import game_names, load
    >>> {"seven_waters", "wasserloch", "watten", "wildwasser"} <= set(game_names())  # and plug-ins' games
    True
    >>> state = load("wasserloch", players=3).new_game(seed=1)
    >>> state.apply(state.legal_actions()[0])  # the seat to move plays
    >>> state.is_terminal()
    False

The errors every refusal raises are here too (IllegalAction, BadRecord, …); the games'
interfaces for learning are in `wasserspiele.adapters`, the bots in `wasserspiele.bots`.
"""

# The names are loaded when first asked for (PEP 562): the installed command imports this
# package before any of its code runs, and the errors' message catalogues (Babel) and the
# registry (importlib.metadata) took 60 ms that a Ctrl-C could not be said in (cli/entry.py).

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# name -> the module that defines it
_EXPORTS = {
    **dict.fromkeys(("BadNotation", "BadOption", "BadRecord", "GameOver", "IllegalAction", "NotYourTurn",
                     "ReplayError", "UnknownGame", "WasserspieleError"), ".core.errors"),
    **dict.fromkeys(("game_names", "load"), ".core.registry"),
}

__all__ = [
    "load", "game_names", "WasserspieleError", "UnknownGame", "BadOption", "BadNotation",
    "IllegalAction", "NotYourTurn", "GameOver", "BadRecord", "ReplayError", "__version__",
]

if TYPE_CHECKING:  # what type checkers and editors see
    from .core.errors import (
        BadNotation, BadOption, BadRecord, GameOver, IllegalAction, NotYourTurn,
        ReplayError, UnknownGame, WasserspieleError,
    )
    from .core.registry import game_names, load


def __getattr__(name: str) -> Any:
    try:
        module = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module 'wasserspiele' has no attribute {name!r}") from None
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value  # asked once: a plain attribute from then on
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
