"""Wasserloch: the German seed text (shared/rules/000_*.txt) sentence by sentence against
the engine, for the cases test_rules.py leaves out (edge cases the text implies).

Most plays are tried on both of the engine's paths: with a pile left (`apply_legal`'s
inlined play of a full hand) and without one (`_apply`), since each path has its own
copy of the drive-off rule."""

from __future__ import annotations

import random

import pytest

from wasserspiele import load

from .test_rules import counts, deck, position

# a pile long enough that a full hand takes the inlined path, or none (the general path)
PILES = pytest.mark.parametrize("pile", ["2233445566", ""], ids=["pile", "no_pile"])


# -- WL-2: "Das Ass zählt 1 und ist das schwächste Tier, die 8 das stärkste." --------------

@PILES
def test_wl_2_wl_4_2_eights_are_the_strongest_and_drive_off_the_nearest_lower_place(pile):
    state = position(["88A23", "44444", "55555"], hole="8 6 AA", pile=pile)
    state.apply("8x2")  # three 8s: no 7s, so the 6 goes
    assert state.hole == counts("888 AA") and state.loot[0] == [1, 0, 0]


# -- WL-4.1: "Leg eine oder mehrere Karten desselben Werts ... an ihren Platz" -------------

@PILES
def test_wl_4_1_a_play_goes_to_its_own_place_only(pile):
    state = position(["555A2", "44444", "66666"], hole="4 6", pile=pile)
    state.apply("5x2")
    assert state.hole == counts("55 4 6") and state.loot[0] == [0, 0, 0]
    assert state.hands[0][0] == 1 and state.hands[0][4] == 1  # A and the third 5 still held


# -- WL-4.2: "Liegen an diesem Platz jetzt drei oder mehr Karten ..." -----------------------

@PILES
def test_wl_4_2_three_played_at_once_onto_an_empty_place_drive_off(pile):
    state = position(["666A2", "44444", "55555"], hole="5 33", pile=pile)
    state.apply("6x3")
    assert state.hole == counts("666 33") and state.loot[0][0] == 1


@PILES
def test_wl_4_2_never_round_from_the_aces_to_the_eights(pile):
    # "höchstens bis zu den Assen – nie weiter herum zu den 8ern"
    state = position(["222A3", "44444", "55555"], hole="888", pile=pile)
    state.apply("2x3")
    assert state.hole == counts("222 888") and state.loot[0][0] == 0
    # with aces there, the 2s take the aces and leave the 8s
    state = position(["222A3", "44444", "55555"], hole="A 888", pile=pile)
    state.apply("2x3")
    assert state.hole == counts("222 888") and state.loot[0][0] == 1


@PILES
def test_wl_4_2_the_gap_may_reach_down_to_the_aces(pile):
    # "ist sein Platz leer, auf den darunter und so weiter (höchstens bis zu den Assen)"
    state = position(["8A223", "44444", "55555"], hole="888 AAA", pile=pile)
    state.apply("8x1")
    assert state.hole == counts("8888") and state.loot[0][0] == 3


@PILES
def test_wl_4_2_the_loot_is_the_active_player_s_and_every_card_of_the_place(pile):
    # "Nimm alle Karten vom ersten Platz ... leg sie verdeckt vor dich – das ist deine Beute."
    state = position(["44444", "77A23", "55555"], hole="77 3333 2", pile=pile, current=1)
    state.apply("7x1")
    assert state.loot[0] == [0, 4, 0] and state.gone == counts("3333")
    assert state.hole == counts("777 2")


# -- WL-4.3: "Drei oder mehr Asse vertreiben die 8er – und nur die 8er." -------------------

@PILES
def test_wl_4_3_wl_4_5_each_ace_added_to_three_drives_off_the_eights_again(pile):
    state = position(["AA223", "A3344", "55555"], hole="AAA 88 7", pile=pile)
    state.apply("Ax1")  # four aces take the two 8s
    assert state.loot[0] == [2, 0, 0] and state.hole == counts("AAAA 7")
    state.hole[7] = 3  # three 8s have come back (as other seats would have played them)
    state.apply("Ax1")  # five aces take them, never the 7
    assert state.loot[0] == [2, 3, 0] and state.hole == counts("AAAAA 7")


@PILES
def test_wl_4_3_sevens_with_eights_above_never_take_the_eights(pile):
    # "Sonst kann niemand die 8er vertreiben." – a full place of 7s with only 8s left
    state = position(["77A23", "44444", "55555"], hole="7 888", pile=pile)
    state.apply("7x2")
    assert state.hole == counts("777 888") and state.loot[0][0] == 0


