"""Wasserloch as an array kernel for bulk play (random or greedy seats, whole rounds).

The rules are those of `rules.py` on plain integer arrays: a hand is 8 counts, the
waterhole and the driven-off cards too, the pile a 64-entry array of value indices.
A play of n cards of value v is the code `8 * v + n - 1`; `legal` lists the codes in
the engine's order (value, then count).  Chance and the random seats draw from the
kernel's own xorshift32 generator (`wasserspiele.fast`), so compiled (numba) and pure
Python runs give the same games.  tests/games/wasserloch/test_kernel.py plays
thousands of kernel games through the Python engine (same deck, same plays: same
legal sets, loot and winners).

    loot = play_rounds(games=100_000, players=3, seed=1)   # (games, players) int64
"""

from __future__ import annotations

import numpy as np

from ...fast import (MT_SIZE, below, inline_kernel, kernel, mt_below, mt_seed, seed_state, shuffle_xorshift, unmanaged,
                     xorshift32)

RANDOM, GREEDY = 0, 1          # seat policies: uniformly random legal play; rollout_policy's greedy play
PY_RANDOM = 2                  # the random bot: `rng.choice(legal)` from the seat's random.Random (lab_games)
HAND_LIMIT = 5                 # WL-3.2, WL-4.4
DRIVE_THRESHOLD = 3            # WL-4.2
ACE, EIGHT = 0, 7
TACTICS_AT = 56                # where the codec's tactics segments start in the observation


@kernel
def deal(deck: np.ndarray, x: int) -> int:
    """WL-3.2: shuffle the 64 cards (8 of each value) into `deck` (Fisher-Yates); the new
    generator state."""
    for i in range(64):
        deck[i] = i // 8
    return shuffle_xorshift(deck, 64, x)


@kernel
def deal_like_random(deck, mt) -> None:
    """WL-3.2 as the engine shuffles (core.chance.Shuffle: `random.shuffle` of the 64
    cards in value order) from the game's generator `mt`."""
    for i in range(64):
        deck[i] = i // 8
    for i in range(63, 0, -1):
        j = mt_below(mt, i + 1)
        deck[i], deck[j] = deck[j], deck[i]


@kernel
def start_round(deck, players, start, hands, sizes, hole, gone) -> int:
    """WL-3.2: five cards each in blocks from the start player; the pile position.
    (The loot is the caller's: a match adds its rounds up, WL-5.5.)"""
    hands[:] = 0
    hole[:] = 0
    gone[:] = 0
    for k in range(players):
        seat = (start + k) % players
        for i in range(k * HAND_LIMIT, (k + 1) * HAND_LIMIT):
            hands[8 * seat + deck[i]] += 1
        sizes[seat] = HAND_LIMIT
    return players * HAND_LIMIT


@kernel
def legal(hands, base, out) -> int:
    """WL-4.1: the codes of every play from the hand at hands[base:base + 8] into `out`,
    in the engine's order; their count."""
    k = 0
    for v in range(8):
        for n in range(1, hands[base + v] + 1):
            out[k] = 8 * v + n - 1
            k += 1
    return k


@kernel
def drive_target(hole, v: int, adjacent: bool) -> int:
    """WL-4.2, WL-4.3: the place a play on v drives off (the waterhole after it), or -1."""
    if hole[v] < DRIVE_THRESHOLD:
        return -1
    return chase_target(hole, v, adjacent)


@kernel
def chase_target(hole, v: int, adjacent: bool) -> int:
    """WL-4.2, WL-4.3: the place a drive by v would take (v at 3+ or not), or -1."""
    if v == ACE:
        return EIGHT if hole[EIGHT] else -1
    if adjacent:
        return v - 1 if hole[v - 1] else -1
    for w in range(v - 1, -1, -1):
        if hole[w]:
            return w
    return -1


@inline_kernel
def nth_play(hands, base, r: int) -> int:
    """The code of legal play number r (0-based, the order of `legal`): value v offers
    hand[v] plays, so the plays are numbered like the cards of the hand."""
    v = 0
    while r >= hands[base + v]:
        r -= hands[base + v]
        v += 1
    return 8 * v + r


