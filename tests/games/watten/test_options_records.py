"""Watten options, notation, record setup and replay."""

from __future__ import annotations

import json
import random

import pytest

from wasserspiele import load
from wasserspiele.core.errors import BadNotation, BadOption, BadRecord, ChanceExhausted, IllegalAction, ReplayError
from wasserspiele.core.records import replay

from .helpers import deal, new, play, start


# -- options ------------------------------------------------------------------------------

def test_options_defaults_match_the_spec():
    game = load("watten")
    assert game.options == {"target": 11, "first_dealer": 0, "raising": False, "signals": "partner",
                            "signal_detection_p": 0.0, "jack_order": "skat", "follow": "all",
                            "caller": "dealer_right", "hand_value": 1}
    assert game.non_default_options() == {}


@pytest.mark.parametrize("bad", [{"target": 0}, {"first_dealer": 4}, {"signals": "loud"},
                                 {"signal_detection_p": 1.5}, {"jack_order": "random"},
                                 {"follow": "none"}, {"caller": "dealer"}, {"hand_value": 0},
                                 {"players": 4}, {"raising": "yes"}])
def test_options_bad_values_are_refused_with_the_option_named(bad):
    with pytest.raises(BadOption) as err:
        load("watten", **bad)
    assert list(bad)[0] in str(err.value)


def test_option_target_ends_the_game_at_that_score():
    state = load("watten", target=3).new_game(seed=1)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert max(state.team_scores) == 3


def test_option_first_dealer_sets_dealer_and_caller():
    state = load("watten", first_dealer=2).new_game(seed=1)
    v = state.view(None)
    assert v["dealer"] == 2 and v["caller"] == 1 and state.to_move() == (1,)


def test_option_caller_dealer_left_names_trump_and_leads():
    """Traditional Watten: the caller sits on the dealer's left, (dealer + 1) mod 4."""
    state = new({1: "JC 8C AH 9D KS"}, caller="dealer_left")
    assert state.view(None)["caller"] == 1 and state.to_move() == (1,)
    assert sorted(state.view(1)["hand"]) == sorted("JC 8C AH 9D KS".split())
    play(state, "trump H", *["signal none"] * 4)
    assert state.to_move() == (1,)


def test_option_hand_value_is_what_a_hand_scores():
    state = start({3: "JH JC JS JD AH"}, hand_value=2, target=15)
    while state.view(None)["hand_no"] == 1:
        state.apply(state.legal_actions()[0])
    assert state.view(None)["scores"] == [0, 2] and state.view(None)["value"] == 2


def test_option_jack_order_first_played_earliest_non_trump_jack_wins():
    hands = {3: "JD 7C 8C 9C TC", 0: "JC QC KC AC 7S", 1: "8S 9S TS QS KS", 2: "JS AS 7D 8D 9D"}
    skat = start(hands, trump="H")
    play(skat, "JD", "JC", "8S", "JS")
    assert skat.tricks[-1][2] == 0  # skat order: J♣ beats J♦
    first = start(hands, trump="H", jack_order="first_played")
    play(first, "JD", "JC", "8S", "JS")
    assert first.tricks[-1][2] == 3  # the three are equal: the earliest played wins


def test_option_jack_order_first_played_trump_jack_still_highest():
    hands = {3: "JD 7C 8C 9C TC", 0: "JH QC KC AC 7S", 1: "8S 9S TS QS KS", 2: "JS AS 7D 8D 9D"}
    state = start(hands, trump="H", jack_order="first_played")
    play(state, "JD", "JH", "8S", "JS")
    assert state.tricks[-1][2] == 0


def test_option_follow_trump_only_frees_plain_leads():
    hands = {3: "7C 9S TS QS KS", 0: "8C AH 9D KD 8D"}
    state = start(hands, follow="trump_only")
    state.apply("7C")
    assert sorted(str(a) for a in state.legal_actions()) == sorted("8C AH 9D KD 8D".split())
    state.apply("9D")
    assert state.view(None)["voids"][0] == []  # no void revealed: no duty to follow


def test_option_follow_trump_only_still_requires_following_trump():
    hands = {3: "JD 9S TS QS KS", 0: "7H AC 9D KD 8D"}
    state = start(hands, follow="trump_only")
    state.apply("JD")
    assert [str(a) for a in state.legal_actions()] == ["7H"]


def test_option_signals_modes_change_only_visibility():
    for mode, seen_by_opponent in (("partner", False), ("public", True)):
        state = new({}, signals=mode)
        play(state, "trump H", "signal strong")
        assert (state.view(0)["signals"][3] == "strong") is seen_by_opponent
        assert state.view(1)["signals"][3] == "strong"


# -- notation -----------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "canonical"), [
    ("trump H", "trump H"), ("  TRUMP   h ", "trump H"), ("trump hearts", "trump H"),
    ("signal weak", "signal weak"), ("Signal  STRONG", "signal strong"), ("signal none", "signal none"),
    ("signal medium", "signal medium"), ("raise", "raise"), (" Accept", "accept"), ("CONCEDE ", "concede"),
    ("JC", "JC"), ("th", "TH"), ("10h", "TH"), (" 7d ", "7D"),
])
def test_notation_parses_and_prints_canonically(text, canonical):
    game = load("watten")
    assert str(game.parse_action(text)) == canonical
    assert game.parse_action(text) is game.parse_action(canonical)  # interned


@pytest.mark.parametrize("text", ["", "trump", "trump X", "trump H S", "signal", "signal loud",
                                  "2H", "6C", "X1", "ZZ", "raise now", "play JC", "JC JD"])
def test_notation_bad_text_raises_bad_notation_with_help(text):
    with pytest.raises(BadNotation) as err:
        load("watten").parse_action(text)
    assert str(err.value)


