"""Every board text readable with long names, in German and English, on a phone (390 × 844)
and a desktop (1280 × 800), measured in the browser: how far each SVG text is squeezed (its
textLength against its natural width) and whether it stays in its room.

A walk through the four games with four names of 38–40 characters found: Seven Waters'
corner title beside the pyramid squeezed "Bartholomäus Maximilian von Oberhuber-K0 (du)" to
39 % of its width on a phone, the park's title above the park to 81 % on a desktop and 78 %
at the end; Wildwasser's hand card "Erdmännchen" was squeezed to 70 %; Watten's side seats
squeezed "Donaudampfschifffahrtskapitänin" to 53 % and the top seat a 40-character name to
58 %; a phone's result table ran past its box with a name of one 31-letter word.
"""

from __future__ import annotations

import os
import random
import re

import pytest

from .browser_support import CHROMIUM, SIZES, Server, Tab, browser, name_the_seats, players_of, serving, tabs  # noqa: F401

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

# names of the most characters a name may have (40), of several words, one of a 31-letter
# German compound, two with hyphens
NAMES = ["Bartholomäus Maximilian von Oberhuber-K0", "Donaudampfschifffahrtskapitänin Wilhelm",
         "Anna-Katharina Wasserfallhuber-Schmidt", "Kreszentia Aloisia Obermoserbauer-Lang"]
LOCALES = ["de-DE", "en-US"]
LEAST_SQUEEZE = 0.85   # a text narrowed further than this reads as a smear of letters

# every text of the board and the hand: its words, how far it is squeezed (its textLength
# against its natural width), its box on the screen
TEXTS = """(sel) => [...document.querySelectorAll(sel)].filter(el => el.textContent.trim()).map(el => {
  const copy = el.cloneNode(true); copy.removeAttribute('textLength'); el.parentNode.append(copy);
  const natural = copy.getComputedTextLength(); copy.remove();
  const tl = el.getAttribute('textLength');
  const b = el.getBoundingClientRect();
  return { text: el.textContent, squeeze: tl ? +tl / natural : 1, box: [b.left, b.top, b.right, b.bottom],
           fitted: el.dataset.fitted ? +el.dataset.fitted : null, width: el.getComputedTextLength() };
})"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "phone_texts", tables_per_client=100)


def named_table(server: Server, game: str, options: dict | None = None) -> dict:
    """A table of humans, seat k named NAMES[k] (over each seat's WebSocket, as its page
    names it)."""
    players = (options or {}).get("players") or players_of(game)
    table = server.post("/api/tables", {"game": game, "options": options or {}, "seats": [{"kind": "human"}] * players})
    name_the_seats(server, table, NAMES[:players])
    return table


def play(server: Server, table: dict, moves: int | None, seed: int = 5) -> None:
    """Random legal moves over HTTP: `moves` of them, or (None) to the game's end."""
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    rng = random.Random(seed)
    for _ in range(moves if moves is not None else 5000):
        spectator = server.get(f"/api/tables/{table['id']}")
        if spectator["terminal"]:
            return
        seat = spectator["waiting"][0]
        mine = server.get(f"/api/tables/{table['id']}", tokens[seat])
        server.post(f"/api/tables/{table['id']}/moves", {"action": rng.choice(mine["legal"]), "n": mine["n"]},
                    tokens[seat])
    assert moves is not None, "no end within 5000 moves"


def squeezed(texts: list[dict]) -> list[tuple[str, float]]:
    return [(t["text"], round(t["squeeze"], 2)) for t in texts if t["squeeze"] < LEAST_SQUEEZE]


def joined(texts: list[dict]) -> str:
    """The texts run together without spaces and hyphens (a name over its lines)."""
    return "".join(t["text"] for t in texts).replace(" ", "").replace("-", "")


def whole(name: str) -> str:
    return name.replace(" ", "").replace("-", "")


_TABLES: dict = {}


def cached(key, make):
    if key not in _TABLES:
        _TABLES[key] = make()
    return _TABLES[key]


# ------------------------------------------------------------------------- Seven Waters
@pytest.fixture(scope="module")
def sw_middle(server):
    def make():
        table = named_table(server, "seven_waters")
        play(server, table, 6)
        return table
    return cached("sw_middle", make)