@inline_kernel
def greedy(hands, base, hole, adjacent, x, trial, quiet) -> tuple:
    """The heuristic module's `rollout_policy`: all copies of the value that drives off
    the biggest herd; else one card where it does not make a pair; else a random play.
    (code, generator state).  `trial` is scratch for the waterhole after each candidate."""
    best, best_gain, nq, size = -1, 0, 0, 0
    trial[:] = hole
    for v in range(8):
        n = hands[base + v]
        if not n:
            continue
        size += n
        trial[v] = hole[v] + n
        target = drive_target(trial, v, adjacent)
        trial[v] = hole[v]
        gain = trial[target] if target >= 0 else 0
        if gain > best_gain:
            best, best_gain = 8 * v + n - 1, gain
        elif hole[v] != 1:
            quiet[nq] = 8 * v
            nq += 1
    if best >= 0:
        return best, x
    x = xorshift32(x)
    if nq:
        return quiet[below(x, nq)], x
    return nth_play(hands, base, below(x, size)), x


# The lab's counts per game (lab_games; the game's measures.py and lab/study.Watch)
DRIVE_OFFS, LOOT, ACE_EIGHTS, ACE_EIGHT_LOOT, BIG_DRIVE_OFFS, LEAD_CHANGES, LEADER = range(7)
STATS = 7


@kernel
def count_drive_off(stats, loot, players, v, herd) -> None:
    """A drive-off of `herd` cards by a play of value v, counted as WasserlochMeasures
    counts it (5+ cards are big, aces take the 8s), and the lead: the seat with the single
    most loot, changing hands (only loot moves the lead, so only a drive-off can)."""
    stats[DRIVE_OFFS] += 1
    stats[LOOT] += herd
    if herd >= 5:
        stats[BIG_DRIVE_OFFS] += 1
    if v == ACE:
        stats[ACE_EIGHTS] += 1
        stats[ACE_EIGHT_LOOT] += herd
    top, leader = -1, -1
    for s in range(players):
        if loot[s] > top:
            top, leader = loot[s], s
        elif loot[s] == top:
            leader = -1
    if leader >= 0:
        if stats[LEADER] >= 0 and leader != stats[LEADER]:
            stats[LEAD_CHANGES] += 1
        stats[LEADER] = leader


@kernel
def turns(agent, code, players, adjacent, policies, deck, pos, hands, sizes, hole, gone, loot, seat, x, quiet,
          trial, legal_log, played_log, mts, stats) -> tuple:
    """WL-4.1-4.5, WL-5.2: the seats play in turn from `seat` - `code` first when it is
    >= 0 (a play chosen outside the kernel), then each seat by its policy (RANDOM,
    GREEDY, or PY_RANDOM from its generator mts[seat]) - until it is `agent`'s turn
    (agent < 0: never) or a turn empties a hand, which ends the round.  `hands` holds
    the hands one after the other, 8 counts each.  With non-empty logs, step t's legal
    codes go to legal_log[t] and its play to played_log[t]; with a non-empty `stats`,
    the lab's counts are added to it (STATS: drive-offs, leader of the loot so far).
    (pile position, seat to move, round over, generator state, steps).

    One call plays a whole stretch of turns with the turn's state in local variables:
    a call per turn (even an inlined one) made the round twice as slow."""
    record = played_log.shape[0] > 0
    t = 0
    while True:
        base = 8 * seat
        if record:
            legal(hands, base, legal_log[t])
        if code < 0:
            if seat == agent:
                return pos, seat, False, x, t
            policy = policies[seat]
            if policy == RANDOM:  # a hand of `size` cards has `size` legal plays
                x = xorshift32(x)
                code = nth_play(hands, base, below(x, sizes[seat]))
            elif policy == GREEDY:
                code, x = greedy(hands, base, hole, adjacent, x, trial, quiet)
            else:  # the random bot: legal[rng._randbelow(len(legal))], as random.choice
                code = nth_play(hands, base, mt_below(mts[seat], sizes[seat]))
        if record:
            played_log[t] = code
        t += 1
        v = code >> 3
        n = (code & 7) + 1
        hands[base + v] -= n
        count = hole[v] + n
        hole[v] = count
        if count >= DRIVE_THRESHOLD:
            target = drive_target(hole, v, adjacent)
            if target >= 0:
                herd = hole[target]
                loot[seat] += herd
                gone[target] += herd
                hole[target] = 0
                if stats.shape[0] > 0:
                    count_drive_off(stats, loot, players, v, herd)
        size = sizes[seat] - n
        while size < HAND_LIMIT and pos < 64:  # WL-4.4, WL-5.1
            hands[base + deck[pos]] += 1
            size += 1
            pos += 1
        sizes[seat] = size
        if size == 0:  # WL-5.2: the turn that emptied a hand ends the round
            return pos, seat, True, x, t
        seat = seat + 1 if seat + 1 < players else 0
        code = -1


