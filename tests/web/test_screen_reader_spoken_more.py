"""What a blind player still met after the log's lines were worded to be spoken
(test_screen_reader_spoken.py): the hint was announced with the button's signs ("The
expert bot suggests: Take 7♦", "play 1 × 3"); "Connection lost — reconnecting …" and a
click in a replaced tab were both an alert and a line of the live region, heard twice;
the player's own seat as the object of a sentence was still its seat word ("Seat 1 gave
the start marker to seat 0" read to seat 0, Watten's "Seat 3 dealt; seat 0 calls trump."),
and Wasserloch's plays were "1 × 3": Chromium passes the sign on as it stands (the
accessible name is the text), and NVDA's symbol table (locale/en/symbols.dic: "×	times
some") reads it "1 times 3" at its default level and skips it at level "none" ("1 3"):
a product, not one card of the 3.  The screen keeps its wording; only what is spoken
changes."""

from __future__ import annotations

import os
import random
import re

import pytest

from wasserspiele.core.messages import render

from .browser_support import CHROMIUM, browser, mid_game_table, serving  # noqa: F401
from .browser_support import ANNOUNCEMENTS
from .browser_support import tab_pool, tabs  # noqa: F401
from .browser_support import wildwasser_marker_choice
from .test_screen_reader_spoken import BOXES, LOCALES, card_name, card_sign, move, new_table, said, seat_word, wait_to_hear

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

SIGNS = "♣♦♥♠★×"
VALUES = ["A", "2", "3", "4", "5", "6", "7", "8"]
ANIMALS = ["mouse", "flamingo", "zebra", "cheetah", "giraffe", "rhino", "elephant", "crocodile"]
# the page's sockets, kept where a test can close them (the page keeps its own in a closure)
KEEP_SOCKETS = """window.__sockets = [];
window.WebSocket = class extends WebSocket {
  constructor(...args) { super(...args); window.__sockets.push(this); }
};"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # three hints asked by one client at once: more than the server's burst allows a client
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("WASSERSPIELE_HINT_BURST", "20")
        yield from serving(tmp_path_factory, "screen_reader_spoken_more", tables_per_client=200)


# every tab of the module records the live region, the boxes shown and the sockets: what a
# test does not look at changes nothing for it
SCRIPT = ANNOUNCEMENTS + BOXES + KEEP_SOCKETS


def open_page(tab_pool, server, link, lang, wait_for="#turn", size="desktop", k=0):
    """The module's k-th tab of `lang` (SCRIPT) at `link`: the page and that load's uncaught
    errors.  Pages open at once are different k, each a browser context of its own."""
    tab = tab_pool(LOCALES[lang], k, SCRIPT)
    return tab.open(server, link, size, wait_for), tab.errors


def heard(page) -> list[str]:
    """All a screen reader was given: the live region's lines and each alert as it appeared."""
    boxes = page.evaluate("() => window.__boxes.slice()")
    return said(page) + [words for role, words in boxes if role == "alert"]


def times_heard(page, words: str) -> int:
    return sum(line.count(words) for line in heard(page))


# ---------------------------------------------------------------- the hint
def ask_hint(page) -> str:
    """Clicks the hint button; returns the move the hint named."""
    with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
        page.click("#hint")
    body = answer.value.json()
    assert "action" in body, body
    action = body["action"]
    page.wait_for_selector("#hint-text")
    return action


# The hint tests' tables: a page asks for a hint and makes no move, so both languages' pages
# are shown the same position, played once.
@pytest.fixture(scope="module")
def seven_waters_to_take(server):
    """Seat 0 to take a card from the pyramid (SW-3.2)."""
    table = new_table(server, "seven_waters", 2, options={})
    rng = random.Random(5)
    for _ in range(200):
        sp = server.get(f"/api/tables/{table['id']}")
        legal = server.get(f"/api/tables/{table['id']}", table["seats"][sp["waiting"][0]]["token"])["legal"]
        if sp["waiting"] == [0] and sp["n"] >= 4 and all(a.startswith("take ") for a in legal):
            return table
        move(server, table, sp["waiting"][0], rng.choice(legal))
    raise AssertionError("seat 0 never came to take")


