"""A keyboard-only player and a screen-reader user at the browser table: the focus stays on
a control that redraws the page (the lobby's form, the hint button, the replay's step
buttons at either end), comes back to the piece a move was made with (in the group it was
made in), and the live region says what a sighted player sees change — whose turn it is,
why a piece cannot be chosen now, the hint, the game's end, the replay's step — in the
page's language.  axe-core finds nothing serious on the German pages these touch, and a
letter drawn on a seat's colour (SVG, which axe does not check) has the contrast of text."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from wasserspiele.core.messages import render

from .browser_support import CHROMIUM, browser, finished_table, serving, tabs  # noqa: F401

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright", reason="axe-playwright-python is not installed")

VALUES = ["A", "2", "3", "4", "5", "6", "7", "8"]
# what the focus is on, in words a failure message can show
FOCUS = """() => { const a = document.activeElement;
  if (!a || a === document.body) return null;
  return { tag: a.tagName, id: a.id || null, key: a.dataset.key || null, action: a.dataset.action || null,
           group: a.closest('[data-group]')?.dataset.group || null }; }"""
# every paragraph the live region is given, with its language, kept as it comes
RECORD = """
  window.__said = [];
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      const box = document.getElementById('announce');
      if (!box || n === box || !box.contains(n)) continue;
      const el = n.nodeType === 1 ? n : n.parentElement;
      window.__said.push({ text: n.textContent, lang: el?.closest('[lang]')?.getAttribute('lang') || null });
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "keyboard")


def open_page(tabs, server, link, size="desktop", locale="de-DE"):
    """A page at `link` (a table, the lobby or a replay: nothing awaited), German unless
    asked, with what its live region is given recorded (RECORD): loaded in the module's
    recording tab of that locale (its storage of the last link cleared).  The page and
    the tab (its `errors`: this load's uncaught errors)."""
    tab = tabs(locale, RECORD)
    return tab.open(server, link, size, wait_for=None), tab


def said(page) -> list[dict]:
    return page.evaluate("() => window.__said.slice()")


def tab_until(page, test: str, limit: int = 60) -> dict:
    """Press Tab until the focused element passes `test` (a JS predicate over FOCUS's answer)."""
    seen = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        f = page.evaluate(FOCUS)
        seen.append(f)
        if f and page.evaluate(f"(f) => ({test})(f)", f):
            return f
    raise AssertionError(f"never reached by Tab: {test}; went through {seen[:15]}")


def serious(page) -> list[str]:
    results = axe_sync.Axe().run(page)
    bad = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    return [f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:4]}" for v in bad]


def wasserloch_with_a_pair(server) -> tuple[dict, str]:
    """A two-player Wasserloch of two humans, seat 0 to begin, whose hand holds two or more
    of some value (choosing it offers "play 1" and "play 2" as buttons); that value."""
    for _ in range(40):
        table = server.post("/api/tables", {"game": "wasserloch", "options": {"players": 2, "first_player": 0},
                                            "seats": [{"kind": "human"}, {"kind": "human"}]})
        mine = server.get(f"/api/tables/{table['id']}", table["seats"][0]["token"])
        pairs = [VALUES[i] for i, n in enumerate(mine["view"]["hand"]) if n >= 2]
        if pairs and 0 in mine["waiting"]:
            return table, pairs[0]
    raise AssertionError("no deal with a pair in 40 tables")


