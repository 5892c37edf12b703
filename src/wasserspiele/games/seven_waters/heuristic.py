"""A rule-of-thumb Seven Waters bot: one-ply scoring of the legal actions from the view.

It completes slides whenever it can (and chains their extra actions), grows the river
and the pool, picks the theme from the suit its lines and park favour, keeps the hand
small near the end, and avoids taking a card that frees a useful one for the opponent.
Reads `decision.view` and `decision.legal` only; ties are broken with `self.rng`.

The scoring reads a small *context* (`_finish_context`).  The bot builds it from its
view; search rollouts (`rollout_policy`) build the same context straight from a sampled
world, which is what makes a rollout step cheap: no JSON view, no card-name parsing.
Both builders give equal contexts (tests/games/seven_waters/test_bot_render.py).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...core.cards import RANKS, SUITS, card
from ...bots.base import Bot, Decision
from .actions import COVERED_BY, COVERS, FACE_UP_ROW, VALUE, Discard, piece_rank, piece_suit

FACE_DOWN = "##"  # a face-down pyramid card, as views show it


@lru_cache(maxsize=1 << 16)
def _sums_of(values: tuple[int, ...]) -> frozenset[int]:
    """Every sum a subset of cards with these values can make (0: a joker, any value 1-10)."""
    sums = {0}
    for v in values:
        options = range(1, 11) if not v else (v,)
        sums |= {s + x for s in sums for x in options if s + x <= 40}
    return frozenset(sums)


def _sums(cards) -> frozenset[int]:
    """Every sum a subset of `cards` can make (a joker any value 1-10)."""
    return _sums_of(tuple(VALUE[c.index] if c.rank else 0 for c in cards))


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
        scored = [(score(action, ctx) + self.rng.random() * 0.01, i, action)
                  for i, action in enumerate(decision.legal)]
        scored.sort(key=lambda t: (-t[0], t[1]))
        return [a for _, _, a in scored]

    # -- what the bot reads from its view ----------------------------------------------
    @staticmethod
    def _context(v: dict[str, Any], me: int) -> dict[str, Any]:
        mine, theirs = v["players"][me], v["players"][1 - me]
        limit = v["slide_limit"]
        slides_open = limit is None or v["slides_built"] < limit
        cells = [None if n is None else n if n == FACE_DOWN else card(n) for row in v["pyramid"] for n in row]
        ctx = {
            "hand": [card(n) for n in mine["hand"]],
            "targets": [s for s, sl in zip(mine["line_sums"], mine["slides"]) if sl is None] if slides_open else [],
            "opp_targets": [s for s, sl in zip(theirs["line_sums"], theirs["slides"]) if sl is None]
            if slides_open else [],
            "river": _ends(mine["river"]),
            "opp_river": _ends(theirs["river"]),
            "pool_suit": mine["pool_suit"],
            "pool": len(mine["pool"]),
            "opp_pool": len(theirs["pool"]),
            "opp_pool_suit": theirs["pool_suit"],
            "theme": card(mine["theme"]).suit if mine["theme"] else None,
            "left": v["pyramid_left"],
            "ending": v["final_turns_left"] is not None,
            "cell": cells.__getitem__,
        }
        park_suits = [n[-1] for line in mine["lines"] for n in line if n[0] != "X"]
        for zone in [*(sl for sl in mine["slides"] if sl), mine["river"], mine["pool"]]:
            park_suits += [n[-1] for n in zone if n[0] != "X"]
        return _finish_context(ctx, park_suits)


def _ends(river: list[str]) -> tuple[int, int] | None:
    return (_rank(river[0]), _rank(river[-1])) if river else None


def state_context(state, me: int) -> dict[str, Any]:
    """The context `HeuristicBot._context` reads from `me`'s view, read from a (sampled)
    state instead; only what `me` may see is used."""
    opp = me ^ 1
    open_ = state.slides_built < state.slide_limit
    pyramid = state.pyramid
    river, opp_river = state.river[me], state.river[opp]
    pool, opp_pool = state.pool[me], state.pool[opp]
    theme = state.theme[me]

    def cell(i: int):
        c = pyramid[i]
        if c is None or FACE_UP_ROW[i]:
            return c
        for j in COVERED_BY[i]:
            if pyramid[j] is not None:
                return FACE_DOWN  # SW-3.2: face down until free
        return c

    ctx = {
        "hand": state.hands[me],
        "targets": [t for t, sl in zip(state.line_sums[me], state.slides[me]) if sl is None] if open_ else [],
        "opp_targets": [t for t, sl in zip(state.line_sums[opp], state.slides[opp]) if sl is None]
        if open_ else [],
        "river": (piece_rank(river[0]), piece_rank(river[-1])) if river else None,
        "opp_river": (piece_rank(opp_river[0]), piece_rank(opp_river[-1])) if opp_river else None,
        "pool_suit": piece_suit(pool[0]) if pool else None,
        "pool": len(pool),
        "opp_pool": len(opp_pool),
        "opp_pool_suit": piece_suit(opp_pool[0]) if opp_pool else None,
        "theme": theme.suit if theme is not None else None,
        "left": state.left,
        "ending": state.final_left >= 0,
        "cell": cell,
    }
    park_suits = [c.suit for line in state.lines[me] for c in line if c.rank]
    for sl in state.slides[me]:
        if sl:
            park_suits += [p.card.suit for p in sl if p.card.rank]
    park_suits += [p.card.suit for p in river if p.card.rank]
    park_suits += [p.card.suit for p in pool if p.card.rank]
    return _finish_context(ctx, park_suits)


def _finish_context(ctx: dict[str, Any], park_suits: list[str]) -> dict[str, Any]:
    """Add what follows from the seen facts: the hand's subset sums, the suit to aim for
    and the hand cards that could still complete an open slide."""
    hand = ctx["hand"]
    ctx["sums"], ctx["helpful"], ctx["keep"] = _hand_facts(tuple(hand), tuple(ctx["targets"]))
    ctx["suit"] = ctx["theme"] or _favourite_suit(park_suits, hand)
    ctx["use"] = {}  # usefulness of hand cards, filled on demand
    return ctx


_FACTS: dict[tuple, tuple] = {}


def _hand_facts(hand: tuple, targets: tuple) -> tuple[frozenset[int], frozenset[int], frozenset]:
    """(subset sums of the hand, card values that would complete an open slide with hand
    cards, hand cards that could complete one with the other hand cards); cached, as
    hands and targets repeat across a search's rollouts."""
    found = _FACTS.get((hand, targets))
    if found is None:
        if len(_FACTS) > 100_000:
            _FACTS.clear()
        sums = _sums(hand)
        helpful = frozenset(t - s for t in targets for s in sums if 1 <= t - s <= 10)
        keep = frozenset(c for c in hand if targets and _completes(c, _sums([x for x in hand if x is not c]), targets))
        found = _FACTS[(hand, targets)] = (sums, helpful, keep)
    return found


