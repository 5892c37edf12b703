"""WL-2: the deck drawn as value indices (no deal turns 64 names into numbers) and written in
records as names, as records.md has them: in a record, a replay, a pickle and a sampled world."""

import pickle
import random

from wasserspiele import load
from wasserspiele.core.records import make_record
from wasserspiele.games.wasserloch.actions import VALUES


def _play(state, rng, steps):
    for _ in range(steps):
        if state.is_terminal():
            break
        seat = state.current_seat
        state.apply(rng.choice(state.legal_actions(seat)), seat)


def test_wl_2_decks_are_drawn_as_indices_and_written_as_names():
    game = load("wasserloch", players=3, rounds=2)
    state = game.new_game(seed=7)
    _play(state, random.Random(1), 200)
    stream = state.chance.streams["decks"]
    assert all(type(v) is int for deck in stream for v in deck)
    written = state.chance.used_setup()["decks"]
    assert [[VALUES.index(c) for c in deck] for deck in written] == stream
    assert state.chance.setup["decks"] == written
    assert make_record(state)["setup"]["decks"] == written
    assert sorted(written[0]) == sorted(v for v in VALUES for _ in range(8))


def test_wl_2_a_record_replays_to_the_same_piles_and_a_pickle_still_writes_names():
    game = load("wasserloch", players=4, rounds=2)
    state = game.new_game(seed=3)
    _play(state, random.Random(2), 30)
    setup = state.chance.used_setup()
    again = game.new_game(setup=setup)
    assert again.pile == state.pile
    assert again.chance.used_setup() == {"decks": setup["decks"][:1]}
    copy = pickle.loads(pickle.dumps(state))
    assert copy.chance.used_setup() == setup


def test_wl_2_a_sampled_world_deals_its_next_round_as_indices():
    game = load("wasserloch", players=2, rounds=2)
    state = game.new_game(seed=5)
    while state.round == 0:
        _play(state, random.Random(3), 1)
        if state.round == 0 and state.pile_size == 0:
            break
    world = state.sample_world(state.current_seat, random.Random(4))
    _play(world, random.Random(5), 200)
    decks = world.chance.used_setup()["decks"]
    assert decks[0] is None and all(c in VALUES for c in decks[1])
