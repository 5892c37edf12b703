"""Difficulty levels players understand, mapped to bots and thinking budgets."""

from __future__ import annotations

from ..core.errors import BadOption
from ..core.protocol import Game
from .base import Bot
from .registry import make_bot

# level -> (bot kind, keyword arguments for that bot); a game's manifest may replace
# some for its own search speed (`search.levels`).  `expert` thinks at most 0.95 s a
# move: its iteration budget is what an idle machine searches in about 0.5–0.9 s
# (bench/ismcts.py), so it normally ends the search and a seeded expert is
# reproducible; the time cap only bites under load.
LEVELS: dict[str, tuple[str, dict]] = {
    "easy": ("random", {}),
    "medium": ("heuristic", {}),
    "hard": ("ismcts", {"iterations": 200, "seconds": 0.5}),
    "expert": ("ismcts", {"iterations": 1500, "seconds": 0.95}),
}


def level_names() -> list[str]:
    return list(LEVELS)


def level_settings(level: str, game: Game) -> tuple[str, dict]:
    """The bot kind and keyword arguments of `level` for `game` (its manifest's budgets applied)."""
    key = level.strip().lower()
    if key not in LEVELS:
        raise BadOption(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    kind, kwargs = LEVELS[key]
    return kind, {**kwargs, **game.manifest.search.levels.get(key, {})}


def bot_for_level(level: str, game: Game, seed: int | None = None) -> Bot:
    """The bot that plays at `level` (easy, medium, hard, expert)."""
    kind, kwargs = level_settings(level, game)
    return make_bot(kind, game, seed, **kwargs)
