"""The learned bot's cost: CPU seconds per move against the expert level, and whole
games per CPU second with the learned bot in every seat — one game after another
(`play_game`), and a lab study of the same bots played one game at a time through the
engine and in lockstep (lab/lockstep.py; the same rows, checked here too).

    .venv/bin/python bench/learned.py [GAME ...] [--moves N] [--games N] [--study-games N] [--no-expert] [--jobs N]

`--jobs N` adds the lockstep study on N processes, in games per wall-clock second (the
machine's share: other processes slow it, CPU time would not show the pool's cost).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from wasserspiele import load  # noqa: E402
from wasserspiele.bots.base import decision_for  # noqa: E402
from wasserspiele.bots.levels import bot_for_level  # noqa: E402
from wasserspiele.bots.match import play_game  # noqa: E402
from wasserspiele.bots.registry import make_bot  # noqa: E402
from wasserspiele.lab import make_study, run_study  # noqa: E402

from ismcts import positions  # noqa: E402  (the same mid-game positions as bench/ismcts.py)


def cpu_per_move(bot, decisions) -> float:
    t = time.process_time()
    for d in decisions:
        bot.choose(d)
    return (time.process_time() - t) / len(decisions)


def study_rates(name: str, games: int) -> tuple[float, float]:
    """Games per CPU second of one learned-only lab study (1 process): through the engine
    one game at a time, and in lockstep; the two must give the same rows."""
    study = make_study(name, bots=["learned"], games=games, seed=1)
    engine = dataclasses.replace(study, kernels=False)
    run_study(dataclasses.replace(study, games=2), jobs=1)  # load weights and codecs before timing
    t = time.process_time()
    slow = run_study(engine, jobs=1).rows
    t_engine = time.process_time() - t
    t = time.process_time()
    fast = run_study(study, jobs=1).rows
    t_lockstep = time.process_time() - t
    if fast != slow:
        raise SystemExit(f"{name}: the lockstep study's rows differ from the engine's")
    return games / t_engine, games / t_lockstep


def study_wall_rate(name: str, games: int, jobs: int) -> float:
    """Games per wall-clock second of the learned-only study (lockstep) on `jobs` processes."""
    study = make_study(name, bots=["learned"], games=games, seed=1)
    t = time.perf_counter()
    run_study(study, jobs=jobs)
    return games / (time.perf_counter() - t)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games_", nargs="*", default=["wasserloch", "seven_waters", "watten", "wildwasser"])
    parser.add_argument("--moves", type=int, default=5, help="mid-game decisions timed per bot")
    parser.add_argument("--games", type=int, default=20, help="learned-only games timed one after another")
    parser.add_argument("--study-games", type=int, default=128, help="games of the learned-only lab study")
    parser.add_argument("--no-expert", action="store_true", help="skip the expert's cost per move")
    parser.add_argument("--jobs", type=int, default=0, help="also the lockstep study on N processes (games/s)")
    args = parser.parse_args()
    pool = f" lockstep on {args.jobs} processes, games/s |" if args.jobs else ""
    print("| game | expert CPU s/move | learned CPU s/move | ratio | learned-only games per CPU s: "
          f"one after another | lab study, engine | lab study, lockstep | lockstep / engine |{pool}")
    print("|---|---|---|---|---|---|---|---|" + ("---|" if args.jobs else ""))
    for name in args.games_:
        game, states = positions(name, args.moves)
        decisions = [decision_for(s, s.current_seat) for s in states]
        decisions = [d for d in decisions if len(d.legal) > 1] or decisions
        learned = cpu_per_move(make_bot("learned", game, seed=1), decisions)
        expert = None if args.no_expert else cpu_per_move(bot_for_level("expert", game, seed=1), decisions)
        t = time.process_time()
        for g in range(args.games):
            play_game(game, [make_bot("learned", game, seed=g * 10 + s) for s in range(game.players)], seed=g)
        rate = args.games / (time.process_time() - t)
        engine, lockstep = study_rates(name, args.study_games)
        cost = (f"– | {learned:.5f} | –" if expert is None
                else f"{expert:.3f} | {learned:.5f} | {expert / learned:.0f}×")
        wall = f" {study_wall_rate(name, args.study_games, args.jobs):.0f} |" if args.jobs else ""
        print(f"| {name} | {cost} | {rate:.0f} | {engine:.0f} | {lockstep:.0f} | {lockstep / engine:.1f}× |{wall}",
              flush=True)


if __name__ == "__main__":
    main()
