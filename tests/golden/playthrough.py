"""Golden playthroughs (OpenSpiel-style): seed, actions, and views along the way.

Regenerate after an intended rules change, then review the diff:

    .venv/bin/python tests/golden/playthrough.py
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parents[1] / "src"))
sys.path.insert(0, str(HERE.parent))

from wasserspiele import game_names, load  # noqa: E402
from wasserspiele.core.records import summary  # noqa: E402

SEED = 2026
POLICY_SEED = 7
VIEW_POINTS = 8  # views of every seat at about this many evenly spaced steps


def _length(game) -> int:
    state = game.new_game(seed=SEED)
    rng = random.Random(POLICY_SEED)
    while not state.is_terminal():
        seat = state.current_seat
        state.apply(rng.choice(list(state.legal_actions(seat))), seat)
    return len(state.history)


def playthrough(name: str) -> dict:
    """A seeded random game with the views of every seat at a few evenly spaced steps."""
    game = load(name)
    every = max(1, _length(game) // VIEW_POINTS)
    state = game.new_game(seed=SEED)
    rng = random.Random(POLICY_SEED)
    steps = []
    while not state.is_terminal():
        seat = state.current_seat
        legal = state.legal_actions(seat)
        action = rng.choice(list(legal))
        step = {"seat": seat, "legal": len(legal), "action": str(action)}
        if len(state.history) % every == 0:
            step["views"] = [state.view(s) for s in range(game.players)] + [state.view(None)]
        steps.append(step)
        state.apply(action, seat)
    return {"game": name, "seed": SEED, "policy_seed": POLICY_SEED, "record": state.record(),
            "steps": steps, "final": summary(state)}


def path_for(name: str) -> Path:
    return HERE / f"{name}.json"


def render(data: dict) -> str:
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


if __name__ == "__main__":
    from fifth_game import register  # the test-only game has a golden file too
    register()
    for name in sys.argv[1:] or game_names():
        path_for(name).write_text(render(playthrough(name)), encoding="utf-8")
        print(f"wrote {path_for(name)}")
