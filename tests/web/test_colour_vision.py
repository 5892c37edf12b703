"""Players who do not see colours as most do, and Windows high contrast (forced colours):
what a player must tell apart at the table is told by more than colour (WCAG 1.4.1), it
stays on screen in forced colours, and its contrast is that of WCAG 1.4.3 / 1.4.11.

Wildwasser's teams were told by their colour alone (the tokens on the track, the edge of
the seat chips): red and green (seats 0 and 2) look alike without red or green cones,
blue and purple (1 and 4) without green ones, blue, green and teal (1, 2, 5) without blue
ones, and forced colours took the chips' colours away.  A piece refused was ringed as a
chosen one is, red for green.  Seven Waters' park labels and Wildwasser's podium names,
drawn in the default black straight on the page, were gone on a dark high-contrast theme.
The seat to move at the Watten table was amber against white (3.96:1 on the cloth)."""

from __future__ import annotations

import io
import os
import re

import pytest

from .browser_support import (CHROMIUM, GAMES, browser, contrast, finished_table, luminance,  # noqa: F401
                              mid_game_table, serving, tabs, wildwasser_until)

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
Image = pytest.importorskip("PIL.Image", reason="Pillow is not installed")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "colour_vision", tables_per_client=50)


@pytest.fixture(scope="module")
def mid_games(server):
    """A table of each game in its middle, seat 0 to move (`mid_games(game)`), dealt when
    first asked for: the tests below look at it (the focus moved, panels opened, nothing
    played), so they share it."""
    made: dict[str, dict] = {}

    def of(game: str) -> dict:
        if game not in made:
            made[game] = mid_game_table(server, game)
        return made[game]
    return of


def forced_page(tabs, server, link: str, size=(1280, 1400)):
    """A page in forced colours (Windows high contrast) with a dark theme, loaded in the
    module's tab that emulates them (no other tab does); the page and the tab."""
    tab = tabs(forced_dark=True)
    page = tab.open(server, link, size)
    assert page.evaluate("matchMedia('(forced-colors: active)').matches")
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    return page, tab


def wildwasser_with_teams_on_the_track(server, teams: int = 4, players: int = 6):
    """A Wildwasser table of `players` humans played with seeded random moves until animals of
    at least `teams` seats stand on the track at once."""
    def on_track(table, spectator, tokens):
        seats = {f["animal"][0] for f in spectator["view"]["track"] if f.get("animal")}
        return (table, seats) if len(seats) >= teams else None
    return wildwasser_until(server, on_track, f"position with {teams} teams on the track", games=10,
                            players=players, moves=400)


# A token's outline and a chip's mark by their geometry: a circle, or a polygon by its
# number of corners and whether an edge of it lies flat (a square is not a diamond, a
# triangle pointing down not a hexagon); the chip's from its clip-path
SHAPE_OF = """
  const polygonKind = (pts) => pts.length + (pts.some(([, y], i) => Math.abs(y - pts[(i + 1) % pts.length][1]) < 1e-6) ? ' flat' : ' pointed');
"""
TOKEN_SHAPES = """() => {""" + SHAPE_OF + """
  return [...document.querySelectorAll('#board [data-anim^="an:"]')].map((g) => {
    const seat = +g.dataset.anim.split(':')[1];
    const outline = g.querySelector('circle, rect, polygon, path, ellipse');
    const kind = outline.tagName === 'polygon' ? polygonKind([...outline.points].map((p) => [p.x, p.y])) : outline.tagName;
    return [seat, kind, getComputedStyle(outline).fill];
  });
}"""
CHIP_MARKS = """() => {""" + SHAPE_OF + """
  return [...document.querySelectorAll('#seats .seat-chip')].map((c) => {
    const mark = getComputedStyle(c, '::before');
    const clip = mark.clipPath;
    const kind = clip.startsWith('polygon')
      ? polygonKind(clip.slice(8, -1).split(',').map((p) => p.trim().split(/\\s+/).map(parseFloat)))
      : clip.startsWith('circle') ? 'circle' : clip;
    return [+c.dataset.seat, mark.content, kind, mark.backgroundColor, parseFloat(mark.width), parseFloat(mark.height),
            getComputedStyle(c).getPropertyValue('--seat').trim()];
  });
}"""


