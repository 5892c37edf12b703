"""The Pebbles position as data."""

from __future__ import annotations

from collections import Counter
from typing import Any


class PebblesData:
    """`hands[s]` sorted pebbles; `prizes` the two prizes in round order; `bag` the unseen rest;
    `placed[s]` this round's pebble of seat s (None before it plays); `won[s]` prizes taken."""

    __slots__ = ("game", "chance", "history", "players", "round", "current", "placed",
                 "hands", "prizes", "bag", "discards", "won", "last", "over")

    def clone(self):
        c = object.__new__(type(self))
        c.game, c.chance, c.history = self.game, self.chance.clone(), self.history.copy()
        c.players, c.round, c.current, c.over = self.players, self.round, self.current, self.over
        c.placed = self.placed.copy()
        c.hands = [h.copy() for h in self.hands]
        c.prizes, c.bag, c.last = self.prizes, self.bag, self.last
        c.discards = self.discards.copy()
        c.won = [w.copy() for w in self.won]
        return c

    def components(self) -> Counter:
        """The nine pebbles, wherever they lie (a prize counts once, face down or taken)."""
        c: Counter = Counter()
        for zone in (*self.hands, self.prizes, self.bag, self.discards):
            c.update(f"pebble {n}" for n in zone)
        c.update(f"pebble {n}" for n in self.placed if n is not None)
        return c

    def totals(self) -> list[int]:
        return [sum(w) for w in self.won]

    def state_json(self) -> dict[str, Any]:
        return {"round": self.round + 1, "to_move": None if self.over else self.current,
                "hands": [list(h) for h in self.hands], "prizes": list(self.prizes), "bag": list(self.bag),
                "placed": list(self.placed), "discards": sorted(self.discards),
                "won": [list(w) for w in self.won], "scores": self.totals(), "over": self.over}
