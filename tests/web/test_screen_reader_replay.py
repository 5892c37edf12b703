"""A screen-reader user in the replay and where a symbol stood for words, in English and
German.  Stepping a Watten replay by one move past a secret signal said only "Move 2 of
75" (the log keeps no line of it; a sighted viewer saw the turn go on); reaching the last
move said "Move 75 of 75" and not who won (the result box appeared unannounced); the
hand / round buttons and "play" were named "◀ hand", "▶ play".  Watten's status line
read "Trump ♣", Seven Waters' line sums "Σ 17", its pool "Pool ♣" and its move buttons
"Take 7♦": signs a screen reader reads as "sigma", "black club suit" or not at all.  The
visible texts stay; the accessible names begin with them (WCAG 2.5.3)."""

from __future__ import annotations

import os
import re

import pytest

from wasserspiele.core.messages import render

from .browser_support import CHROMIUM, browser, finished_table, mid_game_table, serving  # noqa: F401
from .browser_support import ANNOUNCEMENTS as RECORD
from .browser_support import tab_pool, tabs  # noqa: F401

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

LOCALES = {"en": "en-US", "de": "de-DE"}
SIGNS = re.compile("[◀▶⏸♣♦♥♠Σ★]")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "screen_reader_replay", tables_per_client=200)


@pytest.fixture(scope="module")
def watten_over(server):
    return finished_table(server, "watten", {"target": 2})


def open_page(tab_pool, server, link, lang, wait_for="#turn"):
    """The module's tab of `lang` (its live region recorded) at `link`: the page and that
    load's uncaught errors."""
    tab = tab_pool(LOCALES[lang], script=RECORD)
    return tab.open(server, link, "desktop", wait_for), tab.errors


def said(page) -> list[str]:
    return page.evaluate("() => window.__said.slice()")


# ---------------------------------------------------------------- the replay
@pytest.mark.parametrize("lang", ["en", "de"])
def test_wa_5_a_replay_step_the_log_keeps_no_line_of_says_whose_move_it_is(
        tab_pool, server, watten_over, lang):
    tid = watten_over["id"]
    total = server.get(f"/api/tables/{tid}")["n"]
    steps = [server.get(f"/api/tables/{tid}/replay/{k}") for k in (1, 2)]
    assert steps[1]["action"].startswith("signal ")      # WA-5: a signal, secret to a spectator
    step = lambda k: render("web.step", {"i": k, "n": total}, lang)  # noqa: E731
    page, errors = open_page(tab_pool, server, f"/replay/{tid}", lang, wait_for="#step")
    page.focus("#next")
    for k in (1, 2, 3):
        page.keyboard.press("Enter")
        page.wait_for_function("(w) => window.__said.includes(w)", arg=step(k))
    lines = said(page)
    between = lines[lines.index(step(2)) + 1:lines.index(step(3))]
    mover = steps[1]["view"]["to_move"][0]
    assert between == [f"{render('web.seat', {'n': mover}, lang)} {render('web.to_move', {}, lang)}"], lines
    assert page.evaluate("() => document.activeElement.id") == "next"   # the focus stays where it stepped
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_replay_s_last_move_says_who_won(tab_pool, server, watten_over, lang):
    tid = watten_over["id"]
    total = server.get(f"/api/tables/{tid}")["n"]
    step = lambda k: render("web.step", {"i": k, "n": total}, lang)  # noqa: E731
    page, errors = open_page(tab_pool, server, f"/replay/{tid}", lang, wait_for="#step")
    page.focus("#next")
    page.keyboard.press("Enter")
    page.wait_for_function("(w) => window.__said.includes(w)", arg=step(1))
    page.keyboard.press("End")
    page.wait_for_function("(w) => window.__said.includes(w)", arg=step(total))
    page.wait_for_selector("#result")
    end = server.get(f"/api/tables/{tid}")
    who = ", ".join(render("web.seat_in_text", {"n": n}, lang) for n in end["winners"])
    won = f"{render('web.game_over', {}, lang)} {render('web.winners', {'who': who}, lang)}"
    lines = said(page)
    assert lines[lines.index(step(total)) + 1:] == [won], lines
    assert page.evaluate("() => document.activeElement.id") == "next"   # the focus stays where it stepped
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_replay_played_to_its_end_by_itself_says_who_won(tab_pool, server, watten_over, lang):
    # while it plays itself the steps are not said; its end was not said either
    tid = watten_over["id"]
    end = server.get(f"/api/tables/{tid}")
    who = ", ".join(render("web.seat_in_text", {"n": n}, lang) for n in end["winners"])
    won = f"{render('web.game_over', {}, lang)} {render('web.winners', {'who': who}, lang)}"
    page, errors = open_page(tab_pool, server, f"/replay/{tid}", lang, wait_for="#step")
    page.select_option("#speed", "4")
    page.focus("#autoplay")
    # stepped by hand (→) to a few moves before the end, so that it plays those by itself:
    # the whole game at 225 ms a step took ~18 s; "End" would say who won already
    start = end["n"] - 3
    for _ in range(start):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("(w) => window.__said.includes(w)", arg=render("web.step", {"i": start, "n": end["n"]}, lang))
    page.keyboard.press("Enter")
    page.wait_for_selector("#result", timeout=60_000)
    page.wait_for_function("(w) => window.__said.includes(w)", arg=won)
    # counted once it has stopped (its button plays again): a second "won" said by the end of the
    # autoplay, 225 ms after the last step's, was not counted yet
    page.wait_for_function("() => !document.querySelector('#autoplay').textContent.includes('⏸')")
    assert said(page).count(won) == 1, said(page)
    assert page.evaluate("() => document.activeElement.id") == "autoplay"
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_replay_s_hand_and_play_buttons_are_named_in_words_beginning_with_their_visible_word(
        tab_pool, server, watten_over, lang):
    page, errors = open_page(tab_pool, server, f"/replay/{watten_over['id']}", lang, wait_for="#step")
    for bid in ("prev-hand", "next-hand", "autoplay"):
        text = page.inner_text(f"#{bid}")
        name = page.get_attribute(f"#{bid}", "aria-label")
        word = SIGNS.sub("", text).strip()
        assert name and not SIGNS.search(name) and name.startswith(word), (bid, text, name)
        if bid != "autoplay":
            assert len(name) > len(word), (bid, text, name)      # and which way it goes ("hand back")
    assert page.get_attribute("#prev-hand", "aria-label") != page.get_attribute("#next-hand", "aria-label")
    page.click("#autoplay")                       # it plays: its name is the pause, in words
    page.wait_for_function("() => !/[◀▶⏸]/u.test(document.querySelector('#autoplay').getAttribute('aria-label') || '◀')"
                           " && document.querySelector('#autoplay').textContent.includes('⏸')")
    page.click("#autoplay")
    assert errors == []