def test_wildwasser_teams_differ_in_shape_on_the_track_and_on_their_chips(tabs, server):
    # WW-1: every player's animals are one team; which team an animal on the track belongs
    # to decides whom it scores for.  Each team has a shape of its own (besides its colour),
    # the same on its tokens and on its seat chip
    table, on_track = wildwasser_with_teams_on_the_track(server)
    tab = tabs()
    page = tab.open(server, table["seats"][0]["link"], "desktop")
    page.wait_for_selector('#board [data-anim^="an:"]')
    tokens = page.evaluate(TOKEN_SHAPES)
    assert {seat for seat, _, _ in tokens} == on_track
    token_kind = {}
    for seat, kind, _ in tokens:
        token_kind.setdefault(seat, set()).add(kind)
    assert all(len(kinds) == 1 for kinds in token_kind.values()), token_kind   # one shape a team
    kinds = {seat: kinds.pop() for seat, kinds in token_kind.items()}
    assert len(set(kinds.values())) == len(kinds), f"two teams on the track share a shape: {kinds}"
    chips = page.evaluate(CHIP_MARKS)
    assert len(chips) == 6
    marks = {seat: kind for seat, content, kind, *_ in chips if content not in ("none", "normal")}
    assert len(marks) == 6, f"a seat chip shows no mark of its team: {chips}"
    assert len(set(marks.values())) == 6, f"two chips share a mark: {marks}"
    for seat, kind in kinds.items():
        assert marks[seat] == kind, (seat, marks[seat], kind)
    # the mark is in the seat's colour and about a letter high (0.95em of a chip's 13.6 px)
    for seat, _, _, background, w, hgt, colour in chips:
        assert contrast(background, colour) == pytest.approx(1.0), (seat, background, colour)
        assert w >= 10 and hgt >= 10, (seat, w, hgt)
    assert tab.errors == []


def test_wildwasser_team_marks_keep_shape_and_colour_in_forced_colours(tabs, server):
    # forced colours turn the chips' coloured edge into the theme's text colour: the mark
    # keeps its seat's colour (forced-color-adjust: none) and its shape
    table, _ = wildwasser_with_teams_on_the_track(server, teams=2, players=4)
    page, tab = forced_page(tabs, server, table["seats"][0]["link"])
    page.wait_for_selector('#board [data-anim^="an:"]')
    chips = page.evaluate(CHIP_MARKS)
    edges = page.eval_on_selector_all("#seats .seat-chip", "cs => cs.map(c => getComputedStyle(c).borderLeftColor)")
    assert len(set(edges)) <= 1   # the edges are all one system colour here
    backgrounds = {seat: background for seat, content, kind, background, *_ in chips if content not in ("none", "normal")}
    assert len(backgrounds) == 4 and len(set(backgrounds.values())) == 4, chips
    assert len({kind for _, _, kind, *_ in chips}) == 4, chips
    # the tokens on the track keep their colours too (an SVG is drawn as authored)
    fills = {seat: fill for seat, _, fill in page.evaluate(TOKEN_SHAPES)}
    for seat, fill in fills.items():
        assert contrast(fill, backgrounds[seat]) == pytest.approx(1.0), (seat, fill, backgrounds[seat])
    assert tab.errors == []


REFUSE_AND_CHOOSE = """() => {
  const ring = (sel) => { const n = document.querySelector(sel); if (!n) return null;
    const cs = getComputedStyle(n); return { dash: cs.strokeDasharray, width: parseFloat(cs.strokeWidth), stroke: cs.stroke }; };
  return { refused: ring('.refused-here > .hl'), selected: ring('#hand .selected > .hl'),
           clickable: ring('#hand .clickable:not(.selected) > .hl') };
}"""


def chooser_table(server) -> tuple[dict, str]:
    """A Seven Waters table in its middle with seat 0 to move and a hand card that more
    than one of its moves takes (a discard, a theme, the river), so a click chooses it.
    The server deals at random: some middles have no such card (CI met one), so further
    tables are dealt until one has."""
    for seed in range(7, 27):
        table = mid_game_table(server, "seven_waters", seed=seed)
        legal = server.get(f"/api/tables/{table['id']}", table["seats"][0]["token"])["legal"]
        cards = [w.split("=")[0].upper() for a in legal for w in a.split()[1:] if not re.fullmatch(r"\d+(-\d+)?", w)]
        card = next((c for c in cards if cards.count(c) > 1), None)
        if card is not None:
            return table, card
    raise AssertionError("20 Seven Waters middles had no hand card that two moves take")