@pytest.mark.parametrize(("text", "says"), [
    ("ZZ", "'ZZ' is not a card (rank 7 8 9 T J Q K A, then suit C D H S)"),
    ("2H", "'2H' is not in the Watten deck (ranks 7 8 9 T J Q K A only)"),
    ("X1", "'X1' is not in the Watten deck"),
])
def test_a_bad_card_is_described_by_the_watten_deck(text, says):
    """Core's card parser describes the 54-card deck; a Watten player never hears of 2-6 or jokers."""
    with pytest.raises(BadNotation) as err:
        load("watten").parse_action(text)
    assert says in str(err.value) and "joker" not in str(err.value)


def test_illegal_card_not_held_says_so():
    state = start({3: "7C 9S TS QS KS"})
    with pytest.raises(IllegalAction) as err:
        state.apply("AH")
    assert err.value.reason.startswith("A♥ is not in hand, only ")


def test_illegal_trump_twice_and_signal_after_the_phase():
    state = start({})
    with pytest.raises(IllegalAction) as err:
        state.apply("trump C")
    assert "already" in err.value.reason
    with pytest.raises(IllegalAction) as err:
        state.apply("signal weak")
    assert "signals are over" in err.value.reason


# -- records --------------------------------------------------------------------------------

def test_record_round_trip_mid_game_and_at_the_end():
    rng = random.Random(5)
    state = load("watten", raising=True, signal_detection_p=0.1).new_game(seed=8)
    checkpoints = 0
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
        if len(state.history) % 37 == 0:
            again = replay(json.loads(json.dumps(state.record())))
            assert again.state_json() == state.state_json()
            checkpoints += 1
    doc = json.loads(json.dumps(state.record()))
    assert doc["options"] == {"raising": True, "signal_detection_p": 0.1}
    assert len(doc["setup"]["deals"]) == state.hand_no
    again = replay(doc)
    assert again.state_json() == state.state_json() and again.is_terminal() and checkpoints


def test_record_setup_deal_gives_the_cards_in_order():
    order = deal({3: "JC 7H 8H 9H TH"}, caller=3)
    state = load("watten").new_game(setup={"deals": [order]})
    assert sorted(state.view(3)["hand"]) == sorted(order[:5])
    assert sorted(state.view(0)["hand"]) == sorted(order[5:10])
    assert sorted(state.view(2)["hand"]) == sorted(order[15:20])
    assert [str(c) for c in sorted(state.state_json()["unused"])] == sorted(order[20:])


def test_record_needing_more_deals_than_it_has_fails_clearly():
    order = deal({3: "JH JC JS JD AH"}, caller=3)
    actions = ["trump H"] + ["signal none"] * 4
    state = load("watten").new_game(setup={"deals": [order]})
    play(state, *actions)
    while len(state.tricks) < 4:
        state.apply(state.legal_actions()[0])
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    before = json.dumps(state.state_json())
    with pytest.raises(ChanceExhausted) as err:
        state.apply(state.legal_actions()[0])  # the last card ends the hand: deal 2 is needed
    assert "setup.deals" in str(err.value) and "2" in str(err.value)
    assert json.dumps(state.state_json()) == before  # nothing changed
    doc = {"game": "watten", "setup": {"deals": [order]}, "actions": actions + ["JH"] * 0}
    assert replay(doc).view(None)["phase"] == "play"


@pytest.mark.parametrize(("setup", "field"), [
    ({"deals": "x"}, "setup.deals"),
    ({"deals": [["JC"] * 31]}, "setup.deals[0]"),
    ({"deals": [deal({}, 3)[:31] + ["7C"]]}, "setup.deals[0]"),
    ({"deals": [deal({}, 3), deal({}, 3)[:-1] + ["2H"]]}, "setup.deals[1][31]"),
    ({"deals": [deal({}, 3), deal({}, 3), 5]}, "setup.deals[2]"),
    ({"deals": [deal({}, 3)[:-1] + [7]]}, "setup.deals[0][31]"),
    ({"deals": [deal({}, 3)], "signal_checks": [0.5, 1.0]}, "setup.signal_checks[1]"),
    ({"deals": [deal({}, 3)], "signal_checks": [True]}, "setup.signal_checks[0]"),
    ({"deals": [deal({}, 3)], "signal_checks": 0.5}, "setup.signal_checks"),
    ({"decks": []}, "setup.decks"),
])
def test_validate_setup_names_the_bad_field(setup, field):
    with pytest.raises(BadRecord) as err:
        load("watten").validate_setup(setup)
    assert str(err.value).startswith(field + ":"), str(err.value)


def test_validate_setup_reports_duplicates_and_size():
    bad = deal({}, 3)
    dup = bad[:-1] + [bad[0]]
    with pytest.raises(BadRecord, match=r"setup.deals\[0\]: .* appears twice"):
        load("watten").validate_setup({"deals": [dup]})
    with pytest.raises(BadRecord, match=r"setup.deals\[0\]: has 31 cards, a deal has exactly 32 \(missing: "):
        load("watten").validate_setup({"deals": [bad[:-1]]})
    with pytest.raises(BadRecord, match=r"setup.deals\[0\]: has 33 cards"):
        load("watten").validate_setup({"deals": [bad + ["7C"]]})


def test_replay_of_an_illegal_action_names_it():
    order = deal({3: "7C 9S TS QS KS", 0: "JC 8C AH 9D KD"}, caller=3)
    doc = {"game": "watten", "setup": {"deals": [order]},
           "actions": ["trump H", "signal none", "signal none", "signal none", "signal none", "7C", "JC"]}
    with pytest.raises(ReplayError) as err:
        replay(doc)
    assert err.value.index == 6 and "clubs must be followed" in str(err.value)
