"""Keyboard play and screen readers: axe-core finds no serious or critical violation on
the lobby, a rules page, each table mid-game and a replay; every game is played to its
end by keyboard alone (Tab to a group, arrows within, Enter to choose)."""

from __future__ import annotations

import os

import pytest

from .browser_support import (CHROMIUM, GAMES, Server, browser, finished_table, mid_game_table,  # noqa: F401
                              players_of, tabs)

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright", reason="axe-playwright-python is not installed")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("a11y")
    srv = Server(f"sqlite:///{tmp / 'a11y.sqlite3'}", log_path=str(tmp / "server.log")).start()
    yield srv
    srv.stop()


def serious(page) -> list[str]:
    results = axe_sync.Axe().run(page)
    bad = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    return [f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:4]}" for v in bad]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_no_rules_page_scrolls_sideways_on_a_phone(tabs, server, lang):
    # every table either fits a phone's width or stacks its rows as cards
    tab = tabs()
    for game in GAMES:
        page = tab.open(server, f"/rules/{game}?lang={lang}", "phone", "main h1")
        wide = page.evaluate("""() => [...document.querySelectorAll('table')]
            .filter(t => t.getBoundingClientRect().right > document.documentElement.clientWidth)
            .map(t => t.querySelector('tr').innerText.slice(0, 40))""")
        assert wide == [], (game, wide)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), game
        assert tab.errors == []


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_lobby_and_a_rules_page_pass_axe(tabs, server, size):
    tab = tabs()
    page = tab.open(server, "/", size, "#create")
    assert serious(page) == []
    page.goto(server.base + "/rules/watten?lang=de")
    page.wait_for_selector("main h1")
    assert serious(page) == []
    # the levels table: one card per level on a phone (no column squeezed to breaking its
    # words), a table on a desktop; the page never scrolls sideways
    rows = page.eval_on_selector_all("table.stacks tr", "rs => rs.map(r => getComputedStyle(r).display)")
    assert rows and set(rows) == {"block" if size == "phone" else "table-row"}
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    label = page.eval_on_selector("table.stacks td + td", "td => getComputedStyle(td, '::before').content")
    assert label == ('"Wie sie spielt: "' if size == "phone" else "none")
    assert tab.errors == []


@pytest.mark.parametrize("game", GAMES)
def test_each_table_mid_game_passes_axe(tabs, server, game):
    table = mid_game_table(server, game)
    tab = tabs()
    for size in ("desktop", "phone"):
        page = tab.open(server, table["seats"][0]["link"], size, "#turn[data-mine='1']")
        assert serious(page) == [], size
        assert tab.errors == []


def test_a_replay_passes_axe(tabs, server):
    table = finished_table(server)
    tab = tabs()
    page = tab.open(server, f"/replay/{table['id']}", "desktop", "#step")
    page.click("#next")
    page.wait_for_function("() => document.querySelector('#step').textContent.startsWith('Move 1 ')")
    assert serious(page) == []
    page.click("#last")
    page.wait_for_selector("#result")
    assert serious(page) == []
    assert tab.errors == []


# ---------------------------------------------------------------- keyboard alone
FOCUSED = """() => { const a = document.activeElement;
  if (!a) return null;
  return { key: a.dataset.key || null, action: a.dataset.action || null, id: a.id || null,
           clickable: a.classList.contains('clickable'), selected: a.classList.contains('selected'),
           group: a.closest('[data-group]')?.dataset.group || null,
           visible: getComputedStyle(a).outlineStyle !== 'none' || !!a.matches(':focus-visible') }; }"""


# the position (its number, whether it is this seat's, whether the game is over), what has
# the focus (FOCUSED) and how many pieces its group holds, read at once: a whole game
# presses Tab some 250 to 800 times, and each question to the page is a round trip through
# Playwright's driver (3 to 5 ms of CPU, a key press about 9)
LOOK = """() => { const t = document.querySelector('#turn'), f = (""" + FOCUSED + """)();
  return { n: t ? t.dataset.n : null, mine: t ? t.dataset.mine : null, terminal: t ? t.dataset.terminal : null,
           focus: f,
           buttons: document.querySelectorAll('#actions button[data-action]').length,
           size: f && f.group ? document.querySelectorAll(`[data-group='${f.group}'] [data-key]`).length : 0 }; }"""


# waits in a whole game poll every 16 ms, not at each animation frame: polling by frames
# kept Chromium drawing frames all the while (about 0.05 CPU-s a second of waiting)
POLL_MS = 16


def keyboard_move(page, look: dict) -> None:
    """One step towards a move by keyboard (`look`: LOOK's answer now): Tab to a choice
    button or into a group, arrows to a choosable card or place in it, Enter.  Waits for
    the page to react, never for a time."""
    n, want_button = int(look["n"]), look["buttons"] > 0
    seen = []
    for _ in range(60):
        page.keyboard.press("Tab")
        look = page.evaluate(LOOK)
        if look["n"] != str(n) or look["mine"] != "1":
            return  # the position moved on meanwhile (the game ended, a stale view was replaced)
        f = look["focus"]
        seen.append(f)
        if f is None:
            continue
        if want_button and f["action"]:
            break
        if not want_button and f["group"] in ("board", "hand", "seats") and f["key"]:
            for _ in range(look["size"]):
                if f["clickable"] and not f["selected"]:
                    break
                page.keyboard.press("ArrowRight")
                f = page.evaluate(FOCUSED)
            if f["clickable"] and not f["selected"]:
                break
    else:
        raise AssertionError(f"no choice reachable by Tab and arrow keys: {want_button} {seen[:12]}")
    assert f["visible"], "the focused element shows no focus"
    page.keyboard.press("Enter")
    page.wait_for_function(
        """(n) => { const t = document.querySelector('#turn');
                    if (!t || +t.dataset.n !== n || t.dataset.mine !== '1') return true;
                    return !document.querySelector('#actions[aria-busy]')  // a move on its way
                           && !!(document.querySelector('#actions button[data-action]')
                                 || document.querySelector('.clickable.selected')); }""", arg=n,
        polling=POLL_MS)


SHORT = {"wasserloch": {"players": 2, "rounds": 1}, "seven_waters": {}, "watten": {"target": 3},
         "wildwasser": {"players": 2}}


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_by_keyboard_alone(tabs, server, game):
    opts = SHORT[game]
    players = opts.get("players") or players_of(game)
    table = server.post("/api/tables", {"game": game, "options": opts,
                                        "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * (players - 1)})
    tab = tabs()
    page = tab.open(server, table["seats"][0]["link"], "phone", "#turn")
    steps = 0
    while True:
        page.wait_for_function("""() => { const t = document.querySelector('#turn');
            return t && (t.dataset.mine === '1' || t.dataset.terminal === '1'); }""", polling=POLL_MS)
        look = page.evaluate(LOOK)
        if look["terminal"] == "1":
            break
        keyboard_move(page, look)
        steps += 1
        assert steps < 800, "the game did not end"
    page.wait_for_selector("#result")
    assert page.locator("#result").is_visible()
    assert tab.errors == []
