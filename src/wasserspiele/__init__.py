"""wasserspiele: four tabletop games behind one protocol."""

from .core.errors import (
    BadNotation, BadOption, BadRecord, GameOver, IllegalAction, NotYourTurn,
    ReplayError, UnknownGame, WasserspieleError,
)
from .core.registry import game_names, load

__version__ = "0.1.0"

__all__ = [
    "load", "game_names", "WasserspieleError", "UnknownGame", "BadOption", "BadNotation",
    "IllegalAction", "NotYourTurn", "GameOver", "BadRecord", "ReplayError", "__version__",
]
