"""The browser client, driven by Playwright in Debian's Chromium: lobby, clicking moves,
two seats live side by side, a server restart mid-game, the replay viewer, German."""

from __future__ import annotations

import json
import os

import pytest

from .browser_support import (CHROMIUM, GAMES, SIZES, Server, Tab, browser, finished_table,  # noqa: F401
                             cut_chip_parts, mid_game_table, players_of, tabs)

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


# The limits a module's worth of tables from this one address reaches: each test opens its
# own tables (humans' seats that nobody finishes stay open), so a shared server lifts the
# per-client counts of open tables and bot seats; test_limits.py tests those in their own right.
SHARED_SERVER_ENV = {"WASSERSPIELE_TABLES_PER_CLIENT": "100000", "WASSERSPIELE_BOT_SEATS_PER_CLIENT": "100000"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for a module's tests (the modules that import this fixture get one each):
    every test makes its own tables and opens them in its own browser context, so nothing
    one test does reaches another's; a server started for each test cost 1–3 s of ~60 tests.
    A test that reads what the whole server holds (the lobby's list) takes `fresh_server`."""
    tmp = tmp_path_factory.mktemp("browser")
    with pytest.MonkeyPatch.context() as mp:  # the server's environment, not this process's afterwards
        for name, value in SHARED_SERVER_ENV.items():
            mp.setenv(name, value)
        srv = Server(f"sqlite:///{tmp / 'browser.sqlite3'}", log_path=str(tmp / "server.log")).start()
    yield srv
    srv.stop()


@pytest.fixture
def fresh_server(tmp_path):
    """A server of its own, for a test that reads the lobby's list of open tables."""
    srv = Server(f"sqlite:///{tmp_path / 'browser.sqlite3'}", log_path=str(tmp_path / "server.log")).start()
    yield srv
    srv.stop()


def open_in(tab: Tab, server: Server, link: str, size: str | tuple[int, int] = "phone", wait_for: str | None = None):
    """`tab` at `link` of `server` (Tab.open), at a phone's size and not waiting unless told."""
    return tab.open(server, link, size, wait_for)


# the pages with motion (animations shown) of the module, one tab of their own: an observer
# of every drawn position notes a whole Watten trick going away (sawTrick) and a card flying
# to its taker (sawFlight)
MOTION = """new MutationObserver(() => {
    if (document.querySelectorAll('#board .trick-away').length === 4) window.sawTrick = true;
    if (document.querySelector('#board [data-fly-to]')) window.sawFlight = true;
  }).observe(document, { childList: true, subtree: true });"""


@pytest.fixture(scope="module")
def motion_tab(browser):
    tab = Tab(browser, reduced_motion=False, init_script=MOTION)
    yield tab
    tab.close()


def wait_for_my_turn_or_end(page, after_n: int) -> bool:
    """Wait until the page shows a position after move `after_n` that is mine or final."""
    page.wait_for_function(
        """(n) => { const t = document.querySelector('#turn');
                    return t && +t.dataset.n > n && (t.dataset.mine === '1' || t.dataset.terminal === '1'); }""",
        arg=after_n)
    return page.get_attribute("#turn", "data-terminal") == "1"


def current_n(page) -> int:
    return int(page.get_attribute("#turn", "data-n"))


BUTTON = "#actions button[data-action]"


def wait_until_moved_on_or_shown(page, n: int, *selectors: str) -> bool:
    """Wait until the position after move `n` is no longer this seat's (it moved on, or
    the game ended) or one of `selectors` is drawn; True if the position moved on."""
    page.wait_for_function(
        """([n, sels]) => { const t = document.querySelector('#turn');
                            return !t || +t.dataset.n !== n || t.dataset.mine !== '1'
                                   || sels.some((s) => document.querySelector(s)); }""",
        arg=[n, list(selectors)])
    return current_n(page) != n or page.get_attribute("#turn", "data-mine") != "1"


def click_a_move(page, prefer: str = "") -> None:
    """Play one legal move by clicking: a highlighted element, then a button if one appears.
    Each step waits for the page to show its result (never for a time): a click that
    fitted exactly one move moves the position on; one that did not shows buttons."""
    n = current_n(page)
    # Look only once the page has drawn a way to move: a redraw in progress can show
    # neither yet, and a decision offered by buttons alone has nothing to click on.
    # Wildwasser's simultaneous rounds can also move on meanwhile: then there is nothing to do.
    if wait_until_moved_on_or_shown(page, n, BUTTON, f".clickable{prefer}"):
        return
    if page.locator(BUTTON).count() == 0:
        # the same redraw can take the pieces away between looking and clicking (the buttons'
        # case below; seen once in CI: a 30-s wait for a piece that was gone): click while one
        # is there, and look again if the page was redrawn under the click
        while True:
            try:
                page.locator(f".clickable{prefer}").first.click(timeout=5_000)
                break
            except sync_api.TimeoutError:
                if wait_until_moved_on_or_shown(page, n, BUTTON, f".clickable{prefer}"):
                    return
                if page.locator(BUTTON).count():
                    break  # buttons now: the loop below plays one
        wait_until_moved_on_or_shown(page, n, BUTTON, ".clickable.selected")
        if page.locator(BUTTON).count() == 0:
            return  # the click fitted exactly one move and played it (or selected a part of one)
    # A redraw can take the buttons away between looking and clicking: in Wildwasser's
    # simultaneous rounds the other seats' picks arrive meanwhile and the position may
    # move on.  Click while the buttons are there; stop once the position is not this one.
    while not wait_until_moved_on_or_shown(page, n, BUTTON):
        try:
            page.locator(BUTTON).first.click(timeout=5_000)
            return
        except sync_api.TimeoutError:
            continue  # redrawn under the click: look again


def create_in_lobby(page, base, game, options=None, seats=None, *, load: bool = True) -> dict:
    """A table made with the lobby's form (`load`: False for a page at the lobby already)."""
    if load:
        page.goto(base + "/")
    page.wait_for_selector("body[data-lobby='ready']")  # the lists have arrived and redrawn the form
    page.select_option("#game", game)
    for name, value in (options or {}).items():
        page.fill(f"#opt-{name}", str(value))
        page.dispatch_event(f"#opt-{name}", "change")
    for i, kind in enumerate(seats or []):
        page.select_option(f"#seat-{i}", kind)
    page.click("#create")
    page.wait_for_selector("#created")
    links = {int(a.get_attribute("data-seat-link")): a.get_attribute("href")
             for a in page.query_selector_all("[data-seat-link]")}
    return {"links": links, "spectator": page.get_attribute("#spectator-link", "href")}


def test_a_whole_wasserloch_round_by_clicking_then_the_replay(tabs, server):
    tab = tabs()
    page = open_in(tab, server, "/")
    made = create_in_lobby(page, server.base, "wasserloch", {"rounds": 1},
                           ["human", "bot:easy", "bot:medium"], load=False)
    assert set(made["links"]) == {0}
    page.goto(server.base + made["links"][0])
    page.wait_for_selector("#turn")
    wait_for_my_turn_or_end(page, -1)
    # a place whose value I do not hold: the server says why it cannot be played
    page.locator("#board [data-key^='v:'].inactive").first.click(force=True)  # aria-disabled, yet it explains
    page.wait_for_selector("#notice.refused")
    assert "in hand" in page.inner_text("#notice")
    n, moves = -1, 0
    while not wait_for_my_turn_or_end(page, n):
        n = current_n(page)
        click_a_move(page, "[data-key^='v:']")
        moves += 1
        assert moves < 80
    assert moves >= 3
    result = page.inner_text("#result")
    table_id = made["spectator"].rsplit("/", 1)[1]
    final = server.get(f"/api/tables/{table_id}")
    assert final["terminal"] and str(final["scores"][0]) in result
    page.click("#to-replay")
    page.wait_for_selector("#step")
    assert page.inner_text("#step") == f"Move 0 of {final['n']}"
    page.click("#next")
    page.wait_for_function("() => document.querySelector('#step').textContent.startsWith('Move 1 ')")
    page.click("#last")
    page.wait_for_selector("#result")
    assert tab.errors == []


def test_a_watten_hand_by_clicking(tabs, server):
    tab = tabs()
    page = open_in(tab, server, "/")
    made = create_in_lobby(page, server.base, "watten", {}, ["human", "bot:easy", "bot:easy", "bot:easy"], load=False)
    table_id = made["spectator"].rsplit("/", 1)[1]
    page.goto(server.base + made["links"][0])
    page.wait_for_selector("#turn")
    n, moves = -1, 0
    while not server.get(f"/api/tables/{table_id}")["view"]["results"]:
        if wait_for_my_turn_or_end(page, n):
            break
        if server.get(f"/api/tables/{table_id}")["view"]["results"]:
            break
        n = current_n(page)
        click_a_move(page)
        moves += 1
        assert moves < 30
    assert moves >= 5  # at least one card in each of the five tricks
    assert server.get(f"/api/tables/{table_id}")["view"]["results"][0]["hand"] == 1
    # between hands a summary says who won the hand and why; the log reads as sentences
    page.wait_for_selector("#summary:has-text('Hand 1 is over')")
    assert "team" in page.inner_text("#summary") and "tricks" in page.inner_text("#summary")
    assert "event:" not in page.inner_text("#log") and "{" not in page.inner_text("#log")
    assert tab.errors == []


def test_two_seats_see_each_others_moves_live_and_never_each_others_hands(browser, tabs, server):
    table = server.post("/api/tables", {"game": "wasserloch", "options": {"players": 2, "rounds": 1},
                                        "seats": [{"kind": "human"}, {"kind": "human"}]})
    seat_tabs = [tabs(), Tab(browser)]  # seat 0 in the module's tab, seat 1 in a browser of its own
    pages, frames = [t.page for t in seat_tabs], {0: [], 1: []}
    listeners = [lambda ws, seat=seat: ws.on("framereceived", lambda payload: frames[seat].append(payload))
                 for seat in (0, 1)]
    try:
        for seat in (0, 1):
            pages[seat].on("websocket", listeners[seat])
            open_in(seat_tabs[seat], server, table["seats"][seat]["link"], "phone", "#turn")
        for turn in range(4):
            seat = turn % 2
            me, other = pages[seat], pages[1 - seat]
            n = current_n(me)
            assert me.get_attribute("#turn", "data-mine") == "1"
            click_a_move(me, "[data-key^='v:']")
            wait_for_my_turn_or_end(other, n)  # the other seat sees it without reloading
            assert other.get_attribute("#turn", "data-mine") == "1"
        for seat in (0, 1):
            own = server.get(f"/api/tables/{table['id']}", table["seats"][seat]["token"])["view"]["hand"]
            states = [json.loads(f) for f in frames[seat] if '"type":"state"' in f]
            assert states and all(m["seat"] == seat and m["view"]["seat"] == seat for m in states)
            assert states[-1]["view"]["hand"] == own
            shown = sorted(pages[seat].get_attribute(f"#hand [data-key='v:{v}']", "data-key") or ""
                           for v, c in zip("A2345678", own) if c)
            assert all(shown)
        assert seat_tabs[0].errors + seat_tabs[1].errors == []
    finally:
        pages[0].remove_listener("websocket", listeners[0])  # the module's tab goes on to other tests
        seat_tabs[1].close()


def test_the_game_continues_after_a_server_restart(tabs, tmp_path):
    db = f"sqlite:///{tmp_path / 'restart.sqlite3'}"
    srv = Server(db, log_path=str(tmp_path / "server.log")).start()
    try:
        table = srv.post("/api/tables", {"game": "wasserloch", "options": {"players": 2},
                                         "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}]})
        tab = tabs()
        page = open_in(tab, srv, table["seats"][0]["link"], "phone", "#turn")
        n = -1
        for _ in range(2):
            wait_for_my_turn_or_end(page, n)
            n = current_n(page)
            click_a_move(page, "[data-key^='v:']")
        wait_for_my_turn_or_end(page, n)
        n = current_n(page)
        hand_before = srv.get(f"/api/tables/{table['id']}", table["seats"][0]["token"])["view"]["hand"]
        srv.stop()
        page.wait_for_selector("#notice.refused")  # "reconnecting"
        srv = Server(db, port=srv.port, log_path=str(tmp_path / "server.log")).start()
        page.wait_for_function("() => !document.querySelector('#notice.refused')")
        assert current_n(page) == n and page.get_attribute("#turn", "data-mine") == "1"
        assert srv.get(f"/api/tables/{table['id']}", table["seats"][0]["token"])["view"]["hand"] == hand_before
        click_a_move(page, "[data-key^='v:']")
        wait_for_my_turn_or_end(page, n)
        assert current_n(page) >= n + 2  # my move and the bot's answer
        assert tab.errors == []
    finally:
        srv.stop()


def test_german_is_chosen_from_the_browser_and_switchable(tabs, server):
    # 1280 × 720: Playwright's size of a context made without one, as this page had
    page = open_in(tabs("de-DE"), server, "/", (1280, 720), "#create")
    assert page.inner_text("#create") == "Tisch eröffnen"
    page.select_option("#lang", "en")  # the English catalogue is fetched, then the page redrawn
    page.wait_for_function("() => document.querySelector('#create').textContent === 'Create table'")
    page.reload()
    page.wait_for_selector("#create")
    assert page.inner_text("#create") == "Create table"  # the choice is remembered


# The words of the elements `sel` that a line break splits (a word whose text spans two
# line boxes)
BROKEN_WORDS = """(sel) => [...document.querySelectorAll(sel)].flatMap(el => {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT), out = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const m of node.textContent.matchAll(/\\S+/g)) {
      const r = document.createRange();
      r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
      const tops = new Set([...r.getClientRects()].map(b => Math.round(b.top)));
      if (tops.size > 1) out.push(m[0]);
    }
  }
  return out; })"""


def test_the_lobby_on_a_phone_breaks_its_lines_between_words(tabs, fresh_server):
    # an open table's line ("Wildwasser · 0 Züge · Mensch, Mensch, …") wraps at spaces;
    # only a seat link, one long word, may break inside
    server = fresh_server
    for game in GAMES:  # lines of several lengths, so that some break inside a word unless words are kept
        server.post("/api/tables", {"game": game, "seats": [{"kind": "human"}] * players_of(game)})
    page = open_in(tabs("de-DE"), server, "/", "phone", f".links li:nth-child({len(GAMES)}) a[data-table]")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert len(page.inner_text(".links a[data-table]")) > 45  # longer than a phone line
    assert page.evaluate(BROKEN_WORDS, ".links a[data-table]") == []
    page.click("#create")
    page.wait_for_selector("#created code")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


# The texts of a hand's cards that reach past their card's face (its outline, `rect.hl`:
# a Wasserloch stack draws its backs first, peeking out below it to the right), as
# "key: text"; a long name in one language ("Erdmännchen") must be fitted, not spill over
SPILLED = """() => [...document.querySelectorAll('#hand [data-key]')].flatMap(card => {
  const rect = card.querySelector('rect.hl') || card.querySelector('rect');
  if (!rect) return [];
  const r = rect.getBoundingClientRect();
  return [...card.querySelectorAll('text')].filter(el => { const b = el.getBoundingClientRect();
    return b.width && (b.left < r.left - 1 || b.right > r.right + 1 || b.top < r.top - 1 || b.bottom > r.bottom + 1); })
    .map(el => `${card.dataset.key}: ${el.textContent}`); })"""


@pytest.mark.parametrize("game, locale", [("wasserloch", "de-DE"), ("seven_waters", "de-DE"),
                                          ("watten", "de-DE"), ("wildwasser", "de-DE"),
                                          ("seven_waters", "en-US"), ("wildwasser", "en-US")])
def test_every_game_is_drawn_and_takes_moves_by_clicking(tabs, server, game, locale):
    players = players_of(game)
    table = server.post("/api/tables", {"game": game, "seats": [{"kind": "human"}] +
                                        [{"kind": "bot", "level": "easy"}] * (players - 1)})
    tab = tabs(locale)
    page = open_in(tab, server, table["seats"][0]["link"])
    n = -1
    for _ in range(4):
        if wait_for_my_turn_or_end(page, n):
            break
        n = current_n(page)
        assert page.locator("#board svg").count() >= 1
        needed = json.loads(page.get_attribute("#app", "data-keys"))
        drawn = set(page.eval_on_selector_all("[data-key]", "els => els.map(e => e.dataset.key)"))
        assert set(needed) <= drawn, set(needed) - drawn   # every legal move can be tapped
        assert page.evaluate(SPILLED) == []                # a card's words stay on the card
        click_a_move(page)
    wait_for_my_turn_or_end(page, n)
    assert current_n(page) > 0
    text = page.inner_text("body")
    assert f"{game}." not in text  # every string is translated, no raw keys
    assert tab.errors == []


# ---------------------------------------------------------------- one screen
VISIBLE = {"#turn": "turn indicator", "#board": "board", "#hand": "hand", "#seats": "scores"}


def boxes_outside(page, width, height) -> dict:
    """The parts a player decides with whose bounding box leaves the viewport (without scrolling)."""
    out = {}
    for sel, what in VISIBLE.items():
        box = page.locator(sel).bounding_box()
        assert box is not None, f"{what} ({sel}) is not drawn"
        if box["x"] < -1 or box["y"] < -1 or box["x"] + box["width"] > width + 1 or box["y"] + box["height"] > height + 1:
            out[what] = box
    for sel in ("#board [data-key]", "#hand [data-key]"):      # each card and place, not only the frame
        for i, box in enumerate(page.eval_on_selector_all(sel, "els => els.map(e => e.getBoundingClientRect().toJSON())")):
            if box["left"] < -1 or box["top"] < -1 or box["right"] > width + 1 or box["bottom"] > height + 1:
                out[f"{sel}[{i}]"] = box
    return out


@pytest.fixture(scope="module")
def mid_games(server):
    """A table in its middle for each game, on the module's server (no other test plays them)."""
    return server, {g: mid_game_table(server, g) for g in GAMES}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", GAMES)
def test_everything_a_player_decides_with_is_on_one_screen(tabs, mid_games, game, size):
    srv, tables = mid_games
    tab = tabs()
    page = open_in(tab, srv, tables[game]["seats"][0]["link"], size, "#turn[data-mine='1']")
    width, height = SIZES[size]
    assert page.locator("#board [data-key]").count() + page.locator("#hand [data-key]").count() > 0
    assert boxes_outside(page, width, height) == {}
    assert page.evaluate("() => window.scrollY") == 0
    # every part of a seat's chip (who, score, cards, "am Zug") is shown whole, none cut off
    assert cut_chip_parts(page) == []
    assert tab.errors == []


# ---------------------------------------------------------------- people
def test_the_seat_link_survives_a_lobby_reload_and_a_rematch_starts_a_new_table(tabs, server):
    tab = tabs()
    page = open_in(tab, server, "/")
    made = create_in_lobby(page, server.base, "wasserloch", {"players": 2, "rounds": 1}, ["human", "bot:easy"],
                           load=False)
    page.reload()
    page.wait_for_selector("#my-tables")
    table_id = made["spectator"].rsplit("/", 1)[1]
    link = page.get_attribute(f"#my-tables a[data-my-table='{table_id}']", "href")
    assert link == made["links"][0]                        # "My tables" keeps the seat link
    page.click(f"#my-tables a[data-my-table='{table_id}']")
    page.wait_for_selector("#turn")
    n = -1
    while not wait_for_my_turn_or_end(page, n):
        n = current_n(page)
        click_a_move(page, "[data-key^='v:']")
    page.click("#rematch")
    page.wait_for_function(f"() => !location.pathname.endsWith('{table_id}')")
    page.wait_for_selector("#turn[data-n='0'], #turn[data-n='1']")
    new_id = page.evaluate("() => location.pathname.split('/').pop()")
    fresh = server.get(f"/api/tables/{new_id}")
    assert new_id != table_id and fresh["game"] == "wasserloch" and not fresh["terminal"]
    assert [s["kind"] for s in fresh["seats"]] == ["human", "bot"]
    page.goto(server.base + "/")
    page.wait_for_selector(f"#my-tables a[data-my-table='{new_id}']")   # the rematch is remembered too
    assert tab.errors == []


def test_a_seat_opened_in_a_second_tab_takes_over_and_the_first_is_told(tabs, server):
    table = server.post("/api/tables", {"game": "wasserloch", "options": {"players": 2},
                                        "seats": [{"kind": "human"}, {"kind": "human"}]})
    tab = tabs()
    first = open_in(tab, server, table["seats"][0]["link"], "phone", "#turn[data-mine='1']")
    second = tab.new_page()
    try:
        second.goto(server.base + table["seats"][0]["link"])
        second.wait_for_selector("#turn[data-mine='1']")
        first.wait_for_selector("#notice.refused #take-back")
        assert "another tab" in first.inner_text("#notice")
        n = current_n(second)
        click_a_move(second, "[data-key^='v:']")            # the new tab plays
        second.wait_for_function("(n) => +document.querySelector('#turn').dataset.n > n", arg=n)
        assert tab.errors == []
    finally:
        second.close()


def test_a_hint_names_one_of_my_moves(tabs, server):
    table = server.post("/api/tables", {"game": "wasserloch", "options": {"players": 2},
                                        "seats": [{"kind": "human"}, {"kind": "human"}]})
    tab = tabs()
    page = open_in(tab, server, table["seats"][0]["link"], "phone", "#turn[data-mine='1']")
    page.click("#hint")
    page.wait_for_selector("#hint-text")
    legal = server.get(f"/api/tables/{table['id']}", table["seats"][0]["token"])["legal"]
    hinted = page.eval_on_selector_all(".hinted[data-key]", "els => els.map(e => e.dataset.key)")
    assert hinted and all(k.startswith("v:") for k in hinted)
    assert any(f"v:{a.split('x')[0].upper().replace('1', 'A') if a[0] == '1' else a.split('x')[0].upper()}" in hinted
               for a in legal)
    assert tab.errors == []


def test_a_player_chooses_a_name_that_every_seat_list_shows_and_the_browser_remembers(tabs, server):
    table = server.post("/api/tables", {"game": "watten", "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"},
                                                                    {"kind": "human"}, {"kind": "bot", "level": "hard"}]})
    tab = tabs()
    page = open_in(tab, server, table["seats"][0]["link"], "phone", "#name-form")
    page.fill("#my-name", "Anna")
    page.press("#my-name", "Enter")
    page.wait_for_selector("#seats [data-seat='0']:has-text('Anna')")
    assert page.locator("#name-form").count() == 0
    assert "Bot (easy)" in page.inner_text("#seats [data-seat='1']")
    assert "Anna" in page.inner_text("#board")                     # the table names the seat too
    second = server.post("/api/tables", {"game": "wasserloch", "options": {"players": 2},
                                         "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}]})
    other = tab.new_page()                                       # the same browser, another table
    try:
        other.goto(server.base + second["seats"][0]["link"])
        other.wait_for_selector("#seats [data-seat='0']:has-text('Anna')")   # sent at once, no form
        assert other.locator("#name-form").count() == 0
        # the same table's other seat is a second player at this device: asked, Anna offered
        # (it was named Anna unasked, test_browser_qa2_names_and_rings.py)
        other.goto(server.base + table["seats"][2]["link"])
        other.wait_for_selector("#name-form")
        assert other.input_value("#my-name") == "Anna"
        assert "Anna" not in other.inner_text("#seats [data-seat='2']")
    finally:
        other.close()
    assert tab.errors == []


def test_seats_that_share_a_name_are_told_apart_by_their_number(tabs, server):
    """Two easy bots (or two players called Anna) are named with their seats wherever a seat
    is named: the seat strip, the log, the results; a name of its own stays as it is."""
    table = server.post("/api/tables", {"game": "wildwasser", "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"},
                                                                        {"kind": "bot", "level": "easy"},
                                                                        {"kind": "bot", "level": "medium"}]})
    tab = tabs()
    page = open_in(tab, server, table["seats"][0]["link"], "phone", "#seats [data-seat='2']:has-text('Bot (easy, seat 2)')")
    assert "Bot (easy, seat 1)" in page.inner_text("#seats [data-seat='1']")
    assert "Bot (medium)" in page.inner_text("#seats [data-seat='3']")
    assert "seat" not in page.inner_text("#seats [data-seat='3']").lower()
    page.evaluate("localStorage.setItem('lang', 'de')")
    page.reload()
    page.wait_for_selector("#seats [data-seat='2']:has-text('Bot (leicht, Platz 2)')")
    assert tab.errors == []


def test_a_double_click_on_a_move_sends_it_once_and_shows_no_refusal(tabs, server):
    """A double-click (or a held Enter) on a move's button used to send the move twice: the
    second, based on the position the first had left, came back as a red "your move was
    based on move 0, but the game is at move 1".  The page now sends a move once and
    marks its choices busy until the server answers."""
    table = server.post("/api/tables", {"game": "watten", "seats": [{"kind": "human"}] * 4})
    tab = tabs()
    sent: list[str] = []

    def listen(ws):
        ws.on("framesent", lambda payload: sent.append(payload))
    tab.page.on("websocket", listen)
    try:
        # the dealer's right chooses trump first (buttons)
        page = open_in(tab, server, table["seats"][3]["link"], "phone", "#turn[data-mine='1']")
        page.wait_for_selector(BUTTON)
        n = current_n(page)
        # both clicks in one task, before any answer can arrive: the second meets the busy page
        busy = page.evaluate(f"""() => {{ const b = document.querySelector('{BUTTON}');
                                          b.click();
                                          const busy = document.querySelector('#actions').getAttribute('aria-busy');
                                          b.click();
                                          return busy; }}""")
        assert busy == "true"
        page.wait_for_function("(n) => +document.querySelector('#turn').dataset.n > n", arg=n)
        moves = [json.loads(f) for f in sent if json.loads(f).get("type") == "move"]
        assert len(moves) == 1 and moves[0]["action"].startswith("trump ")
        assert page.locator("#notice.refused").count() == 0
        assert server.get(f"/api/tables/{table['id']}")["n"] == n + 1
        # the next decision is offered as usual, not busy
        assert page.get_attribute("#actions", "aria-busy") is None or page.locator("#actions").count() == 0
    finally:
        tab.page.remove_listener("websocket", listen)  # the module's tab goes on to other tests
    assert tab.errors == []


def test_long_seat_names_on_the_watten_table_stay_clear_of_the_trick_on_a_phone(tabs, server):
    """The side seats' names ("Bot (medium, seat 3)", or a player's own of up to 40
    characters) ran under the trick's cards on a phone.  They now wrap and, if still too
    wide, are squeezed: no seat's text overlaps a card on the table or leaves the table."""
    table = server.post("/api/tables", {"game": "watten", "seats": [{"kind": "human"}] * 4})
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    tab = tabs()
    for seat, name in ((1, "Maximiliane Mustermann-Schmidt"), (3, "Bartholomäus Oberhuber-Zwicknagl")):
        # each seat named by its player in the name form (a browser with no name saved)
        named = open_in(tab, server, table["seats"][seat]["link"], "phone", "#name-form")
        named.fill("#my-name", name)
        named.press("#my-name", "Enter")
        named.wait_for_selector(f"#seats [data-seat='{seat}']:has-text('{name}')")
    while len(server.get(f"/api/tables/{table['id']}")["view"]["trick"]) < 3:  # cards of seats 3, 0 and 1
        spectator = server.get(f"/api/tables/{table['id']}")
        seat = spectator["waiting"][0]
        mine = server.get(f"/api/tables/{table['id']}", tokens[seat])
        server.post(f"/api/tables/{table['id']}/moves", {"action": mine["legal"][0], "n": mine["n"]}, tokens[seat])
    page = open_in(tab, server, table["seats"][0]["link"], "phone", "#seats [data-seat='3']:has-text('Oberhuber')")
    boxes = page.evaluate("""() => {
        const svg = document.querySelector('.board svg, svg');
        const box = (e) => { const b = e.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
        return { texts: [...document.querySelectorAll("g[data-origin^='tseat:'] text")].map((e) => [e.textContent, box(e)]),
                 cards: [...document.querySelectorAll("g[role='img'][aria-label*=':']")].map(box),
                 view: svg.viewBox.baseVal.width }; }""")
    assert len(boxes["cards"]) == 3 and len(boxes["texts"]) >= 8
    assert any("Maximiliane" in t for t, _ in boxes["texts"]) and any("Zwicknagl" in t for t, _ in boxes["texts"])

    def overlap(a, b):
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
    for text, box in boxes["texts"]:
        assert 0 <= box[0] and box[2] <= boxes["view"], f"{text!r} leaves the table: {box}"
        for card in boxes["cards"]:
            assert not overlap(box, card), f"{text!r} {box} runs under a card {card}"
    assert tab.errors == []


# ---------------------------------------------------------------- replay
def test_the_replay_jumps_by_hand_and_remembers_its_speed(tabs, server):
    table = finished_table(server, "watten", {"target": 2})
    record = server.get(f"/api/tables/{table['id']}/record")
    tab = tabs()
    page = open_in(tab, server, f"/replay/{table['id']}", "phone", "#step")
    page.click("#next-hand")
    page.wait_for_function("() => !document.querySelector('#step').textContent.startsWith('Move 0 ')")
    step = int(page.inner_text("#step").split()[1])
    # the first step of hand 2: one step earlier it was still hand 1
    assert server.get(f"/api/tables/{table['id']}/replay/{step}")["view"]["hand_no"] == 2
    assert server.get(f"/api/tables/{table['id']}/replay/{step - 1}")["view"]["hand_no"] == 1
    page.click("#prev-hand")
    page.wait_for_function("() => document.querySelector('#step').textContent.startsWith('Move 0 ')")
    page.select_option("#speed", "4")
    page.reload()
    page.wait_for_selector("#step")
    assert page.eval_on_selector("#speed", "s => s.value") == "4"
    # the autoplay from five moves before the end (from the start it took 15 s of the suite)
    total = len(record["actions"])
    page.keyboard.press("End")
    page.wait_for_function("(n) => document.querySelector('#step').textContent.startsWith(`Move ${n} `)", arg=total)
    for _ in range(5):
        page.keyboard.press("ArrowLeft")
    page.wait_for_function("(n) => document.querySelector('#step').textContent.startsWith(`Move ${n} `)", arg=total - 5)
    page.click("#autoplay")
    page.wait_for_function("(n) => document.querySelector('#step').textContent.startsWith(`Move ${n} `)",
                           arg=len(record["actions"]))
    page.wait_for_selector("#result")
    assert tab.errors == []


def test_the_replay_steps_by_keys_and_its_hand_buttons_name_the_games_own_unit(tabs, server):
    """← → a move, PageDown / PageUp a round, End / Home the ends; in German the buttons
    and the header say Wasserloch's "Durchgang" (Wildwasser's is "Runde", Watten's "Blattl")."""
    table = finished_table(server, "wasserloch", {"players": 2, "rounds": 2})
    total = len(server.get(f"/api/tables/{table['id']}/record")["actions"])
    tab = tabs("de-DE")
    page = open_in(tab, server, f"/replay/{table['id']}", "desktop", "#step")
    assert (page.inner_text("#prev-hand"), page.inner_text("#next-hand")) == ("◀ Durchgang", "Durchgang ▶")
    assert "Durchgang 1 / 2" in page.inner_text("#play")
    assert page.inner_text("#turn") == "Platz 0 am Zug"  # not "Warte auf Platz 0.": a replay waits for nobody

    def at(k: int) -> None:
        page.wait_for_function("(k) => document.querySelector('#step').textContent.startsWith(`Zug ${k} `)", arg=k)

    for _ in range(3):
        page.keyboard.press("ArrowRight")
    at(3)
    page.keyboard.press("ArrowLeft")
    at(2)
    page.keyboard.press("PageDown")  # the first step of round 2
    page.wait_for_function("() => document.querySelector('#play').innerText.includes('Durchgang 2 / 2')")
    step = int(page.inner_text("#step").split()[1])
    assert server.get(f"/api/tables/{table['id']}/replay/{step - 1}")["view"]["round"] == 1
    page.keyboard.press("End")
    at(total)
    page.wait_for_selector("#result")
    page.keyboard.press("Home")
    at(0)
    page.focus("#speed")  # a list keeps its own keys
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(300)
    assert page.inner_text("#step").startswith("Zug 0 ")
    assert tab.errors == []


# ---------------------------------------------------------------- motion
def test_with_motion_a_complete_watten_trick_shows_four_cards_then_goes_to_its_winner(motion_tab, server):
    table = server.post("/api/tables", {"game": "watten", "seats": [{"kind": "human"}] +
                                        [{"kind": "bot", "level": "easy"}] * 3})
    # every drawn position is seen: MOTION's observer notes one with the whole trick going away
    page = open_in(motion_tab, server, table["seats"][0]["link"], "desktop")
    n = -1
    for _ in range(12):
        if page.evaluate("() => !!window.sawTrick"):
            break
        wait_for_my_turn_or_end(page, n)
        n = current_n(page)
        click_a_move(page)
        page.wait_for_function("(n) => +document.querySelector('#turn').dataset.n > n", arg=n)
    page.wait_for_function("() => window.sawTrick === true")      # the first trick completes
    assert "took the trick" in page.inner_text("#log")
    assert motion_tab.errors == []


def test_with_motion_driven_off_cards_fly_to_their_taker(motion_tab, server):
    table = mid_game_table(server, "wasserloch", 0)
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    # seat 1 watches the others play; MOTION's observer notes a card flying
    page = open_in(motion_tab, server, table["seats"][1]["link"], "phone", "#turn")
    # play over HTTP until some play drives off (seeded choices among the legal moves)
    import random
    rng = random.Random(5)
    for _ in range(200):
        st = server.get(f"/api/tables/{table['id']}")
        if any(e and e["drove_off"] for e in st["view"]["last"]) or st["terminal"]:
            break
        seat = st["waiting"][0]
        mine = server.get(f"/api/tables/{table['id']}", tokens[seat])
        server.post(f"/api/tables/{table['id']}/moves", {"action": rng.choice(mine["legal"]), "n": mine["n"]}, tokens[seat])
    page.wait_for_function("() => window.sawFlight === true")
    page.wait_for_function("() => !document.querySelector('#board [data-fly-to]')")   # gone once it arrived
    assert motion_tab.errors == []
