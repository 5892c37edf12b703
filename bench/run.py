"""The shared benchmark: random games per second through the public protocol, and
clones per second, for every registered game.  Prints its figures; not a test.

Rates are per second of this process's CPU time (time.process_time), so a figure
taken while other jobs share the cores still says what one core does.

    ./dev bench                 # every game
    ./dev bench wasserloch -s 5 # one game, 5 seconds per figure
"""

from __future__ import annotations

import argparse
import random
import time

from wasserspiele import game_names, load
from wasserspiele.core.registry import game_class

# What one "game" means for each figure: Wasserloch is measured per round (rounds=1),
# as the issue states its target in rounds per second.
CONFIGS = {
    "wasserloch": [dict(players=3, rounds=1), dict(players=2, rounds=1), dict(players=4, rounds=1)],
    "wildwasser": [dict(players=2), dict(players=4), dict(players=6)],
}


def random_games_per_second(game, seconds: float) -> tuple[float, float]:
    """(games/s, actions/s) of uniformly random play, one core."""
    rng = random.Random(0)
    games = actions = 0
    start = time.process_time()
    end = start + seconds
    seed = 0
    while time.process_time() < end:
        state = game.new_game(seed=seed)
        seed += 1
        while not state.is_terminal():
            seat = state.current_seat
            state.apply(rng.choice(state.legal_actions(seat)), seat)
        games += 1
        actions += len(state.history)
    dt = time.process_time() - start
    return games / dt, actions / dt


def clones_per_second(game, seconds: float) -> float:
    """clone() of mid-game positions per second."""
    rng = random.Random(1)
    positions = []
    for seed in range(20):
        state = game.new_game(seed=seed)
        for _ in range(rng.randrange(1, 30)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions(state.current_seat)), state.current_seat)
        positions.append(state)
    n = 0
    start = time.process_time()
    end = start + seconds
    while time.process_time() < end:
        for p in positions:
            p.clone()
        n += len(positions)
    return n / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=None)
    parser.add_argument("-s", "--seconds", type=float, default=3.0, help="seconds per figure")
    args = parser.parse_args()
    names = args.games or game_names()
    print(f"{'game':<14}{'options':<28}{'games/s':>10}{'actions/s':>12}{'clones/s':>12}")
    for name in names:
        configs = CONFIGS.get(name) or [{}]
        for options in configs:
            if game_class(name).fixed_players:
                options = {k: v for k, v in options.items() if k != "players"}
            game = load(name, **options)
            gps, aps = random_games_per_second(game, args.seconds)
            cps = clones_per_second(game, args.seconds / 2)
            label = ",".join(f"{k}={v}" for k, v in options.items()) or "defaults"
            print(f"{name:<14}{label:<28}{gps:>10.0f}{aps:>12.0f}{cps:>12.0f}", flush=True)


if __name__ == "__main__":
    main()
