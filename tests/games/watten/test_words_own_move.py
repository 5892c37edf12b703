"""The terminal tells a Watten player their own move, as Wasserloch and Seven Waters do
("You played …"): `describe_own`, which cli/play.py `narrate_own` prints after a human's
move.  Watten had none, so a human's card, trump call, signal or raise went unsaid."""

from __future__ import annotations

import pytest

from wasserspiele.games.watten import render as R

from .helpers import new, start


def _own(state, seat, lang="en"):
    return R.describe_own(state.view(seat), lang)


def test_wa_1_3_own_trump_call_and_wa_5_own_signal_are_told_in_the_second_person():
    state = new({})
    caller = state.to_move()[0]
    state.apply("trump H")
    assert _own(state, caller) == "You named hearts trump"
    assert _own(state, caller, "de") == "Du hast Herz als Trumpf angesagt"
    state.apply("signal weak")  # the caller signals first (WA-5)
    assert _own(state, caller) == "You signalled: weak"
    assert _own(state, caller, "de") == "Du hast gezwickt: schwach"


def test_wa_3_own_card_is_told_after_the_others_have_played_on():
    state = start({3: "JH JC JS AH KH"})
    assert state.to_move() == (3,)
    state.apply("JH")
    assert _own(state, 3) == "You played J♥"
    assert _own(state, 3, "de") == "Du hast B♥ gespielt"
    state.apply(state.legal_actions()[0])  # seat 0 plays on
    assert _own(state, 3) == "You played J♥"  # still the seat's own last move, not seat 0's card


@pytest.mark.parametrize(("answer", "en", "de"), [
    ("accept", "You accepted: the hand is now worth 2", "Du hast angenommen: das Blattl zählt jetzt 2"),
    ("concede", "You conceded", "Du hast aufgegeben"),
])
def test_wa_6_own_raise_and_answer(answer, en, de):
    state = start({3: "JH JC JS AH KH", 0: "7C 8C 9C TC QC", 1: "7S 8S 9S TS QS", 2: "7D 8D 9D TD QD"},
                  raising=True)
    state.apply("raise")
    assert _own(state, 3) == "You raised to 2"
    assert _own(state, 3, "de") == "Du hast auf 2 erhöht"
    state.apply(answer)
    assert _own(state, 0) == en and _own(state, 0, "de") == de


def test_a_seat_that_has_not_moved_and_a_spectator_are_told_nothing():
    state = new({})
    assert _own(state, 0) == ""
    assert R.describe_own(state.view(None), "en") == ""
