"""What a player notices while playing whole games in the browser: the table stays put
when the turn passes (the board and the hand do not jump each time a bot moves); the end
shows the whole result with its totals and the rematch button; a new table's link to play
is on the screen; an empty log says so; a refusal names a ten as the cards show it."""

from __future__ import annotations

import os
import random

import pytest

from .browser_support import (CHROMIUM, GAMES, SIZES, Server, browser, finished_table,  # noqa: F401
                              mid_game_table, name_the_seats, players_of, tabs)

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("polish")
    srv = Server(f"sqlite:///{tmp / 'polish.sqlite3'}", log_path=str(tmp / "server.log")).start()
    try:
        yield srv
    finally:
        srv.stop()


BOXES = """() => Object.fromEntries(['#board', '#hand', '#turn', '#seats'].map((s) => {
  const b = document.querySelector(s)?.getBoundingClientRect();
  return [s, b ? [Math.round(b.top), Math.round(b.height), Math.round(b.left), Math.round(b.width)] : null];
}))"""


def tokens_of(table: dict) -> dict[int, str]:
    return {s["seat"]: s["token"] for s in table["seats"]}


def play_seat_0(server: Server, table: dict, rng: random.Random) -> None:
    """Seat 0's moves over HTTP until it has no move left to make."""
    tid, token = table["id"], tokens_of(table)[0]
    for _ in range(20):
        mine = server.get(f"/api/tables/{tid}", token)
        if not mine["legal"]:
            return
        server.post(f"/api/tables/{tid}/moves", {"action": rng.choice(mine["legal"]), "n": mine["n"]}, token)
    raise RuntimeError("seat 0 kept the turn")


def play_others(server: Server, table: dict, rng: random.Random) -> None:
    """The other seats' moves over HTTP until seat 0 has a move to make."""
    tid, tokens = table["id"], tokens_of(table)
    for _ in range(100):
        spectator = server.get(f"/api/tables/{tid}")
        if spectator["terminal"] or server.get(f"/api/tables/{tid}", tokens[0])["legal"]:
            return
        seat = next(s for s in spectator["waiting"] if s != 0)
        theirs = server.get(f"/api/tables/{tid}", tokens[seat])
        server.post(f"/api/tables/{tid}/moves", {"action": rng.choice(theirs["legal"]), "n": theirs["n"]}, tokens[seat])
    raise RuntimeError("seat 0 never got the turn back")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", GAMES)
def test_the_board_and_the_hand_stay_put_when_the_turn_passes(tabs, server, game, size):
    """The move buttons' bar and the hint button used to exist only on this seat's turn:
    each time the turn passed to another seat the board grew into their room and the hand
    slid down, and back on the next turn, so the whole table jumped at every move.  Now the
    hand stays where it is, and the board gives way to a seat strip, a top bar or a move bar
    that wraps onto another line (they keep that height), never back and forth."""
    table = mid_game_table(server, game)
    rng = random.Random(5)
    tab = tabs()
    page = tab.open(server, table["seats"][0]["link"], size, "#turn[data-mine='1']")
    boxes = [page.evaluate(BOXES)]
    for turn in range(4):
        n = int(page.get_attribute("#turn", "data-n"))
        (play_seat_0 if turn % 2 == 0 else play_others)(server, table, rng)
        page.wait_for_function("([n, mine]) => { const t = document.querySelector('#turn');"
                               " return +t.dataset.n > n && t.dataset.mine === mine; }",
                               arg=[n, "0" if turn % 2 == 0 else "1"])
        boxes.append(page.evaluate(BOXES))
    # the hand may move up once, when the move bar first wraps onto a second row of buttons
    # (Watten's four signals on a phone): the bar keeps that height, so the hand never moves
    # back down (a hint text of two lines is a pixel or two taller than a row of buttons)
    hand_tops = [b["#hand"][0] for b in boxes]
    assert all(later <= earlier + 3 for earlier, later in zip(hand_tops, hand_tops[1:])), boxes
    board_tops = [b["#board"][0] for b in boxes]
    assert board_tops == sorted(board_tops), boxes
    assert tab.errors == []


@pytest.fixture(scope="module")
def finished(server):
    return {g: finished_table(server, g, {"wasserloch": None, "watten": {"target": 2}, "seven_waters": {},
                                          "wildwasser": {"players": 3}}[g]) for g in GAMES}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", GAMES)
def test_the_result_and_the_rematch_button_are_shown_whole_at_the_end(tabs, server, finished, game, size):
    """At the end an empty hand kept its room at the bottom of the screen while the result
    above it was cut to 45 % of the screen: Seven Waters' score table scrolled inside its
    box, the rematch button half hidden under its edge, and the board shrank to a thumbnail
    over the empty room."""
    tab = tabs()
    page = tab.open(server, finished[game]["seats"][0]["link"], size, "#rematch")
    cards = page.evaluate("() => { const h = document.querySelector('#hand'); return h ? h.querySelectorAll('[data-key]').length : null; }")
    assert cards is None or cards > 0, "an empty hand is drawn at the end"
    hidden = page.evaluate("() => { const r = document.querySelector('#result'); return r.scrollHeight - r.clientHeight; }")
    assert hidden <= 1, f"{hidden} px of the result are scrolled out of its box"
    if size == "desktop":
        rematch = page.locator("#rematch").bounding_box()
        assert rematch["y"] + rematch["height"] <= SIZES[size][1], "the rematch button is below the screen"
    assert tab.errors == []


