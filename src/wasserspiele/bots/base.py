"""What a bot sees and the interface every bot implements.

A bot is handed a `Decision`: its seat, its view, the legal actions and a
sampler that deals a world consistent with that view.  The true state never
reaches a bot; the sampler is the only door to hidden information, and it
deals the unseen parts at random.
"""

from __future__ import annotations

import functools
import random
import types
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


def parts(bot: Any) -> list[Any]:
    """Everything `bot` is made of, itself first, each once, in a fixed order: what its
    attributes hold and, where that is a bot (anything with a `choose`: a level's search, a
    learned bot's search, a wrapper's bot), what that one's hold, through lists, tuples,
    dicts, bound methods, partials and the closures of functions (a search's rollout
    policy).  Where the terminal finds the generators a bot carries from move to move
    (cli/play.py `bot_generators`) and the runner the searches whose safety net it counts
    (bots/runner.py `_searches`), without every bot listing them."""
    found: list[Any] = []
    seen: set[int] = set()
    stack = [bot]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        found.append(item)
        if isinstance(item, (list, tuple)):
            inner = list(item)
        elif isinstance(item, dict):
            inner = list(item.values())
        elif isinstance(item, types.MethodType):
            inner = [item.__self__]
        elif isinstance(item, types.FunctionType):
            inner = [cell.cell_contents for cell in item.__closure__ or () if _filled(cell)]
        elif isinstance(item, functools.partial):
            inner = [item.func, *item.args, *item.keywords.values()]
        elif callable(getattr(item, "choose", None)) and hasattr(item, "__dict__"):  # a bot, or a wrapper of one
            inner = list(vars(item).values())
        else:
            continue
        stack.extend(reversed(inner))
    return found


def _filled(cell: Any) -> bool:
    try:
        cell.cell_contents
    except ValueError:  # a closure's variable not bound yet
        return False
    return True


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
