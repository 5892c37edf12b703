"""Playing with friends in the browser: "My tables" holds the seats this browser plays
(not the friends' seats of a table it created) and tells a finished game from its
rematch; a friend who left is shown offline even on their move; a seat link pasted into
a tab that shows the table opens that seat; a language switch rewords every text."""

from __future__ import annotations

import pytest

from .browser_support import TIMEOUT_MS, finished_table, new_context
from .test_browser import browser, server, create_in_lobby, sync_api  # noqa: F401 (fixtures)


def page_in(browser, errors: list[str], locale: str = "en-US"):
    """A page of its own browser (its own localStorage: one person)."""
    page = new_context(browser, "phone", locale=locale).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def two_humans(server, game: str = "wasserloch") -> dict:
    options = {"players": 2} if game == "wasserloch" else {}
    return server.post("/api/tables", {"game": game, "options": options,
                                       "seats": [{"kind": "human"}, {"kind": "human"}]})


def play_until_waiting_for(server, table: dict, seat: int) -> None:
    """Moves over HTTP (each seat's first legal move) until `seat` is the one to move."""
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    for _ in range(50):
        state = server.get(f"/api/tables/{table['id']}")
        if state["waiting"] == [seat]:
            return
        mover = state["waiting"][0]
        mine = server.get(f"/api/tables/{table['id']}", tokens[mover])
        server.post(f"/api/tables/{table['id']}/moves", {"action": mine["legal"][0], "n": mine["n"]}, tokens[mover])
    raise AssertionError(f"seat {seat} never came to move")


def my_entries(page) -> list[dict]:
    page.wait_for_selector("#my-tables")
    return page.eval_on_selector_all("#my-tables li", """(lis) => lis.map((li) => ({
        table: li.querySelector('a[data-my-table]').dataset.myTable,
        href: li.querySelector('a[data-my-table]').getAttribute('href'),
        status: li.dataset.status || null,
        text: li.innerText }))""")


# ---------------------------------------------------------------- A: the creator's seats
def test_the_creators_my_tables_keeps_only_the_seat_the_creator_plays(browser, server):
    errors: list[str] = []
    creator = page_in(browser, errors)
    made = create_in_lobby(creator, server.base, "seven_waters", seats=["human", "human"])
    table_id = made["spectator"].rsplit("/", 1)[1]
    kept = creator.evaluate("() => JSON.parse(localStorage.getItem('my_tables')).map((e) => [e.table, e.seat])")
    assert kept == [[table_id, 0]]
    # both links are there to be sent; the first is marked as the creator's own
    assert set(made["links"]) == {0, 1}
    assert creator.get_attribute("#created li:has(a[data-seat-link='0'])", "data-mine") == "1"
    assert creator.get_attribute("#created li:has(a[data-seat-link='1'])", "data-mine") == "0"
    assert "send this link" in creator.inner_text("#created li:has(a[data-seat-link='1'])")
    creator.reload()
    entries = my_entries(creator)
    assert [(e["table"], e["href"]) for e in entries] == [(table_id, made["links"][0])]
    assert "Seat 1" not in creator.inner_text("#my-tables")

    # the friend plays seat 1; the creator's "My tables" leads only to seat 0
    friend = page_in(browser, errors)
    friend.goto(server.base + made["links"][1])
    friend.wait_for_selector("#turn")
    creator.click(f"#my-tables a[data-my-table='{table_id}']")
    creator.wait_for_selector("#seats .seat-chip.me[data-seat='0']")
    friend.wait_for_selector("#seats .seat-chip[data-seat='0']:not(:has(.state:text('offline')))")
    assert friend.locator("#notice").count() == 0            # nobody took the friend's seat
    assert friend.locator("#seats .seat-chip.me[data-seat='1']").count() == 1

    # a link opened in this browser is remembered: the creator playing both seats here
    creator.goto(server.base + made["links"][1])
    creator.wait_for_selector("#seats .seat-chip.me[data-seat='1']")
    creator.goto(server.base + "/")
    assert sorted(e["href"] for e in my_entries(creator)) == sorted(made["links"].values())
    assert errors == []


