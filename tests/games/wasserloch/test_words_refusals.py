"""WL-4.1 refusals (cards not in hand) said to whoever reads them.  They said "seat 0
holds no 8s" to the player who tried (Seven Waters and Watten spoke of the hand:
"you do not hold 7♠"); a record's replay error names the seat itself ("action 0 "4x1"
by seat 0: …"), where a "you" would address the reader, so the words name neither a
seat nor a "you": "no 8s in hand"."""

from __future__ import annotations

import json

import pytest

from wasserspiele import load
from wasserspiele.core.errors import IllegalAction, ReplayError
from wasserspiele.core.messages import Reason
from wasserspiele.core.records import replay


def _first_absent_and_short(seed=1):
    state = load("wasserloch").new_game(seed=seed)
    seat = state.current_seat
    hand = state.view(seat)["hand"]
    absent = next(v for v in range(8) if hand[v] == 0)
    short = next(v for v in range(8) if hand[v] >= 1)
    return state, seat, "A2345678"[absent], "A2345678"[short], hand[short]


@pytest.mark.parametrize(("reason", "en", "de"), [
    (Reason("wasserloch.holds_none", seat=0, value="8"), "no 8s in hand", "keine 8er auf der Hand"),
    (Reason("wasserloch.holds_none", seat=2, value="A"), "no aces in hand", "keine Asse auf der Hand"),
    (Reason("wasserloch.holds_only", seat=1, value="A", n=1), "only one ace in hand",
     "nur eine Karte vom Wert Ass auf der Hand"),
    (Reason("wasserloch.holds_only", seat=1, value="7", n=2), "only two 7s in hand", "nur zwei 7er auf der Hand"),
])
def test_wl_4_1_not_held_names_no_seat_in_either_language(reason, en, de):
    assert reason == en and reason.render("de") == de


def test_wl_4_1_the_refusal_the_player_gets_names_the_hand_not_a_seat_number():
    state, seat, absent, short, held = _first_absent_and_short()
    with pytest.raises(IllegalAction) as err:
        state.apply(f"{absent}x1", seat)
    assert err.value.reason.code == "wasserloch.holds_none"
    assert "seat" not in err.value.reason and "Platz" not in err.value.reason.render("de")
    with pytest.raises(IllegalAction) as err:
        state.apply(f"{short}x{held + 1}", seat)
    assert err.value.reason.code == "wasserloch.holds_only" and "in hand" in err.value.reason


def test_wl_4_1_a_replay_error_names_the_seat_once_and_says_no_you():
    """records.md: the message names the action's index, the action, the seat and why."""
    state, seat, absent, _, _ = _first_absent_and_short()
    doc = {"format": "wasserspiele-record/1", "game": "wasserloch", "seed": 1, "actions": [f"{absent}x1"]}
    with pytest.raises(ReplayError) as err:
        replay(json.loads(json.dumps(doc)))
    values = {"A": "aces"}.get(absent, f"{absent}s")
    assert str(err.value) == f'action 0 "{absent}x1" by seat {seat}: no {values} in hand'
    de = err.value.render("de")
    assert de.startswith(f"Aktion 0 „{absent}x1“ von Platz {seat}: keine ") and de.endswith(" auf der Hand")
    assert "you" not in str(err.value).split(": ", 1)[1] and "du" not in de.lower().split(": ", 1)[1]
