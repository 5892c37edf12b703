"""Watten rules, one test (or more) per clause of shared/spec/watten.md, and its worked checks."""

from __future__ import annotations

from collections import Counter

import pytest

from wasserspiele import load
from wasserspiele.core.cards import card
from wasserspiele.core.errors import IllegalAction
from wasserspiele.games.watten.actions import CARD_ID

from .helpers import new, play, start


def strength(state, name, led):
    """Strength of a card under the state's trump with `led` (suit letter) led."""
    g = state.game
    return g.strength[state.trump * 4 + "CSHD".index(led)][CARD_ID[name]]


# -- WA-1: table, cards, caller, rotation --------------------------------------------

def test_wa_1_1_two_teams_of_partners_sitting_opposite():
    game = load("watten")
    assert game.players == 4 and game.teams == [(0, 2), (1, 3)]
    assert [game.team_of(s) for s in range(4)] == [0, 1, 0, 1]


def test_wa_1_1_scores_per_seat_are_team_scores_and_both_partners_win():
    state = new({}, target=1)
    state.apply("trump H")
    play(state, *["signal none"] * 4)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    s = state.scores()
    assert s[0] == s[2] and s[1] == s[3] and max(s) == 1
    w = state.winners()
    assert len(w) == 2 and w[1] == w[0] + 2


def test_wa_1_2_five_cards_each_and_twelve_unused_of_thirty_two():
    state = load("watten").new_game(seed=5)
    assert [len(h) for h in state.hands] == [5, 5, 5, 5]
    assert len(state.unused) == 12
    comps = state.components()
    assert sum(comps.values()) == 32 and max(comps.values()) == 1
    assert set(comps) == {card(r + s) for r in "789TJQKA" for s in "CSHD"}


def test_wa_1_2_first_five_cards_to_the_caller_then_clockwise():
    state = new({3: "JC 8C AH 9D KS", 0: "7C 7D 7H 7S 8D"})
    assert [str(c) for c in state.view(3)["hand"]] and sorted(state.view(3)["hand"]) == sorted("JC 8C AH 9D KS".split())
    assert sorted(state.view(0)["hand"]) == sorted("7C 7D 7H 7S 8D".split())


def test_wa_1_3_caller_is_dealer_right_and_names_any_suit():
    state = new({3: "7C 8C 9C TC QC"})  # dealer 0 → caller 3, who holds no spades
    assert state.view(None)["caller"] == 3 and state.to_move() == (3,)
    state.apply("trump S")
    for seat in (None, 0, 1, 2, 3):
        assert state.view(seat)["trump"] == "S"  # the call is public


def test_wa_1_3_only_the_caller_may_name_trump_first():
    state = new({})
    with pytest.raises(IllegalAction) as err:
        state.apply("JC", 3)
    assert "names trump" in err.value.reason
    with pytest.raises(IllegalAction):
        state.apply("trump H", 0)  # not seat 0's turn


def test_wa_1_3_trump_named_again_while_signals_go_round_is_refused_as_already_named():
    """Trump is named once (WA-1.3); naming it again while the signals go round (WA-5)
    said "signal first", as if the trump call were still to come."""
    state = new({})
    state.apply("trump H", 3)
    assert str(state.legal_actions()[0]).startswith("signal")  # WA-5: the signals go round
    with pytest.raises(IllegalAction) as err:
        state.apply("trump S", 3)
    assert err.value.reason.code == "watten.trump_named", err.value.reason
    assert err.value.reason.render("de").startswith("Trumpf ist schon angesagt")


def test_wa_1_4_worked_seating_sequence():
    """Dealer 0 → caller 3 leads; the first trick goes 3, 0, 1, 2. Next hand: dealer 1, caller 0."""
    state = start({})
    seats = []
    for _ in range(4):
        seats.append(state.to_move()[0])
        state.apply(state.legal_actions()[0])
    assert seats == [3, 0, 1, 2]
    while state.view(None)["hand_no"] == 1:
        state.apply(state.legal_actions()[0])
    v = state.view(None)
    assert (v["dealer"], v["caller"], v["to_move"]) == (1, 0, [0])