@pytest.fixture(scope="module")
def sw_end(server):
    def make():
        table = named_table(server, "seven_waters")
        play(server, table, None)
        return table
    return cached("sw_end", make)


def corner_texts(page) -> list[dict]:
    """The phone board's texts outside the park and the pyramid: the corner title."""
    return page.evaluate(TEXTS, "#board svg > text")


@pytest.mark.parametrize("locale", LOCALES)
def test_sw_on_a_phone_the_corner_title_shows_a_long_name_whole_and_readable(tabs, server, sw_middle, locale):
    """The corner beside the pyramid's top rows had one line for the name: a 40-character
    name was squeezed to 39 %.  The name takes up to two lines (set smaller as needed), the
    count of discarded cards the line after; nothing squeezed below 85 %, every line within
    the corner and clear of the pyramid's cards."""
    tab = tabs(locale)
    page = tab.open(server, sw_middle["seats"][0]["link"], "phone")
    page.wait_for_selector("#board svg text[data-fitted]")
    texts = corner_texts(page)
    assert texts, texts
    assert squeezed(texts) == [], squeezed(texts)
    you = "(du)" if locale == "de-DE" else "(you)"
    assert whole(f"{NAMES[0]} {you}") in joined(texts), texts
    assert re.fullmatch(r"\d+ (abgeworfen|discarded)", texts[-1]["text"]), texts   # the count: its own line, last
    assert [t["box"][1] for t in texts] == sorted(t["box"][1] for t in texts)   # in reading order, downwards
    assert all(t["width"] <= t["fitted"] + 0.5 for t in texts), texts
    # no line runs into a card of the pyramid (the cards' boxes on the screen)
    cards = page.evaluate("""() => [...document.querySelectorAll('#board [data-key^="pyr:"] rect.hl')].map(r => {
      const b = r.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; })""")
    hit = [(t["text"], c) for t in texts for c in cards
           if t["box"][2] > c[0] + 1 and c[2] > t["box"][0] + 1 and t["box"][3] > c[1] + 1 and c[3] > t["box"][1] + 1]
    assert hit == [], hit
    assert tab.errors == []


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("locale", LOCALES)
def test_sw_the_park_title_of_a_long_name_is_not_squeezed(tabs, server, sw_middle, sw_end, size, locale):
    """The park's title ("… (du) · 2 abgeworfen") on a desktop's board and on the end board
    was one line squeezed to 81 % and 78 %: the count takes a second line when the name
    leaves no room for it, and the park stands lower by that line."""
    tab = tabs(locale)
    for table in (sw_middle, sw_end) if size == "desktop" else (sw_end,):
        page = tab.open(server, table["seats"][0]["link"], size)
        page.wait_for_selector("#board svg text[data-fitted]")
        texts = page.evaluate(TEXTS, "#board svg text")
        assert squeezed(texts) == [], squeezed(texts)
        assert whole(NAMES[0]) in joined(texts)
        # the title's lines stand above the park's first row label
        title = [t for t in texts if t["fitted"] and ("abgeworfen" in t["text"] or "discarded" in t["text"])]
        line_1 = page.evaluate("async () => (await import('/static/i18n.js')).t('seven_waters.line', { k: 1 })")
        label = [t for t in texts if t["text"].strip() == line_1]
        assert title and label, texts
        assert max(t["box"][3] for t in title) <= min(t["box"][1] for t in label) + 1, (title, label)
        assert tab.errors == []


