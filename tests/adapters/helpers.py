"""Small, fast game configurations for the adapter tests."""

import random
from collections import defaultdict

import wasserspiele
from wasserspiele.core.registry import manifests

# Options that keep a whole game short enough to play many times in tests (defaults otherwise).
FAST = defaultdict(dict, {
    "wasserloch": {"rounds": 1},
    "watten": {"target": 3},
    "wildwasser": {"players": 3},
    "pebbles": {"players": 3},  # the test-only fifth game, at its longest
})
# every registered game with a codec (the test-only fifth game included)
GAMES = [m.name for m in manifests() if m.plugins.codec is not None]


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


def eager_infos(env) -> dict:
    """What a Gymnasium env's info held when it was built at every step: the notation of
    the engine's legal actions in their order (none once the episode is over) and the view
    (the lazy infos' tests compare with it)."""
    state, seat = env.unwrapped.state, env.unwrapped.seat
    acting = env.unwrapped.action_masks().any()
    return {"legal_actions": [str(a) for a in state.legal_actions(seat)] if acting else [],
            "view": state.view(seat)}