def test_wa_1_4_dealer_moves_clockwise_every_hand():
    state = load("watten").new_game(seed=3)
    dealers = []
    while not state.is_terminal() and len(dealers) < 6:
        v = state.view(None)
        if not dealers or v["hand_no"] != dealers[-1][0]:
            dealers.append((v["hand_no"], v["dealer"]))
        state.apply(state.legal_actions()[0])
    assert [d for _, d in dealers] == [0, 1, 2, 3, 0, 1][:len(dealers)]


# -- WA-2: rank table -------------------------------------------------------------------

def test_wa_2_worked_rank_table_trump_hearts():
    """J♥ > J♣ > J♠ > J♦ > A♥ > K♥ > … > 7♥ > the led suit."""
    state = start({})
    order = ["JH", "JC", "JS", "JD", "AH", "KH", "QH", "TH", "9H", "8H", "7H", "AC", "KC", "QC", "TC", "9C", "8C", "7C"]
    values = [strength(state, c, "C") for c in order]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    assert strength(state, "AD", "C") == 0 and strength(state, "AS", "C") == 0  # never win


def test_wa_2_trump_jack_wins_a_trick_over_the_other_jacks():
    state = start({3: "JC 7C 8C 9C TC", 0: "JH QC KC AC 7S", 1: "JS 8S 9S TS QS", 2: "JD KS AS 7D 8D"})
    play(state, "JC", "JH", "JS", "JD")
    assert state.tricks[-1][2] == 0


def test_wa_2_non_trump_jacks_rank_clubs_spades_hearts_diamonds():
    state = start({3: "JD 7C 8C 9C TC", 0: "JH QC KC AC 7S", 1: "JS 8S 9S TS QS", 2: "JC KS AS 7D 8D"}, trump="D")
    play(state, "JD", "JH", "JS", "JC")  # J♦ is trump's jack
    assert state.tricks[-1][2] == 3
    state = start({3: "JH 7C 8C 9C TC", 0: "JD QC KC AC 7S", 1: "JS 8S 9S TS QS", 2: "JC KS AS 7D 8D"}, trump="S")
    play(state, "JH", "JD", "JS", "JC")
    assert state.tricks[-1][2] == 1  # J♠ is trump's jack
    state = start({3: "JH 7C 8C 9C TC", 0: "JD QC KC AC 7D", 1: "TH 8H 9H QH KH", 2: "JC 8D 9D TD QD"}, trump="S")
    play(state, "JH", "JD", "TH", "JC")
    assert state.tricks[-1][2] == 2  # J♣ > J♥ > J♦


def test_wa_2_1_jacks_belong_to_trump_not_their_printed_suit():
    state = start({})
    eff = state.game.eff[state.trump]
    assert {eff[CARD_ID[j]] for j in ("JC", "JS", "JH", "JD")} == {state.trump}


def test_wa_2_1_worked_jack_led_is_a_trump_lead():
    """J♦ led: a trump lead; a player holding 7♥ or J♠ must play a trump."""
    state = start({3: "JD 7C 8C 9C TC", 0: "7H QC KC AC 7S", 1: "JS 8S 9S TS QS"})
    state.apply("JD")
    assert [str(a) for a in state.legal_actions()] == ["7H"]
    with pytest.raises(IllegalAction) as err:
        state.apply("QC")
    assert "trump must be followed" in err.value.reason and "7♥" in err.value.reason
    state.apply("7H")
    assert [str(a) for a in state.legal_actions()] == ["JS"]


# -- WA-3: play --------------------------------------------------------------------------

def test_wa_3_1_caller_leads_and_the_trick_winner_leads_next():
    state = start({3: "7C 8D 9D TD QD", 0: "AC 8S 9S TS QS", 1: "8C KS AS 7D 7S", 2: "9C KD AD 7H 8H"})
    assert state.to_move() == (3,)
    play(state, "7C", "AC", "8C", "9C")
    assert state.tricks[-1][2] == 0 and state.to_move() == (0,)


def test_wa_3_2_worked_must_follow_led_suit_jack_is_not_a_club():
    """♣7 led, hand {J♣, 8♣, A♥}: must play 8♣ (J♣ is a trump, not a club)."""
    state = start({3: "7C 9S TS QS KS", 0: "JC 8C AH 9D KD"})
    state.apply("7C")
    assert [str(a) for a in state.legal_actions()] == ["8C"]
    with pytest.raises(IllegalAction) as err:
        state.apply("JC")
    assert err.value.reason == "clubs must be followed (8♣ in hand)"
    assert err.value.reason.render("de") == "Kreuz muss bedient werden (8♣ auf der Hand)"
    with pytest.raises(IllegalAction):
        state.apply("AH")


