"""A search rollout's scratch (the legal codes) is allocated by `kernel.rollout` in Python,
per call, so the compiled code passes it on without numba's reference counting and
searches in several threads (the web's bot workers) never share one."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from wasserspiele.games.wildwasser import kernel as K


def dealt(players: int, count: int, seed: int) -> list[np.ndarray]:
    """New deals (WW-2.1) with their own generator states."""
    bd = K.BOARDS["forward"]
    order = np.zeros(bd[K.B_REGULAR_N], np.int64)
    out = []
    for i in range(count):
        st = K.new_position()
        x = K.shuffle_tiles(bd, order, seed * 1000 + i + 1)
        K.start_game(st, bd, players, i % players, K.BOARD.removed_for(players), order, x)
        out.append(st)
    return out


def roll_all(starts: list[np.ndarray], depth: int) -> list:
    """Each start rolled out (from a copy) by `depth` random decisions: whether the game
    ended, the points, the winners and the position reached."""
    bd = K.BOARDS["forward"]
    out = []
    for st in starts:
        st = st.copy()
        players = int(st[K.PLAYERS])
        pts, won = np.zeros(players, np.int64), np.zeros(players, np.int64)
        over = K.rollout(st, bd, depth, pts, won)
        out.append((bool(over), pts.tolist(), won.tolist() if over else None, st.tobytes()))
    return out


def test_ww_5_rollouts_in_threads_give_the_results_of_one_thread():
    """WW-5.3: rollouts to the end and cut short (depth 25), run by four threads at once
    (the compiled rollout releases the GIL), end as they end one after another."""
    starts = [st for players in (2, 4, 6) for st in dealt(players, 40, seed=players)]
    chunks = [starts[i::4] for i in range(4)]
    for depth in (25, 1 << 20):
        alone = [roll_all(chunk, depth) for chunk in chunks]
        with ThreadPoolExecutor(4) as pool:
            together = list(pool.map(lambda chunk: roll_all(chunk * 40, depth), chunks))
        for got, one in zip(together, alone):
            assert got == one * 40
        ended = [r[0] for one in alone for r in one]
        assert all(ended) if depth > 25 else not any(ended)  # both kinds of rollout were tried
