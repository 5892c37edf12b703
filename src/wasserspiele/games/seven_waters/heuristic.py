"""A rule-of-thumb Seven Waters bot: one-ply scoring of the legal actions from the view.

It completes slides whenever it can (and chains their extra actions), grows the river
and the pool, picks the theme from the suit its lines and park favour, keeps the hand
small near the end, and avoids taking a card that frees a useful one for the opponent.
Reads `decision.view` and `decision.legal` only; ties are broken with `self.rng`.
"""

from __future__ import annotations

from typing import Any

from ...core.cards import RANKS, SUITS, card
from .actions import POS, VALUE
from ...bots.base import Bot, Decision


def _value(c) -> int:
    return VALUE[c.index]


def _sums(cards) -> set[int]:
    """Every sum a non-empty subset of `cards` can make (a joker any value 1-10)."""
    sums = {0}
    for c in cards:
        options = range(1, 11) if not c.rank else (_value(c),)
        sums |= {s + v for s in sums for v in options if s + v <= 40}
    return sums


def _rank(piece_text: str) -> int:
    name, _, decl = piece_text.partition("=")
    return RANKS.index((decl or name[0]).upper()[0]) + 1


class HeuristicBot(Bot):
    kind = "heuristic"

    def choose(self, decision: Decision):
        return self.rank(decision)[0]

    def rank(self, decision: Decision) -> list:
        """The legal actions, best first by this bot's one-ply score (search uses the top few)."""
        ctx = self._context(decision.view, decision.seat)
        scored = [(self._score(action, ctx) + self.rng.random() * 0.01, i, action)
                  for i, action in enumerate(decision.legal)]
        scored.sort(key=lambda t: (-t[0], t[1]))
        return [a for _, _, a in scored]

    # -- what the bot reads from its view ----------------------------------------------
    def _context(self, v: dict[str, Any], me: int) -> dict[str, Any]:
        mine, theirs = v["players"][me], v["players"][1 - me]
        hand = [card(n) for n in mine["hand"]]
        limit = v["slide_limit"]
        slides_open = limit is None or v["slides_built"] < limit
        ctx = {
            "hand": hand,
            "targets": [s for s, sl in zip(mine["line_sums"], mine["slides"]) if sl is None] if slides_open else [],
            "opp_targets": [s for s, sl in zip(theirs["line_sums"], theirs["slides"]) if sl is None]
            if slides_open else [],
            "river": self._ends(mine["river"]),
            "opp_river": self._ends(theirs["river"]),
            "pool_suit": mine["pool_suit"],
            "pool": len(mine["pool"]),
            "opp_pool": len(theirs["pool"]),
            "opp_pool_suit": theirs["pool_suit"],
            "theme": card(mine["theme"]).suit if mine["theme"] else None,
            "left": v["pyramid_left"],
            "ending": v["final_turns_left"] is not None,
            "pyramid": v["pyramid"],
            "sums": _sums(hand),
        }
        ctx["suit"] = ctx["theme"] or self._favourite_suit(mine, hand)
        # hand cards that could still complete an open slide together with other hand cards
        ctx["use"] = {}  # usefulness of hand cards, filled on demand
        ctx["keep"] = {c for c in hand if ctx["targets"] and self._helps_slide(c, ctx, in_hand=True)}
        return ctx

    @staticmethod
    def _ends(river: list[str]) -> tuple[int, int] | None:
        return (_rank(river[0]), _rank(river[-1])) if river else None

    @staticmethod
    def _favourite_suit(mine: dict[str, Any], hand) -> str:
        """The suit that lines, park and hand favour: the theme to aim for."""
        count = dict.fromkeys(SUITS, 0.0)
        for line in mine["lines"]:
            for n in line:
                if n[0] != "X":
                    count[n[-1]] += 1
        for zone in [*(sl for sl in mine["slides"] if sl), mine["river"], mine["pool"]]:
            for n in zone:
                if n[0] != "X":
                    count[n[-1]] += 1
        for c in hand:
            if c.rank:
                count[c.suit] += 0.5
        return max(SUITS, key=lambda s: count[s])

    # -- how good one action looks -----------------------------------------------------------
    def _score(self, action, ctx) -> float:
        kind = action.kind
        if kind == "slide":
            jokers = sum(1 for p in action.pieces if p.card.is_joker)
            return 30 + 2 * len(action.pieces) - jokers
        if kind == "river":
            n = len(action.pieces)
            jokers = sum(1 for p in action.pieces if p.card.is_joker)
            start = 0 if ctx["river"] else -1.5
            return 2.5 * n + start - (0 if ctx["ending"] else 3 * jokers) - self._slide_use(action, ctx)
        if kind == "pool":
            return self._score_pool(action, ctx)
        if kind == "theme":
            return self._score_theme(action, ctx)
        if kind == "take":
            return self._score_take(action, ctx)
        if kind == "discard":
            use = ctx["use"]
            worth = 0.0
            for c in action.cards:
                if c not in use:
                    use[c] = self._usefulness(c, ctx)
                worth += use[c]
            return -20 - 5 * len(action.cards) - worth
        return -50  # pass

    def _slide_use(self, action, ctx) -> float:
        """A little reluctance to spend cards that could still complete a slide."""
        if ctx["ending"] or not ctx["targets"]:
            return 0.0
        keep = ctx["keep"]
        return 0.5 * sum(1 for p in action.pieces if p.card in keep)

    def _score_pool(self, action, ctx) -> float:
        n = len(action.pieces)
        jokers = sum(1 for p in action.pieces if p.card.is_joker)
        suit = ctx["pool_suit"] or (action.pieces[0].decl if action.pieces[0].card.is_joker
                                    else action.pieces[0].card.suit)
        score = 1.6 * n
        if suit == ctx["suit"]:
            score += 1.0 * (n - jokers)
        before, after = ctx["pool"], ctx["pool"] + n
        if before <= ctx["opp_pool"] < after:
            score += 3.0
        if not ctx["pool_suit"] and n == 1 and not ctx["ending"]:
            score -= 1.0
        return score - (0 if ctx["ending"] else 3 * jokers) - self._slide_use(action, ctx)

    def _score_theme(self, action, ctx) -> float:
        c = action.card
        if c.suit != ctx["suit"]:
            return -5.0
        urgency = 4.0 if ctx["left"] < 14 or ctx["ending"] else 0.0
        return 1.5 + urgency - 0.5 * (c in ctx["keep"])

    def _score_take(self, action, ctx) -> float:
        r, col = POS[action.index]
        name = ctx["pyramid"][r - 1][col - 1]
        c = card(name)
        size = len(ctx["hand"])
        base = 3.0 if size <= 3 else 2.0 if size <= 5 else 0.5
        if ctx["left"] <= 6:
            base -= 1.5  # near the end every card left in hand costs a point
        score = base + self._usefulness(c, ctx)
        return score - self._exposure(r, col, ctx)

    def _usefulness(self, c, ctx) -> float:
        """How much a card helps this park."""
        if c.is_joker:
            return 4.0
        u = 0.0
        if self._helps_slide(c, ctx):
            u += 3.0
        river = ctx["river"]
        if river is None or c.rank in (river[0] - 1, river[1] + 1):
            u += 1.5 if river is None else 2.0
        if c.suit == ctx["pool_suit"]:
            u += 1.5
        if c.suit == ctx["suit"]:
            u += 0.7
        return u

    @staticmethod
    def _helps_slide(c, ctx, in_hand: bool = False) -> bool:
        """Whether the card (with hand cards) can complete an open line's slide."""
        sums = ctx["sums"] if not in_hand else _sums([x for x in ctx["hand"] if x is not c])
        options = range(1, 11) if c.is_joker else (_value(c),)
        return any(t - v in sums for t in ctx["targets"] for v in options)

    def _exposure(self, r: int, col: int, ctx) -> float:
        """Penalty for freeing pyramid cards the opponent could use."""
        pyr = ctx["pyramid"]
        penalty = 0.0
        for rr, cc in ((r - 1, col - 1), (r - 1, col)):
            if rr < 1 or not 1 <= cc <= rr or pyr[rr - 1][cc - 1] is None:
                continue
            # the card at (rr, cc) is covered by (r, cc) and (r, cc + 1); freed if the other is gone
            other = cc + 1 if cc == col else cc
            if 1 <= other <= r and pyr[r - 1][other - 1] is not None:
                continue
            name = pyr[rr - 1][cc - 1]
            if name == "##":
                penalty += 0.3
                continue
            penalty += 0.5 * self._opp_usefulness(card(name), ctx)
        return penalty

    @staticmethod
    def _opp_usefulness(c, ctx) -> float:
        if c.is_joker:
            return 4.0
        u = 0.0
        if _value(c) in ctx["opp_targets"]:
            u += 3.0
        river = ctx["opp_river"]
        if river is not None and c.rank in (river[0] - 1, river[1] + 1):
            u += 2.0
        if c.suit == ctx["opp_pool_suit"]:
            u += 1.5
        return u


