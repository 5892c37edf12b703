"""The browser table as a blind player meets it, where the page's own seat was spoken as a
stranger's or a sign was read instead of a word (what the last screen-reader pass left):

* Watten: a hand's result said "tricks 1:4", team 0 : team 1 whoever read it, so seat 1
  heard "your team scores 1 point (…; tricks 1:4)" with its own team's four tricks second,
  and a spectator's table showed "Tricks 1 : 4" with nothing to say whose were whose;
* Wasserloch: a move button's words, which are its accessible name, were "play 2 × 3",
  read "play 2 times 3" (NVDA's symbol table), a product;
* Wildwasser: the own seat's chip, offered to take the start marker (WW-4.3), said
  "Choose this seat to give it the start marker" as any other seat's chip does;
* a round's points, seat by seat (Wasserloch's heard, Wildwasser's shown): "Seat 1: +2
  this round" to seat 1 itself, where its chip says "Seat 1 (you)";
* Wasserloch's panel of the cards driven off: "3×2", read "3 times 2".

English and German."""

from __future__ import annotations

import os
import random
import re

import pytest

from wasserspiele.core.messages import render

from .browser_support import ANNOUNCEMENTS, CHROMIUM, browser, move, serving, wait_to_hear  # noqa: F401
from .browser_support import tab_pool, tabs  # noqa: F401
from .browser_support import wildwasser_marker_choice

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

LOCALES = {"en": "en-US", "de": "de-DE"}
VALUES = ["A", "2", "3", "4", "5", "6", "7", "8"]
# the count's words ("ein Ass", das Ass, but "eine 3", die Drei)
NUMBER_WORDS = {"en": {1: {"one"}, 2: {"two"}, 3: {"three"}, 4: {"four"}, 5: {"five"}},
                "de": {1: {"eine", "ein"}, 2: {"zwei"}, 3: {"drei"}, 4: {"vier"}, 5: {"fünf"}}}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "screen_reader_own_seat", tables_per_client=200)


def page_of(tab_pool, server, link, lang, size="desktop", k=0):
    """The module's k-th tab of `lang` (its live region recorded) at `link`: the page and
    that load's uncaught errors.  Pages open at once are different k."""
    tab = tab_pool(LOCALES[lang], k, ANNOUNCEMENTS)
    return tab.open(server, link, size), tab.errors


# ---------------------------------------------------------------- Watten: whose tricks
def watten_after_a_hand(server, seed: int) -> dict:
    """Four humans (seeded random moves, no concession) until the second hand is dealt."""
    table = server.post("/api/tables", {"game": "watten", "seats": [{"kind": "human"}] * 4})
    rng = random.Random(seed)
    for _ in range(300):
        sp = server.get(f"/api/tables/{table['id']}")
        if sp["view"]["hand_no"] >= 2:
            return table
        seat = sp["waiting"][0]
        legal = server.get(f"/api/tables/{table['id']}", table["seats"][seat]["token"])["legal"]
        move(server, table, seat, rng.choice([a for a in legal if a != "concede"] or legal))
    raise AssertionError("no second hand")


def team_words(team: int, lang: str) -> str:
    return " + ".join(render("web.seat_in_text", {"n": s}, lang) for s in ((0, 2) if team == 0 else (1, 3)))


def result_line(result: dict, reader: int | None, lang: str) -> str:
    """Watten's line for a hand's result (the summary, the list of hands) as `reader` (a
    seat, or None for a spectator) should read it: its own team's tricks first, as its own."""
    won = result["tricks_won"]
    if reader is None:
        tricks = render("watten.web.tricks_teams", {"a": won[0], "t0": team_words(0, lang),
                                                    "b": won[1], "t1": team_words(1, lang)}, lang)
    else:
        tricks = render("watten.web.tricks_ours", {"a": won[reader % 2], "b": won[1 - reader % 2]}, lang)
    params = {"h": result["hand"], "n": result["points"], "why": render(f"watten.web.reason.{result['reason']}", {}, lang),
              "tricks": tricks, "team": team_words(result["team"], lang)}
    mine = reader is not None and reader % 2 == result["team"]
    return render("watten.web.res.you_team" if mine else "watten.web.res", params, lang)


SIDE_LINES = "() => [...document.querySelectorAll('#side li, #summary p, .summary p')].map((n) => n.textContent)"