# ----------------------------------------------------------------------------- Wildwasser
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("locale", LOCALES)
def test_ww_the_hand_cards_names_are_readable(tabs, server, size, locale):
    """The hand's cards had 44 units for a name: "Erdmännchen" and "Schildkröte" were
    squeezed to 70 %.  Every card's name is at least 85 % of its width and within its card."""
    table = cached("ww", lambda: server.post("/api/tables", {"game": "wildwasser",
                                                             "seats": [{"kind": "human"}] * players_of("wildwasser")}))
    tab = tabs(locale)
    page = tab.open(server, table["seats"][0]["link"], size)
    page.wait_for_selector("#hand svg text")
    names = page.evaluate("""() => [...document.querySelectorAll('#hand [data-key^="hand:"]')].map(g => {
      const text = [...g.querySelectorAll('text')].at(-1), card = g.querySelector('rect.hl');
      const copy = text.cloneNode(true); copy.removeAttribute('textLength'); text.parentNode.append(copy);
      const natural = copy.getComputedTextLength(); copy.remove();
      const tl = text.getAttribute('textLength');
      const t = text.getBoundingClientRect(), c = card.getBoundingClientRect();
      return { text: text.textContent, squeeze: tl ? +tl / natural : 1, inside: t.left >= c.left && t.right <= c.right };
    })""")
    assert len(names) == 5, names   # a round starts with every species' card in the hand
    if locale == "de-DE":
        assert {"Erdmännchen", "Schildkröte"} <= {n["text"] for n in names}, names
    assert [(n["text"], round(n["squeeze"], 2)) for n in names if n["squeeze"] < LEAST_SQUEEZE] == []
    assert all(n["inside"] for n in names), names
    assert tab.errors == []


# --------------------------------------------------------------------------------- Watten
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("locale", LOCALES)
def test_watten_long_names_around_the_table_are_not_squeezed(tabs, server, size, locale):
    """Every seat of the table named with 38–40 characters, seen from each seat in turn (so
    that each name stands once at the top and once at a side): the side seats' two lines
    squeezed "Donaudampfschifffahrtskapitänin" to 53 %, the top seat's one line a name to
    58 %.  Now no text is squeezed below 85 %, every name is there whole, and the texts stay
    on the table (inside its 400 units)."""
    table = cached("watten", lambda: named_table(server, "watten"))
    tab = tabs(locale)
    try:
        for seat in range(4):
            page = tab.open(server, table["seats"][seat]["link"], size)
            page.wait_for_function("(name) => document.querySelector('#board svg').textContent.replace(/[ -]/g, '').includes(name)",
                                   arg=whole(NAMES[3]))
            texts = page.evaluate(TEXTS, "#board svg text")
            assert squeezed(texts) == [], (seat, squeezed(texts))
            flat = joined(texts)
            assert all(whole(name) in flat for name in NAMES), (seat, [t["text"] for t in texts])
            inside = page.evaluate("""() => { const t = document.querySelector('#board svg rect').getBoundingClientRect();
              return [t.left, t.top, t.right, t.bottom]; }""")
            out = [t["text"] for t in texts if t["box"][0] < inside[0] - 1 or t["box"][2] > inside[2] + 1
                   or t["box"][1] < inside[1] - 1 or t["box"][3] > inside[3] + 1]
            assert out == [], (seat, out)
            assert tab.errors == []
    finally:
        # the last seat's page left: a seat of the table kept online would show no "offline"
        # to the other language's tab in the next test, as no closed context did
        tab.leave()


# ------------------------------------------------------------------------ the result table
@pytest.mark.parametrize("locale", LOCALES)
def test_a_phone_s_result_table_breaks_a_name_of_one_long_word(tabs, server, sw_end, locale):
    """"Donaudampfschifffahrtskapitänin" as a column's head kept its column one word wide:
    the table ran past the result box's right edge (the box scrolled sideways).  The head
    breaks within the word; the table fits its box."""
    tab = tabs(locale)
    page = tab.open(server, sw_end["seats"][0]["link"], "phone")
    page.wait_for_selector("#result table.score")
    box = page.eval_on_selector("#result", "r => [r.scrollWidth, r.clientWidth]")
    assert box[0] <= box[1] + 1, box
    table = page.eval_on_selector("#result table.score", "t => t.getBoundingClientRect().right")
    assert table <= SIZES["phone"][0], table
    assert tab.errors == []


# ------------------------------------------------------------------ a long word's breaks
# the syllables of long words in names (where German hyphenation may break them)
SYLLABLES = {"Donaudampfschifffahrtskapitänin": "Do nau dampf schiff fahrts ka pi tä nin",
             "Obermoserbauerlang": "Ober mo ser bau er lang", "Erdmännchen": "Erd männ chen",
             "Schildkröte": "Schild krö te"}


