"""Wildwasser's podium places beyond the paid ones in the browser (WW-5.3, spec podium
note): with four to six players an animal can finish 4th, 5th or 6th.  It scores 0 but
it has finished, and the tie-break ("a placed turtle beats none") counts it.  The points
table at the end says "4. (+0)" for it (not "+undefined"), and the podium panel draws
every placed animal, beyond the three paid places too; for two or three players the
panel keeps its three boxes a species.

The finished tables are built with the engine (a seeded random game, its record written
into the server's database before the server starts): over HTTP the table's chance is
secret, and whether a species gets four animals home would be luck."""

from __future__ import annotations

import os
import random

import pytest

from wasserspiele import load

from .browser_support import CHROMIUM, SIZES, Server, browser, store_finished, tabs  # noqa: F401

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

SPECIES = ("cheetah", "zebra", "rhino", "meerkat", "turtle")


def finished_game(players: int, want_placed: int):
    """The first seeded random game of `players` that ends with at least `want_placed`
    animals of one species placed (any game, if `want_placed` is 0)."""
    for seed in range(500):
        rng = random.Random(seed)
        state = load("wildwasser", players=players).new_game(rng=random.Random(f"ww-places:{seed}"))
        while not state.is_terminal():
            seat = state.to_move()[0]
            state.apply(rng.choice(list(state.legal_actions(seat))), seat)
        if max(len(v) for v in state.view(None)["podiums"].values()) >= want_placed:
            return state
    raise RuntimeError(f"no game of {players} with {want_placed} animals of a species placed")


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("ww_places")
    url = f"sqlite:///{tmp / 'places.sqlite3'}"
    games = {"six": finished_game(6, 4), "three": finished_game(3, 0)}
    for name, state in games.items():
        store_finished(url, state, f"wwplaces{name}")
    srv = Server(url, log_path=str(tmp / "server.log")).start()
    try:
        views = {name: srv.get(f"/api/tables/wwplaces{name}")["view"] for name in games}
        yield srv, views
    finally:
        srv.stop()


def open_table(tabs, srv, name: str, size: str = "phone", locale: str = "en-US"):
    """The locale's tab at finished table `name`, loaded at `size`, its podium panel opened."""
    tab = tabs(locale)
    page = tab.open(srv, f"/table/wwplaces{name}", size, "#result table.score")
    page.evaluate("() => { document.getElementById('podiums').open = true; }")
    return tab, page


def beyond_paid(view) -> list[tuple[str, int, int]]:
    """(species, place 1-based, seat) of every animal placed beyond the paid places."""
    return [(sp, k + 1, seat) for sp in SPECIES for k, seat in enumerate(view["podiums"][sp])
            if k >= len(view["podium_points"][sp])]


def test_ww_5_3_fourth_place_in_points_table(tabs, tables):
    srv, views = tables
    view = views["six"]
    beyond = beyond_paid(view)
    assert any(place == 4 for _, place, _ in beyond), view["podiums"]  # the position this test needs
    tab, page = open_table(tabs, srv, "six", "desktop")
    cells = page.evaluate("""() => [...document.querySelectorAll('#result table.score tr')].slice(1).map(
        (tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent))""")
    text = page.inner_text("#result")
    assert "undefined" not in text
    for sp, place, seat in beyond:
        assert cells[seat][SPECIES.index(sp)] == f"{place}. (+0)", (sp, place, seat, cells[seat])
    # the paid places keep their points
    for sp in SPECIES:
        for k, seat in enumerate(view["podiums"][sp][:3]):
            assert cells[seat][SPECIES.index(sp)] == f"{k + 1}. (+{view['podium_points'][sp][k]})"
    assert tab.errors == []


def podium_panel(page) -> dict:
    """What the podium panel draws: each box's text, and each animal token's centre and
    letter, in SVG units; the picture's viewBox."""
    return page.evaluate("""() => {
      const svg = document.querySelector('#podiums svg');
      const boxes = [...svg.querySelectorAll('rect')].map((r) => {
        const t = r.nextElementSibling;
        return { x: +r.getAttribute('x'), y: +r.getAttribute('y'), text: t ? t.textContent : '' };
      });
      const tokens = [...svg.querySelectorAll('g[transform]')].map((g) => {
        const m = g.getAttribute('transform').match(/translate\\(([-\\d.]+),([-\\d.]+)\\)/);
        return { x: +m[1], y: +m[2], letter: g.querySelector('text').textContent };
      });
      return { viewBox: svg.getAttribute('viewBox'), boxes, tokens };
    }""")


def test_ww_5_3_every_placed_animal_on_the_podium(tabs, tables):
    srv, views = tables
    view = views["six"]
    placed = sum(len(v) for v in view["podiums"].values())
    tab, page = open_table(tabs, srv, "six", "desktop")
    drawn = podium_panel(page)
    assert len(drawn["tokens"]) == placed
    texts = [b["text"] for b in drawn["boxes"]]
    for sp, place, seat in beyond_paid(view):
        assert f"{place}. +0" in texts
    # each token sits in a box: a box per place, none drawn over another
    spots = {(b["x"], b["y"]) for b in drawn["boxes"]}
    assert len(spots) == len(drawn["boxes"])
    for tok in drawn["tokens"]:
        assert any(b["x"] < tok["x"] < b["x"] + 76 and b["y"] < tok["y"] < b["y"] + 26 for b in drawn["boxes"]), tok
    assert tab.errors == []