@kernel
def unused() -> tuple:
    """Empty logs, generators and stats for `turns`: nothing recorded, no PY_RANDOM seat."""
    return (np.zeros((0, 40), np.int64), np.zeros(0, np.int64), np.zeros((0, MT_SIZE), np.int64),
            np.zeros(0, np.int64))


def _scratch(players: int) -> tuple:
    """One round's arrays (deck, hands, sizes, hole, gone, loot, quiet, trial), allocated
    in Python: the compiled code passes them on unmanaged (fast.unmanaged), which is safe
    only for arrays that outlive the compiled call."""
    return (np.zeros(64, np.int64), np.zeros(8 * players, np.int64), np.zeros(players, np.int64),
            np.zeros(8, np.int64), np.zeros(8, np.int64), np.zeros(players, np.int64), np.zeros(8, np.int64),
            np.zeros(8, np.int64))


@kernel
def _play_rounds(games, players, first, adjacent, policies, x, out, decks, legal_log, played_log, steps, deck, hands,
                 sizes, hole, gone, loot, quiet, trial, none):
    """`games` rounds into out (loot); with non-empty logs (one row per game) also the
    decks, every step's legal codes and plays, and the steps per game.  deck .. trial
    are scratch (`_scratch`), none is `unused()`."""
    # every array from Python, unmanaged: numba counts the references to an array in
    # each helper it reaches (fast.unmanaged)
    policies, out, decks, legal_log = unmanaged(policies), unmanaged(out), unmanaged(decks), unmanaged(legal_log)
    played_log, steps, deck, hands = unmanaged(played_log), unmanaged(steps), unmanaged(deck), unmanaged(hands)
    sizes, hole, gone, loot = unmanaged(sizes), unmanaged(hole), unmanaged(gone), unmanaged(loot)
    quiet, trial = unmanaged(quiet), unmanaged(trial)
    no_legal, no_plays = unmanaged(none[0]), unmanaged(none[1])
    no_mts, no_stats = unmanaged(none[2]), unmanaged(none[3])
    record = steps.shape[0] > 0
    for g in range(games):
        if record:
            deck = decks[g]
        x = deal(deck, x)
        pos = start_round(deck, players, first, hands, sizes, hole, gone)
        loot[:] = 0
        legal_rows, plays = (legal_log[g], played_log[g]) if record else (no_legal, no_plays)
        _pos, _seat, _over, x, t = turns(-1, -1, players, adjacent, policies, deck, pos, hands, sizes, hole, gone,
                                         loot, first, x, quiet, trial, legal_rows, plays, no_mts, no_stats)
        if record:
            steps[g] = t
        out[g, :] = loot
    return x


def _seats(players: int, policies) -> np.ndarray:
    """One policy per seat from `policies` (one for all or a sequence), checked."""
    seats = np.array([policies] * players if np.isscalar(policies) else list(policies), np.int64)
    if len(seats) != players or not np.isin(seats, (RANDOM, GREEDY)).all():
        raise ValueError(f"policies: one of RANDOM ({RANDOM}) or GREEDY ({GREEDY}) per seat, got {policies!r}")
    return seats