@pytest.fixture(scope="module")
def wasserloch_to_play(server):
    return mid_game_table(server, "wasserloch", 5, seed=4)


@pytest.fixture(scope="module")
def watten_to_call(server):
    return new_table(server, "watten", 4, options={})


@pytest.mark.parametrize("lang", ["en", "de"])
def test_sw_3_2_a_hint_to_take_a_card_is_heard_with_the_card_in_words(tab_pool, server, seven_waters_to_take, lang):
    table = seven_waters_to_take
    page, errors = open_page(tab_pool, server, table["seats"][0]["link"], lang)
    page.wait_for_selector("#turn[data-mine='1']")
    action = ask_hint(page)
    r, c = map(int, action.split()[1].split("-"))
    code = server.get(f"/api/tables/{table['id']}", table["seats"][0]["token"])["view"]["pyramid"][r - 1][c - 1]
    spoken = render("web.hint_is", {"a": render("seven_waters.web.take", {"c": card_name(code, lang)}, lang)}, lang)
    shown = render("web.hint_is", {"a": render("seven_waters.web.take", {"c": card_sign(code, lang)}, lang)}, lang)
    assert wait_to_hear(page, spoken)[-1] == spoken, (spoken, said(page))
    assert not any(sign in line for line in said(page) for sign in SIGNS), said(page)
    assert page.inner_text("#hint-text") == shown            # the screen keeps the card's signs
    assert errors == []


def wasserloch_play(action: str) -> tuple[int, str]:
    v, n = action.upper().split("X")
    return int(n), "A" if v == "1" else v


@pytest.mark.parametrize("lang", ["en", "de"])
def test_wl_4_a_hint_is_heard_as_a_count_of_cards_not_a_product(tab_pool, server, wasserloch_to_play, lang):
    table = wasserloch_to_play
    page, errors = open_page(tab_pool, server, table["seats"][0]["link"], lang)
    page.wait_for_selector("#turn[data-mine='1']")
    n, v = wasserloch_play(ask_hint(page))
    # the hint says the play in its move button's words, seen and heard alike ("play two
    # 3s"): it said "play 2 × 3" on screen, was heard "play 2 3s", and the button read
    # "play two 3s"
    words = render("wasserloch.web.play_button", {"n": n, "v": v}, lang)
    spoken = render("web.hint_is", {"a": words}, lang)
    assert wait_to_hear(page, spoken)[-1] == spoken, (spoken, said(page))
    assert "×" not in spoken, spoken
    assert page.inner_text("#hint-text") == spoken
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_wa_3_a_hint_to_call_trump_is_heard_with_the_suit_in_words(tab_pool, server, watten_to_call, lang):
    table = watten_to_call
    caller = next(s for s in range(4) if any(a.startswith("trump ") for a in server.get(
        f"/api/tables/{table['id']}", table["seats"][s]["token"])["legal"]))
    page, errors = open_page(tab_pool, server, table["seats"][caller]["link"], lang)
    page.wait_for_selector("#turn[data-mine='1']")
    action = ask_hint(page)
    assert action.startswith("trump "), action
    suit = action.split()[1]
    spoken = render("web.hint_is", {"a": render("watten.web.trump", {"s": render(f"web.suit_{suit}", {}, lang)}, lang)}, lang)
    assert wait_to_hear(page, spoken)[-1] == spoken, (spoken, said(page))
    assert not any(sign in line for line in said(page) for sign in SIGNS), said(page)
    assert re.search("[♣♦♥♠]", page.inner_text("#hint-text"))   # on screen: the suit's sign
    assert errors == []


