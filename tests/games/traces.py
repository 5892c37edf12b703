"""Golden traces of seeded random games: what the engine showed at every step, hashed.

The lean engines (issue 17) replaced the engines these traces were recorded from
(main at c54ea01); the traces are how the new ones prove they play the same games:
at every step the seat to move, its legal actions, every seat's view and the spectator's,
the full position (`state_json`) and the action taken, and at the end the setup drawn,
the scores and the returns.  Every few steps a sampled world is hashed too.  One hash
per game keeps the file small; a failing game names its seed and configuration.

Regenerate only for an intended rules change, from the engine that is right:

    python tests/games/traces.py GAME [GAME ...]
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).parent

# option sets per game: (options, seeded random games, how many of them with every view)
CONFIGS: dict[str, list[tuple[dict, int, int]]] = {
    "wasserloch": [({"players": 3, "rounds": 1}, 150, 150), ({"players": 2}, 50, 50), ({"players": 4}, 50, 50),
                   ({"players": 3, "chase": "adjacent", "first_player": 2}, 50, 50)],
    "watten": [({}, 100, 10), ({"raising": True, "signal_detection_p": 0.3}, 100, 10),
               ({"signals": "public", "jack_order": "first_played", "follow": "trump_only",
                 "caller": "dealer_left", "raising": True, "target": 7, "hand_value": 2}, 50, 6),
               ({"signals": "off", "first_dealer": 2, "target": 5}, 50, 6)],
    "wildwasser": [({"players": 2}, 100, 6), ({"players": 4}, 100, 6), ({"players": 6}, 50, 4),
                   ({"players": 3, "river_flow": "back", "first_player": 1}, 100, 6)],
}
SAMPLE_EVERY = 7  # a sampled world's position is hashed at every 7th step


def _dump(data) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), default=str).encode()


def step_digests(name: str, options: dict, seed: int, views: bool = True):
    """Yield one digest per step of seeded random game `seed`, then the final summary.
    Without `views` a step is its seats, legal actions and action only (Watten's and
    Wildwasser's views cost a hundred times a step; a few games per option set have them)."""
    from wasserspiele import load
    game = load(name, **options)
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    seats = list(range(game.players)) + [None]
    step = 0
    while not state.is_terminal():
        seat = state.current_seat
        legal = state.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        h = hashlib.blake2b(digest_size=8)
        h.update(_dump([list(state.to_move()), seat, [str(a) for a in legal], str(action)]))
        if views:
            h.update(_dump([state.view(s) for s in seats]))
            h.update(_dump(state.state_json()))
        if views and step % SAMPLE_EVERY == 0:
            world = state.sample_world(seat, random.Random(step))
            h.update(_dump([world.state_json(), [str(a) for a in world.legal_actions(seat)]]))
        yield h.hexdigest()
        state.apply(action, seat)
        step += 1
    yield {"length": step, "setup": hashlib.blake2b(_dump(state.chance.used_setup()), digest_size=8).hexdigest(),
           "history": hashlib.blake2b(_dump(state.record_actions()), digest_size=8).hexdigest(),
           "scores": state.scores(), "returns": state.returns(), "winners": state.winners(),
           "final": hashlib.blake2b(_dump([state.state_json()] + [state.view(s) for s in seats]),
                                    digest_size=8).hexdigest()}


def trace(name: str, options: dict, seed: int, views: bool = True) -> dict:
    """One game's trace: a hash over every step's digest, and the final summary."""
    h = hashlib.blake2b(digest_size=8)
    for d in step_digests(name, options, seed, views):
        if isinstance(d, str):
            h.update(d.encode())
        else:
            return {"seed": seed, "views": views, "steps": h.hexdigest(), **d}
    raise AssertionError("unreachable")


def path_for(name: str) -> Path:
    return HERE / name / "traces.json"


def record(name: str) -> None:
    out = {"game": name, "note": "golden traces recorded from the engine at main c54ea01 (tests/games/traces.py)",
           "configs": [{"options": options, "games": [trace(name, options, seed, seed < full) for seed in range(n)]}
                       for options, n, full in CONFIGS[name]]}
    path_for(name).write_text(json.dumps(out, separators=(",", ":")) + "\n", encoding="utf-8")


def load_traces(name: str) -> list[tuple[dict, dict]]:
    """(options, expected trace) for every stored game."""
    data = json.loads(path_for(name).read_text(encoding="utf-8"))
    return [(c["options"], g) for c in data["configs"] for g in c["games"]]


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parents[1] / "src"))
    for game_name in sys.argv[1:] or list(CONFIGS):
        record(game_name)
        print(f"wrote {path_for(game_name)}")
