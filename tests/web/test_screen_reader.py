"""A player who cannot see the screen, at each game's table in English and German: what a
sighted player sees and a screen reader could not tell, read here from the accessibility
tree (the accessible names of the pieces, the pictures' groups) and the live region
(#announce).  The other seat's park in Seven Waters and Wildwasser's podiums were single
pictures with a title and nothing in them; off turn no pyramid card said whether it was
free; a Wildwasser seat chip's name (the game's, for a choice) hid "you", the start marker
and who had chosen; Watten's trump was the symbol alone ("Trump ♦"); and a turn that
stayed with the player past a round's end was not told."""

from __future__ import annotations

import os
import random

import pytest

from wasserspiele.core.messages import render

from .browser_support import CHROMIUM, Server, browser, finished_table, mid_game_table, serving  # noqa: F401
from .browser_support import ANNOUNCEMENTS as RECORD, card_name
from .browser_support import tab_pool, tabs  # noqa: F401

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

LOCALES = {"en": "en-US", "de": "de-DE"}
# the accessible names of the elements under `root` that a screen reader names (role and
# aria-label), in document order
NAMES = """(root) => [...document.querySelectorAll(root + ' [aria-label]')]
  .map((n) => ({ role: n.getAttribute('role'), key: n.dataset.key || null, name: n.getAttribute('aria-label') }))"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "screen_reader", tables_per_client=200)


def open_page(tab_pool, server, link, locale, size="desktop"):
    """The module's tab of `locale` (its live region recorded) at `link`: the page and
    that load's uncaught errors."""
    tab = tab_pool(LOCALES[locale], script=RECORD)
    return tab.open(server, link, size), tab.errors


# ---------------------------------------------------------------- Seven Waters
@pytest.fixture(scope="module")
def seven_waters(server):
    return mid_game_table(server, "seven_waters", 20)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_sw_3_2_every_free_pyramid_card_says_it_is_free_also_off_turn(tab_pool, server, seven_waters, lang):
    # seat 1 waits: every card is disabled, and only the pictures' overlap showed which were free
    pyramid = server.get(f"/api/tables/{seven_waters['id']}")["view"]["pyramid"]
    free = {f"pyr:{r + 1}-{c + 1}" for r, row in enumerate(pyramid) for c, code in enumerate(row)
            if code and (r == len(pyramid) - 1 or (pyramid[r + 1][c] is None and pyramid[r + 1][c + 1] is None))}
    word = {"en": ", free,", "de": ", frei,"}[lang]
    page, errors = open_page(tab_pool, server, seven_waters["seats"][1]["link"], lang)
    page.wait_for_selector("#turn[data-mine='0']")
    named = {n["key"]: n["name"] for n in page.evaluate(NAMES, "#board") if (n["key"] or "").startswith("pyr:")}
    assert set(named) == {f"pyr:{r + 1}-{c + 1}" for r, row in enumerate(pyramid) for c, code in enumerate(row) if code}
    assert {k for k, name in named.items() if word in name} == free, named
    assert free and len(free) < len(named)      # a position with covered cards, so the words tell apart
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_other_seats_park_is_read_card_by_card(tab_pool, server, seven_waters, lang):
    other = server.get(f"/api/tables/{seven_waters['id']}")["view"]["players"][0]
    cards = [c for line in other["lines"] for c in line] + [c for slide in other["slides"] if slide for c in slide] \
        + other["river"] + other["pool"] + ([other["theme"] or "##"] if other["theme_placed"] else [])
    page, errors = open_page(tab_pool, server, seven_waters["seats"][1]["link"], lang)
    page.wait_for_selector("#park-0-title")
    page.focus("#park-0-title")
    page.keyboard.press("Enter")                 # the panel opens by keyboard
    page.wait_for_function("() => document.querySelector('#park-0').open")
    tree = page.locator("#park-0").aria_snapshot()
    names = [n["name"] for n in page.evaluate(NAMES, "#park-0") if n["role"] == "img"]
    hidden = render("web.card_hidden", {}, lang)
    assert sorted(names) == sorted(hidden if c == "##" else card_name(c, lang) for c in cards), tree
    assert f'group "{page.inner_text("#park-0-title")}"' in tree   # a group of cards, not one picture
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_sw_2_2_a_joker_is_named_by_its_declaration_in_a_slide_a_river_and_a_pool(tab_pool, server, seven_waters,
                                                                              lang):
    """SW-2.2: a joker stands for a value 1–10 in a slide, a rank in a river, a suit in a pool.
    The page named a slide's 10 or 1 and every pool's joker "joker standing for rank_10" (the
    catalogue has ranks A 2 … 9 T J Q K): it showed on a random deal's park."""
    page, errors = open_page(tab_pool, server, seven_waters["seats"][1]["link"], lang)
    page.wait_for_selector("#board svg")
    codes = ["X1=1", "X1=7", "X1=10", "X2=A", "X2=T", "X2=K", "X1=C", "X2=H", "X1", "KS"]
    named = page.evaluate("async (codes) => { const m = await import('/static/svg.js'); return codes.map(m.cardName); }",
                          codes)
    assert named == [card_name(c, lang) for c in codes]
    for code, name in zip(codes, named):
        assert "_" not in name and name.strip(), (code, name)
    stands = render("web.card_joker_as", {"r": "10"}, lang)
    assert named[2] == stands and render("web.suit_H", {}, lang) in named[7]
    assert errors == []


