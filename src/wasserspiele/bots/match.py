"""Playing whole games between bots: the loop the CLI, tests and the lab share."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from ..core.protocol import Game, State
from .base import Bot, decision_for


@dataclass
class GameResult:
    seed: int
    scores: list[float]
    winners: list[int]
    returns: list[float]
    actions: int
    state: State


def play_game(game: Game, bots: Sequence[Bot], seed: int, max_actions: int = 100_000) -> GameResult:
    """Play one game from `seed` with one bot per seat; bots see views only."""
    if len(bots) != game.players:
        raise ValueError(f"{game.name} needs {game.players} bots, got {len(bots)}")
    state = game.new_game(seed=seed)
    while not state.is_terminal():
        if len(state.history) >= max_actions:
            raise RuntimeError(f"{game.name} seed {seed}: no end after {max_actions} actions")
        seat = state.current_seat
        action = bots[seat].choose(decision_for(state, seat))
        state.apply(action, seat)
    return GameResult(seed, state.scores(), state.winners(), state.returns(), len(state.history), state)


def seat_rotated_win_rate(game: Game, make_a, make_b, games: int, seed: int = 0) -> tuple[float, int]:
    """Share of the available win credit taken by bot A seated once in every seat in
    turn against B bots in the other seats (team games: A plays one team).

    Returns (A's mean share of wins, games played).  make_a/make_b take a seed.
    """
    rng = random.Random(seed)
    total = 0.0
    teams = game.teams
    for i in range(games):
        team = teams[i % len(teams)]
        bots = [make_a(rng.randrange(2**31)) if s in team else make_b(rng.randrange(2**31))
                for s in range(game.players)]
        result = play_game(game, bots, seed=rng.randrange(2**63))
        total += sum(result.returns[s] for s in team) / len(team)
    return total / games, games
