"""The seeded random bot: a uniform choice among the legal actions (any game)."""

from __future__ import annotations

from .base import Bot, Decision


class RandomBot(Bot):
    kind = "random"

    def choose(self, decision: Decision):
        return self.rng.choice(decision.legal)
