"""On a wide screen (1024 × 768, 1280 × 800, 1440 × 900, 1920 × 1080) the board's box fits the board drawn
in it, as a spectator, in the replay and as a player, in English and German.

The table fills one screen and the board took whatever room the other parts left.  Seven
Waters' board (the pyramid beside the shown park) is drawn about 2.2 times as wide as high,
across the column: the box was taller than the picture, which, centred in it, left 100–137 px
blank above and as much below it for a spectator and in the replay (between the seat chips
and the board, and under it), 31–49 px at a player's table.  The other games' boards are
drawn as high as their box (narrower than the column) and stay so.  Measured in the browser:
the viewBox's picture drawn into the box (preserveAspectRatio meet) against the box.
"""

from __future__ import annotations

import os

import pytest

from .browser_support import (BOARD_MEASURE, CHROMIUM, GAMES, browser, finished_table,  # noqa: F401
                              mid_game_table, serving, tabs)

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

# 1024 × 768: a tablet held across, the narrowest screen with the log beside the table
WIDE = {"1024x768": (1024, 768), "1280x800": (1280, 800), "1440x900": (1440, 900), "1920x1080": (1920, 1080)}
NARROW = (700, 900)  # below the 760 px where the log moves under the table (style.css)
LOCALES = ["en-US", "de-DE"]
BLANK = 4           # px of the box above or below the drawn board: rounding, not a band
REPLAY_STEPS = 3    # the replay is looked at a few moves in, a position with pieces out


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "board_fits_wide", tables_per_client=50)


@pytest.fixture(scope="module")
def tables(server):
    middle = {g: mid_game_table(server, g) for g in GAMES}
    ended = {"seven_waters": finished_table(server, "seven_waters")}
    return middle, ended


def open_wide(tabs, server, link: str, size: str, locale: str):
    """The locale's tab at `link`, loaded at `size`, its board drawn."""
    tab = tabs(locale)
    page = tab.open(server, link, WIDE[size])
    page.wait_for_selector("#board svg")
    return tab, page


def assert_fits(m: dict, where: str) -> None:
    assert m["above"] <= BLANK and m["below"] <= BLANK, (
        f"{where}: {m['above']:.0f} px blank above the board and {m['below']:.0f} px below it "
        f"(box {m['box']:.0f} px, board drawn {m['drawn']:.0f} px)")
    # the table stays one screen: nothing scrolls
    assert m["down"] <= 0 and m["sideways"] <= 0, f"{where}: the page scrolls ({m['down']}, {m['sideways']} px)"


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("size", list(WIDE))
def test_a_spectator_s_seven_waters_board_on_a_wide_screen_has_no_blank_band(tabs, server, tables, size, locale):
    middle, _ = tables
    tab, page = open_wide(tabs, server, middle["seven_waters"]["spectator_link"], size, locale)
    assert_fits(page.evaluate(BOARD_MEASURE), f"spectator {size} ({locale})")
    assert not tab.errors


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("size", list(WIDE))
def test_the_seven_waters_replay_s_board_on_a_wide_screen_has_no_blank_band(tabs, server, tables, size, locale):
    _, ended = tables
    tab, page = open_wide(tabs, server, f"/replay/{ended['seven_waters']['id']}", size, locale)
    for k in range(1, REPLAY_STEPS + 1):
        page.click("#next")
        page.wait_for_selector(f"#turn[data-n='{k}']")
        assert_fits(page.evaluate(BOARD_MEASURE), f"replay step {k} {size} ({locale})")
    assert not tab.errors


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("size", list(WIDE))
def test_a_player_s_seven_waters_board_on_a_wide_screen_fits_and_the_hand_and_buttons_follow_on_the_screen(
        tabs, server, tables, size, locale):
    middle, _ = tables
    tab, page = open_wide(tabs, server, middle["seven_waters"]["seats"][0]["link"], size, locale)
    m = page.evaluate(BOARD_MEASURE)
    assert_fits(m, f"player {size} ({locale})")
    # a Seven Waters seat may hold no card at this point (the deal is the server's)
    assert m["actionsBottom"] is not None, m
    assert (m["handBottom"] or 0) <= m["screen"] and m["actionsBottom"] <= m["screen"], m
    assert not tab.errors


@pytest.mark.parametrize("game", [g for g in GAMES if g != "seven_waters"])
def test_the_other_games_boards_on_a_wide_screen_stay_as_high_as_their_box(tabs, server, tables, game):
    """Their pictures are drawn as high as the box (narrower than the column): nothing to fit."""
    middle, _ = tables
    for role, link in (("spectator", middle[game]["spectator_link"]), ("player", middle[game]["seats"][0]["link"])):
        tab, page = open_wide(tabs, server, link, "1920x1080", "en-US")
        assert_fits(page.evaluate(BOARD_MEASURE), f"{game} {role}")
        assert not tab.errors, role


def test_a_wide_screen_s_board_is_fitted_anew_when_the_window_changes_its_size(tabs, server, tables):
    """A window made larger, smaller, narrow (the log below the table: the column's least
    height is fitted there, not its height) and wide again: the box is fitted to each wide
    size, the hand and the move bar stay on the screen and the page does not scroll."""
    middle, _ = tables
    tab, page = open_wide(tabs, server, middle["seven_waters"]["seats"][0]["link"], "1280x800", "en-US")
    for size in ("1920x1080", "1280x800", "narrow", "1440x900"):
        w, h = WIDE.get(size, NARROW)
        if size == "narrow":
            page.set_viewport_size({"width": w, "height": h})
            page.wait_for_function(f"innerWidth === {w}")
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => r(true)))")
            # the narrow layout sets a least height, never the wide screen's height
            assert page.evaluate("() => document.getElementById('play').style.height") == ""
            continue
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_function(f"innerHeight === {h} && innerWidth === {w}")
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => r(true)))")  # the resize handled
        m = page.evaluate(BOARD_MEASURE)
        assert_fits(m, f"player resized to {size}")
        assert (m["handBottom"] or 0) <= m["screen"] and m["actionsBottom"] <= m["screen"], (size, m)
    assert not tab.errors
