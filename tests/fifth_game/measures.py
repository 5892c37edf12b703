"""The lab's measures of Pebbles (lab/measures.py explains the contract)."""

from __future__ import annotations

from wasserspiele.core.protocol import State
from wasserspiele.lab.measures import Measure, Measures


class PebblesMeasures(Measures):
    """Whether the bigger prize decides the game (PB-5), and the spread of scores."""

    describe = (
        Measure("big_prize_decides", "share", "games whose winner took the bigger prize"),
        Measure("spread", "mean", "points between the best and the worst seat"),
    )

    def finish(self, state: State) -> dict[str, float]:
        view = state.view(None)
        big = max(max(w, default=0) for w in view["won"])
        decides = all(big in view["won"][s] for s in view["winners"])
        return {"big_prize_decides": int(decides), "spread": max(view["scores"]) - min(view["scores"])}
