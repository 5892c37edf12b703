"""Wildwasser rules, at least one test per clause of shared/spec/wildwasser.md and per option.

Default scenario board (tiles T01…T24 in order): with 2 players T01–T08 are removed,
the river holds T00 T09 T10 T11 T12 (slots 1–5) and T13 is the top of the stack;
with 4 players T01–T04 are removed and the river holds T00 T05–T08 (no icons).
"""

from __future__ import annotations

import pytest

from wasserspiele import load
from wasserspiele.core.errors import BadOption, IllegalAction

from .helpers import TILES, animal, events, field_of, finish, new, picks, put, set_slot


def reason(state, text, seat=None):
    with pytest.raises(IllegalAction) as err:
        state.apply(text, seat)
    return err.value.reason


def legal(state, seat=None):
    return [str(a) for a in state.legal_actions(seat)]


# -- WW-1 -------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_ww_1_each_player_has_five_animals_five_cards_and_one_start_marker(players):
    s = new(players)
    j = s.state_json()
    assert len(j["animals"]) == players
    assert all(set(a.values()) == {"team card"} for a in j["animals"])
    assert all(h == ["cheetah", "zebra", "rhino", "meerkat", "turtle"] for h in j["hands"])
    assert s.components()["start marker"] == 1 and j["start_marker"] == 0


def test_option_players_range_and_default():
    assert load("wildwasser").players == 4
    for bad in (1, 7):
        with pytest.raises(BadOption, match="players"):
            load("wildwasser", players=bad)


def test_option_first_player_holds_the_start_marker():
    s = new(3, first_player=2)
    assert s.marker == 2 and s.order == (2, 0, 1)
    with pytest.raises(BadOption, match="first_player: seat 3 does not exist with 3 players"):
        load("wildwasser", players=3, first_player=3)


def test_option_river_flow_values():
    with pytest.raises(BadOption, match="river_flow"):
        load("wildwasser", river_flow="sideways")
    assert load("wildwasser", river_flow="back").non_default_options() == {"river_flow": "back"}


# -- WW-2.1 -----------------------------------------------------------------------
@pytest.mark.parametrize(("players", "removed"), [(2, 8), (3, 6), (4, 4), (5, 2), (6, 0)])
def test_ww_2_1_setup_removes_tiles_by_player_count(players, removed):
    order = TILES[::-1]
    j = new(players, tiles=order).state_json()
    assert j["removed"] == order[:removed]
    assert j["river"] == ["T00"] + order[removed:removed + 4]
    assert j["stack"] == order[removed + 4:]  # top first


# -- WW-3.1 -----------------------------------------------------------------------
def test_ww_3_1_all_seats_pick_secretly_before_the_first_reveal():
    s = new(3, first_player=1)
    assert s.to_move() == (0, 1, 2)
    s.apply("pick zebra", 2)  # any pending seat may pick first
    assert s.to_move() == (0, 1)
    assert s.view(0)["seats"][2]["picked"] is True and s.view(0)["seats"][2]["pick"] is None
    assert s.view(None)["seats"][2]["hand"] is None  # hand hidden while a pick is face down
    assert s.view(2)["seats"][2]["pick"] == "zebra"
    assert reason(s, "move", 0).startswith("every player first picks a card face down")
    s.apply("pick cheetah", 0)
    s.apply("pick rhino", 1)
    # resolution starts at the start marker and goes clockwise
    assert s.order == (1, 2, 0) and s.to_move() == (1,)
    assert s.view(0)["seats"][1]["revealed"] == ["rhino"]
    assert s.view(0)["seats"][2]["pick"] is None and s.view(0)["seats"][2]["picked"]


def test_ww_3_1_picking_twice_is_refused():
    s = new(2)
    s.apply("pick zebra", 0)
    with pytest.raises(IllegalAction, match="seat 0 has already picked a card for this round"):
        s.apply("pick rhino", 0)


# -- WW-3.2 -----------------------------------------------------------------------
def test_ww_3_2_cheetah_moves_5_or_moves_the_start_marker_elsewhere():
    s = new(4)
    for seat in range(4):
        s.apply("pick cheetah", seat)
    assert legal(s) == ["move", "action 1", "action 2", "action 3"]
    assert "already lies on player A" in reason(s, "action 0")
    assert "needs the team card that gets the start marker" in reason(s, "action")
    s.apply("move")
    assert field_of(s, 0, "cheetah") == 5
    s.apply("action 3")
    assert s.marker == 3
    assert legal(s) == ["move", "action 0", "action 1", "action 2"]


