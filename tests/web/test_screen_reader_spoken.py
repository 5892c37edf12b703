"""What a blind player hears of the log at each game's table, in English and German, beside
what the log shows.  The live region (#announce) read the player's own moves as another
seat's ("Seat 0 took 7♦ from the pyramid." to seat 0, where the chip says "(you)"), and read
cards by their signs ("7♦": a sign a screen reader skips or calls "black diamond suit").
Now the log's new lines are worded anew for the live region in one place (app.js
spokenLines): "You took 7 of diamonds from the pyramid." to seat 0, "Seat 0 took 7 of
diamonds …" to everyone else, while the log on screen keeps its seats and signs.  The
replay's speeds were read "0.5×"; and a refusal on screen was read out again at each
redraw (another seat coming or going, the lobby's lists arriving)."""

from __future__ import annotations

import os
import random

import pytest

from wasserspiele.core.messages import render, term

from .browser_support import CHROMIUM, browser, finished_table, mid_game_table, serving  # noqa: F401
from .browser_support import ANNOUNCEMENTS as RECORD, card_name, move, said, wait_to_hear  # noqa: F401
from .browser_support import tab_pool, tabs  # noqa: F401

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

LOCALES = {"en": "en-US", "de": "de-DE"}
SUIT_SIGN = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SIGNS = "♣♦♥♠★"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "screen_reader_spoken", tables_per_client=200)


def open_page(tab_pool, server, link, lang, wait_for="#turn", k=0, size="desktop"):
    """The module's k-th tab of `lang` at `link`, what its live region said and the boxes it
    showed recorded (RECORD, BOXES): the page and that load's uncaught errors.  Pages open
    at once are different k."""
    tab = tab_pool(LOCALES[lang], k, RECORD + BOXES)
    return tab.open(server, link, size, wait_for), tab.errors


def seat_word(seat: int, lang: str) -> str:
    """An unnamed seat at the start of a log line ("Seat 0", "Platz 0")."""
    word = render("web.seat_in_text", {"n": seat}, lang)
    return word[0].upper() + word[1:]


def card_sign(code: str, lang: str) -> str:
    """A card as the log shows it ("7♦", "10♥", German "D♣" for a queen)."""
    base, _, declared = code.partition("=")
    if base[0] == "X":
        return f"★={SUIT_SIGN.get(declared) or ('10' if declared == 'T' else term(declared, 'card.rank', lang))}" \
            if declared else render("seven_waters.web.joker", {}, lang)
    rank = base[:-1]
    return ("10" if rank == "T" else term(rank, "card.rank", lang)) + SUIT_SIGN[base[-1]]


def play_until(server, table, rng, done, prefer=lambda seat, legal: None, limit=300):
    """Seeded moves of whoever is to move until `done(spectator answer)`."""
    for _ in range(limit):
        spectator = server.get(f"/api/tables/{table['id']}")
        if done(spectator):
            return spectator
        assert not spectator["terminal"], "the game ended first"
        seat = spectator["waiting"][0]
        legal = server.get(f"/api/tables/{table['id']}", table["seats"][seat]["token"])["legal"]
        move(server, table, seat, prefer(seat, legal) or rng.choice(legal))
    raise AssertionError("no such position")


def new_table(server, game, players, options=None):
    return server.post("/api/tables", {"game": game, "options": {"players": players} if options is None else options,
                                       "seats": [{"kind": "human"}] * players})


# ---------------------------------------------------------------- Seven Waters
def seven_waters_take_lines(entry: dict, lang: str) -> dict[str, str]:
    """A take of the log (SW-3.2): as the log shows it, as the seat that took hears it, as
    everyone else hears it."""
    x = render("seven_waters.web.extra_log", {}, lang) if entry.get("extra") else ""

    def revealed(name):
        if not entry.get("revealed"):
            return ""
        sep = " " if name is card_sign else ", "
        return " " + render("seven_waters.web.log.revealed", {"c": sep.join(name(c, lang) for c in entry["revealed"])}, lang)

    who = seat_word(entry["seat"], lang)
    return {
        "shown": render("seven_waters.web.log.take", {"who": who, "c": card_sign(entry["card"], lang),
                                                      "r": revealed(card_sign), "x": x}, lang),
        "you": render("seven_waters.web.log.take.you", {"c": card_name(entry["card"], lang),
                                                        "r": revealed(card_name), "x": x}, lang),
        "others": render("seven_waters.web.log.take", {"who": who, "c": card_name(entry["card"], lang),
                                                       "r": revealed(card_name), "x": x}, lang),
    }


