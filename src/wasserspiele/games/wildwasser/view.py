"""What one seat may know in Wildwasser, and worlds consistent with it.

Hidden: each face-down pick until its reveal (others see only THAT a seat has picked),
the order of the tile stack and which tiles were removed unseen (their counts are
public).  Everything else is public; a hand is public by elimination (the cards not
lying revealed), except that a face-down pick hides which of them is still in hand.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Sequence

from .actions import PICK, PICKS
from .board import ICON_NAME, SPECIES
from .state import CHOOSE, MARKER_CHOICE, N_SPECIES, OVER, PHASE_NAMES, SUN_CHOICE, TEAM_CARD

if TYPE_CHECKING:
    from .rules import WildwasserState

LOG_LENGTH = 40  # events in a view's public log


def _names(mask: int) -> list[str]:
    return [SPECIES[sp] for sp in range(N_SPECIES) if mask >> sp & 1]


@lru_cache(maxsize=8)
def tile_kinds(b) -> tuple[str, ...]:
    """What each tile is to a player (WW-2.1), by tile index: `start` (the red-arrow tile),
    `blank`, or the icon it shows (`+1` … `push`).  The ids (T00 …) name tiles in the board
    file and in records, never on a screen, so the view carries the kind of every face-up
    tile beside its id and no renderer needs the board."""
    kinds = []
    for t, icons in enumerate(b.tile_icons):
        shown = [ICON_NAME[c] for c in icons if c]
        kinds.append("start" if t == b.start_tile else shown[0] if shown else "blank")
    return tuple(kinds)


def marker_how(seat: int, to: int, before: int) -> str:
    """How a start marker's move reads (WW-3.2 cheetah, WW-4.3 icon), worked out once here
    for every renderer: it `keeps` on its mover's team card or `stays` on another's (an
    icon may leave it where it lay), its mover `takes` it from another, hands it on from
    its own card (`hands_on`), or `moves` it between two other cards (a marker icon lets
    A put C's marker on B); never "A gives the start marker to A", nor "A gives" a marker
    A never held."""
    if to == before:
        return "keeps" if to == seat else "stays"
    if to == seat:
        return "takes"
    return "hands_on" if before == seat else "moves"


def _event(i: int, e: tuple, b) -> dict[str, Any]:
    """One public log event as JSON."""
    kind, seat = e[0], e[1]
    d: dict[str, Any] = {"i": i, "event": kind, "seat": seat if seat >= 0 else None}
    if kind == "round":
        d.update(round=e[2], start_marker=e[3])
    elif kind == "reveal":
        d["card"] = SPECIES[e[2]]
    elif kind in ("move", "finish"):
        d.update(animal=SPECIES[e[2]], start=e[3])
        if kind == "move":
            d["to"] = e[4]
        else:
            d["place"] = e[4]
    elif kind == "blocked":
        d.update(animal=SPECIES[e[2]], at=e[3])
    elif kind == "icon":
        d.update(icon=ICON_NAME[e[2]], field=e[3])
    elif kind == "roll":
        d["face"] = e[2]
    elif kind == "push":  # both tiles lie face up now: the one drawn, the one fallen
        kinds = tile_kinds(b)
        d.update(tile=b.tile_ids[e[2]] if e[2] >= 0 else None,
                 tile_kind=kinds[e[2]] if e[2] >= 0 else None,
                 waterfall=b.tile_ids[e[3]] if e[3] >= 0 else None,
                 waterfall_kind=kinds[e[3]] if e[3] >= 0 else None,
                 washed=[[a // N_SPECIES, SPECIES[a % N_SPECIES]] for a in e[4]])
    elif kind == "marker":
        # before: where it lay (WW-4.3: it may stay there); how: the words for it
        d.update(to=e[2], before=e[3], how=marker_how(seat, e[2], e[3]))
    elif kind == "nothing":
        d["why"] = e[2]
    elif kind == "decide":
        d["action"] = e[2]
    elif kind == "end":
        d["why"] = e[2]
        # WW-5.1: the seats with three animals across the finish line (an event of a log
        # made before it carried them: none known)
        d["finishers"] = list(e[3]) if len(e) > 3 else None
    return d


_EVENTS: dict[tuple, dict[str, Any]] = {}  # JSON form of log events, shared by all views (bounded)


def _event_json(i: int, e: tuple, b) -> dict[str, Any]:
    key = (i, e)
    d = _EVENTS.get(key)
    if d is None:
        if len(_EVENTS) > 100_000:
            _EVENTS.clear()
        d = _EVENTS[key] = _event(i, e, b)
    return dict(d)


def view(state: "WildwasserState", seat: int | None) -> dict[str, Any]:
    """Everything `seat` may know (None: a spectator), JSON-ready."""
    return views(state, (seat,))[seat]


def views(state: "WildwasserState", seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
    """The views of several seats (State.views): the public track, river, log, podiums
    and every seat's public entry are built once and shared; only the seats list
    differs, where a seat's own face-down pick is shown to it alone."""
    b = state.board
    g = state.game
    p = state.players
    n = N_SPECIES
    fin = state.finish
    resolving = state.phase in (CHOOSE, SUN_CHOICE, MARKER_CHOICE)

    track = []
    slots, occ = state.slots, state.occ
    names, tile_ids, icons = ICON_NAME, b.tile_ids, b.tile_icons
    for f, k, slot, col, bank in g.field_table:
        a = occ[f]
        who = [a // n, SPECIES[a % n]] if a >= 0 else None
        if k < 0:
            track.append({"field": f, "icon": names[bank], "animal": who})
        else:
            t = slots[slot]
            track.append({"field": f, "icon": names[icons[t][col]] if t >= 0 else None, "animal": who,
                          "crossing": k + 1, "slot": slot + 1, "column": col,
                          "tile": tile_ids[t] if t >= 0 else None, "passable": t >= 0})

    river = []
    kinds = tile_kinds(b)  # only of face-up tiles: the stack's stay hidden
    for s, t in enumerate(state.slots):
        river.append({"slot": s + 1, "crossing": g.slot_crossing[s] + 1, "tile": state.tile_id(t),
                      "kind": kinds[t] if t >= 0 else None,
                      "icons": [ICON_NAME[i] for i in b.tile_icons[t][1:]] if t >= 0 else None})

    # each seat's entry as the others see it, and as the seat itself sees it when its
    # pick is face down (hand and pick shown to it alone)
    public_entry, own_entry = [], {}
    points = state.points()
    for s in range(p):
        animals = {}
        for sp in range(n):
            a = s * n + sp
            pos = state.pos[a]
            if pos == TEAM_CARD:
                animals[SPECIES[sp]] = {"at": "team card", "field": None, "place": None}
            elif pos == fin:
                animals[SPECIES[sp]] = {"at": "podium", "field": None, "place": state.place[a]}
            else:
                animals[SPECIES[sp]] = {"at": "track", "field": pos, "place": None}
        pick = state.pick[s]
        unrevealed = state.hand[s] | (1 << pick if pick >= 0 else 0)
        entry = {
            "seat": s,
            "hand": None if pick >= 0 else _names(state.hand[s]),
            "unrevealed": _names(unrevealed),
            "revealed": _names(state.revealed[s]),
            "picked": pick >= 0,
            "pick": None,
            "animals": animals,
            "finished": state.done[s],
            "points": points[s],
        }
        public_entry.append(entry)
        if pick >= 0:
            own_entry[s] = {**entry, "hand": _names(state.hand[s]), "pick": SPECIES[pick]}

    podiums = {SPECIES[sp]: [None] * state.podium_n[sp] for sp in range(n)}
    for a, pl in enumerate(state.place):
        if pl:
            podiums[SPECIES[a % n]][pl - 1] = a // n

    over = state.phase == OVER
    public = {
        "game": "wildwasser",
        "seat": None,
        "players": p,
        "river_flow": g.options["river_flow"],
        "round": state.round,
        "phase": PHASE_NAMES[state.phase],
        "to_move": list(state.waiting),
        "start_marker": state.marker,
        "order": list(state.order),
        "resolving": state.order[state.turn] if resolving else None,
        "card": SPECIES[state.card] if resolving else None,
        "fields": b.fields,
        "track": track,
        "river": river,
        "stack": len(state.stack),
        "removed": len(state.removed),
        "discard": [b.tile_ids[t] for t in state.discard],
        "discard_kinds": [kinds[t] for t in state.discard],  # the waterfall pile lies face up
        "last_round": state.last_round,
        "seats": public_entry,
        "podiums": podiums,
        "podium_points": {SPECIES[sp]: list(b.podium[sp]) for sp in range(n)},
        "speeds": {SPECIES[sp]: b.speed[sp] for sp in range(n)},
        "log": [_event_json(i, e, b) for i, e in state.events(LOG_LENGTH)],
        "scores": points,
        "winners": state.winners() if over else [],
    }
    out = {}
    for seat in seats:
        own = own_entry.get(seat)
        out[seat] = {**public, "seat": seat,
                     "seats": public_entry if own is None else
                     [own if e["seat"] == seat else e for e in public_entry]}
    return out


def sample_world(state: "WildwasserState", seat: int | None, rng: random.Random) -> "WildwasserState":
    """A world with the same view for `seat`: others' face-down picks drawn anew from
    their unrevealed cards, the stack and the removed tiles reshuffled together, the
    future dice unknown (chance blinded)."""
    w = state.clone()
    redealt = {}
    for s in range(state.players):
        if s == seat or w.pick[s] < 0:
            continue
        pool = w.hand[s] | 1 << w.pick[s]
        cards = [sp for sp in range(N_SPECIES) if pool >> sp & 1]
        sp = cards[rng.randrange(len(cards))]
        w.pick[s] = sp
        w.hand[s] = pool & ~(1 << sp)
        redealt[s] = sp
    if redealt:  # the history must not keep the true picks of this round either
        for i in range(w.round_start, len(w.history)):
            s, action, together = w.history[i]
            if action.kind == PICK and s in redealt:
                w.history[i] = (s, PICKS[redealt[s]], together)
    # in an order the seat can know (sorted): shuffling the true order would make a
    # seeded search's worlds, so its moves, depend on the hidden stack
    tiles = sorted(w.stack + w.removed)
    rng.shuffle(tiles)
    k = len(w.stack)
    w.stack = tiles[:k]
    w.removed = tiles[k:]
    w.chance = state.chance.blind(rng)
    return w
