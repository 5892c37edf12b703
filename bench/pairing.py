"""One pairing of two bot specs as the leaderboard plays it (bots.leaderboard.play_pairing:
seat-rotated duplicate deals, both line-ups with more than two seats), in chunks whose
running total is saved after each, so a long measurement stopped early keeps its games.

    .venv/bin/python bench/pairing.py GAME A B CHUNKS CHUNK_GAMES SEED OUT.json

Chunk k (0-based) is `play_pairing(GAME, {}, A, B, CHUNK_GAMES, SEED + k)`.  Prints, per
chunk, A's share of the games with its 95 % Wilson interval and each side's thread CPU per
decision with a choice (what docs/learned.md reports for guided against plain search).

With `--data FILE` (the leaderboard's, src/wasserspiele/bots/leaderboard.json) each chunk's
games are also merged into GAME's board there as soon as they are played, as the games of
a `wasserspiele leaderboard` run on new deals are: a long pairing that decides a level
step can be stopped at any chunk and keeps what it played.  The command is recorded on
the board; render the page with `wasserspiele leaderboard --page-only --data FILE --out
docs/leaderboard.md`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from wasserspiele.bots.leaderboard import Leaderboard, play_pairing, save_boards
from wasserspiele.bots.specs import parse_bot_spec


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])  # the first paragraph (argparse fills its lines)
    parser.add_argument("game")
    parser.add_argument("a", help="the first bot spec (its share is reported)")
    parser.add_argument("b", help="the second bot spec")
    parser.add_argument("chunks", type=int)
    parser.add_argument("chunk_games", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("out", help="JSON file of the running total")
    parser.add_argument("--data", help="merge each chunk into GAME's board in this leaderboard data")
    args = parser.parse_args()
    command = " ".join(["python bench/pairing.py", *sys.argv[1:]])
    a, b = parse_bot_spec(args.a), parse_bot_spec(args.b)
    start = time.process_time()
    total = None
    for k in range(args.chunks):
        p = play_pairing(args.game, {}, a, b, args.chunk_games, args.seed + k, jobs=1)
        total = p if total is None else total.joined(p)  # each chunk on new deals: the games add up
        if args.data:  # the chunk itself (new deal seeds), not the total: the board adds its games
            save_boards([Leaderboard.build(args.game, {}, [p], [command])], Path(args.data))
        with open(args.out, "w") as f:
            json.dump({"args": vars(args), "chunks_done": k + 1, **total.to_json()}, f)
        s, cpu_a, cpu_b = total.share, total.first_cpu, total.second_cpu
        print(f"chunk {k + 1}/{args.chunks}: {total.games} games, {a.text} share {s.value:.3f} "
              f"[{s.low:.3f}, {s.high:.3f}] | CPU per move {a.text} {cpu_a.per_move * 1e3:.1f} ms "
              f"({cpu_a.moves}), {b.text} {cpu_b.per_move * 1e3:.1f} ms ({cpu_b.moves}) | "
              f"process {time.process_time() - start:.0f} CPU-s", flush=True)


if __name__ == "__main__":
    main()
