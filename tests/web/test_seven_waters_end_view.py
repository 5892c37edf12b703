"""The end screen in the browser lays the other seat's hand open (SW-5.1, SW-5.2).

A playtest found the other seat's last hand card drawn as a card back on the end
screen, beside a score table that counts it (-1).  The final view shows every hand now
(test_end_view.py), and the end board draws it face up, as it draws the turned-up theme.
"""

from __future__ import annotations

import os
import random

import pytest

from wasserspiele import load
from wasserspiele.games.seven_waters.heuristic import rollout_policy
from web.browser_support import CHROMIUM, Server, browser, open_page, store_finished  # noqa: F401

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

# every card drawn face up within `root` (a face-up card is wrapped for its animation,
# data-anim "c:QD"), and how many card backs (the blue of a back) it holds
FACES = """(root) => [...document.querySelectorAll(root + ' [data-anim^="c:"]')].map((g) => g.dataset.anim.slice(2))"""
BACKS = """(root) => document.querySelectorAll(root + ' .card > rect[fill="#3d8fc4"]').length"""


def _ending_with_a_card_in_hand():
    """A game the heuristic played to its end for both seats in which seat 1 kept cards."""
    game = load("seven_waters")
    for seed in range(50):
        s = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply(rollout_policy(s, s.current_seat, rng), s.current_seat)
        if s.hands[1]:
            return s
    raise RuntimeError("no ending in 50 games left seat 1 a card")


@pytest.fixture(scope="module")
def ended(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("sw_end_view")
    url = f"sqlite:///{tmp / 'end.sqlite3'}"
    state = _ending_with_a_card_in_hand()
    store_finished(url, state, "swend")
    srv = Server(url, log_path=str(tmp / "server.log")).start()
    try:
        yield srv, state
    finally:
        srv.stop()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_sw_5_1_end_view_the_other_seats_hand_is_drawn_face_up(browser, ended, size):  # noqa: F811
    """Seat 0's end screen: seat 1's cards left in hand are drawn face up in its park (on
    the board beside seat 0's park at 1280 × 800, in the side column on a phone), and
    neither park shows a card back any more (the themes are turned up too)."""
    server, state = ended
    ctx, page, errors = open_page(browser, server, "/table/swend#seat=0&token=swend-0", size, "de-DE")
    page.wait_for_selector("#rematch")
    root = "#board"
    if size == "phone":   # the other park is in the side column, folded
        page.click("#side details:has([data-park]) summary")
        page.wait_for_selector("[data-park] svg")
        root = "[data-park]"
    faces = page.evaluate(FACES, root)
    assert all(c.name in faces for c in state.hands[1]), (faces, state.hands[1])
    assert state.theme[1] is None or state.theme[1].name in faces
    assert page.evaluate(BACKS, root) == 0
    assert errors == []
    ctx.close()
