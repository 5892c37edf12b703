"""In-process cost of what every move sends: CPU time per move of `LiveTable.broadcast`
(each seat's message: the table part, its view, its legal moves, encoded) and of a
client decoding its messages, for random games of every game.

    python bench/web_views.py [--games wildwasser,watten] [--moves 400] [--spectators 0]
    python bench/web_views.py --baseline 9503715   # against the server at that revision

Thread CPU time, so the figures hardly depend on what else runs on the machine (unlike
bench/web_load.py's latencies).  With --baseline REV the same measurement runs in child
processes on the source at REV (unpacked with `git archive`) and on this tree, A B A B A B,
and the ratio is the median of the pairs' ratios: a neighbour's burst of load hits both.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

from wasserspiele import load
from wasserspiele.core.registry import game_names
from wasserspiele.web.hub import Connection, Hub
from wasserspiele.web.storage import Storage


def default_players(game: str) -> int:
    return load(game).players  # with its default options


async def measure(game: str, moves: int, spectators: int, repeat: int, seed: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="wasserspiele-views-") as folder:
        storage = Storage(f"sqlite:///{folder}/views.sqlite3")
        hub = Hub(storage, bot_delay=30)
        players = default_players(game)
        rng = random.Random(seed)
        broadcast = decode_json = decode_orjson = 0.0
        sizes: list[int] = []
        done = 0
        while done < moves:
            table, _ = await hub.create({"game": game, "seats": [{"kind": "human"}] * players})
            conns = [Connection(_discard, s) for s in [*range(players), *[None] * spectators]]
            table.conns.update(conns)  # attached without pumps: the outboxes are read below
            while not table.state.is_terminal() and done < moves:
                st = table.state
                t0 = time.thread_time()
                for _ in range(repeat):
                    table.broadcast()
                broadcast += (time.thread_time() - t0) / repeat
                texts = []
                for c in conns:
                    while not c.outbox.empty():
                        texts.append(c.outbox.get_nowait())
                texts = texts[-len(conns):]
                sizes += [len(t) for t in texts]
                t0 = time.thread_time()
                for t in texts:
                    json.loads(t)
                decode_json += time.thread_time() - t0
                t0 = time.thread_time()
                for t in texts:
                    orjson.loads(t)
                decode_orjson += time.thread_time() - t0
                seat = rng.choice(st.to_move())
                table.conns.clear()  # the move's own broadcast is not measured
                await table.submit(seat, str(rng.choice(list(st.legal_actions(seat)))), table.n)
                table.conns.update(conns)
                done += 1
        await hub.shutdown()
        storage.close()
    return {"broadcast": broadcast / done * 1000, "json": decode_json / done * 1000,
            "orjson": decode_orjson / done * 1000, "kB": statistics.fmean(sizes) / 1000,
            "messages": len(conns)}


async def _discard(text: str) -> None:
    return None


ROOT = Path(__file__).resolve().parent.parent
PAIRS = 3


def child(src: Path, game: str, args) -> dict[str, float]:
    """One measurement in a fresh interpreter on the source tree `src`."""
    out = subprocess.run([sys.executable, __file__, "--games", game, "--moves", str(args.moves),
                          "--spectators", str(args.spectators), "--repeat", str(args.repeat),
                          "--seed", str(args.seed), "--json"],
                         env={**os.environ, "PYTHONPATH": str(src)}, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.splitlines()[-1])


def compare(args) -> None:
    with tempfile.TemporaryDirectory(prefix="wasserspiele-baseline-") as folder:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.baseline, "src"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
        base = Path(folder) / "src"
        print(f"CPU ms per move of broadcast (median of {PAIRS} A/B pairs): {args.baseline} against this tree")
        print(f"{'game':14} {'baseline':>9} {'now':>9} {'now/base':>9}")
        for game in args.games.split(","):
            pairs = [(child(base, game, args)["broadcast"], child(ROOT / "src", game, args)["broadcast"])
                     for _ in range(PAIRS)]
            b, n = (statistics.median(x) for x in zip(*pairs))
            ratio = statistics.median(now / was for was, now in pairs)
            print(f"{game:14} {b:>9.3f} {n:>9.3f} {ratio:>9.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])  # the first paragraph (argparse fills its lines)
    ap.add_argument("--games", default=",".join(game_names()))
    ap.add_argument("--moves", type=int, default=400, help="positions measured per game")
    ap.add_argument("--spectators", type=int, default=0, help="spectators connected besides every seat")
    ap.add_argument("--repeat", type=int, default=5, help="broadcasts timed per position")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--baseline", default=None, help="a git revision to compare the broadcast against")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # one game's figures, for compare()
    args = ap.parse_args()
    if args.baseline:
        compare(args)
        return
    if args.json:
        print(json.dumps(asyncio.run(measure(args.games, args.moves, args.spectators, args.repeat, args.seed))))
        return
    print("CPU ms per move (thread time); client = decoding every connection's message")
    print(f"{'game':14} {'messages':>8} {'kB each':>8} {'broadcast':>10} {'client json':>12} {'client orjson':>14}")
    for game in args.games.split(","):
        r = asyncio.run(measure(game, args.moves, args.spectators, args.repeat, args.seed))
        print(f"{game:14} {r['messages']:>8} {r['kB']:>8.2f} {r['broadcast']:>10.3f} {r['json']:>12.3f} "
              f"{r['orjson']:>14.3f}")


if __name__ == "__main__":
    main()
