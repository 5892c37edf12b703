"""What one Wasserloch seat may know, and worlds consistent with it.

Hidden: the other hands (their sizes are public) and the draw pile's order.
Public: the waterhole, every loot count, and — since every looted card lay
face up at the waterhole — which values have gone this round; every play.
"""

from __future__ import annotations

import random
from typing import Any

from ...core.chance import shuffle_fast
from .actions import VALUES
from .state import packed

CARDS_PER_VALUE = 8


def view(state, seat: int | None) -> dict[str, Any]:
    """The position as `seat` sees it (None: a spectator)."""
    s = state
    recent, last = recent_plays(s)
    out: dict[str, Any] = {
        "game": "wasserloch",
        "seat": seat,
        "players": s.players,
        "round": s.round + 1,
        "rounds": s.rounds,
        "start_player": s.start_player,
        "to_move": [] if s.over else [s.current],
        "waterhole": list(s.hole),
        "hand": list(s.hand(seat)) if seat is not None else None,
        "hand_sizes": list(s.hand_sizes),
        "pile": s.pile_size,
        "gone": list(s.gone),
        "loot": [list(r) for r in s.loot],
        "scores": s.totals(),
        # the match's latest plays, oldest first, from the oldest of the seats' last plays
        # on: every play since any seat's previous turn (the news and the log tell them)
        "recent": recent,
        # per seat its last play (the board shows them): its entry in `recent`
        "last": last,
        # who played last (the board marks that play): the turn order does not say it once
        # a round has ended (WL-5.2: any seat's emptied hand ends it); it is the seat of the
        # newest play in `recent`
        "last_mover": s.history[-1][0] if s.history else None,
        "chase": "adjacent" if s.chase_adjacent else "nearest",
        "over": s.over,
        "winners": s.winners() if s.over else [],
    }
    return out


def recent_plays(state) -> tuple[list[dict[str, Any]], list[dict[str, Any] | None]]:
    """The match's plays in the order they were made, from the oldest of the seats' last
    plays on (every play so far until each seat has played): what happened since each
    seat's previous turn; and per seat its last play (the same entry), None before its
    first.  Each play with its seat and its number in the match (`move`, 1: the match's
    first play, counted over every seat and round).  WL-3.3, WL-5.2, WL-5.5: a round ends
    with any seat's emptied hand and the next begins one seat on, so a seat can play
    twice between two turns of another (the state's `recent` keeps enough plays for it:
    state.py).  Every play is public, so every seat and a spectator get the same lists."""
    history, recent, players = state.history, state.recent, state.players
    first = len(history) - len(recent)  # the history index of recent[0]
    last: list[dict[str, Any] | None] = [None] * players
    missing, start = players, len(recent)
    while missing and start:  # back to the oldest of the seats' last plays
        start -= 1
        seat = history[first + start][0]
        if last[seat] is None:
            last[seat] = True  # found; its entry is made below
            missing -= 1
    plays = []
    for k in range(start, len(recent)):
        e = recent[k]
        seat = history[first + k][0]
        last[seat] = play = {"seat": seat, "play": e[0], "drove_off": VALUES[e[1]] if e[1] >= 0 else None,
                             "loot": e[2], "round": e[3] + 1, "move": first + k + 1}
        plays.append(play)
    return plays, last


def unseen_values(state, seat: int) -> list[int]:
    """Value indices of the cards `seat` cannot see (other hands and the pile)."""
    out: list[int] = []
    own = state.hand(seat)
    for v in range(len(VALUES)):
        out += [v] * (CARDS_PER_VALUE - own[v] - state.hole[v] - state.gone[v])
    return out


def sample_world(state, seat: int, rng: random.Random):
    """Deal the other hands and the pile anew from the cards `seat` cannot see."""
    world = state.clone()
    cards = unseen_values(state, seat)
    shuffle_fast(cards, rng)
    pos = 0
    sizes = state.hand_sizes
    for other in range(state.players):
        if other == seat:
            continue
        end = pos + sizes[other]
        world.keys[other] = packed(cards[pos:end])
        pos = end
    world.pile = cards[pos:]
    world.pile_pos = 0
    world.chance = state.chance.blind(rng)
    return world
