"""Issue 14 in the browser: the page renders every word from the server's message
catalogue (static/messages.js, the same templates and plural rule as core/messages.py),
and a random game of each game played in German shows no English sentence — not in the
page's visible text, not in its live region.  The detector is the terminal sweep's word
list; it is shown to fire on the same page switched to English."""

from __future__ import annotations

import gettext
import random
import re

import pytest

from wasserspiele.core.messages import catalogue, render

from .browser_support import GAMES, players_of, tabs  # noqa: F401 (tabs: a fixture)
from .test_browser import browser, server, current_n, sync_api, wait_for_my_turn_or_end  # noqa: F401 (fixtures)

from cli.test_i18n import ENGLISH  # the terminal sweep's words of English sentences

_WORD = re.compile(r"[A-Za-z']+")
# short games: one round of Wasserloch for two, Watten to 3 points, Wildwasser for two
SHORT = {"wasserloch": {"players": 2, "rounds": 1}, "seven_waters": {}, "watten": {"target": 3},
         "wildwasser": {"players": 2}}
# a click the page answered: the position moved on, or (no move of the page on its way to
# the server) buttons or a selection appeared, or it explained why the element fits no move now
ANSWERED = """(n) => { const t = document.querySelector('#turn');
                        if (!t || +t.dataset.n !== n || t.dataset.mine !== '1') return true;
                        return !document.querySelector('#actions[aria-busy]')
                               && !!(document.querySelector('#actions button[data-action]')
                                     || document.querySelector('.clickable.selected')
                                     || document.querySelector('#notice.info')); }"""
# every text the live region is given, kept as it comes (each announcement replaces the last)
RECORD_ANNOUNCEMENTS = """
  window.__said = [];
  new MutationObserver(() => {
    const box = document.getElementById('announce');
    if (box && box.textContent.trim()) window.__said.push(box.textContent);
  }).observe(document, { childList: true, subtree: true, characterData: true });
"""


def english_words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text) if w.lower() in ENGLISH}


def screen(page) -> str:
    """What a player reads: the page's visible text and everything the live region said."""
    return page.inner_text("body") + "\n" + "\n".join(page.evaluate("() => window.__said.splice(0)"))


# how many move buttons and how many pieces not yet chosen the page offers, in one look
# (a whole game asks it some hundred times: each question is a round trip to the page)
OFFERED = """() => [document.querySelectorAll('#actions button[data-action]').length,
                    document.querySelectorAll('.clickable:not(.selected)').length]"""


def play_a_random_move(page, rng: random.Random, n: int) -> None:
    """Click a random element of a legal move, then (if the click fitted several moves)
    a random one of the buttons offered, until the position (after move `n`) moves on —
    waiting on the page's state after each click, never on time."""
    moved = """(n) => { const t = document.querySelector('#turn');
                        return !t || +t.dataset.n !== n || t.dataset.mine !== '1'; }"""
    for _ in range(12):
        buttons, pieces = page.evaluate(OFFERED)
        choices = page.locator("#actions button[data-action]" if buttons else ".clickable:not(.selected)")
        count = buttons or pieces
        if count:
            try:  # the page may redraw between counting and clicking (an opponent's pick arrives)
                choices.nth(rng.randrange(count)).click(timeout=5_000)
            except sync_api.TimeoutError:
                continue
        # polled every 16 ms, not at each animation frame (that kept Chromium drawing frames)
        page.wait_for_function(ANSWERED, arg=n, polling=16)
        if page.evaluate(moved, n):
            return
    raise AssertionError("no move was made after 12 clicks")


def play_in(tabs, server, game: str, locale: str, seed: int):
    """A page in `locale` playing seat 0 of a short game against easy bots to its end (in
    the module's tab of that locale that records the live region).  Returns the page and
    every text it showed on the way."""
    table = server.post("/api/tables", {"game": game, "options": SHORT[game], "seats": [{"kind": "human"}] +
                                        [{"kind": "bot", "level": "easy"}] * ((SHORT[game].get("players") or players_of(game)) - 1)})
    tab = tabs(locale, RECORD_ANNOUNCEMENTS)
    page = tab.open(server, table["seats"][0]["link"], "desktop", wait_for=None)
    errors = tab.errors
    rng = random.Random(seed)
    shown = []
    n = -1
    for _ in range(2_000):
        terminal = wait_for_my_turn_or_end(page, n)
        shown.append(screen(page))
        if terminal:
            break
        n = current_n(page)
        play_a_random_move(page, rng, n)
    else:
        raise AssertionError(f"{game}: no end within 2,000 moves of seat 0")
    page.wait_for_selector("#result")
    shown.append(screen(page))
    assert errors == [], errors
    return page, shown


