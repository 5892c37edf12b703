"""What a player met at the Watten table in the browser, in German and English, on a
phone and a desktop: the seats did not say which one was the partner, who called trump,
or what a bare "schwach" under a seat meant; "Zwicken: keins" was a signal button; a raise
waiting for its answer was said only in the log below the fold; "Stiche 0 : 2" read the
same for both teams; the hand's summary and the result gave points without their unit
("erhält 1") and the standing as "Team A 3 : 0 Team B"."""

from __future__ import annotations

import os

import pytest

from .browser_support import (CHROMIUM, SIZES, Server, browser,  # noqa: F401
                              finished_table, serving, tabs)

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

LOCALES = {"en": "en-US", "de": "de-DE"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "watten_table")


_TABLES: dict = {}  # each position is played once per module: the server limits new tables


def _table(server: Server, choose, options=None, limit: int = 200, *, name: str) -> dict:
    """Four humans over HTTP: `choose(spectator_view, seat, legal)` names each move, or None
    to stop there.  Returns the table's creation answer with its tokens."""
    if (server.base, name) not in _TABLES:
        _TABLES[server.base, name] = _play(server, choose, options, limit)
    return _TABLES[server.base, name]


def _play(server: Server, choose, options, limit: int) -> dict:
    table = server.post("/api/tables", {"game": "watten", "options": options or {}, "seats": [{"kind": "human"}] * 4})
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    for _ in range(limit):
        spectator = server.get(f"/api/tables/{table['id']}")
        seat = spectator["waiting"][0]
        mine = server.get(f"/api/tables/{table['id']}", tokens[seat])
        action = choose(spectator["view"], seat, mine["legal"])
        if action is None:
            return table
        server.post(f"/api/tables/{table['id']}/moves", {"action": action, "n": mine["n"]}, tokens[seat])
    raise RuntimeError("the position was not reached")


def _plain(view, seat, legal):
    """Trump hearts, every seat signals medium, the first card offered, never a raise."""
    if view["phase"] == "trump":
        return "trump H"
    if view["phase"] == "signal":
        return "signal medium"
    return next(a for a in legal if a != "raise")


def _page(tabs, server, table, seat, size, lang):
    """The language's tab at `seat`'s link of `table`, loaded at `size`, its board's words drawn."""
    tab = tabs(LOCALES[lang])
    return tab, tab.open(server, table["seats"][seat]["link"], size, "#board svg text")


# every text drawn on the board, as it is drawn (fitText may have split it in two lines)
TEXTS = """() => [...document.querySelectorAll('#board svg text')].map((e) => {
  const b = e.getBBox(); return { text: e.textContent, box: [b.x, b.y, b.x + b.width, b.y + b.height],
    seat: e.closest('[data-origin]')?.dataset.origin || null, squeezed: e.hasAttribute('textLength') }; })"""


def _overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _seat_texts(texts, seat):
    return " ".join(t["text"] for t in texts if t["seat"] == f"tseat:{seat}").replace("\u00a0", " ")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang, partner, signal, calls", [
    ("en", "partner", "signals medium", "calls trump"), ("de", "Partner", "zwickt mittel", "sagt Trumpf an")])
def test_wa_1_and_wa_5_the_seats_name_the_partner_the_caller_and_a_signal_in_words(
        tabs, server, size, lang, partner, signal, calls):
    # stop in the signal phase once seats 3 (the caller) and 0 have signalled: seat 2 is to come
    table = _table(server, lambda v, s, legal: None if v["phase"] == "signal" and s == 1 else _plain(v, s, legal),
                   name="signalled")
    tab, page = _page(tabs, server, table, 0, size, lang)
    texts = page.evaluate(TEXTS)
    top = _seat_texts(texts, 2)  # seat 0's partner sits opposite, at the top (WA-1.1)
    assert top.split(" · ")[0].endswith(partner), top
    mine = _seat_texts(texts, 0)
    assert signal in mine, mine  # WA-5: "mittel" alone said nothing
    assert calls in _seat_texts(texts, 3)  # WA-1.3: the caller, before the first card
    for seat in (0, 1, 2):
        assert calls not in _seat_texts(texts, seat)
    # a split line begins with a word, not with the "·" between two of them
    assert not any(t["text"].lstrip().startswith("·") for t in texts), [t["text"] for t in texts]
    board = page.evaluate("() => document.querySelector('#board svg').viewBox.baseVal.width")
    for t in texts:  # nothing leaves the table, nothing is squeezed
        assert t["box"][0] >= 0 and t["box"][2] <= board, t
    assert tab.errors == []
    tab, page = _page(tabs, server, table, 1, size, lang)  # seat 1 signals next
    page.wait_for_selector("#actions button[data-action]")
    buttons = page.locator("#actions button[data-action]").all_inner_texts()
    assert {"en": "No signal", "de": "Nicht zwicken"}[lang] in buttons, buttons  # not "Signal: none"
    assert tab.errors == []


