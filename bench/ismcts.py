"""ISMCTS iterations per second (of CPU time) per game, at several mid-game decisions, one thread.

    .venv/bin/python bench/ismcts.py [-s SECONDS]
"""

from __future__ import annotations

import argparse
import random
import time

from wasserspiele import game_names, load
from wasserspiele.bots.base import decision_for
from wasserspiele.bots.registry import make_bot


def positions(name: str, count: int = 5):
    game = load(name)
    out = []
    for seed in range(count):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(3, 25)):
            if state.is_terminal():
                break
            seat = state.current_seat
            state.apply(rng.choice(list(state.legal_actions(seat))), seat)
        if not state.is_terminal():
            out.append(state)
    return game, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*")
    parser.add_argument("-s", "--seconds", type=float, default=1.0, help="search time per position")
    args = parser.parse_args()
    print(f"{'game':<14}{'iterations/s':>14}")
    for name in args.games or game_names():
        game, states = positions(name)
        total_it = total_s = 0.0
        for i, state in enumerate(states):
            bot = make_bot("ismcts", game, seed=i, iterations=None, seconds=args.seconds)
            start = time.process_time()
            bot.search(decision_for(state, state.current_seat))
            total_s += time.process_time() - start
            total_it += bot.last_iterations
        print(f"{name:<14}{total_it / total_s:>14.0f}", flush=True)


if __name__ == "__main__":
    main()
