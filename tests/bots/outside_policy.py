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


class ScoreGuide:
    """A guide for the PUCT search without any network: a uniform prior, the score lead as value."""

    def priors(self, world, seat, legal):
        return [1 / len(legal)] * len(legal)

    def values(self, world):
        from wasserspiele.bots.ismcts import score_leads
        return score_leads(world)


def score_guided(game, seed):
    from wasserspiele.bots.ismcts import ISMCTSBot
    return ISMCTSBot(seed, iterations=50, game=game, guide=ScoreGuide())