def _raised(view, seat, legal):
    """Seat 3, the caller, raises before the first card; seat 0 is to answer."""
    if view["phase"] == "answer":
        return None
    if "raise" in legal:
        return "raise"
    return _plain(view, seat, legal)


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang, said", [("en", "Seat 3 raises to 2"), ("de", "Platz 3 erhöht auf 2")])
def test_wa_6_a_raise_waiting_for_its_answer_is_said_on_the_table(tabs, server, size, lang, said):
    table = _table(server, _raised, {"raising": True}, name="raised")
    assert server.get(f"/api/tables/{table['id']}")["view"]["raise"]["pending"] == 3
    for seat in (0, 2):  # the answering seat and its partner alike
        tab, page = _page(tabs, server, table, seat, size, lang)
        texts = page.evaluate(TEXTS)
        raised = [t for t in texts if t["text"] == said]
        assert len(raised) == 1, [t["text"] for t in texts]
        board = page.evaluate("() => document.querySelector('#board svg').viewBox.baseVal.width")
        assert raised[0]["box"][0] >= 0 and raised[0]["box"][2] <= board
        for other in texts:
            if other is not raised[0]:
                assert not _overlap(raised[0]["box"], other["box"]), (other["text"], other["box"], raised[0]["box"])
        cards = page.evaluate("""() => [...document.querySelectorAll("#board g[role='img'][aria-label*=':']")]
                                 .map((e) => { const b = e.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; })""")
        assert not any(_overlap(raised[0]["box"], c) for c in cards)
        box = page.locator("#board").bounding_box()  # on the screen, not below the fold
        assert box["y"] + box["height"] <= SIZES[size][1]
        assert tab.errors == []


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang, tricks, legend", [("en", "Tricks", "(us : them)"), ("de", "Stiche", "(wir : Gegner)")])
def test_wa_4_1_the_tricks_show_the_players_own_team_first_and_say_so(tabs, server, size, lang, tricks, legend):
    # one trick played: one team has it, the other not
    table = _table(server, lambda v, s, legal: None if len(v["tricks"]) == 1 else _plain(v, s, legal), name="one_trick")
    won = server.get(f"/api/tables/{table['id']}")["view"]["tricks_won"]
    assert sorted(won) == [0, 1]
    for seat in (0, 1):
        tab, page = _page(tabs, server, table, seat, size, lang)
        texts = page.evaluate(TEXTS)
        ours, theirs = won[seat % 2], won[1 - seat % 2]
        assert f"{tricks} {ours} : {theirs}" in [t["text"] for t in texts]
        # the phase of the tricks is playing cards: "Ausspielen" is only the leader's first card
        assert {"en": "Hand 1 · playing ·", "de": "Blattl 1 · Karten spielen ·"}[lang] in page.inner_text("body")
        shown = [t for t in texts if t["text"] == legend]
        assert len(shown) == 1
        for other in texts:  # the legend under the count runs into no seat's name or info
            if other is not shown[0]:
                assert not _overlap(shown[0]["box"], other["box"]), (other["text"], shown[0]["box"])
        assert tab.errors == []


@pytest.mark.parametrize("size", list(SIZES))
# the page's own team is "your team" (test_own_seat_words.py), the other named by its seats
@pytest.mark.parametrize("lang, unit, standing", [("en", r" scores \d+ points? \(", r"^(Team .+|Your team): \d+ points?$"),
                                                   ("de", r" erhält \d+ Punkte? \(", r"^(Team .+|Dein Team): \d+ Punkte?$")])
def test_wa_4_the_result_gives_points_with_their_unit_and_each_team_its_line(tabs, server, size, lang, unit, standing):
    import re
    if (server.base, "finished") not in _TABLES:
        _TABLES[server.base, "finished"] = finished_table(server, "watten", {"target": 2})
    table = _TABLES[server.base, "finished"]
    tab, page = _page(tabs, server, table, 0, size, lang)
    page.wait_for_selector("#result")
    text = page.inner_text("#result")
    lines = [x.strip() for x in text.splitlines() if x.strip()]
    hands = [x for x in lines if re.match(r"^(Hand|Blattl) \d+:", x)]
    assert hands and all(re.search(unit, x) for x in hands), hands
    teams = [x for x in lines if re.match(standing, x)]
    assert len(teams) == 2, lines  # one line per team, not "Team A 2 : 0 Team B"
    assert {"en": "(three tricks;", "de": "(drei Stiche;"}[lang] not in text  # WA-4.1 is three or more
    assert tab.errors == []


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang, us, them", [
    ("en", r"^Hand 1: your team scores 1 point$", r"^Hand 1: the others score 1 point$"),
    ("de", r"^Blattl 1: dein Team bekommt 1 Punkt$", r"^Blattl 1: die Gegner bekommen 1 Punkt$")])
