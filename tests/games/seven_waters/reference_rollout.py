"""The rollout policy as it was before its fast path (issue 17 item 2): the heuristic's
`score` of every legal action but the discards, read through `state_context`; the best,
ties at random.  The fast `heuristic.rollout_policy` must choose exactly as this does,
drawing the same random numbers."""

from __future__ import annotations

from wasserspiele.games.seven_waters.actions import Discard
from wasserspiele.games.seven_waters.heuristic import _usefulness, score, state_context


def reference_rollout_policy(world, seat: int, rng):
    ctx = state_context(world, seat)
    best: list = []
    best_score = -1e9
    for a in world.legal_actions_but_discards(seat):
        s = score(a, ctx)
        if s > best_score + 1e-9:
            best, best_score = [a], s
        elif s > best_score - 1e-9:
            best.append(a)
    if not best:
        hand = ctx["hand"]
        worth = [_usefulness(c, ctx) for c in hand]
        low = min(worth)
        best = [Discard((c,)) for c, w in zip(hand, worth) if w < low + 1e-9]
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]
