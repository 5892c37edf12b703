"""Difficulty levels players understand, mapped to bots and thinking budgets."""

from __future__ import annotations

from ..core.errors import BadOption
from ..core.messages import Reason
from ..core.protocol import Game
from .base import Bot
from .registry import make_bot, unavailable

# level -> (bot kind, keyword arguments for that bot); a game's manifest may replace
# some for its own search speed (`search.levels`).  Search levels are budgeted in
# iterations, so a seeded bot makes the same move on a busy machine as on an idle one;
# `expert`'s budgets are what one idle core searches in about 0.5–0.9 s (`./dev bench
# search`, docs/performance.md).  `cpu_seconds` is a safety net on the search's CPU
# time (about twice the budget's cost) that is logged when it fires (a search given
# none keeps bots/ismcts.py's DEFAULT_CPU_SECONDS).
LEVELS: dict[str, tuple[str, dict]] = {
    "easy": ("random", {}),
    "medium": ("heuristic", {}),
    "hard": ("ismcts", {"iterations": 200, "cpu_seconds": 1.0}),
    "expert": ("ismcts", {"iterations": 1500, "cpu_seconds": 2.0}),
}


# The CPU time per move each level is meant to stay within on one idle core: easy and
# medium answer at once, hard thinks a moment, expert about a second at most.  The
# leaderboard measures every level's CPU per move (docs/leaderboard.md) and
# tests/bots/test_leaderboard.py holds the saved figures to these budgets.
CPU_BUDGET: dict[str, float] = {"easy": 0.01, "medium": 0.01, "hard": 0.25, "expert": 1.0}


# The kinds whose thinking time per move depends on the compiled kernels (their rollouts):
# a game's own bot of such a kind for a level plays only with them (`level_settings`).
SEARCHING = frozenset({"ismcts", "learned"})


def level_names() -> list[str]:
    return list(LEVELS)


def level_settings(level: str, game: Game) -> tuple[str, dict]:
    """The bot kind and keyword arguments of `level` for `game`: the game's own bot for
    the level where its manifest names one and it can play here (`level_bots`), else the
    level's kind with the manifest's budgets applied."""
    key = level.strip().lower()
    if key not in LEVELS:
        raise BadOption(Reason("bot.unknown_level", level=level, levels=", ".join(LEVELS)))
    kind, kwargs = LEVELS[key]
    search = game.manifest.search
    own = search.level_bots.get(key)
    if own is not None and unavailable(own[0], game) is None and (own[0] not in SEARCHING or _compiled()):
        return own[0], dict(own[1])
    if key in search.python_levels and not _compiled():
        return kind, {**kwargs, **search.levels.get(key, {}), **search.python_levels[key]}
    return kind, {**kwargs, **search.levels.get(key, {})}


def _compiled() -> bool:
    from ..fast import COMPILED  # imports numba: only for a game that needs to know
    return COMPILED


def bot_for_level(level: str, game: Game, seed: int | None = None) -> Bot:
    """The bot that plays at `level` (easy, medium, hard, expert)."""
    kind, kwargs = level_settings(level, game)
    return make_bot(kind, game, seed, **kwargs)
