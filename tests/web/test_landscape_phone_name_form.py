"""568 × 320 (a small phone held sideways) while the page asks for the player's name.

Measured (a seat's page mid-game, no name given yet, so the name form stands in the top bar):
the form, 32 px high, stood on the title's row and pushed the game's status onto a row of its
own 9.6 px below it (English), or took a row of its own beside the status (German); the hand's
box ended at 343.6 px (English) and 356.2 px (German) in Wasserloch, Watten and Wildwasser,
below the 320 px screen (314.6 and 317.3 px once a name is given).  Seven Waters' board gave
way to it in German, down to its least height, and its hand still ended at 323.1 px.  With
the form on the title's row in both languages and the strips drawn tighter while it is shown
(style.css), the hand ends on the first screen: 316.3 px (Wildwasser 309.9, Seven Waters 287),
English and German alike."""

from __future__ import annotations

import os

import pytest

from .browser_support import CHROMIUM, browser, mid_game_table, serving, tabs  # noqa: F401
from .test_landscape_phones import FOLD, MEASURE, READABLE_TEXT
from .test_reflow_and_zoom import TARGET, settle, small_targets

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

SIZE = (568, 320)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # a table of its own for each case: giving the name at its end names the seat for good
    yield from serving(tmp_path_factory, "landscape_name_form", tables_per_client=50)


# the boxes of the top bar's parts (top, bottom, height), of the header, and of the board
PARTS = """() => Object.fromEntries([['title', '#play .topbar h1'], ['status', '#play .topbar .status-text'],
  ['form', '#name-form'], ['field', '#my-name'], ['save', '#name-form button'], ['hint', '#hint'],
  ['rules', '#rules-link'], ['header', 'header'], ['board', '#board']].map(([k, sel]) => {
  const b = document.querySelector(sel)?.getBoundingClientRect();
  return [k, b ? {top: b.top, bottom: b.bottom, height: b.height, right: b.right} : null];
}))"""


@pytest.mark.parametrize("game", ["wasserloch", "watten", "wildwasser", "seven_waters"])
@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_at_568_by_320_the_hand_ends_on_the_first_screen_while_the_name_is_asked_for(tabs, server, game,
                                                                                     locale):
    """No name given yet: the form stands on the title's row (in German it took a row of its
    own), the status on the line under it, and the hand's box ends on the first screen; the
    form's field and button, the hint button and the rules link stay targets (WCAG 2.5.8), the
    board's places too and its words legible (Seven Waters: its board as large as once the
    name is given), nothing scrolls sideways.  Once the name is saved the page is as it was
    without the form: the hand still on the first screen, the board no smaller."""
    table = mid_game_table(server, game)
    # (the name saved below is in the tab's storage, which its next link clears)
    tab = tabs(locale)
    page = tab.open(server, table["seats"][0]["link"], SIZE, wait_for="#turn[data-mine='1']")
    page.wait_for_selector("#board svg")
    page.wait_for_selector("#name-form")
    settle(page)
    parts = page.evaluate(PARTS)
    # the form on the title's row, the status below them both
    assert parts["form"]["top"] < parts["title"]["bottom"], parts
    assert parts["status"]["top"] >= parts["title"]["bottom"] - 1, parts
    assert max(parts[k]["right"] for k in ("form", "hint", "rules")) <= SIZE[0], parts
    fold = page.evaluate(FOLD)
    assert fold["cards"] is not None and fold["cards"] <= fold["hand"] + 0.5, fold
    assert fold["hand"] <= SIZE[1], fold
    assert min(parts[k]["height"] for k in ("field", "save", "hint")) >= TARGET, parts
    assert small_targets(page) == []
    m = page.evaluate(MEASURE)
    if game != "seven_waters":
        # (Seven Waters' board is drawn as without the form, below: its words are its own matter)
        assert [w for w in m["words"] if w[1] < READABLE_TEXT - 0.05] == [], m["words"][:5]
        assert [c for c in m["choices"] if c[1] < TARGET] == [], m["choices"]
    assert m["sideways"] <= 0
    asked = parts["board"]["height"]

    page.fill("#my-name", "Anna")
    page.click("#name-form button")
    page.wait_for_selector("#name-form", state="detached")
    settle(page)
    fold = page.evaluate(FOLD)
    assert fold["hand"] <= SIZE[1], fold
    named = page.evaluate(PARTS)
    assert named["header"]["height"] == pytest.approx(32, abs=0.5), named   # as before the form's rules
    assert asked >= named["board"]["height"] - 0.5, (asked, named["board"])
    assert page.evaluate(MEASURE)["sideways"] <= 0
    assert tab.errors == []
