"""Seven Waters: the German seed text (shared/rules/002_*.txt) sentence by sentence against
the engine, for the cases test_rules.py leaves out (edge cases the text implies)."""

from __future__ import annotations

import pytest

from wasserspiele.core.errors import IllegalAction
from wasserspiele.games.seven_waters.actions import INDEX

from .helpers import DEFAULT_LINES, move_cards, new_state, place
from .test_rules import legal_texts, refuse

LINES_1 = (["5S"], ["8D", "3H"], ["2S", "4S", "6S"], ["7S", "9S", "2C", "3C"])  # sums 5, 11, 12, 21


def takes(state):
    return [a for a in legal_texts(state) if a.startswith("take")]


def only_left(state, *positions):
    """Empty the pyramid but the given positions ("R-C"), as many takes would."""
    keep = {INDEX[tuple(map(int, p.split("-")))] for p in positions}
    for i in range(28):
        if i not in keep:
            state.pyramid[i] = None
    state.left = len(keep)


# -- SW-3.2 / SW-4.1: "Jede Karte überdeckt die untere Hälfte der beiden Karten darüber." ----
# "Wird dabei eine verdeckte Karte frei, dreh sie sofort um; sie ist jetzt ebenfalls frei,
# wenn nichts anderes auf ihr liegt."

def test_sw_3_2_the_top_rows_come_free_one_by_one_and_the_top_card_is_last():
    s = new_state(pyramid={"1-1": "AD", "2-1": "QS", "2-2": "KH"})
    only_left(s, "1-1", "2-1", "2-2", "3-1", "3-2", "3-3")
    assert takes(s) == ["take 3-1", "take 3-2", "take 3-3"]
    s.apply("take 3-1")
    assert s.view(1)["pyramid"][1] == ["##", "##"]  # 3-2 still lies on 2-1
    s.apply("take 3-2")
    assert s.view(0)["pyramid"][1] == ["QS", "##"]  # 2-1 turned up; 3-3 still on 2-2
    assert takes(s) == ["take 2-1", "take 3-3"]
    s.apply("take 2-1")
    s.apply("take 3-3")
    assert s.view(1)["pyramid"][1][1] == "KH" and takes(s) == ["take 2-2"]  # 1-1: 2-2 on it
    s.apply("take 2-2")
    assert takes(s) == ["take 1-1"]
    s.apply("take 1-1")  # SW-5.1: the last card
    assert s.left == 0 and s.final_left == 1 and not s.is_terminal()


def test_sw_4_1_a_hand_of_six_may_take_its_seventh_card():
    s = new_state()
    move_cards(s, 0, ["QD", "QC", "KD"])
    assert len(s.hands[0]) == 6 and "take 7-1" in legal_texts(s)
    s.apply("take 7-1")
    assert len(s.hands[0]) == 7


# -- SW-4.2: "Leg beliebig viele Handkarten verdeckt auf deinen eigenen Abwurf." -------------

def test_sw_4_2_a_full_hand_may_discard_all_seven_at_once():
    # "Mit 7 Karten kannst du nicht nehmen, sondern musst wegwerfen oder bauen."
    s = new_state(lines=(DEFAULT_LINES, LINES_1), hands=(["AC", "4D", "6H"], ()))
    move_cards(s, 0, ["8S", "TC", "QD", "X1"])
    assert any(a.kind == "discard" and len(a.cards) == 7 for a in s.legal_actions())
    s.apply("discard AC 4D 6H 8S TC QD X1")
    assert s.hands[0] == [] and len(s.discards[0]) == 7 and s.discards[1] == []
    assert s.breakdown(0)["discards"] == -14  # "Jede weggeworfene Karte kostet am Ende 2 Punkte"


# -- SW-4.3a: "Spiel Handkarten, deren Werte genau diese Summe ergeben" -----------------------

def test_sw_4_3a_a_slide_takes_as_many_cards_as_make_the_sum():
    s = new_state(lines=(DEFAULT_LINES, None), hands=(["9C", "8D", "3C"], ()))
    move_cards(s, 0, ["AS"])
    s.apply("slide 4 9C 8D 3C AS")  # line 4: 7H 9H 2D 3D = 21
    assert len(s.slides[0][3]) == 4 and s.hands[0] == [] and s.breakdown(0)["slides"] == 8


