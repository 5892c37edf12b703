"""Seed audit: sentences of the German seed text (shared/rules/003_*.txt) checked by play.

Each test quotes the sentence it checks and is named after the spec clause
(shared/spec/watten.md) that carries it; these are the edge cases the existing
clause tests leave out.
"""

from __future__ import annotations

import json

from wasserspiele.games.watten.actions import CARD_NAMES

from .helpers import new, play, start


def trick_winner(state) -> int:
    return state.tricks[-1][2]


def test_wa_1_2_the_twelve_unused_cards_stay_face_down_for_every_seat():
    """"die restlichen 12 Karten bleiben verdeckt und ungenutzt liegen": no view,
    the caller's included and the public one, ever names an unused card."""
    state = new({3: "JC 8C AH 9D KS"}, unused="AC KC QC TC 9C 7S 8S 9S TS QS 7D 8D")
    hidden = "AC KC QC TC 9C 7S 8S 9S TS QS 7D 8D".split()
    assert sorted(CARD_NAMES[c] for c in state.unused) == sorted(hidden)
    state.apply("trump H")
    play(state, *["signal none"] * 4)
    for _ in range(4):  # a whole trick: none of them is ever played
        state.apply(state.legal_actions()[0])
    for seat in (None, 0, 1, 2, 3):
        text = json.dumps(state.view(seat))
        for name in hidden:
            assert f'"{name}"' not in text, (seat, name)


def test_wa_1_3_the_caller_sees_their_own_five_cards_before_naming_trump():
    """"schaut sich der Spieler rechts vom Kartengeber als Erster seine fünf Karten an
    und sagt danach laut die Trumpffarbe ... an": in the trump phase the caller (dealer 0 →
    seat 3) sees exactly their own five cards and is the only seat to move."""
    state = new({3: "JC 8C AH 9D KS", 0: "7C 7D 7H 7S 8D"})
    v = state.view(3)
    assert v["phase"] == "trump" and state.to_move() == (3,)
    assert sorted(v["hand"]) == sorted("JC 8C AH 9D KS".split())
    assert "7C" not in json.dumps(v)  # seat 0's cards are not shown to the caller


def test_wa_1_4_the_deal_passes_on_after_a_caught_hand_too():
    """"Nach jedem gespielten Blattl wandert das Geberrecht eine Person weiter im
    Uhrzeigersinn": a hand lost by a caught signal (WA-5.1) passes the deal as well."""
    state = new({}, signal_detection_p=0.5, checks=[0.1])
    state.apply("trump H")
    state.apply("signal strong")  # seat 3 (team 1) caught at once
    v = state.view(None)
    assert v["scores"] == [1, 0] and v["hand_no"] == 2
    assert (v["dealer"], v["caller"], v["to_move"]) == (1, 0, [0])


def test_wa_1_4_the_deal_passes_on_after_a_conceded_hand_too():
    """The same sentence for a hand ended by a conceded raise (WA-6)."""
    state = start({}, raising=True)
    play(state, "raise", "concede")
    v = state.view(None)
    assert v["hand_no"] == 2 and (v["dealer"], v["caller"], v["to_move"]) == (1, 0, [0])


def test_wa_2_a_plain_suit_ranks_ace_king_queen_ten_nine_eight_seven_in_play():
    """"Innerhalb einer solchen Farbe gilt die Reihenfolge Ass, König, Dame, Zehn, Neun,
    Acht, Sieben": the queen beats the ten (in Skat the ten would), the ace the king."""
    state = start({3: "9C QS 7D 8D 9D", 0: "TC TS TD KD AD", 1: "QC KS QD 8S 9S",
                   2: "8C AS 7H 8H 9H"}, trump="H")
    play(state, "9C", "TC", "QC", "8C")
    assert trick_winner(state) == 1  # Q > T > 9 > 8
    play(state, "KS", "AS", "QS", "TS")
    assert trick_winner(state) == 2  # A > K > Q > T


def test_wa_2_the_trump_suit_below_the_jacks_ranks_the_same_way_in_play():
    """The seed gives the order only for plain suits; the spec's table (WA-2) uses it for
    trump too: A > K > Q > T of trump.  A player holding clubs must follow the club ace
    (the trump 7H is not offered), and with no trump or jack played the ace wins."""
    state = start({3: "TH 7C 8C 9C TC", 0: "QH QC KC 7D 8D", 1: "AH AC 9D TD QD",
                   2: "KH 7S 8S 9S TS"}, trump="H")
    play(state, "TH", "QH", "AH", "KH")
    assert trick_winner(state) == 1
    state2 = start({3: "AC 8C 9C TC KS", 0: "7H QC KC 7D 8D", 1: "7C 9D TD QD KD",
                    2: "8S 9S TS QS AS"}, trump="H")
    play(state2, "AC")
    assert [str(a) for a in state2.legal_actions()] == ["QC", "KC"]  # must follow clubs
    state2.apply("KC")
    play(state2, "7C", "8S")
    assert trick_winner(state2) == 3  # the club ace wins: nobody played a trump or a jack


def test_wa_3_3_a_jack_wins_a_plain_trick_though_a_non_trump_jack():
    """"Karten einer anderen Farbe als Trumpf zählen nur untereinander, und zwar nur, wenn
    niemand Trumpf oder einen Buben gespielt hat": the lowest jack (J♦, trump ♥) played by a
    player who cannot follow clubs takes the trick from the club ace."""
    state = start({3: "AC 8C 9C TC KS", 0: "JD 7S 8S 9S TS", 1: "7C 9D TD QD KD",
                   2: "8H QS AS 8D 7D"}, trump="H")
    play(state, "AC", "JD", "7C", "QS")
    assert trick_winner(state) == 0


def test_wa_4_1_five_tricks_score_one_point_like_three():
    """"Das Team, das mindestens drei der fünf Stiche eines Blattls gewinnt, gewinnt dieses
    Blattl und bekommt dafür einen Punkt": a team taking all five scores 1, not more."""
    state = start({3: "JH JC JS JD AH"}, trump="H")
    while state.view(None)["hand_no"] == 1:
        state.apply(state.legal_actions()[0])
    hand = state.results[-1]
    assert hand[3] == 1 and hand[4] == 1  # team 1 (seat 3) won it, worth 1 point
    assert (hand[6], hand[7]) == (0, 5)
    assert state.view(None)["scores"] == [0, 1]


def test_wa_4_2_an_agreed_target_other_than_eleven_ends_the_game_when_reached():
    """"Gespielt wird so lange, bis ein Team eine vorher vereinbarte Punktzahl erreicht":
    with target 1 the first hand decides; the winning team has exactly the target."""
    state = start({3: "JH JC JS JD AH"}, trump="H", target=1)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert state.view(None)["scores"] == [0, 1]
    assert state.winners() == [1, 3] and len(state.results) == 1


def test_wa_6_the_caller_may_raise_before_the_first_card_is_led():
    """"In vielen Runden darf ein Team vor dem Ausspielen ansagen, dass es den Wert des
    laufenden Blattls erhöhen will, zum Beispiel auf zwei Punkte statt einem": before the
    first card the caller may raise, and an accepted raise makes the hand worth 2."""
    state = start({3: "JH JC JS JD AH"}, trump="H", raising=True)
    assert state.trick == [] and "raise" in [str(a) for a in state.legal_actions()]
    play(state, "raise", "accept")
    assert state.view(None)["value"] == 2 and state.to_move() == (3,)
    while state.view(None)["hand_no"] == 1:
        state.apply([a for a in state.legal_actions() if str(a) != "raise"][0])
    assert state.view(None)["scores"] == [0, 2]
