"""Small, fast game configurations for the adapter tests."""

import random

import wasserspiele

# Options that keep a whole game short enough to play many times in tests.
FAST = {
    "wasserloch": {"rounds": 1},
    "seven_waters": {},
    "watten": {"target": 3},
    "wildwasser": {"players": 3},
}
GAMES = list(FAST)


def random_positions(name, seeds, options=None):
    """(state, seat) at every decision of random games, in order."""
    game = wasserspiele.load(name, **(FAST[name] if options is None else options))
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_game(seed=seed)
        while not state.is_terminal():
            seat = state.to_move()[0]
            yield state, seat
            state.apply(rng.choice(state.legal_actions(seat)), seat)
