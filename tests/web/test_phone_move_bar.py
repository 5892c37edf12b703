"""The move bar on a phone (390 × 844): what grows in it takes no room the board needs, and
what it offers is on the screen.

* Watten's answers to a raise (WA-6) take a second row of the bar for good: taken from the
  board, the seats' words went to 8.4 px for the rest of the game.  The bar grows downwards.
* Seven Waters' joker (SW-2.2) offers 19 buttons, which ran below the screen.
* Seven Waters: a card of the pyramid tapped while cards of the hand are chosen, drawn
  disabled, was taken and the choice dropped.
"""

from __future__ import annotations

import os
import random

import pytest

from .browser_support import CHROMIUM, Server, browser, saved_name, serving, tabs  # noqa: F401

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

LOCALES = ["de-DE", "en-US"]

# the tabs' pages find a name saved: the name form, asked for otherwise, is not what is measured
NAMED = saved_name("Anna")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "phone_move_bar", tables_per_client=50)


def settle(page) -> None:
    """Two frames: the table drawn and fitted."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))")


# every move button's box: its words, its top and bottom on the page (the page not scrolled)
BUTTONS = """() => [...document.querySelectorAll('#actions button')].map((b) => {
  const r = b.getBoundingClientRect(); return [b.textContent, r.top, r.bottom, r.height]; })"""


@pytest.mark.parametrize("locale", LOCALES)
def test_sw_2_2_a_joker_chosen_on_a_phone_offers_its_values_on_the_screen(tabs, server, locale):
    """SW-2.2: a joker chosen from the hand offers a button for each value it may stand for
    (19 with discarding it and clearing the choice); as wide as their words the last of them
    ended at 879 px on an 844 px screen in German, the page scrolling to it.  Each is on the
    screen, and a target of 24 px or more."""
    from .test_seven_waters_phone import a_table_with_a_joker_in_hand

    table = a_table_with_a_joker_in_hand(server)
    page = tabs(locale, NAMED).open(server, table["seats"][0]["link"], "phone", wait_for="#turn[data-mine='1']")
    page.locator('#hand [data-key^="hand:X"].clickable').first.click()
    page.wait_for_function("() => document.querySelectorAll('#actions button[data-action]').length > 8")
    settle(page)
    buttons = page.evaluate(BUTTONS)
    assert len(buttons) >= 19, buttons
    screen = page.evaluate("innerHeight")
    below = [b for b in buttons if b[1] < 0 or b[2] > screen + 0.5]
    assert below == [], f"{len(below)} buttons off the {screen} px screen: {below[:3]}"
    assert [b for b in buttons if b[3] < 24] == [], buttons


# the hand's top and the board's box on the page
PLACES = """() => { const b = document.getElementById('board').getBoundingClientRect();
  return { hand: document.getElementById('hand').getBoundingClientRect().top, boardBottom: b.bottom,
           bar: document.querySelector('#play .actions').getBoundingClientRect().height }; }"""


@pytest.mark.parametrize("locale", LOCALES)
def test_wa_6_answers_to_a_raise_on_a_phone_take_no_room_from_the_board(tabs, server, locale):
    """WA-6: a raise against seat 0's team offers it two answers ("Accept – the hand is then
    worth 2", "Concede – seat 1 + seat 3 score 1 point"), a row each.  The move bar keeps its
    tallest height, and its second row was taken from the board for the rest of the game: the
    hand moved 43 px up (English; 24 px in German), the seats' words went to 8.4 px (9.0).
    The bar grows downwards (the page scrolls on a phone): the hand and the board's lower edge
    stay where they were.  Seat 0's page is open from the deal; seats 1 and 3 raise whenever
    they may."""
    tab = tabs(locale, NAMED)
    for seed in range(30):
        table = server.post("/api/tables", {"game": "watten", "options": {"raising": True},
                                            "seats": [{"kind": "human"}] * 4})
        tokens = {s["seat"]: s["token"] for s in table["seats"]}
        page = tab.open(server, table["seats"][0]["link"], "phone", wait_for="#board svg")
        settle(page)
        before = page.evaluate(PLACES)
        rng = random.Random(seed)
        for _ in range(200):
            spectator = server.get(f"/api/tables/{table['id']}")
            if spectator["terminal"]:
                break
            seat = spectator["waiting"][0]
            mine = server.get(f"/api/tables/{table['id']}", tokens[seat])
            if seat == 0 and "accept" in mine["legal"]:
                page.wait_for_selector("#actions button[data-action='accept']")
                settle(page)
                after = page.evaluate(PLACES)
                assert after["bar"] > before["bar"] + 20, (before, after)   # the answers take two rows
                assert after["hand"] == pytest.approx(before["hand"], abs=0.5), (before, after)
                assert after["boardBottom"] == pytest.approx(before["boardBottom"], abs=0.5), (before, after)
                assert tab.errors == []
                return
            moves = [a for a in mine["legal"] if a not in ("raise", "concede")] or mine["legal"]
            action = "raise" if seat % 2 == 1 and "raise" in mine["legal"] else rng.choice(moves)
            server.post(f"/api/tables/{table['id']}/moves", {"action": action, "n": mine["n"]}, tokens[seat])
    raise AssertionError("no raise for seat 0 to answer in 30 games")


@pytest.mark.parametrize("locale, says", [("de-DE", "hebe die Auswahl auf"), ("en-US", "clear the choice")])
def test_sw_2_2_a_pyramid_card_tapped_with_a_joker_chosen_is_not_taken(tabs, server, locale, says):
    """SW-2.2: with the joker chosen, the pyramid's free cards are drawn disabled (no value of
    the joker goes with them).  A tap on one sent its take for the server to explain, and the
    server took it: the joker's choice was dropped by a card drawn disabled.  The page says to
    clear the choice first, and nothing is played."""
    from .test_seven_waters_phone import a_table_with_a_joker_in_hand

    table = a_table_with_a_joker_in_hand(server)
    path = f"/api/tables/{table['id']}"
    n = server.get(path)["n"]
    page = tabs(locale, NAMED).open(server, table["seats"][0]["link"], "phone", wait_for="#turn[data-mine='1']")
    page.locator('#hand [data-key^="hand:X"].clickable').first.click()
    page.wait_for_function("() => document.querySelectorAll('#actions button[data-action]').length > 8")
    free = [k for k in server.get(path, table["seats"][0]["token"])["legal"] if k.startswith("take ")]
    assert free
    card = page.locator(f'#board [data-key="pyr:{free[0][5:]}"]')
    assert card.get_attribute("aria-disabled") == "true"
    card.click(force=True)
    page.wait_for_selector("#notice")
    assert says in page.inner_text("#notice")
    settle(page)
    assert server.get(path)["n"] == n                                  # nothing played
    assert page.locator('#hand [data-key^="hand:X"].selected').count() == 1   # the joker still chosen
