"""What a bot sees and the interface every bot implements.

A bot is handed a `Decision`: its seat, its view, the legal actions and a
sampler that deals a world consistent with that view.  The true state never
reaches a bot; the sampler is the only door to hidden information, and it
deals the unseen parts at random.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable

from ..core.protocol import Action, Game, State


@dataclass(frozen=True)
class Decision:
    """Everything a bot may use to choose one action."""

    game: Game
    seat: int
    view: dict[str, Any]
    legal: tuple[Action, ...]
    sample: Callable[[random.Random], State]  # a world consistent with `view`, dealt from the given rng


def decision_for(state: State, seat: int) -> Decision:
    """Build the Decision for `seat` from a state, without exposing the state."""
    return Decision(
        game=state.game,
        seat=seat,
        view=state.view(seat),
        legal=tuple(state.legal_actions(seat)),
        sample=lambda rng, _s=state, _seat=seat: _s.sample_world(_seat, rng),
    )


class Bot(ABC):
    """A player program with its own seeded generator (never the game's chance)."""

    kind: str = "bot"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, decision: Decision) -> Action:
        """One of `decision.legal`."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


class Blundering(Bot):
    """`bot` with a casual player's slips: in a share `blunder` of its decisions with a
    choice it plays a legal move drawn uniformly instead of its own.  Where one bot is
    clearly stronger than the next weaker one, the same bot with slips is a level between
    them (bots/levels.py).  The coin and the slip are drawn from the bot's own generator:
    one generator, so a seed still fixes every move, and a caller that reseeds the bot
    per decision (web/botpool.py) reseeds both."""

    def __init__(self, bot: Bot, blunder: float):
        self.bot = bot
        self.blunder = blunder
        self.kind = bot.kind

    @property
    def rng(self) -> random.Random:
        return self.bot.rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self.bot.rng = value

    def choose(self, decision: Decision) -> Action:
        legal = decision.legal
        if len(legal) > 1 and self.rng.random() < self.blunder:
            return legal[self.rng.randrange(len(legal))]
        return self.bot.choose(decision)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.bot!r} blunder={self.blunder}>"
