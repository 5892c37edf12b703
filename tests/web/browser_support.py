"""What the browser tests and `docs/screenshots.py` share: a server in a subprocess, a
Chromium page at a given size, and a table brought to a mid-game position over HTTP."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from wasserspiele.core.messages import render

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TIMEOUT_MS = 30_000
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
GAMES = ("wasserloch", "seven_waters", "watten", "wildwasser")
# moves into the game at which each game shows its typical middle (cards on the table,
# animals on the track, a trick half played)
MID_GAME = {"wasserloch": 7, "seven_waters": 14, "watten": 8, "wildwasser": 14}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`wasserspiele serve` in a subprocess on a free loopback port."""

    def __init__(self, db_url: str, port: int | None = None, log_path: str | None = None,
                 bot_delay: float = 0.05):
        # The tables are dealt from a seed (`serve --seed`), so a test sees the same deals on
        # every run: a layout that fails one deal in twenty fails every time or never, not in
        # one CI run of ten.  WASSERSPIELE_TEST_DEALS=random deals at random instead (to look
        # for such deals), =N from another seed.
        deals = os.environ.get("WASSERSPIELE_TEST_DEALS", "1")
        self.seed_args = [] if deals == "random" else ["--seed", deals]
        self.db_url = db_url
        self.log_path = log_path or db_url.rsplit("/", 1)[-1] + ".log"
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.bot_delay = bot_delay
        self.proc: subprocess.Popen | None = None

    def start(self) -> "Server":
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "wasserspiele.cli.main", "serve", "--host", "127.0.0.1",
             "--port", str(self.port), "--db", self.db_url, "--bot-delay", str(self.bot_delay), *self.seed_args],
            stdout=subprocess.DEVNULL, stderr=open(self.log_path, "ab"),  # a file: a pipe could fill up
            # bots answer at once (in threads): a bot pick landing while a click is under way
            # re-renders the board under the pointer; the process pool is tested in test_limits
            # an absent player's seat is offered to a bot after an hour, not a minute: a test of
            # its own sets the wait (test_browser_stand_in.py); elsewhere the offer appearing
            # in a long test would move the board and speak in the live region
            env={"WASSERSPIELE_STAND_IN_SECONDS": "3600", **os.environ, "WASSERSPIELE_BOT_POOL": "thread"})
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(self.base + "/api/games", timeout=1).read()
                return self
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"server died: {open(self.log_path).read()}")
                if time.monotonic() > deadline:
                    raise RuntimeError("server did not start within 60 s")
                time.sleep(0.1)  # polling a subprocess that has no readiness signal, under a deadline

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    # `timeout`: seconds to wait for the answer; a request that waits for a search (a hint)
    # needs more on a busy machine: a client that gives up leaves the search running
    def get(self, path: str, token: str | None = None, timeout: float = 10):
        req = urllib.request.Request(self.base + path, headers={"Authorization": f"Bearer {token}"} if token else {})
        return json.loads(urllib.request.urlopen(req, timeout=timeout).read())

    def post(self, path: str, body, token: str | None = None):
        headers = {"content-type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        req = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), headers=headers, method="POST")
        return json.loads(urllib.request.urlopen(req, timeout=10).read())


def players_of(game: str) -> int:
    from wasserspiele import load
    return load(game).players  # with its default options


def mid_game_table(server: Server, game: str, moves: int | None = None, seed: int = 7) -> dict:
    """A table of humans played over HTTP (a seeded choice among the legal moves) until
    at least `moves` actions are in and seat 0 is to move.  Returns the creation answer."""
    target = MID_GAME[game] if moves is None else moves
    table = server.post("/api/tables", {"game": game, "seats": [{"kind": "human"}] * players_of(game)})
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    rng = random.Random(seed)
    for _ in range(500):
        spectator = server.get(f"/api/tables/{table['id']}")
        if spectator["terminal"]:
            raise RuntimeError(f"{game}: the game ended before the middle")
        waiting = spectator["waiting"]
        if spectator["n"] >= target and 0 in waiting:
            return table
        seat = waiting[0] if waiting[0] != 0 or len(waiting) == 1 else waiting[-1]
        if seat == 0 and spectator["n"] >= target:
            return table
        mine = server.get(f"/api/tables/{table['id']}", tokens[seat])
        server.post(f"/api/tables/{table['id']}/moves", {"action": rng.choice(mine["legal"]), "n": mine["n"]},
                    tokens[seat])
    raise RuntimeError(f"{game}: no mid-game position with seat 0 to move")


def viewport(size: str | tuple[int, int]) -> dict:
    """Playwright's viewport of a SIZES name or a (width, height)."""
    w, h = SIZES[size] if isinstance(size, str) else size
    return {"width": w, "height": h}


def new_context(browser, size: str | tuple[int, int] = "phone", locale: str = "en-US", reduced_motion: bool = True):
    """A browser context of a SIZES name or a (width, height)."""
    return browser.new_context(viewport=viewport(size), locale=locale,
                               reduced_motion="reduce" if reduced_motion else "no-preference")



# An init script that keeps every paragraph the page's live region (#announce) is given, as it
# comes, in window.__said: what a screen reader hears, to compare with what the page shows
ANNOUNCEMENTS = """
  window.__said = [];
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      const box = document.getElementById('announce');
      if (!box || n === box || !box.contains(n)) continue;
      window.__said.push(n.textContent);
    }
  }).observe(document, { childList: true, subtree: true });
"""


def open_page(browser, server: Server, link: str, size: str | tuple[int, int] = "desktop", locale: str = "en-US", *,
              init_script: str | None = None, wait_for: str | None = "#turn"):
    """A new page of `size` at `link`, its table drawn (`wait_for`: None for a page that is
    no table); `init_script` runs in the page before its own scripts.  The page's uncaught
    errors are collected in the list returned beside it."""
    ctx = new_context(browser, size, locale)
    if init_script:
        ctx.add_init_script(init_script)
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + link)
    if wait_for:
        page.wait_for_selector(wait_for)
    return ctx, page, errors


