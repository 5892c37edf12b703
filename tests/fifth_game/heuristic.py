"""A Pebbles bot: fight for a big prize, save the big pebble for it."""

from __future__ import annotations

from wasserspiele.bots.base import Bot, Decision

from .manifest import PEBBLES


class HeuristicBot(Bot):
    kind = "heuristic"

    def choose(self, decision: Decision):
        view, legal = decision.view, decision.legal
        placed = [n for n in view["placed"] if n is not None]
        best_so_far = max(placed, default=0)
        ordered = sorted(legal, key=lambda a: a.n)
        winning = [a for a in ordered if a.n > best_so_far]
        if view["prize"] > PEBBLES // 2 and winning:
            return winning[0]  # the cheapest pebble that takes a big prize
        if len(ordered) > 1 and self.rng.random() < 0.1:
            return ordered[-1]  # now and then, an unexpected high pebble
        return ordered[0]