# ---------------------------------------------------------------- Wildwasser
@pytest.fixture(scope="module")
def wildwasser_placed(server):
    """A finished Wildwasser race with animals on the podiums (the same for both languages:
    a page only looks at it) and the seats placed, in the podiums' order."""
    for seed in range(3, 13):                   # a race may end with no animal home (WW-5.2)
        table = finished_table(server, "wildwasser", {"players": 3}, seed=seed)
        podiums = server.get(f"/api/tables/{table['id']}")["view"]["podiums"]
        placed = [seat for sp in ("cheetah", "zebra", "rhino", "meerkat", "turtle") for seat in podiums.get(sp, [])
                  if seat is not None]
        if placed:
            break
    return table, placed


@pytest.mark.parametrize("lang", ["en", "de"])
def test_wildwasser_podiums_say_whose_animal_stands_on_each_place(tab_pool, server, wildwasser_placed, lang):
    table, placed = wildwasser_placed
    assert placed
    page, errors = open_page(tab_pool, server, table["seats"][0]["link"], lang)
    page.wait_for_selector("#podiums-title")
    page.focus("#podiums-title")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#podiums').open")
    names = [n["name"] for n in page.evaluate(NAMES, "#podiums") if n["role"] == "img"]
    assert names == [render("web.seat", {"n": seat}, lang) for seat in placed]
    assert page.eval_on_selector("#podiums svg", "s => s.getAttribute('role')") == "group"
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_ww_3_1_a_seat_chip_says_you_the_start_marker_and_who_has_chosen(tab_pool, server, lang):
    table = server.post("/api/tables", {"game": "wildwasser", "options": {"players": 3}, "seats": [{"kind": "human"}] * 3})
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    page, errors = open_page(tab_pool, server, table["seats"][0]["link"], lang)
    page.wait_for_selector("#turn[data-mine='1']")
    spectator = server.get(f"/api/tables/{table['id']}")
    marker = spectator["view"]["start_marker"]
    # seat 2 picks (a secret card): its chip shows that it has chosen
    two = server.get(f"/api/tables/{table['id']}", tokens[2])
    server.post(f"/api/tables/{table['id']}/moves", {"action": two["legal"][0], "n": two["n"]}, tokens[2])
    chosen = render("web.chosen", {}, lang)
    # as the chip shows it; then what its name says
    page.wait_for_function("(w) => document.querySelector(\"#seats [data-seat='2'] .state\")?.textContent.includes(w)",
                           arg=chosen)
    names = {int(k.split(":")[1]): n for k, n in ((x["key"], x["name"]) for x in page.evaluate(NAMES, "#seats") if x["key"])}
    assert render("web.you", {}, lang) in names[0].split("; ")
    assert render("wildwasser.web.chip_marker", {}, lang) in names[marker]
    assert all(render("wildwasser.web.chip_marker", {}, lang) not in n for s, n in names.items() if s != marker)
    assert chosen in names[2] and all(chosen not in names[s] for s in (0, 1)), names
    assert errors == []


