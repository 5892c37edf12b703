"""What one Seven Waters seat may know, and worlds consistent with it.

Hidden: the hands (sizes public), the theme cards (whether one was placed is
public), the discard piles (sizes public) and the face-down pyramid cards (rows 2,
4, 6 until freed).  Public: every face-up pyramid card (even while covered), the
lines, slides, rivers and pools, and which card each take removed.  A seat sees its
own hand, discards and theme.

When the game is over (SW-5.1, the seed: then the parks open and you count) every
view shows what lies open on a table at the count: the theme cards, turned up (SW-5.2
counts their suit), and the cards left in hand (SW-5.2 counts each one; nothing is left
to play, so their secret protects nothing).  The discard piles stay face down: the seed
lays them face down and SW-5.2 counts only their size (public all game), so a terminal
view shows nothing of them beyond it.
"""

from __future__ import annotations

import random
from typing import Any

from ...core.cards import Card
from .actions import (
    FACE_UP_ROW, HAND_LIMIT, PYRAMID_SIZE, ROWS, Discard, Pool, River, Slide, Take, Theme, THEMES, piece_suit,
)
from .state import position_name

FACE_DOWN = "##"  # a face-down pyramid card in a view
LOG_EVENTS = 12   # how many recent public events a view carries


def _event_json(event: tuple, index: int, seat: int | None, over: bool) -> dict[str, Any]:
    """One event as `seat` may see it: a secret action (discard, theme) only to its actor;
    a theme to everyone once the game is over (SW-5.2: it is turned up then)."""
    p, action, taken, revealed, extra, _prev = event
    out: dict[str, Any] = {"index": index, "seat": p, "kind": action.kind, "extra": extra}
    t = type(action)
    if t is Discard:
        out["count"] = len(action.cards)
        out["action"] = str(action) if seat == p else "discard"
    elif t is Theme:
        out["action"] = str(action) if seat == p or over else "theme"
    else:
        out["action"] = str(action)
    if taken is not None:
        out["card"] = taken.name
        out["revealed"] = [c.name for c in revealed]
    return out