# ---------------------------------------------------------------- B: offline on their move
@pytest.mark.parametrize("locale, here, gone, waiting", [
    ("en-US", "to move", "to move · offline", "Waiting for seat 1 (offline)."),
    ("de-DE", "am Zug", "am Zug · offline", "Warte auf Platz 1 (offline)."),
])
def test_a_friend_who_leaves_on_their_move_is_shown_offline(browser, server, locale, here, gone, waiting):
    table = two_humans(server)
    errors: list[str] = []
    me = page_in(browser, errors, locale)
    friend = page_in(browser, errors, locale)
    me.goto(server.base + table["seats"][0]["link"])
    friend.goto(server.base + table["seats"][1]["link"])
    friend.wait_for_selector("#turn")
    play_until_waiting_for(server, table, 1)
    state = "(s) => document.querySelector(\"#seats .seat-chip[data-seat='1'] .state\")?.textContent === s"
    me.wait_for_function(state, arg=here)                     # the friend is here and to move
    assert "offline" not in me.inner_text("#turn")
    friend.close()
    me.wait_for_function(state, arg=gone)
    assert me.inner_text("#turn") == waiting
    assert [s["online"] for s in server.get(f"/api/tables/{table['id']}")["seats"]] == [True, False]
    assert errors == []


# ---------------------------------------------------------------- C: a seat link into the same tab
def test_a_seat_link_pasted_into_a_tab_watching_the_table_opens_that_seat(browser, server):
    table = two_humans(server)
    errors: list[str] = []
    page = page_in(browser, errors)
    sockets = []
    page.on("websocket", lambda ws: sockets.append(ws))
    page.goto(server.base + table["spectator_link"])
    page.wait_for_selector("#turn")
    assert page.locator("#seats .seat-chip.me").count() == 0 and page.locator("#hand").count() == 0

    page.goto(server.base + table["seats"][0]["link"])      # as if typed into the address bar
    page.wait_for_selector("#seats .seat-chip.me[data-seat='0']")
    page.wait_for_selector("#hand")
    assert page.get_attribute("#turn", "data-mine") == "1"
    assert len(sockets) == 2
    if not sockets[0].is_closed():                          # the spectator's socket is closed
        sockets[0].wait_for_event("close")

    page.goto(server.base + table["seats"][1]["link"])
    page.wait_for_selector("#seats .seat-chip.me[data-seat='1']")
    # seat 0's socket was closed cleanly: the server sees seat 0 gone, seat 1 here
    page.wait_for_selector("#seats .seat-chip[data-seat='0'] .state:has-text('offline')")
    assert [s["online"] for s in server.get(f"/api/tables/{table['id']}")["seats"]] == [False, True]
    assert len(sockets) == 3 and sockets[1].is_closed()
    assert page.locator("#notice").count() == 0             # no "reconnecting", no "another tab"
    assert errors == []


# ---------------------------------------------------------------- D: a language switch rewords everything
def test_a_language_switch_rewords_the_name_form_and_the_notices(browser, server):
    table = two_humans(server)
    errors: list[str] = []
    page = page_in(browser, errors, "de-DE")
    page.goto(server.base + table["seats"][1]["link"])      # seat 1: not to move
    page.wait_for_selector("#name-form")
    assert page.inner_text("#name-form label") == "Dein Name" and page.inner_text("#name-form button") == "Speichern"
    page.fill("#my-name", "Ann")                              # typed, not saved yet
    page.locator("#hand [data-key]").first.click(force=True)  # not my turn: the page says why
    page.wait_for_selector("#notice.info")
    german = page.inner_text("#notice")
    assert german == "Du bist nicht am Zug."

    page.select_option("#lang", "en")
    page.wait_for_function("() => document.querySelector('#rules-link')?.textContent === 'Rules'")
    assert page.inner_text("#name-form label") == "Your name"
    assert page.inner_text("#name-form button") == "Save"
    assert page.input_value("#my-name") == "Ann"
    assert page.inner_text("#notice") == "It is not your turn."

    page.select_option("#lang", "de")
    page.wait_for_function("() => document.querySelector('#rules-link')?.textContent === 'Regeln'")
    assert page.inner_text("#name-form label") == "Dein Name" and page.inner_text("#notice") == german
    assert errors == []


def test_a_language_switch_rewords_a_refusal_in_the_lobby(browser, server):
    errors: list[str] = []
    page = page_in(browser, errors)
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-lobby='ready']")
    page.select_option("#game", "wasserloch")
    page.fill("#opt-rounds", "2.5")                           # the server refuses it, naming the option
    page.dispatch_event("#opt-rounds", "change")
    page.click("#create")
    page.wait_for_selector("#create-error")
    english = page.inner_text("#create-error")
    page.select_option("#lang", "de")
    page.wait_for_function("() => document.querySelector('#create').textContent === 'Tisch eröffnen'")
    german = page.inner_text("#create-error")
    assert english == "Refused: option rounds: 2.5 is not an integer"
    assert german == "Nicht erlaubt: Option „Durchgänge“ (rounds): 2.5 ist keine ganze Zahl"   # the reason too
    assert errors == []