# ---------------------------------------------------------------- the lobby
def test_the_lobby_keeps_the_focus_on_a_control_that_redraws_the_form(tabs, server):
    page, tab = open_page(tabs, server, "/")
    page.wait_for_selector("body[data-lobby='ready']")
    tab_until(page, "f => f.id === 'game'")
    before = page.eval_on_selector("#game", "s => s.value")
    page.keyboard.press("ArrowDown")             # the next game: the form is drawn anew for it
    page.wait_for_function("(v) => document.querySelector('#game').value !== v", arg=before)
    assert page.evaluate(FOCUS) == {"tag": "SELECT", "id": "game", "key": None, "action": None, "group": None}
    second = page.eval_on_selector("#game", "s => s.value")
    page.keyboard.press("ArrowDown")             # and the list goes on from there, not the page scrolling
    page.wait_for_function("(v) => document.querySelector('#game').value !== v", arg=second)
    assert (page.evaluate(FOCUS) or {}).get("id") == "game"
    # a count of players typed and left by Tab: the seat rows follow, the focus goes on
    page.select_option("#game", "wasserloch")
    page.focus("#game")
    tab_until(page, "f => f.id === 'opt-players'")
    page.keyboard.press("Control+a")
    page.keyboard.type("4")
    page.keyboard.press("Tab")
    page.wait_for_selector("#seat-3")
    assert (page.evaluate(FOCUS) or {}).get("id") == "opt-rounds"
    assert tab.errors == []


def test_forgetting_a_table_leaves_the_focus_on_the_next_forget_button(tabs, server):
    page, tab = open_page(tabs, server, "/")
    page.wait_for_selector("body[data-lobby='ready']")
    page.evaluate("""() => localStorage.setItem('my_tables', JSON.stringify([
        { table: 'aaa', seat: 0, game: 'watten', link: '/table/aaa#seat=0&token=x', at: 3 },
        { table: 'bbb', seat: 1, game: 'watten', link: '/table/bbb#seat=1&token=y', at: 2 }]))""")
    page.reload()
    page.wait_for_selector("body[data-lobby='ready']")
    tab_until(page, "f => f.tag === 'BUTTON' && !!document.activeElement.closest('[data-my-entry=\"aaa\"]')")
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.querySelector('[data-my-entry=\"aaa\"]')")
    assert page.evaluate("() => !!document.activeElement.closest('[data-my-entry=\"bbb\"]')")
    page.keyboard.press("Enter")                 # the last one: the box goes, the focus stays in the page
    page.wait_for_function("() => !document.querySelector('#my-tables')")
    assert page.evaluate(FOCUS) is not None
    assert tab.errors == []


# ---------------------------------------------------------------- the table
def test_a_move_made_with_a_button_gives_the_focus_back_to_its_piece_in_the_hand(tabs, server):
    table, value = wasserloch_with_a_pair(server)
    page, tab = open_page(tabs, server, table["seats"][0]["link"])
    page.wait_for_selector("#turn[data-mine='1']")
    tab_until(page, "f => f.group === 'hand'")
    for _ in range(8):
        if page.evaluate(FOCUS)["key"] == f"v:{value}":
            break
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")                 # two of them in the hand: "play 1" and "play 2" are offered
    page.wait_for_selector("#actions button[data-action]")
    # the notation names aces A, as it names every value (WL-4.1: "Ax1"): the test looked for
    # "1x1" and failed whenever the pair dealt was two aces
    tab_until(page, "f => f.action === '%sx1'" % value)
    page.keyboard.press("Enter")
    page.wait_for_selector("#turn[data-mine='0']")
    assert page.evaluate(FOCUS) == {"tag": "g", "id": None, "key": f"v:{value}", "action": None, "group": "hand"}
    assert page.evaluate("() => document.activeElement.matches(':focus-visible')")
    assert tab.errors == []