def rollout_policy(world, seat: int, rng):
    """A fast greedy policy for search rollouts in a *sampled* world (never the true state).

    Complete the biggest slide on offer, else the biggest river or pool build,
    else take a card while the hand has room, else place a theme, else discard
    one card (or pass).  Ties are broken at random.
    """
    from .actions import Discard, Pool, River, Slide, Take, Theme
    legal = world.legal_actions(seat)
    best_kind, best = 9, []
    for a in legal:
        kind = type(a)
        if kind is Slide:
            rank, size = 0, len(a.pieces)
        elif kind is River or kind is Pool:
            rank, size = (1, len(a.pieces)) if len(a.pieces) >= 2 or rng.random() < 0.3 else (4, 0)
        elif kind is Take:
            rank, size = 2, 0
        elif kind is Theme:
            rank, size = 3, 0
        elif kind is Discard:
            if len(a.cards) != 1:
                continue
            rank, size = 5, 0
        else:
            rank, size = 6, 0
        if rank < best_kind:
            best_kind, best, best_size = rank, [a], size
        elif rank == best_kind:
            if size > best_size:
                best, best_size = [a], size
            elif size == best_size:
                best.append(a)
    if not best:
        return legal[rng.randrange(len(legal))]
    return best[rng.randrange(len(best))]
