"""The fields the lean engine keeps beside the position (current_seat, the drift table)
and its inlined trusted path agree with the rules at every step of seeded games."""

import random

import pytest

from wasserspiele import load
from wasserspiele.games.wildwasser.state import TEAM_CARD


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("river_flow", ["forward", "back"])
def test_current_seat_and_trusted_path_agree_with_checked_play(players, river_flow):
    game = load("wildwasser", players=players, river_flow=river_flow)
    for seed in range(6):
        checked, trusted = game.new_game(seed=seed), game.new_game(seed=seed)
        rng = random.Random(seed)
        while not checked.is_terminal():
            for s in (checked, trusted, trusted.clone()):
                waiting = s.to_move()
                assert s.current_seat == (waiting[0] if waiting else None)
            seat = rng.choice(checked.to_move())  # any pending seat, not only the first
            action = rng.choice(checked.legal_actions(seat))
            checked.apply(action, seat)
            trusted.apply_legal(action, seat)
            assert trusted.history == checked.history
            assert trusted.events(3) == checked.events(3)
            assert trusted.state_json() == checked.state_json()
        assert trusted.is_terminal() and trusted.current_seat is None
        assert trusted.events() == checked.events()


@pytest.mark.parametrize("river_flow", ["forward", "back"])
def test_drift_table_follows_the_river(river_flow):
    """WW-4.4: an animal on a crossing drifts to the same column of the next slot's
    crossing, or off the last slot back to its team card."""
    game = load("wildwasser", players=4, river_flow=river_flow)
    b = game.board
    for f in b.crossing_field_list:
        slot = game.flow[b.field_crossing[f]]
        to = game.drift[f]
        if slot == b.slots - 1:
            assert to == TEAM_CARD
        else:
            assert game.flow[b.field_crossing[to]] == slot + 1
            assert b.field_column[to] == b.field_column[f]
