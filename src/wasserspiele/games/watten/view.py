"""What one Watten seat may know (view) and worlds consistent with it (sample_world)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Sequence

from ...core.chance import shuffle_fast
from .actions import CARD_NAMES, N_CARDS, SIGNAL_LEVELS, SIGNALS, SUITS
from .state import (
    EV_ACCEPT, EV_CAUGHT, EV_CONCEDE, EV_DEAL, EV_HAND, EV_PLAY, EV_RAISE, EV_SIGNAL,
    EV_TRICK, EV_TRUMP, PHASE_NAMES, SIGNAL_PHASE, log_window,
)

if TYPE_CHECKING:
    from .rules import WattenState

LOG_SHOWN = 16
REASONS = ("tricks", "concede", "caught")
_EVENT_NAMES = ("deal", "trump", "signal", "play", "trick", "raise", "accept", "concede", "caught", "hand", "game")


def _event(kind: int, seat: int, arg: int) -> dict[str, Any]:
    name = _EVENT_NAMES[kind]
    if kind == EV_DEAL:
        return {"event": name, "dealer": seat, "caller": arg}
    if kind == EV_TRUMP:
        return {"event": name, "seat": seat, "suit": SUITS[arg]}
    if kind == EV_SIGNAL or kind == EV_CAUGHT:
        return {"event": name, "seat": seat, "signal": SIGNAL_LEVELS[arg]}
    if kind == EV_PLAY:
        return {"event": name, "seat": seat, "card": CARD_NAMES[arg]}
    if kind == EV_TRICK:
        return {"event": name, "winner": seat}
    if kind in (EV_RAISE, EV_ACCEPT, EV_CONCEDE):
        return {"event": name, "seat": seat, "value": arg}
    if kind == EV_HAND:
        return {"event": name, "team": seat, "points": arg // 4, "reason": REASONS[arg % 4]}
    return {"event": name, "team": seat, "score": arg}  # EV_GAME


def signal_visible(mode: str, seat: int | None, sender: int) -> bool:
    """WA-5: a signal is seen by its sender and the partner (everyone with signals=public)."""
    if mode == "public":
        return True
    if mode == "off" or seat is None:
        return False
    return sender == seat or sender == (seat + 2) % 4


def _sort_key(state: "WattenState"):
    trump = state.trump
    if trump < 0:
        return lambda c: c
    eff = state.game.eff[trump]
    strength = state.game.strength

    def key(c: int):
        e = eff[c]
        return (e != trump, e, -strength[trump * 4 + e][c])
    return key


def view(state: "WattenState", seat: int | None) -> dict[str, Any]:
    """Everything `seat` may know: own hand, public play, own and partner's signals (WA-5)."""
    return views(state, (seat,))[seat]