# -- WL-4.4: "Zieh vom Ziehstapel, bis du wieder 5 Karten hast." ---------------------------

def test_wl_4_4_draw_stops_when_the_pile_runs_out():
    state = position(["77A33", "44444", "55555"], pile="8")
    state.apply("7x2")
    assert state.hand_sizes[0] == 4 and state.hands[0] == counts("A33 8")
    assert state.pile_size == 0
    state.apply("4x1")  # WL-5.1: the next player plays on without drawing
    assert state.hand_sizes[1] == 4 and not state.is_terminal()


def test_wl_4_4_a_player_short_of_five_draws_up_to_five_not_just_what_was_played():
    state = position(["77A", "44444", "55555"], pile="223344")
    state.apply("7x1")  # 3 cards - 1 played = 2; draws 3 to hold 5 again
    assert state.hand_sizes[0] == 5 and state.hands[0] == counts("7A 223")
    assert state.pile_size == 3


# -- WL-5.2: "Das Spiel endet, sobald jemand seine letzte Karte ausgespielt hat." -----------

def test_wl_5_2_others_play_on_after_the_pile_is_empty_until_one_hand_is_empty():
    state = position(["77", "4", "555"], pile="", rounds=1)
    state.apply("7x1")
    assert not state.is_terminal() and state.current_seat == 1
    state.apply("4x1")  # seat 1's last card
    assert state.is_terminal()
    assert state.hand_sizes == [1, 0, 3]  # the cards still held count nothing
    assert state.scores() == [0, 0, 0]


def test_wl_5_2_wl_5_5_the_next_round_begins_cleared_with_the_next_start_player():
    # "Räumt vor jedem neuen Durchgang das Wasserloch ab ... der Startspieler rückt einen
    # Platz im Uhrzeigersinn weiter."  Seat 1 ends round 1 with a scoring play.
    state = position(["44444", "777", "55555"], hole="66 AA", pile="", rounds=2, current=1)
    state.start_player = 0
    state.apply("7x3", 1)
    assert state.loot[0] == [0, 2, 0]
    assert state.round == 1 and not state.is_terminal()
    assert state.start_player == 1 and state.current_seat == 1  # first_player 0, moved one seat on
    assert sum(state.hole) == 0 and state.hand_sizes == [5, 5, 5] and state.pile_size == 64 - 15
    assert state.scores() == [0, 2, 0]  # the round's points are kept


def test_wl_5_5_the_start_player_moves_on_each_round_from_a_recorded_deal():
    # the first block of each round's deck goes to that round's start player
    decks = [deck("AAAAA"), deck("22222"), deck("33333")]
    state = load("wasserloch", players=2, first_player=1).new_game(setup={"decks": decks})
    seen = []
    rng = random.Random(7)
    while not state.is_terminal():
        if len(state.loot) > len(seen):
            seen.append((state.current_seat, list(state.hands[state.current_seat])))
        state.apply(rng.choice(state.legal_actions()))
    assert [s for s, _ in seen] == [1, 0, 1]
    assert [h for _, h in seen] == [counts("AAAAA"), counts("22222"), counts("33333")]


# -- WL-5.3 / WL-5.4: "Jeder zählt seine Beute: 1 Punkt pro Karte. Die meisten Punkte gewinnen" -

def test_wl_5_4_points_of_all_rounds_add_up_before_the_winner_is_found():
    state = position(["7", "4", "5"], pile="", rounds=1)
    state.apply("7x1")
    assert state.is_terminal()
    # seat 1 won the last round, seat 0 has the most points over the match
    state.loot = [[5, 0, 1], [0, 4, 1], [0, 2, 0]]
    assert state.scores() == [5, 6, 2] and state.winners() == [1]
    state.loot = [[5, 0, 1], [0, 4, 1], [1, 2, 0]]
    assert state.winners() == [0, 1]


def test_wl_5_4_no_winner_while_the_match_runs():
    state = position(["77", "4", "5"], pile="")
    state.loot[0] = [4, 0, 0]
    assert state.winners() == []


# -- the seed's worked example, on the inlined path (a pile left) ---------------------------

def test_wl_4_2_wl_4_3_seed_example_while_the_pile_lasts():
    state = position(["77A23", "7A233", "A2233"], hole="7 66 444 AA 88", pile="5544332")
    state.apply("7x2")  # Anna: three 7s drive off the two 6s
    state.apply("7x1")  # Ben: four 7s; no 6s, no 5s, so the three 4s go
    state.apply("Ax1")  # Carla: three aces drive off both 8s
    assert state.loot[0] == [2, 3, 2]
    assert state.hole == counts("7777 AAA")
