"""The learned bot's cost: CPU seconds per move against the expert level, and whole
games per CPU second with the learned bot in every seat (what a lab study pays).

    .venv/bin/python bench/learned.py [GAME ...] [--moves N] [--games N]
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from wasserspiele import load  # noqa: E402
from wasserspiele.bots.base import decision_for  # noqa: E402
from wasserspiele.bots.levels import bot_for_level  # noqa: E402
from wasserspiele.bots.match import play_game  # noqa: E402
from wasserspiele.bots.registry import make_bot  # noqa: E402

from ismcts import positions  # noqa: E402  (the same mid-game positions as bench/ismcts.py)


def cpu_per_move(bot, decisions) -> float:
    t = time.process_time()
    for d in decisions:
        bot.choose(d)
    return (time.process_time() - t) / len(decisions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games_", nargs="*", default=["wasserloch", "seven_waters", "watten", "wildwasser"])
    parser.add_argument("--moves", type=int, default=5, help="mid-game decisions timed per bot")
    parser.add_argument("--games", type=int, default=20, help="learned-only games timed")
    args = parser.parse_args()
    print("| game | expert CPU s/move | learned CPU s/move | ratio | learned-only games per CPU s |")
    print("|---|---|---|---|---|")
    for name in args.games_:
        game, states = positions(name, args.moves)
        decisions = [decision_for(s, s.current_seat) for s in states]
        decisions = [d for d in decisions if len(d.legal) > 1] or decisions
        expert = cpu_per_move(bot_for_level("expert", game, seed=1), decisions)
        learned = cpu_per_move(make_bot("learned", game, seed=1), decisions)
        t = time.process_time()
        for g in range(args.games):
            play_game(game, [make_bot("learned", game, seed=g * 10 + s) for s in range(game.players)], seed=g)
        rate = args.games / (time.process_time() - t)
        print(f"| {name} | {expert:.3f} | {learned:.5f} | {expert / learned:.0f}× | {rate:.0f} |", flush=True)


if __name__ == "__main__":
    main()
