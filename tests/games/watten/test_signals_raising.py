"""WA-5 Zwicken (signals), WA-5.1 caught signals, WA-6 raising."""

from __future__ import annotations

import json
import random

import pytest

from wasserspiele.core.errors import ChanceExhausted, IllegalAction
from wasserspiele.core.records import replay

from .helpers import new, play, start


def after_trump(**options):
    state = new({}, **options)
    state.apply("trump H")
    return state


# -- WA-5: signals ---------------------------------------------------------------------

def test_wa_5_signal_phase_runs_in_play_order_from_the_caller():
    state = after_trump()
    order = []
    for _ in range(4):
        assert state.view(None)["phase"] == "signal"
        order.append(state.to_move()[0])
        state.apply("signal weak")
    assert order == [3, 0, 1, 2]
    assert state.view(None)["phase"] == "play" and state.to_move() == (3,)


def test_wa_5_signal_reaches_the_partner_only():
    state = after_trump()
    play(state, "signal strong")  # seat 3 → partner 1
    assert state.view(1)["signals"][3] == "strong"
    assert state.view(3)["signals"][3] == "strong"
    for seat in (0, 2, None):
        v = state.view(seat)
        assert v["signals"][3] is None
        assert "strong" not in json.dumps(v)


def test_wa_5_opponents_cannot_tell_a_signal_from_none():
    """Not even the fact that one was sent shows to the opponents."""
    a = after_trump()
    b = after_trump()
    play(a, "signal strong", "signal weak")
    play(b, "signal none", "signal none")
    assert a.view(2) != b.view(2)  # seat 0 (partner of 2) signalled differently
    a2, b2 = after_trump(), after_trump()
    play(a2, "signal strong", "signal none")
    play(b2, "signal none", "signal none")
    assert a2.view(0) == b2.view(0) and a2.view(2) == b2.view(2) and a2.view(None) == b2.view(None)


def test_wa_5_public_signals_show_to_everyone():
    state = after_trump(signals="public")
    play(state, "signal medium")
    for seat in (0, 1, 2, None):
        assert state.view(seat)["signals"][3] == "medium"


def test_wa_5_signals_off_skips_the_phase():
    state = after_trump(signals="off")
    assert state.view(None)["phase"] == "play" and state.to_move() == (3,)
    with pytest.raises(IllegalAction):
        state.apply("signal strong")
    assert state.view(3)["signals"] == [None] * 4


def test_wa_5_no_card_before_the_signals_are_done():
    state = after_trump()
    with pytest.raises(IllegalAction) as err:
        state.apply(state.view(3)["hand"][0])
    assert "signal" in err.value.reason


def test_wa_5_signals_may_be_false():
    state = start({3: "7C 8C 9C 7D 8D"})  # a weak hand may still claim strong
    state2 = new({3: "7C 8C 9C 7D 8D"})
    play(state2, "trump H", "signal strong", "signal none", "signal none", "signal none")
    assert state2.view(1)["signals"][3] == "strong"
    assert state.view(None)["phase"] == "play"


# -- WA-5.1: caught ----------------------------------------------------------------------

def test_wa_5_1_signal_caught_when_check_below_p_loses_the_hand():
    state = new({}, signal_detection_p=0.5, checks=[0.9, 0.1])
    play(state, "trump H", "signal weak")  # seat 3: 0.9 ≥ 0.5, not caught
    assert state.view(None)["phase"] == "signal"
    play(state, "signal none")  # seat 0: none draws no check
    play(state, "signal strong")  # seat 1: 0.1 < 0.5 → team 1 caught
    v = state.view(None)
    assert v["scores"] == [1, 0] and v["hand_no"] == 2
    assert v["last_hand"]["reason"] == "caught" and v["last_hand"]["team"] == 0
    assert {"event": "caught", "seat": 1, "signal": "strong"} in v["log"]
    assert state.chance.used("signal_checks") == 2


def test_wa_5_1_caught_team_loses_its_current_value():
    state = new({}, signal_detection_p=1.0, hand_value=3, checks=[0.99])
    play(state, "trump H", "signal none", "signal medium")  # seat 0 (team 0) caught
    assert state.view(None)["scores"] == [0, 3]


def test_wa_5_1_no_checks_read_when_p_is_zero():
    state = new({}, checks=[0.0])
    play(state, "trump H", *["signal strong"] * 4)
    assert state.chance.used("signal_checks") == 0 and state.view(None)["phase"] == "play"


def test_wa_5_1_checks_come_from_the_record_and_replay():
    state = new({}, signal_detection_p=0.3, seed=4)
    state.apply("trump C")
    while state.view(None)["phase"] == "signal" and state.view(None)["hand_no"] == 1:
        state.apply("signal weak")
    doc = json.loads(json.dumps(state.record()))
    assert len(doc["setup"]["signal_checks"]) == state.chance.used("signal_checks") >= 1
    again = replay(doc)
    assert again.state_json() == state.state_json()


def test_wa_5_1_record_without_enough_checks_is_refused():
    state = new({}, signal_detection_p=0.3, checks=[], deals_after=-1)
    state.apply("trump H")
    with pytest.raises(ChanceExhausted) as err:
        state.apply("signal weak")
    assert "signal_checks" in str(err.value)


# -- WA-6: raising -----------------------------------------------------------------------