def test_ww_3_2_zebra_moves_4_or_pushes():
    s = new(4)
    for seat in range(4):
        s.apply("pick zebra", seat)
    assert legal(s) == ["move", "action"]
    s.apply("move")
    assert field_of(s, 0, "zebra") == 4
    s.apply("action")
    assert s.state_json()["river"] == ["T09", "T00", "T05", "T06", "T07"]
    assert field_of(s, 0, "zebra") == 13  # drifted with T00: column 1 of crossing 2 (right to left)


def test_ww_3_2_rhino_moves_3_or_rolls_the_die():
    s = new(2, dice=["5", "4"])
    picks(s, "rhino", "rhino")
    s.apply("move")
    assert field_of(s, 0, "rhino") == 3
    s.apply("action")  # rolls 5: the cheetah moves 5
    assert field_of(s, 1, "cheetah") == 5
    assert events(s, "roll")[-1] == ("roll", 1, "5")


def test_ww_3_2_rhino_die_sun_moves_any_unfinished_animal_one():
    s = new(2, dice=["sun"])
    picks(s, "rhino", "turtle")
    s.apply("action")
    assert s.to_move() == (0,) and legal(s) == ["sun cheetah", "sun zebra", "sun rhino", "sun meerkat", "sun turtle"]
    assert "sun" in reason(s, "move")
    s.apply("sun zebra")
    assert field_of(s, 0, "zebra") == 1
    assert s.to_move() == (1,)


def test_ww_3_2_meerkat_moves_2_or_takes_all_revealed_cards_back():
    s = new(2)
    picks(s, "zebra", "zebra")
    s.apply("move")
    s.apply("move")
    picks(s, "meerkat", "meerkat")
    assert s.view(0)["seats"][0]["revealed"] == ["zebra", "meerkat"]
    s.apply("action")
    assert s.state_json()["hands"][0] == ["cheetah", "zebra", "rhino", "meerkat", "turtle"]
    assert s.state_json()["revealed"][0] == []
    s.apply("move")
    assert field_of(s, 1, "meerkat") == 3  # field 2 has +1


def test_ww_3_2_turtle_card_moves_turtle_rhino_or_meerkat_one_and_has_no_action():
    s = new(4)
    for seat in range(4):
        s.apply("pick turtle", seat)
    assert legal(s) == ["move turtle", "move rhino", "move meerkat"]
    assert "no action" in reason(s, "action")
    assert "the move names the animal" in reason(s, "move")
    assert "not the zebra" in reason(s, "move zebra")
    s.apply("move rhino")
    assert field_of(s, 0, "rhino") == 1


# -- WW-3.3 -----------------------------------------------------------------------
def test_ww_3_3_finished_animal_forces_the_action():
    s = new(2)
    finish(s, 0, "zebra")
    picks(s, "zebra", "zebra")
    assert legal(s) == ["action"]
    assert "already finished, so the zebra card's action must be taken" in reason(s, "move")


def test_ww_3_3_turtle_card_with_turtle_rhino_meerkat_finished_does_nothing():
    s = new(2)
    for sp in ("turtle", "rhino", "meerkat"):
        finish(s, 0, sp)
    picks(s, "turtle", "zebra")
    assert s.to_move() == (1,)  # seat 0's card resolved itself: nothing to do
    assert ("nothing", 0, "turtle") in events(s, "nothing")
    s2 = new(2)
    finish(s2, 0, "turtle")
    finish(s2, 0, "meerkat")
    picks(s2, "turtle", "zebra")
    assert legal(s2) == ["move rhino"]


def test_ww_3_3_die_showing_a_finished_animal_does_nothing():
    s = new(2, dice=["4"])
    finish(s, 0, "zebra")
    picks(s, "rhino", "rhino")
    s.apply("action")
    assert ("nothing", 0, "zebra") in events(s, "nothing")
    assert s.to_move() == (1,)


# -- WW-3.4 -----------------------------------------------------------------------
def test_ww_3_4_revealed_cards_stay_out_and_an_empty_hand_refills_at_round_end():
    s = new(2)
    picks(s, "zebra", "zebra")
    s.apply("move")
    s.apply("move")
    assert "not in hand" in reason(s, "pick zebra", 0)
    s.hand[0] = 0b00001  # only the cheetah left, as if four rounds were played
    s.revealed[0] = 0b11110
    picks(s, "cheetah", "rhino")
    assert s.state_json()["hands"][0] == []
    s.apply("move")
    s.apply("move")
    assert s.state_json()["hands"][0] == ["cheetah", "zebra", "rhino", "meerkat", "turtle"]
    assert s.state_json()["hands"][1] == ["cheetah", "meerkat", "turtle"]


