"""Wasserloch in the terminal: what a spectator is told of the last plays."""

from __future__ import annotations

import random

from wasserspiele import load
from wasserspiele.games.wasserloch.render import describe_last


def test_a_spectator_hears_the_last_plays_in_the_order_they_were_made():
    """WL-5.2: any seat's emptied hand ends the round, so the turn order does not say who
    played last. The end screen of an all-bot game told seat 0's round-ending 8x1 first and
    then the plays before it, as if the round went on after seat 0's hand was empty."""
    game = load("wasserloch", rounds=1)
    checked = 0
    for seed in range(30):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_seat
            state.apply(rng.choice(state.legal_actions(seat)), seat)
        view = state.view(None)
        assert view["last_mover"] == state.history[-1][0]
        plays = [(seat, str(action)) for seat, action, _ in state.history[-game.players:]]
        told = describe_last(view, "en").splitlines()
        assert [line.split()[1] for line in told] == [str(seat) for seat, _ in plays], (told, plays)
        checked += plays[-1][0] != game.players - 1  # not the order of the seats by chance
    assert checked > 5