def _completes(c, sums, targets) -> bool:
    """Whether card c with a subset making one of `sums` completes one of `targets`."""
    options = range(1, 11) if c.is_joker else (VALUE[c.index],)
    return any(t - v in sums for t in targets for v in options)


def _favourite_suit(park_suits: list[str], hand) -> str:
    """The suit that lines, park and hand favour: the theme to aim for."""
    count = dict.fromkeys(SUITS, 0.0)
    for s in park_suits:
        count[s] += 1
    for c in hand:
        if c.rank:
            count[c.suit] += 0.5
    return max(SUITS, key=lambda s: count[s])


# -- how good one action looks -----------------------------------------------------------
def score(action, ctx) -> float:
    """The bot's one-ply score of a legal action."""
    kind = action.kind
    if kind == "take":
        return _score_take(action, ctx)
    if kind == "slide":
        jokers = sum(1 for p in action.pieces if p.card.rank == 0)
        return 30 + 2 * len(action.pieces) - jokers
    if kind == "river":
        n = len(action.pieces)
        jokers = sum(1 for p in action.pieces if p.card.rank == 0)
        start = 0 if ctx["river"] else -1.5
        return 2.5 * n + start - (0 if ctx["ending"] else 3 * jokers) - _slide_use(action, ctx)
    if kind == "pool":
        return _score_pool(action, ctx)
    if kind == "theme":
        return _score_theme(action, ctx)
    if kind == "discard":
        use = ctx["use"]
        worth = 0.0
        for c in action.cards:
            if c not in use:
                use[c] = _usefulness(c, ctx)
            worth += use[c]
        return -20 - 5 * len(action.cards) - worth
    return -50  # pass


