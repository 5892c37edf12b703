"""Playing a study's games in lockstep when the learned bot sits in every seat.

A learned move is one small forward pass of a network, and a forward pass for one
observation costs mostly numpy's per-call overhead.  Here the games of a chunk advance
together: each round every unfinished game's seat to move is found, the observations
of all seats that have a choice are stacked and the network runs once for all of them
(`Network.logits_rows`, which gives every row bit for bit what a lone observation gives),
and each bot's pick is made by the rule `LearnedBot.choose` uses (`bots.learned.best_legal`,
a tie broken by the bot's own generator).  The observations are the codec's
`observe_state` — the seat's view encoded without building it, the very vector
`observe(view)` gives (tests/adapters/test_codecs.py) — and the chosen action, one of
`legal_actions`, goes through the engine's trusted `State.apply_legal`.

So these are the games `Series.play` plays one at a time from the same seeds, with the
same bots (built from the same specs and seeds), the same measures and records;
tests/lab/test_lockstep.py compares whole studies row for row.  A study with another
bot, or with a learned bot that searches, plays through the engine, and
`lab.kernels.kernel_note` says so in the report.

Where the game's measures class offers `lockstep_tables` (a compiled kernel that deals
the engine's games from the same seeds: Watten, Wildwasser) and numba is installed, the games
themselves run in the kernel: it plays the forced moves, encodes the observations of
the seats to move and keeps the lab's counts, and only the network and the pick stay
in Python.  tests/lab/test_lockstep.py checks the kernel's legal actions and
observations against the engine's at every decision, and whole studies row for row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from ..bots.base import Bot
from ..bots.learned import LearnedBot, best_legal
from ..bots.runner import Played, Series
from ..core.protocol import Game, State, win_shares
from ..fast import kernel
from .measures import measures_class


def lockstep_reason(study: Any, game: Game) -> str | None:
    """Why the games of `study` under `game`'s options cannot be played in lockstep, or
    None when they can (every seat the learned bot, playing its policy without search)."""
    if not study.kernels:
        return "fast paths switched off for this study"
    bots = {spec.text: spec.make(game, 0) for spec in study.bots}
    others = sorted(text for text, bot in bots.items() if type(bot) is not LearnedBot)
    if others:
        return f"lockstep play needs the learned bot in every seat, not {', '.join(f'`{t}`' for t in others)}"
    searching = sorted(text for text, bot in bots.items() if bot.searcher is not None)
    if searching:
        return f"{', '.join(f'`{t}`' for t in searching)} searches every move (only the plain policy batches)"
    return None


def all_learned(study: Any) -> bool:
    """Every bot of the study is a learned one (so the lockstep path is the question)."""
    return all(spec.kind == "learned" for spec in study.bots)


@dataclass
class _Table:
    """One game of the chunk in play."""

    index: int
    seed: int
    lineup: tuple[int, ...]
    state: State | None  # None while the kernel plays the game
    bots: list[Bot]
    observer: Any


def play_lockstep(series: Series, game: Game, indices: Sequence[int]) -> list[Played]:
    """Games `indices` of `series` (all seats learned bots without search, as
    `lockstep_reason` checked), as `Series.play` would have played them."""
    n = len(series.bots)
    seating = series.seating
    tables = []
    for i in indices:
        lineup = seating.lineup(game, n, i, series.seed)
        seed = seating.game_seed(series.seed, i, game, n)
        bots = [series.bots[b].make(game, seating.bot_seed(series.seed, i, s)) for s, b in enumerate(lineup)]
        observer = series.observer(game) if series.observer else None
        tables.append(_Table(i, seed, lineup, None, bots, observer))
    plugin = lockstep_kernel(series, game)
    if plugin is not None and tables:
        return _play_in_kernel(series, game, tables, plugin)
    for t in tables:
        t.state = game.new_game(seed=t.seed)
    codec = tables[0].bots[0].codec if tables else None
    live = tables
    while live:
        asking: dict[int, list[tuple[_Table, int, Mapping, list[int]]]] = {}  # per network
        for t in live:
            state = t.state
            if len(state.history) >= series.max_actions:
                raise RuntimeError(f"{game.name} seed {t.seed}: no end after {series.max_actions} actions")
            seat = state.current_seat
            # {index: action} in legal_actions' order; a codec may make an action only when
            # it is looked up (Seven Waters), so only the chosen one is
            moves = codec.legal_map_state(state, seat)
            indices = list(moves)
            if len(indices) == 1:  # the bot takes the only move without looking (nor drawing)
                _act(t, moves[indices[0]], seat)
            else:
                asking.setdefault(id(t.bots[seat].network), []).append((t, seat, moves, indices))
        for group in asking.values():
            network = group[0][0].bots[group[0][1]].network
            x = np.stack([codec.observe_state(t.state, seat) for t, seat, _, _ in group])
            picks = best_legal(network.logits_rows(x), [indices for *_, indices in group],
                               [t.bots[seat].rng for t, seat, _, _ in group])
            for (t, seat, moves, indices), pick in zip(group, picks):
                _act(t, moves[indices[pick]], seat)
        live = [t for t in live if not t.state.is_terminal()]
    out = []
    for t in tables:
        state = t.state
        measures = t.observer.finish(state) if t.observer is not None else {}
        out.append(Played(t.index, t.seed, t.lineup, list(state.scores()), list(state.winners()),
                          list(state.returns()), len(state.history), measures))
    return out


def _act(table: _Table, action: Any, seat: int) -> None:
    table.state.apply_legal(action, seat)
    observer = table.observer
    if observer is not None and observer.per_step:
        observer.step(table.state, action, seat)


def kernel_plugin(game: Game) -> Any:
    """The game's measures class when its compiled kernel can play the lab's lockstep
    games (`lockstep_tables`, `lockstep_measures`; numba installed); else None."""
    from ..fast import COMPILED
    found = measures_class(game)
    return found if COMPILED and getattr(found, "lockstep_tables", None) is not None else None


def lockstep_kernel(series: Series, game: Game) -> Any:
    """`kernel_plugin(game)` when the series wants no other observer than the lab's own
    (lab/study.Watch); else None (the engine plays the games)."""
    from .study import Watch
    return kernel_plugin(game) if series.observer in (None, Watch) else None


def _play_in_kernel(series: Series, game: Game, tables: list[_Table], plugin: Any) -> list[Played]:
    """`play_lockstep`'s games in the kernel: each round the kernel applies the picks,
    plays the forced moves and hands back the games that ask, with their legal codes and
    observations; the network runs once per network for them and `best_rows` picks by
    `best_legal`'s rule (a tie goes to `best_legal` itself and the bot's generator)."""
    from .study import LEAD_CHANGES
    size = len(tables)
    codec = tables[0].bots[0].codec
    k = plugin.lockstep_tables(game, [t.seed for t in tables], codec.obs_size)
    asking = np.zeros(size, np.int64)
    legal = np.zeros((size, k.max_legal), np.int64)
    n_legal = np.zeros(size, np.int64)
    x = np.zeros((size, codec.obs_size), np.float32)
    picks = np.zeros(size, np.int64)
    networks = {id(b.network): b.network for t in tables for b in t.bots}
    only = next(iter(networks.values())) if len(networks) == 1 else None

    def bots_of(rows: Sequence[int]) -> list[Bot]:
        games = asking[list(rows)]
        return [tables[g].bots[seat] for g, seat in zip(games.tolist(), k.seats(games))]

    n = 0
    while True:
        try:
            n = k.round(picks, n, series.max_actions, asking, legal, n_legal, x)
        except OverflowError as late:
            t = tables[late.args[0]]
            raise RuntimeError(f"{game.name} seed {t.seed}: no end after {series.max_actions} actions") from None
        if not n:
            break
        if only is not None:
            logits = only.logits_rows(x[:n])
        else:  # seats with different networks: each network for its own rows
            logits = np.empty((n, codec.num_actions), np.float32)
            bots = bots_of(range(n))
            for key, network in networks.items():
                rows = [r for r, b in enumerate(bots) if id(b.network) == key]
                if rows:
                    logits[rows] = network.logits_rows(x[rows])
        if best_rows(logits, legal, n_legal, picks, n):
            tied = np.flatnonzero(picks[:n] < 0).tolist()
            for r, bot in zip(tied, bots_of(tied)):
                picks[r] = best_legal(logits[r:r + 1], [legal[r, :n_legal[r]].tolist()], [bot.rng])[0]
    out = []
    watched = series.observer is not None
    for t, r in zip(tables, k.results()):
        won = r["winners"]
        returns = win_shares(game, won)
        measures: dict = {}
        if watched:
            own, lead_changes = plugin.lockstep_measures(game, r)
            measures = {**own, LEAD_CHANGES: lead_changes}
        out.append(Played(t.index, t.seed, t.lineup, r["scores"], won, returns, r["actions"], measures))
    return out


@kernel
def best_rows(logits, legal, n_legal, picks, n: int) -> int:
    """`bots.learned.best_legal` for rows 0..n-1 without the draw: picks[r] the position in
    legal[r, :n_legal[r]] of the largest legal logit, or -1 when another lies within 1e-6
    of it (a tie: the bot's generator decides); the number of ties.  In float32 as numpy
    computes `best - 1e-6` (NEP 50), tested against best_legal."""
    eps = np.float32(1e-6)
    ties = 0
    for r in range(n):
        k = n_legal[r]
        best = logits[r, legal[r, 0]]
        for j in range(1, k):
            v = logits[r, legal[r, j]]
            if v > best:
                best = v
        floor = best - eps
        found = -1
        count = 0
        for j in range(k):
            if logits[r, legal[r, j]] >= floor:
                count += 1
                if found < 0:
                    found = j
        if count == 1:
            picks[r] = found
        else:
            picks[r] = -1
            ties += 1
    return ties
