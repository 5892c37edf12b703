"""An outside policy for the arena tests: `python:bots.outside_policy:make`."""

from wasserspiele.bots.base import Bot


class LowestNotation(Bot):
    """Plays the legal action whose notation sorts first (a fixed, simple policy)."""

    kind = "outside"

    def choose(self, decision):
        return min(decision.legal, key=str)


def make(game, seed):
    return LowestNotation(seed)


def not_a_bot(game, seed):
    return 42