@pytest.fixture(scope="module")
def watten_second_hand(server):
    """watten_after_a_hand's table, dealt once: both languages' pages only look at it."""
    return watten_after_a_hand(server, seed=8)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_wa_4_1_a_hands_tricks_are_worded_for_each_seat_and_a_spectator(tab_pool, server, watten_second_hand, lang):
    table = watten_second_hand
    result = server.get(f"/api/tables/{table['id']}")["view"]["results"][0]
    won = result["tricks_won"]
    readers = {1: table["seats"][1]["link"], 2: table["seats"][2]["link"], 3: table["seats"][3]["link"],
               None: f"/table/{table['id']}"}
    for reader, link in readers.items():
        page, errors = page_of(tab_pool, server, link, lang)
        expected = result_line(result, reader, lang)
        page.wait_for_function("(w) => document.querySelector('#side').textContent.includes(w)", arg=expected)
        side = page.eval_on_selector("#side", "s => s.textContent")
        # the count said as words for its team, never "1:4"
        assert not re.search(r"\d\s?:\s?\d", expected) and expected in side, (reader, expected, side)
        if reader is not None:
            ours = render("watten.web.tricks_ours", {"a": won[reader % 2], "b": won[1 - reader % 2]}, lang)
            # the reader's team's count first, beside the words for it
            assert re.findall(r"\d+", ours)[0] == str(won[reader % 2]), ours
            assert {"en": "your team", "de": "dein Team"}[lang] in ours.split(",")[0], ours
        # the table's corner: the reader's own team first with "(us : them)"; a spectator's
        # table the top and bottom pair first, said so, its tooltip the teams' seats in words
        corner = page.eval_on_selector("#board [data-tricks-box]", """g => ({
          count: g.querySelector('[data-tricks]').textContent,
          legend: g.querySelector('[data-tricks-legend]')?.textContent ?? null,
          title: g.querySelector('title')?.textContent ?? null })""")
        now = server.get(f"/api/tables/{table['id']}")["view"]["tricks_won"]
        first = 0 if reader is None else reader % 2
        assert corner["count"] == f"{render('watten.web.tricks', {}, lang)} {now[first]} : {now[1 - first]}", corner
        assert corner["legend"] == render("watten.web.us_them" if reader is not None else "watten.web.pairs", {}, lang), corner
        if reader is None:
            assert corner["title"] == render("watten.web.tricks_teams", {"a": now[0], "t0": team_words(0, lang),
                                                                         "b": now[1], "t1": team_words(1, lang)}, lang)
        assert errors == []


# ---------------------------------------------------------------- Wasserloch: the move buttons
def wasserloch_with_a_pair(server) -> tuple[dict, str, int]:
    """Two humans, seat 0 to begin, its hand holding two or more of some value: the table,
    that value, how many of it seat 0 holds."""
    for _ in range(60):
        table = server.post("/api/tables", {"game": "wasserloch", "options": {"players": 2, "first_player": 0},
                                            "seats": [{"kind": "human"}, {"kind": "human"}]})
        mine = server.get(f"/api/tables/{table['id']}", table["seats"][0]["token"])
        pairs = [(VALUES[i], n) for i, n in enumerate(mine["view"]["hand"]) if n >= 2]
        if pairs and 0 in mine["waiting"]:
            return table, *pairs[0]
    raise AssertionError("no deal with a pair in 60 tables")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_wl_4_1_the_move_buttons_name_their_count_in_words_and_say_what_they_show(tab_pool, server, lang):
    table, value, held = wasserloch_with_a_pair(server)
    page, errors = page_of(tab_pool, server, table["seats"][0]["link"], lang)
    page.wait_for_selector("#turn[data-mine='1']")
    page.click(f"#hand [data-key='v:{value}']")       # two or more of it: a count to choose
    page.wait_for_selector("#actions button[data-action]")
    buttons = page.eval_on_selector_all("#actions button[data-action]",
                                        "bs => bs.map(b => [b.dataset.action, b.textContent, b.getAttribute('aria-label')])")
    legal = server.get(f"/api/tables/{table['id']}", table["seats"][0]["token"])["legal"]
    counts = sorted(int(a.split("x")[1]) for a in legal if a.upper().split("X")[0] in (value, "1" if value == "A" else value))
    assert sorted(int(a.split("x")[1]) for a, _, _ in buttons) == counts and len(counts) >= 2, (buttons, legal)
    for action, words, label in buttons:
        n = int(action.split("x")[1])
        expected = render("wasserloch.web.play_button", {"n": n, "v": value}, lang)
        # the words seen are the words heard (no aria-label of other words: WCAG 2.5.3),
        # with the count as a word and no sign read as "times"
        assert words == expected and label is None, (action, words, label)
        assert "×" not in words and NUMBER_WORDS[lang][n] & set(words.split()), words
        sync_api.expect(page.locator(f"#actions button[data-action='{action}']")).to_have_accessible_name(expected)
    # the move the button makes is the one it names
    page.click(f"#actions button[data-action='{buttons[-1][0]}']")
    page.wait_for_function("() => document.querySelector('#turn').dataset.mine === '0'")
    assert server.get(f"/api/tables/{table['id']}")["view"]["recent"][-1]["play"] == buttons[-1][0]
    assert errors == []