def test_a_piece_played_from_the_hand_leaves_the_focus_in_the_hand(tabs, server):
    # the card played goes from the hand; the focus stays where the player was, on the
    # next card, rather than jumping to the place of the same value on the board
    for _ in range(40):
        table = server.post("/api/tables", {"game": "wasserloch", "options": {"players": 2, "first_player": 0},
                                            "seats": [{"kind": "human"}, {"kind": "human"}]})
        hand = server.get(f"/api/tables/{table['id']}", table["seats"][0]["token"])["view"]["hand"]
        singles = [VALUES[i] for i, n in enumerate(hand) if n == 1]
        if singles:
            break
    page, tab = open_page(tabs, server, table["seats"][0]["link"])
    page.wait_for_selector("#turn[data-mine='1']")
    tab_until(page, "f => f.group === 'hand'")
    for _ in range(8):
        if page.evaluate(FOCUS)["key"] == f"v:{singles[0]}":
            break
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.wait_for_selector("#turn[data-mine='0']")
    # WL-4.4: the hand draws what it played, and a card of the same value may come back:
    # then the focus rightly stays on it (the check failed so in about one game in eight)
    hand = server.get(f"/api/tables/{table['id']}", table["seats"][0]["token"])["view"]["hand"]
    again = "true" if hand[VALUES.index(singles[0])] else "false"
    # the table is drawn anew after the move, then the focus put back: give that its time
    # (what the focus is on in between is no answer), then read where it went
    try:
        page.wait_for_function(f"() => {{ const f = ({FOCUS})(); return f?.group === 'hand' && "
                               f"({again} || f.key !== 'v:{singles[0]}'); }}", timeout=5000)
    except sync_api.TimeoutError:
        pass  # the assertion below says where the focus is
    focus = page.evaluate(FOCUS)
    assert focus and focus["group"] == "hand" and (again == "true" or focus["key"] != f"v:{singles[0]}"), (focus, hand)
    assert tab.errors == []


