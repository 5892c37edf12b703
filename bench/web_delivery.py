"""What a player's browser downloads: bytes and requests for a first visit to the lobby
and to a table, for a reload of the table, and per move over the table's WebSocket.

    python bench/web_delivery.py [--games wasserloch,watten] [--moves 30]

Runs `wasserspiele serve` (the code on PYTHONPATH) on a throwaway SQLite file and opens
its pages in Chromium (Playwright), reading the browser's own network log (DevTools
protocol): `wire` is what came over the connection (headers and body, compressed as
sent), `decoded` the bodies as the page reads them.  A first visit is a new browser
profile; the reload is the same page reloaded (the browser revalidates what it has).
`304` counts the answers the browser reports as such (Chromium reports a revalidated
page or fetch as the cached 200: its small `wire` tells), `cached` what it took from
its cache without asking, `gzip` the answers that came compressed.

Per move: a table of humans is played through the HTTP API with seeded random moves
while the page of seat 0 watches; every WebSocket message the page receives is kept
as the page reads it (`plain`: the wire's size without compression, plus 2-4 bytes of
frame header).  What permessage-deflate makes of them is computed from those very
messages with the settings uvicorn negotiates (context takeover, 12-bit window, memLevel
5, zlib level 6; `serve --no-ws-compression` sends them plain), with the CPU time that
compressing them takes here and the memory one socket's compressor and decompressor
hold (tracemalloc).  No figure here depends on how fast the machine is except the µs of
compression.
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the browser tests' helpers

from web.browser_support import ARGS, CHROMIUM, Server, players_of  # noqa: E402

TIMEOUT_MS = 60_000
# what uvicorn's WebSocket implementation (websockets, sans-I/O) offers with
# ws_per_message_deflate=True: uvicorn/protocols/websockets/websockets_sansio_impl.py
WS_WINDOW_BITS = 12
WS_MEM_LEVEL = 5


class NetLog:
    """The browser's network events of one page (DevTools protocol), summed per phase."""

    def __init__(self, page):
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.send("Network.enable")
        self.requests: dict[str, dict] = {}
        self.frames: list[str] = []
        self.sent: list[str] = []
        self.cdp.on("Network.requestWillBeSent", self._request)
        self.cdp.on("Network.responseReceived", self._response)
        self.cdp.on("Network.dataReceived", self._data)
        self.cdp.on("Network.loadingFinished", self._finished)
        self.cdp.on("Network.requestServedFromCache", self._from_cache)
        self.cdp.on("Network.webSocketFrameReceived", self._frame)
        self.cdp.on("Network.webSocketFrameSent", lambda e: self.sent.append(self._payload(e)))

    def _request(self, e):
        self.requests[e["requestId"]] = {"url": e["request"]["url"], "status": None, "wire": 0,
                                         "decoded": 0, "cache": False, "encoding": None}

    def _response(self, e):
        r = self.requests.get(e["requestId"])
        if r is not None:
            r["status"] = e["response"]["status"]
            r["cache"] = r["cache"] or e["response"].get("fromDiskCache") or e["response"].get("fromServiceWorker")
            headers = {k.lower(): v for k, v in e["response"].get("headers", {}).items()}
            r["encoding"] = headers.get("content-encoding")

    def _data(self, e):
        r = self.requests.get(e["requestId"])
        if r is not None:
            r["decoded"] += e["dataLength"]

    def _finished(self, e):
        r = self.requests.get(e["requestId"])
        if r is not None:
            r["wire"] = e["encodedDataLength"]

    def _from_cache(self, e):
        r = self.requests.get(e["requestId"])
        if r is not None:
            r["cache"] = True

    @staticmethod
    def _payload(e) -> str:
        data = e["response"]["payloadData"]
        return base64.b64decode(data).decode() if e["response"]["opcode"] == 2 else data

    def _frame(self, e):
        self.frames.append(self._payload(e))

    def take(self) -> list[dict]:
        """The HTTP requests since the last call (WebSocket frames are kept apart)."""
        out = [r for r in self.requests.values() if not r["url"].startswith(("ws:", "data:"))]
        self.requests = {}
        return out


def summary(requests: list[dict]) -> dict:
    network = [r for r in requests if not r["cache"]]
    return {"requests": len(network), "from_cache": len(requests) - len(network),
            "not_modified": sum(r["status"] == 304 for r in network),
            "wire": sum(r["wire"] for r in network), "decoded": sum(r["decoded"] for r in requests),
            "compressed": sum(bool(r["encoding"]) for r in network)}


def settle(page) -> None:
    """Until no request is under way (the lobby's lists, the table's catalogue)."""
    page.wait_for_load_state("networkidle")