def test_ww_5_3_three_players_podium_unchanged(tabs, tables):
    """Two or three players: three boxes a species, in one row each, as before."""
    srv, views = tables
    assert beyond_paid(views["three"]) == []
    tab, page = open_table(tabs, srv, "three", "desktop")
    drawn = podium_panel(page)
    assert drawn["viewBox"] == "0 0 360 190"
    assert len(drawn["boxes"]) == 15
    assert sorted({b["x"] for b in drawn["boxes"]}) == [110, 190, 270]
    assert sorted({b["y"] for b in drawn["boxes"]}) == [10, 40, 70, 100, 130]
    assert "undefined" not in page.inner_text("#result")
    assert tab.errors == []


def table_width(page) -> float:
    return page.evaluate("() => document.querySelector('#result table.score').getBoundingClientRect().width")


@pytest.mark.parametrize("size", list(SIZES))
def test_ww_5_3_places_fit_the_screen(tabs, tables, size):
    """1280 × 800 and 390 × 844, six players, the game over: the page does not scroll
    sideways; the result box and the podium panel (opened) lie within the screen, the
    podium's text at a readable size and clear of the tokens; the points table fits the
    result box and is no wider than for three players."""
    srv, _ = tables
    tab, page = open_table(tabs, srv, "three", size)
    three = table_width(page)
    tab, page = open_table(tabs, srv, "six", size)
    width = SIZES[size][0]
    assert page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
    for sel in ("#result", "#podiums", "#podiums svg"):
        box = page.evaluate("""(sel) => { const b = document.querySelector(sel).getBoundingClientRect();
                                         return [b.left, b.right, b.width, b.height]; }""", sel)
        assert box[0] >= 0 and box[1] <= width, (sel, box)
        assert box[2] > 0 and box[3] > 0, (sel, box)
    # every box of the podium picture lies inside the picture
    outside = page.evaluate("""() => { const svg = document.querySelector('#podiums svg');
        const r = svg.getBoundingClientRect();
        return [...svg.querySelectorAll('rect, text, circle')].map((e) => e.getBoundingClientRect())
          .filter((b) => b.left < r.left - 1 || b.right > r.right + 1 || b.top < r.top - 1 || b.bottom > r.bottom + 1).length; }""")
    assert outside == 0
    # the podium picture is shown at least at 80 % of its drawn size (its text readable)
    scale = page.evaluate("""() => { const svg = document.querySelector('#podiums svg');
                                     return svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; }""")
    assert scale >= 0.8, scale
    assert table_width(page) <= three + 8, (table_width(page), three)
    # the whole table in the result box, on a phone too (species by their initials);
    # it was 587 px wide in German in a 380 px box
    assert page.evaluate("() => { const r = document.querySelector('#result'); return r.scrollWidth <= r.clientWidth; }")
    # no animal's token covers a place's text ("6 Pun●" before)
    covered = page.evaluate("""() => { const svg = document.querySelector('#podiums svg');
        const boxes = (sel) => [...svg.querySelectorAll(sel)].map((e) => e.getBoundingClientRect());
        const texts = [...svg.querySelectorAll(':scope > text')].map((e) => e.getBoundingClientRect());
        const tokens = boxes('circle');  // a token is a circle with its initial inside
        return texts.filter((a) => tokens.some((b) => a.left < b.right && b.left < a.right
                                                     && a.top < b.bottom && b.top < a.bottom)).length; }""")
    assert covered == 0
    assert tab.errors == []


@pytest.mark.parametrize("locale, own", [("en-US", "your own included"), ("de-DE", "auch die eigene")])
def test_ww_3_2_ww_4_3_team_card_tooltip_includes_your_own(tabs, tables, locale, own):
    """Tapping a team card when no move chooses one says when one is chosen: moving the
    start marker, by the cheetah's action (WW-3.2: any card but the one holding it) or a
    start-marker icon (WW-4.3: any card) — your own card included in both (the engine:
    test_ww_3_2_cheetah_moves_5_or_moves_the_start_marker_elsewhere and
    test_ww_4_3_marker_icon_lets_the_owner_choose_any_team_card_including_its_own)."""
    from wasserspiele.core.messages import render

    srv, _ = tables
    table = srv.post("/api/tables", {"game": "wildwasser", "options": {"players": 3},
                                     "seats": [{"kind": "human"}] * 3})
    tab = tabs(locale)
    # seat 0 picks a card: team cards are no choice
    page = tab.open(srv, table["seats"][0]["link"], "phone", "#hand .clickable")
    page.locator("#seats [data-key='team:1']").click(force=True)  # aria-disabled: no choice now
    page.wait_for_selector("#notice.info")
    said = page.inner_text("#notice")
    assert said == render("wildwasser.web.why_team", {}, locale[:2])
    assert said.count(own) == 2, said                   # the cheetah's action and the icon
    assert "another team" not in said and "anderes Team" not in said
    assert tab.errors == []
