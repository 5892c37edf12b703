"""Seven Waters' events are worded twice in its catalogues: for the terminal
(`seven_waters.event.*`, render.describe_event: "Seat 1 took K♦ from the pyramid") and for
the page's log (`seven_waters.web.log.*`, web.js logLines: the seat as the page names it,
"Anna", cards as the board draws them, a sentence's full stop, " (extra action)").  They
said different things: a take was "from 7-1" / „von 7-1" in the terminal and "from the
pyramid" / „aus der Pyramide" on the page (the seed: „Nimm eine freie Karte aus der
Pyramide", SW-4.1; the terminal keeps the place in its notation after it, "(7-1)", the
words a player types to take a card), and one's own slide was "(your extra action follows)" / „(jetzt deine
Zusatzaktion)" in the terminal, "(extra action follows)" / „(Zusatzaktion folgt)" on the page
(SW-4.3a).  Here every event, told to another seat and to its own, reads the same in both,
in English and German, but for what each medium draws its own way (the seat's name, the
cards' signs, the full stop, the extra action's mark, the terminal's notation of a place)."""

from __future__ import annotations

import pytest

from wasserspiele.core.messages import render, terms
from wasserspiele.games.seven_waters.render import describe_event

SEAT = 1
# one event of each kind as a view's log holds it (a seat's own view; another seat's
# discard is its count, its theme face down: SW-4.2, SW-4.3d)
EVENTS = [
    ({"kind": "take", "action": "take 7-1", "card": "QS", "revealed": []}, "take", {}),
    ({"kind": "take", "action": "take 6-2", "card": "QS", "revealed": ["4D", "JS"]}, "take", {}),
    ({"kind": "slide", "action": "slide 2 KD AC"}, "slide", {"k": "2"}),
    ({"kind": "river", "action": "river 8S 9S"}, "river", {}),
    ({"kind": "pool", "action": "pool 7H 2H"}, "pool", {}),
    ({"kind": "discard", "action": "discard 4S 5S"}, "discard", {}),
    ({"kind": "discard", "action": "discard", "count": 2}, "discard_secret", {"n": 2}),
    ({"kind": "discard", "action": "discard", "count": 1}, "discard_secret", {"n": 1}),
    ({"kind": "theme", "action": "theme 3H"}, "theme", {}),
    ({"kind": "theme", "action": "theme"}, "theme_secret", {}),
    ({"kind": "pass", "action": "pass"}, "pass", {}),
]


def page_line(event: dict, key: str, extra: dict, own: bool, lang: str) -> str:
    """The page's log line for `event` with the terminal's seat word and card signs put in
    (web.js names the seat and draws the cards its own way), without its full stop."""
    words = event["action"].split()
    cards = {"take": [event.get("card")], "slide": words[2:]}.get(event["kind"], words[1:])
    c = terms(cards, "*card", lang) if cards else ""
    r = " " + render("seven_waters.web.log.revealed", {"c": terms(event["revealed"], "*card", lang)}, lang) \
        if event.get("revealed") else ""
    params = {"who": render("web.seat", {"n": SEAT}, lang), "c": c, "r": r, "x": "", **extra}
    line = render(f"seven_waters.web.log.{key}" + (".you" if own else ""), params, lang)
    assert line.endswith("."), line
    return line[:-1]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("own", [False, True], ids=["other", "own"])
@pytest.mark.parametrize("event, key, extra", EVENTS, ids=[f"{e['kind']}-{k}-{i}" for i, (e, k, _) in enumerate(EVENTS)])
def test_sw_4_an_event_reads_the_same_in_the_terminal_and_on_the_page(event, key, extra, own, lang):
    event = {"seat": SEAT, "extra": False, **event}
    terminal = describe_event(event, lang, SEAT if own else None)
    place = f" ({event['action'].split()[1]})" if event["kind"] == "take" else ""
    assert place in terminal, terminal
    assert terminal.replace(place, "", 1) == page_line(event, key, extra, own, lang)


@pytest.mark.parametrize("lang, words", [("en", "from the pyramid"), ("de", "aus der Pyramide")])
def test_sw_4_1_a_take_is_from_the_pyramid_as_the_seed_says(lang, words):
    event = {"seat": SEAT, "extra": False, "kind": "take", "action": "take 7-1", "card": "QS", "revealed": []}
    for me in (None, SEAT):
        assert f"{words} (7-1)" in describe_event(event, lang, me)
