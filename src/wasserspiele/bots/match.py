"""Playing one whole game: the one play-a-game loop of the project.

`play_out` drives any state to its end with a `choose(state, seat)` callback and
an optional `on_step(state, action, seat)` hook; bots (`play_game`), record
replays (`lab.measures.measure_record`) and the many-games runner
(`bots.runner`) all go through it, so a rule of the loop (a cap on the length,
which seat moves) lives in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Sequence

from ..core.protocol import Game, State
from .base import Bot, decision_for

MAX_ACTIONS = 100_000

STOP = object()
"""What `choose` returns to end the loop before the game is over (a record ran out)."""


class Seated(NamedTuple):
    """What `choose` returns to act for another pending seat than the lowest (a recorded
    simultaneous pick names its seat)."""

    seat: int
    action: Any

Choose = Callable[[State, int], Any]
OnStep = Callable[[State, Any, int], None]


def play_out(state: State, choose: Choose, on_step: OnStep | None = None,
             max_actions: int = MAX_ACTIONS, label: str = "") -> State:
    """Apply `choose(state, seat)` for the seat to move until the game ends (or `STOP`).

    `on_step(state, action, seat)` runs after every applied action.  A game that has
    not ended after `max_actions` actions raises (a bot or an engine loops)."""
    history = state.history
    while not state.is_terminal():
        if len(history) >= max_actions:
            where = f" {label}" if label else ""
            raise RuntimeError(f"{state.game.name}{where}: no end after {max_actions} actions")
        seat = state.current_seat
        action = choose(state, seat)
        if action is STOP:
            break
        if isinstance(action, Seated):
            seat, action = action
        state.apply(action, seat)
        if on_step is not None:
            on_step(state, action, seat)
    return state


def bots_choose(bots: Sequence[Bot]) -> Choose:
    """The `choose` of a table of bots: the seat's bot decides from its own view."""
    return lambda state, seat: bots[seat].choose(decision_for(state, seat))


@dataclass
class GameResult:
    seed: int
    scores: list[float]
    winners: list[int]
    returns: list[float]
    actions: int
    state: State


def play_game(game: Game, bots: Sequence[Bot], seed: int, max_actions: int = MAX_ACTIONS,
              on_step: OnStep | None = None) -> GameResult:
    """Play one game from `seed` with one bot per seat; bots see views only."""
    if len(bots) != game.players:
        raise ValueError(f"{game.name} needs {game.players} bots, got {len(bots)}")
    state = play_out(game.new_game(seed=seed), bots_choose(bots), on_step, max_actions, f"seed {seed}")
    return GameResult(seed, state.scores(), state.winners(), state.returns(), len(state.history), state)
