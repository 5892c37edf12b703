"""On a phone (390 × 844) the board's box fits the board drawn in it, for every game, as a
spectator, in the replay and as a player, in English and German.

The play column is at least a screen high and the board took whatever room the other parts
left: with no hand below it (a spectator, the replay) the box was 500–660 px high around a
board drawn 304–381 px high, and the picture, centred in it, left 79–174 px blank above and
as much below it (Watten's spectator 166 px each, its replay 138 px) before the log; a
player's Watten table left 66 px above and below.  Measured in the browser: the viewBox's
picture drawn into the box (preserveAspectRatio meet) against the box.
"""

from __future__ import annotations

import os

import pytest

from .browser_support import (BOARD_MEASURE, CHROMIUM, GAMES, SIZES, browser, finished_table,  # noqa: F401
                              mid_game_table, serving, tabs)

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

LOCALES = ["en-US", "de-DE"]
BLANK = 24          # px of the box above or below the drawn board that still read as its margin
REPLAY_STEPS = 6    # the replay is looked at a few moves in, a position with pieces out


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "board_fits", tables_per_client=50)


@pytest.fixture(scope="module")
def tables(server):
    middle = {g: mid_game_table(server, g) for g in GAMES}
    ended = {g: finished_table(server, g, {"target": 2} if g == "watten" else None) for g in GAMES}
    return middle, ended


def assert_full_width(m: dict, where: str) -> None:
    """With nothing below the board to keep in place, the board is drawn across the column."""
    assert m["narrower"] <= 2, f"{where}: the board is drawn {m['narrower']:.0f} px narrower than the column"


def assert_fits(m: dict, where: str) -> None:
    assert m["above"] <= BLANK and m["below"] <= BLANK, (
        f"{where}: {m['above']:.0f} px blank above the board and {m['below']:.0f} px below it "
        f"(box {m['box']:.0f} px, board drawn {m['drawn']:.0f} px)")
    assert m["sideways"] <= 0, f"{where}: the page scrolls sideways by {m['sideways']} px"


def assert_board_then_log(m: dict, where: str) -> None:
    """A column with nothing below the board (a spectator's, the replay's): the board fits
    its box across the column's width and the log comes right after it."""
    assert_fits(m, where)
    assert_full_width(m, where)
    assert m["sideTop"] - m["boardBottom"] <= BLANK, f"{where}: {m['sideTop'] - m['boardBottom']:.0f} px before the log"


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game", GAMES)
def test_a_spectator_s_board_on_a_phone_has_no_blank_band_and_the_log_follows_it(tabs, server, tables, game, locale):
    middle, _ = tables
    tab = tabs(locale)
    page = tab.open(server, middle[game]["spectator_link"], "phone")
    assert_board_then_log(page.evaluate(BOARD_MEASURE), f"{game} spectator ({locale})")
    assert not tab.errors


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game", GAMES)
def test_the_replay_s_board_on_a_phone_has_no_blank_band_and_the_log_follows_it(tabs, server, tables, game, locale):
    _, ended = tables
    tab = tabs(locale)
    page = tab.open(server, f"/replay/{ended[game]['id']}", "phone")
    for k in range(1, REPLAY_STEPS + 1):
        page.click("#next")
        page.wait_for_selector(f"#turn[data-n='{k}']")
        assert_board_then_log(page.evaluate(BOARD_MEASURE), f"{game} replay step {k} ({locale})")
    assert not tab.errors


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game", GAMES)
def test_a_player_s_board_on_a_phone_fits_its_box_and_the_hand_and_buttons_stay_on_the_first_screen(
        tabs, server, tables, game, locale):
    middle, _ = tables
    tab = tabs(locale)
    page = tab.open(server, middle[game]["seats"][0]["link"], "phone")
    # the table's deal is the server's own: a Seven Waters seat may hold no card at this
    # point (seen in CI), so the page is awaited by its board and an empty hand is no hand
    page.wait_for_selector("#board svg")
    m = page.evaluate(BOARD_MEASURE)
    assert_fits(m, f"{game} player ({locale})")
    assert (m["handBottom"] or 0) <= m["screen"] and (m["actionsBottom"] or 0) <= m["screen"], m
    assert not tab.errors


@pytest.mark.parametrize("game", ["watten", "wasserloch"])
def test_a_phone_s_board_is_fitted_anew_when_the_screen_changes_its_size(tabs, server, tables, game):
    """A shorter screen (the browser's bars shown, a phone turned) and back: the box is fitted
    to the new room; the hand stays on the screen and no blank band comes back."""
    middle, _ = tables
    tab = tabs("en-US")
    page = tab.open(server, middle[game]["seats"][0]["link"], "phone")
    page.wait_for_selector("#hand [data-key]")
    w, h = SIZES["phone"]
    for height in (600, h, 700):
        page.set_viewport_size({"width": w, "height": height})
        page.wait_for_function(f"innerHeight === {height}")
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => r(true)))")  # the resize handled
        m = page.evaluate(BOARD_MEASURE)
        assert_fits(m, f"{game} player at {w}×{height}")
        assert m["handBottom"] <= m["screen"] and m["actionsBottom"] <= m["screen"], (height, m)
    assert not tab.errors


# the bottom of what the play column shows (its last child's box) and the log's top
END_GAP = """() => {
  const kids = [...document.getElementById('play').children].filter((n) => n.getBoundingClientRect().height > 0);
  return { contentBottom: Math.max(...kids.map((n) => n.getBoundingClientRect().bottom)),
           sideTop: document.getElementById('side').getBoundingClientRect().top };
}"""


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game", GAMES)
def test_at_the_end_on_a_phone_the_log_follows_the_result_without_a_blank_screen_part(tabs, server, tables, game,
                                                                                      locale):
    """The play column is a screen high so that a player's hand is on the first screen; at the
    end nothing is left to play, and the column's unused height stood ~100 px blank under the
    result before the log (Seven Waters)."""
    _, ended = tables
    tab = tabs(locale)
    page = tab.open(server, ended[game]["seats"][0]["link"], "phone")
    page.wait_for_selector("#turn[data-terminal='1']")
    m = page.evaluate(END_GAP)
    assert m["sideTop"] - m["contentBottom"] <= BLANK, (
        f"{game} ({locale}): {m['sideTop'] - m['contentBottom']:.0f} px blank between the result and the log")
    assert not tab.errors