# ---------------------------------------------------------------- reconnecting, replaced: heard once
@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_lost_connection_is_heard_once_not_as_an_alert_and_a_live_line(tab_pool, server, lang):
    table = mid_game_table(server, "wasserloch", 3, seed=2)
    page, errors = open_page(tab_pool, server, table["seats"][0]["link"], lang)
    page.wait_for_selector("#turn[data-mine='1']")
    reconnecting = render("web.reconnecting", {}, lang)
    # the connection drops and cannot be made anew for now (Chromium's offline mode keeps an
    # open socket open: it is closed as a lost connection would close it)
    page.context.set_offline(True)
    page.evaluate("() => window.__sockets.forEach((s) => s.close())")
    page.wait_for_selector(f"#notice:has-text({reconnecting!r})")
    # a few attempts to reconnect (300, 600, 900 ms apart), each drawing the page anew
    page.wait_for_function("() => window.__sockets.length >= 4")
    assert times_heard(page, reconnecting) == 1, heard(page)
    # back, and lost once more: told again, once
    page.context.set_offline(False)
    page.wait_for_function("(w) => !document.querySelector('#notice')?.textContent.includes(w)", arg=reconnecting)
    page.context.set_offline(True)
    page.evaluate("() => window.__sockets.forEach((s) => s.close())")
    page.wait_for_selector(f"#notice:has-text({reconnecting!r})")
    k = page.evaluate("() => window.__sockets.length")
    page.wait_for_function("(k) => window.__sockets.length >= k + 2", arg=k)
    assert times_heard(page, reconnecting) == 2, heard(page)
    page.context.set_offline(False)
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_replaced_tab_and_a_click_in_it_are_each_heard_once(tab_pool, server, lang):
    table = mid_game_table(server, "wasserloch", 3, seed=3)
    link = table["seats"][0]["link"]
    old, errors = open_page(tab_pool, server, link, lang)
    old.wait_for_selector("#turn[data-mine='1']")
    new, errors2 = open_page(tab_pool, server, link, lang, k=1)      # the same seat in another tab
    old.wait_for_selector("#notice #take-back")
    replaced, click = render("web.replaced", {}, lang), render("web.replaced_click", {}, lang)
    old.wait_for_timeout(300)
    assert times_heard(old, replaced) == 1, heard(old)
    # a click on a piece: why nothing happens is heard once, "replaced" not again
    old.locator("#board [data-key]").first.click(force=True)
    old.wait_for_selector("#notice-more")
    old.wait_for_timeout(300)
    assert times_heard(old, click) == 1 and times_heard(old, replaced) == 1, heard(old)
    # and a second click: its words once more (a new refusal), still not "replaced" again
    old.locator("#board [data-key]").first.click(force=True)
    old.wait_for_function("(w) => window.__boxes.filter(([r, x]) => r === 'alert' && x.includes(w)).length >= 2", arg=click)
    old.wait_for_timeout(300)
    assert times_heard(old, click) == 2 and times_heard(old, replaced) == 1, heard(old)
    # the screen as it was: the standing words, the click's, and the way back
    notice = old.inner_text("#notice")
    assert replaced in notice and click in notice and old.locator("#take-back").count() == 1
    assert errors == [] and errors2 == []


# ---------------------------------------------------------------- the own seat as a sentence's object
# WW-3.2, WW-4.3: how the marker moved (view.marker_how) → which seats hear a line of their own:
# the mover as `.you`, the seat it went to (who2) or came from (who3) as `.you_who2`/`.you_who3`
HEARERS = {"hands_on": {"seat": "you", "to": "you_who2"}, "moves": {"seat": "you", "to": "you_who2", "before": "you_who3"},
           "stays": {"seat": "you", "to": "you_who2"}, "takes": {"seat": "you", "before": "you_who3"}, "keeps": {"seat": "you"}}
OBJECT_WORDS = {"en": ("gave you", "to you", "from you", "with you"), "de": ("gab dir", "zu dir", "von dir", "bei dir", "dir den")}