def test_saving_a_name_by_enter_leaves_the_focus_in_the_top_bar_not_on_a_move(tabs, server):
    # the form goes once the name is in; the focus must not land on a move button that a
    # second Enter would press (Watten's first choice is a button: a signal)
    table = server.post("/api/tables", {"game": "watten", "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 3})
    page, tab = open_page(tabs, server, table["seats"][0]["link"], "phone")
    page.wait_for_selector("#name-form")
    tab_until(page, "f => f.id === 'my-name'")
    page.keyboard.type("Anna")
    page.keyboard.press("Enter")
    page.wait_for_selector("#seats [data-seat='0']:has-text('Anna')")
    page.wait_for_function("() => !document.querySelector('#name-form')")
    focus = page.evaluate(FOCUS)
    assert focus and focus["action"] is None and page.evaluate("() => !!document.activeElement.closest('.tools')"), focus
    assert tab.errors == []


def test_the_hint_button_keeps_the_focus_and_the_hint_is_announced(tabs, server):
    table, _ = wasserloch_with_a_pair(server)
    page, tab = open_page(tabs, server, table["seats"][0]["link"])
    page.wait_for_selector("#turn[data-mine='1']")
    tab_until(page, "f => f.id === 'hint'")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hint-text")
    assert (page.evaluate(FOCUS) or {}).get("id") == "hint"
    hint = page.inner_text("#hint-text")
    # a legal play in its move button's words, heard as shown (not "2 × 5", read as a product)
    legal = server.get(f"/api/tables/{table['id']}", table["seats"][0]["token"])["legal"]
    buttons = {render("web.hint_is", {"a": render("wasserloch.web.play_button", {"n": int(n), "v": v.upper()}, "de")},
                      "de") for v, n in (a.split("x") for a in legal)}
    assert hint in buttons and "×" not in hint, (hint, buttons)
    assert {"text": hint, "lang": "de"} in said(page), said(page)
    assert tab.errors == []


def test_why_a_piece_cannot_be_chosen_is_announced(tabs, server):
    # seat 1 waits for seat 0: a place chosen now is explained on the page, not sent
    table, _ = wasserloch_with_a_pair(server)
    page, tab = open_page(tabs, server, table["seats"][1]["link"])
    page.wait_for_selector("#turn[data-mine='0']")
    tab_until(page, "f => f.group === 'board'")
    page.keyboard.press("Enter")
    page.wait_for_selector("#notice.info")
    text = page.inner_text("#notice")
    assert text == "Du bist nicht am Zug."
    assert {"text": text, "lang": "de"} in said(page)
    assert (page.evaluate(FOCUS) or {}).get("group") == "board"
    assert tab.errors == []


def test_the_turn_coming_back_and_the_end_are_announced_in_german(tabs, server):
    table = server.post("/api/tables", {"game": "wasserloch", "options": {"players": 2, "rounds": 1},
                                        "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}]})
    page, tab = open_page(tabs, server, table["seats"][0]["link"])
    page.wait_for_selector("#turn")
    # the waits of the game poll every 16 ms, not at each animation frame (that kept
    # Chromium drawing frames all the while)
    for _ in range(80):
        page.wait_for_function("""() => { const t = document.querySelector('#turn');
            return t && (t.dataset.mine === '1' || t.dataset.terminal === '1'); }""", polling=16)
        if page.get_attribute("#turn", "data-terminal") == "1":
            break
        n = page.get_attribute("#turn", "data-n")
        page.locator(".clickable").first.focus()
        page.keyboard.press("Enter")
        # the move went (the position moved on), or buttons offer its counts (a move on its
        # way shows its own button, busy, until the server answers)
        page.wait_for_function("""(n) => { const t = document.querySelector('#turn');
            return t.dataset.n !== n || (!document.querySelector('#actions[aria-busy]')
                                         && !!document.querySelector('#actions button[data-action]')); }""", arg=n,
                               polling=16)
        if page.get_attribute("#turn", "data-n") == n:
            page.locator("#actions button[data-action]").first.focus()
            page.keyboard.press("Enter")
            page.wait_for_function("(n) => document.querySelector('#turn').dataset.n !== n", arg=n, polling=16)
    page.wait_for_selector("#result")
    page.wait_for_function("() => window.__said.some(s => s.text.startsWith('Spielende.'))")
    texts = [s["text"] for s in said(page)]
    assert "Du bist am Zug." in texts            # each time a bot's move gave the turn back
    assert texts.count("Du bist am Zug.") >= 2
    assert {s["lang"] for s in said(page)} == {"de"}
    assert (page.evaluate(FOCUS) or {}).get("id") == "result"
    assert tab.errors == []


@pytest.mark.parametrize("locale, words, seats", [("de-DE", "Tasten: Mit Tab", "Plätze"), ("en-US", "Keys: Tab", "seats")])
def test_the_keys_are_told_beside_the_table_and_describe_the_groups_a_player_chooses_in(tabs, server, locale, words,
                                                                                         seats):
    # needs the catalogue entries web.keys_help and web.keys_help_no_seats (en.po, de.po)
    table, _ = wasserloch_with_a_pair(server)
    page, tab = open_page(tabs, server, table["seats"][0]["link"], "phone", locale)
    page.wait_for_selector("#turn[data-mine='1']")
    assert page.inner_text("#keys-help").startswith(words)
    # Wasserloch's seats are no choice and no Tab stop: the keys do not promise one (they did)
    assert seats not in page.inner_text("#keys-help")
    assert page.locator("#seats [data-key]").count() == 0
    groups = page.eval_on_selector_all("[data-group]", "gs => gs.map(g => [g.dataset.group, g.getAttribute('aria-describedby')])")
    assert {"board", "hand"} <= {g for g, _ in groups} and all(d == "keys-help" for _, d in groups), groups
    # a replay is stepped with keys of its own (its buttons' aria-keyshortcuts)
    page.goto(server.base + f"/replay/{finished_table(server)['id']}")
    page.wait_for_selector("#step")
    assert page.locator("#keys-help").count() == 0
    assert tab.errors == []


# ---------------------------------------------------------------- the replay
def test_the_replay_keeps_its_step_in_the_address_for_a_reload_or_a_link(tabs, server):
    """A reload (or a link shared) opened the replay at move 0 whatever move was shown:
    the step is in the address (#step=N), and a step past the end opens it at move 0."""
    table = finished_table(server)
    total = server.get(f"/api/tables/{table['id']}")["n"]
    page, tab = open_page(tabs, server, f"/replay/{table['id']}#step=3")
    page.wait_for_function("() => document.querySelector('#step')?.textContent.startsWith('Zug 3 ')")
    tab_until(page, "f => f.id === 'next'")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => location.hash === '#step=4'")
    page.reload()
    page.wait_for_function("() => document.querySelector('#step')?.textContent.startsWith('Zug 4 ')")
    page.keyboard.press("Home")
    page.wait_for_function("() => location.hash === ''")
    page.evaluate("() => { location.hash = '#step=2'; }")          # typed into the address
    page.wait_for_function("() => document.querySelector('#step').textContent.startsWith('Zug 2 ')")
    page.goto(server.base + f"/replay/{table['id']}#step={total + 5}")
    page.reload()
    page.wait_for_function("(n) => document.querySelector('#step')?.textContent === `Zug 0 von ${n}`", arg=total)
    assert tab.errors == []


def test_the_replay_step_buttons_keep_the_focus_at_either_end_and_the_step_is_announced(tabs, server):
    table = finished_table(server)
    page, tab = open_page(tabs, server, f"/replay/{table['id']}")
    page.wait_for_selector("#step")
    total = server.get(f"/api/tables/{table['id']}")["n"]
    tab_until(page, "f => f.id === 'next'")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#step').textContent.startsWith('Zug 1 ')")
    page.keyboard.press("End")                   # to the last move: "next" has nothing more to do
    page.wait_for_function("(n) => document.querySelector('#step').textContent === `Zug ${n} von ${n}`", arg=total)
    assert (page.evaluate(FOCUS) or {}).get("id") == "next"
    assert page.get_attribute("#next", "aria-disabled") == "true"
    page.keyboard.press("Enter")                 # nothing happens, and the focus stays
    assert page.inner_text("#step") == f"Zug {total} von {total}"
    assert (page.evaluate(FOCUS) or {}).get("id") == "next"
    page.keyboard.press("Shift+Tab")
    assert (page.evaluate(FOCUS) or {}).get("id") == "prev"
    page.keyboard.press("Home")
    page.wait_for_function("() => document.querySelector('#step').textContent.startsWith('Zug 0 ')")
    assert (page.evaluate(FOCUS) or {}).get("id") == "prev"
    texts = [s["text"] for s in said(page)]
    assert f"Zug {total} von {total}" in texts and f"Zug 0 von {total}" in texts
    assert {s["lang"] for s in said(page)} == {"de"}
    assert tab.errors == []


# ---------------------------------------------------------------- axe on the German pages
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_german_lobby_with_my_tables_and_the_live_end_screen_pass_axe(tabs, server, size):
    table = finished_table(server)
    page, tab = open_page(tabs, server, table["seats"][0]["link"], size)
    page.wait_for_selector("#result")
    assert serious(page) == []
    page.goto(server.base + "/")
    page.wait_for_selector("#my-tables")
    assert serious(page) == []
    assert tab.errors == []


# ---------------------------------------------------------------- colours axe cannot see
def _luminance(colour: str) -> float:
    hexes = colour.lstrip("#")
    if len(hexes) == 3:
        hexes = "".join(c * 2 for c in hexes)
    channels = [int(hexes[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def test_a_letter_on_a_seats_colour_has_the_contrast_of_text():
    # an animal's initial on its token (SVG text, which axe does not check): 4.5:1
    source = (Path(__file__).parents[2] / "src/wasserspiele/web/static/svg.js").read_text()
    arrays = {name: re.findall(r'"(#[0-9a-fA-F]{3,6})"', body)
              for name, body in re.findall(r"export const (SEAT_COLORS|SEAT_INK) = \[([^\]]*)\]", source)}
    assert set(arrays) == {"SEAT_COLORS", "SEAT_INK"} and len(arrays["SEAT_COLORS"]) == len(arrays["SEAT_INK"])
    for back, ink in zip(arrays["SEAT_COLORS"], arrays["SEAT_INK"]):
        a, b = sorted((_luminance(back), _luminance(ink)))
        assert (b + 0.05) / (a + 0.05) >= 4.5, (back, ink)
