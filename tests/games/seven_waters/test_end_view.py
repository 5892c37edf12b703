"""What a Seven Waters view shows once the game is over (SW-5.1, SW-5.2).

The seed ends the game with "then the parks open and you count": the themes are turned
up (their suit counts) and each card left in hand costs a point.  A playtest found the
end screen (browser and terminal) still showing the other seat's last hand card face
down, beside a score table that counts it.  At the end every view now lays the hands
and themes open; the discard piles stay face down as the seed laid them (SW-5.2 reads
only their size, public all game).  So at the end the seats' views differ in nothing
but the viewer's own discard pile: that is the whole of what a terminal view keeps
secret, and a sampled world of a finished game may deal only that pile's order.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from wasserspiele import load
from wasserspiele.adapters.common import render_text
from wasserspiele.core.messages import Words
from wasserspiele.games.seven_waters.heuristic import rollout_policy
from wasserspiele.games.seven_waters.render import _pretty, render_view

GAME = load("seven_waters")


def _ended(seed: int, heuristic: bool = True):
    """A game played to its end for both seats by the heuristic (endings like a real
    game's: themes placed, a card or two left in hand, few discards) or at random (long
    discard piles)."""
    s = GAME.new_game(seed=seed)
    rng = random.Random(seed)
    while not s.is_terminal():
        seat = s.current_seat
        s.apply(rollout_policy(s, seat, rng) if heuristic else rng.choice(s.legal_actions(seat)), seat)
    return s


@pytest.fixture(scope="module")
def endings():
    return [_ended(seed, heuristic) for seed in range(4) for heuristic in (True, False)]


def _closed(view: dict) -> dict:
    """A terminal view without what only its own seat may see: the seat's number, its
    discard pile and the cards of its discard actions in the log."""
    v = copy.deepcopy(view)
    v["seat"] = None
    for p in v["players"]:
        p["discards"] = None
    for e in v["log"]:
        if e["kind"] == "discard":
            e["action"] = "discard"
    return v


def test_sw_5_1_end_view_lays_every_hand_and_theme_open_to_every_seat(endings):
    """SW-5.1, SW-5.2: at the end each seat's view (and a spectator's) shows both hands
    and both themes as they are; the other seat's hand was None (its count only)."""
    left_in_hand = 0
    for s in endings:
        for seat in (0, 1, None):
            v = s.view(seat)
            for p in (0, 1):
                shown = v["players"][p]
                assert shown["hand"] == [c.name for c in s.hands[p]], (seat, p)
                assert shown["hand_count"] == len(s.hands[p])
                assert shown["theme"] == (s.theme[p].name if s.theme[p] is not None else None)
                left_in_hand += seat is not None and p != seat and len(s.hands[p])
    assert left_in_hand > 0, "no ending left a card in the other seat's hand"


def test_sw_5_1_end_view_differs_between_seats_only_in_the_own_discard_pile(endings):
    """What a terminal view may reveal, precisely: every seat sees the same as a spectator
    except its own discard pile (its cards, and its discard actions' cards in the log),
    which the seed lays face down and the count never turns up.  Before, the hands and
    a theme's entry in the log ("placed a theme") differed too."""
    for s in endings:
        public = s.view(None)
        assert _closed(public) == public
        for seat in (0, 1):
            v = s.view(seat)
            assert _closed(v) == public, seat
            other = v["players"][1 - seat]
            assert other["discards"] is None and other["discard_count"] == len(s.discards[1 - seat])
            assert v["players"][seat]["discards"] == [c.name for c in s.discards[seat]]


def test_sw_5_2_end_view_log_names_the_turned_up_theme_card():
    """A theme placed within the log's window: while the game runs the other seat's log
    says only that a theme was placed; at the end it names the card, as the park does."""
    found = 0
    for seed in range(40):
        s = _ended(seed)
        for e in s.view(None)["log"]:
            if e["kind"] == "theme":
                assert e["action"] == f"theme {s.theme[e['seat']].name}", (seed, e)
                found += 1
    assert found, "no ending kept a theme in the log's window"


def test_sw_5_1_end_sample_world_deals_only_the_order_of_the_discard_pile(endings):
    """At the end only the other seat's discard pile is hidden, and every card not seen
    elsewhere lies in it: a sampled world keeps both hands and themes and the pile's
    cards, deals their order, and still depends only on what the seat sees.  Before, it
    dealt the other seat's hand anew (the view hid it)."""
    reordered = 0
    for s in endings:
        for seat in (0, 1):
            opp = 1 - seat
            for k in range(4):
                w = s.sample_world(seat, random.Random(k))
                assert w.view(seat) == s.view(seat) and w.view(None) == s.view(None)
                assert w.hands == s.hands and w.theme == s.theme
                assert sorted(w.discards[opp]) == sorted(s.discards[opp])
                assert w.discards[seat] == s.discards[seat]
                assert w.scores() == s.scores() and w.winners() == s.winners()
                reordered += w.discards[opp] != s.discards[opp]
                probe = random.Random(k + 100)
                again = w.sample_world(seat, random.Random(k + 100))
                assert s.sample_world(seat, probe).state_json() == again.state_json()
    assert reordered > 0, "the discard piles' order was never dealt"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_sw_5_1_end_view_terminal_renderer_shows_the_other_hand_face_up(endings, lang):
    """The terminal renderer (the CLI's board, the adapters' text rendering) prints the
    other seat's hand at the end card by card, as its own: it printed "1 Karte"."""
    t = Words("seven_waters.ui", lang)
    s = next(s for s in endings if s.hands[1])
    text = render_view(s.view(0), lang)
    other = text.split("\n\n")[2]   # status, pyramid, then the other seat's park first
    assert other.startswith(f"[bold]{t('seat')} 1[/bold]")
    hand = " ".join(_pretty(c.name, lang) for c in s.hands[1])
    assert f"  {t('hand')}: {hand}" in other.splitlines()
    if lang == "en":
        assert f"{t('hand')}: {hand}" in render_text(s, 0)


def test_sw_5_1_end_view_is_json_and_every_seat_sees_the_same_scores(endings):
    for s in endings:
        for seat in (0, 1, None):
            json.dumps(s.view(seat))
            assert s.scores_seen_by(seat) == s.scores()
