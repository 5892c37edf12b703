"""Wasserloch rules, one test (or more) per clause of shared/spec/wasserloch.md."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from wasserspiele import load
from wasserspiele.core.errors import BadNotation, BadOption, BadRecord, ChanceExhausted, IllegalAction
from wasserspiele.core.records import replay
from wasserspiele.games.wasserloch.actions import VALUES

V = {c: i for i, c in enumerate(VALUES)}


def counts(text: str) -> list[int]:
    """'77A' → counts per value index."""
    row = [0] * 8
    for ch in text.replace(" ", ""):
        row[V[ch]] += 1
    return row


def position(hands, hole="", pile="", current=0, **options):
    """A state with the given hands (strings of values), waterhole and pile (top first)."""
    options.setdefault("players", len(hands))
    state = load("wasserloch", **options).new_game(seed=0)
    state.hands = [counts(h) for h in hands]
    state.hole = counts(hole)
    state.pile = tuple(V[c] for c in pile)
    state.pile_pos = 0
    state.gone = [0] * 8
    state.current = current
    return state


def deck(order: str) -> list[str]:
    """A 64-card deck that starts with `order` and continues with the remaining cards."""
    rest = Counter({v: 8 for v in VALUES})
    rest.subtract(order)
    assert min(rest.values()) >= 0
    return list(order) + [v for v in VALUES for _ in range(rest[v])]


# -- WL-2: the cards -------------------------------------------------------------

def test_wl_2_sixty_four_cards_eight_of_each_value():
    state = load("wasserloch").new_game(seed=3)
    assert state.components() == Counter({v: 8 for v in VALUES})


def test_wl_2_values_run_from_ace_to_eight_and_suits_play_no_role():
    game = load("wasserloch")
    assert [str(game.parse_action(f"{v}x1")) for v in "12345678"] == [f"{v}x1" for v in VALUES]
    with pytest.raises(BadNotation):
        game.parse_action("9x1")


# -- WL-3: preparation -------------------------------------------------------------

def test_wl_3_1_eight_places_one_per_value():
    view = load("wasserloch").new_game(seed=1).view(0)
    assert len(view["waterhole"]) == 8 and sum(view["waterhole"]) == 0


def test_wl_3_2_five_cards_each_rest_is_the_pile_dealt_in_blocks_from_the_start_player():
    order = "AAAAA22222333334"
    state = load("wasserloch", first_player=1).new_game(setup={"decks": [deck(order)]})
    assert state.hands[1] == counts("AAAAA")  # the start player gets the first block
    assert state.hands[2] == counts("22222")
    assert state.hands[0] == counts("33333")
    assert state.pile_size == 64 - 15
    assert state.state_json()["pile"][0] == "4"  # draws come from the top


def test_wl_3_3_play_goes_clockwise():
    state = load("wasserloch", players=4).new_game(seed=2)
    seen = []
    for _ in range(6):
        seen.append(state.current_seat)
        state.apply(state.legal_actions()[0])
    assert seen == [0, 1, 2, 3, 0, 1]


# -- WL-4: a turn ---------------------------------------------------------------------

def test_wl_4_1_must_play_one_or_more_cards_of_one_value_no_pass():
    state = position(["77A33", "44444", "55555"])
    assert sorted(map(str, state.legal_actions())) == ["3x1", "3x2", "7x1", "7x2", "Ax1"]
    with pytest.raises(BadNotation):
        state.game.parse_action("pass")


def test_wl_4_1_cards_must_be_in_hand_with_a_reason():
    state = position(["77A33", "44444", "55555"])
    assert state.why_illegal("7x3") == "only two 7s in hand"
    assert state.why_illegal("8x1") == "no 8s in hand"
    with pytest.raises(IllegalAction, match="only two 7s in hand"):
        state.apply("7x3")


def test_wl_4_2_three_or_more_drive_off_the_next_lower_place():
    state = position(["77A33", "44444", "55555"], hole="7 66 444")
    state.apply("7x2")
    assert state.hole == counts("777 444")
    assert state.loot[0][0] == 2


def test_wl_4_2_skips_empty_places():
    state = position(["7AA33", "44444", "55555"], hole="777 44")
    state.apply("7x1")
    assert state.hole == counts("7777")
    assert state.loot[0][0] == 2


def test_wl_4_2_fewer_than_three_do_not_drive():
    state = position(["7AA33", "44444", "55555"], hole="7 66")
    state.apply("7x1")
    assert state.hole == counts("77 66") and state.loot[0][0] == 0


def test_wl_4_2_nothing_lower_means_nothing_happens():
    state = position(["33A22", "44444", "55555"], hole="33 8")
    state.apply("3x1")
    assert state.hole == counts("333 8") and state.loot[0][0] == 0


def test_wl_4_2_only_one_place_is_driven_off_and_only_the_place_played_to_is_checked():
    state = position(["5AA22", "44444", "55555"], hole="555 444 3 88")
    state.apply("5x1")
    # the 4s go; the 4s place is now empty, nothing cascades; the 3 stays
    assert state.hole == counts("5555 3 88") and state.loot[0][0] == 3


def test_wl_4_3_three_aces_drive_off_the_eights_only():
    state = position(["A3322", "44444", "55555"], hole="AA 88 7")
    state.apply("Ax1")
    assert state.hole == counts("AAA 7") and state.loot[0][0] == 2


def test_wl_4_3_aces_without_eights_drive_off_nothing():
    state = position(["A3322", "44444", "55555"], hole="AA 7")
    state.apply("Ax1")
    assert state.hole == counts("AAA 7") and state.loot[0][0] == 0


def test_wl_4_3_nothing_else_drives_off_the_eights_and_twos_drive_off_aces():
    state = position(["2233A", "44444", "55555"], hole="2 AAAA 88")
    state.apply("2x2")
    assert state.hole == counts("222 88") and state.loot[0][0] == 4


def test_wl_4_4_draw_back_up_to_five():
    state = position(["77A33", "44444", "55555"], pile="8866")
    state.apply("7x2")
    assert state.hand_sizes[0] == 5 and state.hands[0] == counts("A33 88")
    assert state.pile_size == 2


def test_wl_4_5_each_addition_to_a_big_place_drives_again():
    state = position(["77A23", "7A233", "AA223"], hole="777 6 44")
    state.apply("7x1")   # seat 0: the 6 goes
    state.apply("7x1")   # seat 1: five 7s drive off the 4s
    assert state.loot[0] == [1, 2, 0]
    assert state.hole == counts("77777")
    state.apply("Ax2")   # seat 2 elsewhere
    state.apply("7x1")   # seat 0: six 7s, nothing lower left but the aces
    assert state.loot[0] == [3, 2, 0] and state.hole == counts("777777")


# -- WL-5: end and scoring ----------------------------------------------------------

def test_wl_5_1_with_an_empty_pile_play_goes_on_without_drawing():
    state = position(["77A33", "44444", "55555"], pile="")
    state.apply("7x1")
    assert state.hand_sizes[0] == 4 and not state.is_terminal()
    assert state.current_seat == 1


def test_wl_5_2_round_ends_when_a_hand_empties_and_the_last_play_still_scores():
    state = position(["777", "44444", "55555"], hole="666", pile="", rounds=1)
    state.apply("7x3")
    assert state.is_terminal()
    assert state.scores() == [3, 0, 0]


def test_wl_5_2_playing_all_five_with_a_pile_left_refills_and_goes_on():
    state = position(["77777", "44444", "55555"], pile="AA2233", rounds=1)
    state.apply("7x5")
    assert not state.is_terminal() and state.hand_sizes[0] == 5


def test_wl_5_3_one_point_per_looted_card_loot_is_public():
    state = position(["77A33", "44444", "55555"], hole="7 66 444")
    state.apply("7x2")
    for seat in (1, 2, None):
        assert state.view(seat)["loot"][0] == [2, 0, 0]
        assert state.view(seat)["gone"] == counts("66")


def test_wl_5_4_ties_share_the_win():
    state = position(["7", "4", "5"], hole="666", pile="", rounds=1, players=3)
    state.loot[0] = [0, 3, 0]
    state.apply("7x1")  # seat 0 loots... nothing: only one 7 on the table now
    assert state.is_terminal()
    state.loot[0] = [3, 3, 1]
    assert state.winners() == [0, 1]
    state.loot[0] = [2, 2, 2]
    assert state.winners() == [0, 1, 2]


def test_wl_5_5_a_match_is_three_rounds_points_add_up_start_player_rotates():
    game = load("wasserloch", players=3, first_player=2)
    state = game.new_game(seed=4)
    starts = []
    rng = random.Random(0)
    while not state.is_terminal():
        if len(state.loot) > len(starts):
            starts.append(state.start_player)
            assert sum(state.hole) == 0  # the waterhole is cleared for each round
            assert state.current_seat == state.start_player
        state.apply(rng.choice(state.legal_actions()))
    assert starts == [2, 0, 1]
    assert len(state.loot) == 3
    assert state.scores() == [sum(r[s] for r in state.loot) for s in range(3)]
    assert len(state.record()["setup"]["decks"]) == 3  # all 64 are shuffled anew each round


def test_wl_7_1_variant_one_round():
    state = load("wasserloch", rounds=1).new_game(seed=5)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    assert len(state.loot) == 1


# -- the seed's worked example, completed as the spec shows -----------------------

def test_seed_worked_example_anna_ben_carla():
    state = position(["77A23", "7A233", "A2233"], hole="7 66 444 AA 88", pile="")
    state.apply("7x2")  # Anna: three 7s drive off the two 6s
    assert state.loot[0][0] == 2
    state.apply("7x1")  # Ben: four 7s; no 6s, no 5s, so the three 4s go
    assert state.loot[0][1] == 3
    state.apply("Ax1")  # Carla: three aces drive off both 8s
    assert state.loot[0][2] == 2
    assert state.hole == counts("7777 AAA")


# -- options -----------------------------------------------------------------------

def test_option_chase_adjacent_needs_the_direct_neighbour():
    state = position(["7AA33", "44444", "55555"], hole="777 44", chase="adjacent")
    state.apply("7x1")
    assert state.loot[0][0] == 0 and state.hole == counts("7777 44")
    state = position(["7AA33", "44444", "55555"], hole="777 66", chase="adjacent")
    state.apply("7x1")
    assert state.loot[0][0] == 2


def test_option_chase_adjacent_keeps_the_ace_rule():
    state = position(["A3322", "44444", "55555"], hole="AA 88", chase="adjacent")
    state.apply("Ax1")
    assert state.loot[0][0] == 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_option_players_two_to_four(players):
    state = load("wasserloch", players=players).new_game(seed=1)
    assert len(state.hand_sizes) == players and state.pile_size == 64 - 5 * players


def test_option_first_player():
    assert load("wasserloch", first_player=2).new_game(seed=1).current_seat == 2


@pytest.mark.parametrize(("options", "message"), [
    ({"players": 5}, "players"),
    ({"players": 1}, "players"),
    ({"rounds": 0}, "rounds"),
    ({"rounds": "3"}, "rounds"),
    ({"first_player": 3}, "first_player"),
    ({"chase": "far"}, "chase"),
    ({"colour": "red"}, "colour"),
])
def test_bad_options_name_the_option(options, message):
    with pytest.raises(BadOption, match=message):
        load("wasserloch", **options)


def test_option_rounds_any_positive_integer():
    state = load("wasserloch", rounds=5).new_game(seed=1)
    assert state.view(0)["rounds"] == 5


# -- views, notation and records ---------------------------------------------------

def test_view_hides_other_hands_and_the_pile_order():
    state = load("wasserloch").new_game(seed=1)
    view = state.view(1)
    text = json.dumps(view)
    assert view["hand"] == state.hands[1]
    assert "pile" in view and isinstance(view["pile"], int)
    assert str(state.hands[0]) not in text or state.hands[0] == state.hands[1]
    assert state.view(None)["hand"] is None


def test_notation_is_canonical_and_tolerant():
    game = load("wasserloch")
    assert str(game.parse_action(" 1 X 3 ")) == "Ax3"
    assert str(game.parse_action("7x2")) == "7x2"
    for bad in ["", "7", "x2", "7x0", "7x9", "7y2", "Qx1"]:
        with pytest.raises(BadNotation):
            game.parse_action(bad)


def test_setup_is_validated_naming_the_field():
    game = load("wasserloch")
    good = deck("")
    with pytest.raises(BadRecord, match=r"setup.decks\[0\]: must be a list of 64"):
        game.new_game(setup={"decks": [good[:-1]]})
    with pytest.raises(BadRecord, match=r"setup.decks\[0\]\[0\]: '9'"):
        game.new_game(setup={"decks": [["9"] + good[1:]]})
    with pytest.raises(BadRecord, match=r"each value must appear 8 times"):
        game.new_game(setup={"decks": [["8"] + good[1:]]})
    with pytest.raises(BadRecord, match="setup.decks: 4 decks"):
        game.new_game(setup={"decks": [good] * 4})
    with pytest.raises(BadRecord, match="setup.hands: unknown field"):
        game.new_game(setup={"decks": [good], "hands": []})


def test_a_record_with_too_few_decks_is_refused_when_the_next_round_needs_one():
    game = load("wasserloch", rounds=2)
    full = game.new_game(seed=1)
    rng = random.Random(0)
    while not full.is_terminal():
        full.apply(rng.choice(full.legal_actions()))
    doc = full.record()
    doc["setup"]["decks"] = doc["setup"]["decks"][:1]
    with pytest.raises(ChanceExhausted, match="setup.decks has 1 entry but the game needs deck number 2"):
        replay(doc)


def test_seed_gives_explicit_setup_in_the_saved_record():
    state = replay({"game": "wasserloch", "seed": 42, "actions": []})
    doc = state.record()
    assert "seed" not in doc and len(doc["setup"]["decks"]) == 1
    assert replay(doc).state_json() == state.state_json()