def marker_choice(server):
    """A seat that may give the start marker to another seat's team card: the table, that
    seat, the moves that give it."""
    return wildwasser_marker_choice(server, lambda table, seat, legal, targets, token: (
        table, seat, [a for a in legal if a.split()[0] in ("action", "marker") and len(a.split()) == 2
                      and int(a.split()[1]) != seat]) if [x for x in targets if x != seat] else None)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_ww_3_2_the_seat_given_the_start_marker_hears_you_in_its_case(tab_pool, server, lang):
    table, mover, choices = marker_choice(server)
    marker = server.get(f"/api/tables/{table['id']}")["view"]["start_marker"]
    # a move whose marker goes to another seat than the one holding it (hands_on or moves)
    action = next((a for a in choices if int(a.split()[1]) != marker), choices[0])
    pages = {seat: open_page(tab_pool, server, table["seats"][seat]["link"], lang, size="phone", k=seat)
             for seat in range(3)}
    watcher, _ = open_page(tab_pool, server, f"/table/{table['id']}", lang, size="phone", k=3)
    move(server, table, mover, action)
    entry = next(e for e in reversed(server.get(f"/api/tables/{table['id']}")["view"]["log"]) if e["event"] == "marker")
    assert entry["seat"] == mover and entry["to"] == int(action.split()[1]) != mover, entry
    who = {"who": seat_word(entry["seat"], lang), "who2": render("web.seat_in_text", {"n": entry["to"]}, lang),
           "who3": render("web.seat_in_text", {"n": entry["before"]}, lang)}
    base = f"wildwasser.web.ev.marker_{entry['how']}"
    shown = render(base, who, lang)
    roles = {"seat": entry["seat"], "to": entry["to"], "before": entry["before"]}
    objects = 0
    for seat, (page, errors) in pages.items():
        form = next((f for role, f in HEARERS[entry["how"]].items() if roles[role] == seat), None)
        line = render(f"{base}.{form}", who, lang) if form else shown
        line = line[0].upper() + line[1:]
        got = wait_to_hear(page, line)
        assert line in got, (seat, entry, line, got)
        if form and form != "you":          # the seat as the object: its "you" in the case it takes
            objects += 1
            assert any(w in line for w in OBJECT_WORDS[lang]), line
            assert render("web.seat_in_text", {"n": seat}, lang) not in line, line
        # the log on screen keeps the seat words
        page.wait_for_function("(w) => [...document.querySelectorAll('#log li')].some((li) => li.textContent === w)",
                               arg=shown)
        assert errors == []
    assert objects >= 1, entry
    assert shown in wait_to_hear(watcher, shown)       # a spectator hears the seats' words


@pytest.mark.parametrize("lang", ["en", "de"])
def test_wa_2_the_next_dealer_and_caller_hear_you_in_the_deal_line(tab_pool, server, lang):
    table = new_table(server, "watten", 4, options={})
    pages = {seat: open_page(tab_pool, server, table["seats"][seat]["link"], lang, size="phone", k=seat)
             for seat in range(4)}
    rng = random.Random(8)
    for _ in range(200):      # to the second hand (WA-2: the deal passes on)
        sp = server.get(f"/api/tables/{table['id']}")
        if sp["view"]["hand_no"] >= 2:
            break
        seat = sp["waiting"][0]
        legal = server.get(f"/api/tables/{table['id']}", table["seats"][seat]["token"])["legal"]
        move(server, table, seat, rng.choice([a for a in legal if a != "concede"] or legal))
    else:
        raise AssertionError("no second hand")
    deal = next(e for e in reversed(sp["view"]["log"]) if e["event"] == "deal")
    d, c = deal["dealer"], deal["caller"]
    words = {"d": render("web.seat_in_text", {"n": d}, lang), "c": render("web.seat_in_text", {"n": c}, lang)}
    shown = render("watten.web.log.deal", words, lang)
    shown = shown[0].upper() + shown[1:]
    cap = lambda line: line[0].upper() + line[1:]  # noqa: E731  (a line begins with a capital)
    expected = {d: cap(render("watten.web.log.deal.you_d", words, lang)), c: cap(render("watten.web.log.deal.you_c", words, lang))}
    assert expected[d] == {"en": f"You dealt; {words['c']} calls trump.",
                           "de": f"Du hast gegeben; {words['c']} sagt Trumpf an."}[lang]
    assert expected[c] == {"en": f"{seat_word(d, lang)} dealt; you call trump.",
                           "de": f"{words['d']} hat gegeben; du sagst Trumpf an."}[lang]
    for seat, (page, errors) in pages.items():
        line = expected.get(seat, shown)
        got = wait_to_hear(page, line)
        assert line in got, (seat, line, got)
        assert all(x not in got for x in {shown, *expected.values()} - {line}), (seat, got)
        page.wait_for_function("(w) => [...document.querySelectorAll('#log li')].some((li) => li.textContent === w)",
                               arg=shown)
        assert errors == []