# ---------------------------------------------------------------- E: entries told apart
def test_my_tables_tells_a_finished_game_from_its_rematch_newest_first(browser, server):
    old = finished_table(server, "wasserloch")
    old_id = old["id"]
    errors: list[str] = []
    page = page_in(browser, errors, "de-DE")
    page.goto(server.base + old["seats"][1]["link"])
    page.wait_for_selector("#turn[data-terminal='1']")
    page.click("#rematch")
    page.wait_for_function(f"() => !location.pathname.endsWith('{old_id}')")
    page.wait_for_selector("#turn")
    new_id = page.evaluate("() => location.pathname.split('/').pop()")
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-lobby='ready']")
    moves = server.get(f"/api/tables/{old_id}")["n"]
    entries = my_entries(page)
    assert [e["table"] for e in entries] == [new_id, old_id]                    # the newest first
    assert [e["status"] for e in entries] == ["running", "over"]
    assert entries[0]["text"].startswith("Wasserloch · Platz 1 · läuft · 0 Züge · gerade eben gespielt")
    assert entries[1]["text"].startswith(f"Wasserloch · Platz 1 · beendet · {moves} Züge · gerade eben gespielt")

    # last played two hours and two days ago: the time says so, in the page's language
    page.evaluate("""([a, b]) => {
        const list = JSON.parse(localStorage.getItem('my_tables'));
        for (const e of list) e.at = Date.now() - (e.table === a ? 2 * 3600e3 : 2 * 86400e3 + 60e3);
        localStorage.setItem('my_tables', JSON.stringify(list)); }""", [new_id, old_id])
    page.reload()
    page.wait_for_selector("body[data-lobby='ready']")
    entries = my_entries(page)
    assert "zuletzt gespielt vor 2 Stunden" in entries[0]["text"]
    assert "zuletzt gespielt vorgestern" in entries[1]["text"]
    page.select_option("#lang", "en")
    page.wait_for_function("() => document.querySelector('#create').textContent === 'Create table'")
    entries = my_entries(page)
    assert "Seat 1 · in progress · 0 moves · last played 2 hours ago" in entries[0]["text"]
    assert "Seat 1 · finished" in entries[1]["text"] and "last played 2 days ago" in entries[1]["text"]
    assert errors == []


# ---------------------------------------------------------------- E: "not your turn" lasts while it is true
def _move_over_http(server, table: dict, seat: int) -> None:
    token = {s["seat"]: s["token"] for s in table["seats"]}[seat]
    mine = server.get(f"/api/tables/{table['id']}", token)
    server.post(f"/api/tables/{table['id']}/moves", {"action": mine["legal"][0], "n": mine["n"]}, token)


def test_wl_3_3_not_your_turn_stays_while_the_others_move_and_goes_when_the_turn_comes(browser, server):
    """A card tapped off turn is told "It is not your turn."; the words went with the next
    move of anyone (a bot's, some 0.8 s later), before they could be read.  They stay while
    the others move, and go when this seat may move."""
    table = server.post("/api/tables", {"game": "wasserloch", "options": {"players": 3},
                                        "seats": [{"kind": "human"}] * 3})
    errors: list[str] = []
    page = page_in(browser, errors)
    page.goto(server.base + table["seats"][2]["link"])       # seat 2: two moves from its turn
    page.wait_for_selector("#hand [data-key]")
    page.locator("#hand [data-key]").first.click(force=True)
    page.wait_for_selector("#notice.info")
    assert page.inner_text("#notice") == "It is not your turn."
    n = page.evaluate("() => document.querySelectorAll('#log li').length")
    _move_over_http(server, table, 0)                         # seat 1 to move: still not seat 2's turn
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {n}")
    assert page.inner_text("#notice") == "It is not your turn."
    _move_over_http(server, table, 1)                         # seat 2's turn: the words are no longer true
    page.wait_for_function("() => !document.querySelector('#notice.info')")
    assert page.locator("#hand [data-key]:not([disabled])").count() > 0
    assert errors == []
