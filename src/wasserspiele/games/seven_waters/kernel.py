"""Seven Waters as an array kernel for bulk play: whole games with uniformly random seats
or the heuristic's rollout policy, and the tables of the batched VectorEnv (vector.py).

The rules are those of `rules.py` on one int64 vector per game (the field layout
below): a hand is a 54-bit mask of card indices (core/cards.py: suit-major, then the
jokers 52 and 53), so its slots in ascending card order are the hand as the engine and
the view hold it.  An action is its index in the codec's fixed space
(games/seven_waters/codec.py: take, theme, discard, slide, river, pool, pass by hand
slot masks), and `legal` lists the indices in the engine's order (`legal_actions`:
takes, slides line 1-4, river, pool, theme, discards; within each, joker sets and
subsets of the plain cards highest rank first, as rules.py enumerates them).  Chance
and the random seats draw from the kernel's own xorshift32 generator
(`wasserspiele.fast`), so compiled (numba) and pure-Python runs give the same games.
tests/games/seven_waters/test_kernel.py replays thousands of kernel games through the
Python engine (same deck, same actions: same legal lists, scores and winners; a
heuristic seat's every action one heuristic.rollout_policy may choose).

    scores, won = play_games(games=100_000, seed=1)  # (games, 2) int64; winner 0/1, or 2 for a draw
    scores, won = play_games(10_000, seed=1, policies=(HEURISTIC, RANDOM))
"""

from __future__ import annotations

import numpy as np

from ...fast import below, kernel, seed_state, shuffle_xorshift, unmanaged, xorshift32

# -- the codec's action space (codec.py) ---------------------------------------------
SLOTS = 7                      # SW-4.1: at most 7 cards in hand
MASKS = (1 << SLOTS) - 1       # 127 non-empty slot subsets
TAKE = 0
THEME = TAKE + 28
DISCARD = THEME + SLOTS
SLIDE = DISCARD + MASKS
RIVER = SLIDE + 4 * MASKS
POOL = RIVER + 13 * MASKS
PASS = POOL + 4 * MASKS
ACTIONS = PASS + 1             # 2,830

# -- SW-3 / SW-5 constants -----------------------------------------------------------------
DECK = 54
PYRAMID = 28
HAND_LIMIT = 7                 # SW-4.1
FINAL_TURNS = {"both": 2, "opponent_only": 1, "none": 0}  # SW-5.1 and its option
NO_LIMIT = 1 << 30             # SW-7.1: slide_limit None
MAX_STEPS = 80                 # 28 takes + 34 cards leaving hands (one action each at most) + 2 passes

# -- one game's int64 vector -----------------------------------------------------------------
LEFT, TURN, EXTRA, FINAL, OVER, BUILT, LIMIT, FINAL_TURNS_AT = range(8)
SEAT_FIELDS = 23
HAND, NHAND, DISCARDS, SLIDE_CARDS, SLID, LO, HI, POOL_SUIT, POOL_N, THEME_CARD = range(10)
SUMS, PARK = 10, 14            # line sums 1-4; park cards per suit (jokers never counted: SW-5.2)
# where the cards lie, as card masks like the hand (for observations: vector.py)
LINE_CARDS, SLIDE_SET, RIVER_SET, POOL_SET, DISCARD_SET = range(18, 23)
SEAT0 = 8
PYR = SEAT0 + 2 * SEAT_FIELDS  # the pyramid: card index per position, -1 once taken
FIELDS = PYR + PYRAMID         # 82

# SW-3.2: card i at (row r, column c) lies under i + r and i + r + 1 (row 7: under nothing)
_ROW = np.array([r for r in range(1, 8) for _c in range(r)], np.int64)


@kernel
def value(c: int) -> int:
    """SW-2.1, SW-2.2: A = 1, 2-10 as printed, J Q K = 10, a joker in a line 10."""
    if c >= 52:
        return 10
    return min(c % 13 + 1, 10)


@kernel
def deal(deck, x: int) -> int:
    """SW-3.4: shuffle the 54 cards into `deck` (Fisher-Yates); the new generator state."""
    for i in range(DECK):
        deck[i] = i
    return shuffle_xorshift(deck, DECK, x)


