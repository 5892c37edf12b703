"""Keyboard play and screen readers: axe-core finds no serious or critical violation on
the lobby, a rules page, each table mid-game and a replay; every game is played to its
end by keyboard alone (Tab to a group, arrows within, Enter to choose)."""

from __future__ import annotations

import os

import pytest

from .browser_support import (CHROMIUM, GAMES, TIMEOUT_MS, Server, browser, finished_table,  # noqa: F401
                              mid_game_table, new_context, players_of)

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


def open_page(browser, url, size="desktop", locale="en-US"):
    ctx = new_context(browser, size, locale)
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return ctx, page, errors


@pytest.mark.parametrize("lang", ["en", "de"])
def test_no_rules_page_scrolls_sideways_on_a_phone(browser, server, lang):
    # every table either fits a phone's width or stacks its rows as cards
    for game in GAMES:
        ctx, page, errors = open_page(browser, f"{server.base}/rules/{game}?lang={lang}", "phone")
        page.wait_for_selector("main h1")
        wide = page.evaluate("""() => [...document.querySelectorAll('table')]
            .filter(t => t.getBoundingClientRect().right > document.documentElement.clientWidth)
            .map(t => t.querySelector('tr').innerText.slice(0, 40))""")
        assert wide == [], (game, wide)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), game
        assert errors == []
        ctx.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_lobby_and_a_rules_page_pass_axe(browser, server, size):
    ctx, page, errors = open_page(browser, server.base + "/", size)
    page.wait_for_selector("#create")
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
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("game", GAMES)
def test_each_table_mid_game_passes_axe(browser, server, game):
    table = mid_game_table(server, game)
    for size in ("desktop", "phone"):
        ctx, page, errors = open_page(browser, server.base + table["seats"][0]["link"], size)
        page.wait_for_selector("#turn[data-mine='1']")
        assert serious(page) == [], size
        assert errors == []
        ctx.close()


def test_a_replay_passes_axe(browser, server):
    table = finished_table(server)
    ctx, page, errors = open_page(browser, server.base + f"/replay/{table['id']}")
    page.wait_for_selector("#step")
    page.click("#next")
    page.wait_for_function("() => document.querySelector('#step').textContent.startsWith('Move 1 ')")
    assert serious(page) == []
    page.click("#last")
    page.wait_for_selector("#result")
    assert serious(page) == []
    assert errors == []
    ctx.close()


# ---------------------------------------------------------------- keyboard alone
FOCUSED = """() => { const a = document.activeElement;
  if (!a) return null;
  return { key: a.dataset.key || null, action: a.dataset.action || null, id: a.id || null,
           clickable: a.classList.contains('clickable'), selected: a.classList.contains('selected'),
           group: a.closest('[data-group]')?.dataset.group || null,
           visible: getComputedStyle(a).outlineStyle !== 'none' || !!a.matches(':focus-visible') }; }"""


def keyboard_move(page) -> None:
    """One step towards a move by keyboard: Tab to a choice button or into a group, arrows to
    a choosable card or place in it, Enter.  Waits for the page to react, never for a time."""
    n = int(page.get_attribute("#turn", "data-n"))
    want_button = page.locator("#actions button[data-action]").count() > 0
    seen = []
    for _ in range(60):
        if page.get_attribute("#turn", "data-n") != str(n) or page.get_attribute("#turn", "data-mine") != "1":
            return  # the position moved on meanwhile (the game ended, a stale view was replaced)
        page.keyboard.press("Tab")
        f = page.evaluate(FOCUSED)
        seen.append(f)
        if f is None:
            continue
        if want_button and f["action"]:
            break
        if not want_button and f["group"] in ("board", "hand", "seats") and f["key"]:
            size = page.locator(f"[data-group='{f['group']}'] [data-key]").count()
            for _ in range(size):
                f = page.evaluate(FOCUSED)
                if f["clickable"] and not f["selected"]:
                    break
                page.keyboard.press("ArrowRight")
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
                                 || document.querySelector('.clickable.selected')); }""", arg=n)


SHORT = {"wasserloch": {"players": 2, "rounds": 1}, "seven_waters": {}, "watten": {"target": 3},
         "wildwasser": {"players": 2}}


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_by_keyboard_alone(browser, server, game):
    opts = SHORT[game]
    players = opts.get("players") or players_of(game)
    table = server.post("/api/tables", {"game": game, "options": opts,
                                        "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * (players - 1)})
    ctx, page, errors = open_page(browser, server.base + table["seats"][0]["link"], "phone")
    page.wait_for_selector("#turn")
    steps = 0
    while True:
        page.wait_for_function("""() => { const t = document.querySelector('#turn');
            return t && (t.dataset.mine === '1' || t.dataset.terminal === '1'); }""")
        if page.get_attribute("#turn", "data-terminal") == "1":
            break
        keyboard_move(page)
        steps += 1
        assert steps < 800, "the game did not end"
    page.wait_for_selector("#result")
    assert page.locator("#result").is_visible()
    assert errors == []
    ctx.close()