def test_sw_2_2_sw_4_3a_a_slide_on_a_line_holding_a_joker_sums_to_ten_for_it():
    s = new_state(lines=((["X1"], ["8C", "3S"], ["2H", "4H", "6D"], ["7H", "9H", "2D", "3D"]), None),
                  hands=(["KD", "4C", "6C"], ()))
    assert "slide 1 KD" in legal_texts(s) and "slide 1 6C 4C" in legal_texts(s)
    refuse(s, "slide 1 6C", "sums to 10")
    s.apply("slide 1 KD")
    assert s.extra


def test_sw_4_3a_the_extra_action_may_be_a_discard_and_then_the_turn_passes():
    s = new_state(lines=(DEFAULT_LINES, None), hands=(["5D", "9S", "2C"], ()))
    s.apply("slide 1 5D")
    assert s.to_move() == (0,) and s.extra
    s.apply("discard 9S")
    assert s.to_move() == (1,) and not s.extra


def test_sw_4_3a_the_extra_action_may_build_another_attraction_which_ends_the_turn():
    # "noch einmal bauen": a river is a build; only a slide brings a further action
    s = new_state(lines=(DEFAULT_LINES, None), hands=(["5D", "9S", "TC"], ()))
    s.apply("slide 1 5D")
    s.apply("river 9S TC")
    assert s.to_move() == (1,) and [str(p) for p in s.river[0]] == ["9S", "TC"]


# -- SW-4.3b: "Folge aufeinanderfolgender Ränge in beliebigen Farben: A 2 3 … 10 B D K" ------
# "In späteren Zügen legst du pro Zug beliebig viele Karten an ein Ende an."
# Klarstellung: "Joker dürfen auch in Kanal und Becken."

def test_sw_4_3b_a_joker_fills_a_gap_and_extends_the_low_end():
    s = new_state(hands=(["4C", "X1", "6D"], ()))
    s.apply("river 4C X1=5 6D")
    assert [str(p) for p in s.river[0]] == ["4C", "X1=5", "6D"]
    s.apply("take 7-1")
    move_cards(s, 0, ["X2", "2H"])
    s.turn = 0
    refuse(s, "river X2=2", "one end")  # 2 does not touch 4-6
    s.apply("river 2H X2=3")
    assert [str(p) for p in s.river[0]] == ["2H", "X2=3", "4C", "X1=5", "6D"]


def test_sw_4_3b_cards_at_both_ends_in_one_action_are_refused():
    s = new_state(lines=(DEFAULT_LINES, LINES_1), hands=(["5H", "6C", "4C"], ()))
    s.apply("river 5H 6C")
    s.apply("take 7-1")
    move_cards(s, 0, ["7D"])
    s.turn = 0
    refuse(s, "river 4C 7D", "consecutive")
    assert "river 4C" in legal_texts(s) and "river 7D" in legal_texts(s)
    assert "river 4C 7D" not in legal_texts(s)


def test_sw_2_1_sw_4_3b_ten_jack_queen_king_run_in_rank_order():
    s = new_state(hands=(["TH", "JC", "QS"], ()))
    s.apply("river TH JC QS")
    s.apply("take 7-1")
    move_cards(s, 0, ["KD", "9C"])
    s.turn = 0
    s.apply("river KD")
    assert [str(p) for p in s.river[0]] == ["TH", "JC", "QS", "KD"]


# -- SW-4.3c: "Beginne es mit beliebig vielen Karten einer Farbe; später ... derselben Farbe" --

def test_sw_4_3c_a_pool_started_by_a_joker_has_the_declared_suit():
    s = new_state(hands=(["X1", "4S", "4H"], ()))
    s.apply("pool X1=S")
    s.apply("take 7-1")
    s.turn = 0
    refuse(s, "pool 4H", "spades")
    assert "pool 4S" in legal_texts(s) and "pool 4H" not in legal_texts(s)
    s.apply("pool 4S")
    assert [str(p) for p in s.pool[0]] == ["X1=S", "4S"]


# -- SW-4.4: "Sobald sieben gebaut sind – von euch beiden zusammen –, darf niemand mehr eine bauen."