# ---------------------------------------------------------------- Wildwasser: the own chip's offer
def own_marker_choice(server) -> tuple[dict, int, list[int]]:
    """A seat that may put the start marker on its own team card among others (WW-4.3: a
    start-marker field, the own card allowed): the table, that seat, the target seats."""
    return wildwasser_marker_choice(server, lambda table, seat, legal, targets, token:
                                    (table, seat, targets) if seat in targets and len(targets) > 1 else None, games=40)


CHIPS = """chips => chips.map(c => ({ seat: +c.dataset.seat, title: c.getAttribute('title'),
  label: c.getAttribute('aria-label') }))"""


@pytest.mark.parametrize("lang", ["en", "de"])
def test_ww_4_3_the_own_chip_offered_the_start_marker_says_it_is_yours(tab_pool, server, lang):
    table, seat, targets = own_marker_choice(server)
    marker = server.get(f"/api/tables/{table['id']}")["view"]["start_marker"]
    page, errors = page_of(tab_pool, server, table["seats"][seat]["link"], lang, size="phone")
    page.wait_for_selector("#seats .seat-chip.clickable")
    chips = {c["seat"]: c for c in page.eval_on_selector_all("#seats .seat-chip", CHIPS)}
    own = render("wildwasser.web.chip_keep_own" if marker == seat else "wildwasser.web.chip_choose_own", {}, lang)
    other = render("wildwasser.web.chip_choose", {}, lang)
    assert chips[seat]["title"] == own and chips[seat]["label"].endswith(". " + own), chips[seat]
    # "you", "your", "dein": the words a player hears of their own seat elsewhere
    assert re.search(r"\b(your|deinen)\b", own), own
    assert render("web.you", {}, lang) in chips[seat]["label"].split(". ")[0].split("; "), chips[seat]
    for s in targets:
        if s != seat:
            assert chips[s]["title"] == other and chips[s]["label"].endswith(". " + other), chips[s]
    # choosing it makes the move: the marker on the own card
    n = page.eval_on_selector("#turn", "t => +t.dataset.n")
    page.click(f"#seats .seat-chip[data-seat='{seat}']")
    page.wait_for_function("(n) => +document.querySelector('#turn').dataset.n > n", arg=n)
    assert server.get(f"/api/tables/{table['id']}")["view"]["start_marker"] == seat
    assert errors == []


# ---------------------------------------------------------------- a round's points, seat by seat
def seat_for(seat: int, reader: int | None, lang: str) -> str:
    """A seat standing alone, the reader's own marked as its chip is ("Seat 1 (you)")."""
    word = render("web.seat", {"n": seat}, lang)
    return f"{word} ({render('web.you', {}, lang)})" if seat == reader else word


