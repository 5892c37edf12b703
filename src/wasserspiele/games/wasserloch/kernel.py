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

from ...fast import below, kernel, seed_state, xorshift32

RANDOM, GREEDY = 0, 1          # seat policies: uniformly random legal play; rollout_policy's greedy play
HAND_LIMIT = 5                 # WL-3.2, WL-4.4
DRIVE_THRESHOLD = 3            # WL-4.2
ACE, EIGHT = 0, 7


@kernel
def deal(deck: np.ndarray, x: int) -> int:
    """WL-3.2: shuffle the 64 cards (8 of each value) into `deck` (Fisher-Yates); the new
    generator state."""
    for i in range(64):
        deck[i] = i // 8
    for i in range(63, 0, -1):
        x = xorshift32(x)
        j = below(x, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return x


@kernel
def start_round(deck, players, start, hands, sizes, hole, gone, loot) -> int:
    """WL-3.2: five cards each in blocks from the start player; the pile position."""
    hands[:] = 0
    hole[:] = 0
    gone[:] = 0
    loot[:] = 0
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
    if v == ACE:
        return EIGHT if hole[EIGHT] else -1
    if adjacent:
        return v - 1 if hole[v - 1] else -1
    for w in range(v - 1, -1, -1):
        if hole[w]:
            return w
    return -1


@kernel
def play(code, seat, deck, pos, hands, sizes, hole, gone, loot, adjacent) -> int:
    """WL-4.1-4.5: seat plays `code`, drives off, draws up; the new pile position.
    `hands` holds the hands one after the other, 8 counts each."""
    v = code // 8
    n = code % 8 + 1
    base = 8 * seat
    hands[base + v] -= n
    sizes[seat] -= n
    hole[v] += n
    target = drive_target(hole, v, adjacent)
    if target >= 0:
        loot[seat] += hole[target]
        gone[target] += hole[target]
        hole[target] = 0
    while sizes[seat] < HAND_LIMIT and pos < 64:  # WL-4.4, WL-5.1
        hands[base + deck[pos]] += 1
        sizes[seat] += 1
        pos += 1
    return pos


@kernel
def greedy(hands, base, hole, adjacent, x, trial, quiet) -> tuple:
    """The heuristic module's `rollout_policy`: all copies of the value that drives off
    the biggest herd; else one card where it does not make a pair; else a random play.
    (code, generator state)."""
    best, best_gain, nq = -1, 0, 0
    for v in range(8):
        n = hands[base + v]
        if not n:
            continue
        trial[:] = hole
        trial[v] += n
        target = drive_target(trial, v, adjacent)
        gain = trial[target] if target >= 0 else 0
        if gain > best_gain:
            best, best_gain = 8 * v + n - 1, gain
        elif hole[v] != 1:
            quiet[nq] = 8 * v
            nq += 1
    if best >= 0:
        return best, x
    if nq:
        x = xorshift32(x)
        return quiet[below(x, nq)], x
    x = xorshift32(x)
    return nth_play(hands, base, below(x, hands[base:base + 8].sum())), x


@kernel
def nth_play(hands, base, r: int) -> int:
    """The code of legal play number r (0-based, the order of `legal`): value v offers
    hand[v] plays, so the plays are numbered like the cards of the hand."""
    v = 0
    while r >= hands[base + v]:
        r -= hands[base + v]
        v += 1
    return 8 * v + r


@kernel
def choose(policy, hands, base, size, hole, adjacent, x, codes, trial) -> tuple:
    """One seat's play under `policy` (RANDOM or GREEDY): (code, generator state).
    A hand of `size` cards has `size` legal plays."""
    if policy == GREEDY:
        return greedy(hands, base, hole, adjacent, x, trial, codes)
    x = xorshift32(x)
    return nth_play(hands, base, below(x, size)), x


@kernel
def _play_rounds(games, players, first, adjacent, policies, x, out):
    deck = np.zeros(64, np.int64)
    hands = np.zeros(8 * players, np.int64)
    sizes = np.zeros(players, np.int64)
    hole = np.zeros(8, np.int64)
    gone = np.zeros(8, np.int64)
    loot = np.zeros(players, np.int64)
    codes = np.zeros(40, np.int64)
    trial = np.zeros(8, np.int64)
    for g in range(games):
        x = deal(deck, x)
        pos = start_round(deck, players, first, hands, sizes, hole, gone, loot)
        seat = first
        while True:
            code, x = choose(policies[seat], hands, 8 * seat, sizes[seat], hole, adjacent, x, codes, trial)
            pos = play(code, seat, deck, pos, hands, sizes, hole, gone, loot, adjacent)
            if sizes[seat] == 0:  # WL-5.2: the turn that emptied a hand ends the round
                break
            seat = seat + 1 if seat + 1 < players else 0
        out[g, :] = loot
    return x


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
    seats = np.array([policies] * players if np.isscalar(policies) else list(policies), np.int64)
    if len(seats) != players or not np.isin(seats, (RANDOM, GREEDY)).all():
        raise ValueError(f"policies: one of RANDOM ({RANDOM}) or GREEDY ({GREEDY}) per seat, got {policies!r}")
    out = np.zeros((games, players), np.int64)
    _play_rounds(games, players, first_player, chase == "adjacent", seats, seed_state(seed), out)
    return out


@kernel
def _trace(games, players, adjacent, policies, x, decks, legal_out, played, steps, loot_out):
    hands = np.zeros(8 * players, np.int64)
    sizes = np.zeros(players, np.int64)
    hole = np.zeros(8, np.int64)
    gone = np.zeros(8, np.int64)
    loot = np.zeros(players, np.int64)
    codes = np.zeros(40, np.int64)
    trial = np.zeros(8, np.int64)
    for g in range(games):
        deck = decks[g]
        x = deal(deck, x)
        pos = start_round(deck, players, 0, hands, sizes, hole, gone, loot)
        seat, t = 0, 0
        while True:
            k = legal(hands, 8 * seat, codes)
            legal_out[g, t, :k] = codes[:k]
            code, x = choose(policies[seat], hands, 8 * seat, sizes[seat], hole, adjacent, x, codes, trial)
            played[g, t] = code
            t += 1
            pos = play(code, seat, deck, pos, hands, sizes, hole, gone, loot, adjacent)
            if sizes[seat] == 0:
                break
            seat = seat + 1 if seat + 1 < players else 0
        steps[g] = t
        loot_out[g, :] = loot
    return x


def trace_rounds(games: int, players: int, seed: int, policies=RANDOM, chase: str = "nearest") -> dict:
    """`play_rounds` (start player 0) with everything recorded, for checking the kernel
    against the engine: decks, legal codes per step (-1 padded), plays, steps, loot."""
    seats = np.array([policies] * players if np.isscalar(policies) else list(policies), np.int64)
    decks = np.zeros((games, 64), np.int64)
    legal_out = np.full((games, 64, 40), -1, np.int64)
    played = np.full((games, 64), -1, np.int64)
    steps = np.zeros(games, np.int64)
    loot = np.zeros((games, players), np.int64)
    _trace(games, players, chase == "adjacent", seats, seed_state(seed), decks, legal_out, played, steps, loot)
    return {"decks": decks, "legal": legal_out, "played": played, "steps": steps, "loot": loot}


def winners(loot_row) -> list[int]:
    """WL-5.4: the seats with the most loot (all tied seats win)."""
    best = max(loot_row)
    return [s for s, n in enumerate(loot_row) if n == best]


# -- many tables at once, one seat played from outside (vector.py) -----------------
# Row e of each array is table e: decks (E, 64), pos (E,), hands (E, 8·players),
# sizes, loot (E, players), hole, gone (E, 8), current (E,), over (E,) and the tables'
# generator states xs (E,).  Every table is a one-round game (WL-7.1) started by seat 0.
@kernel
def table_advance(e, agent, players, adjacent, policies, decks, pos, hands, sizes, hole, gone, loot, current,
                  over, xs, codes, trial):
    """The other seats play (by their policies) until it is `agent`'s turn or the round is over."""
    while not over[e] and current[e] != agent:
        seat = current[e]
        code, x = choose(policies[seat], hands[e], 8 * seat, sizes[e, seat], hole[e], adjacent, xs[e], codes, trial)
        xs[e] = x
        pos[e] = play(code, seat, decks[e], pos[e], hands[e], sizes[e], hole[e], gone[e], loot[e], adjacent)
        if sizes[e, seat] == 0:
            over[e] = True
        else:
            current[e] = seat + 1 if seat + 1 < players else 0


@kernel
def table_reset(e, agent, players, adjacent, policies, decks, pos, hands, sizes, hole, gone, loot, current,
                over, xs, codes, trial):
    """Deal table e anew and play the other seats up to `agent`'s first turn."""
    xs[e] = deal(decks[e], xs[e])
    pos[e] = start_round(decks[e], players, 0, hands[e], sizes[e], hole[e], gone[e], loot[e])
    current[e] = 0
    over[e] = False
    table_advance(e, agent, players, adjacent, policies, decks, pos, hands, sizes, hole, gone, loot, current,
                  over, xs, codes, trial)


@kernel
def tables_step(actions, agent, players, adjacent, policies, decks, pos, hands, sizes, hole, gone, loot, current,
                over, xs, needs_reset, rewards, terminated, illegal, illegal_reward):
    """One agent action per table (next-step autoreset: a table whose round ended on the
    previous step is dealt anew and its action ignored).  The reward at the end is the
    agent's zero-sum return (WL-5.4: a k-way shared win is 1/k, minus the mean 1/players);
    an action that is not a legal play ends the episode with `illegal_reward`."""
    codes = np.zeros(40, np.int64)
    trial = np.zeros(8, np.int64)
    for e in range(len(actions)):
        rewards[e] = 0.0
        terminated[e] = False
        illegal[e] = False
        if needs_reset[e]:
            needs_reset[e] = False
            table_reset(e, agent, players, adjacent, policies, decks, pos, hands, sizes, hole, gone, loot, current,
                        over, xs, codes, trial)
            continue
        a = actions[e]
        if a < 0 or a >= 64 or hands[e, 8 * agent + a // 8] < a % 8 + 1:
            rewards[e] = illegal_reward
            terminated[e] = illegal[e] = needs_reset[e] = True
            continue
        pos[e] = play(a, agent, decks[e], pos[e], hands[e], sizes[e], hole[e], gone[e], loot[e], adjacent)
        if sizes[e, agent] == 0:
            over[e] = True
        else:
            current[e] = agent + 1 if agent + 1 < players else 0
            table_advance(e, agent, players, adjacent, policies, decks, pos, hands, sizes, hole, gone, loot,
                          current, over, xs, codes, trial)
        if over[e]:
            best, tied = 0, 0
            for s in range(players):
                if loot[e, s] > best:
                    best, tied = loot[e, s], 1
                elif loot[e, s] == best:
                    tied += 1
            won = 1.0 / tied if loot[e, agent] == best else 0.0
            rewards[e] = won - 1.0 / players
            terminated[e] = needs_reset[e] = True


@kernel
def tables_encode(agent, players, adjacent, pos, hands, sizes, hole, gone, loot, current, over, obs, masks):
    """The agent's observation and legal-action mask per table, in the layout of
    games/wasserloch/codec.py (docs/encodings.md) for a one-round game."""
    for e in range(obs.shape[0]):
        row = obs[e]
        row[:] = 0.0
        row[agent] = 1.0                                   # seat
        row[4 + players - 2] = 1.0                         # players
        row[7 + (4 if over[e] else current[e])] = 1.0      # to_move (4: nobody)
        # 12: round 0 of 1 is 0; 13-16: start player seat 0
        row[13] = 1.0
        for v in range(8):
            row[17 + v] = hole[e, v] / 8
            row[25 + v] = hands[e, 8 * agent + v] / 5
            row[38 + v] = gone[e, v] / 8
        for s in range(players):
            row[33 + s] = sizes[e, s] / 5
            row[46 + s] = loot[e, s] / 30
            row[50 + s] = loot[e, s] / 100
        row[37] = (64 - pos[e]) / 64
        row[54] = 1.0 if adjacent else 0.0
        row[55] = 1.0 if over[e] else 0.0
        m = masks[e]
        m[:] = 0
        if not over[e]:
            for v in range(8):
                for n in range(1, hands[e, 8 * agent + v] + 1):
                    m[8 * v + n - 1] = 1
