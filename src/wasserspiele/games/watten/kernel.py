"""Watten as an array kernel for bulk play (random or greedy seats, whole games to the target).

The rules are those of `rules.py` (shared/spec/watten.md) on one int64 array per table,
laid out by the constants below: the four hands in dealing order (a played card is
removed and the rest shift left, as `list.remove` does), the trick, the phase, the
trump, tricks and scores, the raise and the signals.  Every option of the manifest is
played: target, first dealer, raising (WA-6), signals on or off and the chance of a
caught signal (WA-5, WA-5.1), the jack order (through `rules.rank_tables`), the follow
rule, the caller and the hand value.

Actions are the codec's indices (codec.py): card 0..31 (`suit * 8 + rank`, actions.py),
trump 32..35, signal 36..39 (none weak medium strong), raise 40, accept 41, concede 42;
`legal` lists them in the engine's order.  Chance (the deals, the signal checks) and the
random seats draw from the kernel's own xorshift32 generator (`wasserspiele.fast`), so
compiled (numba) and pure-Python runs give the same games.  tests/games/watten/
test_kernel.py replays thousands of kernel games through the Python engine (same deals
and checks, same actions: same legal sets, scores and winners).

    scores = play_games(games=10_000, seed=1)              # (games, 2) int64 team scores
    scores = play_games(1000, seed=2, policies=GREEDY, raising=True, target=15)
"""

from __future__ import annotations

import numpy as np

from ...core.options import resolve_options
from ...fast import (MT_SIZE, below, inline_kernel, kernel, mt_below, mt_random, mt_seed, seed_state,
                     shuffle_xorshift, unmanaged, xorshift32)
from .actions import (
    ACCEPT as ACCEPT_KIND, ACCEPT_ACTION, CONCEDE as CONCEDE_KIND, CONCEDE_ACTION, PLAY, PLAYS, RAISE as RAISE_KIND,
    RAISE_ACTION, SIGNAL as SIGNAL_KIND, SIGNALS as SIGNAL_ACTIONS, TRUMP as TRUMP_KIND, TRUMPS,
)
from .manifest import MANIFEST
from .rules import rank_tables

RANDOM, GREEDY = 0, 1   # seat policies: uniformly random legal action; heuristic.rollout_policy's greedy play
HAND_SIZE = 5           # WA-1.2
N_CARDS = 32
# action codes (the codec's indices)
TRUMP0, SIGNAL0, RAISE, ACCEPT, CONCEDE, N_ACTIONS = 32, 36, 40, 41, 42, 43
# phases (state.py)
TRUMP_PHASE, SIGNAL_PHASE, PLAY_PHASE, ANSWER_PHASE, OVER = range(5)
# what `apply` reports: play goes on, a new hand must be dealt, the game is over
GOES_ON, NEW_HAND, GAME_OVER = range(3)

# -- the table array: one int64 row per table ----------------------------------------
HANDS = 0          # 4 × 5 card ids, seat-major, in dealing order
SIZES = 20         # cards left per seat
TRICK = 24         # the current trick's cards in play order (from LEADER)
TRICK_N = 28       # cards in the current trick
PHASE = 29
DEALER = 30
CALLER = 31
TRUMP = 32         # -1 before the call
LEADER = 33
TURN = 34          # the seat to move
WON = 35           # tricks won this hand, team 0 and team 1
SCORES = 37        # team scores
VALUE = 39         # what the hand is worth now
LAST_RAISE = 40    # team that raised last this hand, -1
RAISER = 41        # seat whose raise awaits an answer, -1
SIGNALS = 42       # per seat, -1 unsent, else 0..3 (none weak medium strong)
VOIDS = 46         # per seat, bit s: has shown void in (effective) suit s
WINNER = 50        # winning team, -1 while the game runs
HAND_NO = 51
TRICKS_DONE = 52   # completed tricks this hand
PLAYED = 53        # bit c: card c lies in a completed trick of this hand
TABLE_SIZE = 54

# -- the options array ---------------------------------------------------------------
SIGNAL_MODES = ("off", "partner", "public")  # O_SIGNALS: 0 no signal phase; 1, 2 who sees a signal (WA-5)
O_TARGET, O_FIRST_DEALER, O_RAISING, O_SIGNALS, O_FOLLOW_ALL, O_CALLER_OFFSET, O_HAND_VALUE = range(7)