def play_until_round(server, table, rounds_key: str, target: int, seed: int) -> dict:
    """Seeded random moves over HTTP until the view's round is `target`: that view."""
    rng = random.Random(seed)
    for _ in range(600):
        spectator = server.get(f"/api/tables/{table['id']}")
        if spectator["view"][rounds_key] >= target:
            return spectator["view"]
        assert not spectator["terminal"], "the game ended first"
        seat = spectator["waiting"][0]
        legal = server.get(f"/api/tables/{table['id']}", table["seats"][seat]["token"])["legal"]
        move(server, table, seat, rng.choice(legal))
    raise AssertionError("no such round")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_wl_5_3_a_rounds_points_are_heard_with_the_own_seat_as_yours(tab_pool, server, lang):
    table = server.post("/api/tables", {"game": "wasserloch", "options": {"players": 2},
                                        "seats": [{"kind": "human"}, {"kind": "human"}]})
    readers = {0: table["seats"][0]["link"], 1: table["seats"][1]["link"], None: f"/table/{table['id']}"}
    pages = {reader: page_of(tab_pool, server, link, lang, k=k) for k, (reader, link) in enumerate(readers.items())}
    view = play_until_round(server, table, "round", 2, seed=3)
    for reader, (page, errors) in pages.items():
        lines = [render("wasserloch.web.round_line", {"who": seat_for(seat, reader, lang), "p": p,
                                                      "total": view["scores"][seat]}, lang)
                 for seat, p in enumerate(view["loot"][0])]
        heard = wait_to_hear(page, lines)
        assert all(line in heard for line in lines), (reader, lines, heard)
        page.wait_for_selector("#summary")
        shown = page.eval_on_selector_all("#summary p", "ps => ps.map((p) => p.textContent)")
        assert all(line in shown for line in lines), (reader, lines, shown)
        you = f"({render('web.you', {}, lang)})"
        assert sum(you in line for line in lines) == (reader is not None), lines
        assert errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_ww_5_3_a_rounds_points_show_the_own_seat_as_yours(tab_pool, server, lang):
    table = server.post("/api/tables", {"game": "wildwasser", "options": {"players": 3},
                                        "seats": [{"kind": "human"}] * 3})
    readers = {1: table["seats"][1]["link"], None: f"/table/{table['id']}"}
    pages = {reader: page_of(tab_pool, server, link, lang, size="phone", k=k)
             for k, (reader, link) in enumerate(readers.items())}
    view = play_until_round(server, table, "round", 2, seed=5)
    for reader, (page, errors) in pages.items():
        page.wait_for_selector("#summary")
        shown = page.eval_on_selector_all("#summary p", "ps => ps.map((p) => p.textContent)")
        for st in view["seats"]:
            line = render("wildwasser.web.round_line", {"who": seat_for(st["seat"], reader, lang), "n": st["points"]}, lang)
            assert line in shown, (reader, line, shown)
        assert errors == []


# ---------------------------------------------------------------- Wasserloch: the cards driven off
@pytest.fixture(scope="module")
def wasserloch_driven_off(server):
    """Seat 0 to move after some animals were driven off (WL-4.2): the table and its
    spectator's view, played once (both languages' pages only look at it)."""
    table = server.post("/api/tables", {"game": "wasserloch", "options": {"players": 2},
                                        "seats": [{"kind": "human"}, {"kind": "human"}]})
    rng = random.Random(2)
    for _ in range(200):     # WL-4.2: until some animals were driven off in this round
        spectator = server.get(f"/api/tables/{table['id']}")
        if any(spectator["view"]["gone"]) and 0 in spectator["waiting"]:
            break
        seat = spectator["waiting"][0]
        move(server, table, seat, rng.choice(server.get(f"/api/tables/{table['id']}", table["seats"][seat]["token"])["legal"]))
    else:
        raise AssertionError("nothing driven off")
    return table, spectator


@pytest.mark.parametrize("lang", ["en", "de"])
def test_wl_4_2_the_cards_driven_off_are_read_as_counts_not_products(tab_pool, server, wasserloch_driven_off, lang):
    table, spectator = wasserloch_driven_off
    gone = spectator["view"]["gone"]
    page, errors = page_of(tab_pool, server, table["seats"][0]["link"], lang)
    page.wait_for_selector("#gone")
    page.click("#gone > summary")
    # what a screen reader is given: the accessibility tree's text of the panel
    tree = page.locator("#gone").aria_snapshot()
    words = [render("wasserloch.web.cards_of", {"n": n, "v": VALUES[i]}, lang) for i, n in enumerate(gone) if n]
    assert all(w in tree for w in words), (words, tree)
    assert "×" not in tree, tree
    # the screen keeps value × count
    shown = page.inner_text("#gone p")
    assert all(f"{VALUES[i]}×{n}" in shown for i, n in enumerate(gone) if n), shown
    assert errors == []