def view(state, seat: int | None) -> dict[str, Any]:
    """The position as `seat` sees it (None: a spectator)."""
    s = state
    over = s.over
    cells: list[str | None] = [
        None if c is None else (c.name if s.face_up(i) else FACE_DOWN) for i, c in enumerate(s.pyramid)]
    players = []
    for p in (0, 1):
        own = seat == p
        opened = own or over  # the one place that lays a seat's secrets open at the end (SW-5.1)
        theme = s.theme[p]
        pool = s.pool[p]
        players.append({
            "lines": [[c.name for c in line] for line in s.lines[p]],
            "line_sums": list(s.line_sums[p]),
            "slides": [None if sl is None else [str(x) for x in sl] for sl in s.slides[p]],
            "river": [str(x) for x in s.river[p]],
            "pool": [str(x) for x in pool],
            "pool_suit": piece_suit(pool[0]) if pool else None,
            "theme_placed": theme is not None,
            "theme": theme.name if theme is not None and opened else None,
            "hand_count": len(s.hands[p]),
            "hand": [c.name for c in s.hands[p]] if opened else None,
            "discard_count": len(s.discards[p]),
            "discards": [c.name for c in s.discards[p]] if own else None,
        })
    events = []
    e, n = s.log, len(s.history) - 1
    while e is not None and len(events) < LOG_EVENTS:
        events.append(_event_json(e, n, seat, over))
        e, n = e[5], n - 1
    events.reverse()
    options = s.game.options
    out: dict[str, Any] = {
        "game": "seven_waters",
        "seat": seat,
        "to_move": [] if over else [s.turn],
        "extra_action": s.extra,
        "over": over,
        "pyramid": [cells[r * (r - 1) // 2: r * (r + 1) // 2] for r in range(1, ROWS + 1)],
        "free": [position_name(i) for i in s.free_positions()],
        "pyramid_left": s.left,
        "hand_limit": HAND_LIMIT,
        "slides_built": s.slides_built,
        "slide_limit": options["slide_limit"],
        "final_turns": options["final_turns"],
        "final_turns_left": None if s.final_left < 0 else s.final_left,
        "players": players,
        "log": events,
        "actions_applied": len(s.history),
    }
    if over:
        out["scores"] = [s.breakdown(p) for p in (0, 1)]
        out["totals"] = s.scores()
        # SW-5.3: how the game was decided ("points", "pool" or "draw"), public only at
        # the end, so the renderers show the tie-break the rules applied
        out["winners"], out["decided_by"] = s.decision()
    return out


def _events(state) -> list[tuple]:
    """The whole event chain, oldest first."""
    out = []
    e = state.log
    while e is not None:
        out.append(e)
        e = e[5]
    out.reverse()
    return out


def _known_hidden(events: list[tuple], opp: int) -> tuple[list[Card], list[Card], int]:
    """Cards the opponent was seen to take and has not played face up since:
    (taken after its last secret act, so surely still in hand; taken before it, so in
    its hand, discard pile or theme), and the index of its first secret act (discard or
    theme; len(events) when none)."""
    in_hand: list[Card] = []
    hidden: list[Card] = []
    first_secret = len(events)
    for k, (p, action, taken, _rev, _extra, _prev) in enumerate(events):
        if p != opp:
            continue
        t = type(action)
        if t is Take:
            in_hand.append(taken)
        elif t is Discard or t is Theme:
            hidden += in_hand
            in_hand = []
            if k < first_secret:
                first_secret = k
        elif t is Slide or t is River or t is Pool:
            for piece in action.pieces:
                if piece.card in in_hand:
                    in_hand.remove(piece.card)
                elif piece.card in hidden:
                    hidden.remove(piece.card)
    return in_hand, hidden, first_secret


def sample_world(state, seat: int, rng: random.Random):
    """Deal anew what `seat` cannot see: the opponent's unknown hand cards, discards and
    theme (never a joker), and the face-down pyramid cards; once the game is over, only
    the order of the opponent's discard pile (the rest lies open, see the docstring above).

    Cards the opponent was seen to take stay with the opponent (in hand if taken after
    its last discard or theme).  Finer timing (which discard a card could have been
    part of) is not modelled.  The opponent's discard and theme actions in the history
    are rewritten to the dealt cards, so the world holds no trace of the true ones.
    """
    opp = seat ^ 1
    world = state.clone()
    events = _events(state)
    in_hand, hidden, first_secret = _known_hidden(events, opp)
    theme = state.theme[opp]
    if state.over:
        # SW-5.1: at the end the pyramid is empty and the opponent's hand and theme lie
        # open (view), so its discard pile holds just the cards seen nowhere else: all
        # that is left to deal is the pile's order (which discard threw which card)
        pile = sorted(state.discards[opp], key=_card_index)  # in card order, as dealt from
        rng.shuffle(pile)
        world.discards[opp] = pile
    else:
        _deal_hidden(state, world, opp, in_hand, hidden, rng)
        theme = world.theme[opp]
    # the history and event chain from the opponent's first secret act on, rewritten
    # (the events before it are the same and shared)
    if first_secret < len(events):
        pile = iter(world.discards[opp])
        log = events[first_secret - 1] if first_secret else None
        history = world.history
        for k in range(first_secret, len(events)):
            p, action, taken, revealed, extra, _prev = events[k]
            if p == opp:
                if type(action) is Discard:
                    action = Discard(tuple(next(pile) for _ in action.cards))
                    history[k] = (p, action, history[k][2])
                elif type(action) is Theme:
                    action = THEMES[theme.index]
                    history[k] = (p, action, history[k][2])
            log = (p, action, taken, revealed, extra, log)
        world.log = log
    world.chance = state.chance.blind(rng)
    return world


def _deal_hidden(state, world, opp: int, in_hand: list[Card], hidden: list[Card], rng: random.Random) -> None:
    """While the game runs: deal `world` the opponent's hand, discards and theme and the
    face-down pyramid cards anew (sample_world)."""
    # Unseen: every card lies in the pyramid, a hand, a discard pile or a park, so what
    # `seat` does not see is the face-down pyramid and the opponent's hand, discards and
    # theme, less the cards it saw the opponent take.
    pyramid = state.pyramid
    face_down = [i for i in _FACE_DOWN_ROWS if pyramid[i] is not None and not state.is_free(i)]
    theme = state.theme[opp]
    unseen = set(state.hands[opp])
    unseen.update(state.discards[opp])
    unseen.update(pyramid[i] for i in face_down)
    if theme is not None:
        unseen.add(theme)
    unseen.difference_update(in_hand)
    unseen.difference_update(hidden)
    unknown = sorted(unseen, key=_card_index)  # in card order, as dealt from
    rng.shuffle(unknown)
    has_theme = theme is not None
    need = len(state.hands[opp]) + len(state.discards[opp]) + has_theme - len(in_hand) - len(hidden)
    dealt, rest = unknown[:need], unknown[need:]
    theme = None
    if has_theme:
        if not any(c.rank for c in hidden) and not any(c.rank for c in dealt):
            # a theme is never a joker: swap a joker for an unseen plain card
            j = next(k for k, c in enumerate(rest) if c.rank)
            dealt[0], rest[j] = rest[j], dealt[0]
        pool = [c for c in hidden + dealt if c.rank]
        theme = pool[rng.randrange(len(pool))]
    mixed = [c for c in hidden + dealt if c is not theme]
    rng.shuffle(mixed)
    n_disc = len(state.discards[opp])
    world.discards[opp] = mixed[:n_disc]
    world.hands[opp] = sorted(mixed[n_disc:] + in_hand, key=_card_index)
    world.theme[opp] = theme
    world_pyramid = world.pyramid
    for i, c in zip(face_down, rest):
        world_pyramid[i] = c


def _card_index(c: Card) -> int:
    return c.index


# SW-3.2: rows 2, 4 and 6 lie face down (a card there turns up once free)
_FACE_DOWN_ROWS = tuple(i for i in range(PYRAMID_SIZE) if not FACE_UP_ROW[i])