# ---------------------------------------------------------------- Watten
@pytest.mark.parametrize("lang", ["en", "de"])
def test_watten_trump_is_named_by_its_suits_word_on_the_buttons_and_the_table(tab_pool, server, lang):
    table = server.post("/api/tables", {"game": "watten", "seats": [{"kind": "human"}] * 4})
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    caller = server.get(f"/api/tables/{table['id']}")["waiting"][0]
    page, errors = open_page(tab_pool, server, table["seats"][caller]["link"], lang)
    page.wait_for_selector("#actions button[data-action^='trump ']")
    buttons = page.eval_on_selector_all("#actions button[data-action^='trump ']",
                                        "bs => bs.map(b => [b.dataset.action, b.textContent, b.getAttribute('aria-label')])")
    for action, text, name in buttons:
        # the visible words stay in the name (WCAG 2.5.3), the suit's word after them
        assert name and name.startswith(text) and render(f"web.suit_{action.split()[1]}", {}, lang) in name, buttons
    page.focus(f"#actions button[data-action='{buttons[0][0]}']")
    page.keyboard.press("Enter")
    suit = buttons[0][0].split()[1]
    page.wait_for_selector("#board [data-trump][aria-label]")
    name = page.get_attribute("#board [data-trump]", "aria-label")
    assert render(f"web.suit_{suit}", {}, lang) in name and page.text_content("#board [data-trump]") in name
    assert f'img "{name}"' in page.locator("#board").aria_snapshot()
    assert errors == [] and tokens


# ---------------------------------------------------------------- whose turn
def wasserloch_round_ender(server: Server) -> tuple[dict, str]:
    """Two humans over HTTP, two rounds: seat 1 to move with the pile empty and a hand of one
    value, so that its play empties the hand and ends round 1 (WL-5.2), and seat 1 begins
    round 2 (WL-5.5: the start player moves one seat on).  Returns the table and that play."""
    rng = random.Random(5)
    for _ in range(60):
        table = server.post("/api/tables", {"game": "wasserloch", "options": {"players": 2, "rounds": 2, "first_player": 0},
                                            "seats": [{"kind": "human"}, {"kind": "human"}]})
        tokens = {s["seat"]: s["token"] for s in table["seats"]}
        for _ in range(200):
            spectator = server.get(f"/api/tables/{table['id']}")
            if spectator["view"]["round"] != 1:
                break
            seat = spectator["waiting"][0]
            mine = server.get(f"/api/tables/{table['id']}", tokens[seat])
            hand = mine["view"]["hand"]
            everything = [a for a in mine["legal"] if int(a.split("x")[1]) == sum(hand)]
            if seat == 1 and spectator["view"]["pile"] == 0 and everything:
                return table, everything[0]
            # seat 0 keeps a card back where it can, so that seat 1 empties its hand first
            keep = [a for a in mine["legal"] if seat == 1 or int(a.split("x")[1]) < sum(hand)]
            server.post(f"/api/tables/{table['id']}/moves", {"action": rng.choice(keep or mine["legal"]), "n": mine["n"]},
                        tokens[seat])
    raise AssertionError("no deal where seat 1 ends round 1 within 60 tables")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_wl_5_5_the_rounds_end_and_the_turn_that_stays_past_it_are_announced(tab_pool, server, lang):
    # the seat whose play ended round 1 begins round 2: it heard its play, not the round's
    # points (a box a sighted player sees appear) nor whose turn it is
    table, last = wasserloch_round_ender(server)
    page, errors = open_page(tab_pool, server, table["seats"][1]["link"], lang)
    page.wait_for_selector("#turn[data-mine='1']")
    n = page.get_attribute("#turn", "data-n")
    value = last.split("x")[0]
    page.focus(f"#hand [data-key='v:{value}']")
    page.keyboard.press("Enter")                 # the whole hand is one value: one play, or a count to choose
    # the move went, or buttons offer its counts (a move on its way shows its button, busy)
    page.wait_for_function("(n) => document.querySelector('#turn').dataset.n !== n "
                           "|| (!document.querySelector('#actions[aria-busy]') "
                           "    && !!document.querySelector('#actions button[data-action]'))", arg=n)
    if page.get_attribute("#turn", "data-n") == n:
        page.focus(f"#actions button[data-action='{last}']")
        page.keyboard.press("Enter")
    page.wait_for_function("(n) => document.querySelector('#turn').dataset.n !== n", arg=n)
    page.wait_for_selector("#turn[data-mine='1']")
    spectator = server.get(f"/api/tables/{table['id']}")
    assert spectator["view"]["round"] == 2 and spectator["waiting"] == [1]
    your_turn = render("web.your_turn", {}, lang)
    try:
        page.wait_for_function("(w) => window.__said.includes(w)", arg=your_turn, timeout=5000)
    except sync_api.TimeoutError:
        pass  # the assertion below shows what was said
    said = page.evaluate("window.__said")
    assert said.count(your_turn) == 1 and said[-1] == your_turn, said
    view = spectator["view"]
    summary = [render("wasserloch.web.round_over", {"r": 1}, lang) + "."] + [
        # the page's own seat (1) as its chip says it, "Seat 1 (you)"
        render("wasserloch.web.round_line", {"who": render("web.seat", {"n": seat}, lang)
                                             + (f" ({render('web.you', {}, lang)})" if seat == 1 else ""),
                                             "p": p, "total": view["scores"][seat]}, lang)
        for seat, p in enumerate(view["loot"][0])]
    assert said[-1 - len(summary):-1] == summary, said
    assert page.evaluate("() => document.activeElement !== document.body")
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_wa_4_2_the_standing_after_a_hand_is_announced(tab_pool, server, lang):
    # the log's line says which team took the hand; the score it leaves stood only in the
    # summary box (beside the board, below it on a phone)
    table = server.post("/api/tables", {"game": "watten", "seats": [{"kind": "human"}] * 4})
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    page, errors = open_page(tab_pool, server, table["seats"][0]["link"], lang)
    page.wait_for_selector("#turn")
    for _ in range(80):
        spectator = server.get(f"/api/tables/{table['id']}")
        if spectator["view"]["results"]:
            break
        seat = spectator["waiting"][0]
        mine = server.get(f"/api/tables/{table['id']}", tokens[seat])
        phase = spectator["view"]["phase"]
        action = "trump H" if phase == "trump" else "signal none" if phase == "signal" else \
            next(a for a in mine["legal"] if a not in ("raise", "concede"))
        server.post(f"/api/tables/{table['id']}/moves", {"action": action, "n": mine["n"]}, tokens[seat])
    scores = spectator["view"]["scores"]
    team = lambda k: f"{render('web.seat_in_text', {'n': k}, lang)} + {render('web.seat_in_text', {'n': k + 2}, lang)}"
    # seat 0's page: its own team is "your team" (test_own_seat_words.py), the other by its seats
    standing = [render("watten.web.team_points.you_team" if k == 0 else "watten.web.team_points",
                       {"team": team(k), "n": scores[k]}, lang) for k in (0, 1)]
    try:
        page.wait_for_function("(w) => w.every((x) => window.__said.includes(x))", arg=standing, timeout=10_000)
    except sync_api.TimeoutError:
        pass  # the assertion below shows what was said
    said = page.evaluate("window.__said")
    assert all(said.count(x) == 1 for x in standing), (standing, said)
    assert errors == []


