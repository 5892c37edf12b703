"""Scenario helpers: explicit setups and direct edits of a Wildwasser position."""

from __future__ import annotations

from wasserspiele import load
from wasserspiele.games.wildwasser.board import SPECIES_INDEX
from wasserspiele.games.wildwasser.state import N_SPECIES, TEAM_CARD

TILES = [f"T{i:02d}" for i in range(1, 25)]


def new(players=2, tiles=None, dice=(), **options):
    """A fresh game from an explicit setup (default tile order T01…T24, given dice)."""
    game = load("wildwasser", players=players, **options)
    return game.new_game(setup={"tiles": list(tiles or TILES), "dice": list(dice)})


def animal(seat: int, species: str) -> int:
    return seat * N_SPECIES + SPECIES_INDEX[species]


def put(state, seat: int, species: str, field: int) -> None:
    """Place an animal on a field (0: its team card), lifting it from where it was."""
    a = animal(seat, species)
    old = state.pos[a]
    if old == state.finish:
        raise ValueError("use the podium helpers for finished animals")
    state.occ[old] = -1
    state.occ[0] = -1
    if field != TEAM_CARD:
        assert state.occ[field] < 0, f"field {field} is taken"
        state.occ[field] = a
    state.pos[a] = field
    state.sync()  # the engine's kept fields (finished masks, choices) follow the edit


def finish(state, seat: int, species: str) -> int:
    """Put an animal on its podium's next place; returns the place."""
    a = animal(seat, species)
    put(state, seat, species, 0)
    sp = SPECIES_INDEX[species]
    state.podium_n[sp] += 1
    state.place[a] = state.podium_n[sp]
    state.pos[a] = state.finish
    state.done[seat] += 1
    state.sync()
    return state.place[a]


def field_of(state, seat: int, species: str):
    """The field of an animal, 0 on the team card, 'podium N' when finished."""
    a = animal(seat, species)
    p = state.pos[a]
    return f"podium {state.place[a]}" if p == state.finish else p


def set_slot(state, slot: int, tile: str | None) -> None:
    """Put a tile (or nothing) into a 1-based river slot; the old one goes to the discard."""
    b = state.board
    old = state.slots[slot - 1]
    if tile is None:
        new = -1
    else:
        new = b.tile_index[tile]
        for zone in (state.stack, state.removed, state.discard):
            if new in zone:
                zone.remove(new)
        if new in state.slots:
            state.slots[state.slots.index(new)] = -1
    if old >= 0:
        state.discard.append(old)
    state.slots[slot - 1] = new
    state.gaps = -1 in state.slots


def picks(state, *cards: str) -> None:
    """Every seat picks (in seat order): cards[s] for seat s."""
    assert state.phase == 0, "not in the pick phase"
    for s, c in enumerate(cards):
        state.apply(f"pick {c}", s)


def events(state, kind: str) -> list[tuple]:
    return [e for _, e in state.events() if e[0] == kind]


def last_player_finishes_third():
    """Two players; seat 1 (B), the round's last to move, has two animals across and its
    cheetah one field short, and both have picked: B's move finishes a third animal with
    the round's last card (WW-5.1)."""
    s = new(2)
    finish(s, 1, "turtle")
    finish(s, 1, "meerkat")
    put(s, 1, "cheetah", 35)
    picks(s, "zebra", "cheetah")
    return s
