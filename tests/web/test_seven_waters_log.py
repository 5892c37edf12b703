"""Seven Waters' "Last actions" log in the browser says what happened, in the past tense.

The other games' logs told events ("Seat 3 played the jack of hearts."), Seven Waters'
gave each move's button label as an order: "Seat 1: Take 4♣.", "Seat 0: River: 8♠.",
"Seat 0: Theme: secret.", „Platz 1: 7♣ nehmen.“.  Now each line is the terminal's event
sentence (`seven_waters.event.*`: took, added to the lazy river, built the slide, discarded,
placed a secret theme) with the seat named as the page names it, and cards as the board
draws them.  The game's own client module words the views of a seeded game (every kind of
event, seen by each seat and by a spectator) in a page of the real server.
"""

from __future__ import annotations

import os
import random
import re

import pytest

from .browser_support import CHROMIUM, browser, open_page, serving  # noqa: F401

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

SEED = 2          # a seeded game whose moves (least used kind first) bring every kind of event
NAMED = "Anna"    # seat 0's player's name; seat 1 stays unnamed ("Seat 1", "Platz 1")

# the event sentences as the catalogue words them for the page (the terminal's
# `seven_waters.event.*` with the seat as the page names it): what a reader should see
SENTENCES = {
    "en": {"take": "{who} took {c} from the pyramid{r}{x}.", "revealed": " (turned up: {c})",
           "river": "{who} added to the lazy river: {c}{x}.", "pool": "{who} added to the wave pool: {c}{x}.",
           "slide": "{who} built the slide of line {k}: {c} (extra action follows){x}.",
           "discard": "{who} discarded {c}{x}.", "discard_1": "{who} discarded 1 card{x}.",
           "discard_n": "{who} discarded {n} cards{x}.", "pass": "{who} passed{x}.",
           "theme": "{who} placed the theme {c}{x}.", "theme_secret": "{who} placed a secret theme{x}.",
           "extra": " (extra action)", "seat": "Seat {n}", "joker": "Joker", "ranks": {"T": "10"}},
    "de": {"take": "{who} nahm {c} aus der Pyramide{r}{x}.", "revealed": " (aufgedeckt: {c})",
           "river": "{who} legte an den Strömungskanal: {c}{x}.", "pool": "{who} legte ins Wellenbecken: {c}{x}.",
           "slide": "{who} baute die Rutsche an Leine {k}: {c} (Zusatzaktion folgt){x}.",
           "discard": "{who} warf {c} ab{x}.", "discard_1": "{who} warf 1 Karte ab{x}.",
           "discard_n": "{who} warf {n} Karten ab{x}.", "pass": "{who} passte{x}.",
           "theme": "{who} legte das Motto {c} aus{x}.", "theme_secret": "{who} legte ein geheimes Motto aus{x}.",
           "extra": " (Zusatzaktion)", "seat": "Platz {n}", "joker": "Joker", "ranks": {"T": "10", "J": "B", "Q": "D"}},
}
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

# a move button's words used as a log line: the old log's "Take 4♣", "River: 8♠", „7♣ nehmen“
ORDERS = {"en": re.compile(r"\b(Take|Discard)\b|: (River|Pool|Theme|Slide)|Pass\b|Theme: secret"),
          "de": re.compile(r"nehmen|abwerfen|Passen|: (Kanal|Becken|Motto)|Motto: geheim")}


def card_text(code: str, words: dict) -> str:
    """A card as the board draws it: "10♥", "B♣" in German, "Joker", "★=♣" (a declared joker)."""
    base, _, decl = code.partition("=")
    if base.startswith("X"):
        return f"★={SUITS.get(decl) or words['ranks'].get(decl, decl)}" if decl else words["joker"]
    return words["ranks"].get(base[:-1], base[:-1]) + SUITS[base[-1]]


def expected_line(e: dict, lang: str) -> str:
    """What the log should say of event `e` (as a view gives it), from its data alone."""
    w = SENTENCES[lang]
    who = NAMED if e["seat"] == 0 else w["seat"].format(n=e["seat"])
    words = e["action"].split()
    x = w["extra"] if e["extra"] else ""
    kind = e["kind"]
    if kind == "take":
        r = w["revealed"].format(c=" ".join(card_text(c, w) for c in e["revealed"])) if e["revealed"] else ""
        return w["take"].format(who=who, c=card_text(e["card"], w), r=r, x=x)
    if kind == "slide":
        return w["slide"].format(who=who, k=words[1], c=" ".join(card_text(c, w) for c in words[2:]), x=x)
    cards = " ".join(card_text(c, w) for c in words[1:])
    if kind == "discard" and not cards:   # another seat's discard: its count only (SW-4.2)
        return w["discard_1" if e["count"] == 1 else "discard_n"].format(who=who, n=e["count"], x=x)
    if kind == "theme" and not cards:     # another seat's theme lies face down (SW-4.3d)
        return w["theme_secret"].format(who=who, x=x)
    return w[kind].format(who=who, c=cards, x=x)


