"""A keyboard player at the browser table: a skip link is the first stop of Tab and leads to
the board (WCAG 2.4.1: it took seven Tabs past the header and the top bar); the focus ring
and the last move's ring look apart (they were the same purple, WCAG 1.4.11 asks 3:1 for
each against what is around it); a long German name on a phone's board wraps, breaking an
over-long word, rather than being squeezed to 40 % of its width (svg.js fitTexts)."""

from __future__ import annotations

import os

import pytest

from .browser_support import CHROMIUM, browser, contrast, mid_game_table, name_the_seats, serving, tabs  # noqa: F401

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright", reason="axe-playwright-python is not installed")

SKIP_WORDS = {"en-US": "Skip to the board", "de-DE": "Zum Spielplan springen"}
# names players may choose (at most 40 characters): a long one of several words, one
# German compound with no space in it, two with hyphens
LONG_NAMES = ["Bartholomäus Maximilian von Oberhuber", "Donaudampfschifffahrtskapitänin",
              "Anna-Katharina Wasserfallhuber", "Kreszentia Aloisia Obermoserbauer"]
FOCUSED = """() => { const a = document.activeElement;
  return a && a !== document.body ? { id: a.id || null, key: a.dataset.key || null,
    inBoard: !!a.closest('#board') } : null; }"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "skip_rings")


@pytest.fixture(scope="module")
def wasserloch(server):
    """A Wasserloch table in its middle, seat 0 to move: the tests below look at it and
    move the focus, never a piece, so they share it."""
    return mid_game_table(server, "wasserloch")


def serious(page) -> list[str]:
    results = axe_sync.Axe().run(page)
    bad = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    return [f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:4]}" for v in bad]


# ---------------------------------------------------------------- WCAG 2.4.1
@pytest.mark.parametrize("locale", list(SKIP_WORDS))
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_wcag_2_4_1_the_first_tab_is_a_skip_link_to_the_board(tabs, server, wasserloch, locale, size):
    link = wasserloch["seats"][0]["link"]
    tab = tabs(locale)
    page = tab.open(server, link, size)
    page.wait_for_selector("#board [data-key]")
    # out of sight until it has the focus
    assert page.eval_on_selector("#skip-link", "a => a.getBoundingClientRect().bottom <= 0")
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED) == {"id": "skip-link", "key": None, "inBoard": False}
    shown = page.eval_on_selector("#skip-link", """a => { const b = a.getBoundingClientRect();
        return { text: a.textContent, seen: b.top >= 0 && b.left >= 0 && b.bottom <= innerHeight && b.width > 20 && b.height > 10,
                 onTop: document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2) === a }; }""")
    assert shown == {"text": SKIP_WORDS[locale], "seen": True, "onTop": True}
    assert serious(page) == []
    hash_before = page.evaluate("location.hash")
    page.keyboard.press("Enter")
    page.wait_for_function("() => !!document.activeElement.closest('#board')")
    focus = page.evaluate(FOCUSED)
    assert focus["inBoard"] and focus["key"], focus
    assert page.evaluate("() => document.activeElement.matches(':focus-visible')")
    # the seat link's hash (seat and token) stays: the table is not opened anew as a spectator
    assert page.evaluate("location.hash") == hash_before
    assert page.eval_on_selector("#turn", "t => t.dataset.mine") == "1"
    assert tab.errors == []


def test_wcag_2_4_1_the_skip_link_is_not_on_the_lobby(tabs, server):
    tab = tabs("de-DE")
    page = tab.open(server, "/", "desktop", "body[data-lobby='ready']")
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED)["id"] == "home"
    assert tab.errors == []


# ---------------------------------------------------------------- WCAG 1.4.11
STYLE = """(el) => { const hl = el.querySelector(':scope > .hl') || el; const c = getComputedStyle(hl), o = getComputedStyle(el);
  return { last: el.classList.contains('last'), focused: el === document.activeElement,
           stroke: c.stroke, dash: c.strokeDasharray, width: parseFloat(c.strokeWidth), fill: c.fill,
           outline: o.outlineStyle, outlineWidth: parseFloat(o.outlineWidth), offset: parseFloat(o.outlineOffset),
           outlineColor: o.outlineColor }; }"""


def test_wcag_1_4_11_the_focus_ring_and_the_last_moves_ring_look_apart(tabs, server, wasserloch):
    tab = tabs("de-DE")
    page = tab.open(server, wasserloch["seats"][0]["link"], "desktop")
    page.wait_for_selector("#board .last[data-key]")
    for _ in range(20):  # to the board by Tab (whatever stands before it)
        page.keyboard.press("Tab")
        if page.evaluate("() => !!document.activeElement.closest('#board')"):
            break
    for _ in range(12):  # onto the last move's place, by the arrow keys
        if page.evaluate("() => document.activeElement.classList.contains('last')"):
            break
        page.keyboard.press("ArrowRight")
    on_last = page.evaluate(f"({STYLE})(document.activeElement)")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => !document.activeElement.classList.contains('last')")
    focus = page.evaluate(f"({STYLE})(document.activeElement)")
    last = page.eval_on_selector("#board .last[data-key]", STYLE)
    assert on_last["last"] and on_last["focused"] and last["last"] and not last["focused"] and focus["focused"]
    # the last move: a dashed ring of its own colour; the focus: a solid frame off the piece
    # (and a solid ring on a piece with no ring of its own), on the last move too, where the
    # last move's dashed ring stays inside the frame: both seen at once
    assert last["dash"] not in ("none", ""), last
    assert last["stroke"] != focus["stroke"] and last["stroke"] != focus["outlineColor"], (last, focus)
    assert focus["dash"] == "none" and focus["width"] >= 5, focus
    for f in (focus, on_last):
        assert f["outline"] == "solid" and f["outlineWidth"] >= 3 and f["offset"] >= 2, f
    assert on_last["outlineColor"] == focus["outlineColor"]
    assert (on_last["stroke"], on_last["dash"]) == (last["stroke"], last["dash"]), (on_last, last)
    # each 3:1 or more against the page, the board's water and the place it rings
    backgrounds = [page.evaluate("getComputedStyle(document.body).backgroundColor"),
                   page.eval_on_selector("#board svg", "svg => getComputedStyle(svg.querySelector('circle, rect')).fill"),
                   last["fill"], focus["fill"]]
    for colour in (last["stroke"], focus["stroke"], focus["outlineColor"]):
        for back in backgrounds:
            assert contrast(colour, back) >= 3, (colour, back, contrast(colour, back))
    assert tab.errors == []


# ---------------------------------------------------------------- long names on a phone
# every text of the board and the hand: its words, how much it was narrowed (its
# textLength against its natural width), its size against the size it was drawn at
TEXTS = """() => [...document.querySelectorAll('#board svg text, #hand svg text')].map(el => {
  const copy = el.cloneNode(true); copy.removeAttribute('textLength'); el.parentNode.append(copy);
  const natural = copy.getComputedTextLength(); copy.remove();
  const tl = el.getAttribute('textLength');
  return { text: el.textContent, squeeze: tl ? +tl / natural : 1, max: el.dataset.fitted ? +el.dataset.fitted : null,
           width: el.getComputedTextLength(), size: +(el.getAttribute('font-size') || 0),
           lines: +(el.dataset.lines || 1) };
})"""


@pytest.fixture(scope="module")
def long_named_watten(server, tabs):
    """A Watten table of four humans named LONG_NAMES (each seat's page opened once with its
    name saved): the test reads it in either language, so it is dealt and named once."""
    table = server.post("/api/tables", {"game": "watten", "seats": [{"kind": "human"}] * 4})
    name_the_seats(server, table, LONG_NAMES)
    return table


@pytest.mark.parametrize("locale", ["de-DE", "en-US"])
def test_long_german_names_on_a_phones_watten_board_wrap_rather_than_squeeze(tabs, server, long_named_watten, locale):
    tab = tabs(locale)
    page = tab.open(server, long_named_watten["seats"][0]["link"], "phone")
    page.wait_for_selector("#board svg text")
    # the top seat's name may now be drawn on two lines (a space or a hyphen where it breaks)
    page.wait_for_function("(n) => document.querySelector('#board svg').textContent.replace(/[ -]/g, '').includes(n)",
                           arg=LONG_NAMES[2].replace(" ", "").replace("-", ""))
    texts = page.evaluate(TEXTS)
    # a name that may wrap is never squeezed below 90 %; the top seat's name, one line by the
    # board's layout, is squeezed to its room at its size, as a label is (no less than 75 %)
    squeezed = [(t["text"], round(t["squeeze"], 2)) for t in texts
                if t["squeeze"] < (0.75 if t["lines"] == 1 else 0.9)]
    assert squeezed == [], squeezed
    over = [(t["text"], t["width"], t["max"]) for t in texts if t["max"] is not None and t["width"] > t["max"] + 0.5]
    assert over == [], over
    # every name is there whole, over its lines (a word broken with a hyphen added)
    board = page.eval_on_selector("#board svg", "svg => [...svg.querySelectorAll('text')].map(t => t.textContent).join('')")
    flat = board.replace(" ", "").replace("-", "")
    for name in LONG_NAMES:
        assert name.replace(" ", "").replace("-", "") in flat, name
    # none set below three quarters of its size (the side seats' names are 13 units)
    named = [t for t in texts if t["max"] is not None and t["size"]]
    assert named and min(t["size"] for t in named) >= 13 * 0.75 - 0.01, named
    assert tab.errors == []


def test_wa_6_a_raise_by_a_long_name_is_said_within_the_table_on_a_phone(tabs, server):
    """WA-6: "… erhöht: Wenn angenommen, zählt das Blattl 3." was drawn as one plain text,
    so with a 30-character name it ran past both edges of the table (-12 … 412 of 400)."""
    table = server.post("/api/tables", {"game": "watten", "options": {"raising": True, "hand_value": 2},
                                        "seats": [{"kind": "human"}] * 4})
    # every seat a name of 40 characters (the most a name may have): whichever seat raises,
    # its line is as long as a line can be
    names = [f"Bartholomäus Maximilian von Oberhuber-K{seat}" for seat in range(4)]
    assert {len(name) for name in names} == {40}
    name_the_seats(server, table, names)
    tokens = [s["token"] for s in table["seats"]]
    for _ in range(40):  # play over HTTP until a seat may raise, then raise
        seat = server.get(f"/api/tables/{table['id']}")["waiting"][0]
        mine = server.get(f"/api/tables/{table['id']}", tokens[seat])
        action = "raise" if "raise" in mine["legal"] else mine["legal"][0]
        server.post(f"/api/tables/{table['id']}/moves", {"action": action, "n": mine["n"]}, tokens[seat])
        if action == "raise":
            break
    assert action == "raise"
    tab = tabs("de-DE")
    page = tab.open(server, table["seats"][(seat + 1) % 4]["link"], "phone")
    page.wait_for_selector("#board svg text[data-raise]")
    lines = page.eval_on_selector_all("#board svg text[data-raise]", """els => els.map(el => {
      const box = el.getBBox(); return { text: el.textContent, left: box.x, right: box.x + box.width, top: box.y }; })""")
    said = "".join(x["text"] for x in lines).replace(" ", "").replace("-", "")
    assert names[seat].replace(" ", "").replace("-", "") in said, lines
    assert all(x["left"] >= 0 and x["right"] <= 400 for x in lines), lines
    # one line, clear of the trick's cards above it (the lowest spot, 178 + 62, ends at y 240)
    assert len(lines) == 1 and lines[0]["top"] >= 240, lines
    assert tab.errors == []


def test_fit_texts_takes_as_many_lines_as_a_caller_allows_and_shrinks_only_then(tabs, server):
    tab = tabs("de-DE")
    page = tab.open(server, "/", "phone", "body[data-lobby='ready']")
    got = page.evaluate("""async () => {
      const { s, fitText, fitTexts } = await import('/static/svg.js');
      const svg = s('svg', { viewBox: '0 0 400 300', width: 400, height: 300 });
      document.body.append(svg);
      const cases = [["Bartholomäus Maximilian von Oberhuber", 120, 'up', 3],
                     ["Donaudampfschifffahrtskapitänin", 100, 'down', 2],
                     ["Anna-Katharina Wasserfallhuber", 120, 'up', 2],
                     ["Kurz", 100, 'up', 2],
                     ["Kreszentia Aloisia Obermoserbauer", 100, null, 1]];
      const out = [];
      for (const [text, max, wrap, lines] of cases) {
        const g = s('g', {}, fitText(text, max, { x: 10, y: 150, 'font-size': 13, 'font-weight': 'bold' }, wrap, lines));
        svg.append(g);
        fitTexts(svg);
        out.push([...g.querySelectorAll('text')].map(t => ({ text: t.textContent, y: +t.getAttribute('y'),
          size: +t.getAttribute('font-size'), width: t.getComputedTextLength(), squeezed: t.hasAttribute('textLength') })));
      }
      svg.remove();
      return out;
    }""")
    three, word, hyphen, short, single = got
    # three lines allowed: three at the full size, the first ones above (wrap "up")
    assert [t["size"] for t in three] == [13] * 3 and not any(t["squeezed"] for t in three), three
    assert " ".join(t["text"] for t in three) == "Bartholomäus Maximilian von Oberhuber"
    assert [t["y"] for t in three] == sorted(t["y"] for t in three) and three[-1]["y"] == 150
    # one word wider than its room: broken (a hyphen added), below (wrap "down"), smaller only as needed
    assert len(word) == 2 and word[0]["text"].endswith("-") and word[0]["y"] == 150 < word[1]["y"], word
    assert "".join(t["text"] for t in word).replace("-", "") == "Donaudampfschifffahrtskapitänin"
    assert all(t["width"] <= 100.5 and not t["squeezed"] for t in word), word
    # a name with a hyphen of its own breaks after it
    assert [t["text"] for t in hyphen] == ["Anna-Katharina", "Wasserfallhuber"] or hyphen[0]["text"].endswith("-"), hyphen
    assert all(t["width"] <= 120.5 for t in hyphen), hyphen
    assert short == [{"text": "Kurz", "y": 150, "size": 13, "width": short[0]["width"], "squeezed": False}]
    # no wrap: one line at its size, squeezed to its room (a label keeps the height of its
    # neighbours: the Seven Waters park's row labels, test_seven_waters_phone.py)
    assert len(single) == 1 and single[0]["size"] == 13 and single[0]["squeezed"], single
    assert single[0]["width"] <= 100.5, single
    assert tab.errors == []