# -- WW-3.5 -----------------------------------------------------------------------
def test_ww_3_5_start_marker_moves_several_times_last_place_decides():
    s = new(3)
    picks(s, "cheetah", "cheetah", "cheetah")
    s.apply("action 2")
    s.apply("action 0")  # seat 1 moves it again
    assert s.order == (0, 1, 2)  # this round's order does not change
    s.apply("action 1")
    assert s.marker == 1
    assert s.order == (1, 2, 0) and s.round == 2


# -- WW-4.1 -----------------------------------------------------------------------
def test_ww_4_1_entering_animal_steps_first_onto_field_1():
    s = new(4)
    for seat in range(4):
        s.apply("pick turtle", seat)
    s.apply("move turtle")
    assert field_of(s, 0, "turtle") == 1


def test_ww_4_1_occupied_fields_are_passed_and_counted():
    s = new(4)
    put(s, 1, "zebra", 3)
    for seat in range(4):
        s.apply("pick cheetah", seat)
    s.apply("move")
    assert field_of(s, 0, "cheetah") == 5


def test_ww_4_1_ending_on_an_occupied_field_moves_on_to_the_next_free():
    s = new(4)
    put(s, 1, "zebra", 5)
    put(s, 2, "zebra", 6)
    for seat in range(4):
        s.apply("pick cheetah", seat)
    s.apply("move")
    assert field_of(s, 0, "cheetah") == 7
    assert [f for f in range(1, 38) if s.occ[f] >= 0] == [5, 6, 7]  # one animal per field


# -- WW-4.2 -----------------------------------------------------------------------
def test_ww_4_2_finishing_needs_to_pass_field_37_and_takes_the_next_podium_place():
    s = new(4)
    put(s, 0, "zebra", 33)
    put(s, 1, "zebra", 35)
    put(s, 2, "zebra", 31)
    for seat in range(4):
        s.apply("pick zebra", seat)
    s.apply("move")  # 33 + 4 = 37: on the track, not across the line
    assert field_of(s, 0, "zebra") == 37
    s.apply("move")  # 35 + 4 = 39: finished, extra movement lost
    assert field_of(s, 1, "zebra") == "podium 1"
    s.apply("move")  # 31 + 4 = 35 free
    assert field_of(s, 2, "zebra") == 35
    s.apply("move")
    assert s.view(None)["podiums"]["zebra"] == [1]


def test_ww_4_2_podium_places_score_by_species_and_places_4_to_6_score_0():
    s = new(6)
    for seat in range(6):
        finish(s, seat, "turtle")
    assert s.points() == [10, 6, 3, 0, 0, 0]
    assert s.view(None)["podiums"]["turtle"] == [0, 1, 2, 3, 4, 5]


# -- WW-4.3 -----------------------------------------------------------------------
def test_ww_4_3_icons_trigger_only_where_the_movement_ends():
    s = new(4)
    for seat in range(4):
        s.apply("pick zebra", seat)
    s.apply("move")  # passes field 2 (+1), ends on 4
    assert field_of(s, 0, "zebra") == 4
    assert events(s, "icon") == []


def test_ww_4_3_plus_icon_moves_the_animal_further():
    s = new(4)
    for seat in range(4):
        s.apply("pick meerkat", seat)
    s.apply("move")  # lands on 2 (+1) -> 3
    assert field_of(s, 0, "meerkat") == 3
    assert events(s, "icon") == [("icon", 0, 1, 2)]


def test_ww_4_3_plus_icon_after_next_free_field_step():
    s = new(4)
    put(s, 1, "rhino", 1)
    for seat in range(4):
        s.apply("pick turtle", seat)
    s.apply("move turtle")  # field 1 taken -> next free 2 (+1) -> 3
    assert field_of(s, 0, "turtle") == 3


def test_ww_4_3_marker_icon_lets_the_owner_choose_any_team_card_including_its_own():
    s = new(2)
    s.marker = 1
    s.order = (1, 0)
    put(s, 0, "meerkat", 13)
    picks(s, "meerkat", "zebra")
    s.apply("move", 1)
    s.apply("move", 0)  # 13 + 2 = 15: start marker icon
    assert s.to_move() == (0,) and legal(s) == ["marker 0", "marker 1"]
    assert "start-marker icon" in reason(s, "action")
    s.apply("marker 0")
    assert s.marker == 0 and s.round == 2 and s.order == (0, 1)


def test_ww_4_3_cards_icon_takes_all_revealed_cards_back():
    s = new(2)
    put(s, 0, "zebra", 18)
    picks(s, "zebra", "zebra")
    s.apply("move")  # 22: cards back, the zebra card included
    assert s.state_json()["hands"][0] == ["cheetah", "zebra", "rhino", "meerkat", "turtle"]