def test_sw_4_4_the_seventh_slide_still_brings_its_extra_action_but_no_eighth_slide():
    s = new_state(lines=(DEFAULT_LINES, LINES_1), hands=(["6C", "6H", "QS"], ["JD", "TD", "9D"]))
    for k, cards in enumerate(["5D", "KD AC", "8H 4C", "KC 7C 4D"], 1):
        place(s, 0, f"slide {k}", cards)
    place(s, 1, "slide 1", "5H")
    place(s, 1, "slide 2", "QH AD")
    assert s.slides_built == 6
    move_cards(s, 1, ["6C", "6H", "KS", "QC", "AS"])
    s.turn = 1
    s.apply("slide 3 6C 6H")  # seat 1's third slide, the seventh of the game
    assert s.slides_built == 7 and s.extra and s.to_move() == (1,)
    assert not any(a.startswith("slide") for a in legal_texts(s))
    refuse(s, "slide 4 KS QC AS", "no more slides")
    s.apply(next(a for a in s.legal_actions() if a.kind == "take"))
    assert s.to_move() == (0,)


# -- SW-5.1: "Nach diesem Zug hat jeder noch einen Zug – zuerst der Gegner ..., dann er selbst."

def test_sw_5_1_a_slide_in_a_final_turn_still_brings_its_extra_action():
    s = new_state(lines=(DEFAULT_LINES, LINES_1), hands=(["KD", "AC", "6C"], ["5H", "QH", "JH"]))
    only_left(s, "7-7")
    s.apply("take 7-7")  # seat 0 takes the last card
    assert s.to_move() == (1,)
    s.apply("slide 1 5H")  # seat 1's final turn
    assert s.to_move() == (1,) and s.extra and not s.is_terminal()
    s.apply("pool QH JH")
    assert s.to_move() == (0,)
    s.apply("slide 2 KD AC")  # seat 0's final turn, with its extra action
    assert s.to_move() == (0,) and not s.is_terminal()
    assert not any(a.startswith("take") for a in legal_texts(s))
    s.apply("discard " + " ".join(c.name for c in s.hands[0]))
    assert s.is_terminal()


def test_sw_4_5_sw_5_1_a_final_turn_with_nothing_in_hand_is_a_pass():
    s = new_state(hands=((), ["5H", "QH", "JH"]))
    place(s, 1, "discards", "5H QH JH")
    only_left(s, "7-7")
    s.apply("take 7-7")
    assert s.to_move() == (1,) and legal_texts(s) == ["pass"]
    s.apply("pass")
    assert s.to_move() == (0,) and not s.is_terminal()
    s.apply("discard " + " ".join(c.name for c in s.hands[0]))
    assert s.is_terminal()


# -- SW-5.2: scoring -------------------------------------------------------------------------

def test_sw_5_2_lines_and_unbuilt_slides_score_nothing():
    # "Leinen bringen für sich keine Punkte (nur über das Motto), ungebaute Rutschen auch nicht."
    s = new_state(lines=(DEFAULT_LINES, LINES_1))
    assert s.breakdown(0) == {"slides": 0, "river": 0, "pool": 0, "theme": 0, "hand": -3, "discards": 0}
    assert s.scores() == [-3, -3]


def test_sw_5_2_the_theme_counts_the_park_not_the_hand_discards_or_the_other_park():
    # "Zähl alle Karten dieser Farbe in deinem Park: in Rutschen, Kanal und Becken, in allen
    # vier Leinen und die Mottokarte selbst."
    s = new_state(lines=(DEFAULT_LINES, LINES_1), hands=((), ()))  # seat 0's lines: 2H 4H 7H 9H
    place(s, 0, "theme", "QH")
    place(s, 0, "slide 1", "5H")
    place(s, 0, "river", "TH JC")
    place(s, 0, "pool", "AH KH")
    place(s, 0, "hand", "6H")
    place(s, 0, "discards", "8H")
    place(s, 1, "pool", "JH")
    # 4 in the lines, QH itself, 5H, TH, AH, KH = 9; 6H in hand, 8H discarded, and JH and
    # the 3H of seat 1's line 2 (the other park) do not count
    assert s.breakdown(0)["theme"] == 9


def test_sw_5_3_the_higher_total_wins_even_against_the_larger_pool():
    s = new_state(lines=(DEFAULT_LINES, LINES_1), hands=(["6C", "7C", "9C"], ["TC", "JC", "QC"]))
    place(s, 0, "pool", "AD 4D 5D")  # 5
    place(s, 1, "river", "8H 9D TS JS QS KS")  # 6
    s.over = True
    assert s.scores() == [5 - 3, 6 - 3] and s.winners() == [1] and s.decision() == ([1], "points")
