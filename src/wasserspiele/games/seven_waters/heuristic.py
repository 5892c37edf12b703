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

from typing import Any

from ...core.cards import RANKS, SUITS, card
from ...bots.base import Bot, Decision
from .actions import COVERED_BY, COVERS, FACE_UP_ROW, HAND_LIMIT, PASS, VALUE, Discard, piece_rank, piece_suit
from .rules import TAKES_BOTTOM, TAKES_COVERED, hand_tables

FACE_DOWN = "##"  # a face-down pyramid card, as views show it


_SUM_BITS = (1 << 41) - 1  # sums 0..40: no line sums to more (4 cards of 10)


def _sum_bits(cards) -> int:
    """Every sum (up to 40) a subset of `cards` can make, as bits (bit s set: sum s can be
    made); a joker stands for any value 1-10 (SW-2.2)."""
    bits = 1
    for c in cards:
        if c.rank:
            bits |= bits << VALUE[c.index]
        else:
            b = bits
            for v in range(1, 11):
                bits |= b << v
    return bits & _SUM_BITS


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


def _hand_facts(hand: tuple, targets: tuple) -> tuple[int, frozenset[int], frozenset]:
    """(subset sums of the hand as bits (`_sum_bits`), card values that would complete an
    open slide with hand cards, hand cards that could complete one with the other hand
    cards)."""
    return (*_slide_facts(hand, targets), _keepers(hand, targets))


_KEEP: dict[tuple, frozenset] = {}


def _slide_facts(hand: tuple, targets: tuple) -> tuple[int, frozenset[int]]:
    """The first two of `_hand_facts`; cached, as hands and targets repeat across a
    search's rollouts."""
    found = _FACTS.get((hand, targets))
    if found is None:
        if len(_FACTS) > 100_000:
            _FACTS.clear()
        sums = _sum_bits(hand)
        helpful = frozenset(d for t in targets for d in range(1, 11) if t >= d and sums >> (t - d) & 1)
        found = _FACTS[(hand, targets)] = (sums, helpful)
    return found


def _keepers(hand: tuple, targets: tuple) -> frozenset:
    """The last of `_hand_facts`, cached: the rollout policy needs it less often."""
    found = _KEEP.get((hand, targets))
    if found is None:
        if len(_KEEP) > 100_000:
            _KEEP.clear()
        found = _KEEP[(hand, targets)] = frozenset(
            c for c in hand if targets and _completes(c, _sum_bits([x for x in hand if x is not c]), targets))
    return found