def test_ww_4_3_push_icon_pushes_the_river():
    s = new(2)
    put(s, 0, "zebra", 25)
    picks(s, "zebra", "zebra")
    s.apply("move")  # 29: push
    assert s.state_json()["river"] == ["T13", "T00", "T09", "T10", "T11"]
    assert s.state_json()["discard"] == ["T12"]


def test_ww_4_3_drifting_never_triggers_icons():
    s = new(2)
    put(s, 1, "turtle", 19)  # on T10, column 2 (its +1 icon)
    picks(s, "zebra", "zebra")
    s.apply("action")
    assert field_of(s, 1, "turtle") == 26  # drifted with T10 to crossing 4, no +1
    assert events(s, "icon") == []


# -- WW-4.4 -----------------------------------------------------------------------
def test_ww_4_4_push_moves_every_tile_down_and_the_last_over_the_waterfall():
    s = new(2)
    put(s, 1, "rhino", 33)  # crossing 5 = slot 5 (T12)
    put(s, 1, "zebra", 27)  # crossing 4, column 1 (right to left) = slot 4 (T11)
    put(s, 0, "turtle", 5)  # crossing 1, column 2 = slot 1 (T00)
    put(s, 0, "meerkat", 30)  # bank: stays
    picks(s, "zebra", "zebra")
    s.apply("action")
    j = s.state_json()
    assert j["river"] == ["T13", "T00", "T09", "T10", "T11"]
    assert j["discard"] == ["T12"] and j["stack"][0] == "T14"
    assert field_of(s, 1, "rhino") == 0  # back to the team card
    assert field_of(s, 1, "zebra") == 32  # column 1 of crossing 5 (left to right)
    assert field_of(s, 0, "turtle") == 12  # column 2 of crossing 2
    assert field_of(s, 0, "meerkat") == 30
    assert events(s, "push")[-1][4] == (animal(1, "rhino"),)  # washed away


def test_ww_4_4_river_flow_back_washes_animals_back_and_the_waterfall_is_the_first_crossing():
    s = new(2, river_flow="back")
    # crossing 1 uses slot 5 (T12), crossing 2 slot 4 (T11) … crossing 5 slot 1 (T00)
    assert s.view(None)["track"][3]["tile"] == "T12" and s.view(None)["track"][31]["tile"] == "T00"
    put(s, 1, "rhino", 5)  # crossing 1 = slot 5: over the waterfall
    put(s, 1, "zebra", 11)  # crossing 2, column 3 -> crossing 1, column 3 = field 6
    put(s, 0, "turtle", 33)  # crossing 5 = slot 1 -> crossing 4, column 2 = field 26
    picks(s, "zebra", "zebra")
    s.apply("action")
    assert field_of(s, 1, "rhino") == 0
    assert field_of(s, 1, "zebra") == 6
    assert field_of(s, 0, "turtle") == 26
    assert s.view(None)["track"][31]["tile"] == "T13"


# -- WW-4.5 -----------------------------------------------------------------------
def test_ww_4_5_an_empty_slot_is_impassable_the_animal_waits_before_it():
    s = new(4)
    set_slot(s, 3, None)  # crossing 3 (fields 18-20) has no tile
    put(s, 0, "cheetah", 14)
    for seat in range(4):
        s.apply("pick cheetah", seat)
    s.apply("move")  # 14 + 5 = 19 lies in the gap: stops on 17, the last field before it
    assert field_of(s, 0, "cheetah") == 17
    assert events(s, "blocked")[-1] == ("blocked", 0, 0, 17)


def test_ww_4_5_an_animal_with_no_free_field_before_the_gap_stays():
    s = new(4)
    set_slot(s, 1, None)
    for f, sp in zip((1, 2, 3), ("zebra", "rhino", "meerkat")):
        put(s, 1, sp, f)
    for seat in range(4):
        s.apply("pick cheetah", seat)
    s.apply("move")
    assert field_of(s, 0, "cheetah") == 0
    assert events(s, "blocked")[-1] == ("blocked", 0, 0, 0)


# -- WW-5.1 -----------------------------------------------------------------------
def test_ww_5_1_game_ends_at_the_end_of_the_round_of_a_third_finish():
    s = new(2)
    finish(s, 0, "turtle")
    finish(s, 0, "meerkat")
    put(s, 0, "cheetah", 35)
    picks(s, "cheetah", "zebra")
    s.apply("move")
    assert s.done[0] == 3 and not s.is_terminal() and s.to_move() == (1,)
    s.apply("move")
    assert s.is_terminal() and s.to_move() == ()
    assert s.winners() == [0] and s.scores() == [22.0, 0.0]


