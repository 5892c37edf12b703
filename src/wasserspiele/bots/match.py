"""Playing one whole game: the one play-a-game loop of the project.

`play_out` drives any state to its end with a `choose(state, seat)` callback and
an optional `on_step(state, action, seat)` hook; bots (`play_game`), record
replays (`lab.measures.measure_record`) and the many-games runner
(`bots.runner`) all go through it, so a rule of the loop (a cap on the length,
which seat moves) lives in one place.  A bot's choice is applied by `apply_choice`
wherever bots play (this loop, the Gymnasium env's opponents): a choice the engine
refuses is blamed on the bot that made it, not on whoever drives the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Sequence

from ..core.errors import BadNotation, IllegalAction, WasserspieleError
from ..core.messages import Reason, shortened
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


class BotChoiceRefused(WasserspieleError, ValueError):
    """A bot chose an action the engine refused (illegal, or no action of the game at all):
    said as a record's refused action is (`replay.error`: its index, the action, the seat
    and the engine's reason, kept as `refused`), inside `bot.spec` naming the bot by its
    spec; the game and its seed where the caller knows them, so that the game can be played
    again (in the reason, said in any language: the arena's terminal says it in German).
    Raised in place of the engine's error, which would blame the program driving the game
    (the arena's command, a Gymnasium agent's own `step`)."""

    def __init__(self, bot: str, index: int, action: Any, seat: int, refused: Reason, game: str = "",
                 seed: int | None = None):
        self.bot = bot
        self.index = index
        self.action = action
        self.seat = seat
        self.refused = refused
        self.game = game
        self.seed = seed
        # as IllegalAction shows it (an action's str is its notation), cut short: a policy may return anything
        shown = shortened(str(action))
        self.reason = Reason("bot.spec", spec=bot, problem=Reason(
            "replay.error", index=index, action=shown, by=Reason("replay.by_seat", seat=seat), reason=refused))
        if game and seed is not None:
            self.reason = Reason("bot.choice_refused_in_game", problem=self.reason, game=game, seed=seed)
        super().__init__(str(self.reason))

    def __reduce__(self):  # crosses the arena's process pool, as IllegalAction does
        return type(self), (self.bot, self.index, self.action, self.seat, self.refused, self.game, self.seed)


def apply_choice(state: State, action: Any, seat: int, bot: str, seed: int | None = None) -> None:
    """Apply the action the bot `bot` (its spec) chose for `seat`; one the engine refuses
    raises BotChoiceRefused naming that bot, the seat, the action and the engine's reason."""
    try:
        state.apply(action, seat)
    except (BadNotation, IllegalAction) as exc:  # both say why as a Reason
        raise BotChoiceRefused(bot, len(state.history), action, seat, exc.reason, state.game.name, seed) from None


def note_the_chooser(exc: BaseException, bot: str, seat: int, index: int, game: str, seed: int | None) -> None:
    """A bot's own failure while choosing (an outside policy's exception) keeps its type and
    its traceback, which is the policy author's to read, and gains a note naming the bot by
    its spec, the seat, the action and the game's seed, so that the game can be played
    again: a bare traceback named none of them."""
    where = game if seed is None else f"{game} seed {seed}"
    exc.add_note(f"raised by bot spec {bot!r} choosing action {index} for seat {seat} ({where})")


def play_out(state: State, choose: Choose, on_step: OnStep | None = None,
             max_actions: int = MAX_ACTIONS, seed: int | None = None,
             bots: Sequence[str] | None = None) -> State:
    """Apply `choose(state, seat)` for the seat to move until the game ends (or `STOP`).

    `on_step(state, action, seat)` runs after every applied action.  A game that has
    not ended after `max_actions` actions raises (a bot or an engine loops).  `bots`:
    who chooses for each seat (their specs), to blame for a choice the engine refuses
    (`apply_choice`); without it the engine's own error (a record's replay words its own)."""
    history = state.history
    while not state.is_terminal():
        if len(history) >= max_actions:
            where = state.game.name if seed is None else f"{state.game.name} seed {seed}"
            raise RuntimeError(f"{where}: no end after {max_actions} actions")
        seat = state.current_seat
        try:
            action = choose(state, seat)
        except Exception as exc:
            if bots is not None:
                note_the_chooser(exc, bots[seat], seat, len(history), state.game.name, seed)
            raise
        if action is STOP:
            break
        if isinstance(action, Seated):
            seat, action = action
        # applied here, not through apply_choice: no call more per action on the lab's and
        # the arena's path (a try costs nothing until it raises)
        try:
            state.apply(action, seat)
        except (BadNotation, IllegalAction) as exc:
            if bots is None:
                raise
            raise BotChoiceRefused(bots[seat], len(history), action, seat, exc.reason, state.game.name,
                                   seed) from None
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
              on_step: OnStep | None = None, names: Sequence[str] | None = None) -> GameResult:
    """Play one game from `seed` with one bot per seat; bots see views only.  `names`: the
    bots' specs, for an error a bot's choice causes (default: each bot's kind)."""
    if len(bots) != game.players:
        raise ValueError(f"{game.name} needs {game.players} bots, got {len(bots)}")
    names = list(names) if names is not None else [getattr(bot, "kind", type(bot).__name__) for bot in bots]
    state = play_out(game.new_game(seed=seed), bots_choose(bots), on_step, max_actions, seed, names)
    return GameResult(seed, state.scores(), state.winners(), state.returns(), len(state.history), state)