# ---------------------------------------------------------------- Wasserloch's count × value
def wasserloch_spoken(entry: dict, lang: str, you: bool) -> tuple[str, str]:
    """A play of the log (WL-4): (as it is shown, as it is heard by its seat or by others)."""
    n, v = wasserloch_play(entry["play"])
    params = {"n": n, "v": v, "a": render(f"wasserloch.web.animal.{ANIMALS[VALUES.index(v)]}", {}, lang)}
    who = {"who": seat_word(entry["seat"], lang)}
    shown = render("wasserloch.web.log", {**params, **who}, lang)
    spoken = render("wasserloch.web.log.you", params, lang) if you else \
        render("wasserloch.web.log.spoken", {**params, **who}, lang)
    tail = ""
    if entry.get("drove_off"):
        tail = " " + render("wasserloch.web.drove", {"v": entry["drove_off"], "n": entry["loot"],
                                                     "a": ""}, lang)
    head = f"{render('wasserloch.web.round', {'n': entry['round']}, lang)}: "
    return head + shown + tail, head + spoken + tail


@pytest.mark.parametrize("lang", ["en", "de"])
def test_wl_4_a_play_is_heard_as_a_count_of_cards_by_its_seat_and_by_others(tab_pool, server, lang):
    table = mid_game_table(server, "wasserloch", 5, seed=4)
    mine, errors0 = open_page(tab_pool, server, table["seats"][0]["link"], lang)
    watcher, errors1 = open_page(tab_pool, server, f"/table/{table['id']}", lang, k=1)
    mine.wait_for_selector("#turn[data-mine='1']")
    legal = server.get(f"/api/tables/{table['id']}", table["seats"][0]["token"])["legal"]
    action = max(legal, key=lambda a: wasserloch_play(a)[0])      # more than one card where it can
    move(server, table, 0, action)
    entry = server.get(f"/api/tables/{table['id']}")["view"]["recent"][-1]
    assert entry["seat"] == 0 and entry["play"] == action, entry
    shown, you = wasserloch_spoken(entry, lang, True)
    _, others = wasserloch_spoken(entry, lang, False)
    n, v = wasserloch_play(action)
    count = ({"en": "one ", "de": "eine Karte vom Wert "}[lang] if n == 1 else f"{n} ")
    assert "×" not in you + others and count in you and count in others, (you, others)
    heard_mine, heard_other = wait_to_hear(mine, you), wait_to_hear(watcher, others)
    assert you in heard_mine and others in heard_other, (you, others, heard_mine, heard_other)
    assert not any("×" in line for line in heard_mine + heard_other), (heard_mine, heard_other)
    for page in (mine, watcher):       # the log on screen keeps "n × v"
        page.wait_for_function("(w) => document.querySelector('#log li')?.textContent.startsWith(w)",
                               arg=shown.split(" (")[0])
    assert errors0 == [] and errors1 == []