def play_rounds(games: int, players: int = 3, seed: int = 0, policies=RANDOM, first_player: int = 0,
                chase: str = "nearest") -> np.ndarray:
    """Loot per seat of `games` independent one-round games (WL-7.1), shape (games, players).

    `policies`: RANDOM or GREEDY for every seat, or one per seat."""
    if not 2 <= players <= 4:
        raise ValueError(f"players must be 2-4, not {players!r}")
    if not 0 <= first_player < players:
        raise ValueError(f"first_player must be a seat 0-{players - 1}, not {first_player!r}")
    if chase not in ("nearest", "adjacent"):
        raise ValueError(f"chase must be 'nearest' or 'adjacent', not {chase!r}")
    seats = _seats(players, policies)
    out = np.zeros((games, players), np.int64)
    _play_rounds(games, players, first_player, chase == "adjacent", seats, seed_state(seed), out,
                 np.zeros((0, 64), np.int64), np.zeros((0, 64, 40), np.int64), np.zeros((0, 64), np.int64),
                 np.zeros(0, np.int64), *_scratch(players), unused())
    return out


def trace_rounds(games: int, players: int, seed: int, policies=RANDOM, chase: str = "nearest") -> dict:
    """`play_rounds` (start player 0) with everything recorded, for checking the kernel
    against the engine: decks, legal codes per step (-1 padded), plays, steps, loot."""
    seats = _seats(players, policies)
    decks = np.zeros((games, 64), np.int64)
    legal_out = np.full((games, 64, 40), -1, np.int64)
    played = np.full((games, 64), -1, np.int64)
    steps = np.zeros(games, np.int64)
    loot = np.zeros((games, players), np.int64)
    _play_rounds(games, players, 0, chase == "adjacent", seats, seed_state(seed), loot, decks, legal_out, played,
                 steps, *_scratch(players), unused())
    return {"decks": decks, "legal": legal_out, "played": played, "steps": steps, "loot": loot}


@kernel
def _lab_games(players, rounds, first, adjacent, game_seeds, bot_seeds, scores, steps, stats):
    """Game g of the lab: the deal from random.Random(game_seeds[g]) as the engine draws
    it, seat s the random bot seeded bot_seeds[g, s]; rounds added up (WL-5.5, the start
    player one seat on per round).  Its total loot, plays and STATS into the outputs."""
    deck = np.zeros(64, np.int64)
    hands = np.zeros(8 * players, np.int64)
    sizes = np.zeros(players, np.int64)
    hole = np.zeros(8, np.int64)
    gone = np.zeros(8, np.int64)
    quiet = np.zeros(8, np.int64)
    trial = np.zeros(8, np.int64)
    game_mt = np.zeros(MT_SIZE, np.int64)
    mts = np.zeros((players, MT_SIZE), np.int64)
    policies = np.full(players, PY_RANDOM, np.int64)
    no_legal, no_plays, _no_mts, _no_stats = unused()
    for g in range(len(game_seeds)):
        mt_seed(game_mt, game_seeds[g])
        for s in range(players):
            mt_seed(mts[s], bot_seeds[g, s])
        loot = scores[g]
        loot[:] = 0
        stats[g, :] = 0
        stats[g, LEADER] = -1
        for r in range(rounds):
            start = (first + r) % players
            deal_like_random(deck, game_mt)
            pos = start_round(deck, players, start, hands, sizes, hole, gone)
            _pos, _seat, _over, _x, t = turns(-1, -1, players, adjacent, policies, deck, pos, hands, sizes, hole,
                                              gone, loot, start, 1, quiet, trial, no_legal, no_plays, mts, stats[g])
            steps[g] += t


