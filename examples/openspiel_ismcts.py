"""OpenSpiel's own ISMCTS bot playing a wasserspiele game through the OpenSpiel adapter.

    .venv/bin/python examples/openspiel_ismcts.py [--game wasserloch] [--games 10] [--simulations 50]

Seat 0 is OpenSpiel's `ISMCTSBot` (random rollouts; it deals worlds with the adapter's
`resample_from_infostate`), every other seat plays uniformly at random; chance nodes are
sampled with their probabilities.  Prints the ISMCTS seat's mean zero-sum return.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from wasserspiele.adapters.openspiel import GAME_NAMES, PREFIX  # registers wasserspiele_<game>
from wasserspiele.bots.runner import games_problem

# shorter games where the defaults are long; every other game with its defaults
PARAMS = {"wasserloch": {"rounds": 1}, "watten": {"target": 3}, "wildwasser": {"players": 3}}


def sample_chance(state, rs: np.random.RandomState) -> int:
    """A chance outcome drawn with its probability (Watten's signal check with
    `signal_detection_p` is caught with probability p, not one time in two)."""
    actions, probabilities = zip(*state.chance_outcomes())
    return int(rs.choice(actions, p=np.asarray(probabilities) / sum(probabilities)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="wasserloch", choices=[n.removeprefix(PREFIX) for n in GAME_NAMES])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    problem = games_problem(args.games)  # the arena's check: 0 games ended in a ZeroDivisionError
    if problem:
        parser.error(problem)

    game = pyspiel.load_game(f"wasserspiele_{args.game}", PARAMS.get(args.game, {}))
    rs = np.random.RandomState(args.seed)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, args.simulations, random_state=rs)
    total, start = 0.0, time.monotonic()
    for _ in range(args.games):
        state = game.new_initial_state()
        bot.reset()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rs))
            elif state.current_player() == 0:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(int(rs.choice(state.legal_actions())))
        total += state.returns()[0]
    print(f"{args.game}: ISMCTS ({args.simulations} simulations) in seat 0 vs random: mean zero-sum return "
          f"{total / args.games:+.3f} over {args.games} games ({time.monotonic() - start:.0f} s)")


if __name__ == "__main__":
    main()
