"""Golden traces of the Seven Waters engine and search, recorded from the engine before
its hot paths were rewritten (issue 17 item 2), so that the lean engine is checked to
play exactly as the old one did: the same legal actions in the same order, the same
views, the same sampled worlds, the same rollout choices (and random draws), the same
scores, and the same search trees.

    PYTHONPATH=src:tests python -m games.seven_waters.traces   # prints the JSON to store

Each game or search is one short digest; a mismatch names the seed to look at.

The search digests were recorded again when rollouts moved to the compiled kernel
(issue 17 item 3): the search now seeds each rollout's choices from the kernel's
generator (`bots.ismcts.KernelStream`), which changes the trees by design.  They were
recorded with numba and reproduced by the engine playing the same draws in Python
(`ISMCTSBot(compiled=False)`): the same twelve digests.

The game digests were recorded again when the final view laid the hands and the themes'
log entries open (SW-5.1, test_end_view.py): with the old view at the terminal position
only, the engine reproduced all 300 old digests, so nothing else changed.
"""

from __future__ import annotations

import hashlib
import json
import random

from wasserspiele import load
from wasserspiele.bots.base import decision_for
from wasserspiele.bots.registry import make_bot
from wasserspiele.games.seven_waters.heuristic import rollout_policy

GAMES = 300
SEARCHES = 12
SEARCH_ITERATIONS = 60
STORE = __file__.replace("traces.py", "golden_traces.json")


def _options(seed: int) -> dict:
    rng = random.Random(seed)
    return {"slide_limit": rng.choice([7, 7, None, 2]), "final_turns": rng.choice(["both", "opponent_only", "none"]),
            "first_player": rng.randrange(2)}


def game_digest(seed: int) -> str:
    """A random game (the validating `apply` and the trusted `apply_legal` alternating):
    every position's legal actions, and at every third position both seats' views, a
    sampled world per seat and the rollout policy's choice with the generator's state
    after it; then the final scores, breakdowns, winners and the full state."""
    state = load("seven_waters", **_options(seed)).new_game(seed=seed)
    rng = random.Random(seed)
    h = hashlib.sha256()
    step = 0
    while not state.is_terminal():
        seat = state.current_seat
        legal = state.legal_actions(seat)
        h.update(f"{seat}|{'|'.join(map(str, legal))}\n".encode())
        if step % 3 == 0:
            for s in (0, 1):
                h.update(json.dumps(state.view(s), sort_keys=True).encode())
                world = state.sample_world(s, random.Random(seed * 100 + step + s))
                h.update(json.dumps(world.state_json(), sort_keys=True).encode())
                h.update(" ".join(str(a) for a in world.actions()).encode())
                h.update(repr(world.scores()).encode())
            side = random.Random(step)
            choice = rollout_policy(state, seat, side)
            h.update(f"{choice}|{side.random()!r}\n".encode())
        action = legal[rng.randrange(len(legal))]
        if step % 2:
            state.apply_legal(action, seat)
        else:
            state.apply(action, seat)
        step += 1
    h.update(repr((state.scores(), state.winners(), state.returns(),
                   [state.breakdown(s) for s in (0, 1)])).encode())
    h.update(json.dumps(state.state_json(), sort_keys=True).encode())
    h.update(json.dumps(state.view(None), sort_keys=True).encode())
    return h.hexdigest()[:16]


def search_position(seed: int):
    game = load("seven_waters", **_options(seed + 7))
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 45)):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return game, state


def search_digest(seed: int) -> str:
    """The root of an ISMCTS search with the manifest's settings (policy rollouts to the
    end, root candidates): every root child's action, visits and mean value."""
    game, state = search_position(seed)
    if state.is_terminal():
        return "over"
    bot = make_bot("ismcts", game, seed=seed, iterations=SEARCH_ITERATIONS)
    choices = bot.search(decision_for(state, state.current_seat))
    text = "|".join(f"{c.action}:{c.visits}:{c.value!r}" for c in choices)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def record() -> dict:
    return {"games": [game_digest(seed) for seed in range(GAMES)],
            "searches": [search_digest(seed) for seed in range(SEARCHES)]}


if __name__ == "__main__":
    print(json.dumps(record(), indent=0))