class Tab:
    """One page of one browser context that opens link after link, each loaded afresh at
    its own size, its storage of the last link cleared first.  A new context and page cost
    Chromium about 0.45 CPU-s before the page loads anything, a page load about 0.35 (the
    whole of a new page's opening about 1 CPU-s, measured on the 2-core CI machine): the
    suite opened thousands.  The context's options (`locale`, motion, `init_script`) are
    the tab's, a viewport is each link's; uncaught errors are collected per link."""

    def __init__(self, browser, locale: str = "en-US", *, reduced_motion: bool = True,
                 init_script: str | None = None, forced_dark: bool = False):
        self.ctx = new_context(browser, "desktop", locale, reduced_motion)
        if init_script:
            self.ctx.add_init_script(init_script)
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        if forced_dark:  # forced colours with a dark theme (Windows' high contrast), for all it loads
            self.page.emulate_media(forced_colors="active", color_scheme="dark")
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, server: Server, link: str, size: str | tuple[int, int] = "desktop",
             wait_for: str | None = "#turn"):
        """The page at `link` (a path of `server`) loaded at `size` (a SIZES name or
        (width, height)), `wait_for` drawn; `errors` has that load's errors only."""
        page = self.page
        # what the last link kept (a player's name, the replay's speed) is not this one's,
        # whichever server it was of
        self._forget_storage()
        # about:blank between two links: a link that differs from the last in its fragment
        # alone (a seat's token) would not be loaded anew
        page.goto("about:blank")
        self.ctx.clear_cookies()
        page.set_viewport_size(viewport(size))
        self.errors.clear()
        page.goto(server.base + link)
        if wait_for:
            page.wait_for_selector(wait_for)
        return page

    def new_page(self, size: str | tuple[int, int] = "phone"):
        """Another page of the tab's context (its storage shared: the same browser) at
        `size`; the caller closes it."""
        page = self.ctx.new_page()
        page.set_viewport_size(viewport(size))
        page.set_default_timeout(TIMEOUT_MS)
        return page

    def leave(self) -> None:
        """The page taken to about:blank with what a test set on it undone (offline, a
        permission, requests held by a route, the storage of the page it was on): a seat's
        page left open keeps its seat online and would make the next page of that seat
        "replaced"."""
        self.ctx.set_offline(False)
        self.ctx.clear_permissions()
        self.page.unroute_all(behavior="ignoreErrors")
        self._forget_storage()
        self.page.goto("about:blank")

    def _forget_storage(self) -> None:
        """The storage of the page's origin cleared (about:blank has none)."""
        if self.page.url.startswith(("http://", "https://")):
            self.page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")

    def close(self) -> None:
        self.ctx.close()


