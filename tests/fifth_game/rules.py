"""Pebbles rules (RULES.md), in the order of the rulebook."""

from __future__ import annotations

import random
from typing import Any, Mapping

from wasserspiele.core.chance import Chance, Shuffle
from wasserspiele.core.errors import BadRecord
from wasserspiele.core.protocol import Game, State

from . import view as _view
from .actions import PLAYS, Play, parse_action
from .manifest import MANIFEST, PEBBLES, ROUNDS
from .state import PebblesData


BAG = Shuffle(range(1, PEBBLES + 1), "bag")  # PB-2: the bag is shuffled once


class Pebbles(Game):
    """Pebbles: sixteen numbered pebbles, four prizes, the highest pebble takes each."""

    manifest = MANIFEST

    def parse_action(self, text: str) -> Play:
        return parse_action(text)

    def validate_setup(self, setup: Mapping[str, Any]) -> None:
        """`{"bags": [[16 numbers]]}`: one permutation of 1..16 (PB-2)."""
        self._setup_keys(setup, ("bags",))
        bags = setup.get("bags")
        if not isinstance(bags, list) or len(bags) > 1:
            raise BadRecord("setup.bags: must be a list holding one bag")
        for i, bag in enumerate(bags):
            if not isinstance(bag, list) or sorted(bag) != list(range(1, PEBBLES + 1)):
                raise BadRecord(f"setup.bags[{i}]: must hold each pebble 1..{PEBBLES} once, got {bag!r}")

    def _initial_state(self, chance: Chance) -> "PebblesState":
        """PB-2: deal four pebbles to each seat, then four prizes face down."""
        s = object.__new__(PebblesState)
        s.game, s.chance, s.history = self, chance, []
        s.players = self.players
        bag = chance.draw("bags", BAG)
        s.hands = [sorted(bag[ROUNDS * k:ROUNDS * (k + 1)]) for k in range(s.players)]
        deal = ROUNDS * s.players
        s.prizes = tuple(bag[deal:deal + ROUNDS])
        s.bag = tuple(bag[deal + ROUNDS:])
        s.round, s.over, s.last = 0, False, None
        s.placed = [None] * s.players
        s.discards = []
        s.won = [[] for _ in range(s.players)]
        s.current = self.options["first_player"]
        return s


class PebblesState(PebblesData, State):
    def to_move(self) -> tuple[int, ...]:
        return () if self.over else (self.current,)

    def is_terminal(self) -> bool:
        return self.over

    def legal_actions(self, seat: int | None = None) -> tuple[Play, ...]:
        """PB-3.1: any pebble of the hand."""
        if self.over or (seat is not None and seat != self.current):
            return ()
        return tuple(PLAYS[n] for n in self.hands[self.current])

    def _why_illegal(self, action: Any, seat: int) -> str | None:
        """PB-3.1: the pebble must be in the player's hand."""
        if type(action) is not Play:
            return f"{action!r} is not a Pebbles action"
        if action.n not in self.hands[seat]:
            return f"seat {seat} holds no pebble {action.n}"
        return None

    def _apply(self, action: Play, seat: int) -> None:
        """PB-3.1, PB-4: place the pebble; the last placement of a round awards the prize."""
        self.hands[seat].remove(action.n)
        self.placed[seat] = action.n
        if None in self.placed:
            self.current = (seat + 1) % self.players
            return
        self.award_prize()

    def award_prize(self) -> None:
        """PB-4, PB-5: the highest pebble takes the prize; after the last round the game ends."""
        top = max(n for n in self.placed if n is not None)
        winner = self.placed.index(top)
        prize = self.prizes[self.round]
        self.won[winner].append(prize)
        self.last = (winner, top, prize)
        self.discards += [n for n in self.placed if n is not None]
        self.placed = [None] * self.players
        if self.round + 1 == ROUNDS:
            self.over = True
        else:
            self.round += 1
            self.current = (self.game.options["first_player"] + self.round) % self.players

    def scores(self) -> list[float]:
        """PB-4: each prize scores its number."""
        return self.totals()

    def winners(self) -> list[int]:
        """PB-5: the highest score wins; ties share."""
        if not self.over:
            return []
        totals = self.totals()
        return [s for s, t in enumerate(totals) if t == max(totals)]

    def view(self, seat: int | None) -> dict[str, Any]:
        return _view.view(self, seat)

    def sample_world(self, seat: int, rng: random.Random) -> "PebblesState":
        return _view.sample_world(self, seat, rng)