def test_a_refused_piece_is_ringed_otherwise_than_a_chosen_one(tabs, server):
    # the refused piece's red ring and the chosen card's green one were both solid and 5
    # units wide: one ring to a player without red or green cones (deuteranopia simulated:
    # both olive).  Refused: dotted; chosen: solid and twice as thick as a choice
    table, card = chooser_table(server)
    tab = tabs()
    page = tab.open(server, table["seats"][0]["link"], "desktop")
    page.wait_for_selector("#turn[data-mine='1']")
    choice = page.evaluate(REFUSE_AND_CHOOSE)["clickable"]   # before a choice narrows the others
    page.click(f"#hand [data-key='hand:{card}']")
    page.wait_for_selector("#hand .selected")
    # refused after the choice: a piece chosen drops what an earlier tap brought
    page.locator("#board [data-key^='pyr:'].inactive").first.dispatch_event("click")   # not free: refused
    page.wait_for_selector(".refused-here")
    rings = {**page.evaluate(REFUSE_AND_CHOOSE), "clickable": choice}
    assert rings["selected"]["dash"] == "none" and rings["clickable"]["dash"] == "none", rings
    assert rings["refused"]["dash"] != "none", f"a refused piece is ringed as a chosen one, but for its colour: {rings}"
    assert rings["selected"]["width"] >= 2 * rings["clickable"]["width"], rings
    # the dots are not the dashes of a hint or of the last move (style.css)
    dashes = page.evaluate("""() => { const g = document.createElementNS('http://www.w3.org/2000/svg', 'g');
      const r = document.createElementNS('http://www.w3.org/2000/svg', 'rect'); r.setAttribute('class', 'hl'); g.append(r);
      document.querySelector('#board svg').append(g);
      const out = {}; for (const c of ['hinted', 'last']) { g.setAttribute('class', c); out[c] = getComputedStyle(r).strokeDasharray; }
      g.remove(); return out; }""")
    assert rings["refused"]["dash"] not in dashes.values(), (rings, dashes)
    assert tab.errors == []


# The texts of the pictures drawn in no colour of their own (SVG's default black), where
# they are on screen: what a forced-colours theme may put them on
PLAIN_TEXTS = """() => [...document.querySelectorAll('#board svg text, #hand svg text, .panel svg text')]
  .filter((t) => !t.closest('[fill]') && t.textContent.trim())
  .map((t) => { const b = t.getBoundingClientRect(); return [t.textContent, b.left, b.top, b.right, b.bottom]; })
  .filter(([, l, tp, r, bt]) => r - l > 4 && bt - tp > 4 && l >= 0 && tp >= 0 && r <= innerWidth && bt <= innerHeight)"""