def phone_page(browser):
    """A new browser profile (nothing cached) with a phone's page in it, its network logged."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return ctx, page, NetLog(page)


def visits(browser, server: Server, game: str) -> dict:
    """First visit to the lobby, first visit to a table of `game` (new profile each), reload."""
    out = {}
    ctx, page, log = phone_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-lobby=ready]")
    settle(page)
    out["lobby"] = summary(log.take())
    ctx.close()

    table = server.post("/api/tables", {"game": game, "seats": [{"kind": "human"}] * players_of(game)})
    ctx, page, log = phone_page(browser)
    page.goto(server.base + table["seats"][0]["link"])
    page.wait_for_selector("#turn")
    settle(page)
    out["table"] = summary(log.take())
    page.reload()
    page.wait_for_selector("#turn")
    settle(page)
    out["reload"] = summary(log.take())
    out["table_requests"] = sorted({r["url"].split(server.base, 1)[-1].split("#")[0] for r in log.requests.values()})
    ctx.close()
    return out


def moves(browser, server: Server, game: str, count: int, seed: int) -> list[str]:
    """The WebSocket messages seat 0's page receives while `count` moves are played."""
    table = server.post("/api/tables", {"game": game, "seats": [{"kind": "human"}] * players_of(game)})
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    ctx, page, log = phone_page(browser)
    page.goto(server.base + table["seats"][0]["link"])
    page.wait_for_selector("#turn")
    settle(page)
    log.frames.clear()
    rng = random.Random(seed)
    played = 0
    for _ in range(count):
        spectator = server.get(f"/api/tables/{table['id']}")
        if spectator["terminal"]:
            break
        seat = spectator["waiting"][0]
        mine = server.get(f"/api/tables/{table['id']}", tokens[seat])
        server.post(f"/api/tables/{table['id']}/moves", {"action": rng.choice(mine["legal"]), "n": mine["n"]},
                    tokens[seat])
        played += 1
    deadline = time.monotonic() + 10
    # every position reaches the page: one state message per move (wait until the last one is in)
    while sum(json.loads(f).get("type") == "state" for f in log.frames) < played and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    frames = [f for f in log.frames if json.loads(f).get("type") == "state"]
    ctx.close()
    return frames


def deflated(messages: list[str], window: int = WS_WINDOW_BITS, mem_level: int = WS_MEM_LEVEL,
             takeover: bool = True) -> tuple[list[int], float]:
    """Each message's size under permessage-deflate (RFC 7692: raw deflate, sync flush,
    the 4-byte tail dropped) and the CPU seconds compressing all of them took."""
    sizes = []
    compressor = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -window, mem_level)
    started = time.process_time()
    for m in messages:
        if not takeover:
            compressor = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -window, mem_level)
        data = compressor.compress(m.encode()) + compressor.flush(zlib.Z_SYNC_FLUSH)
        sizes.append(len(data) - 4)
    return sizes, time.process_time() - started


def socket_memory(window: int = WS_WINDOW_BITS, mem_level: int = WS_MEM_LEVEL) -> int:
    """Bytes one socket's compressor and decompressor hold once used (zlib allocates
    through Python's raw allocator, which tracemalloc sees)."""
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    c = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -window, mem_level)
    d = zlib.decompressobj(-window)
    d.decompress(c.compress(b"x" * 1000) + c.flush(zlib.Z_SYNC_FLUSH))
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return used


def kb(n: float) -> str:
    return f"{n / 1000:.1f} kB"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="wasserloch,seven_waters,watten,wildwasser")
    ap.add_argument("--moves", type=int, default=30, help="moves played per game for the WebSocket figures")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    from playwright import sync_api

    with tempfile.TemporaryDirectory() as tmp, sync_api.sync_playwright() as p:
        server = Server(f"sqlite:///{tmp}/delivery.sqlite3", log_path=f"{tmp}/server.log").start()
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            print("HTTP (Chromium, a new profile per first visit; wire = headers + bodies as sent)")
            print(f"{'game':<13} {'visit':<7} {'requests':>8} {'304':>4} {'cached':>6} {'gzip':>4} "
                  f"{'wire':>9} {'decoded':>9}")
            for game in args.games.split(","):
                figures = visits(browser, server, game)
                for phase in ("lobby", "table", "reload"):
                    s = figures[phase]
                    print(f"{game:<13} {phase:<7} {s['requests']:>8} {s['not_modified']:>4} {s['from_cache']:>6} "
                          f"{s['compressed']:>4} {kb(s['wire']):>9} {kb(s['decoded']):>9}")
            print()
            print(f"WebSocket, per move (state messages seat 0's page receives; deflate: "
                  f"{WS_WINDOW_BITS}-bit window, memLevel {WS_MEM_LEVEL}, as uvicorn offers it)")
            print(f"{'game':<13} {'moves':>5} {'plain':>9} {'deflate':>9} {'ratio':>6} {'no ctx':>9} "
                  f"{'µs/msg':>7}")
            for game in args.games.split(","):
                frames = moves(browser, server, game, args.moves, args.seed)
                plain = [len(f.encode()) for f in frames]
                sizes, cpu = deflated(frames)
                alone, _ = deflated(frames, takeover=False)
                print(f"{game:<13} {len(frames):>5} {kb(statistics.mean(plain)):>9} "
                      f"{kb(statistics.mean(sizes)):>9} {sum(sizes) / sum(plain):>6.2f} "
                      f"{kb(statistics.mean(alone)):>9} {cpu / len(frames) * 1e6:>7.0f}")
            print()
            print(f"memory per socket with permessage-deflate: {kb(socket_memory())} "
                  f"({WS_WINDOW_BITS}-bit window, memLevel {WS_MEM_LEVEL}); "
                  f"{kb(socket_memory(15, 8))} with zlib's defaults (15, 8)")
        finally:
            browser.close()
            server.stop()


if __name__ == "__main__":
    main()