# tables the pages below only look at: built once for both languages
@pytest.fixture(scope="module")
def wildwasser_mid(server):
    return mid_game_table(server, "wildwasser")


@pytest.fixture(scope="module")
def wasserloch_mid(server):
    return mid_game_table(server, "wasserloch")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_ww_4_5_each_field_of_the_track_says_what_it_is(tab_pool, server, wildwasser_mid, lang):
    # "22 ▤" and a deep-blue square were all a screen reader had of a field: its symbol's
    # meaning stood in a tooltip, a crossing without a tile in its colour alone
    table = wildwasser_mid
    track = server.get(f"/api/tables/{table['id']}")["view"]["track"]
    expected = []
    for f in track:
        what = render(f"wildwasser.web.field_icon.{f['icon']}" if f["icon"] else "wildwasser.web.field_n", {"f": f["field"]}, lang)
        if "crossing" in f:
            what = render("wildwasser.web.field_crossing" if f["passable"] else "wildwasser.web.field_no_tile",
                          {"s": what, "k": f["crossing"]}, lang)
        expected.append(what)
    assert any("crossing" in f for f in track)
    page, errors = open_page(tab_pool, server, table["seats"][0]["link"], lang)
    page.wait_for_selector("#turn[data-mine='1']")
    names = [n["name"] for n in page.evaluate(NAMES, "#board") if n["role"] == "img"]
    assert [n for n in names if n in expected] == expected, names
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_seats_score_is_named_not_a_bare_number(tab_pool, server, wasserloch_mid, lang):
    table = wasserloch_mid
    scores = server.get(f"/api/tables/{table['id']}")["view"]["scores"]
    page, errors = open_page(tab_pool, server, table["seats"][0]["link"], lang)
    page.wait_for_selector("#turn[data-mine='1']")
    tree = page.locator("#seats").aria_snapshot()
    word = render("web.score", {}, lang)
    assert all(f"{word}: {n}" in tree for n in scores), tree
    assert [page.inner_text(f"#seats [data-seat='{k}'] .score") for k in range(len(scores))] == [str(n) for n in scores]
    assert errors == []