@pytest.fixture(scope="module")
def tabs(browser):
    """A test module's tabs, opened when first asked for and closed with the module:
    `tabs("de-DE")`, `tabs(locale, init_script)` (a script run in each page before its own:
    a context of its own, as pages of the plain tab must not get it), and `k` = 1, 2, … for
    pages open at once (each a context of its own: its own storage, as another person's
    browser); `forced_dark=True`: a tab in forced colours with a dark theme."""
    made: dict[tuple, Tab] = {}

    def tab(locale: str = "en-US", init_script: str | None = None, k: int = 0, *, forced_dark: bool = False) -> Tab:
        key = (locale, init_script, k, forced_dark)
        if key not in made:
            made[key] = Tab(browser, locale, init_script=init_script, forced_dark=forced_dark)
        return made[key]
    yield tab
    for t in made.values():
        t.close()


@pytest.fixture
def tab_pool(tabs):
    """`tabs` for a test that leaves its seats' pages open (`tab_pool(locale, k, script)`):
    each tab it used leaves its page after it (Tab.leave), so that the next test's page of
    the same seat is not told "replaced" and nothing it set carries over."""
    used: list[Tab] = []

    def tab(locale: str = "en-US", k: int = 0, script: str | None = None) -> Tab:
        t = tabs(locale, script, k)
        used.append(t)
        return t
    yield tab
    for t in dict.fromkeys(used):
        t.leave()


def saved_name(name: str) -> str:
    """An init script that saves `name` as the player's name before the page reads it (as a
    returning player's browser has it); not in about:blank, which a Tab passes through and
    which has no storage (the script would throw there)."""
    return f"if (location.protocol.startsWith('http')) localStorage.setItem('player_name', {json.dumps(name)})"


def name_the_seats(server: Server, table: dict, names) -> None:
    """Seat k of `table` named names[k] over its WebSocket, as its page names it (`hello`
    with the seat's token, then `name`), each connection closed once the server's state
    shows the name (the seat offline again, as a player who named it and left): no page
    opened for it (a context and page per seat cost Chromium about 1 CPU-s)."""
    from websockets.sync.client import connect

    for seat, name in enumerate(names):
        with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table['id']}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "token": table["seats"][seat]["token"]}))
            ws.send(json.dumps({"type": "name", "name": name}))
            while True:
                msg = json.loads(ws.recv(timeout=10))
                if msg.get("type") == "state" and msg["seats"][seat]["name"] == name:
                    break


def serving(tmp_path_factory, name: str, tables_per_client: int | None = None, **settings: str | float):
    """A test module's server on a SQLite file of its own, for a module fixture
    (`yield from serving(tmp_path_factory, "name")`); `tables_per_client` raises the
    server's limit for tests that deal until a hand or an ending suits them; `settings` are
    the server's other `WASSERSPIELE_*` settings (`STAND_IN_SECONDS=4`), set in its
    environment only."""
    tmp = tmp_path_factory.mktemp(name)
    srv = Server(f"sqlite:///{tmp / (name + '.sqlite3')}", log_path=str(tmp / "server.log"))
    if tables_per_client:
        settings["TABLES_PER_CLIENT"] = tables_per_client
    with pytest.MonkeyPatch.context() as mp:
        for key, value in settings.items():
            mp.setenv(f"WASSERSPIELE_{key}", str(value))
        srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def cut_chip_parts(page) -> list[str]:
    """The texts of the seat chips' parts (who, score, cards, "to move") not shown whole."""
    return page.eval_on_selector_all("#seats .seat-chip > span", """spans => spans.filter(el => {
      const b = el.getBoundingClientRect(), c = el.parentElement.getBoundingClientRect();
      return b.right > c.right + 1 || b.bottom > c.bottom + 1 || el.scrollWidth > el.clientWidth + 1;
    }).map(el => el.textContent)""")

