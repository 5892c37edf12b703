"""Playing a study's games in a game's compiled kernel when that gives the same table.

A game whose measures class offers `kernel_games(game, game_seeds, bot_seeds)` can play
the lab's games with the random bot (`bots.random_bot`) in every seat in its compiled
kernel: the kernel draws the deal and every bot's choice from CPython's generator seeded
as the engine and the bots seed theirs (`wasserspiele.fast.mt_seed`), so it plays the
very games the engine path plays and returns their scores, plays, measures and lead
changes.  tests/lab/test_kernels.py checks whole studies row for row against the engine.

Anything else — another bot, numba not installed (the pure-Python fallback of the
kernel is slower than the engine), a measures class that is not the one that offers the
kernel — plays through the engine, and `kernel_note` says which path a study took and
why, for the report.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..bots.random_bot import RandomBot
from ..bots.runner import Played, Series
from ..core.protocol import Game
from .measures import measures_class


def kernel_reason(study: Any, game: Game) -> str | None:
    """Why the games of `study` under `game`'s options cannot be played in a kernel, or
    None when they can (the kernel then plays exactly the engine's games)."""
    from ..fast import COMPILED
    kernel_games = getattr(measures_class(game), "kernel_games", None)
    if kernel_games is None:
        return f"{game.name} has no kernel for the lab"
    if not study.kernels:
        return "fast paths switched off for this study"
    if not COMPILED:  # (with numba there, NUMBA_DISABLE_JIT is what switched it off)
        from ..fast import numba
        return ("numba is not installed (the optional extra `fast`)" if numba is None
                else "numba's compilation is switched off (NUMBA_DISABLE_JIT)")
    others = sorted({spec.text for spec in study.bots if type(spec.make(game, 0)) is not RandomBot})
    if others:
        return f"the kernel plays only the random bot, not {', '.join(f'`{t}`' for t in others)}"
    if any(len(team) != 1 for team in game.teams):
        return "the kernel counts the lead per player, and this game has teams"
    return None


def kernel_note(study: Any) -> str | None:
    """A sentence for the report on how the study's games were played: in a compiled
    kernel, in lockstep batches (lab/lockstep.py), or through the engine and why (None
    when there was no choice: a game without a lab kernel, and not every seat learned)."""
    from .lockstep import all_learned, lockstep_reason
    games = [cond.load(study.game) for cond in study.conditions]
    has_kernel = any(getattr(measures_class(g), "kernel_games", None) is not None for g in games)
    learned = all_learned(study)
    if not has_kernel and not learned:
        return None
    reasons = {kernel_reason(study, g) for g in games} if has_kernel else set()
    if reasons == {None}:
        return (f"Played in the compiled {study.game} kernel: the same deals and the same bot choices as the "
                f"Python engine from the same seeds, so the same results, many times faster.")
    if learned:
        lockstep = {lockstep_reason(study, g) for g in games}
        if lockstep == {None}:
            from .lockstep import kernel_plugin
            inside = (f" (the games themselves in the compiled {study.game} kernel)"
                      if all(kernel_plugin(g) is not None for g in games) else "")
            return (f"Played in lockstep{inside}: the games of a chunk advance together and the learned bots' "
                    "network runs once for every seat to move, each game the very game the Python engine plays "
                    "alone from the same seeds, so the same results, several times faster.")
        reasons |= lockstep
    why = "; ".join(sorted(r for r in reasons if r))
    where = f"the compiled {study.game} kernel" if has_kernel else "lockstep batches"
    return f"Played through the Python engine, not {where}: {why}."


def play_in_kernel(series: Series, game: Game, indices: Sequence[int]) -> list[Played]:
    """Games `indices` of `series` (all seats random bots, as `kernel_reason` checked),
    as `Series.play` would have played them, with the lab's measures (lab/study.Watch)."""
    from .study import LEAD_CHANGES
    n = len(series.bots)
    seats = range(game.players)
    seed_of, bot_seed = series.seating.game_seed, series.seating.bot_seed
    seeds = [seed_of(series.seed, i, game, n) for i in indices]
    bot_seeds = [[bot_seed(series.seed, i, s) for s in seats] for i in indices]
    played = []
    for i, seed, g in zip(indices, seeds, measures_class(game).kernel_games(game, seeds, bot_seeds)):
        won = g["winners"]
        share = 1.0 / len(won)  # State.returns: every seat is its own team (kernel_reason)
        played.append(Played(i, seed, series.seating.lineup(game, n, i, series.seed), g["scores"], won,
                             [share if s in won else 0.0 for s in seats], g["actions"],
                             {**g["measures"], LEAD_CHANGES: g["lead_changes"]}))
    return played
