"""Load benchmark of the web app: N concurrent tables played by random clients over
WebSockets on loopback.  Prints moves per second and move latency (p50/p99).

    python bench/web_load.py [--tables 20] [--seconds 10] [--game wasserloch] [--db URL]
    python bench/web_load.py --pg --workers 2            # 2 processes on a throwaway PostgreSQL
    python bench/web_load.py --tables 1 --bot-tables 20  # a human's latency under bot load

The server runs as `wasserspiele serve` in a subprocess with its own SQLite file (or
--db, or --pg: a throwaway PostgreSQL cluster), so the figures include validation,
persistence (one commit per move) and pushing every seat its own view.  With
--workers N (PostgreSQL only) N servers run on N ports and table k is played on server
k mod N, as behind a load balancer that hashes the table; --spread connects a table's
seats to different servers (every move then also travels by LISTEN/NOTIFY);
--shared-port runs `serve --workers N` on one port instead.  Latency: from
sending a move to receiving the server's answer ("accepted", sent after the new
position) on the mover's socket; the time a player thinks (--think) is not part of it.
The latencies are reported for all moves and for those sent after --warmup seconds
(at the start every table is created and every socket opened at once).
--bot-tables K keeps K all-bot tables busy
(--bot-game, --bot-level; no delay) while the measured tables are played.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import orjson
import websockets


# whether the load clients offer permessage-deflate (--deflate; browsers do): by default
# they do not, so that the figures stay comparable with those taken before `serve` compressed
CLIENT_COMPRESSION: str | None = None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


BENCH_LIMITS = {  # one load client creates every table: lift the per-client limits
    "WASSERSPIELE_TABLES_PER_CLIENT": "100000", "WASSERSPIELE_TABLES_PER_SERVER": "100000",
    "WASSERSPIELE_BOT_SEATS_PER_CLIENT": "100000", "WASSERSPIELE_BOT_SEATS_PER_SERVER": "100000",
    "WASSERSPIELE_SOCKETS_PER_CLIENT": "100000",
}


def start_server(port: int, db: str, workers: int = 1) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "wasserspiele.cli.main", "serve", "--port", str(port),
                             "--db", db, "--bot-delay", "0", "--workers", str(workers)],
                            stdout=subprocess.DEVNULL, env={**os.environ, **BENCH_LIMITS}, start_new_session=True)
    proc.port = port
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=1).read()
            return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.1)


def machine_times() -> tuple[int, int] | None:
    """(busy, total) clock ticks of all CPUs since boot (Linux /proc/stat), to say whether
    the machine was saturated: server, database and this load client share its cores."""
    try:
        with open("/proc/stat") as f:
            ticks = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle + iowait
    return sum(ticks) - idle, sum(ticks)


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process and its live children (Linux): the server's
    workers and its bots' worker processes, to report server cost per move."""
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                stats[int(entry)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
            except (OSError, ValueError, IndexError):
                continue
    if pid not in stats:
        return None
    tree, todo = set(), [pid]
    while todo:
        p = todo.pop()
        tree.add(p)
        todo += [c for c, (parent, _) in stats.items() if parent == p and c not in tree]
    return sum(stats[p][1] for p in tree) / os.sysconf("SC_CLK_TCK")


def create_table(base: str, game: str, players: int | None, bot_level: str | None = None) -> dict:
    body = {"game": game, "options": {"players": players} if players else {}}
    probe = {"game": game, "options": body["options"], "seats": None}
    # all seats human: the benchmark's clients are the (random) players (or all bots)
    n = players or {"watten": 4, "seven_waters": 2}.get(game, 3 if game == "wasserloch" else 4)
    probe["seats"] = [{"kind": "bot", "level": bot_level} if bot_level else {"kind": "human"}] * n
    req = urllib.request.Request(base + "/api/tables", data=json.dumps(probe).encode(),
                                 headers={"content-type": "application/json"}, method="POST")
    try:
        return json.loads(urllib.request.urlopen(req, timeout=10).read())
    except urllib.error.HTTPError as exc:  # say why (e.g. --players for a game with a fixed count)
        raise SystemExit(f"the server refused a {game} table ({exc.code}): {exc.read().decode()[:300]}") from None


class Stats:
    def __init__(self):
        self.latencies: list[float] = []
        self.sent: list[float] = []  # when each measured move was sent (perf_counter)
        self.moves = 0
        self.refused = 0
        self.refused_codes: dict[str, int] = {}
        self.games = 0


async def seat_client(url: str, token: str, rng: random.Random, stats: Stats, stop_at: float,
                      sockets: list, think: float = 0.0) -> None:
    """One seat: answer every position with a random legal move until the game ends or
    time is up; then close every socket of the table (`sockets`), which ends its other
    seats' clients.  The client is kept cheap (orjson, no per-message timers), since it
    shares the machine with the server it measures: a real server's clients are browsers
    elsewhere."""
    async with websockets.connect(url, max_size=2**22, compression=CLIENT_COMPRESSION) as ws:
        sockets.append(ws)
        await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
        sent_at: float | None = None  # a move of ours is on its way: wait for its answer
        latest: dict | None = None
        while True:
            try:
                raw = await ws.recv(decode=False)  # bytes: orjson reads them without a str copy
            except websockets.ConnectionClosed:  # another seat ended the table
                return
            now = time.perf_counter()
            msg = orjson.loads(raw)
            kind = msg["type"]
            if kind in ("accepted", "refused") and sent_at is not None:
                if kind == "accepted":
                    stats.latencies.append(now - sent_at)
                    stats.sent.append(sent_at)
                    stats.moves += 1
                else:
                    stats.refused += 1
                    stats.refused_codes[msg["code"]] = stats.refused_codes.get(msg["code"], 0) + 1
                sent_at = None
            elif kind == "state":
                latest = msg
            else:
                continue
            if latest is None or sent_at is not None:
                continue
            if latest["terminal"] or time.monotonic() > stop_at:
                await asyncio.gather(*(s.close() for s in sockets))
                return
            if latest["legal"]:
                if think:  # a player's thinking time (exponential, mean `think` s): an open loop
                    await asyncio.sleep(rng.expovariate(1 / think))
                sent_at = time.perf_counter()
                try:
                    await ws.send(orjson.dumps({"type": "move", "action": rng.choice(latest["legal"]),
                                                "n": latest["n"]}).decode())
                except websockets.ConnectionClosed:  # another seat ended the table meanwhile
                    return
                latest = None  # answer only positions that arrive after this move's answer


async def table_loop(bases: list[str], game: str, players: int | None, rng: random.Random,
                     stats: Stats, stop_at: float, spread: bool, think: float = 0.0):
    """Tables one after another on bases[0]; `spread`: seat i connects to bases[i % len(bases)]
    (a table's seats on different processes), else every seat to bases[0]."""
    while time.monotonic() < stop_at:
        table = await asyncio.to_thread(create_table, bases[0], game, players)
        sockets: list = []
        urls = ["ws" + b[4:] + f"/ws/tables/{table['id']}" for b in (bases if spread else bases[:1])]
        await asyncio.gather(*(seat_client(urls[i % len(urls)], s["token"], random.Random(rng.random()), stats,
                                           stop_at, sockets, think) for i, s in enumerate(table["seats"])))
        stats.games += 1


async def bot_table_loop(base: str, game: str, level: str, stop_at: float, finished: list) -> None:
    """Keep one all-bot table busy: a new one as soon as the last is over."""
    while time.monotonic() < stop_at:
        table = await asyncio.to_thread(create_table, base, game, None, level)
        while time.monotonic() < stop_at:
            state = await asyncio.to_thread(lambda: json.loads(urllib.request.urlopen(
                f"{base}/api/tables/{table['id']}", timeout=30).read()))
            if state["terminal"]:
                finished.append(state["n"])
                break
            await asyncio.sleep(0.5)  # polling the lobby API: the bots play on their own


async def run(args) -> None:
    proc = None
    procs: list[subprocess.Popen] = []
    folder = None
    cluster = None
    if args.server:
        base = args.server.rstrip("/")
    else:
        port = free_port()
        folder = tempfile.mkdtemp(prefix="wasserspiele-bench-")
        db = args.db or f"sqlite:///{os.path.join(folder, 'bench.sqlite3')}"
        if args.pg:
            from wasserspiele.web.devdb import throwaway_postgresql
            cluster = throwaway_postgresql(fsync=True, max_connections=400)
            db = cluster.__enter__()
        if args.shared_port:  # `serve --workers N`: the kernel spreads connections over the processes
            procs = [start_server(port, db, args.workers)]
            bases = [f"http://127.0.0.1:{port}"]
        else:  # N processes on N ports, as N machines behind a load balancer
            procs = [start_server(port, db)]
            for _ in range(args.workers - 1):
                procs.append(start_server(free_port(), db))
            bases = [f"http://127.0.0.1:{p.port}" for p in procs]
        proc = procs[0]
    if args.server:
        bases = [base]
    stats = Stats()
    rng = random.Random(args.seed)
    try:
        cpu0 = sum(cpu_seconds(p.pid) or 0.0 for p in procs) if proc else None
        load0 = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
        machine0, client0 = machine_times(), time.process_time()
        bot_warmup = 3.0 if args.bot_tables else 0.0   # the bots get going before the measured tables start
        started = time.monotonic()
        clock0 = time.perf_counter()
        stop_at = started + bot_warmup + args.seconds
        bot_games: list[int] = []
        bots = [bot_table_loop(bases[k % len(bases)], args.bot_game, args.bot_level, stop_at, bot_games)
                for k in range(args.bot_tables)]
        bot_tasks = [asyncio.create_task(b) for b in bots]
        if bots:
            await asyncio.sleep(bot_warmup)
            started = time.monotonic()
            clock0 = time.perf_counter()
        # table k lives on process k mod N (a load balancer hashing the table does the same)
        await asyncio.gather(*(table_loop(bases[k % len(bases):] + bases[:k % len(bases)], args.game, args.players,
                                          random.Random(rng.random()), stats, stop_at, args.spread, args.think)
                               for k in range(args.tables)))
        elapsed = time.monotonic() - started
        await asyncio.gather(*bot_tasks)
        cpu1 = sum(cpu_seconds(p.pid) or 0.0 for p in procs) if proc else None
        machine1, client1 = machine_times(), time.process_time()
    finally:
        for p in procs:  # each server stops its workers and bot processes itself
            p.terminate()
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait(30)
        if cluster is not None:
            cluster.__exit__(None, None, None)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
    lat = sorted(stats.latencies)
    if not lat:
        raise SystemExit("no moves were made")
    p50 = lat[len(lat) // 2] * 1000
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
    where = "PostgreSQL" if args.pg else ("SQLite" if not args.db else args.db.split(":")[0])
    print(f"web load: {args.tables} tables of {args.game}, {elapsed:.1f} s, {stats.games} games finished, "
          f"{args.workers} server process{'es' if args.workers > 1 else ''} on {where}"
          + (", one port" if args.shared_port and args.workers > 1 else "")
          + (", each table's seats spread over them" if args.spread and args.workers > 1 else ""))
    if args.bot_tables:
        print(f"  bot load     {args.bot_tables} all-{args.bot_level} {args.bot_game} tables "
              f"({len(bot_games)} games finished meanwhile)")
    codes = ", ".join(f"{k} {v}" for k, v in sorted(stats.refused_codes.items()))
    print(f"  moves/s      {stats.moves / elapsed:,.0f}  ({stats.moves} moves, {stats.refused} refused"
          f"{': ' + codes if codes else ''})")
    print(f"  latency p50  {p50:.1f} ms")
    print(f"  latency p99  {p99:.1f} ms")
    print(f"  latency mean {statistics.fmean(lat) * 1000:.1f} ms")
    steady = sorted(l for l, t in zip(stats.latencies, stats.sent) if t - clock0 >= args.warmup)
    if steady and args.warmup:
        print(f"  after the first {args.warmup:g} s (all tables created, sockets open): p50 "
              f"{steady[len(steady) // 2] * 1000:.1f} ms, p99 "
              f"{steady[min(len(steady) - 1, int(len(steady) * 0.99))] * 1000:.1f} ms ({len(steady)} moves)")
    if cpu0 is not None and cpu1 is not None and stats.moves:
        used = cpu1 - cpu0
        print(f"  server CPU   {used / stats.moves * 1000:.2f} ms per move "
              f"({stats.moves / used:,.0f} moves per server CPU-second)")
    if stats.moves:
        print(f"  client CPU   {(client1 - client0) / stats.moves * 1000:.2f} ms per move (this load client)")
    if machine0 is not None and machine1 is not None and machine1[1] > machine0[1]:
        busy = (machine1[0] - machine0[0]) / (machine1[1] - machine0[1])
        print(f"  machine busy {busy:.0%} of {os.cpu_count()} CPUs over the run (server, database, client, others)")
    if load0 is not None:
        print(f"  machine load {load0:.1f} (1-min load average at the start; {os.cpu_count()} CPUs)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])  # the first paragraph (argparse fills its lines)
    ap.add_argument("--tables", type=int, default=20, help="concurrent tables")
    ap.add_argument("--seconds", type=float, default=10.0, help="how long to run")
    ap.add_argument("--game", default="wasserloch")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--server", default=None, help="use a running server at this URL instead of starting one")
    ap.add_argument("--pg", action="store_true", help="start a throwaway PostgreSQL cluster (fsync on) as the database")
    ap.add_argument("--workers", type=int, default=1, help="server processes (more than one needs --pg or a "
                                                           "PostgreSQL --db)")
    ap.add_argument("--shared-port", action="store_true",
                    help="run `serve --workers N` on one port (connections land on processes at random) "
                         "instead of N servers on N ports")
    ap.add_argument("--spread", action="store_true",
                    help="connect a table's seats to different processes (every move then travels by NOTIFY)")
    ap.add_argument("--warmup", type=float, default=2.0,
                    help="also report the latencies of moves sent this many seconds after the start, when "
                         "the burst of creating every table and opening every socket is over (0: not)")
    ap.add_argument("--think", type=float, default=0.0,
                    help="mean thinking time of a player before each move, in seconds (default 0: every "
                         "position is answered at once, which measures saturation)")
    ap.add_argument("--deflate", action="store_true",
                    help="the clients offer permessage-deflate, as browsers do (the server compresses each message)")
    ap.add_argument("--bot-tables", type=int, default=0, help="all-bot tables kept busy meanwhile (bot pressure)")
    ap.add_argument("--bot-game", default="watten")
    ap.add_argument("--bot-level", default="expert")
    args = ap.parse_args()
    global CLIENT_COMPRESSION
    CLIENT_COMPRESSION = "deflate" if args.deflate else None
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