def seeded_game() -> dict:
    """Each viewer's (seat 0, seat 1, a spectator: None) log events of one seeded game, each
    as its view showed it when it was the newest; the moves try the least used kind first."""
    from wasserspiele import load

    state = load("seven_waters").new_game(seed=SEED)
    rng = random.Random(SEED)
    used: dict[str, int] = {}
    seen: dict = {0: {}, 1: {}, None: {}}
    while not state.view(None)["over"]:
        seat = state.view(None)["to_move"][0]
        by_kind: dict[str, list] = {}
        for action in state.legal_actions(seat):
            by_kind.setdefault(str(action).split()[0], []).append(action)
        kind = min(sorted(by_kind), key=lambda k: (used.get(k, 0), rng.random()))
        used[kind] = used.get(kind, 0) + 1
        state.apply(rng.choice(by_kind[kind]), seat)
        for viewer, events in seen.items():
            for e in state.view(viewer)["log"]:
                events.setdefault(e["index"], e)
    return {viewer: [events[i] for i in sorted(events)] for viewer, events in seen.items()}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "seven_waters_log")


@pytest.fixture(scope="module")
def game():
    return seeded_game()


_WORDED: dict[str, dict] = {}   # locale → the lines, worded once per module run


def log_lines(browser, server, locale: str, logs: dict) -> dict:
    """Each viewer's log lines as the game's client module words them (12 events a view,
    as a view's log holds at most), seat 0 named as its player, seat 1 not."""
    if locale in _WORDED:
        return _WORDED[locale]
    ctx, page, errors = open_page(browser, server, "/", "desktop", locale, wait_for=None)
    try:
        out = page.evaluate("""async ([logs, name]) => {
          const i18n = await import('/static/i18n.js');
          const game = (await import('/static/games/seven_waters.js')).default;
          i18n.setSeatNamer((n) => n === 0 ? name : null);
          const out = {};
          for (const [viewer, events] of Object.entries(logs)) {
            out[viewer] = [];
            for (let i = 0; i < events.length; i += 12) out[viewer].push(...game.logLines({ log: events.slice(i, i + 12) }));
          }
          return out;
        }""", [{str(k): v for k, v in logs.items()}, NAMED])
        assert errors == []
        _WORDED[locale] = out
        return out
    finally:
        ctx.close()


def test_the_seeded_game_brings_every_kind_of_event(game):
    """The game the log tests word: takes that turn cards up, river, pool, slides, discards
    told with their cards and by their count, a theme shown and kept secret, a pass, an
    extra action."""
    spectator, own = game[None], game[0] + game[1]
    assert {e["kind"] for e in spectator} == {"take", "river", "pool", "slide", "discard", "theme", "pass"}
    assert any(e["extra"] for e in spectator) and any(e.get("revealed") for e in spectator)
    assert any(e["kind"] == "theme" and len(e["action"].split()) > 1 for e in own)
    assert any(e["kind"] == "discard" and len(e["action"].split()) > 1 for e in own)


@pytest.mark.parametrize("locale, lang", [("en-US", "en"), ("de-DE", "de")])
def test_sw_4_the_log_says_what_happened_in_the_past_tense(browser, server, game, locale, lang):
    """Every line is the event sentence ("Anna took 4♣ from the pyramid.", „Platz 1 legte
    ein geheimes Motto aus.“), never a move button's order ("Seat 1: Take 4♣.", „7♣
    nehmen“), for each seat's view and a spectator's."""
    lines = log_lines(browser, server, locale, game)
    for viewer, events in game.items():
        said = lines[str(viewer)]
        assert said == [expected_line(e, lang) for e in events], viewer
        assert not [line for line in said if ORDERS[lang].search(line)], viewer


@pytest.mark.parametrize("locale, lang", [("en-US", "en"), ("de-DE", "de")])
def test_sw_4_2_sw_4_3d_the_log_keeps_discards_and_a_theme_secret_from_other_seats(browser, server, game, locale, lang):
    """SW-4.2, SW-4.3d: the cards a seat discarded and its theme card appear in its own log
    only; the other seat and a spectator read "discarded 2 cards", "placed a secret theme"."""
    lines = log_lines(browser, server, locale, game)
    w = SENTENCES[lang]
    checked = 0
    for owner in (0, 1):
        for viewer in (1 - owner, None):
            said = lines[str(viewer)]
            by_index = {e["index"]: line for e, line in zip(game[viewer], said)}
            for e in game[owner]:
                if e["seat"] != owner or e["kind"] not in ("discard", "theme") or len(e["action"].split()) < 2:
                    continue
                line = by_index[e["index"]]
                hidden = [card_text(c, w) for c in e["action"].split()[1:]]
                assert not any(c in line for c in hidden), (viewer, line, hidden)
                secret = w["theme_secret"] if e["kind"] == "theme" else w["discard_1" if len(hidden) == 1 else "discard_n"]
                who = NAMED if owner == 0 else w["seat"].format(n=owner)
                assert line == secret.format(who=who, n=len(hidden), x=w["extra"] if e["extra"] else ""), (viewer, line)
                checked += 1
    assert checked >= 8, checked   # both seats' themes and discards, each before two other viewers