class Rules:
    """A game's options as the kernels take them: the int options array, the chance a
    signal is caught and the rank tables (effective suits eff[trump, card], strengths
    strength[4 * trump + led, card], from rules.rank_tables: WA-2, WA-2.1)."""

    def __init__(self, /, **options):
        o = resolve_options(MANIFEST.options, options, MANIFEST.name)  # the engine's checks and defaults
        self.options = o
        eff, strength = rank_tables(o["jack_order"])
        self.eff = np.array(eff, np.int64)
        self.strength = np.array(strength, np.int64)
        self.opts = np.array([o["target"], o["first_dealer"], int(o["raising"]), SIGNAL_MODES.index(o["signals"]),
                              int(o["follow"] == "all"), 3 if o["caller"] == "dealer_right" else 1,
                              o["hand_value"]], np.int64)
        self.p = float(o["signal_detection_p"])

    def max_hands(self) -> int:
        """Hands a game can last: each hand gives one team at least the hand value, and
        the game ends when a team reaches the target."""
        per_team = -(-int(self.opts[O_TARGET]) // int(self.opts[O_HAND_VALUE])) - 1
        return 2 * per_team + 1

    def max_steps(self) -> int:
        """Decisions a game can last: per hand the call, four signals, 20 cards and the
        raises (each raise lifts the value, which stays below the target) with answers."""
        return self.max_hands() * (1 + 4 + 20 + 2 * (int(self.opts[O_TARGET]) + 1))


# -- dealing (WA-1.2, WA-1.3) ------------------------------------------------------
@inline_kernel
def shuffle(deck, x: int) -> int:
    """A 32-card order in `deck` (Fisher-Yates on the card ids); the new generator state."""
    for i in range(N_CARDS):
        deck[i] = i
    return shuffle_xorshift(deck, N_CARDS, x)


@kernel
def new_game(t, opts) -> None:
    """Scores 0, the first dealer, no hand yet (deal one with `start_hand`)."""
    t[:] = 0
    t[DEALER] = opts[O_FIRST_DEALER]
    t[WINNER] = -1


@inline_kernel
def start_hand(t, deck, opts) -> None:
    """WA-1.2, WA-1.3: five cards each starting with the caller, 12 unused; the caller names trump."""
    t[HAND_NO] += 1
    caller = (t[DEALER] + opts[O_CALLER_OFFSET]) % 4
    t[CALLER] = caller
    for k in range(4):
        seat = (caller + k) % 4
        for i in range(HAND_SIZE):
            t[HANDS + HAND_SIZE * seat + i] = deck[HAND_SIZE * k + i]
        t[SIZES + seat] = HAND_SIZE
    t[PHASE] = TRUMP_PHASE
    t[TRUMP] = -1
    t[TRICK_N] = 0
    t[WON] = t[WON + 1] = 0
    t[LEADER] = t[TURN] = caller
    t[VALUE] = opts[O_HAND_VALUE]
    t[LAST_RAISE] = -1
    t[RAISER] = -1
    for s in range(4):
        t[SIGNALS + s] = -1
        t[VOIDS + s] = 0
    t[TRICKS_DONE] = 0
    t[PLAYED] = 0


# -- legal actions ----------------------------------------------------------------------
@inline_kernel
def follow_duty(t, opts, eff) -> int:
    """WA-3.2: the (effective) suit that must be followed now, -1 if none."""
    if t[TRICK_N] == 0:
        return -1
    trump = t[TRUMP]
    led = eff[trump, t[TRICK]]
    if opts[O_FOLLOW_ALL] or led == trump:
        return led
    return -1


@inline_kernel
def may_raise(t, opts, seat: int) -> bool:
    """WA-6: raising is on, the team did not raise last, nobody has three tricks and the
    team is not gespannt (its score plus the value below the target)."""
    team = seat & 1
    return (opts[O_RAISING] != 0 and t[LAST_RAISE] != team and t[WON] < 3 and t[WON + 1] < 3
            and t[SCORES + team] + t[VALUE] < opts[O_TARGET])


@inline_kernel
def playable(t, opts, eff, out) -> int:
    """WA-3.2: the cards the player to move may play, in hand order, into `out`; their count."""
    seat = t[TURN]
    base = HANDS + HAND_SIZE * seat
    n = t[SIZES + seat]
    led = follow_duty(t, opts, eff)
    k = 0
    if led >= 0:
        trump = t[TRUMP]
        for i in range(n):
            c = t[base + i]
            if eff[trump, c] == led:
                out[k] = c
                k += 1
    if k == 0:
        for i in range(n):
            out[i] = t[base + i]
        k = n
    return k


@inline_kernel
def legal(t, opts, eff, out) -> int:
    """The codes of the legal actions of the player to move into `out`, in the engine's
    order (cards in hand order, then raise); their count (0 once the game is over)."""
    phase = t[PHASE]
    if phase == PLAY_PHASE:
        k = playable(t, opts, eff, out)
        if may_raise(t, opts, t[TURN]):
            out[k] = RAISE
            k += 1
        return k
    if phase == TRUMP_PHASE:
        for s in range(4):
            out[s] = TRUMP0 + s
        return 4
    if phase == SIGNAL_PHASE:
        for s in range(4):
            out[s] = SIGNAL0 + s
        return 4
    if phase == ANSWER_PHASE:
        out[0] = ACCEPT
        out[1] = CONCEDE
        return 2
    return 0


# -- applying actions ----------------------------------------------------------------
@inline_kernel
def end_hand(t, opts, team: int) -> int:
    """WA-4.1: `team` scores the hand's value; WA-4.2: the game ends at the target;
    WA-1.4: otherwise the deal passes clockwise (NEW_HAND: deal with `start_hand`)."""
    total = t[SCORES + team] + t[VALUE]
    t[SCORES + team] = total
    if total >= opts[O_TARGET]:
        t[PHASE] = OVER
        t[WINNER] = team
        return GAME_OVER
    t[DEALER] = (t[DEALER] + 1) % 4
    return NEW_HAND


@inline_kernel
def best_index(strength, r, t) -> int:
    """WA-3.3: the position of the winning card of the trick so far by the strengths
    strength[r] (r = 4 * trump + led suit; equal strength: the earlier card)."""
    best = 0
    top = strength[r, t[TRICK]]
    for i in range(1, t[TRICK_N]):
        v = strength[r, t[TRICK + i]]
        if v > top:
            top = v
            best = i
    return best


@inline_kernel
def play_card(t, opts, eff, strength, c: int) -> int:
    """WA-3.1-3.3: the player to move plays card c; the fourth card decides the trick,
    the winner leads, the fifth trick ends the hand (WA-4.1)."""
    seat = t[TURN]
    base = HANDS + HAND_SIZE * seat
    n = t[SIZES + seat]
    i = 0
    while t[base + i] != c:
        i += 1
    for j in range(i, n - 1):
        t[base + j] = t[base + j + 1]
    t[base + n - 1] = 0
    t[SIZES + seat] = n - 1
    trump = t[TRUMP]
    k = t[TRICK_N]
    if k:
        led = follow_duty(t, opts, eff)
        if led >= 0 and eff[trump, c] != led:
            t[VOIDS + seat] |= 1 << led  # did not follow: holds none of the led suit
    else:
        t[LEADER] = seat
    t[TRICK + k] = c
    t[TRICK_N] = k + 1
    if k + 1 < 4:
        t[TURN] = (seat + 1) % 4
        return GOES_ON
    best = best_index(strength, 4 * trump + eff[trump, t[TRICK]], t)
    winner = (t[LEADER] + best) % 4
    t[WON + (winner & 1)] += 1
    for j in range(4):
        t[PLAYED] |= 1 << t[TRICK + j]
    t[TRICK_N] = 0
    t[LEADER] = t[TURN] = winner
    t[TRICKS_DONE] += 1
    if t[TRICKS_DONE] == HAND_SIZE:
        return end_hand(t, opts, 0 if t[WON] >= 3 else 1)
    return GOES_ON


@inline_kernel
def apply(t, opts, eff, strength, p: float, code: int, check: float) -> int:
    """The player to move takes action `code` (legal: not checked here).  `check` is the
    signal check's number in [0, 1) (WA-5.1: a sent signal is caught when it is below p;
    only read for a signal other than none with p > 0).  GOES_ON, NEW_HAND or GAME_OVER."""
    seat = t[TURN]
    if code < TRUMP0:
        return play_card(t, opts, eff, strength, code)
    if code < SIGNAL0:  # WA-1.3: the call; WA-5: the signals follow, the caller first
        t[TRUMP] = code - TRUMP0
        t[PHASE] = SIGNAL_PHASE if opts[O_SIGNALS] else PLAY_PHASE
        t[TURN] = t[CALLER]
        return GOES_ON
    if code < RAISE:  # WA-5 one signal each in play order; WA-5.1 caught: the hand is lost
        level = code - SIGNAL0
        t[SIGNALS + seat] = level
        if level and p > 0 and check < p:
            return end_hand(t, opts, 1 - (seat & 1))
        nxt = (seat + 1) % 4
        if nxt == t[CALLER]:
            t[PHASE] = PLAY_PHASE
        t[TURN] = nxt
        return GOES_ON
    if code == RAISE:  # WA-6: the next opponent answers
        t[RAISER] = seat
        t[PHASE] = ANSWER_PHASE
        t[TURN] = (seat + 1) % 4
        return GOES_ON
    if code == ACCEPT:  # the value rises, the raiser plays on
        t[VALUE] += 1
        t[LAST_RAISE] = t[RAISER] & 1
        t[TURN] = t[RAISER]
        t[RAISER] = -1
        t[PHASE] = PLAY_PHASE
        return GOES_ON
    team = t[RAISER] & 1  # conceded: the raisers score the value before the raise
    t[RAISER] = -1
    return end_hand(t, opts, team)


# -- policies -------------------------------------------------------------------------------
@inline_kernel
def greedy(t, opts, eff, strength, x, codes, k) -> tuple:
    """heuristic.rollout_policy: call the suit with most cards (jacks count as trump; ties
    at random); signal none; accept a raise, never raise; lead the top jack if held, else
    the weakest card; win the trick with the cheapest card that beats it unless the
    partner is ahead, else throw the weakest.  `codes[:k]` are the legal codes.
    (code, generator state)."""
    phase = t[PHASE]
    seat = t[TURN]
    if phase == TRUMP_PHASE:
        base = HANDS + HAND_SIZE * seat
        best, ties = -1, 0
        for s in range(4):
            n = 0
            for i in range(t[SIZES + seat]):
                if eff[s, t[base + i]] == s:
                    n += 1
            if n > best:
                best, ties = n, 1
                codes[0] = TRUMP0 + s
            elif n == best:
                codes[ties] = TRUMP0 + s
                ties += 1
        if ties == 1:
            return codes[0], x
        x = xorshift32(x)
        return codes[below(x, ties)], x
    if phase == SIGNAL_PHASE:
        return SIGNAL0, x
    if phase == ANSWER_PHASE:
        return ACCEPT, x
    if k and codes[k - 1] == RAISE:
        k -= 1
    trump = t[TRUMP]
    n = t[TRICK_N]
    if n == 0:
        own = 5 * trump  # = 4 * trump + trump: a lead's strength as a trump lead
        top = codes[0]
        for i in range(1, k):
            if strength[own, codes[i]] > strength[own, top]:
                top = codes[i]
        if strength[own, top] >= 99:
            return top, x
        return weakest(strength, own, codes, k), x
    r = 4 * trump + eff[trump, t[TRICK]]
    best = best_index(strength, r, t)
    best_v = strength[r, t[TRICK + best]]
    if best != n - 2:  # the partner is not ahead
        win = -1
        for i in range(k):
            c = codes[i]
            if strength[r, c] > best_v and (win < 0 or strength[r, c] < strength[r, win]):
                win = c
        if win >= 0:
            return win, x
    return weakest(strength, r, codes, k), x


@inline_kernel
def weakest(strength, r, codes, k) -> int:
    """The first of codes[:k] with the least (strength[r], rank)."""
    low = codes[0]
    for i in range(1, k):
        c = codes[i]
        if strength[r, c] < strength[r, low] or (strength[r, c] == strength[r, low] and c % 8 < low % 8):
            low = c
    return low


@inline_kernel
def choose(policy, t, opts, eff, strength, x, codes, k) -> tuple:
    """One decision under `policy` among the legal codes[:k]: (code, generator state)."""
    if policy == GREEDY:
        return greedy(t, opts, eff, strength, x, codes, k)
    x = xorshift32(x)
    return codes[below(x, k)], x


@inline_kernel
def signal_check(code, p, x) -> tuple:
    """WA-5.1: the check's number for a signal other than none when p > 0 (else 1.0, never
    below p): (number in (0, 1), generator state)."""
    if code > SIGNAL0 and code < RAISE and p > 0:
        x = xorshift32(x)
        return x / 4294967296.0, x
    return 1.0, x


@inline_kernel
def act(t, deck, opts, eff, strength, p, code, x) -> tuple:
    """`apply` with its chance: the signal check and, after a hand, the next deal into
    `deck` (WA-1.4).  (GOES_ON or GAME_OVER, generator state)."""
    check, x = signal_check(code, p, x)
    status = apply(t, opts, eff, strength, p, code, check)
    if status == NEW_HAND:
        x = shuffle(deck, x)
        start_hand(t, deck, opts)
        return GOES_ON, x
    return status, x


@kernel
def deal_game(t, deck, opts, x) -> int:
    """A new game: scores 0, the first hand dealt (WA-1.2); the generator state."""
    new_game(t, opts)
    x = shuffle(deck, x)
    start_hand(t, deck, opts)
    return x


# -- the deal solved with every hand open (search leaves: bots/ismcts.py rollout="solve") --
# A hand is won by the team with three tricks (WA-4.1), so with all cards known the rest
# of a deal is a two-valued game: a depth-first AND/OR search decides it exactly.  Two
# savings keep it small: of cards in one hand that no other live card separates, only
# one is tried (they play alike), and positions at a trick's start are remembered.
TT_BITS = 12  # remembered trick starts: 4,096 slots, replaced on collision


@inline_kernel
def ranked_between(eff, strength, trump, d, lo, hi) -> bool:
    """Whether card d ranks between two cards of one suit given as `distinct_cards`' keys
    (effective suit * 128 + strength in that suit), both ends included."""
    e = eff[trump, d]
    return e == lo // 128 and lo <= e * 128 + strength[4 * trump + e, d] <= hi


@inline_kernel
def distinct_cards(t, opts, eff, strength, out, keys) -> int:
    """WA-3.2: the cards the player to move may play into `out`, one of each run of
    equivalent cards (same effective suit, no card of another hand or of the trick
    ranked between them by WA-2), ordered by suit and strength; their count.  `keys`
    is scratch (each card's strength in its own suit)."""
    k = playable(t, opts, eff, out)
    trump = t[TRUMP]
    for i in range(k):  # insertion sort by (effective suit, strength in that suit)
        c = out[i]
        e = eff[trump, c]
        v = strength[4 * trump + e, c]
        key = e * 128 + v
        j = i - 1
        while j >= 0 and keys[j] > key:
            out[j + 1] = out[j]
            keys[j + 1] = keys[j]
            j -= 1
        out[j + 1] = c
        keys[j + 1] = key
    seat = t[TURN]
    n = 1
    for i in range(1, k):
        lo = keys[n - 1]  # the run's strongest card so far
        hi = keys[i]
        separated = lo // 128 != hi // 128
        if not separated:
            for s in range(4):
                if s != seat:
                    base = HANDS + HAND_SIZE * s
                    for j in range(t[SIZES + s]):
                        separated = separated or ranked_between(eff, strength, trump, t[base + j], lo, hi)
            for j in range(t[TRICK_N]):
                separated = separated or ranked_between(eff, strength, trump, t[TRICK + j], lo, hi)
        if separated:
            out[n] = out[i]
            n += 1
        keys[n - 1] = hi
    return n


def hand_winner(t, opts, eff, strength) -> int:
    """The team that wins the hand in progress at `t` (a card to play) when all four play
    perfectly with every hand open (WA-3, WA-4.1); raising is not played (WA-6 is a bet
    on the hidden cards, which this solver sees).  Its scratch is allocated here, in
    Python, so the compiled search passes it on unmanaged (fast.unmanaged); per call,
    since searches may run in threads."""
    return _hand_winner(t, opts, eff, strength, *solver_scratch())


SOLVER_DEPTH = 4 * HAND_SIZE + 1  # the positions after 0 .. 20 cards


def solver_scratch() -> tuple:
    """`_hand_winner`'s stack (tables, cards, keys, left, slots, slot_keys) and its
    remembered trick starts (tt_keys, tt_values); the search clears tt_keys itself."""
    d = SOLVER_DEPTH
    return (np.empty((d, TABLE_SIZE), np.int64), np.empty((d, HAND_SIZE), np.int64), np.empty((d, HAND_SIZE), np.int64),
            np.empty(d, np.int64), np.empty(d, np.int64), np.empty(d, np.int64), np.empty(1 << TT_BITS, np.int64),
            np.empty(1 << TT_BITS, np.int64))


@kernel
def _hand_winner(t, opts, eff, strength, tables, cards, keys, left, slots, slot_keys, tt_keys, tt_values) -> int:
    """`hand_winner` with its scratch (`solver_scratch`).  A depth-first AND/OR search on
    an explicit stack (numba cannot load a recursive function from its disk cache): row d
    of `tables` is the position after d cards, `cards[d]` its cards to try (from the end
    of `distinct_cards`' order: each suit's strongest card before its weaker ones, which
    searched 1,648 positions a whole hand against 2,120 the other way round, before trick
    starts were remembered), `left[d]` how many of them are still untried, and `slots[d]`
    where its answer is remembered (-1: not at a trick's start)."""
    t, opts, eff, strength = unmanaged(t), unmanaged(opts), unmanaged(eff), unmanaged(strength)
    tables, cards, keys, left = unmanaged(tables), unmanaged(cards), unmanaged(keys), unmanaged(left)
    slots, slot_keys = unmanaged(slots), unmanaged(slot_keys)
    tt_keys, tt_values = unmanaged(tt_keys), unmanaged(tt_values)
    tt_keys[:] = 0  # no key is 0 (bit 40 is set); a value is read only where its key was just stored
    tables[0, :] = t
    d = 0
    entering = True  # else: returning `found` from row d + 1 to row d
    found = False
    while True:
        if entering:  # row d's answer is known at once, or its cards are to be tried
            s = tables[d]
            settled = True
            if s[WON] >= 3:
                found = True
            elif s[WON + 1] >= 3:
                found = False
            else:
                settled = False
                slots[d] = -1
                if s[TRICK_N] == 0:  # a trick's start: the cards played and who leads say it all
                    key = s[PLAYED] | (s[LEADER] << 32) | (s[WON] << 34) | (s[WON + 1] << 36) | (1 << 40)
                    # Fibonacci hashing of the key folded to 31 bits: the product stays below
                    # 2**63, where key * 0x9E3779B1 (41 + 32 bits) overflowed int64 (numba
                    # wrapped it silently, the pure-Python fallback's numpy scalars warned);
                    # the top TT_BITS of its low 32 bits depend on every key bit (bits 7-18
                    # of the wrapped product saw only the key's low 19 bits)
                    folded = (key & 0x7FFFFFFF) ^ (key >> 31)
                    slot = ((folded * 0x9E3779B1) & 0xFFFFFFFF) >> (32 - TT_BITS)
                    if tt_keys[slot] == key:
                        found = tt_values[slot] == 1
                        settled = True
                    else:
                        slots[d] = slot
                        slot_keys[d] = key
                if not settled:
                    left[d] = distinct_cards(s, opts, eff, strength, cards[d], keys[d])
        else:  # team 0 picks the best card for itself, team 1 against
            settled = found == ((tables[d, TURN] & 1) == 0) or left[d] == 0  # a card reaches it, or none does
            if settled and slots[d] >= 0:
                tt_keys[slots[d]] = slot_keys[d]
                tt_values[slots[d]] = 1 if found else 0
        if settled:
            if d == 0:
                return 0 if found else 1
            d -= 1
            entering = False
            continue
        # try the next card of row d
        left[d] -= 1
        child = tables[d + 1]
        child[:] = tables[d]
        play_card(child, opts, eff, strength, cards[d, left[d]])
        d += 1
        entering = True


# -- whole games -------------------------------------------------------------------------------
@kernel
def _play_games(games, opts, eff, strength, p, policies, x, out, t, deck, codes):
    # every array from Python, unmanaged: numba's reference counting of them in the
    # inlined helpers cost 7x the rules (fast.unmanaged); t, deck, codes are scratch
    opts, eff, strength, policies = unmanaged(opts), unmanaged(eff), unmanaged(strength), unmanaged(policies)
    out, t, deck, codes = unmanaged(out), unmanaged(t), unmanaged(deck), unmanaged(codes)
    for g in range(games):
        x = deal_game(t, deck, opts, x)
        while True:
            k = legal(t, opts, eff, codes)
            code, x = choose(policies[t[TURN]], t, opts, eff, strength, x, codes, k)
            status, x = act(t, deck, opts, eff, strength, p, code, x)
            if status == GAME_OVER:
                break
        out[g, 0] = t[SCORES]
        out[g, 1] = t[SCORES + 1]
    return x


def _policies(policies) -> np.ndarray:
    seats = np.array([policies] * 4 if np.isscalar(policies) else list(policies), np.int64)
    if len(seats) != 4 or not np.isin(seats, (RANDOM, GREEDY)).all():
        raise ValueError(f"policies: one of RANDOM ({RANDOM}) or GREEDY ({GREEDY}) per seat (4), got {policies!r}")
    return seats


def play_games(games: int, seed: int = 0, policies=RANDOM, **options) -> np.ndarray:
    """Team scores of `games` independent games to the target, shape (games, 2); the
    winning team is the one at or above the target (`winners`).

    `policies`: RANDOM or GREEDY for every seat, or one per seat; `options` as the
    engine's (`load("watten", **options)`), checked the same way."""
    rules = Rules(**options)
    out = np.zeros((games, 2), np.int64)
    _play_games(games, rules.opts, rules.eff, rules.strength, rules.p, _policies(policies), seed_state(seed), out,
                np.zeros(TABLE_SIZE, np.int64), np.zeros(N_CARDS, np.int64), np.zeros(8, np.int64))
    return out


def winners(scores_row, target: int = 11) -> list[int]:
    """WA-4.2: the seats of the team that reached the target (the engine's `winners()`)."""
    team = 0 if scores_row[0] >= target else 1
    return [team, team + 2]


@kernel
def _trace(games, opts, eff, strength, p, policies, x, decks, hands_used, checks, checks_used, seats, played,
           legal_bits, steps, scores):
    opts, eff, strength, policies = unmanaged(opts), unmanaged(eff), unmanaged(strength), unmanaged(policies)
    decks, hands_used, checks = unmanaged(decks), unmanaged(hands_used), unmanaged(checks)
    checks_used = unmanaged(checks_used)
    seats, played, legal_bits = unmanaged(seats), unmanaged(played), unmanaged(legal_bits)
    steps, scores = unmanaged(steps), unmanaged(scores)
    t = np.zeros(TABLE_SIZE, np.int64)
    codes = np.zeros(8, np.int64)
    for g in range(games):
        new_game(t, opts)
        h = 0
        x = shuffle(decks[g, h], x)
        start_hand(t, decks[g, h], opts)
        h += 1
        n, c = 0, 0
        while True:
            k = legal(t, opts, eff, codes)
            bits = 0
            for i in range(k):
                bits |= 1 << codes[i]
            legal_bits[g, n] = bits
            seats[g, n] = t[TURN]
            code, x = choose(policies[t[TURN]], t, opts, eff, strength, x, codes, k)
            played[g, n] = code
            n += 1
            check, x = signal_check(code, p, x)
            if check < 1.0:
                checks[g, c] = check
                c += 1
            status = apply(t, opts, eff, strength, p, code, check)
            if status == NEW_HAND:
                x = shuffle(decks[g, h], x)
                start_hand(t, decks[g, h], opts)
                h += 1
            elif status == GAME_OVER:
                break
        hands_used[g] = h
        checks_used[g] = c
        steps[g] = n
        scores[g, 0] = t[SCORES]
        scores[g, 1] = t[SCORES + 1]
    return x


def trace_games(games: int, seed: int, policies=RANDOM, **options) -> dict:
    """`play_games` with everything recorded, for checking the kernel against the engine:
    the deals (card ids, one 32-card order per hand) and signal checks used, per step the
    seat to move, the legal codes as a bit mask (bit c: code c is legal) and the code
    taken; steps; scores."""
    rules = Rules(**options)
    hands, steps = rules.max_hands(), rules.max_steps()
    out = {
        "decks": np.zeros((games, hands, N_CARDS), np.int64), "hands": np.zeros(games, np.int64),
        "checks": np.zeros((games, 4 * hands), np.float64), "checks_used": np.zeros(games, np.int64),
        "seats": np.full((games, steps), -1, np.int8), "played": np.full((games, steps), -1, np.int8),
        "legal": np.zeros((games, steps), np.int64), "steps": np.zeros(games, np.int64),
        "scores": np.zeros((games, 2), np.int64),
    }
    _trace(games, rules.opts, rules.eff, rules.strength, rules.p, _policies(policies), seed_state(seed),
           out["decks"], out["hands"], out["checks"], out["checks_used"], out["seats"], out["played"],
           out["legal"], out["steps"], out["scores"])
    return out


def legal_codes(bits: int) -> list[int]:
    """The codes of a `trace_games` legal mask, ascending."""
    return [c for c in range(N_ACTIONS) if bits >> c & 1]


# -- many tables at once, one seat played from outside (vector.py) -----------------------
# Row e of `tables` (E, TABLE_SIZE) is table e, decks (E, 32) its current deal, xs (E,)
# its generator state.  Every table plays a whole game; the agent plays seat `agent`.
@kernel
def table_advance(e, agent, opts, eff, strength, p, policies, tables, decks, xs, codes) -> None:
    """The other seats play (by their policies) until it is `agent`'s turn or the game is over."""
    opts, eff, strength, policies = unmanaged(opts), unmanaged(eff), unmanaged(strength), unmanaged(policies)
    tables, decks, xs, codes = unmanaged(tables), unmanaged(decks), unmanaged(xs), unmanaged(codes)
    t = tables[e]
    while t[PHASE] != OVER and t[TURN] != agent:
        k = legal(t, opts, eff, codes)
        code, x = choose(policies[t[TURN]], t, opts, eff, strength, xs[e], codes, k)
        _status, x = act(t, decks[e], opts, eff, strength, p, code, x)
        xs[e] = x


@kernel
def table_reset(e, agent, opts, eff, strength, p, policies, tables, decks, xs, codes) -> None:
    """A new game at table e, played by the other seats up to `agent`'s first turn."""
    opts, eff, strength, policies = unmanaged(opts), unmanaged(eff), unmanaged(strength), unmanaged(policies)
    tables, decks, xs, codes = unmanaged(tables), unmanaged(decks), unmanaged(xs), unmanaged(codes)
    xs[e] = deal_game(tables[e], decks[e], opts, xs[e])
    table_advance(e, agent, opts, eff, strength, p, policies, tables, decks, xs, codes)


@kernel
def tables_step(actions, agent, opts, eff, strength, p, policies, tables, decks, xs, needs_reset, rewards,
                terminated, illegal, illegal_reward, codes) -> None:
    """One agent action per table (next-step autoreset: a table whose game ended on the
    previous step is dealt anew and its action ignored).  The reward at the end is the
    agent's zero-sum return (WA-4.2: +0.5 when its team won, -0.5 when it lost); an
    action that is not legal ends the episode with `illegal_reward`.  codes: scratch
    (8 int64, from vector.py)."""
    actions, opts, eff, strength = unmanaged(actions), unmanaged(opts), unmanaged(eff), unmanaged(strength)
    policies = unmanaged(policies)
    tables, decks, xs, needs_reset = unmanaged(tables), unmanaged(decks), unmanaged(xs), unmanaged(needs_reset)
    rewards, terminated, illegal = unmanaged(rewards), unmanaged(terminated), unmanaged(illegal)
    codes = unmanaged(codes)
    for e in range(len(actions)):
        rewards[e] = 0.0
        terminated[e] = False
        illegal[e] = False
        if needs_reset[e]:
            needs_reset[e] = False
            table_reset(e, agent, opts, eff, strength, p, policies, tables, decks, xs, codes)
            continue
        t = tables[e]
        a = actions[e]
        k = legal(t, opts, eff, codes)
        ok = False
        for i in range(k):
            if codes[i] == a:
                ok = True
        if not ok:
            rewards[e] = illegal_reward
            terminated[e] = illegal[e] = needs_reset[e] = True
            continue
        _status, x = act(t, decks[e], opts, eff, strength, p, a, xs[e])
        xs[e] = x
        table_advance(e, agent, opts, eff, strength, p, policies, tables, decks, xs, codes)
        if t[PHASE] == OVER:
            rewards[e] = 0.5 if t[WINNER] == (agent & 1) else -0.5
            terminated[e] = needs_reset[e] = True


@kernel
def tables_encode(agent, opts, eff, tables, obs, masks) -> None:
    """The agent's observation and legal-action mask per table, in the layout of
    games/watten/codec.py (docs/encodings.md)."""
    opts, eff, tables = unmanaged(opts), unmanaged(eff), unmanaged(tables)
    obs, masks = unmanaged(obs), unmanaged(masks)
    codes = np.zeros(8, np.int64)
    for e in range(obs.shape[0]):
        t = tables[e]
        encode(t, agent, opts, obs[e])
        m = masks[e]
        m[:] = 0
        if t[PHASE] != OVER and t[TURN] == agent:
            for i in range(legal(t, opts, eff, codes)):
                m[codes[i]] = 1


@inline_kernel
def encode(t, agent, opts, row) -> None:
    """Seat `agent`'s observation of table t into `row` (codec.py's layout)."""
    target = max(1, opts[O_TARGET])
    mode = opts[O_SIGNALS]
    row[:] = 0.0
    over = t[PHASE] == OVER
    row[agent] = 1.0                                        # seat
    row[4 + t[PHASE]] = 1.0                                 # phase
    row[9 + (4 if over else t[TURN])] = 1.0                 # to_move (4: nobody)
    row[14 + t[DEALER]] = 1.0
    row[18 + t[CALLER]] = 1.0
    row[22 + t[LEADER]] = 1.0
    row[27 + t[TRUMP] + 1] = 1.0                            # 27: no trump yet
    for i in range(t[SIZES + agent]):
        row[32 + t[HANDS + HAND_SIZE * agent + i]] = 1.0
    for s in range(4):
        row[64 + s] = t[SIZES + s] / 5
    for i in range(t[TRICK_N]):
        row[68 + 32 * ((t[LEADER] + i) % 4) + t[TRICK + i]] = 1.0
    for c in range(N_CARDS):
        if t[PLAYED] >> c & 1:
            row[196 + c] = 1.0
    for team in range(2):
        row[228 + team] = t[WON + team] / 5
        row[230 + team] = t[SCORES + team] / target
        row[239 + team] = 1.0 if t[SCORES + team] + t[VALUE] >= opts[O_TARGET] else 0.0
        row[241 + team] = 1.0 if not over and may_raise(t, opts, team) else 0.0
    row[232] = t[VALUE] / target
    row[233] = 1.0 if opts[O_RAISING] else 0.0
    row[234 + t[RAISER] + 1] = 1.0                          # 234: no raise pending
    for s in range(4):
        level = t[SIGNALS + s]
        seen = mode == 2 or (mode == 1 and (s == agent or s == (agent + 2) % 4))
        row[243 + 5 * s + (level + 1 if seen and level >= 0 else 0)] = 1.0
        for suit in range(4):
            if t[VOIDS + s] >> suit & 1:
                row[263 + 4 * s + suit] = 1.0
    row[279] = 1.0 if over else 0.0


# -- the lab's games with outside policies (lab/lockstep.py) -------------------------------
# Row g of `tables` is game g of a lab chunk, `mts` its chance generator: CPython's
# Mersenne Twister seeded as `random.Random(game seed)` (wasserspiele.fast.mt_seed), drawn
# from as the engine draws (the deals as `core.chance.Shuffle`, the signal checks as
# `UnitInterval`), so the kernel deals the engine's games.  Every seat is played from
# outside: `lab_round` takes the chosen codes, plays the forced moves (a single legal
# action) itself and stops each game at its next real decision.  `stats` counts what the
# lab's measures (measures.py) and its lead count (lab/study.Watch) count.
(LAB_ACTIONS, LAB_HANDS, LAB_CALLER_WINS, LAB_RAISED, LAB_CONCEDED, LAB_CAUGHT, LAB_POINTS, LAB_FIRST_CALLER,
 LAB_LEADER, LAB_LEAD_CHANGES) = range(10)
LAB_STATS = 10


@inline_kernel
def lab_deal(t, deck, mt, opts) -> None:
    """WA-1.2: the engine's deal (`Shuffle(CARD_NAMES)`: random.shuffle's draws) into
    `deck`, then `start_hand`."""
    for i in range(N_CARDS):
        deck[i] = i
    for i in range(N_CARDS - 1, 0, -1):
        j = mt_below(mt, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    start_hand(t, deck, opts)


@kernel
def lab_start(seeds, tables, decks, mts, stats, opts) -> None:
    """Game g dealt from `random.Random(seeds[g])`, as `Watten.new_game(seed=...)` deals."""
    seeds, tables, decks, mts = unmanaged(seeds), unmanaged(tables), unmanaged(decks), unmanaged(mts)
    stats, opts = unmanaged(stats), unmanaged(opts)
    for g in range(len(seeds)):
        mt_seed(mts[g], seeds[g])
        new_game(tables[g], opts)
        lab_deal(tables[g], decks[g], mts[g], opts)
        stats[g, :] = 0
        stats[g, LAB_FIRST_CALLER] = -1
        stats[g, LAB_LEADER] = -1


@inline_kernel
def lab_act(t, deck, mt, st, opts, eff, strength, p, code) -> None:
    """The player to move takes `code` (legal), chance drawn as the engine draws it; a
    hand's end is counted as the lab's measures count it."""
    check = 1.0
    if code > SIGNAL0 and code < RAISE and p > 0:  # WA-5.1: the engine draws a check for a sent signal
        check = mt_random(mt)
    before0, before1 = t[SCORES], t[SCORES + 1]
    caller_team = t[CALLER] & 1
    status = apply(t, opts, eff, strength, p, code, check)
    st[LAB_ACTIONS] += 1
    if status == GOES_ON:
        return
    team = 0 if t[SCORES] != before0 else 1
    points = t[SCORES] - before0 if team == 0 else t[SCORES + 1] - before1
    st[LAB_HANDS] += 1
    if st[LAB_FIRST_CALLER] < 0:
        st[LAB_FIRST_CALLER] = caller_team
    st[LAB_CALLER_WINS] += team == caller_team
    st[LAB_RAISED] += points > opts[O_HAND_VALUE]
    st[LAB_CONCEDED] += code == CONCEDE
    st[LAB_CAUGHT] += code > SIGNAL0 and code < RAISE  # a hand that ends on a signal: it was caught
    st[LAB_POINTS] += points
    if t[SCORES] != t[SCORES + 1]:  # lab/study.Watch: a single leading team
        leader = 0 if t[SCORES] > t[SCORES + 1] else 1
        if st[LAB_LEADER] >= 0 and leader != st[LAB_LEADER]:
            st[LAB_LEAD_CHANGES] += 1
        st[LAB_LEADER] = leader
    if status == NEW_HAND:  # WA-1.4: the engine draws the next deal at once
        lab_deal(t, deck, mt, opts)


@kernel
def lab_round(tables, decks, mts, stats, opts, eff, strength, p, picks, n_picks, max_actions,
              asking, legal_out, n_legal, obs) -> int:
    """The games that asked last (asking[:n_picks]) take their picks (positions in their
    legal codes legal_out); then every unfinished game plays its forced moves up to its
    next decision with a choice.  Those games go into
    `asking` (their legal codes into legal_out, their count into n_legal, the seat to
    move's observation into obs), and their number is returned; -1 - g when game g
    reached `max_actions` without an end."""
    tables, decks, mts, stats = unmanaged(tables), unmanaged(decks), unmanaged(mts), unmanaged(stats)
    opts, eff, strength = unmanaged(opts), unmanaged(eff), unmanaged(strength)
    picks, asking = unmanaged(picks), unmanaged(asking)
    legal_out, n_legal, obs = unmanaged(legal_out), unmanaged(n_legal), unmanaged(obs)
    codes = np.zeros(8, np.int64)
    for i in range(n_picks):
        g = asking[i]
        lab_act(tables[g], decks[g], mts[g], stats[g], opts, eff, strength, p, legal_out[i, picks[i]])
    n = 0
    for g in range(tables.shape[0]):
        t = tables[g]
        while t[PHASE] != OVER:
            if stats[g, LAB_ACTIONS] >= max_actions:
                return -1 - g
            k = legal(t, opts, eff, codes)
            if k > 1:
                asking[n] = g
                n_legal[n] = k
                for j in range(k):
                    legal_out[n, j] = codes[j]
                encode(t, t[TURN], opts, obs[n])
                n += 1
                break
            lab_act(t, decks[g], mts[g], stats[g], opts, eff, strength, p, codes[0])
    return n


class LabTables:
    """The games of a lab chunk in the kernel (`lab_start`, `lab_round`), for
    lab/lockstep.py: `round` applies the picks and answers which games ask next (their
    legal codes in the engine's order and observations); `results()` the finished
    games' scores, winners, actions and counts."""

    max_legal = 8  # the most legal actions a decision has

    def __init__(self, game, seeds, obs_size: int = 280) -> None:
        bad = [s for s in seeds if not 0 <= s < 2**63]
        if bad:  # mt_seed takes at most two 32-bit words
            raise ValueError(f"watten lab tables: seeds must be 0 <= seed < 2**63, not {bad[0]!r}")
        if obs_size != 280:
            raise ValueError(f"watten lab tables: the kernel encodes 280 values (codec.py), not {obs_size}")
        self.rules = Rules(**game.options)
        g = len(seeds)
        self.tables = np.zeros((g, TABLE_SIZE), np.int64)
        self.decks = np.zeros((g, N_CARDS), np.int64)
        self.mts = np.zeros((g, MT_SIZE), np.int64)
        self.stats = np.zeros((g, LAB_STATS), np.int64)
        lab_start(np.array(seeds, np.int64), self.tables, self.decks, self.mts, self.stats, self.rules.opts)

    def round(self, picks, n_picks: int, max_actions: int, asking, legal, n_legal, obs) -> int:
        """The games asking[:n_picks] take picks[:n_picks] (positions in their rows of
        `legal`); then how many games ask next: their indices into `asking`, their legal
        codes (engine order) into `legal` and `n_legal`, the seat to move's observation
        into `obs`.  OverflowError(g) when game g reached `max_actions` unfinished."""
        r = self.rules
        n = lab_round(self.tables, self.decks, self.mts, self.stats, r.opts, r.eff, r.strength, r.p, picks, n_picks,
                      max_actions, asking, legal, n_legal, obs)
        if n < 0:
            raise OverflowError(-1 - n)
        return n

    def seats(self, games) -> list[int]:
        """The seat to move in each of `games`."""
        return self.tables[games, TURN].tolist()

    def results(self) -> list[dict]:
        out = []
        for t, st in zip(self.tables.tolist(), self.stats.tolist()):
            w = t[WINNER]
            out.append({"scores": [t[SCORES], t[SCORES + 1], t[SCORES], t[SCORES + 1]], "winners": [w, w + 2],
                        "actions": st[LAB_ACTIONS], "stats": st})
        return out


# -- the engine's terms ------------------------------------------------------------------
ACTIONS = (*PLAYS, *TRUMPS, *SIGNAL_ACTIONS, RAISE_ACTION, ACCEPT_ACTION, CONCEDE_ACTION)  # code -> engine action
_KIND_BASE = {PLAY: 0, TRUMP_KIND: TRUMP0, SIGNAL_KIND: SIGNAL0, RAISE_KIND: RAISE, ACCEPT_KIND: ACCEPT,
              CONCEDE_KIND: CONCEDE}


def code_of(action) -> int:
    """The kernel's (and the codec's) code of an engine action."""
    return _KIND_BASE[action.kind] + action.arg


def table_of(state) -> np.ndarray:
    """The table array of an engine position (for kernel policies and rollouts from it)."""
    t = np.zeros(TABLE_SIZE, np.int64)
    for s, hand in enumerate(state.hands):
        t[HANDS + HAND_SIZE * s:HANDS + HAND_SIZE * s + len(hand)] = hand
        t[SIZES + s] = len(hand)
    t[TRICK:TRICK + len(state.trick)] = state.trick
    t[TRICK_N] = len(state.trick)
    t[PHASE] = state.phase
    t[DEALER], t[CALLER], t[TRUMP] = state.dealer, state.caller, state.trump
    t[LEADER], t[TURN] = state.leader, state.turn
    t[WON:WON + 2] = state.won
    t[SCORES:SCORES + 2] = state.team_scores
    t[VALUE], t[LAST_RAISE], t[RAISER] = state.value, state.last_raise_team, state.raiser
    t[SIGNALS:SIGNALS + 4] = state.signals
    t[VOIDS:VOIDS + 4] = state.voids
    t[WINNER], t[HAND_NO], t[TRICKS_DONE] = state.winner_team, state.hand_no, len(state.tricks)
    t[PLAYED] = sum(1 << c for _leader, cards, _winner in state.tricks for c in cards)
    return t