@pytest.mark.parametrize("lang", ["en", "de"])
def test_sw_3_2_a_take_is_heard_as_yours_by_its_seat_with_the_card_in_words(tab_pool, server, lang):
    table = new_table(server, "seven_waters", 2, options={})
    rng = random.Random(11)
    # seat 0 to take, with a card under the one it takes turned up by it where the deal allows
    play_until(server, table, rng, lambda sp: sp["n"] >= 10 and sp["waiting"] == [0] and any(
        a.startswith("take ") for a in server.get(f"/api/tables/{table['id']}", table["seats"][0]["token"])["legal"]))
    mine, errors0 = open_page(tab_pool, server, table["seats"][0]["link"], lang)
    other, errors1 = open_page(tab_pool, server, table["seats"][1]["link"], lang, k=1)
    mine.wait_for_selector("#turn[data-mine='1']")
    other.wait_for_selector("#turn[data-mine='0']")
    legal = server.get(f"/api/tables/{table['id']}", table["seats"][0]["token"])["legal"]
    move(server, table, 0, rng.choice([a for a in legal if a.startswith("take ")]))
    entry = server.get(f"/api/tables/{table['id']}")["view"]["log"][-1]
    assert entry["kind"] == "take" and entry["seat"] == 0, entry
    lines = seven_waters_take_lines(entry, lang)
    heard_mine, heard_other = wait_to_hear(mine, lines["you"]), wait_to_hear(other, lines["others"])
    assert lines["you"] in heard_mine and lines["others"] not in heard_mine, (lines, heard_mine)
    assert lines["others"] in heard_other and lines["you"] not in heard_other, (lines, heard_other)
    assert not any(c in line for line in heard_mine + heard_other for c in SIGNS), (heard_mine, heard_other)
    # the log on screen is as it was: the seat and the card's signs, on both pages
    for page in (mine, other):
        page.wait_for_function("(w) => document.querySelector('#log li')?.textContent === w", arg=lines["shown"])
    assert errors0 == [] and errors1 == []


@pytest.fixture(scope="module")
def replay_take(server):
    """A finished Seven Waters game and a step of its replay that takes a card and turns up
    another (found once, step by step over HTTP: both languages' replays only look at it):
    the table's id, its moves, the step, its log entry."""
    table = finished_table(server, "seven_waters", {}, seed=4)
    tid = table["id"]
    total = server.get(f"/api/tables/{tid}")["n"]
    step = next(k for k in range(2, total) if server.get(f"/api/tables/{tid}/replay/{k}")["action"].startswith("take ")
                and server.get(f"/api/tables/{tid}/replay/{k}")["view"]["log"][-1].get("revealed"))
    entry = server.get(f"/api/tables/{tid}/replay/{step}")["view"]["log"][-1]
    return tid, total, step, entry


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_replay_says_a_take_with_the_card_in_words_and_the_seat_by_its_number(tab_pool, server, replay_take, lang):
    # a replay is watched: nobody is "you"; the log's signs were read as they stand
    tid, total, step, entry = replay_take
    lines = seven_waters_take_lines(entry, lang)
    page, errors = open_page(tab_pool, server, f"/replay/{tid}", lang, wait_for="#step")
    page.focus("#next")
    for _ in range(step - 1):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("(w) => document.querySelector('#step').textContent === w",
                           arg=render("web.step", {"i": step - 1, "n": total}, lang))
    page.keyboard.press("ArrowRight")
    heard = wait_to_hear(page, lines["others"])
    assert heard[-2:] == [render("web.step", {"i": step, "n": total}, lang), lines["others"]], (lines, heard)
    assert page.inner_text("#log li.newest") == lines["shown"]
    assert errors == []


# ---------------------------------------------------------------- Watten
@pytest.mark.parametrize("lang", ["en", "de"])
def test_wa_4_a_card_played_is_heard_as_yours_by_its_seat_only(tab_pool, server, lang):
    table = new_table(server, "watten", 4, options={})
    rng = random.Random(3)

    def plays(seat, legal):   # the trump and no signals: on to the tricks
        return "trump H" if "trump H" in legal else "signal none" if "signal none" in legal else \
            next((a for a in legal if a not in ("raise", "concede")), None)
    play_until(server, table, rng, lambda sp: sp["view"]["phase"] == "play" and sp["waiting"] == [0]
               and sp["view"].get("trick"), prefer=plays)
    mine, errors0 = open_page(tab_pool, server, table["seats"][0]["link"], lang)
    other, errors1 = open_page(tab_pool, server, table["seats"][1]["link"], lang, k=1)
    mine.wait_for_selector("#turn[data-mine='1']")
    legal = server.get(f"/api/tables/{table['id']}", table["seats"][0]["token"])["legal"]
    card = next(a for a in legal if a not in ("raise", "concede"))
    move(server, table, 0, card)
    you = render("watten.web.log.play.you", {"c": card_name(card, lang)}, lang)
    others = render("watten.web.log.play", {"who": seat_word(0, lang), "c": card_name(card, lang)}, lang)
    heard_mine, heard_other = wait_to_hear(mine, you), wait_to_hear(other, others)
    assert you in heard_mine and others not in heard_mine, (you, heard_mine)
    assert others in heard_other and you not in heard_other, (others, heard_other)
    for page in (mine, other):
        page.wait_for_function("(w) => [...document.querySelectorAll('#log li')].some((li) => li.textContent === w)",
                               arg=others)    # Watten's log names cards in words already: the same line on screen
    assert errors0 == [] and errors1 == []