@pytest.mark.parametrize("game", GAMES)
def test_a_german_game_in_the_browser_shows_no_english_sentence(tabs, server, game):
    page, shown = play_in(tabs, server, game, "de-DE", seed=GAMES.index(game) + 1)
    found = {line.strip() for text in shown for line in text.splitlines() if english_words(line)}
    assert not found, f"{game}: English on the German page: {sorted(found)[:10]}"
    assert all(f"{game}.web." not in text and "web." not in text for text in shown)  # no raw codes
    assert page.evaluate("() => document.documentElement.lang") == "de"
    # the detector is not blind: the same page switched to English shows English
    page.select_option("#lang", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en' && document.title === 'Wasserspiele'")
    page.wait_for_function("() => /\\b(Seat|Game over|Result|Score)\\b/.test(document.body.innerText)")
    assert english_words(screen(page)), f"{game}: the English page shows no English word"


# ------------------------------------------------- the catalogue renders in the browser as on the server
CASES = [  # (code, params): terms, lists, cards, letters, plurals, plain web words
    ("wasserloch.ui.cards", {"n": 1}), ("wasserloch.ui.cards", {"n": 3}), ("wasserloch.ui.cards", {"n": 0}),
    ("wasserloch.event.drove_off", {"seat": 1, "play": "Ax3", "value": "8", "n": 2}),
    ("wasserloch.holds_only", {"seat": 0, "value": "A", "n": 2}),
    ("watten.must_follow_trump", {"suit": "H", "held": ["JC", "TH"]}),
    ("watten.must_follow_trump", {"suit": "D", "held": ["JC", "TH", "8D"]}),
    ("watten.not_held", {"card": "QS", "hand": ["JC", "8C", "AH", "9D", "KD"]}),  # a list of five, with its commas
    ("seven_waters.hand_full", {"n": 7}), ("seven_waters.pass_can_discard", {"n": 1}),
    ("wildwasser.no_such_player", {"seat": 4, "last": 2}),
    ("wildwasser.card_not_in_hand", {"animal": "meerkat"}),
    ("wildwasser.turtle_moves_only", {"animal": "cheetah"}),  # an animal named with its article (der Gepard)
    ("web.cards_n", {"n": 1}), ("web.cards_n", {"n": 7}), ("web.moves_n", {"n": 1}),
    ("web.seat", {"n": 2}), ("web.refused", {"reason": "x"}), ("web.app_title", {}),
    # a pasted value shown by its first 99 characters and "…", astral characters counted as one
    ("bot.setting_whole", {"name": "iterations", "value": "9" * 150, "least": 1, "most": 1000000}),
    ("bot.setting_whole", {"name": "iterations", "value": "🂡" * 120, "least": 1, "most": 1000000}),
    ("bot.setting_not_finite", {"name": "x", "value": list(range(60))}),
    ("option.above", {"name": "rounds", "option": "wasserloch.rounds", "value": "100", "maximum": "99"}),
    ("option.not_choice", {"name": "river_flow", "option": "wildwasser.river_flow", "value": "'up'",
                           "choices": "forward, back"}),
    ("option.below", {"name": "x", "option": "x", "value": "0", "minimum": "1"}),  # no game: the name
]


def test_the_browser_renders_the_catalogue_as_the_server_does(tabs, server):
    page = tabs().open(server, "/", "desktop", "#create")
    for lang in ("en", "de"):
        got = page.evaluate("""async ([lang, cases]) => {
            const { Catalogue } = await import('/static/messages.js');
            const cat = new Catalogue(await (await fetch(`/api/messages/${lang}`)).json());
            return cases.map(([code, params]) => cat.render(code, params));
          }""", [lang, CASES])
        want = [render(code, params, lang) for code, params in CASES]
        assert got == want
    # every plain entry of both catalogues (no parameters) renders as on the server
    for lang in ("en", "de"):
        plain = {k: v for k, v in catalogue(lang).entries.items() if isinstance(v, str) and "{" not in v}
        got = page.evaluate("""async ([lang, codes]) => {
            const { Catalogue } = await import('/static/messages.js');
            const cat = new Catalogue(await (await fetch(`/api/messages/${lang}`)).json());
            return codes.map((c) => cat.render(c, {}));
          }""", [lang, sorted(plain)])
        assert got == [render(c, {}, lang) for c in sorted(plain)]


PLURAL_RULES = ["(n != 1)", "(n > 1)", "0",
                "(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)",  # Polish
                "(n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2)",  # Latvian
                "(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5)"]  # Arabic


def test_the_plural_rule_is_evaluated_as_gettext_does(tabs, server):
    page = tabs().open(server, "/", "desktop", "#create")
    ns = list(range(0, 230))
    got = page.evaluate("""async ([rules, ns]) => {
        const { pluralRule } = await import('/static/messages.js');
        return rules.map((r) => { const f = pluralRule(r); return ns.map(f); });
      }""", [PLURAL_RULES, ns])
    assert got == [[gettext.c2py(rule)(n) for n in ns] for rule in PLURAL_RULES]
    refused = page.evaluate("""async () => {
        const { pluralRule } = await import('/static/messages.js');
        try { pluralRule("alert(1)"); return null; } catch (e) { return e.message; } }""")
    assert refused and "plural rule" in refused


def test_a_refusal_is_worded_in_the_pages_language(tabs, server):
    """A rule's refusal (code + params) is rendered by the page from its catalogue, so it
    follows a language switch; a server code without params uses the client's words, and
    so does plain English passed on from below on any page but an English one."""
    page = tabs("de-DE").open(server, "/", "desktop", "#create")
    refusal = {"error": "illegal", "reason": "only two aces in hand", "message": "x",
               "reason_code": "wasserloch.holds_only", "params": {"seat": 0, "value": "A", "n": 2}}
    ask = """async (data) => (await import('/static/i18n.js')).refusalText(data)"""
    assert page.evaluate(ask, refusal) == render("wasserloch.holds_only", refusal["params"], "de")
    assert page.evaluate(ask, {"type": "refused", "code": "stale", "reason": "stale"}) == \
        render("web.err_stale", {}, "de")
    # the server's own refusal, as it sends it: its code and parameters in the page's words
    stale = {"type": "refused", "code": "stale", "reason": "your move was based on move 151, …",
             "reason_code": "server.stale", "params": {"based_on": 151, "now": 152}}
    assert page.evaluate(ask, stale) == render("server.stale", stale["params"], "de")
    # a lower layer's English passed on as it is (code `text`): the client's words for the code
    passed_on = {"error": "bad_option", "reason": "option players: 9 is above the maximum 4",
                 "reason_code": "text", "params": {"text": "option players: 9 is above the maximum 4"}}
    assert page.evaluate(ask, passed_on) == render("web.err_bad_option", {}, "de")
    page.select_option("#lang", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert page.evaluate(ask, refusal) == "only two aces in hand"
    assert page.evaluate(ask, passed_on) == "option players: 9 is above the maximum 4"  # English says what


def test_the_lobby_names_a_refused_option_by_its_label_and_survives_any_player_count(tabs, server):
    """A German lobby said only that 'an option' was wrong; a huge player count typed into
    the form drew a seat row for each player and hung the page."""
    tab = tabs("de-DE")
    page = tab.open(server, "/", "phone", "body[data-lobby='ready']")
    page.select_option("#game", "wasserloch")
    page.fill("#opt-players", "1000000000")
    page.locator("#opt-players").dispatch_event("change")
    assert page.locator("select[id^='seat-']").count() == 4   # the option's maximum
    page.click("#create")
    page.wait_for_selector("#create-error")
    assert page.inner_text("#create-error") == "Nicht erlaubt: Option „Spieler“ (players): 1000000000 liegt über dem Höchstwert 4"
    page.fill("#opt-players", "3")
    page.locator("#opt-players").dispatch_event("change")
    # a player count redraws the form in a task of its own (app.js: setTimeout(render)): a
    # field filled while it is pending was drawn anew half filled ("2.53", on a busy machine)
    page.evaluate("() => new Promise((r) => setTimeout(r))")
    page.fill("#opt-rounds", "2.5")                           # not cut to 2 behind the player's back
    page.locator("#opt-rounds").dispatch_event("change")
    page.click("#create")
    page.wait_for_selector("#create-error:has-text('Durchgänge')")
    assert page.inner_text("#create-error") == "Nicht erlaubt: Option „Durchgänge“ (rounds): 2.5 ist keine ganze Zahl"
    assert tab.errors == []


# Each hand card of Wildwasser: (the big letter, the name line under it)
CARD_LETTERS = """() => [...document.querySelectorAll('#hand [data-key]')].map(card =>
  [...card.querySelectorAll('text')].map(el => el.textContent))"""


@pytest.mark.parametrize("locale, names", [("de-DE", {"Gepard", "Zebra", "Nashorn", "Erdmännchen", "Schildkröte"}),
                                           ("en-US", {"cheetah", "zebra", "rhino", "meerkat", "turtle"})])
def test_wildwasser_draws_each_animal_by_the_initial_of_its_name_in_the_page_s_language(tabs, server, locale,
                                                                                        names):
    """A German page showed the English initials (C for Gepard, R for Nashorn, M, T) on
    the hand cards, the tokens and the seat chips; the terminal already used the page's."""
    table = server.post("/api/tables", {"game": "wildwasser", "options": {"players": 2},
                                        "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}]})
    page = tabs(locale).open(server, table["seats"][0]["link"], "desktop", wait_for=None)
    wait_for_my_turn_or_end(page, -1)
    cards = page.evaluate(CARD_LETTERS)
    shown = {name for _letter, name in cards}
    assert shown and shown <= names, shown
    assert all(letter == name[0].upper() for letter, name in cards), cards
    # the seat chips say in the page's language how many animals are still on the team
    # card, yet to start (they listed their initials: test_browser_games_polish.py)
    waiting = page.inner_text("#seats")
    found = re.findall(r"[1-5] (?:noch am Start|yet to start)", waiting)
    assert found and all(w.endswith("noch am Start" if locale == "de-DE" else "yet to start") for w in found), waiting


@pytest.mark.parametrize("locale, ranks", [("de-DE", {"J": "B", "Q": "D", "K": "K", "A": "A", "T": "10"}),
                                           ("en-US", {"J": "J", "Q": "Q", "K": "K", "A": "A", "T": "10"})])
def test_watten_cards_carry_the_rank_letters_of_the_page_s_language(tabs, server, locale, ranks):
    """A German page drew Q and J on the cards (Dame and Bube are D and B, as the terminal
    and the German rules page write them)."""
    for _ in range(20):  # a hand with a jack or a queen (four in five deals have one)
        table = server.post("/api/tables", {"game": "watten", "seats": [{"kind": "human"}] * 4})
        hand = server.get(f"/api/tables/{table['id']}", table["seats"][0]["token"])["view"]["hand"]
        if any(c[0] in "JQ" for c in hand):
            break
    page = tabs(locale).open(server, table["seats"][0]["link"], "desktop", "#hand [data-key]")
    drawn = page.evaluate("""() => [...document.querySelectorAll('#hand [data-key]')].map(card =>
      [card.dataset.key, card.querySelector('text').textContent])""")
    assert sorted(key for key, _ in drawn) == sorted(f"hand:{c}" for c in hand), drawn
    assert all(letter == ranks.get(key[-2], key[-2]) for key, letter in drawn), drawn


def a_seven_waters_table_with_a_theme(server) -> tuple[dict, list[str], int]:
    """Two humans play over HTTP, a theme as soon as one is legal: the table, the seats'
    tokens and the seat that placed the theme (face down)."""
    table = server.post("/api/tables", {"game": "seven_waters", "seats": [{"kind": "human"}] * 2})
    tokens = [s["token"] for s in table["seats"]]
    for _ in range(200):
        st = server.get(f"/api/tables/{table['id']}")
        if any(e.get("kind") == "theme" for e in st["view"]["log"]):
            break
        seat = st["waiting"][0]
        mine = server.get(f"/api/tables/{table['id']}", tokens[seat])
        themes = [a for a in mine["legal"] if a.startswith("theme ")]
        server.post(f"/api/tables/{table['id']}/moves", {"action": (themes or mine["legal"])[0], "n": mine["n"]},
                    tokens[seat])
    return table, tokens, next(e for e in st["view"]["log"] if e.get("kind") == "theme")["seat"]


def test_another_seats_secret_theme_is_logged_as_secret_not_as_an_empty_card(tabs, server):
    """Seven Waters: after the opponent placed its theme the log read "Platz 0: Motto: ."
    (the card is hidden from the other seat, and the line dropped it into "Motto: {c}");
    the log tells it as the event it was, a secret theme placed."""
    table, _, placer = a_seven_waters_table_with_a_theme(server)
    placed = {"seat": placer}
    # the seat that did not see the card
    page = tabs("de-DE").open(server, table["seats"][1 - placed["seat"]]["link"], "desktop", "#log li")
    log = page.inner_text("#log")
    assert f"Platz {placed['seat']} legte ein geheimes Motto aus." in log, log
    assert "Motto: ." not in log


def test_sw_4_3d_another_seats_score_leaves_its_secret_theme_out_and_says_so(tabs, server):
    """SW-4.3d: every seat was sent the running totals with the theme points, whose
    difference to the public parts named the opponent's secret suit.  The other seat now
    gets the score without them (the placer's own page counts them), and its chip says
    "+ Motto?"."""
    table, tokens, placer = a_seven_waters_table_with_a_theme(server)
    other = 1 - placer
    own = server.get(f"/api/tables/{table['id']}", tokens[placer])["scores"][placer]
    seen = server.get(f"/api/tables/{table['id']}", tokens[other])["scores"][placer]
    assert server.get(f"/api/tables/{table['id']}")["scores"][placer] == seen  # a spectator: the same
    assert own > seen  # the theme card itself is of its suit: at least one point
    page = tabs("de-DE").open(server, table["seats"][other]["link"], "desktop", f"#seats [data-seat='{placer}'] .score")
    assert page.inner_text(f"#seats [data-seat='{placer}'] .score") == f"{seen} + Motto?"
    assert page.inner_text(f"#seats [data-seat='{other}'] .score").lstrip("-").isdigit()  # its own: no secret


@pytest.mark.parametrize("locale, accept, concede, raised", [
    ("de-DE", "Annehmen – das Blattl zählt dann 3", "Aufgeben – {team} bekommen 2 Punkte",
     "{who} erhöhte: Wenn angenommen, zählt das Blattl 3."),
    ("en-US", "Accept – the hand is then worth 3", "Concede – {team} score 2 points",
     "{who} raised: if accepted the hand is worth 3."),
])
def test_wa_6_the_seat_answering_a_raise_is_told_what_is_at_stake(tabs, server, locale, accept, concede, raised):
    """WA-6: the answering seat saw only "Platz 0 bietet." and the buttons Annehmen /
    Aufgeben, not what the hand is worth if accepted nor what the raisers get if not."""
    table = server.post("/api/tables", {"game": "watten", "options": {"raising": True, "hand_value": 2},
                                        "seats": [{"kind": "human"}] * 4})
    tokens = [s["token"] for s in table["seats"]]
    for _ in range(40):  # play over HTTP until a seat may raise, then raise
        st = server.get(f"/api/tables/{table['id']}")
        seat = st["waiting"][0]
        mine = server.get(f"/api/tables/{table['id']}", tokens[seat])
        action = "raise" if "raise" in mine["legal"] else mine["legal"][0]
        server.post(f"/api/tables/{table['id']}/moves", {"action": action, "n": mine["n"]}, tokens[seat])
        if action == "raise":
            break
    answerer = (seat + 1) % 4
    page = tabs(locale).open(server, table["seats"][answerer]["link"], "desktop", "#actions button[data-action='accept']")
    names = page.evaluate("""() => [...document.querySelectorAll('#actions button[data-action]')]
                                     .map(b => [b.dataset.action, b.textContent])""")
    # a seat inside a sentence is "seat 1" in English (a line begins with "Seat 1"); "Platz 1" in German
    who = lambda s: f"{'Platz' if locale == 'de-DE' else 'seat'} {s}"  # noqa: E731
    team = f"{who(seat & 1)} + {who((seat & 1) + 2)}"
    assert dict(names) == {"accept": accept, "concede": concede.format(team=team)}, names
    said = raised.format(who=who(seat))
    assert said[0].upper() + said[1:] in page.inner_text("#log")


@pytest.mark.parametrize("locale,words", [("de-DE", "Du bist nicht am Zug."), ("en-US", "It is not your turn.")])
def test_wa_3_2_a_card_tapped_off_turn_is_refused_for_the_turn_not_for_following_suit(tabs, server, locale,
                                                                                        words):
    """A seat that had played its card to a trick and tapped another was told "Du musst
    bedienen: diese Karte darfst du jetzt nicht spielen." (WA-3.2) though its hand held
    no card of the led suit: the page asked the game why before asking whose turn it is.
    Refusals come in the server's order: the turn first, then the rule."""
    table = server.post("/api/tables", {"game": "watten", "options": {"signals": "off"},
                                        "seats": [{"kind": "human"}] * 4})
    tokens = [s["token"] for s in table["seats"]]
    for _ in range(4):  # over HTTP: trump, then the first cards, until a seat has played to the trick
        st = server.get(f"/api/tables/{table['id']}")
        seat = st["waiting"][0]
        mine = server.get(f"/api/tables/{table['id']}", tokens[seat])
        server.post(f"/api/tables/{table['id']}/moves", {"action": mine["legal"][0], "n": mine["n"]}, tokens[seat])
        if mine["view"]["phase"] == "play":
            break
    assert mine["view"]["phase"] == "play" and server.get(f"/api/tables/{table['id']}")["waiting"] != [seat]
    page = tabs(locale).open(server, table["seats"][seat]["link"], "desktop", "#hand [data-key^='hand:']")
    page.locator("#hand [data-key^='hand:']").first.click(force=True)  # aria-disabled, yet it explains
    page.wait_for_selector("#notice")
    assert page.inner_text("#notice").strip() == words