def _completes(c, sums: int, targets) -> bool:
    """Whether card c with a subset making one of `sums` (bits) completes one of `targets`."""
    options = range(1, 11) if c.is_joker else (VALUE[c.index],)
    return any(t >= v and sums >> (t - v) & 1 for t in targets for v in options)


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

    It picks an action of the highest `score`, ties at random (the first tied action of
    the legal order at index `rng.randrange(ties)`), exactly as `HeuristicBot` scores
    the world's `legal_actions` (tests/games/seven_waters/test_fast_paths.py), but it
    scores few of them:

    * a slide (30 points and more) beats every other action (at most about 22), so when
      the hand can complete one only slides are compared;
    * the river, pool and theme actions depend on the hand and a few facts of the park,
      so their best score and ties are kept with the hand's tables (`rules.hand_tables`),
      keyed by those facts, and rollouts that reach the same hand again reuse them;
    * takes are scored from the pyramid directly (a free card is face up);
    * every non-discard action scores above -25 and a discard of n cards at most
      -20 - 5n, so discards are weighed only when nothing else is legal, and then only
      single cards (a card more costs 5 points more): the 127 discard subsets are never
      scored.
    """
    hand = world.hands[seat]
    key = tuple(hand)
    open_ = world.slides_built < world.slide_limit
    slides = world.slides[seat]
    line_sums = world.line_sums[seat]
    targets = tuple(x for x, sl in zip(line_sums, slides) if sl is None) if open_ else ()
    sums, helpful = _slide_facts(key, targets)
    for x in targets:
        if sums >> x & 1:  # a slide can be completed (SW-4.3a)
            t = hand_tables(key)
            slide_key = (slides[0] is None, slides[1] is None, slides[2] is None, slides[3] is None, line_sums)
            best = t.memo.get(slide_key)
            if best is None:
                options = world.slide_options(seat, t)
                top = max(score(a, None) for a in options)
                best = t.memo[slide_key] = tuple(a for a in options if score(a, None) == top)
            return best[rng.randrange(len(best))] if len(best) > 1 else best[0]
    # no slide: takes, then the river, pool and theme actions
    opp = seat ^ 1
    river, pool, opp_pool = world.river[seat], world.pool[seat], world.pool[opp]
    theme = world.theme[seat]
    river_ends = (piece_rank(river[0]), piece_rank(river[-1])) if river else None
    pool_suit = piece_suit(pool[0]) if pool else None
    suit = theme.suit if theme is not None else _park_favourite(world, seat, hand)
    ending = world.final_left >= 0
    left = world.left
    best: list = []
    best_score = -1e9
    if left and len(hand) < HAND_LIMIT:
        best_score, best = _best_takes(world, seat, hand, helpful, open_, river_ends, pool_suit, suit)
    if hand:
        # each kind of build is made and scored only when its bound can reach the best so far
        jokers, ranks, per_suit = _shape(key)
        t = ctx = None
        kinds = (
            (world.river_options, _river_bound(jokers, ranks, river_ends, ending)),
            (world.pool_options, _pool_bound(jokers, per_suit, pool_suit, suit, len(pool), len(opp_pool), ending)),
            (world.theme_options, _theme_bound(ranks, per_suit, suit, left < 14 or ending) if theme is None
             else -1e9),
        )
        for options, bound in kinds:
            if bound > best_score - 1e-9:
                if t is None:
                    t = hand_tables(key)
                    ctx = {"targets": targets, "keep": _keepers(key, targets), "river": river_ends,
                           "pool_suit": pool_suit, "suit": suit, "pool": len(pool), "opp_pool": len(opp_pool),
                           "left": left, "ending": ending}
                for a in options(seat, t):
                    s = score(a, ctx)
                    if s > best_score + 1e-9:
                        best, best_score = [a], s
                    elif s > best_score - 1e-9:
                        best.append(a)
    if not best:
        if not hand:
            return PASS
        ctx = state_context(world, seat)
        worth = [_usefulness(c, ctx) for c in hand]
        low = min(worth)
        best = [Discard((c,)) for c, w in zip(hand, worth) if w < low + 1e-9]
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


def kernel_rollout(world, policy: str, depth: int, x: int):
    """A search rollout of `world` in the compiled kernel (kernel.rollout): at most `depth`
    actions by `rollout_policy` ("policy") or uniformly random ones ("random") for both
    seats, choices drawn from xorshift32 state `x` exactly as `rollout_policy` and
    `bots.ismcts.random_policy` draw them from a `bots.ismcts.KernelStream` (the same
    moves: tests/bots/test_ismcts_kernel.py).  (scores, winners, or None while the game
    goes on); every option of the game is covered."""
    from . import kernel as K

    seats = _KERNEL_SEATS.get(policy)
    if seats is None:
        if policy not in ("policy", "random"):
            return None
        seats = _KERNEL_SEATS[policy] = K.seat_policies(K.HEURISTIC if policy == "policy" else K.RANDOM)
    _, a, b, won = K.rollout(K.from_state(world), seats, x, depth)
    return [a, b], (None if won < 0 else K.winners(won))


_KERNEL_SEATS: dict = {}  # rollout kind -> the kernel's policy per seat


# Bounds on `score` over a hand's builds of one kind, without making them: their scores
# less `_slide_use` (which only lowers them).
_SHAPES: dict[tuple, tuple] = {}


def _shape(hand: tuple) -> tuple[int, int, list[int]]:
    """(jokers, the plain ranks as bits, plain cards per suit) of a hand; cached."""
    found = _SHAPES.get(hand)
    if found is not None:
        return found
    if len(_SHAPES) > 100_000:
        _SHAPES.clear()
    jokers = ranks = 0
    per_suit = [0, 0, 0, 0]
    for c in hand:
        if c.rank:
            ranks |= 1 << c.rank
            per_suit[_SUIT_INDEX[c.suit]] += 1
        else:
            jokers += 1
    found = _SHAPES[hand] = (jokers, ranks, per_suit)
    return found


def _theme_bound(ranks, per_suit, suit, urgent) -> float:
    """`_score_theme`: a card of the aimed suit, else -5."""
    if not ranks:
        return -1e9
    return 1.5 + (4.0 if urgent else 0.0) if per_suit[_SUIT_INDEX[suit]] else -5.0


def _pool_bound(jokers, per_suit, pool_suit, suit, pool, opp_pool, ending) -> float:
    """`_score_pool`: a pool of one suit gains with every card of it (1.6 and more each),
    so all of them (and 0-2 jokers) bound it."""
    bound = -1e9
    joker_cost = 0.0 if ending else 3.0
    for i in ((_SUIT_INDEX[pool_suit],) if pool_suit else range(4)):
        k = per_suit[i]
        aimed = 1.0 * k if SUITS[i] == suit else 0.0
        for j in range(0 if k else 1, jokers + 1):
            n = k + j
            x = 1.6 * n + aimed + (3.0 if pool <= opp_pool < pool + n else 0.0) - joker_cost * j
            if pool_suit is None and n == 1 and not ending:
                x -= 1.0
            if x > bound:
                bound = x
    return bound


def _river_bound(jokers, ranks, river_ends, ending) -> float:
    """`score` of a river: a run of ranks (a window), each a hand card's or a joker's
    (3 points less unless ending); a new river may start anywhere (1.5 less)."""
    bound = -1e9
    joker_cost = 0.0 if ending else 3.0
    if river_ends is None:
        windows = _ANY_WINDOW if jokers else [(a, 1, -1.5) for a in range(1, 14) if ranks >> a & 1]
    else:
        lo, hi = river_ends
        windows = ((hi + 1, 1, 0.0), (lo - 1, -1, 0.0))
    for start, step, x0 in windows:
        gaps = n = 0
        r = start
        while 1 <= r <= 13:
            if not ranks >> r & 1:
                gaps += 1
                if gaps > jokers:
                    break
            n += 1
            x = 2.5 * n + x0 - joker_cost * gaps
            if x > bound:
                bound = x
            r += step
    return bound


_ANY_WINDOW = tuple((a, 1, -1.5) for a in range(1, 14))  # a new river may start at any rank (-1.5)


def _best_takes(world, seat, hand, helpful, open_, river_ends, pool_suit, suit) -> tuple[float, list]:
    """`_score_take` of every free pyramid card, read from the pyramid (SW-3.2: a free card
    lies face up; a card in a face-down row is hidden while a card lies on it)."""
    opp = seat ^ 1
    opp_river, opp_pool = world.river[opp], world.pool[opp]
    opp_slides = world.slides[opp]
    ctx = {
        "helpful": helpful,
        "river": river_ends,
        "pool_suit": pool_suit,
        "suit": suit,
        "opp_targets": [x for x, sl in zip(world.line_sums[opp], opp_slides) if sl is None] if open_ else [],
        "opp_river": (piece_rank(opp_river[0]), piece_rank(opp_river[-1])) if opp_river else None,
        "opp_pool_suit": piece_suit(opp_pool[0]) if opp_pool else None,
    }
    size = len(hand)
    base = 3.0 if size <= 3 else 2.0 if size <= 5 else 0.5
    if world.left <= 6:
        base -= 1.5  # as _score_take
    p = world.pyramid
    best: list = []
    best_score = -1e9
    free = [(i, take) for i, a, b, take in TAKES_COVERED if p[a] is None and p[b] is None and p[i] is not None]
    free += [(i, take) for i, take in TAKES_BOTTOM if p[i] is not None]
    for i, take in free:  # `State.free_takes` (SW-3.2)
        penalty = 0.0  # _exposure
        for below in COVERS[i]:
            c = p[below]
            if c is None:
                continue
            a, b = COVERED_BY[below]
            if p[b if a == i else a] is not None:
                continue  # still covered by the other card
            if not FACE_UP_ROW[below]:
                penalty += 0.3
                continue
            penalty += 0.5 * _opp_usefulness(c, ctx)
        s = base + _usefulness(p[i], ctx) - penalty
        if s > best_score + 1e-9:
            best, best_score = [take], s
        elif s > best_score - 1e-9:
            best.append(take)
    return best_score, best


_LINE_SUITS: dict[int, tuple] = {}


def _park_favourite(world, seat: int, hand) -> str:
    """`_favourite_suit` of the seat's park and hand, the lines' suits counted once per deal."""
    lines = world.lines[seat]
    found = _LINE_SUITS.get(id(lines))
    if found is None or found[0] is not lines:
        if len(_LINE_SUITS) > 10_000:
            _LINE_SUITS.clear()
        count = [0.0, 0.0, 0.0, 0.0]
        for line in lines:
            for c in line:
                if c.rank:
                    count[_SUIT_INDEX[c.suit]] += 1
        found = _LINE_SUITS[id(lines)] = (lines, count)
    count = found[1].copy()
    for zone in world.slides[seat]:
        if zone:
            for piece in zone:
                c = piece.card
                if c.rank:
                    count[_SUIT_INDEX[c.suit]] += 1
    for zone in (world.river[seat], world.pool[seat]):
        for piece in zone:
            c = piece.card
            if c.rank:
                count[_SUIT_INDEX[c.suit]] += 1
    for c in hand:
        if c.rank:
            count[_SUIT_INDEX[c.suit]] += 0.5
    top = max(count)
    return SUITS[count.index(top)]


_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
