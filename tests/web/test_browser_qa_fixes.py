"""What a QA pass through the browser table found (2026-12-07): a focused card that did not
show whether it was chosen, pages that could not be opened ("Refused: no such table", a
replay asked for while its game runs) that led nowhere, and a name without spaces squeezed
on Watten's table into a bar no one could read."""

from __future__ import annotations

import os

import pytest

from wasserspiele.core.messages import render

from .browser_support import CHROMIUM, browser, contrast, mid_game_table, name_the_seats, serving, tabs  # noqa: F401

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

LOCALES = {"en-US": "en", "de-DE": "de"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "qa_fixes")


# ---------------------------------------------------------------- the focus and the choice
# the focused element's ring (.hl) and its frame (the outline of the piece)
FOCUSED_STYLE = """() => { const el = document.activeElement; const hl = el.querySelector(':scope > .hl');
  const c = getComputedStyle(hl), o = getComputedStyle(el);
  return { key: el.dataset.key, group: el.closest('[data-group]')?.dataset.group || null,
           selected: el.classList.contains('selected'), clickable: el.classList.contains('clickable'),
           visible: el.matches(':focus-visible'), stroke: c.stroke, width: parseFloat(c.strokeWidth),
           fill: c.fill, outline: o.outlineStyle, outlineWidth: parseFloat(o.outlineWidth),
           offset: parseFloat(o.outlineOffset), outlineColor: o.outlineColor }; }"""
# the ring a piece of that state shows when it does not have the focus
UNFOCUSED_STROKE = """(cls) => { const el = document.querySelector(`#hand [data-key].${cls}:not(:focus)`);
  return el ? getComputedStyle(el.querySelector(':scope > .hl')).stroke : null; }"""


def tab_to_hand(page) -> None:
    for _ in range(30):  # by Tab to the hand, whatever stands before it
        page.keyboard.press("Tab")
        if page.evaluate("() => !!document.activeElement.closest('[data-group=hand]')"):
            return
    raise AssertionError("Tab never reached the hand")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_focused_card_still_shows_whether_it_is_chosen(tabs, server, size):
    """Seven Waters' slide is chosen card by card with Enter: the focused card's ring was
    the focus's purple whether the card was chosen (green, 6 wide) or only to choose
    (orange, 3 wide), so a keyboard player could not see what was chosen.  The focus is a
    frame around the piece; its ring is the state's."""
    table = mid_game_table(server, "seven_waters")
    tab = tabs("de-DE")
    page = tab.open(server, table["seats"][0]["link"], size, "#turn[data-mine='1']")
    tab_to_hand(page)
    first = page.evaluate(FOCUSED_STYLE)
    assert first["group"] == "hand" and first["clickable"] and not first["selected"], first
    page.keyboard.press("Enter")   # chosen, the first card of a slide or a discard: more may follow
    page.wait_for_function("() => document.activeElement.classList.contains('selected')")
    chosen = page.evaluate(FOCUSED_STYLE)
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => !document.activeElement.classList.contains('selected')")
    to_choose = page.evaluate(FOCUSED_STYLE)
    assert chosen["selected"] and to_choose["clickable"] and not to_choose["selected"], (chosen, to_choose)
    # both show the focus: a solid frame off the card, 3 px, in the focus's colour
    for f in (chosen, to_choose):
        assert f["visible"] and f["outline"] == "solid" and f["outlineWidth"] >= 3 and f["offset"] >= 2, f
    assert chosen["outlineColor"] == to_choose["outlineColor"]
    # ... and each its own ring: the chosen card's as a chosen card's without the focus
    assert chosen["stroke"] != to_choose["stroke"] and chosen["width"] > to_choose["width"], (chosen, to_choose)
    assert chosen["stroke"] == page.evaluate(UNFOCUSED_STROKE, "selected"), chosen
    assert to_choose["stroke"] == page.evaluate(UNFOCUSED_STROKE, "clickable:not(.selected)"), to_choose
    # the frame apart from both rings, and 3:1 against the page and the card (WCAG 1.4.11)
    assert chosen["outlineColor"] not in (chosen["stroke"], to_choose["stroke"])
    page_bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    for back in (page_bg, chosen["fill"]):
        assert contrast(chosen["outlineColor"], back) >= 3, (chosen["outlineColor"], back)
    # in forced colours (a dark theme) the picture keeps its colours: the frame and both rings
    page.emulate_media(forced_colors="active", color_scheme="dark")
    try:
        forced = page.evaluate(FOCUSED_STYLE)
        assert (forced["outlineColor"], forced["stroke"]) == (to_choose["outlineColor"], to_choose["stroke"]), forced
    finally:
        page.emulate_media(forced_colors="none", color_scheme="light")
    assert tab.errors == []


# ---------------------------------------------------------------- pages that cannot be opened
def plain(code: str, lang: str) -> str:
    """A reason of the catalogue as a sentence of its own (its first letter capital)."""
    text = render(code, {}, lang)
    return text[0].upper() + text[1:]


