"""A test-only game with an option whose effect on seat fairness is known exactly.

Two players each roll one die in turn; the higher total wins, equal totals share the win.
`handicap` points are added to seat 0's roll, so `handicap=0` is the one fair value and the
further from 0, the less fair the seats (the dice are symmetric)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Mapping

from wasserspiele.core.chance import Uniform
from wasserspiele.core.errors import BadRecord
from wasserspiele.core.manifest import GameManifest, Limits
from wasserspiele.core.options import Option
from wasserspiele.core.protocol import Game, State

MANIFEST = GameManifest(
    name="dice_duel",
    title={"en": "Dice duel (tests only)"},
    game=f"{__name__}:DiceDuel",
    players=(2, 2),
    options=(Option("handicap", 0, "int", "points added to seat 0's roll", minimum=-5, maximum=5),),
    notation="roll",
    limits=Limits(max_game_length=4, max_chance_outcomes=6, num_distinct_actions=1),
)


class DiceDuel(Game):
    manifest = MANIFEST

    def _initial_state(self, chance) -> "DuelState":
        return DuelState(self, chance)

    def validate_setup(self, setup: Mapping[str, Any]) -> None:
        self._setup_keys(setup, ("dice",))
        if not all(isinstance(d, int) and 1 <= d <= 6 for d in setup.get("dice", [])):
            raise BadRecord("setup.dice: every die is a number 1 to 6")

    def parse_action(self, text: str) -> str:
        return text.strip()


class DuelState(State):
    def __init__(self, game: DiceDuel, chance):
        self.game, self.chance, self.history, self.rolls = game, chance, [], []

    def to_move(self) -> tuple[int, ...]:
        return () if len(self.rolls) == 2 else (len(self.rolls),)

    def is_terminal(self) -> bool:
        return len(self.rolls) == 2

    def legal_actions(self, seat: int | None = None):
        return () if self.is_terminal() else ("roll",)

    def _why_illegal(self, action, seat: int) -> str | None:
        return None if action == "roll" else "the only move is 'roll'"

    def _apply(self, action, seat: int) -> None:
        self.rolls.append(self.chance.draw("dice", Uniform((1, 2, 3, 4, 5, 6), "die")))

    def clone(self) -> "DuelState":
        c = DuelState(self.game, self.chance.clone())
        c.history, c.rolls = list(self.history), list(self.rolls)
        return c

    def scores(self) -> list[float]:
        s = [float(r) for r in self.rolls] + [0.0] * (2 - len(self.rolls))
        if self.rolls:
            s[0] += self.game.options["handicap"]
        return s

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        s = self.scores()
        return [i for i in (0, 1) if s[i] == max(s)]

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"rolls": list(self.rolls)}

    def sample_world(self, seat: int, rng: random.Random) -> "DuelState":
        c = self.clone()
        c.chance = self.chance.blind(rng)
        return c

    def components(self) -> Counter:
        return Counter({"die": 2})

    def state_json(self) -> dict[str, Any]:
        return {"rolls": list(self.rolls)}
