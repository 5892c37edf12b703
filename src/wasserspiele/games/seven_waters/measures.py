"""The lab's measures of Seven Waters (lab/measures.py explains the contract)."""

from __future__ import annotations

import math
from itertools import combinations
from typing import Any

from ...core.protocol import State
from ...core.stats import NONNEGATIVE
from ...lab.measures import Measure, Measures


_RANK_VALUE = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}
_CATEGORIES = ("slides", "river", "pool", "theme", "hand", "discards")
# SW-5.2: cards left in hand and discards cost points; the others earn them
_POINTS_BOUNDS = {c: (-math.inf, 0.0) if c in ("hand", "discards") else NONNEGATIVE for c in _CATEGORIES}
# SW-5.2's categories as a designer reads them: (label, what it counts)
_CATEGORY_TEXT = {
    "slides": ("points per player from slides", "2 points per card in the player's slides (SW-5.2)"),
    "river": ("points per player from the lazy river", "1 point per card in the player's lazy river (SW-5.2)"),
    "pool": ("points per player from the wave-pool bonus",
             "5 points for the strictly larger wave pool, 0 for the smaller or an equal one (SW-5.2)"),
    "theme": ("points per player from the theme suit",
              "1 point per card of the player's theme suit in their park, the theme card included (SW-5.2)"),
    "hand": ("points per player for cards left in hand (≤ 0)",
             "−1 point per card left in hand at the end (SW-5.2)"),
    "discards": ("points per player for discarded cards (≤ 0)", "−2 points per card on the discard pile (SW-5.2)"),
}


def _card_value(card: str) -> int | None:
    """SW-2.1 building value of a card text; None for a joker (any 1–10)."""
    if card.startswith("X"):
        return None
    r = card[0]
    return _RANK_VALUE.get(r, int(r) if r.isdigit() else 10)


def _can_sum(values: list[int | None], target: int) -> bool:
    """Can some hand cards sum exactly to `target` (jokers any value 1–10)?  SW-4.3a."""
    plain = [v for v in values if v is not None]
    jokers = len(values) - len(plain)
    for size in range(1, len(plain) + 1):
        for combo in combinations(plain, size):
            rest = target - sum(combo)
            if rest == 0 or (1 <= rest <= 10 * jokers and jokers >= 1 and rest >= 1):
                return True
    return 1 <= target <= 10 * jokers


class SevenWatersMeasures(Measures):
    """Slides built (SW-4.3a), the seven-slide limit (SW-4.4), points by category (SW-5.2)."""

    per_step = True
    describe = (
        Measure("slides", "mean", "slides built per game (both players)",
                description="slides completed by both players together (SW-4.3a)"),
        Measure("limit_reached", "share", "games in which the slide limit was reached",
                description="1 when both players together built as many slides as `slide_limit` allows (SW-4.4)"),
        Measure("limit_bites", "share", "games in which the limit stopped a slide the mover could build",
                description="1 when, after the limit was reached, a player to move held cards summing exactly to "
                            "one of their open lines (SW-4.3a): a slide the limit (SW-4.4) forbade"),
        Measure("eight_slides", "share", "games with 8 slides (impossible under the limit)",
                description="1 when both players together built 8 slides (only without the limit, SW-4.4)"),
    ) + tuple(Measure(f"pts_{c}", "mean", _CATEGORY_TEXT[c][0], bounds=_POINTS_BOUNDS[c],
                      description=_CATEGORY_TEXT[c][1]) for c in _CATEGORIES) + (
        Measure("score_mismatch", "share", "games where the category sum differs from the score (a check)",
                description="1 when the six point categories do not add up to a player's score (always 0 unless "
                            "the scoring and this measure disagree)"),
    )

    def __init__(self, game: Game):
        super().__init__(game)
        self.limit = game.options.get("slide_limit")
        self.slides = 0
        self.bites = 0

    def step(self, state: State, action: Any, seat: int) -> None:
        if str(action).startswith("slide"):
            self.slides += 1
        if self.bites or self.limit is None or self.slides < self.limit or state.is_terminal():
            return
        mover = state.current_seat
        view = state.view(mover)  # the mover's own cards: what it could have built
        me = view["players"][mover]
        values = [_card_value(c) for c in me["hand"] or []]
        for line_sum, slide in zip(me["line_sums"], me["slides"]):
            if slide is None and _can_sum(values, line_sum):
                self.bites = 1
                return

    def finish(self, state: State) -> dict[str, float]:
        view = state.view(None)
        players = view["players"]
        pools = [len(p["pool"] or []) for p in players]
        totals = {c: 0.0 for c in _CATEGORIES}
        mismatch = 0
        for i, p in enumerate(players):
            pts = self._categories(p, pools, i)
            for c in _CATEGORIES:
                totals[c] += pts[c]
            if abs(sum(pts.values()) - state.scores()[i]) > 1e-9:
                mismatch = 1
        built = view["slides_built"]
        out = {"units": 0, "slides": built,
               "limit_reached": int(self.limit is not None and built >= self.limit),
               "limit_bites": self.bites, "eight_slides": int(built >= 8), "score_mismatch": mismatch}
        out.update({f"pts_{c}": totals[c] / len(players) for c in _CATEGORIES})
        return out

    @staticmethod
    def _categories(p: dict, pools: list[int], i: int) -> dict[str, float]:
        """SW-5.2 points of one park, by category."""
        slides = [c for s in p["slides"] if s for c in s]
        river, pool = p["river"] or [], p["pool"] or []
        theme = p.get("theme")
        theme_pts = 0
        if theme:
            suit = theme[-1]
            park = slides + river + pool + [c for line in p["lines"] for c in line] + [theme]
            theme_pts = sum(1 for c in park if not c.startswith("X") and c.split("=")[0][-1] == suit)
        other = max(x for j, x in enumerate(pools) if j != i)
        return {"slides": 2 * len(slides), "river": len(river), "pool": 5 if pools[i] > other else 0,
                "theme": theme_pts, "hand": -p["hand_count"], "discards": -2 * p["discard_count"]}
