"""`State.apply_legal`, the trusted path for actions taken from `legal_actions`, leaves
every game exactly where `apply` leaves it (history included)."""

from __future__ import annotations

import random

import pytest

from lockstep import play_checked_and_trusted
from wasserspiele import game_names, load


@pytest.mark.parametrize("name", game_names())
def test_apply_legal_plays_the_same_games_as_apply(name):
    game = load(name)
    for seed in range(6):
        checked, trusted = play_checked_and_trusted(game, seed)
        assert trusted.is_terminal() and trusted.history == checked.history
        assert trusted.state_json() == checked.state_json() and trusted.scores() == checked.scores()


def test_apply_legal_in_a_strict_replay_is_still_a_transaction():
    """Without a generator the trusted path goes through apply (which restores the state
    when the setup runs out of chance outcomes)."""
    game = load("wasserloch", players=2, rounds=2)
    full = game.new_game(seed=1)
    deck = full.chance.used_setup()
    state = game.new_game(setup=deck)  # one deck only: the second round cannot be dealt
    rng = random.Random(0)
    from wasserspiele.core.errors import ChanceExhausted
    with pytest.raises(ChanceExhausted):
        while True:
            seat = state.current_seat
            before = state.state_json()
            state.apply_legal(rng.choice(state.legal_actions(seat)), seat)
    assert state.state_json() == before