# -- WW-5.2 -----------------------------------------------------------------------
def test_ww_5_2_alternative_end_when_a_push_finds_the_stack_empty():
    s = new(2)
    s.discard.extend(s.stack)
    s.stack.clear()
    put(s, 1, "rhino", 33)
    picks(s, "zebra", "cheetah")
    s.apply("action")
    j = s.state_json()
    assert j["river"] == [None, "T00", "T09", "T10", "T11"] and j["last_round"]
    assert field_of(s, 1, "rhino") == 0
    assert not s.is_terminal()  # the round is played to its end
    s.apply("move")
    assert s.is_terminal() and events(s, "end")[-1][2] == "tiles"


# -- WW-5.3 -----------------------------------------------------------------------
def test_ww_5_3_score_is_the_podium_points_most_points_win():
    s = new(3)
    finish(s, 1, "cheetah")  # 4
    finish(s, 0, "cheetah")  # 2
    finish(s, 0, "zebra")  # 5
    s.phase = 4
    assert s.scores() == [7.0, 4.0, 0.0] and s.winners() == [0]


def placed(state, seat, species, place):
    """Give an animal a podium place directly (for scoring tests)."""
    a = animal(seat, species)
    state.place[a] = place
    state.pos[a] = state.finish


def test_ww_5_3_tie_goes_to_the_better_turtle():
    t = new(2)
    t.phase = 4
    finish(t, 0, "zebra")  # 5
    finish(t, 1, "cheetah")  # 4
    finish(t, 1, "turtle")  # 10 (1st)
    finish(t, 0, "turtle")  # 6 (2nd)
    finish(t, 0, "meerkat")  # 8 (1st)
    finish(t, 1, "meerkat")  # 5 (2nd)
    assert t.points() == [19, 19]
    assert t.winners() == [1]  # turtle 1st beats turtle 2nd, though seat 0 has the better meerkat


def test_ww_5_3_a_placed_turtle_beats_none_even_at_place_5():
    s = new(2)
    s.phase = 4
    placed(s, 0, "turtle", 5)  # 0 points
    placed(s, 0, "zebra", 2)  # 3
    placed(s, 1, "cheetah", 3)  # 1
    placed(s, 1, "rhino", 3)  # 2
    assert s.points() == [3, 3]
    assert s.winners() == [0]


def test_ww_5_3_no_tied_turtle_then_the_meerkat_decides():
    s = new(3)
    s.phase = 4
    finish(s, 2, "cheetah")  # 4
    finish(s, 0, "cheetah")  # 2
    finish(s, 0, "meerkat")  # 8 -> 10
    finish(s, 1, "meerkat")  # 5
    finish(s, 1, "zebra")  # 5 -> 10
    assert s.points() == [10, 10, 4]
    assert s.winners() == [0]  # no tied turtle: meerkat 1st beats meerkat 2nd


def test_ww_5_3_still_tied_the_win_is_shared():
    s = new(3)
    s.phase = 4
    placed(s, 2, "cheetah", 4)  # placed, but scores 0 like the others
    assert s.points() == [0, 0, 0]
    assert s.winners() == [2]  # a placed cheetah beats nothing
    v = new(2)
    v.phase = 4
    v.sync()  # the kept fields follow the edit (`is_terminal`, which `returns` asks)
    assert v.winners() == [0, 1]  # no tied player placed any animal: shared win
    assert v.returns() == [0.5, 0.5]


# -- the player rules pages (rules.en.md, rules.de.md) state what WW-3.3 and WW-4.5 decide
@pytest.mark.parametrize("lang, die, gap", [
    ("en", "A die roll showing an animal that has already finished does nothing.",
     ("an animal cannot enter or pass a crossing whose slot holds no tile", "the last free field before it",
      "stays where it is", "the move is still allowed")),
    ("de", "Zeigt der Würfel ein Tier, das schon im Ziel ist, geschieht nichts.",
     ("ein Tier kann eine Überquerung, deren Position keine Tafel hat, weder betreten noch überqueren",
      "letzten freien Feld davor", "wo es ist", "der Zug ist trotzdem erlaubt")),
], ids=["en", "de"])
def test_ww_3_3_and_ww_4_5_are_on_the_rules_pages(lang, die, gap):
    from wasserspiele.core.rules_text import player_rules

    text = " ".join(player_rules("wildwasser", lang).split())
    assert die in text
    for words in gap:
        assert words in text, words