@kernel
def start_game(deck, g, first: int, limit: int, final_turns: int):
    """SW-3.2-3.4: the pyramid row by row, each seat's lines 1-4, then 3 cards to each
    hand, in the order of the record setup's deck (RULES.md)."""
    g[:] = 0
    for i in range(PYRAMID):
        g[PYR + i] = deck[i]
    g[LEFT] = PYRAMID
    g[TURN] = first
    g[FINAL] = -1
    g[LIMIT] = limit
    g[FINAL_TURNS_AT] = final_turns
    pos = PYRAMID
    for s in range(2):
        b = SEAT0 + s * SEAT_FIELDS
        for k in range(4):
            total = 0
            for _ in range(k + 1):
                c = deck[pos]
                pos += 1
                total += value(c)
                g[b + LINE_CARDS] |= 1 << c
                if c < 52:
                    g[b + PARK + c // 13] += 1
            g[b + SUMS + k] = total
        g[b + LO] = 0
        g[b + HI] = 0
        g[b + POOL_SUIT] = -1
        g[b + THEME_CARD] = -1
    for s in range(2):
        b = SEAT0 + s * SEAT_FIELDS
        for _ in range(3):
            g[b + HAND] |= 1 << deck[pos]
            pos += 1
        g[b + NHAND] = 3


@kernel
def is_free(g, i: int) -> bool:
    """SW-3.2: still there, with neither card on it left."""
    if g[PYR + i] < 0:
        return False
    if i >= PYRAMID - 7:
        return True
    r = _ROW[i]
    return g[PYR + i + r] < 0 and g[PYR + i + r + 1] < 0


@kernel
def hand_cards(hand: int, cards) -> int:
    """The cards of a hand mask into `cards` in slot order (ascending card index); how many."""
    n = 0
    for c in range(DECK):
        if hand >> c & 1:
            cards[n] = c
            n += 1
    return n


@kernel
def subset_tables(cards, n: int, tab) -> tuple:
    """rules._HandTables on arrays: the plain cards highest rank first (card order within a
    rank) are numbered 0..p-1 and mask m of them has, in tab[:, m], its value sum, its
    ranks as bits (-1: a rank twice), lowest and highest rank (14 and 0 when empty), suits
    as bits, count and hand-slot mask (tab[7] holds the ordering).  (p, slot bit of the first joker, of the second,
    number of jokers)."""
    order = tab[7]
    p = 0
    j1, j2, nj = 0, 0, 0
    for slot in range(n):
        c = cards[slot]
        if c >= 52:
            if nj == 0:
                j1 = 1 << slot
            else:
                j2 = 1 << slot
            nj += 1
            continue
        # insertion by rank, highest first; a later card of an equal rank goes after
        k = p
        while k > 0 and cards[order[k - 1]] % 13 < c % 13:
            order[k] = order[k - 1]
            k -= 1
        order[k] = slot
        p += 1
    tab[0, 0] = 0
    tab[1, 0] = 0
    tab[2, 0] = 14
    tab[3, 0] = 0
    tab[4, 0] = 0
    tab[5, 0] = 0
    tab[6, 0] = 0
    for i in range(p):
        slot = order[i]
        c = cards[slot]
        r = c % 13 + 1
        v = min(r, 10)
        rbit = 1 << r
        sbit = 1 << (c // 13)
        size = 1 << i
        for m in range(size):
            t = m + size
            tab[0, t] = tab[0, m] + v
            rk = tab[1, m]
            tab[1, t] = -1 if rk < 0 or rk & rbit else rk | rbit
            tab[2, t] = r
            tab[3, t] = tab[3, m] if tab[3, m] else r
            tab[4, t] = tab[4, m] | sbit
            tab[5, t] = tab[5, m] + 1
            tab[6, t] = tab[6, m] | (1 << slot)
    return p, j1, j2, nj


@kernel
def joker_set(js: int, j1: int, j2: int) -> tuple:
    """Joker set number js of rules.py's order ((), X1, X2, X1 X2 for two jokers): its
    slot mask and size."""
    m, k = 0, 0
    if js & 1:
        m |= j1
        k += 1
    if js & 2:
        m |= j2
        k += 1
    return m, k


@kernel
def legal(g, out, cards, tab) -> int:
    """SW-4: the codec indices of the legal actions of the seat to move into `out`, in the
    engine's order; their count.  Pass only when nothing else is legal (SW-4.5)."""
    # unmanaged (fast.unmanaged): no reference counting in the helpers when the codec
    # calls this from Python; a no-op on the compiled callers' views
    g, out, cards, tab = unmanaged(g), unmanaged(out), unmanaged(cards), unmanaged(tab)
    s = g[TURN]
    b = SEAT0 + s * SEAT_FIELDS
    nh = g[b + NHAND]
    k = 0
    if nh < HAND_LIMIT and g[LEFT] > 0:  # SW-4.1
        for i in range(PYRAMID):
            if is_free(g, i):
                out[k] = TAKE + i
                k += 1
    if nh == 0:
        if k == 0:
            out[0] = PASS
            return 1
        return k
    hand_cards(g[b + HAND], cards)
    p, j1, j2, nj = subset_tables(cards, nh, tab)
    full = 1 << p
    sets = 1 << nj
    if g[BUILT] < g[LIMIT]:  # SW-4.3a, SW-4.4: exact sums, a joker any value 1-10
        for line in range(4):
            if g[b + SLID] >> line & 1:
                continue
            target = g[b + SUMS + line]
            base = SLIDE + line * MASKS - 1
            for js in range(sets):
                jm, jn = joker_set(js, j1, j2)
                for m in range(0 if jn else 1, full):
                    rest = target - tab[0, m]
                    if (rest == 0) if jn == 0 else (jn <= rest <= 10 * jn):
                        out[k] = base + (tab[6, m] | jm)
                        k += 1
    lo, hi = g[b + LO], g[b + HI]
    for js in range(sets):  # SW-4.3b: start the river or extend it at one end
        jm, jn = joker_set(js, j1, j2)
        for m in range(0 if jn else 1, full):
            if tab[1, m] < 0:
                continue
            low, high, n = tab[2, m], tab[3, m], tab[5, m] + jn
            if lo == 0:  # a window of n ranks around the plain cards
                if high - low >= n:
                    continue
                a, z = (max(1, high - n + 1), min(low, 14 - n)) if m else (1, 14 - n)
                tries = z - a + 1
            else:  # entirely above the river's top (tried first) or below its bottom
                if m and low <= hi and high >= lo:
                    continue
                a, tries = hi + 1, 2
            for t in range(tries):
                start = a + t if lo == 0 else (hi + 1 if t == 0 else lo - n)
                if start >= 1 and start + n <= 14 and (m == 0 or (start <= low and high < start + n)):
                    out[k] = RIVER + (start - 1) * MASKS - 1 + (tab[6, m] | jm)
                    k += 1
    suit = g[b + POOL_SUIT]
    for js in range(sets):  # SW-4.3c: one suit, the pool's once started
        jm, jn = joker_set(js, j1, j2)
        for m in range(0 if jn else 1, full):
            bits = tab[4, m]
            if bits:
                if bits & (bits - 1):
                    continue
                su = 0
                while bits >> su != 1:
                    su += 1
                if suit >= 0 and su != suit:
                    continue
                out[k] = POOL + su * MASKS - 1 + (tab[6, m] | jm)
                k += 1
            elif suit >= 0:
                out[k] = POOL + suit * MASKS - 1 + jm
                k += 1
            else:
                for su in range(4):
                    out[k] = POOL + su * MASKS - 1 + jm
                    k += 1
    if g[b + THEME_CARD] < 0:  # SW-4.3d: once, never a joker
        for slot in range(nh):
            if cards[slot] < 52:
                out[k] = THEME + slot
                k += 1
    for js in range(sets):  # SW-4.2
        jm, jn = joker_set(js, j1, j2)
        for m in range(0 if jn else 1, full):
            out[k] = DISCARD - 1 + (tab[6, m] | jm)
            k += 1
    return k


@kernel
def remove(g, b: int, mask: int, cards, to: int, park: bool) -> int:
    """Move the cards of hand-slot `mask` from seat b's hand to its card mask at field
    b + to (none for 0), counting the plain ones in the park's suits when `park`; how many."""
    n = hand_cards(g[b + HAND], cards)
    k = 0
    for slot in range(n):
        if mask >> slot & 1:
            c = cards[slot]
            g[b + HAND] ^= 1 << c
            if to:
                g[b + to] |= 1 << c
            k += 1
            if park and c < 52:
                g[b + PARK + c // 13] += 1
    g[b + NHAND] -= k
    return k


@kernel
def end_turn(g):
    """SW-5.1: after the turn that took the last pyramid card each player has one more turn
    (option final_turns), the opponent first; then the game ends."""
    g[EXTRA] = 0
    if g[LEFT] == 0:
        if g[FINAL] < 0:
            g[FINAL] = g[FINAL_TURNS_AT]
        if g[FINAL] == 0:
            g[OVER] = 1
            return
        g[FINAL] -= 1
    g[TURN] ^= 1


@kernel
def apply(g, code: int, cards):
    """SW-4.1-4.3: carry out legal action `code` for the seat to move; a completed slide
    keeps the turn for its extra action (SW-4.3a)."""
    g, cards = unmanaged(g), unmanaged(cards)  # as in `legal`
    b = SEAT0 + g[TURN] * SEAT_FIELDS
    if code < THEME:  # SW-4.1, SW-3.2
        c = g[PYR + code]
        g[PYR + code] = -1
        g[LEFT] -= 1
        g[b + HAND] |= 1 << c
        g[b + NHAND] += 1
    elif code < DISCARD:  # SW-4.3d: the theme card counts in its own suit
        remove(g, b, 1 << (code - THEME), cards, 0, True)
        g[b + THEME_CARD] = cards[code - THEME]
    elif code < SLIDE:  # SW-4.2
        g[b + DISCARDS] += remove(g, b, code - DISCARD + 1, cards, DISCARD_SET, False)
    elif code < RIVER:  # SW-4.3a, SW-4.4
        line = (code - SLIDE) // MASKS
        g[b + SLIDE_CARDS] += remove(g, b, (code - SLIDE) % MASKS + 1, cards, SLIDE_SET, True)
        g[b + SLID] |= 1 << line
        g[BUILT] += 1
        g[EXTRA] = 1
        return
    elif code < POOL:  # SW-4.3b
        start = (code - RIVER) // MASKS + 1
        n = remove(g, b, (code - RIVER) % MASKS + 1, cards, RIVER_SET, True)
        if g[b + LO] == 0:
            g[b + LO] = start
            g[b + HI] = start + n - 1
        elif start == g[b + HI] + 1:
            g[b + HI] += n
        else:
            g[b + LO] = start
    elif code < PASS:  # SW-4.3c
        g[b + POOL_SUIT] = (code - POOL) // MASKS
        g[b + POOL_N] += remove(g, b, (code - POOL) % MASKS + 1, cards, POOL_SET, True)
    end_turn(g)


@kernel
def score(g, s: int) -> int:
    """SW-5.2 (rules.SCORING): 2 per slide card, 1 per river card, 5 for the strictly
    larger pool, 1 per park card of the theme suit, -1 per hand card, -2 per discard."""
    b = SEAT0 + s * SEAT_FIELDS
    o = SEAT0 + (1 - s) * SEAT_FIELDS
    total = 2 * g[b + SLIDE_CARDS] - g[b + NHAND] - 2 * g[b + DISCARDS]
    if g[b + LO]:
        total += g[b + HI] - g[b + LO] + 1
    if g[b + POOL_N] > g[o + POOL_N]:
        total += 5
    if g[b + THEME_CARD] >= 0:
        total += g[b + PARK + g[b + THEME_CARD] // 13]
    return total


@kernel
def winner(g) -> int:
    """SW-5.3: the higher total, then the larger pool; 2 for a draw (both seats win)."""
    a, z = score(g, 0), score(g, 1)
    if a == z:
        a, z = g[SEAT0 + POOL_N], g[SEAT0 + SEAT_FIELDS + POOL_N]
    if a == z:
        return 2
    return 0 if a > z else 1


# -- the heuristic's rollout policy (heuristic.rollout_policy) -------------------------------
RANDOM, HEURISTIC = 0, 1       # seat policies: uniformly random legal action; the heuristic's choice
# the context heuristic.state_context builds, as integers (what the seat to move may see)
(C_HELPFUL, C_KEEP, C_TARGETS, C_OPP_TARGETS, C_LO, C_HI, C_OPP_LO, C_OPP_HI, C_POOL_SUIT, C_OPP_POOL_SUIT,
 C_POOL, C_OPP_POOL, C_SUIT, C_LEFT, C_ENDING, C_NHAND) = range(16)
CONTEXT = 16
SUMS_40 = (1 << 41) - 1        # subset sums 0..40 as bits: no line sums to more
FACE_DOWN = -2                 # a cell's face-down card (-1: empty)


@kernel
def sum_bits(cards, n: int, skip: int) -> int:
    """Every sum up to 40 a subset of the hand cards (but slot `skip`) can make, as bits; a
    joker any value 1-10 (SW-2.2)."""
    bits = 1
    for slot in range(n):
        if slot == skip:
            continue
        c = cards[slot]
        if c < 52:
            bits |= bits << value(c)
        else:
            b = bits
            for v in range(1, 11):
                bits |= b << v
        bits &= SUMS_40
    return bits


@kernel
def targets(g, s: int) -> int:
    """The sums of s's lines without a slide while slides may be built, as bits."""
    if g[BUILT] >= g[LIMIT]:
        return 0
    b = SEAT0 + s * SEAT_FIELDS
    bits = 0
    for k in range(4):
        if not g[b + SLID] >> k & 1:
            bits |= 1 << g[b + SUMS + k]
    return bits


@kernel
def context(g, me: int, cards, ctx):
    """heuristic.state_context for seat `me`: hand facts (`_hand_facts`), the suit to aim
    for (`_favourite_suit`), the rivers, pools and pyramid count."""
    b = SEAT0 + me * SEAT_FIELDS
    o = SEAT0 + (1 - me) * SEAT_FIELDS
    n = hand_cards(g[b + HAND], cards)
    t = targets(g, me)
    sums = sum_bits(cards, n, -1)
    helpful = 0
    for s in range(41):
        if sums >> s & 1:
            for v in range(1, 11):
                if t >> (s + v) & 1:
                    helpful |= 1 << v
    keep = 0
    if t:
        for slot in range(n):
            rest = sum_bits(cards, n, slot)
            c = cards[slot]
            lo_v, hi_v = (1, 10) if c >= 52 else (value(c), value(c))
            for v in range(lo_v, hi_v + 1):
                if rest << v & t:
                    keep |= 1 << slot
                    break
    ctx[C_HELPFUL] = helpful
    ctx[C_KEEP] = keep
    ctx[C_TARGETS] = t
    ctx[C_OPP_TARGETS] = targets(g, 1 - me)
    ctx[C_LO], ctx[C_HI] = g[b + LO], g[b + HI]
    ctx[C_OPP_LO], ctx[C_OPP_HI] = g[o + LO], g[o + HI]
    ctx[C_POOL_SUIT], ctx[C_OPP_POOL_SUIT] = g[b + POOL_SUIT], g[o + POOL_SUIT]
    ctx[C_POOL], ctx[C_OPP_POOL] = g[b + POOL_N], g[o + POOL_N]
    ctx[C_LEFT] = g[LEFT]
    ctx[C_ENDING] = 1 if g[FINAL] >= 0 else 0
    ctx[C_NHAND] = n
    if g[b + THEME_CARD] >= 0:
        ctx[C_SUIT] = g[b + THEME_CARD] // 13
    else:  # park cards count 1, plain hand cards 1/2: in halves; the first suit of the most
        best, suit = -1, 0
        for su in range(4):
            count = 2 * g[b + PARK + su]
            for slot in range(n):
                if cards[slot] < 52 and cards[slot] // 13 == su:
                    count += 1
            if count > best:
                best, suit = count, su
        ctx[C_SUIT] = suit


@kernel
def cell(g, i: int) -> int:
    """A pyramid position as the seat sees it: the card, FACE_DOWN, or -1 when empty."""
    c = g[PYR + i]
    if c < 0 or _ROW[i] % 2 == 1 or i >= PYRAMID - 7:
        return c
    r = _ROW[i]
    if g[PYR + i + r] >= 0 or g[PYR + i + r + 1] >= 0:
        return FACE_DOWN
    return c


@kernel
def usefulness(c: int, ctx) -> float:
    """heuristic._usefulness: how much a card helps this park."""
    if c >= 52:
        return 4.0
    u = 0.0
    if ctx[C_HELPFUL] >> value(c) & 1:
        u += 3.0
    r = c % 13 + 1
    if ctx[C_LO] == 0:
        u += 1.5
    elif r == ctx[C_LO] - 1 or r == ctx[C_HI] + 1:
        u += 2.0
    if c // 13 == ctx[C_POOL_SUIT]:
        u += 1.5
    if c // 13 == ctx[C_SUIT]:
        u += 0.7
    return u


@kernel
def opp_usefulness(c: int, ctx) -> float:
    if c >= 52:
        return 4.0
    u = 0.0
    if ctx[C_OPP_TARGETS] >> value(c) & 1:
        u += 3.0
    r = c % 13 + 1
    if ctx[C_OPP_LO] and (r == ctx[C_OPP_LO] - 1 or r == ctx[C_OPP_HI] + 1):
        u += 2.0
    if c // 13 == ctx[C_OPP_POOL_SUIT]:
        u += 1.5
    return u


@kernel
def exposure(g, taken: int, ctx) -> float:
    """heuristic._exposure: freeing pyramid cards the opponent could use (SW-3.2: a card
    is freed when the last of the two cards on it is taken)."""
    penalty = 0.0
    r = _ROW[taken]
    col = taken - r * (r - 1) // 2  # 0-based; it lies on (r-1, col-1) and (r-1, col) where they exist
    for t in range(2):
        if t == 0:
            if col < 1:
                continue
            under = taken - r
        else:
            if col > r - 2:
                continue
            under = taken - r + 1
        c = cell(g, under)
        if c == -1:
            continue
        first = under + r - 1  # the cards on `under`: first and first + 1
        if cell(g, first + 1 if first == taken else first) != -1:
            continue  # still covered by the other card
        if c == FACE_DOWN:
            penalty += 0.3
            continue
        penalty += 0.5 * opp_usefulness(c, ctx)
    return penalty


@kernel
def slide_use(mask: int, ctx) -> float:
    """heuristic._slide_use: reluctance to spend cards that could still complete a slide."""
    if ctx[C_ENDING] or not ctx[C_TARGETS]:
        return 0.0
    k = 0
    for slot in range(SLOTS):
        if mask >> slot & 1 and ctx[C_KEEP] >> slot & 1:
            k += 1
    return 0.5 * k


@kernel
def jokers_in(mask: int, cards, n: int) -> int:
    k = 0
    for slot in range(n):
        if mask >> slot & 1 and cards[slot] >= 52:
            k += 1
    return k


@kernel
def count_bits(mask: int) -> int:
    k = 0
    while mask:
        mask &= mask - 1
        k += 1
    return k


@kernel
def action_score(g, code: int, cards, ctx) -> float:
    """heuristic.score of a legal action other than a discard."""
    n_hand = ctx[C_NHAND]
    ending = ctx[C_ENDING] != 0
    if code < THEME:  # take
        base = 3.0 if n_hand <= 3 else 2.0 if n_hand <= 5 else 0.5
        if ctx[C_LEFT] <= 6:
            base -= 1.5
        return base + usefulness(cell(g, code), ctx) - exposure(g, code, ctx)
    if code < DISCARD:  # theme
        slot = code - THEME
        c = cards[slot]
        if c // 13 != ctx[C_SUIT]:
            return -5.0
        urgency = 4.0 if ctx[C_LEFT] < 14 or ending else 0.0
        return 1.5 + urgency - 0.5 * (ctx[C_KEEP] >> slot & 1)
    if code < SLIDE:
        return -1e9  # discards are weighed apart (rollout_policy)
    if code < RIVER:
        mask = (code - SLIDE) % MASKS + 1
        return 30.0 + 2 * count_bits(mask) - jokers_in(mask, cards, n_hand)
    if code < POOL:
        mask = (code - RIVER) % MASKS + 1
        n = count_bits(mask)
        jokers = jokers_in(mask, cards, n_hand)
        start = 0 if ctx[C_LO] else -1.5
        return 2.5 * n + start - (0 if ending else 3 * jokers) - slide_use(mask, ctx)
    if code < PASS:
        mask = (code - POOL) % MASKS + 1
        suit = (code - POOL) // MASKS
        n = count_bits(mask)
        jokers = jokers_in(mask, cards, n_hand)
        total = 1.6 * n
        if suit == ctx[C_SUIT]:
            total += 1.0 * (n - jokers)
        if ctx[C_POOL] <= ctx[C_OPP_POOL] < ctx[C_POOL] + n:
            total += 3.0
        if ctx[C_POOL_SUIT] < 0 and n == 1 and not ending:
            total -= 1.0
        return total - (0 if ending else 3 * jokers) - slide_use(mask, ctx)
    return -50.0


@kernel
def heuristic(g, x, out, cards, tab, ctx, best) -> tuple:
    """heuristic.rollout_policy: an action of the highest score (ties at random); when
    only discards are legal, a single card of the least usefulness.  (code, generator state)."""
    k = legal(g, out, cards, tab)
    context(g, g[TURN], cards, ctx)
    nb = 0
    top = -1e9
    for i in range(k):
        code = out[i]
        if DISCARD <= code < SLIDE:
            continue
        s = action_score(g, code, cards, ctx)
        if s > top + 1e-9:
            top = s
            best[0] = code
            nb = 1
        elif s > top - 1e-9:
            best[nb] = code
            nb += 1
    if nb == 0:
        n = ctx[C_NHAND]
        low = 1e9
        for slot in range(n):
            low = min(low, usefulness(cards[slot], ctx))
        for slot in range(n):
            if usefulness(cards[slot], ctx) < low + 1e-9:
                best[nb] = DISCARD + (1 << slot) - 1
                nb += 1
    if nb == 1:
        return best[0], x
    x = xorshift32(x)
    return best[below(x, nb)], x


@kernel
def choose(policy, g, x, out, cards, tab, ctx, best) -> tuple:
    """The seat to move's action under `policy` (RANDOM or HEURISTIC): (code, generator state)."""
    if policy == HEURISTIC:
        return heuristic(g, x, out, cards, tab, ctx, best)
    k = legal(g, out, cards, tab)
    x = xorshift32(x)
    return out[below(x, k)], x


def scratch() -> tuple:
    """The scratch arrays of `choose` (out, best, cards, tab, ctx), allocated by the
    Python callers: the compiled code passes them on unmanaged (fast.unmanaged), which
    is safe only for arrays that outlive the compiled call."""
    return (np.zeros(ACTIONS, np.int64), np.zeros(ACTIONS, np.int64), np.zeros(SLOTS, np.int64),
            np.zeros((8, 1 << SLOTS), np.int64), np.zeros(CONTEXT, np.int64))


@kernel
def _play_games(games, first, limit, final_turns, policies, x, scores, won, decks, plays, deck, g, out, best, cards,
                tab, ctx):
    """`games` games with the seats' policies; decks and plays are recorded when those
    arrays have rows.  deck, g and the rest are scratch (`scratch`)."""
    # every array from Python, unmanaged: numba's reference counting of them in each
    # helper cost more than the rules (fast.unmanaged)
    policies, scores, won, decks = unmanaged(policies), unmanaged(scores), unmanaged(won), unmanaged(decks)
    plays = unmanaged(plays)
    deck, g, out, best = unmanaged(deck), unmanaged(g), unmanaged(out), unmanaged(best)
    cards, tab, ctx = unmanaged(cards), unmanaged(tab), unmanaged(ctx)
    record = decks.shape[0] > 0
    for e in range(games):
        x = deal(deck, x)
        start_game(deck, g, first, limit, final_turns)
        t = 0
        while not g[OVER]:
            code, x = choose(policies[g[TURN]], g, x, out, cards, tab, ctx, best)
            if record:
                plays[e, t] = code
            t += 1
            apply(g, code, cards)
        if record:
            decks[e, :] = deck
        scores[e, 0] = score(g, 0)
        scores[e, 1] = score(g, 1)
        won[e] = winner(g)
    return x


def _options(first_player: int, slide_limit: int | None, final_turns: str) -> tuple[int, int, int]:
    if first_player not in (0, 1):
        raise ValueError(f"first_player must be seat 0 or 1, not {first_player!r}")
    if slide_limit is not None and (not isinstance(slide_limit, int) or slide_limit < 0):
        raise ValueError(f"slide_limit must be an integer >= 0 or None (no limit, SW-7.1), not {slide_limit!r}")
    if final_turns not in FINAL_TURNS:
        raise ValueError(f"final_turns must be one of {', '.join(FINAL_TURNS)}, not {final_turns!r}")
    return first_player, NO_LIMIT if slide_limit is None else slide_limit, FINAL_TURNS[final_turns]


def seat_policies(policies) -> np.ndarray:
    """RANDOM or HEURISTIC for both seats, or one per seat, as an array."""
    seats = np.array([policies] * 2 if np.isscalar(policies) else list(policies), np.int64)
    if len(seats) != 2 or not np.isin(seats, (RANDOM, HEURISTIC)).all():
        raise ValueError(f"policies: one of RANDOM ({RANDOM}) or HEURISTIC ({HEURISTIC}) per seat, got {policies!r}")
    return seats


def play_games(games: int, seed: int = 0, policies=RANDOM, first_player: int = 0, slide_limit: int | None = 7,
               final_turns: str = "both", record: bool = False):
    """`games` independent games, each seat playing uniformly random legal actions (RANDOM)
    or the heuristic's rollout policy (HEURISTIC); `policies` one for both or one per seat.

    (scores (games, 2), winner (games,): 0, 1 or 2 for a draw); with `record` also the
    decks dealt (games, 54) and the actions played (games, MAX_STEPS), -1 padded."""
    first, limit, final = _options(first_player, slide_limit, final_turns)
    seats = seat_policies(policies)
    scores = np.zeros((games, 2), np.int64)
    won = np.zeros(games, np.int64)
    rows = games if record else 0
    decks = np.zeros((rows, DECK), np.int64)
    plays = np.full((rows, MAX_STEPS), -1, np.int64)
    _play_games(games, first, limit, final, seats, seed_state(seed), scores, won, decks, plays,
                np.zeros(DECK, np.int64), np.zeros(FIELDS, np.int64), *scratch())
    if record:
        return scores, won, decks, plays
    return scores, won


def winners(code: int) -> list[int]:
    """The engine's `winners()` of a winner code."""
    return [0, 1] if code == 2 else [int(code)]


# -- many tables at once, one seat played from outside (vector.py) -----------------
# Row e of `tables` (E, FIELDS) is table e, decks (E, 54) its deals, xs (E,) its
# generator states, plays (E, MAX_STEPS) and steps (E,) the actions of its game so far;
# the seat other than `agent` plays by `policy` (RANDOM or HEURISTIC).  `options` is
# (first player, slide limit, final turns) as start_game takes them.
@kernel
def table_apply(e, code, tables, plays, steps, cards):
    apply(tables[e], code, cards)
    plays[e, steps[e]] = code
    steps[e] += 1


@kernel
def table_advance(e, agent, policy, tables, xs, plays, steps, buffers, cards, tab, ctx):
    """The other seat plays until it is `agent`'s turn (a slide's extra action included)
    or the game is over."""
    g = tables[e]
    while not g[OVER] and g[TURN] != agent:
        code, x = choose(policy, g, xs[e], buffers[0], cards, tab, ctx, buffers[1])
        xs[e] = x
        table_apply(e, code, tables, plays, steps, cards)


@kernel
def table_reset(e, agent, policy, options, tables, decks, xs, plays, steps, buffers, cards, tab, ctx):
    """Deal table e anew and play the other seat up to `agent`'s first turn."""
    xs[e] = deal(decks[e], xs[e])
    start_game(decks[e], tables[e], options[0], options[1], options[2])
    plays[e, :] = -1
    steps[e] = 0
    table_advance(e, agent, policy, tables, xs, plays, steps, buffers, cards, tab, ctx)


# The tables' functions called from Python take their arrays unmanaged (fast.unmanaged);
# their scratch (buffers (2, ACTIONS), cards, tab, ctx as in `scratch`) comes from vector.py.
@kernel
def tables_reset(agent, policy, options, tables, decks, xs, plays, steps, buffers, cards, tab, ctx):
    options, tables, decks, xs = unmanaged(options), unmanaged(tables), unmanaged(decks), unmanaged(xs)
    plays, steps, buffers = unmanaged(plays), unmanaged(steps), unmanaged(buffers)
    cards, tab, ctx = unmanaged(cards), unmanaged(tab), unmanaged(ctx)
    for e in range(tables.shape[0]):
        table_reset(e, agent, policy, options, tables, decks, xs, plays, steps, buffers, cards, tab, ctx)


@kernel
def tables_step(actions, agent, policy, options, tables, decks, xs, plays, steps, needs_reset, rewards, terminated,
                illegal, illegal_reward, buffers, cards, tab, ctx):
    """One agent action per table (next-step autoreset: a table whose game ended on the
    previous step is dealt anew and its action ignored).  The reward at the end is the
    agent's zero-sum return (SW-5.3: +1/2 for a win, -1/2 for a loss, 0 for a draw); an
    action that is not legal ends the episode with `illegal_reward`."""
    actions, options, tables, decks = unmanaged(actions), unmanaged(options), unmanaged(tables), unmanaged(decks)
    xs = unmanaged(xs)
    plays, steps, needs_reset, rewards = unmanaged(plays), unmanaged(steps), unmanaged(needs_reset), unmanaged(rewards)
    terminated, illegal, buffers = unmanaged(terminated), unmanaged(illegal), unmanaged(buffers)
    cards, tab, ctx = unmanaged(cards), unmanaged(tab), unmanaged(ctx)
    out = buffers[0]
    for e in range(len(actions)):
        rewards[e] = 0.0
        terminated[e] = False
        illegal[e] = False
        if needs_reset[e]:
            needs_reset[e] = False
            table_reset(e, agent, policy, options, tables, decks, xs, plays, steps, buffers, cards, tab, ctx)
            continue
        g = tables[e]
        a = actions[e]
        k = legal(g, out, cards, tab)
        found = False
        for i in range(k):
            if out[i] == a:
                found = True
                break
        if not found:
            rewards[e] = illegal_reward
            terminated[e] = illegal[e] = needs_reset[e] = True
            continue
        table_apply(e, a, tables, plays, steps, cards)
        table_advance(e, agent, policy, tables, xs, plays, steps, buffers, cards, tab, ctx)
        if g[OVER]:
            w = winner(g)
            rewards[e] = 0.0 if w == 2 else (0.5 if w == agent else -0.5)
            terminated[e] = needs_reset[e] = True


# The codec's observation segments (codec.py) whose starts vector.py passes as `at`, in
# this order; each of WHO's segments once for the observer ("me_…") and once for the
# opponent ("opponent_…").
OBS = ("seat", "my_turn", "extra_action", "pyramid_left", "slides_built", "slide_limit", "final_turns_left",
       "over", "pyramid0", "free", "hand_slot0")
WHO = ("lines", "line_sums", "slide_built", "slides", "river", "river_ends", "pool", "pool_suit",
       "theme_placed", "theme", "hand_count", "discard_count", "discards")
CELL = 2 + DECK                # a pyramid position's one-hot: empty, face down, the 54 cards


@kernel
def mark(row, at: int, mask: int):
    """A multi-hot over the 54 cards from a card mask."""
    for c in range(DECK):
        if mask >> c & 1:
            row[at + c] = 1.0


@kernel
def encode(agent, g, at, row, cards):
    """`agent`'s observation of the game in `g` into `row`, in the layout of
    games/seven_waters/codec.py (`at`: the starts of OBS, then WHO for me and opponent)."""
    g, at, row, cards = unmanaged(g), unmanaged(at), unmanaged(row), unmanaged(cards)  # as in `legal`
    row[:] = 0.0
    over = g[OVER] != 0
    row[at[0] + agent] = 1.0
    row[at[1]] = 1.0 if not over and g[TURN] == agent else 0.0
    row[at[2]] = 1.0 if g[EXTRA] else 0.0
    row[at[3]] = g[LEFT] / 28
    row[at[4]] = g[BUILT] / 7
    row[at[5]] = (0 if g[LIMIT] == NO_LIMIT else g[LIMIT]) / 7
    row[at[6]] = g[FINAL] / 2
    row[at[7]] = 1.0 if over else 0.0
    for i in range(PYRAMID):  # SW-3.2: face-down rows show "##" until the card is free
        c = g[PYR + i]
        if c < 0:
            cell = 0
        elif _ROW[i] % 2 == 1 or is_free(g, i):
            cell = 2 + c
        else:
            cell = 1
        row[at[8] + CELL * i + cell] = 1.0
        row[at[9] + i] = 1.0 if is_free(g, i) else 0.0
    b = SEAT0 + agent * SEAT_FIELDS
    n = hand_cards(g[b + HAND], cards)
    for slot in range(n):
        row[at[10] + DECK * slot + cards[slot]] = 1.0
    for w in range(2):
        s = agent if w == 0 else 1 - agent
        b = SEAT0 + s * SEAT_FIELDS
        o = len(OBS) + len(WHO) * w
        mark(row, at[o], g[b + LINE_CARDS])
        for k in range(4):
            row[at[o + 1] + k] = g[b + SUMS + k] / 40
            row[at[o + 2] + k] = 1.0 if g[b + SLID] >> k & 1 else 0.0
        mark(row, at[o + 3], g[b + SLIDE_SET])
        mark(row, at[o + 4], g[b + RIVER_SET])
        row[at[o + 5]] = g[b + LO] / 13
        row[at[o + 5] + 1] = g[b + HI] / 13
        mark(row, at[o + 6], g[b + POOL_SET])
        row[at[o + 7] + g[b + POOL_SUIT] + 1] = 1.0
        theme = g[b + THEME_CARD]
        row[at[o + 8]] = 1.0 if theme >= 0 else 0.0
        if theme >= 0 and (s == agent or over):
            row[at[o + 9] + theme] = 1.0
        row[at[o + 10]] = g[b + NHAND] / 7
        row[at[o + 11]] = g[b + DISCARDS] / 54
        if s == agent:
            mark(row, at[o + 12], g[b + DISCARD_SET])


@kernel
def tables_encode(agent, tables, at, obs, masks, out, cards, tab):
    """The agent's observation (`encode`) and legal-action mask per table (out, cards,
    tab: scratch)."""
    tables, at, obs, masks = unmanaged(tables), unmanaged(at), unmanaged(obs), unmanaged(masks)
    out, cards, tab = unmanaged(out), unmanaged(cards), unmanaged(tab)
    for e in range(obs.shape[0]):
        g = tables[e]
        encode(agent, g, at, obs[e], cards)
        m = masks[e]
        m[:] = 0
        if not g[OVER] and g[TURN] == agent:
            k = legal(g, out, cards, tab)
            for i in range(k):
                m[out[i]] = 1


# -- from an engine position (for search rollouts) -------------------------------------
_SUIT = {"C": 0, "D": 1, "H": 2, "S": 3}


def from_state(state) -> np.ndarray:
    """The kernel's vector of an engine position (a real one or a sampled world), so a
    rollout can go on in the kernel from there (`play_out`, `rollout`).  Built as Python
    integers and converted once: search converts a world per iteration, and setting numpy
    elements one by one cost 2.5 times as much."""
    from .actions import piece_rank, piece_suit

    g = [0] * FIELDS
    g[LEFT], g[TURN], g[EXTRA] = state.left, state.turn, int(state.extra)
    g[FINAL], g[OVER], g[BUILT] = state.final_left, int(state.over), state.slides_built
    g[LIMIT] = min(state.slide_limit, NO_LIMIT)
    g[FINAL_TURNS_AT] = FINAL_TURNS[state.game.options["final_turns"]]
    g[PYR:PYR + PYRAMID] = [-1 if c is None else c.index for c in state.pyramid]
    for s in (0, 1):
        b = SEAT0 + s * SEAT_FIELDS
        park = [0, 0, 0, 0]  # SW-5.2: plain park cards per suit (a joker never counts)
        lines = slides = river_set = pool_set = slid = slide_n = 0
        for line in state.lines[s]:
            for c in line:
                lines |= 1 << c.index
                if c.rank:
                    park[c.index // 13] += 1
        for k, sl in enumerate(state.slides[s]):
            if sl is not None:
                slid |= 1 << k
                slide_n += len(sl)
                for p in sl:
                    c = p.card
                    slides |= 1 << c.index
                    if c.rank:
                        park[c.index // 13] += 1
        river, pool, theme = state.river[s], state.pool[s], state.theme[s]
        for p in river:
            c = p.card
            river_set |= 1 << c.index
            if c.rank:
                park[c.index // 13] += 1
        for p in pool:
            c = p.card
            pool_set |= 1 << c.index
            if c.rank:
                park[c.index // 13] += 1
        if theme is not None:
            park[theme.index // 13] += 1  # never a joker (SW-4.3d)
        hand = discards = 0
        for c in state.hands[s]:
            hand |= 1 << c.index
        for c in state.discards[s]:
            discards |= 1 << c.index
        g[b + HAND], g[b + NHAND] = hand, len(state.hands[s])
        g[b + DISCARDS], g[b + DISCARD_SET] = len(state.discards[s]), discards
        g[b + LINE_CARDS], g[b + SLIDE_SET], g[b + RIVER_SET], g[b + POOL_SET] = lines, slides, river_set, pool_set
        g[b + SLIDE_CARDS], g[b + SLID] = slide_n, slid
        g[b + LO] = piece_rank(river[0]) if river else 0
        g[b + HI] = piece_rank(river[-1]) if river else 0
        g[b + POOL_SUIT] = _SUIT[piece_suit(pool[0])] if pool else -1
        g[b + POOL_N] = len(pool)
        g[b + THEME_CARD] = theme.index if theme is not None else -1
        g[b + SUMS:b + SUMS + 4] = state.line_sums[s]
        g[b + PARK:b + PARK + 4] = park
    return np.array(g, np.int64)


@kernel
def _rollout(g, policies, x, depth, out, best, cards, tab, ctx) -> tuple:
    g, policies = unmanaged(g), unmanaged(policies)
    out, best, cards, tab, ctx = unmanaged(out), unmanaged(best), unmanaged(cards), unmanaged(tab), unmanaged(ctx)
    for _ in range(depth):
        if g[OVER]:
            break
        code, x = choose(policies[g[TURN]], g, x, out, cards, tab, ctx, best)
        apply(g, code, cards)
    return x, score(g, 0), score(g, 1), winner(g) if g[OVER] else -1


def rollout(g, policies, x, depth) -> tuple:
    """Play at most `depth` actions of the game in `g` by the seats' policies (RANDOM or
    HEURISTIC), the search's rollout: (generator state, score of seat 0, of seat 1,
    winner code or -1 while the game goes on).  Its scratch is allocated here, in
    Python, so the compiled code may pass it on unmanaged (`scratch`); per call, since
    searches may run in threads."""
    return _rollout(g, policies, x, depth, *scratch())


def play_out(g, policies, x) -> int:
    """Play the game in `g` to its end by the seats' policies (RANDOM or HEURISTIC); the
    new generator state.  `score` and `winner` read the result."""
    return rollout(g, policies, x, 1 << 30)[0]