def legibility(png: bytes, boxes) -> list[tuple[str, float]]:
    """Each box's text and the contrast between its lightest and darkest pixels: a text
    drawn in the colour of what is behind it has none (1.0)."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    out = []
    for text, left, top, right, bottom in boxes:
        crop = img.crop((int(left), int(top), int(right + 0.999), int(bottom + 0.999)))
        raw = crop.tobytes()
        lums = [luminance("#%02x%02x%02x" % tuple(raw[i:i + 3])) for i in range(0, len(raw), 3)]
        out.append((text, (max(lums) + 0.05) / (min(lums) + 0.05)))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_pictures_texts_stay_readable_on_a_dark_high_contrast_theme(tabs, server, mid_games, game):
    # a picture keeps its authored colours in forced colours, but the page behind it turns
    # to the theme's (black) Canvas: a text in the default black drawn straight on the page
    # was gone (Seven Waters: "Line 1", "Σ 13", "River", the park's title; Wildwasser's
    # podium names).  Every such text on screen, its side panels opened, shows at 4.5:1
    page, tab = forced_page(tabs, server, mid_games(game)["seats"][0]["link"])
    page.wait_for_selector("#board svg")
    page.evaluate("document.querySelectorAll('#side details').forEach((d) => { d.open = true; })")
    # two frames for the opened panels to be laid out and drawn (it waited 100 ms)
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    boxes = page.evaluate(PLAIN_TEXTS)
    read = legibility(page.screenshot(), boxes)
    faint = [(text, round(c, 2)) for text, c in read if c < 4.5]
    assert faint == [], f"{game}: texts that vanish on a dark high-contrast theme: {faint[:12]}"
    if game in ("seven_waters", "wildwasser"):
        assert len(read) >= 5, read   # the park's labels, the podiums' names were measured
    assert tab.errors == []


@pytest.mark.parametrize("game", GAMES)
def test_rings_of_a_choice_and_the_cards_outline_have_3_to_1(tabs, server, mid_games, game):
    # WCAG 1.4.11: a choice's ring, the chosen one's, the last move's and the focus's are 3:1
    # or more against the page and against the piece's own face; a card's outline against the page
    tab = tabs()
    page = tab.open(server, mid_games(game)["seats"][0]["link"], "desktop", "#turn[data-mine='1']")
    choices = page.locator("#board .clickable, #hand .clickable")
    assert choices.count() >= 1   # seat 0 is to move (mid_game_table), on a piece of the board or hand
    choices.first.focus()
    page.keyboard.press("ArrowRight")   # the focus by keyboard: its ring (:focus-visible)
    page.keyboard.press("ArrowLeft")
    rings = page.evaluate("""() => {
      const opaque = (c) => c && c !== 'none' && !/rgba\\(.*, 0\\)$/.test(c) && c !== 'transparent';
      const page = getComputedStyle(document.body).backgroundColor;
      return [...document.querySelectorAll('[data-key] > .hl, [data-key].hl, .card > .hl')].map((n) => {
        const piece = n.closest('[data-key]') || n.parentNode, cs = getComputedStyle(n);
        const state = piece.matches(':focus-visible') ? 'focus' : ['selected', 'last', 'clickable'].find((c) => piece.classList.contains(c)) || 'outline';
        return [state, cs.stroke, opaque(cs.fill) ? cs.fill : null, page, piece.getAttribute('aria-label') || ''];
      }).filter(([state, stroke, fill]) => stroke !== 'none' && (state !== 'outline' || fill));
    }""")
    states = {state for state, *_ in rings}
    assert "focus" in states and ("clickable" in states or choices.count() == 1), rings
    def seen(state, stroke, fill, page_bg):
        # a state's ring against what is on either side of it; a plain outline or the face
        # inside it against the page (either shows where the card ends)
        if state == "outline":
            return max(contrast(stroke, page_bg), contrast(fill, page_bg))
        return min(contrast(stroke, page_bg), contrast(stroke, fill) if fill else 99)
    low = [(state, stroke, fill, label, round(seen(state, stroke, fill, page_bg), 2))
           for state, stroke, fill, page_bg, label in rings if seen(state, stroke, fill, page_bg) < 3]
    assert low == [], f"{game}: rings under 3:1: {low[:8]}"
    assert tab.errors == []


def test_the_watten_seat_to_move_is_told_by_more_than_colour_at_4_5_to_1(tabs, server, mid_games):
    # WA-3: the seat whose card is awaited.  Its name was amber among white ones, 3.96:1 on
    # the green cloth: in greys, and to a player without blue cones, amber and white look
    # alike, and 13 units are 12 px on a phone (WCAG 1.4.3 asks 4.5:1).  Now underlined too
    tab = tabs()
    page = tab.open(server, mid_games("watten")["seats"][0]["link"], "phone", "#turn[data-mine='1']")
    cloth = page.eval_on_selector("#board svg > rect", "r => getComputedStyle(r).fill")
    names = page.eval_on_selector_all("#board [data-origin^='tseat:']", """gs => gs.map(g => {
      const t = g.querySelector('text'), cs = getComputedStyle(t);
      return [+g.dataset.origin.split(':')[1], cs.fill, cs.textDecorationLine];
    })""")
    assert len(names) == 4
    for seat, fill, _ in names:
        assert contrast(fill, cloth) >= 4.5, (seat, fill, cloth, round(contrast(fill, cloth), 2))
    underlined = {seat for seat, _, line in names if "underline" in line}
    assert underlined == {0}, names   # seat 0 is to move (mid_game_table), and only it
    assert tab.errors == []


def test_ww_5_3_podium_tokens_of_every_shape_leave_the_places_texts_clear(tabs, server):
    # WW-5.3: six players' animals on the podiums, each in its team's shape: none of the
    # shapes (a diamond and a house reach further than the circle did) covers a place's
    # "1. +6" or a species' name
    table = finished_table(server, "wildwasser", {"players": 6})
    tab = tabs()
    page = tab.open(server, table["seats"][0]["link"], "desktop", "#result")
    page.evaluate("document.querySelectorAll('#side details').forEach((d) => { d.open = true; })")
    found = page.evaluate("""() => {
      const svg = document.querySelector('#podiums svg');
      const texts = [...svg.querySelectorAll(':scope > text')].map((e) => [e.textContent, e.getBoundingClientRect()]);
      const shapes = [...svg.querySelectorAll('g[role=img] > g > :first-child')].map((e) => [e.tagName, e.getBoundingClientRect()]);
      const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
      return { kinds: [...new Set(shapes.map(([k]) => k))],
               covered: texts.filter(([, a]) => shapes.some(([, b]) => meet(a, b))).map(([t]) => t) };
    }""")
    assert "polygon" in found["kinds"], found   # seats 1 to 5 stand there, not only seat 0's circles
    assert found["covered"] == [], found
    assert tab.errors == []