def finished_table(server: Server, game: str = "wasserloch", options: dict | None = None, seed: int = 3) -> dict:
    """A table of humans played to its end over HTTP (a seeded choice among the legal moves)."""
    opts = {"players": 2, "rounds": 1} if options is None and game == "wasserloch" else (options or {})
    players = opts.get("players") or players_of(game)
    table = server.post("/api/tables", {"game": game, "options": opts, "seats": [{"kind": "human"}] * players})
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    rng = random.Random(seed)
    for _ in range(5000):
        spectator = server.get(f"/api/tables/{table['id']}")
        if spectator["terminal"]:
            return table
        random_move(server, table, tokens, spectator["waiting"][0], rng)
    raise RuntimeError(f"{game}: no end within 5000 moves")


def random_move(server: Server, table: dict, tokens: dict[int, str], seat: int, rng: random.Random) -> None:
    """`seat` plays one of its legal moves, chosen by `rng`, through the HTTP API."""
    mine = server.get(f"/api/tables/{table['id']}", tokens[seat])
    server.post(f"/api/tables/{table['id']}/moves", {"action": rng.choice(mine["legal"]), "n": mine["n"]},
                tokens[seat])


def play_wasserloch(server: Server, table: dict, rng: random.Random, until) -> list[tuple[int, str, int]]:
    """Random moves over HTTP until `until(spectator view, moves so far)`: the moves made,
    as (seat, action, round)."""
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    made: list[tuple[int, str, int]] = []
    for _ in range(500):
        spectator = server.get(f"/api/tables/{table['id']}")
        if until(spectator["view"], made):
            return made
        assert not spectator["terminal"], "the game ended first"
        seat = spectator["waiting"][0]
        mine = server.get(f"/api/tables/{table['id']}", tokens[seat])
        action = rng.choice(mine["legal"])
        server.post(f"/api/tables/{table['id']}/moves", {"action": action, "n": mine["n"]}, tokens[seat])
        made.append((seat, action, spectator["view"]["round"]))
    raise RuntimeError("no such position within 500 moves")


def store_finished(db_url: str, state, table_id: str) -> None:
    """Write a finished game (an engine state) into the server's database as the server
    stores a table of humans, seat k's token being `<table_id>-<k>`: for endings a test
    needs and cannot deal over HTTP (the deal is secret; equal totals would be luck)."""
    from wasserspiele.core.protocol import entry_notation
    from wasserspiele.web.storage import SeatRow, Storage, TableRow, hash_token, now

    doc = state.record()
    storage = Storage(db_url)
    try:
        storage.create_table(TableRow(
            id=table_id, game=state.game.name, options=doc["options"], players=doc["players"], seed=1,
            setup=doc["setup"], status="running", created=now(),
            seats=[SeatRow(s, "human", None, hash_token(f"{table_id}-{s}")) for s in range(doc["players"])]))
        storage.save_progress(table_id, 0, [(e[0], entry_notation(e)) for e in state.history], doc["setup"],
                              "over", {"scores": state.scores(), "winners": state.winners()})
    finally:
        storage.close()


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright, one per test module (modules import this
    fixture; each skips itself first when Chromium or Playwright is missing)."""
    from playwright import sync_api

    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


# The board's box against the picture drawn in it (the viewBox scaled to fit, centred:
# preserveAspectRatio meet), the hand, the move bar, the side column (the log) and how far
# the page scrolls: what the board-fit tests (phone, wide screen) measure.
BOARD_MEASURE = """() => {
  const board = document.getElementById('board'), svg = board.querySelector('svg');
  const b = board.getBoundingClientRect(), s = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
  const k = Math.min(s.width / vb.width, s.height / vb.height), drawn = vb.height * k;
  const top = s.top + (s.height - drawn) / 2;
  const hand = document.getElementById('hand')?.getBoundingClientRect();
  const actions = document.querySelector('#play .actions')?.getBoundingClientRect();
  return { above: top - b.top, below: b.bottom - (top + drawn), drawn, box: b.height,
           narrower: b.width - vb.width * k,
           boardBottom: b.bottom, sideTop: document.getElementById('side').getBoundingClientRect().top,
           handBottom: hand ? hand.bottom : null, actionsBottom: actions ? actions.bottom : null,
           screen: innerHeight, down: document.documentElement.scrollHeight - innerHeight,
           sideways: document.documentElement.scrollWidth - innerWidth };
}"""


def card_name(code: str, lang: str) -> str:
    """A card as the catalogue names it for a screen reader ("queen of hearts", "Herz-Dame")."""
    base, _, declared = code.partition("=")
    if base[0] == "X":
        if not declared:
            return render("web.card_joker", {}, lang)
        # a slide's value is its number, a pool's declaration a suit, a river's a rank
        said = declared if declared.isdigit() else render(
            f"web.suit_{declared}" if declared in ("C", "D", "H", "S") else f"web.rank_{declared}", {}, lang)
        return render("web.card_joker_as", {"r": said}, lang)
    return render("web.card_name", {"r": render(f"web.rank_{base[:-1]}", {}, lang),
                                    "s": render(f"web.suit_{base[-1]}", {}, lang)}, lang)


def said(page) -> list[str]:
    """What the page's live region said so far (ANNOUNCEMENTS records it)."""
    return page.evaluate("() => window.__said.slice()")