@pytest.mark.parametrize("size", list(SIZES))
def test_the_top_bar_gives_back_the_name_forms_room_once_a_name_is_given(tabs, server, size):
    """The top bar keeps the tallest height it has had (so that it does not jump as the
    game's status line changes), but not the room of the name form once it is gone."""
    table = mid_game_table(server, "watten")
    tab = tabs()
    page = tab.open(server, table["seats"][0]["link"], size, "#name-form")
    with_form = page.eval_on_selector("#play .topbar", "n => n.getBoundingClientRect().height")
    page.fill("#my-name", "Anna")
    page.click("#name-form button")
    page.wait_for_selector("#name-form", state="detached")
    named = page.eval_on_selector("#play .topbar", "n => n.getBoundingClientRect().height")
    page.reload()
    page.wait_for_selector("#turn[data-mine='1']")
    assert page.locator("#name-form").count() == 0
    fresh = page.eval_on_selector("#play .topbar", "n => n.getBoundingClientRect().height")
    assert named == fresh <= with_form


@pytest.mark.parametrize("size", list(SIZES))
def test_after_creating_a_table_the_link_to_play_it_is_on_the_screen(tabs, server, size):
    """A first table: "My tables" appears above the form and pushes it down, and on a phone
    the new table's links lay below the screen after tapping "Create table" (nothing seemed
    to happen).  The link to play is on the screen and has the focus."""
    page = tabs("de-DE").open(server, "/", size, "body[data-lobby='ready']")
    page.select_option("#game", "watten")
    page.evaluate("() => { delete document.body.dataset.lobby; }")
    page.click("#create")                          # scrolls to the button, as a player would
    page.wait_for_selector("#created")
    page.wait_for_selector("body[data-lobby='ready']")   # the lists arrived (and redrew the page)
    box = page.locator("li[data-mine='1'] a[data-seat-link]").bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= SIZES[size][1], box
    assert page.evaluate("() => document.activeElement.matches(\"li[data-mine='1'] a[data-seat-link]\")")


@pytest.mark.parametrize("game", ["wasserloch", "seven_waters"])   # the others log the deal, the round
def test_the_log_of_a_new_table_says_there_is_nothing_yet(tabs, server, game):
    """Before the first move the log's box stood empty under its heading."""
    table = server.post("/api/tables", {"game": game, "seats": [{"kind": "human"}] * players_of(game)})
    page = tabs("de-DE").open(server, table["spectator_link"], "desktop")
    assert page.inner_text("#log").strip() == "Noch keine."


def test_a_refusal_names_a_ten_as_the_cards_on_the_screen_show_it(tabs, server):
    """The cards show a ten as "10"; an English refusal said "you must follow hearts: you
    hold Q♥ and T♥", a code to a player (the terminal's notation keeps "T")."""
    page = tabs("en-US").open(server, "/", "desktop", "body[data-lobby='ready']")
    said = page.evaluate("""async () => {
        const { refusalText } = await import('/static/i18n.js');
        return refusalText({ code: "illegal", reason_code: "watten.must_follow", params: { suit: "H", held: ["QH", "TH"] } });
      }""")
    assert said == "hearts must be followed (Q♥ and 10♥ in hand)"


@pytest.fixture(scope="module")
def long_named_wildwasser(server, tabs):
    """A Wildwasser table of four humans with long names (each seat's page opened once with
    its name saved), played to its end over HTTP: the test reads its result in either
    language, so it is named and played once."""
    table = server.post("/api/tables", {"game": "wildwasser", "options": {"players": 4},
                                        "seats": [{"kind": "human"}] * 4})
    name_the_seats(server, table, ("Anna Katharina Huber", "Maximiliane Mustermann", "Bot (leicht, Platz 2)",
                                          "Bartholomäus Oberhuber"))
    rng, tokens = random.Random(3), tokens_of(table)
    while not (spectator := server.get(f"/api/tables/{table['id']}"))["terminal"]:
        seat = spectator["waiting"][0]
        mine = server.get(f"/api/tables/{table['id']}", tokens[seat])
        server.post(f"/api/tables/{table['id']}/moves", {"action": rng.choice(mine["legal"]), "n": mine["n"]},
                    tokens[seat])
    return table


@pytest.mark.parametrize("locale", ["de-DE", "en-US"])
def test_the_score_table_of_four_long_names_fits_a_phone(tabs, server, long_named_wildwasser, locale):
    """Wildwasser's result on a phone: row heads on one line each ("Bot (leicht, Platz 1)",
    a player's own name) pushed the last column, the totals, out of the result's box (it
    scrolled sideways, "Summe" cut in half).  A row's head now wraps."""
    page = tabs(locale).open(server, long_named_wildwasser["seats"][0]["link"], "phone", "#result table.score")
    overflow = "() => { const r = document.querySelector('#result'); return r.scrollWidth - r.clientWidth; }"
    try:  # the table is laid out as the page settles (names, fitted texts): give it that time
        page.wait_for_function(f"() => ({overflow})() <= 0", timeout=5000)
    except sync_api.TimeoutError:
        pass  # the assertion says by how much it is too wide
    wide = page.evaluate(overflow)
    assert wide <= 0, f"the result is {wide} px wider than its box"
