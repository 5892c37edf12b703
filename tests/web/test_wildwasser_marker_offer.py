"""Wildwasser: a seat chip is chosen to put the start marker on that team card (WW-3.2: the
cheetah's action; WW-4.3: a start-marker field).  Only the hint line below the board said
so; while that choice is open, the chip itself now says what choosing it does: in its
accessible name, its tooltip and a visible cue on it, in English and German."""

from __future__ import annotations

import os

import pytest

from .browser_support import CHROMIUM, browser, cut_chip_parts, open_page, serving  # noqa: F401
from .browser_support import wildwasser_marker_choice

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

WORDS = {"en-US": ("Choose this seat to give it the start marker", "⚑ here"),
         "de-DE": ("Wähle diesen Platz, um ihm den Startmarker zu geben", "⚑ hierher")}
# the player's own chip (WW-4.3: a start-marker field offers the own team card too): said as
# theirs, to take the marker or, where it lies already, to keep it
OWN = {"en-US": ("Choose your own seat to take the start marker yourself", "Choose your own seat to keep the start marker"),
       "de-DE": ("Wähle deinen eigenen Platz, um den Startmarker selbst zu nehmen",
                 "Wähle deinen eigenen Platz, um den Startmarker zu behalten")}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "ww_offer")


def marker_choice(server) -> tuple[dict, int, list[int]]:
    """A seat that may put the start marker on a team card: the table, that seat, and the
    seats it may give the marker to."""
    return wildwasser_marker_choice(server, lambda table, seat, legal, targets, token: (table, seat, targets))


CHIPS = """chips => chips.map(c => ({ seat: +c.dataset.seat, title: c.getAttribute('title'),
  label: c.getAttribute('aria-label'), cue: c.querySelector('.ww-cue')?.textContent ?? null,
  cueSeen: (() => { const q = c.querySelector('.ww-cue'); if (!q) return false; const b = q.getBoundingClientRect();
                    return b.width > 0 && b.height > 0 && getComputedStyle(q).visibility === 'visible'; })() }))"""


@pytest.mark.parametrize("locale", list(WORDS))
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_ww_3_2_a_chip_that_takes_the_start_marker_says_so_on_itself(browser, server, locale, size):
    table, seat, targets = marker_choice(server)
    says, cue = WORDS[locale]
    own = OWN[locale][server.get(f"/api/tables/{table['id']}")["view"]["start_marker"] == seat]
    ctx, page, errors = open_page(browser, server, table["seats"][seat]["link"], size, locale)
    page.wait_for_selector("#seats .seat-chip.clickable")
    chips = page.eval_on_selector_all("#seats .seat-chip", CHIPS)
    for chip in chips:
        if chip["seat"] in targets:
            words = own if chip["seat"] == seat else says
            assert chip["title"] == words, chip
            assert chip["label"].endswith(". " + words), chip
            assert chip["cue"] == cue and chip["cueSeen"], chip
        else:
            assert chip["title"] is None and chip["cue"] is None, chip
    assert cut_chip_parts(page) == []
    # choosing the chip makes the move: the choice is over and the cue goes with it
    n = page.eval_on_selector("#turn", "t => +t.dataset.n")
    page.click(f"#seats .seat-chip[data-seat='{targets[0]}']")
    page.wait_for_function("(n) => +document.querySelector('#turn').dataset.n > n", arg=n)
    page.wait_for_function("() => !document.querySelector('#seats .ww-cue')")
    assert errors == []
    ctx.close()