# ---------------------------------------------------------------- Wasserloch
VALUES = ["A", "2", "3", "4", "5", "6", "7", "8"]
ANIMALS = ["mouse", "flamingo", "zebra", "cheetah", "giraffe", "rhino", "elephant", "crocodile"]


def wasserloch_line(entry: dict, lang: str, you: bool, spoken: bool = True) -> str:
    """A play as its seat hears it (`you`), as others hear it, or as the log shows it (not
    `spoken`: "1 × 3", count × value, which a screen reader reads as a product)."""
    v, n = entry["play"].upper().split("X")
    v = "A" if v == "1" else v
    animal = lambda x: render(f"wasserloch.web.animal.{ANIMALS[VALUES.index(x)]}", {}, lang)  # noqa: E731
    params = {"n": int(n), "v": v, "a": animal(v)}
    line = render("wasserloch.web.log.you", params, lang) if you else \
        render("wasserloch.web.log.spoken" if spoken else "wasserloch.web.log", {**params, "who": seat_word(entry["seat"], lang)}, lang)
    if entry.get("drove_off"):
        line += " " + render("wasserloch.web.drove", {"v": entry["drove_off"], "a": animal(entry["drove_off"]),
                                                      "n": entry["loot"]}, lang)
    return f"{render('wasserloch.web.round', {'n': entry['round']}, lang)}: {line}"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_wl_4_a_play_is_heard_as_yours_by_its_seat_and_by_number_by_a_spectator(tab_pool, server, lang):
    table = mid_game_table(server, "wasserloch", 5, seed=4)
    mine, errors0 = open_page(tab_pool, server, table["seats"][0]["link"], lang)
    watcher, errors1 = open_page(tab_pool, server, f"/table/{table['id']}", lang, k=1)
    mine.wait_for_selector("#turn[data-mine='1']")
    legal = server.get(f"/api/tables/{table['id']}", table["seats"][0]["token"])["legal"]
    move(server, table, 0, legal[0])
    entry = server.get(f"/api/tables/{table['id']}")["view"]["recent"][-1]
    assert entry["seat"] == 0, entry
    you, others = wasserloch_line(entry, lang, True), wasserloch_line(entry, lang, False)
    heard_mine, heard_other = wait_to_hear(mine, you), wait_to_hear(watcher, others)
    assert you in heard_mine and others not in heard_mine, (you, heard_mine)
    assert others in heard_other and you not in heard_other, (others, heard_other)
    for page in (mine, watcher):
        page.wait_for_function("(w) => document.querySelector('#log li')?.textContent === w",
                               arg=wasserloch_line(entry, lang, False, spoken=False))
    assert errors0 == [] and errors1 == []


# ---------------------------------------------------------------- Wildwasser
@pytest.mark.parametrize("lang", ["en", "de"])
def test_ww_3_3_a_revealed_card_is_heard_as_yours_by_its_seat(tab_pool, server, lang):
    table = new_table(server, "wildwasser", 3)
    mine, errors0 = open_page(tab_pool, server, table["seats"][0]["link"], lang)
    watcher, errors1 = open_page(tab_pool, server, f"/table/{table['id']}", lang, k=1)
    mine.wait_for_selector("#turn[data-mine='1']")
    rng = random.Random(2)
    reveals = lambda sp: [e for e in sp["view"]["log"] if e.get("event") == "reveal" and e.get("seat") == 0]  # noqa: E731
    spectator = play_until(server, table, rng, lambda sp: bool(reveals(sp)))
    entry = reveals(spectator)[0]
    animal = render(f"wildwasser.web.sp.{entry.get('animal') or entry['card']}", {}, lang)
    you = render("wildwasser.web.ev.reveal.you", {"a": animal}, lang)
    others = render("wildwasser.web.ev.reveal", {"who": seat_word(0, lang), "a": animal}, lang)
    heard_mine, heard_other = wait_to_hear(mine, you), wait_to_hear(watcher, others)
    assert you in heard_mine and others not in heard_mine, (you, heard_mine)
    assert others in heard_other and you not in heard_other, (others, heard_other)
    for page in (mine, watcher):
        page.wait_for_function("(w) => [...document.querySelectorAll('#log li')].some((li) => li.textContent === w)",
                               arg=others)
    assert errors0 == [] and errors1 == []