def test_wa_3_2_worked_cannot_follow_any_card():
    """♣7 led, hand {J♣, A♥, 9♦}: cannot follow, any card."""
    state = start({3: "7C 9S TS QS KS", 0: "JC AH 9D KD 8D"})
    state.apply("7C")
    assert sorted(str(a) for a in state.legal_actions()) == sorted("JC AH 9D KD 8D".split())


def test_wa_3_2_no_duty_to_beat_or_to_trump():
    state = start({3: "KC 9S TS QS KS", 0: "7C AC AH 9D 8D"})
    state.apply("KC")
    assert sorted(str(a) for a in state.legal_actions()) == ["7C", "AC"]
    state.apply("7C")  # a lower club is fine


def test_wa_3_2_plain_lead_with_only_its_jack_is_a_void():
    state = start({3: "7C 9S TS QS KS", 0: "JC AH 9D 8D KD"})
    state.apply("7C")
    state.apply("9D")
    assert state.view(None)["voids"][0] == ["C"]


def test_wa_3_3_off_suit_never_wins_and_led_suit_decides_without_trump():
    state = start({3: "7C 9S TS QS KS", 0: "AD 8D 9D TD QD", 1: "8C KD 7D 7S 8S", 2: "AS 9C AC 7H 8H"})
    play(state, "7C", "AD", "8C", "AC")
    assert state.tricks[-1][2] == 2  # A♣ highest club; A♦ (off suit) never wins


def test_wa_3_3_lowest_trump_beats_the_highest_plain_card():
    state = start({3: "AC 9S TS QS KS", 0: "7H 8D 9D TD QD", 1: "KC 7S 8S AS 7D", 2: "QC 8C 9C TC 8H"})
    play(state, "AC", "7H", "KC", "QC")
    assert state.tricks[-1][2] == 0  # 7♥ (trump) beats A♣


# -- WA-4: hands and the game --------------------------------------------------------------

def test_wa_4_1_all_five_tricks_are_played_and_three_win_the_hand():
    state = start({3: "JH JC JS JD AH", 0: "7C 8C 9C TC QC", 1: "7S 8S 9S TS QS", 2: "7D 8D 9D TD QD"})
    for lead in ("JH", "JC", "JS"):
        play(state, lead)
        for _ in range(3):
            state.apply(state.legal_actions()[0])
    assert state.won == [0, 3] and state.view(None)["hand_no"] == 1  # decided, still played
    assert state.view(None)["raise"]["can_raise"] == [False, False]
    for _ in range(8):
        state.apply(state.legal_actions()[0])
    v = state.view(None)
    assert v["hand_no"] == 2 and v["scores"] == [0, 1]
    assert v["last_hand"] == {"team": 1, "points": 1, "reason": "tricks", "tricks_won": [0, 5]}


def test_wa_4_2_first_team_to_the_target_wins():
    state = start({3: "JH JC JS JD AH"}, target=1)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert state.winners() == [1, 3] and state.scores() == [0, 1, 0, 1]
    assert state.view(0)["winner_team"] == 1 and state.to_move() == ()


def test_wa_4_2_game_runs_hand_after_hand_to_eleven():
    state = load("watten").new_game(seed=11)
    while not state.is_terminal():
        state.apply(state.legal_actions()[-1] if len(state.history) % 3 else state.legal_actions()[0])
    assert max(state.team_scores) == 11 and min(state.team_scores) < 11
    assert state.view(None)["hand_no"] >= 11


def test_wa_components_constant_through_a_whole_game():
    state = load("watten", raising=True, signal_detection_p=0.2).new_game(seed=2)
    first = state.components()
    n = 0
    while not state.is_terminal():
        acts = state.legal_actions()
        state.apply(acts[n % len(acts)])
        n += 1
        assert state.components() == first
    assert sum(first.values()) == 32 and Counter(first.values()) == Counter({1: 32})