@pytest.fixture(scope="module")
def lobby(browser, server):
    """The lobby on a phone in German, loaded once in a tab of its own: each case below runs
    svg.js in it and removes what it adds (a page of its own for each had nothing to add)."""
    tab = Tab(browser, "de-DE")
    tab.open(server, "/", "phone", wait_for="body[data-lobby='ready']")
    yield tab
    tab.close()


@pytest.mark.parametrize("word", list(SYLLABLES))
@pytest.mark.parametrize("share", [0.55, 0.7])
def test_a_word_too_long_for_its_line_breaks_between_syllables(lobby, word, share):
    """A word wider than its line was broken after the most letters that fit:
    "Donaudam-pfschifffah-rtskapitänin" on Watten's side seat, "Donaudampfschifffahrt-
    skapitänin" in Seven Waters' corner.  It breaks between syllables now, as far on as
    fits (a hyphen added), every piece within its room (`share` of the word's width: even
    set three quarters as large, as fitTexts may, it needs more than one line)."""
    room, lines = lobby.page.evaluate("""async ([word, share]) => {
      const { s, fitText, fitTexts } = await import('/static/svg.js');
      const svg = s('svg', { viewBox: '0 0 400 300', width: 400, height: 300 });
      document.body.append(svg);
      const whole = s('text', { x: 10, y: 50, 'font-size': 13, 'font-weight': 'bold' }, word);
      svg.append(whole);
      const room = Math.round(whole.getComputedTextLength() * share);
      whole.remove();
      svg.append(fitText(word, room, { x: 10, y: 50, 'font-size': 13, 'font-weight': 'bold' }, 'down', 6));
      fitTexts(svg);
      const out = [...svg.querySelectorAll('text')].map(t => [t.textContent, t.getComputedTextLength()]);
      svg.remove();
      return [room, out];
    }""", [word, share])
    assert len(lines) > 1, lines
    assert "".join(text.rstrip("-") for text, _ in lines) == word
    assert all(text.endswith("-") for text, _ in lines[:-1]), lines
    assert all(width <= room + 0.5 for _, width in lines), lines
    cuts, at = set(), 0
    for syllable in SYLLABLES[word].split()[:-1]:
        at += len(syllable)
        cuts.add(at)
    made = [sum(len(text.rstrip("-")) for text, _ in lines[:k]) for k in range(1, len(lines))]
    assert set(made) <= cuts, (lines, made)
    assert lobby.errors == []   # (since the lobby was loaded)


# ------------------------------------------------------------- a wide screen's end board
END_OPTIONS = {"wasserloch": {}, "watten": {"target": 2}, "seven_waters": {}, "wildwasser": {}}


@pytest.mark.parametrize("game", list(END_OPTIONS))
def test_at_the_end_a_wide_screen_shows_the_result_and_a_readable_board(tabs, server, game):
    """At the end of a game of four long names on a 1280 × 800 screen the board was squeezed
    under the seats and the result into what was left: Watten's words 3.9 px, Wildwasser's
    4.9 px, Wasserloch's 8.1 px.  The result stands first (its rematch button on the first
    screen), the board after it with its words at least 10 px, the column scrolling to it."""
    def make():
        table = named_table(server, game, END_OPTIONS[game])
        play(server, table, None)
        return table
    table = cached(("end", game), make)
    tab = tabs("de-DE")
    page = tab.open(server, table["seats"][0]["link"], "desktop")
    page.wait_for_selector("#rematch")
    least = page.evaluate("""() => Math.min(...[...document.querySelectorAll('#board svg text')]
      .filter((el) => el.textContent.trim())
      .map((el) => parseFloat(getComputedStyle(el).fontSize) * el.getScreenCTM().a))""")
    assert least >= 10 - 0.05, least
    rematch = page.locator("#rematch").bounding_box()
    assert rematch["y"] + rematch["height"] <= SIZES["desktop"][1], rematch
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    # the result's table within its box (with four long names as row heads on one line each,
    # Wildwasser's ran 17 px past it, the box scrolling sideways)
    box = page.eval_on_selector("#result", "r => [r.scrollWidth, r.clientWidth]")
    assert box[0] <= box[1] + 1, box
    assert tab.errors == []