def raising_game(**options):
    options.setdefault("raising", True)
    return start({3: "JH JC JS AH KH", 0: "7C 8C 9C TC QC", 1: "7S 8S 9S TS QS", 2: "7D 8D 9D TD QD"}, **options)


def test_wa_6_raising_off_by_default():
    state = start({})
    assert "raise" not in [str(a) for a in state.legal_actions()]
    with pytest.raises(IllegalAction) as err:
        state.apply("raise")
    assert "raising is off" in err.value.reason


def test_wa_6_raise_is_answered_by_the_next_opponent_in_play_order():
    state = raising_game()
    assert "raise" in [str(a) for a in state.legal_actions()]
    state.apply("raise")  # seat 3 about to lead
    v = state.view(None)
    assert v["phase"] == "answer" and state.to_move() == (0,)
    assert v["raise"]["pending"] == 3 and v["raise"]["answerer"] == 0
    with pytest.raises(IllegalAction) as err:
        state.apply("7C")
    assert "accept" in err.value.reason


def test_wa_6_accept_raises_the_value_and_the_raiser_plays_on():
    state = raising_game()
    play(state, "raise", "accept")
    v = state.view(None)
    assert v["value"] == 2 and state.to_move() == (3,) and v["phase"] == "play"
    assert "raise" not in [str(a) for a in state.legal_actions()]  # same team cannot raise again
    state.apply("JH")
    assert "raise" in [str(a) for a in state.legal_actions()]  # seat 0, the other team
    while state.view(None)["hand_no"] == 1:
        acts = [a for a in state.legal_actions() if str(a) != "raise"]
        state.apply(acts[0])
    assert state.view(None)["scores"] == [0, 2]


def test_wa_6_concede_scores_the_value_before_the_raise():
    state = raising_game()
    play(state, "raise", "concede")
    v = state.view(None)
    assert v["scores"] == [0, 1] and v["hand_no"] == 2
    assert v["last_hand"]["reason"] == "concede"


def test_wa_6_concede_after_an_accepted_raise_keeps_the_accepted_value():
    state = raising_game()
    play(state, "raise", "accept", "JH", "raise")  # seat 0 raises to 3
    assert state.to_move() == (1,)
    state.apply("concede")  # seat 1 (team 1) concedes: team 0 scores 2
    assert state.view(None)["scores"] == [2, 0]


def test_wa_6_raises_alternate_between_the_teams():
    state = raising_game()
    play(state, "raise", "accept", "JH")  # team 1 (seat 3) raised to 2
    play(state, "raise", "accept", "7C")  # team 0 (seat 0) raised to 3
    assert state.view(None)["value"] == 3
    play(state, "raise")  # seat 1, team 1, may raise again now
    assert state.to_move() == (2,)
    play(state, "accept")
    assert state.view(None)["value"] == 4 and state.view(None)["raise"]["last_team"] == 1


def test_wa_6_same_team_cannot_raise_twice_in_a_row():
    state = raising_game()
    play(state, "raise", "accept", "JH", "7C")  # team 1 raised; seat 0 plays without raising
    assert state.to_move() == (1,)
    with pytest.raises(IllegalAction) as err:
        state.apply("raise")  # seat 1 is team 1, which raised last (seat 3)
    assert "alternate" in err.value.reason
    assert "raise" not in [str(a) for a in state.legal_actions()]


def test_wa_6_gespannt_team_cannot_raise_but_may_answer():
    state = raising_game(target=2)
    v = state.view(None)
    assert v["raise"]["gespannt"] == [False, False]
    play(state, "raise", "accept")  # value 2: 0 + 2 ≥ 2, both teams gespannt now
    state.apply("JH")
    with pytest.raises(IllegalAction) as err:
        state.apply("raise")
    assert "gespannt" in err.value.reason
    assert state.view(None)["raise"]["gespannt"] == [True, True]


def test_wa_6_gespannt_by_score_and_answering_is_still_allowed():
    state = raising_game(target=3)
    state.team_scores[0] = 2  # team 0 one hand from winning
    assert state.view(None)["raise"]["gespannt"] == [True, False]
    state.apply("raise")  # seat 3, team 1, may raise
    assert state.legal_actions(0) and [str(a) for a in state.legal_actions(0)] == ["accept", "concede"]
    state.apply("accept")  # the gespannt team answers
    state.apply("JH")
    with pytest.raises(IllegalAction) as err:
        state.apply("raise")
    assert "gespannt" in err.value.reason or "alternate" in err.value.reason


def test_wa_6_no_raising_once_a_team_has_three_tricks():
    state = raising_game()
    for lead in ("JH", "JC", "JS"):
        state.apply(lead)
        for _ in range(3):
            state.apply([a for a in state.legal_actions() if str(a) != "raise"][0])
    assert state.won == [0, 3]
    with pytest.raises(IllegalAction) as err:
        state.apply("raise")
    assert "3 tricks" in err.value.reason


def test_wa_6_answer_without_a_raise_is_illegal():
    state = raising_game()
    with pytest.raises(IllegalAction) as err:
        state.apply("accept")
    assert "no raise" in err.value.reason


def test_wa_6_raising_games_replay_from_their_record():
    rng = random.Random(3)
    state = new({}, raising=True, seed=9)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    again = replay(json.loads(json.dumps(state.record())))
    assert again.state_json() == state.state_json() and again.winners() == state.winners()