def views(state: "WattenState", seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
    """The views of several seats (State.views): the public play is built once and shared;
    each seat gets its own hand, the signals it may see (WA-5) and its log."""
    game = state.game
    names = CARD_NAMES
    mode = game.signal_mode
    public = 0b1111
    leader = state.leader
    raising = game.raising
    lh = state.results[-1] if state.results else None
    over = state.winner_team >= 0
    shared = {
        "game": "watten",
        "seat": None,
        "team": None,
        "partner": None,
        "teams": [[0, 2], [1, 3]],
        "options": dict(game.options),
        "target": game.target,
        "phase": PHASE_NAMES[state.phase],
        "to_move": list(state.to_move()),
        "hand_no": state.hand_no,
        "dealer": state.dealer,
        "caller": state.caller,
        "trump": SUITS[state.trump] if state.trump >= 0 else None,
        "hand": [],
        "hand_sizes": [len(h) for h in state.hands],
        "leader": leader,
        "trick": [[(leader + i) % 4, names[c]] for i, c in enumerate(state.trick)],
        "tricks": [{"leader": t[0], "cards": [[(t[0] + i) % 4, names[c]] for i, c in enumerate(t[1])],
                    "winner": t[2]} for t in state.tricks],
        "tricks_won": list(state.won),
        "scores": list(state.team_scores),
        "value": state.value,
        "raise": {
            "enabled": raising,
            "last_team": None if state.last_raise_team < 0 else state.last_raise_team,
            "pending": None if state.raiser < 0 else state.raiser,
            "answerer": None if state.raiser < 0 else (state.raiser + 1) % 4,
            "gespannt": [state.team_scores[t] + state.value >= game.target for t in (0, 1)],
            "can_raise": [raising and not over and state._raise_block(t) is None for t in (0, 1)],
        },
        "signals": [],
        "voids": [[SUITS[s] for s in range(4) if v >> s & 1] for v in state.voids],
        "log": [],
        "last_hand": None if lh is None else {
            "team": lh[3], "points": lh[4], "reason": REASONS[lh[5]], "tricks_won": [lh[6], lh[7]]},
        "results": [{"hand": r[0], "dealer": r[1], "trump": SUITS[r[2]], "team": r[3], "points": r[4],
                     "reason": REASONS[r[5]], "tricks_won": [r[6], r[7]]} for r in state.results],
        "winner_team": state.winner_team if over else None,
        "winners": state.winners(),
    }
    events: dict[int, dict[str, Any]] = {}  # log entries, shared by the seats that see them
    kept = state.log
    first = max(0, len(kept) - log_window(state.log_cut + len(kept)))  # the engine may keep a few more
    out = {}
    for seat in seats:
        bit = 0 if seat is None else 1 << seat
        log = []  # the last LOG_SHOWN events this seat sees, newest first until reversed
        for i in range(len(kept) - 1, first - 1, -1):
            if len(log) == LOG_SHOWN:
                break
            e = kept[i]  # (kind, seat, arg, mask)
            if e[3] == public or e[3] & bit:
                entry = events.get(i)
                if entry is None:
                    entry = events[i] = _event(e[0], e[1], e[2])
                log.append(entry)
        log.reverse()
        hand = sorted(state.hands[seat], key=_sort_key(state)) if seat is not None else []
        out[seat] = {
            **shared,
            "seat": seat,
            "team": None if seat is None else seat & 1,
            "partner": None if seat is None else (seat + 2) % 4,
            "hand": [names[c] for c in hand],
            "signals": [SIGNAL_LEVELS[lvl] if lvl >= 0 and signal_visible(mode, seat, s) else None
                        for s, lvl in enumerate(state.signals)],
            "log": log,
        }
    return out


def _augment(k: int, seen: set[int], slots: list[int], pool: list[int], allowed, owner: dict[int, int]) -> bool:
    """Kuhn's augmenting path from slot k (a module function, not a closure calling
    itself: that would be a reference cycle left for the garbage collector at every deal)."""
    o = slots[k]
    for c in pool:
        if c in seen or not allowed(o, c):
            continue
        seen.add(c)
        if c not in owner or _augment(owner[c], seen, slots, pool, allowed, owner):
            owner[c] = k
            return True
    return False


def _deal_constrained(unseen: list[int], sizes: dict[int, int], allowed, rng: random.Random) -> dict[int, list[int]] | None:
    """Hands of the given sizes from `unseen`, every card allowed for its seat; None if impossible.

    Rejection sampling (uniform over consistent deals) first; then a randomised
    bipartite matching (Kuhn's augmenting paths), which always finds a deal when one exists.
    """
    seats = list(sizes)
    total = sum(sizes.values())
    pool = list(unseen)
    for _ in range(24):
        shuffle_fast(pool, rng)
        out: dict[int, list[int]] = {}
        i = 0
        ok = True
        for o in seats:
            part = pool[i:i + sizes[o]]
            i += sizes[o]
            if not all(allowed(o, c) for c in part):
                ok = False
                break
            out[o] = part
        if ok:
            return out
    slots = [o for o in seats for _ in range(sizes[o])]
    shuffle_fast(slots, rng)
    shuffle_fast(pool, rng)
    owner: dict[int, int] = {}  # card -> slot index
    for k in range(len(slots)):
        if not _augment(k, set(), slots, pool, allowed, owner):
            return None
    if len(owner) != total:
        return None
    out = {o: [] for o in seats}
    for c, k in owner.items():
        out[slots[k]].append(c)
    for o in seats:
        shuffle_fast(out[o], rng)
    return out


def sample_world(state: "WattenState", seat: int, rng: random.Random) -> "WattenState":
    """A state with the same view for `seat`: the other hands and the 12 unused cards dealt
    anew consistent with the hand sizes and the voids shown in play (WA-3.2, jacks are
    trump), hidden signals re-drawn, and a blinded chance (future deals unknown)."""
    w = state.clone()
    w.chance = state.chance.blind(rng)
    known = set(state.hands[seat])
    for t in state.tricks:
        known.update(t[1])
    known.update(state.trick)
    unseen = [c for c in range(N_CARDS) if c not in known]
    others = [o for o in range(4) if o != seat]
    sizes = {o: len(state.hands[o]) for o in others}
    trump = state.trump
    voids = state.voids
    if trump >= 0 and any(voids[o] for o in others):
        eff = state.game.eff[trump]

        def allowed(o: int, c: int) -> bool:
            return not (voids[o] >> eff[c]) & 1
    else:
        def allowed(o: int, c: int) -> bool:
            return True
    dealt = _deal_constrained(unseen, sizes, allowed, rng)
    if dealt is None:  # cannot happen for a reachable state: the true deal is consistent
        raise RuntimeError("watten sample_world: no deal is consistent with the view")
    rest = set(unseen)
    for o, cards in dealt.items():
        w.hands[o] = cards
        rest.difference_update(cards)
    unused = [c for c in unseen if c in rest]
    shuffle_fast(unused, rng)
    w.unused = unused
    _resample_signals(state, w, seat, rng)
    return w


def _resample_signals(state: "WattenState", w: "WattenState", seat: int, rng: random.Random) -> None:
    """Signals the seat did not see are re-drawn in the sampled world (history, log, current hand)."""
    mode = state.game.signal_mode
    if mode == "off":
        return
    played = state.history
    rounds = state.signal_log  # per hand: where its signals are (state.py)
    if state.phase == SIGNAL_PHASE:  # the hand signalling now: its signals are the latest entries
        n = 4 - state.signals.count(-1)
        if n:
            rounds = rounds + [(len(played) - n, n, state.hand_no, state.log_cut + len(state.log) - n + 1, -1)]
    if not rounds:
        return
    new_log_level: dict[int, int] = {}
    sent = 0
    history = w.history
    for first, n, hand_no, first_ev, seen in rounds:
        for idx in range(first, first + n):
            sender, action, _ = played[idx]
            level = action.arg
            if idx != seen and not signal_visible(mode, seat, sender):
                level = rng.randrange(4)
                history[idx] = (sender, SIGNALS[level], history[idx][2])
                new_log_level[first_ev + idx - first] = level
                if hand_no == state.hand_no:
                    w.signals[sender] = level
            if level:
                sent += 1
    log = w.log  # the world's own copy: event number k is log[k - log_cut - 1], if still kept
    cut = w.log_cut
    for ev_no, level in new_log_level.items():
        i = ev_no - cut - 1
        if i >= 0:
            kind, sender, _, mask = log[i]  # that signal's event (EV_SIGNAL)
            log[i] = (kind, sender, level, mask)
    if state.game.detection_p > 0:
        w.chance.streams["signal_checks"] = [None] * sent
        w.chance._read["signal_checks"] = sent
