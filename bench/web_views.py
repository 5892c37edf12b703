"""In-process cost of what every move sends: CPU time per move of `LiveTable.broadcast`
(each seat's message: the table part, its view, its legal moves, encoded) and of a
client decoding its messages, for random games of every game.

    python bench/web_views.py [--games wildwasser,watten] [--moves 400] [--spectators 0]

Thread CPU time, so the figures hardly depend on what else runs on the machine (unlike
bench/web_load.py's latencies): use it to compare two versions of the server back to back.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time

import orjson

from wasserspiele.core.registry import game_class, game_names
from wasserspiele.web.hub import Connection, Hub
from wasserspiele.web.storage import Storage


def default_players(game: str) -> int:
    cls = game_class(game)
    return cls.fixed_players or next(o.default for o in cls.option_list if o.name == "players")


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(game_names()))
    ap.add_argument("--moves", type=int, default=400, help="positions measured per game")
    ap.add_argument("--spectators", type=int, default=0, help="spectators connected besides every seat")
    ap.add_argument("--repeat", type=int, default=5, help="broadcasts timed per position")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print("CPU ms per move (thread time); client = decoding every connection's message")
    print(f"{'game':14} {'messages':>8} {'kB each':>8} {'broadcast':>10} {'client json':>12} {'client orjson':>14}")
    for game in args.games.split(","):
        r = asyncio.run(measure(game, args.moves, args.spectators, args.repeat, args.seed))
        print(f"{game:14} {r['messages']:>8} {r['kB']:>8.2f} {r['broadcast']:>10.3f} {r['json']:>12.3f} "
              f"{r['orjson']:>14.3f}")


if __name__ == "__main__":
    main()