# ---------------------------------------------------------------- symbols
@pytest.mark.parametrize("lang", ["en", "de"])
def test_watten_s_status_line_names_the_trump_by_its_suit_s_word(tab_pool, server, lang):
    table = mid_game_table(server, "watten", 8)
    view = server.get(f"/api/tables/{table['id']}")["view"]
    assert view["trump"]
    page, errors = open_page(tab_pool, server, table["seats"][0]["link"], lang)
    shown = render("watten.web.trump", {"s": {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[view["trump"]]}, lang)
    assert shown in page.inner_text(".status-text")                      # the line looks as it did
    assert page.locator(".status-text [role='img']").count() == 1, page.locator(".topbar").aria_snapshot()
    name = page.get_attribute(".status-text [role='img']", "aria-label")
    assert name and name.startswith(shown) and render(f"web.suit_{view['trump']}", {}, lang) in name
    assert f'img "{name}"' in page.locator(".topbar").aria_snapshot()
    assert errors == []


def seven_waters_with_a_pool_suit(server) -> dict:
    for seed in range(7, 27):
        table = mid_game_table(server, "seven_waters", 24, seed=seed)
        if any(p.get("pool_suit") for p in server.get(f"/api/tables/{table['id']}")["view"]["players"]):
            return table
    raise AssertionError("no Seven Waters position with a pool's suit in 20 tables")


# each drawn text, the name of the nearest element around it that a screen reader names
# instead (a line's button, a row's group) or null, and whether it is hidden from it
LABELLED = """(ts, test) => ts.filter((t) => new RegExp(test, 'u').test(t.textContent)).map((t) => {
  const named = t.parentElement.closest('[aria-label]');
  return [t.textContent, named && named.closest('svg') === t.closest('svg') && named !== t.closest('svg')
          ? named.getAttribute('aria-label') : null, t.getAttribute('aria-hidden')];
})"""


@pytest.mark.parametrize("lang", ["en", "de"])
def test_seven_waters_line_sums_are_named_in_words(tab_pool, server, lang):
    # the other seat's lines were drawn texts "line 2" "Σ 17" in the park's one group
    table = mid_game_table(server, "seven_waters", 20)
    page, errors = open_page(tab_pool, server, table["seats"][0]["link"], lang)
    page.wait_for_selector("#park-1, #park-0")
    sums = page.eval_on_selector_all("#table text", LABELLED, "^Σ \\d+$")
    assert len(sums) >= 8, sums                   # both seats' lines
    for text, name, hidden in sums:
        assert name and render("seven_waters.web.sum", {"n": int(text.split()[1])}, lang) in name, sums
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_sw_2_2_the_pool_s_suit_is_named_in_words(tab_pool, server, lang):
    table = seven_waters_with_a_pool_suit(server)
    players = server.get(f"/api/tables/{table['id']}")["view"]["players"]
    suits = {p["pool_suit"] for p in players if p.get("pool_suit")}
    page, errors = open_page(tab_pool, server, table["seats"][0]["link"], lang)
    # the pool's label with its suit ("Pool ♣"), not a card's index inside a named card
    pools = page.eval_on_selector_all("#table text", LABELLED, f"^{render('seven_waters.web.pool', {}, lang)} [♣♦♥♠]$")
    assert pools
    for text, name, hidden in pools:
        assert name and name.startswith(text) and any(render(f"web.suit_{x}", {}, lang) in name for x in suits), pools
        assert hidden == "true", pools            # not read twice, once as the sign
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_seven_waters_move_buttons_with_cards_are_named_with_the_cards_words(tab_pool, server, lang):
    table = mid_game_table(server, "seven_waters", 20)
    mine = server.get(f"/api/tables/{table['id']}", table["seats"][0]["token"])
    page, errors = open_page(tab_pool, server, table["seats"][0]["link"], lang)
    named = page.evaluate("""async ([actions, view]) => {
        const game = (await import('/static/games/seven_waters.js')).default;
        return actions.map((a) => [a, game.label(a, view), game.spoken ? game.spoken(a, view) : null]);
      }""", [mine["legal"], mine["view"]])
    with_signs = [(a, label, name) for a, label, name in named if re.search("[♣♦♥♠]", label)]
    assert with_signs, named
    for action, label, name in with_signs:
        assert name and name.startswith(label) and len(name) > len(label), (action, label, name)
        assert name[len(label):].strip(" ()") and not SIGNS.search(name[len(label):]), (action, label, name)
    assert errors == []
