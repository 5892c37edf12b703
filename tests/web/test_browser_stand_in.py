"""A friend who left, in the browser: once their seat has been offline for the server's
`stand_in_seconds`, the other player is offered "Let a bot play for NAME" with a level,
reachable by keyboard and said in the live region; the seat then reads "bot plays" and the
bot moves for it; the friend who comes back with their link is told they have their seat
back, the others hear it, and no bot moves for them any more.  In German here, as the
other player's browser asks."""

from __future__ import annotations

import time

import pytest

from wasserspiele.core.messages import render

from .browser_support import ANNOUNCEMENTS, name_the_seats, open_page, said, serving, wait_to_hear
from .test_browser import browser, sync_api  # noqa: F401 (fixtures)
from .test_browser_friends import play_until_waiting_for, two_humans

STAND_IN_SECONDS = 4  # the server's wait before a seat may be handed over (60 s by default)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "stand_in", STAND_IN_SECONDS=STAND_IN_SECONDS)


def page_of(browser, server, link: str, locale: str):
    return open_page(browser, server, link, locale=locale, init_script=ANNOUNCEMENTS)


def de(code: str, **params) -> str:
    return render(f"web.{code}", params, "de")


def test_a_bot_plays_for_a_friend_who_left_until_the_friend_comes_back(browser, server):
    table = two_humans(server)
    tid, tokens = table["id"], {s["seat"]: s["token"] for s in table["seats"]}
    name_the_seats(server, table, ["Anna", "Ben"])    # Ben's page is closed again: he left
    left = time.monotonic()
    play_until_waiting_for(server, table, 1)                    # and it is his move
    ctx, anna, errors = page_of(browser, server, table["seats"][0]["link"], "de-DE")
    anna.wait_for_selector("#seats [data-seat='1'] .state:text('offline')")
    if time.monotonic() - left < STAND_IN_SECONDS - 0.5:
        assert anna.locator("#stand-in-1").count() == 0           # not before the wait is over
    # the offer appears by itself once the wait is over, and is said
    offer = anna.wait_for_selector("#stand-in-1")
    assert offer.inner_text() == de("stand_in_offer", who="Ben") == "Einen Bot für Ben spielen lassen"
    assert de("stand_in_ready", who="Ben") in wait_to_hear(anna, de("stand_in_ready", who="Ben"))
    assert anna.locator("#stand-in-0").count() == 0              # never her own seat
    # by keyboard: the level chosen in its list, Tab to the button, Enter
    anna.focus("#stand-in-level-1")
    assert anna.inner_text("label[for='stand-in-level-1']") == de("stand_in_level", who="Ben")
    anna.select_option("#stand-in-level-1", "hard")
    anna.keyboard.press("Tab")
    assert anna.evaluate("() => document.activeElement.id") == "stand-in-1"
    anna.keyboard.press("Enter")
    began = de("stand_in_began", level=de("level_hard"), who="Ben")
    assert began == "Ein Bot (schwer) spielt jetzt für Ben."
    assert began in wait_to_hear(anna, began)
    anna.wait_for_selector(f"#seats [data-seat='1'] .state:text('{de('bot_plays')}')")
    assert anna.locator("#stand-in-1").count() == 0
    # the bot moves for Ben: the turn comes back to Anna without anyone else at the table
    anna.wait_for_selector("#turn.yourturn")
    state = server.get(f"/api/tables/{tid}")
    assert state["seats"][1]["stand_in"] == "hard" and state["n"] > 0

    # Ben comes back with his link: he has his seat again, and Anna hears it
    ctx_ben, ben, ben_errors = page_of(browser, server, table["seats"][1]["link"], "en-US")
    back = render("web.seat_back", {}, "en")
    assert back in wait_to_hear(ben, back)
    assert ben.inner_text("#notice") == back
    ben.wait_for_selector("#seats .seat-chip.me[data-seat='1']")
    ended = de("stand_in_ended", who="Ben")
    assert ended in wait_to_hear(anna, ended)
    anna.wait_for_selector("#seats [data-seat='1']:not(:has(.state:text('Bot spielt')))")
    assert server.get(f"/api/tables/{tid}")["seats"][1]["stand_in"] is None
    # his move is his own: no bot plays it (three bot delays and more), and it is accepted
    play_until_waiting_for(server, table, 1)
    n = server.get(f"/api/tables/{tid}")["n"]
    time.sleep(1.0)
    mine = server.get(f"/api/tables/{tid}", tokens[1])
    assert mine["n"] == n and mine["waiting"] == [1], "a bot moved for Ben after he came back"
    ben.wait_for_selector("#turn.yourturn")
    for _ in range(4):  # a piece, then its place or the button of its move, as a player does
        if ben.get_attribute("#turn", "data-n") != str(n):
            break
        if ben.locator("#actions button[data-action]").count():
            ben.click("#actions button[data-action]")
        else:
            ben.click("#hand [data-key].clickable:not(.selected), #board [data-key].clickable:not(.selected)")
        time.sleep(0.3)
    ben.wait_for_function("(n) => +document.getElementById('turn').dataset.n > n", arg=n)
    assert server.get(f"/api/tables/{tid}")["n"] == n + 1
    assert not any("Bot" in line for line in said(ben)), said(ben)   # his own seat was never "a bot plays for you"
    assert errors == [] and ben_errors == []
    ctx_ben.close()
    ctx.close()