def _slide_use(action, ctx) -> float:
    """A little reluctance to spend cards that could still complete a slide."""
    if ctx["ending"] or not ctx["targets"]:
        return 0.0
    keep = ctx["keep"]
    return 0.5 * sum(1 for p in action.pieces if p.card in keep)


def _score_pool(action, ctx) -> float:
    n = len(action.pieces)
    jokers = sum(1 for p in action.pieces if p.card.rank == 0)
    first = action.pieces[0]
    suit = ctx["pool_suit"] or (first.decl if first.card.rank == 0 else first.card.suit)
    total = 1.6 * n
    if suit == ctx["suit"]:
        total += 1.0 * (n - jokers)
    before, after = ctx["pool"], ctx["pool"] + n
    if before <= ctx["opp_pool"] < after:
        total += 3.0
    if not ctx["pool_suit"] and n == 1 and not ctx["ending"]:
        total -= 1.0
    return total - (0 if ctx["ending"] else 3 * jokers) - _slide_use(action, ctx)


def _score_theme(action, ctx) -> float:
    c = action.card
    if c.suit != ctx["suit"]:
        return -5.0
    urgency = 4.0 if ctx["left"] < 14 or ctx["ending"] else 0.0
    return 1.5 + urgency - 0.5 * (c in ctx["keep"])


def _score_take(action, ctx) -> float:
    size = len(ctx["hand"])
    base = 3.0 if size <= 3 else 2.0 if size <= 5 else 0.5
    if ctx["left"] <= 6:
        base -= 1.5  # near the end every card left in hand costs a point
    return base + _usefulness(ctx["cell"](action.index), ctx) - _exposure(action.index, ctx)


def _usefulness(c, ctx) -> float:
    """How much a card helps this park."""
    if c.rank == 0:
        return 4.0
    u = 0.0
    if _helps_slide(c, ctx):
        u += 3.0
    river = ctx["river"]
    if river is None or c.rank in (river[0] - 1, river[1] + 1):
        u += 1.5 if river is None else 2.0
    if c.suit == ctx["pool_suit"]:
        u += 1.5
    if c.suit == ctx["suit"]:
        u += 0.7
    return u


def _helps_slide(c, ctx) -> bool:
    """Whether the card (with hand cards) can complete an open line's slide."""
    helpful = ctx["helpful"]
    return bool(helpful) if c.rank == 0 else VALUE[c.index] in helpful


def _exposure(taken: int, ctx) -> float:
    """Penalty for freeing pyramid cards the opponent could use (SW-3.2: a card is freed
    when the last of the two cards lying on it is taken)."""
    cell = ctx["cell"]
    penalty = 0.0
    for below in COVERS[taken]:
        c = cell(below)
        if c is None:
            continue
        a, b = COVERED_BY[below]
        if cell(b if a == taken else a) is not None:
            continue  # still covered by the other card
        if c == FACE_DOWN:
            penalty += 0.3
            continue
        penalty += 0.5 * _opp_usefulness(c, ctx)
    return penalty


def _opp_usefulness(c, ctx) -> float:
    if c.rank == 0:
        return 4.0
    u = 0.0
    if VALUE[c.index] in ctx["opp_targets"]:
        u += 3.0
    river = ctx["opp_river"]
    if river is not None and c.rank in (river[0] - 1, river[1] + 1):
        u += 2.0
    if c.suit == ctx["opp_pool_suit"]:
        u += 1.5
    return u


def rollout_policy(world, seat: int, rng):
    """The heuristic's choice, read from a *sampled* world (never the true state): for
    search rollouts, without building a view.

    It picks an action of the highest `score`, ties at random, as `HeuristicBot` does.
    Every non-discard action scores above -25 and a discard of n cards at most -20 - 5n,
    so discards are weighed only when nothing else is legal, and then only single cards
    (a card more costs 5 points more): the 127 discard subsets are never scored.
    """
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