def test_wa_4_1_a_new_hand_s_table_says_how_the_last_one_ended(tabs, server, size, lang, us, them):
    """On a phone the hand's summary stood below the board, out of sight: the next hand
    began with only a chip's score changed."""
    import re
    table = _table(server, lambda v, s, legal: None if v["hand_no"] == 2 else _plain(v, s, legal), name="hand_two")
    last = server.get(f"/api/tables/{table['id']}")["view"]["results"][-1]
    for seat in (0, 1):
        tab, page = _page(tabs, server, table, seat, size, lang)
        texts = page.evaluate(TEXTS)
        said = [t for t in texts if re.match(us if last["team"] == seat % 2 else them, t["text"])]
        assert len(said) == 1, [t["text"] for t in texts]
        ours, theirs = last["tricks_won"][seat % 2], last["tricks_won"][1 - seat % 2]
        assert any(t["text"].endswith(f" {ours} : {theirs} " + {"en": "(us : them)", "de": "(wir : Gegner)"}[lang])
                   for t in texts), [t["text"] for t in texts]
        for a in texts:
            for b in texts:
                if a is not b and a["seat"] is None:
                    assert not _overlap(a["box"], b["box"]), (a["text"], b["text"])
        box = page.locator("#board").bounding_box()
        assert box["y"] + box["height"] <= SIZES[size][1], "the board is below the fold"
        assert tab.errors == []
    # with the first card the table is the trick's again
    table = _table(server, lambda v, s, legal: None if v["hand_no"] == 2 and v["trick"] else _plain(v, s, legal),
                   name="hand_two_card")
    tab, page = _page(tabs, server, table, 0, size, lang)
    assert not [t for t in page.evaluate(TEXTS) if re.match(us, t["text"]) or re.match(them, t["text"])]


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", ["en", "de"])
def test_wa_5_public_signals_on_a_side_seat_are_read_whole(tabs, server, size, lang):
    """With every signal shown (signals=public) the caller's side seat said three things in
    a room for one: the line was split in two and its first half squeezed unreadable."""
    table = _table(server, lambda v, s, legal: None if v["phase"] == "signal" and s == 2 else _plain(v, s, legal),
                   {"signals": "public"}, name="public")
    tab, page = _page(tabs, server, table, 0, size, lang)
    texts = page.evaluate(TEXTS)
    squeezed = [t["text"] for t in texts if t["squeezed"]]
    assert not squeezed, squeezed
    right = [t["text"].replace("\u00a0", " ") for t in texts if t["seat"] == "tseat:3"]
    assert right[1:] == [{"en": "5 cards", "de": "5 Karten"}[lang], {"en": "signals medium", "de": "zwickt mittel"}[lang],
                         {"en": "calls trump", "de": "sagt Trumpf an"}[lang]], right
    for a in texts:  # (a seat's own wrapped lines touch by a fraction: fitText's line step)
        for b in texts:
            if a["seat"] != b["seat"]:
                assert not _overlap(a["box"], b["box"]), (a["text"], b["text"])
    assert tab.errors == []


@pytest.mark.parametrize("lang, strong, none, hidden", [
    ("en", "{0} signalled strong.", "{1} sent no signal.", "{2} signalled."),
    ("de", "{0} zwickte stark.", "{1} zwickte nicht.", "{2} zwickte.")])
def test_wa_5_the_log_says_a_signal_in_the_words_of_the_seat_chip(tabs, server, lang, strong, none, hidden):
    """The log said "Platz 2 zwickt: keins." under a chip saying "zwickt nicht"; a signal
    the seat does not see stays a bare "zwickt"."""
    table = _table(server, lambda v, s, legal: None if v["phase"] == "signal" and s == 1 else _plain(v, s, legal),
                   name="signalled")
    tab, page = _page(tabs, server, table, 0, "desktop", lang)
    lines = page.evaluate("""async () => {
        const game = (await import('/static/games/watten.js')).default;
        const { seatLabel } = await import('/static/i18n.js');
        return [game.logLines({ log: [{ event: "signal", seat: 0, signal: "strong" }, { event: "signal", seat: 1, signal: "none" },
                                      { event: "signal", seat: 2, signal: null }] }), [0, 1, 2].map(seatLabel)];
      }""")
    said, names = lines
    assert said == [w.format(*names) for w in (strong, none, hidden)], said
    assert tab.errors == []