def lab_games(game_seeds, bot_seeds, players: int, rounds: int, first_player: int = 0,
              chase: str = "nearest") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Whole games (any number of rounds) with the random bot (`bots.random_bot`) in
    every seat, exactly as the engine and the bots play them from the same seeds:
    game g dealt from random.Random(game_seeds[g]), seat s choosing with
    random.Random(bot_seeds[g][s]).  (scores (G, players), plays (G,), STATS (G, 7))."""
    bad = [s for s in [*game_seeds, *(s for row in bot_seeds for s in row)] if not 0 <= s < 2**63]
    if bad:  # mt_seed takes at most two 32-bit words, as random.Random(seed) would use
        raise ValueError(f"lab_games: seeds must be 0 <= seed < 2**63, not {bad[0]!r}")
    game_seeds = np.asarray(game_seeds, np.int64).reshape(-1)
    bot_seeds = np.asarray(bot_seeds, np.int64).reshape(len(game_seeds), players)
    scores = np.zeros((len(game_seeds), players), np.int64)
    steps = np.zeros(len(game_seeds), np.int64)
    stats = np.zeros((len(game_seeds), STATS), np.int64)
    _lab_games(players, rounds, first_player, chase == "adjacent", game_seeds, bot_seeds, scores, steps, stats)
    return scores, steps, stats


def winners(loot_row) -> list[int]:
    """WL-5.4: the seats with the most loot (all tied seats win)."""
    best = max(loot_row)
    return [s for s, n in enumerate(loot_row) if n == best]


# -- many tables at once, one seat played from outside (vector.py) -----------------
# Row e of each array is table e: decks (E, 64) the round's deck, pos (E,), hands
# (E, 8·players), sizes, loot (E, players) this round's loot, banked (E, players) the
# loot of the match's earlier rounds, hole, gone (E, 8), rnd (E,) the round being played
# (0-based; the last one once the match is over), start (E,) its start player, current
# (E,), over (E,) the match is over (from `table_advance` to `table_rounds`: the round),
# and the tables' generator states xs (E,).  Every
# table plays a match of `rounds` rounds (WL-5.5; 1 is the variant WL-7.1) whose first
# round `first` starts; these are the tables' arrays in the order the functions take them.
@kernel
def table_deal(e, r, players, first, decks, pos, hands, sizes, hole, gone, loot, rnd, start, current, xs):
    """WL-3.2, WL-5.5: round r of table e: the waterhole cleared, all 64 cards shuffled
    and dealt from the round's start player, who is one seat on per round and moves first
    (WL-3.3); the round's loot starts at 0 (the caller banks the earlier rounds')."""
    xs[e] = deal(decks[e], xs[e])
    s0 = (first + r) % players
    pos[e] = start_round(decks[e], players, s0, hands[e], sizes[e], hole[e], gone[e])
    loot[e, :] = 0
    rnd[e] = r
    start[e] = s0
    current[e] = s0


@kernel
def table_advance(e, agent, code, players, adjacent, policies, decks, pos, hands, sizes, hole, gone, loot, current,
                  over, xs, quiet, trial, none):
    """Table e plays on - `code` by the seat to move first when it is >= 0 - until it is
    `agent`'s turn or the round is over (`over[e]`; the other seats by their policies).
    The caller goes on with `table_rounds`.  `none`: `unused()`."""
    if over[e]:
        return
    pos[e], current[e], over[e], xs[e], _t = turns(agent, code, players, adjacent, policies, decks[e], pos[e],
                                                   hands[e], sizes[e], hole[e], gone[e], loot[e], current[e],
                                                   xs[e], quiet, trial, none[0], none[1], none[2], none[3])


@kernel
def table_rounds(e, agent, players, rounds, first, adjacent, policies, decks, pos, hands, sizes, hole, gone, loot,
                 banked, rnd, start, current, over, xs, quiet, trial, none):
    """WL-5.2, WL-5.5: the round of table e has ended (the turn that emptied a hand).
    Unless it was the match's last, its loot is banked, the next round is dealt at once
    (as the engine's `end_round` does) and played up to `agent`'s turn, and so on;
    afterwards `over[e]` says whether the match is over.  The callers call it only when
    a round has ended: a loop in `table_advance`, or a call there, cost every turn of
    every table (a step of 1,024 tables 30 % more), by the reference counting of the
    arrays it passes on."""
    while over[e] and rnd[e] + 1 < rounds:
        for s in range(players):  # WL-5.5: points add up over the rounds
            banked[e, s] += loot[e, s]
        table_deal(e, rnd[e] + 1, players, first, decks, pos, hands, sizes, hole, gone, loot, rnd, start, current,
                   xs)
        over[e] = False
        table_advance(e, agent, -1, players, adjacent, policies, decks, pos, hands, sizes, hole, gone, loot, current,
                      over, xs, quiet, trial, none)


@kernel
def table_reset(e, agent, players, rounds, first, adjacent, policies, decks, pos, hands, sizes, hole, gone, loot,
                banked, rnd, start, current, over, xs, quiet, trial, none):
    """Deal table e a new match and play the other seats up to `agent`'s first turn.
    Its arrays are unmanaged when it is called from Python (vector.py; quiet, trial and
    none = `unused()` are scratch from there) and then when it calls on."""
    policies, decks, pos, hands = unmanaged(policies), unmanaged(decks), unmanaged(pos), unmanaged(hands)
    sizes = unmanaged(sizes)
    hole, gone, loot, banked = unmanaged(hole), unmanaged(gone), unmanaged(loot), unmanaged(banked)
    rnd = unmanaged(rnd)
    start, current, over, xs = unmanaged(start), unmanaged(current), unmanaged(over), unmanaged(xs)
    quiet, trial = unmanaged(quiet), unmanaged(trial)
    none = (unmanaged(none[0]), unmanaged(none[1]), unmanaged(none[2]), unmanaged(none[3]))
    banked[e, :] = 0
    over[e] = False
    table_deal(e, 0, players, first, decks, pos, hands, sizes, hole, gone, loot, rnd, start, current, xs)
    table_advance(e, agent, -1, players, adjacent, policies, decks, pos, hands, sizes, hole, gone, loot, current,
                  over, xs, quiet, trial, none)
    if over[e] and rnd[e] + 1 < rounds:  # a round ended before the agent's first turn
        table_rounds(e, agent, players, rounds, first, adjacent, policies, decks, pos, hands, sizes, hole, gone,
                     loot, banked, rnd, start, current, over, xs, quiet, trial, none)


@kernel
def tables_step(actions, agent, players, rounds, first, adjacent, policies, decks, pos, hands, sizes, hole, gone,
                loot, banked, rnd, start, current, over, xs, needs_reset, rewards, terminated, illegal,
                illegal_reward, quiet, trial, none):
    """One agent action per table (next-step autoreset: a table whose match ended on the
    previous step is dealt anew and its action ignored).  The reward at the match's end is
    the agent's zero-sum return (WL-5.3, WL-5.5: the points of all rounds; WL-5.4: a k-way
    shared win is 1/k, minus the mean 1/players); an action that is not a legal play ends
    the episode with `illegal_reward`.  quiet, trial and none (`unused()`): scratch from
    vector.py, since the arrays go on unmanaged (fast.unmanaged)."""
    actions, policies, decks, pos = unmanaged(actions), unmanaged(policies), unmanaged(decks), unmanaged(pos)
    hands = unmanaged(hands)
    sizes, hole, gone, loot = unmanaged(sizes), unmanaged(hole), unmanaged(gone), unmanaged(loot)
    banked = unmanaged(banked)
    rnd, start, current, over = unmanaged(rnd), unmanaged(start), unmanaged(current), unmanaged(over)
    xs = unmanaged(xs)
    needs_reset, rewards = unmanaged(needs_reset), unmanaged(rewards)
    terminated, illegal = unmanaged(terminated), unmanaged(illegal)
    quiet, trial = unmanaged(quiet), unmanaged(trial)
    none = (unmanaged(none[0]), unmanaged(none[1]), unmanaged(none[2]), unmanaged(none[3]))
    for e in range(len(actions)):
        rewards[e] = 0.0
        terminated[e] = False
        illegal[e] = False
        if needs_reset[e]:
            needs_reset[e] = False
            table_reset(e, agent, players, rounds, first, adjacent, policies, decks, pos, hands, sizes, hole, gone,
                        loot, banked, rnd, start, current, over, xs, quiet, trial, none)
            continue
        a = actions[e]
        if a < 0 or a >= 64 or hands[e, 8 * agent + a // 8] < a % 8 + 1:
            rewards[e] = illegal_reward
            terminated[e] = illegal[e] = needs_reset[e] = True
            continue
        table_advance(e, agent, a, players, adjacent, policies, decks, pos, hands, sizes, hole, gone, loot, current,
                      over, xs, quiet, trial, none)
        if over[e] and rnd[e] + 1 < rounds:  # the round ended, the match goes on
            table_rounds(e, agent, players, rounds, first, adjacent, policies, decks, pos, hands, sizes, hole, gone,
                         loot, banked, rnd, start, current, over, xs, quiet, trial, none)
        if over[e]:  # WL-5.5: the match is complete
            best, tied = 0, 0
            for s in range(players):
                total = banked[e, s] + loot[e, s]
                if total > best:
                    best, tied = total, 1
                elif total == best:
                    tied += 1
            won = 1.0 / tied if banked[e, agent] + loot[e, agent] == best else 0.0
            rewards[e] = won - 1.0 / players
            terminated[e] = needs_reset[e] = True


@kernel
def tables_encode(agent, players, rounds, adjacent, pos, hands, sizes, hole, gone, loot, banked, rnd, start, current,
                  over, obs, masks, after, unseen):
    """The agent's observation and legal-action mask per table, in the layout of
    games/wasserloch/codec.py (docs/encodings.md); after and unseen: scratch of 8."""
    pos, hands, sizes, hole = unmanaged(pos), unmanaged(hands), unmanaged(sizes), unmanaged(hole)
    gone = unmanaged(gone)
    loot, banked, rnd, start = unmanaged(loot), unmanaged(banked), unmanaged(rnd), unmanaged(start)
    current = unmanaged(current)
    over, obs, masks = unmanaged(over), unmanaged(obs), unmanaged(masks)
    after, unseen = unmanaged(after), unmanaged(unseen)
    for e in range(obs.shape[0]):
        row = obs[e]
        row[:] = 0.0
        row[agent] = 1.0                                   # seat
        row[4 + players - 2] = 1.0                         # players
        row[7 + (4 if over[e] else current[e])] = 1.0      # to_move (4: nobody)
        row[12] = rnd[e] / rounds                          # round (0-based) / rounds
        row[13 + start[e]] = 1.0                           # start player of this round
        for v in range(8):
            row[17 + v] = hole[e, v] / 8
            row[25 + v] = hands[e, 8 * agent + v] / 5
            row[38 + v] = gone[e, v] / 8
        for s in range(players):
            row[33 + s] = sizes[e, s] / 5
            row[46 + s] = loot[e, s] / 30                  # this round's loot
            row[50 + s] = (banked[e, s] + loot[e, s]) / 100  # the match's score (WL-5.5)
        row[37] = (64 - pos[e]) / 64
        row[54] = 1.0 if adjacent else 0.0
        row[55] = 1.0 if over[e] else 0.0
        _encode_tactics(row, TACTICS_AT, hole[e], hands[e, 8 * agent:8 * agent + 8], gone[e], adjacent, after, unseen)
        m = masks[e]
        m[:] = 0
        if not over[e]:
            for v in range(8):
                for n in range(1, hands[e, 8 * agent + v] + 1):
                    m[8 * v + n - 1] = 1


def encode_tactics(row, at, hole, hand, gone, adjacent) -> None:
    """codec.tactics into row[at:at + 152], scaled as the codec scales them (prize,
    need, unseen per value; gain and exposure per action index)."""
    _encode_tactics(row, at, hole, hand, gone, adjacent, np.empty(8, np.int64), np.empty(8, np.int64))


@kernel
def _encode_tactics(row, at, hole, hand, gone, adjacent, after, unseen) -> None:
    """`encode_tactics` with its scratch (after, unseen) passed in: every array is the
    caller's, so it goes unmanaged (fast.unmanaged)."""
    row, hole, hand, gone = unmanaged(row), unmanaged(hole), unmanaged(hand), unmanaged(gone)
    after, unseen = unmanaged(after), unmanaged(unseen)
    for v in range(8):
        target = chase_target(hole, v, adjacent)
        unseen[v] = 8 - hole[v] - gone[v] - hand[v]
        row[at + v] = hole[target] / 8 if target >= 0 else 0.0
        row[at + 8 + v] = max(1, DRIVE_THRESHOLD - hole[v]) / 3
        row[at + 16 + v] = unseen[v] / 8
    for v in range(8):
        for n in range(1, hand[v] + 1):
            after[:] = hole
            after[v] += n
            target = drive_target(after, v, adjacent)
            gain = 0
            if target >= 0:
                gain = after[target]
                after[target] = 0
            worst = 0
            for w in range(8):
                if max(1, DRIVE_THRESHOLD - after[w]) <= unseen[w]:
                    target = chase_target(after, w, adjacent)
                    if target >= 0 and after[target] > worst:
                        worst = after[target]
            row[at + 24 + 8 * v + n - 1] = gain / 8
            row[at + 88 + 8 * v + n - 1] = worst / 8