# ---------------------------------------------------------------- the replay's speeds
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_replay_s_speeds_are_named_in_words_with_the_language_s_decimal_sign(tab_pool, server, lang):
    table = finished_table(server)
    page, errors = open_page(tab_pool, server, f"/replay/{table['id']}", lang, wait_for="#speed")
    options = page.eval_on_selector_all("#speed option", "os => os.map(o => [o.value, o.textContent, o.getAttribute('aria-label')])")
    assert [text for _, text, _ in options] == ["0.5×", "1×", "2×", "4×"]       # the screen as it was
    names = [name for _, _, name in options]
    assert names == [render("web.speed_x", {"x": float(v) if "." in v else int(v)}, lang) for v, _, _ in options]
    assert names[0] == {"en": "playback speed 0.5", "de": "Wiedergabetempo 0,5"}[lang]
    tree = page.locator("#speed").aria_snapshot()
    assert all(f'option "{name}"' in tree for name in names), tree
    assert errors == []


# ---------------------------------------------------------------- refusals, heard once
# Every box put in the page that tells a refusal (class "refused") or is an alert, as
# [role, words], as it comes: a screen reader reads an alert out when it appears, and the
# page draws itself anew at every change
BOXES = """
  window.__boxes = [];
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (n.nodeType !== 1) continue;
      for (const a of [n, ...n.querySelectorAll('[role=alert], .refused')]) {
        if (a.matches('[role=alert], .refused')) window.__boxes.push([a.getAttribute('role'), a.textContent]);
      }
    }
  }).observe(document, { childList: true, subtree: true });
"""


def alerts(page) -> list[str]:
    return [words for role, words in page.evaluate("() => window.__boxes.slice()") if role == "alert"]


def drawn(page, words: str) -> int:
    return sum(1 for _, w in page.evaluate("() => window.__boxes.slice()") if w == words)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_wl_4_1_a_refused_play_is_read_out_once_while_other_seats_come_and_go(tab_pool, server, lang):
    table = new_table(server, "wasserloch", 3)
    first = server.get(f"/api/tables/{table['id']}")["waiting"][0]
    page, errors = open_page(tab_pool, server, table["seats"][first]["link"], lang)
    page.wait_for_selector("#turn[data-mine='1']")
    # a place whose value this seat does not hold: the server refuses it (WL-4.1)
    page.locator("#board [data-key^='v:'].inactive").first.click(force=True)
    page.wait_for_selector("#notice.refused")
    refusal = page.inner_text("#notice")
    n = page.get_attribute("#turn", "data-n")
    # the other seats' players open the table and leave it: the page is drawn anew each time
    offline = render("web.offline", {}, lang)
    chip = "(k, w) => (document.querySelector(`#seats [data-seat='${k}'] .state`)?.textContent || '').includes(w)"
    for seat in (s for s in range(3) if s != first):
        # another person's browser (a tab of its own context) comes, then leaves the page
        other, _ = open_page(tab_pool, server, table["seats"][seat]["link"], lang, wait_for=None, k=1, size="phone")
        page.wait_for_function(f"([k, w]) => !({chip})(k, w)", arg=[seat, offline])
        other.goto("about:blank")
        page.wait_for_function(f"([k, w]) => ({chip})(k, w)", arg=[seat, offline])
    assert page.inner_text("#notice") == refusal and page.get_attribute("#turn", "data-n") == n
    assert drawn(page, refusal) >= 5                  # drawn anew at each coming and going ...
    assert alerts(page) == [refusal], alerts(page)   # ... and read out once
    # the same refusal once more, after another click: a new refusal, read out again
    page.locator("#board [data-key^='v:'].inactive").first.click(force=True)
    page.wait_for_function("(w) => window.__boxes.filter(([r, x]) => r === 'alert' && x === w).length >= 2", arg=refusal)
    assert alerts(page) == [refusal, refusal]
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_refused_table_is_read_out_once_when_the_lobby_s_lists_arrive(tab_pool, server, lang):
    page, errors = open_page(tab_pool, server, "/", lang, wait_for="body[data-lobby='ready']")
    page.select_option("#game", "wasserloch")
    page.fill("#opt-rounds", "2.5")
    page.locator("#opt-rounds").dispatch_event("change")
    page.click("#create")                        # refused; the lists are fetched anew and the page drawn again
    page.wait_for_selector("#create-error")
    refusal = page.inner_text("#create-error")
    page.wait_for_function("(w) => window.__boxes.filter(([, x]) => x === w).length >= 2", arg=refusal)
    assert alerts(page) == [refusal], page.evaluate("() => window.__boxes")
    assert errors == []
