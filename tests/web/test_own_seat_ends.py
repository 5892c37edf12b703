"""A game's end names the reader's own seat as the rest of the page does ("Seat 1 (you)",
„Platz 1 (du)"): the score tables' seat heads (Wasserloch's and Seven Waters' columns,
Wildwasser's rows) said "Seat 1" to seat 1 itself, and the tie-break line under who won
(Wildwasser's "… the better turtle place decides for seat 1.", WW-5.3; Seven Waters' "… the
larger pool decides: seat 1 wins.", SW-5.3) named the winner as a stranger, while the line
above it said "Won by: seat 1 (you)".  A player had to remember their seat number.  Now the
heads and the tie-break mark the own seat on screen and in the accessibility tree, in
English and German; a spectator's keep the plain seat words.

The finished tables are played by the engine (seeded random games, their records written
into the server's database before it starts): over HTTP a tie broken by a podium or by
the pools would be luck."""

from __future__ import annotations

import os
import random

import pytest

from wasserspiele import load
from wasserspiele.core.messages import render

from .browser_support import CHROMIUM, Server, browser, store_finished  # noqa: F401
from .browser_support import tab_pool, tabs  # noqa: F401

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

LOCALES = {"en": "en-US", "de": "de-DE"}
SPECIES = ("cheetah", "zebra", "rhino", "meerkat", "turtle")
TIE_ORDER = ("turtle", "meerkat", "rhino", "zebra", "cheetah")    # WW-5.3


def played(state, seed: int):
    """`state` played to its end by seeded random moves."""
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.to_move()[0]
        state.apply(rng.choice(list(state.legal_actions(seat))), seat)
    return state


def wildwasser_tie_by_podium():
    """WW-5.3: a game of three whose best total is shared and a podium place decides it."""
    for seed in range(300):
        state = played(load("wildwasser", players=3).new_game(rng=random.Random(f"own-end:{seed}")), seed)
        scores = state.scores()
        if scores.count(max(scores)) > 1 and len(state.winners()) == 1:
            return state
    raise RuntimeError("no Wildwasser game of 300 ended in a tie a podium broke")


def seven_waters_by_pool():
    """SW-5.3: a game whose equal totals the larger pool decides, won by seat 1 (so that
    the winner is not simply the first column)."""
    for seed in range(400):
        state = played(load("seven_waters").new_game(seed=seed), seed)
        if state.view(None)["decided_by"] == "pool" and state.winners() == [1]:
            return state
    raise RuntimeError("no Seven Waters game of 400 was decided by the pools for seat 1")


def wasserloch_over():
    return played(load("wasserloch", players=3, rounds=1).new_game(seed=4), 4)


@pytest.fixture(scope="module")
def ended(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("own_seat_ends")
    url = f"sqlite:///{tmp / 'ends.sqlite3'}"
    games = {"ownww": wildwasser_tie_by_podium(), "ownsw": seven_waters_by_pool(), "ownwl": wasserloch_over()}
    for table_id, state in games.items():
        store_finished(url, state, table_id)
    srv = Server(url, log_path=str(tmp / "server.log")).start()
    try:
        yield srv, games
    finally:
        srv.stop()


def seat_words(seat: int, reader: int | None, lang: str, in_text: bool = False) -> str:
    """A seat as the page of `reader` (None: a spectator) should name it: its own marked."""
    word = render("web.seat_in_text" if in_text else "web.seat", {"n": seat}, lang)
    return f"{word} ({render('web.you', {}, lang)})" if seat == reader else word


def number(x):
    return int(x) if float(x).is_integer() else x


def open_end(tab_pool, srv, table_id: str, reader: int | None, lang: str):
    """The finished table as `reader` (a seat, None: a spectator) sees it, in the module's
    tab of `lang`: the page and that load's uncaught errors."""
    link = f"/table/{table_id}" + ("" if reader is None else f"#seat={reader}&token={table_id}-{reader}")
    tab = tab_pool(LOCALES[lang])
    page = tab.open(srv, link, "desktop", "#result table.score")
    page.wait_for_selector("#result")
    return page, tab.errors


def heads(page, scope: str) -> list[str]:
    return page.eval_on_selector_all(f"#result table.score th[scope={scope}]:not(.word)",
                                     "ths => ths.map((th) => th.textContent.trim())")


def aria(page, selector: str) -> str:
    return page.locator(selector).aria_snapshot()


def check_heads(page, scope: str, seats: int, reader: int | None, lang: str) -> None:
    expected = [seat_words(s, reader, lang) for s in range(seats)]
    assert heads(page, scope) == expected, (reader, heads(page, scope), expected)
    # a screen reader is given the same words as the heads of the cells
    role = {"col": "columnheader", "row": "rowheader"}[scope]
    tree = aria(page, "#result table.score")
    for words in expected:
        assert f'{role} "{words}"' in tree, (words, tree)
    you = f"({render('web.you', {}, lang)})"
    assert sum(you in h for h in heads(page, scope)) == (reader is not None), heads(page, scope)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_ww_5_3_the_tie_break_and_the_points_table_name_the_own_seat_as_yours(tab_pool, ended, lang):
    srv, games = ended
    state = games["ownww"]
    view = srv.get("/api/tables/ownww")["view"]
    scores = view["scores"]
    best = max(scores)
    tied = [s for s, p in enumerate(scores) if p == best]
    (winner,) = state.winners()
    loser = next(s for s in tied if s != winner)
    species = next(sp for sp in TIE_ORDER
                   if len({view["podiums"][sp].index(s) if s in view["podiums"][sp] else 99 for s in tied}) > 1)
    for reader in (winner, loser, None):
        page, errors = open_end(tab_pool, srv, "ownww", reader, lang)
        line = render("wildwasser.web.decided_by", {"n": number(best), "a": render(f"wildwasser.web.sp.{species}", {}, lang),
                                                    "who": seat_words(winner, reader, lang, in_text=True)}, lang)
        assert page.inner_text("#tie-break") == line, (reader, page.inner_text("#tie-break"), line)
        assert line in aria(page, "#result"), (reader, line)
        # the winner's line above it says the same of the seat
        assert seat_words(winner, reader, lang, in_text=True) in page.inner_text("#result .winners")
        check_heads(page, "row", 3, reader, lang)
        assert errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_sw_5_3_the_pool_tie_break_and_the_score_table_name_the_own_seat_as_yours(tab_pool, ended, lang):
    srv, games = ended
    view = srv.get("/api/tables/ownsw")["view"]
    assert view["decided_by"] == "pool" and view["winners"] == [1]
    for reader in (1, 0, None):
        page, errors = open_end(tab_pool, srv, "ownsw", reader, lang)
        line = render("seven_waters.web.by_pool", {"n": view["totals"][0], "who": seat_words(1, reader, lang, in_text=True)}, lang)
        assert page.inner_text("#tie-break") == line, (reader, page.inner_text("#tie-break"), line)
        assert line in aria(page, "#result"), (reader, line)
        check_heads(page, "col", 2, reader, lang)
        assert errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_wl_5_3_the_score_table_names_the_own_seat_as_yours(tab_pool, ended, lang):
    srv, _ = ended
    for reader in (2, 0, None):
        page, errors = open_end(tab_pool, srv, "ownwl", reader, lang)
        check_heads(page, "col", 3, reader, lang)
        assert errors == []