@pytest.mark.parametrize("locale", list(LOCALES))
def test_no_such_table_is_said_plainly_with_the_way_back(tabs, server, locale):
    lang = LOCALES[locale]
    tab = tabs(locale)
    page = tab.open(server, "/table/nope", "phone", "#ways-on")
    notice = page.inner_text("#notice").strip()
    refused = render("web.refused", {"reason": ""}, lang).strip()    # "Refused:", „Nicht erlaubt:"
    assert notice == plain("server.no_table", lang) and not notice.startswith(refused), notice
    assert page.eval_on_selector("#to-lobby", "a => a.getAttribute('href')") == "/"
    assert page.inner_text("#to-lobby") == render("web.back_to_lobby", {}, lang)
    assert page.query_selector("#watch-instead") is None   # there is no table to watch
    assert tab.errors == []


@pytest.mark.parametrize("locale", list(LOCALES))
def test_a_replay_of_a_running_game_leads_to_the_live_table_and_the_lobby(tabs, server, locale):
    """/replay/ID of a game still running said only "Refused: the replay is available once
    the game is over", with no link anywhere: now said as a fact, with the way to watch
    the game live (the spectators' view) and the way back to the lobby."""
    lang = LOCALES[locale]
    table = mid_game_table(server, "wasserloch")
    tab = tabs(locale)
    for size in ("phone", "desktop"):
        page = tab.open(server, f"/replay/{table['id']}", size, "#notice")
        notice = page.inner_text("#notice").strip()
        refused = render("web.refused", {"reason": ""}, lang).strip()
        assert notice == plain("server.replay_running", lang) and not notice.startswith(refused), notice
        links = page.eval_on_selector_all("#ways-on a", "as => as.map(a => [a.id, a.getAttribute('href'), a.textContent])")
        assert links == [["watch-instead", f"/table/{table['id']}", render("web.watch_instead", {}, lang)],
                         ["to-lobby", "/", render("web.back_to_lobby", {}, lang)]], links
        # both in view, on the first screen
        assert page.eval_on_selector_all("#ways-on a", """as => as.every(a => { const b = a.getBoundingClientRect();
            return b.width > 0 && b.top >= 0 && b.bottom <= innerHeight && b.right <= innerWidth; })""")
    # the way to watch leads to the live table, as a spectator
    page.click("#watch-instead")
    page.wait_for_selector("#turn")
    assert page.url.endswith(f"/table/{table['id']}")
    assert page.eval_on_selector("#turn", "t => t.dataset.mine") != "1"
    assert tab.errors == []


# ---------------------------------------------------------------- a name without spaces
TEXTS = """() => [...document.querySelectorAll('#board svg text')].map(el => {
  const copy = el.cloneNode(true); copy.removeAttribute('textLength'); el.parentNode.append(copy);
  const natural = copy.getComputedTextLength(); copy.remove();
  const tl = el.getAttribute('textLength');
  return { text: el.textContent, squeeze: tl ? +tl / natural : 1, width: el.getComputedTextLength(),
           max: el.dataset.fitted ? +el.dataset.fitted : null,
           label: el.closest('[data-short-name]')?.getAttribute('aria-label') ?? null,
           title: el.closest('[data-short-name]')?.querySelector(':scope > title')?.textContent ?? null }; })"""
NO_SPACES = "W" * 40     # the most a name may have, one word


@pytest.mark.parametrize("locale", list(LOCALES))
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_wa_1_1_a_partners_name_without_spaces_ends_in_an_ellipsis_not_a_smear(tabs, server, size, locale):
    """WA-1.1 (the board names the partner opposite): a 40-letter name without spaces was
    squeezed to 23 % of its width at 390 × 844 and 1280 × 800, and the side seats' to 23 %
    or 44 %; it is drawn at its size on the lines its room allows, the last cut with "…"
    (as the seat chips cut a name), whole in its tooltip and for a screen reader."""
    table = mid_game_table(server, "watten", seed=11)
    name_the_seats(server, table, ["Anna", f"{NO_SPACES[:39]}L", NO_SPACES, f"{NO_SPACES[:39]}R"])
    tab = tabs(locale)
    page = tab.open(server, table["seats"][0]["link"], size, "#turn[data-mine='1']")
    page.wait_for_function("() => [...document.querySelectorAll('#board svg text')].some(t => t.textContent.startsWith('WWWW'))")
    texts = page.evaluate(TEXTS)
    # no text of the board narrowed below three quarters of its width
    squeezed = [(t["text"], round(t["squeeze"], 2)) for t in texts if t["squeeze"] < 0.75]
    assert squeezed == [], squeezed
    over = [(t["text"], t["width"], t["max"]) for t in texts if t["max"] is not None and t["width"] > t["max"] + 0.5]
    assert over == [], over
    # the partner's name (and the side seats'): a readable start and "…", the whole as a label
    for name in (NO_SPACES, f"{NO_SPACES[:39]}L", f"{NO_SPACES[:39]}R"):
        cut = [t for t in texts if t["label"] and t["label"].startswith(name) and t["text"].startswith("WWWW")]
        assert cut, (name, texts)
        # as many lines as the seat's room takes, broken where full, the last ending in "…"
        assert cut[-1]["text"].endswith("…") and all(t["text"].endswith("-") for t in cut[:-1]), cut
        assert all(t["title"] == t["label"] == name for t in cut), cut
        assert sum(len(t["text"]) for t in cut) >= 8, cut   # some letters to read, not one
    assert tab.errors == []