def wait_to_hear(page, lines: str | list[str], timeout: int = 15_000) -> list[str]:
    """What was said once `lines` (one line or several) all were, or by `timeout` ms (the
    assertion after it then shows what was said instead)."""
    from playwright import sync_api
    lines = [lines] if isinstance(lines, str) else lines
    try:
        page.wait_for_function("(w) => w.every((x) => window.__said.includes(x))", arg=lines, timeout=timeout)
    except sync_api.TimeoutError:
        pass
    return said(page)


def move(server: Server, table: dict, seat: int, action: str) -> None:
    """`seat` plays `action` over HTTP (it must be legal for it now)."""
    token = table["seats"][seat]["token"]
    mine = server.get(f"/api/tables/{table['id']}", token)
    assert action in mine["legal"], (action, mine["legal"])
    server.post(f"/api/tables/{table['id']}/moves", {"action": action, "n": mine["n"]}, token)


def wildwasser_until(server: Server, found, what: str, games: int = 20, players: int = 3, moves: int = 300):
    """Humans at a Wildwasser table of `players` played with seeded random moves until
    `found(table, spectator, tokens)` returns something for the position (`spectator`: its
    API answer without a seat): that is returned.  The same tables, seeds and moves for
    every caller; AssertionError, naming `what`, if no game of `games` gives one."""
    for seed in range(games):
        table = server.post("/api/tables", {"game": "wildwasser", "options": {"players": players},
                                            "seats": [{"kind": "human"}] * players})
        tokens = {s["seat"]: s["token"] for s in table["seats"]}
        rng = random.Random(seed)
        for _ in range(moves):
            spectator = server.get(f"/api/tables/{table['id']}")
            if spectator["terminal"]:
                break
            got = found(table, spectator, tokens)
            if got is not None:
                return got
            random_move(server, table, tokens, spectator["waiting"][0], rng)
    raise AssertionError(f"no {what} in {games} games")


def wildwasser_marker_choice(server: Server, found, games: int = 20, players: int = 3):
    """A seat that may put the start marker on team cards (WW-3.2, WW-4.3), in positions of
    `wildwasser_until`, for which `found(table, seat, legal, targets, token)` returns
    something (`targets`: the seats whose card the marker may go to, in the order of
    `legal`): that is returned."""
    def choice(table, spectator, tokens):
        for seat in spectator["waiting"]:
            legal = server.get(f"/api/tables/{table['id']}", tokens[seat])["legal"]
            targets = [int(a.split()[1]) for a in legal
                       if a.split()[0] in ("action", "marker") and len(a.split()) == 2]
            if targets:
                got = found(table, seat, legal, targets, tokens[seat])
                if got is not None:
                    return got
        return None
    return wildwasser_until(server, choice, "such start-marker choice", games, players)


def luminance(colour: str) -> float:
    """The relative luminance (WCAG) of "rgb(r, g, b)" or "#rrggbb"."""
    if colour.startswith("#"):
        channels = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    else:
        channels = [int(float(v)) for v in re.findall(r"[\d.]+", colour)[:3]]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (v / 255 for v in channels)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
