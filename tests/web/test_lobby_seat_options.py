"""An option whose value is a seat (who starts, who deals first) is marked `seat` in its
game's manifest, /api/games says so, and the lobby's new-table form offers it as a labelled
list of the table's seats, worded as the form's seat rows are ("Seat 1", „Platz 1"), that
follows the player count: a player no longer guesses what a bare 0 in a number field means.
The value sent stays the seat's number (0-based, as the API and the records count)."""

from __future__ import annotations

import os

import pytest

from wasserspiele.core.options import parse_option_texts, resolve_options
from wasserspiele.games.wasserloch.manifest import MANIFEST

from .browser_support import CHROMIUM, TIMEOUT_MS, browser, new_context, serving  # noqa: F401

# the options of each game that name a seat of the table
SEAT_OPTIONS = {"seven_waters": {"first_player"}, "wasserloch": {"first_player"},
                "watten": {"first_dealer"}, "wildwasser": {"first_player"}}


def test_api_games_marks_the_options_whose_value_is_a_seat(client):
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert set(SEAT_OPTIONS) <= set(games)  # (a test plugin's game may be installed too)
    for name in SEAT_OPTIONS:
        game = games[name]
        marked = {o["name"] for o in game["options"] if o.get("seat") is True}
        assert marked == SEAT_OPTIONS[name], name
        assert all(o["seat"] is False for o in game["options"] if o["name"] not in marked), name


def test_a_seat_option_s_range_ends_at_the_largest_table_s_last_seat():
    """`wasserspiele games` listed Wasserloch's and Wildwasser's first_player as "int 0..99"
    (the cap of an integer option declared without a maximum), /api/games likewise; the
    largest table's last seat is the most a seat option can be (its check refines that by
    the player count)."""
    from wasserspiele.core import registry

    for name, options in SEAT_OPTIONS.items():
        manifest = registry.manifest(name)
        for o in manifest.options:
            if o.name in options:
                assert (o.minimum, o.maximum) == (0, manifest.players[1] - 1), (name, o)


def test_a_seat_option_is_still_a_number_on_the_command_line_and_in_the_api():
    # the mark changes how the lobby draws the option, not what it takes
    declared = MANIFEST.options
    assert parse_option_texts(declared, ["first_player=2", "players=3"], "wasserloch") == {"first_player": 2,
                                                                                           "players": 3}
    assert resolve_options(declared, {"players": 3, "first_player": 2}, "wasserloch")["first_player"] == 2


def _browser_ready():
    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "lobby_seat_options")


def open_lobby(browser, server, locale):
    _browser_ready()
    ctx = new_context(browser, "desktop", locale)
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-lobby='ready']")  # the lists have arrived and redrawn the form
    return ctx, page, errors


def seat_list(page, name):
    """The seat option's control: its tag, its options (value, text), the chosen value."""
    return page.eval_on_selector(f"#opt-{name}", """el => ({tag: el.tagName.toLowerCase(),
        options: el.tagName === 'SELECT' ? [...el.options].map((o) => [o.value, o.textContent]) : null,
        value: el.value})""")


def seat_rows(page):
    """What the form's seat rows are called, in order: "Seat 0", "Seat 1", …"""
    return page.eval_on_selector_all("#new-table label[for^='seat-']", "ls => ls.map((l) => l.textContent)")


def set_players(page, n):
    page.fill("#opt-players", str(n))
    page.locator("#opt-players").dispatch_event("change")
    page.wait_for_function("(n) => document.querySelectorAll(\"#new-table select[id^='seat-']\").length === n", arg=n)


@pytest.mark.parametrize("locale, word", [("en-US", "Seat"), ("de-DE", "Platz")])
def test_the_start_player_is_chosen_among_the_seats_that_follow_the_player_count(browser, server, locale, word):
    ctx, page, errors = open_lobby(browser, server, locale)
    page.select_option("#game", "wasserloch")
    # a native select, named by its label (keyboard and screen reader reach it as any other)
    label = page.inner_text("label[for='opt-first_player']")
    assert page.get_by_label(label, exact=True).evaluate("el => el.tagName") == "SELECT"
    shown = seat_list(page, "first_player")
    assert shown["tag"] == "select", shown
    assert shown["options"] == [[str(i), f"{word} {i}"] for i in range(3)]  # three players by default
    assert [text for _, text in shown["options"]] == seat_rows(page)        # worded as the seat rows
    assert shown["value"] == "0"

    page.select_option("#opt-first_player", "2")
    set_players(page, 4)                   # the seat chosen is still at the table: it stays
    shown = seat_list(page, "first_player")
    assert [v for v, _ in shown["options"]] == ["0", "1", "2", "3"] and shown["value"] == "2"
    assert [text for _, text in shown["options"]] == seat_rows(page)
    set_players(page, 2)                   # seat 2 has gone with the smaller count: the default
    shown = seat_list(page, "first_player")
    assert shown["options"] == [["0", f"{word} 0"], ["1", f"{word} 1"]] and shown["value"] == "0"

    # by keyboard: the list takes the focus and an arrow key chooses the next seat
    page.focus("#opt-first_player")
    page.keyboard.press("ArrowDown")
    assert seat_list(page, "first_player")["value"] == "1"
    page.locator("#opt-first_player").dispatch_event("change")
    with page.expect_request(lambda r: r.url.endswith("/api/tables") and r.method == "POST") as sent:
        page.click("#create")
    page.wait_for_selector("#created")
    # the seat goes to the server as its number, 0-based
    assert sent.value.post_data_json["options"] == {"players": 2, "first_player": 1}
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("game, option, seats", [("seven_waters", "first_player", 2), ("watten", "first_dealer", 4),
                                                 ("wildwasser", "first_player", 4)])
def test_every_games_seat_option_lists_the_tables_seats(browser, server, game, option, seats):
    ctx, page, errors = open_lobby(browser, server, "en-US")
    page.select_option("#game", game)
    shown = seat_list(page, option)
    assert shown["tag"] == "select", shown
    assert shown["options"] == [[str(i), f"Seat {i}"] for i in range(seats)]
    assert [text for _, text in shown["options"]] == seat_rows(page)
    assert shown["value"] == "0"
    assert errors == []
    ctx.close()
