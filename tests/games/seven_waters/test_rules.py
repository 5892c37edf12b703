"""Seven Waters: one test (at least) per clause of shared/spec/seven-waters.md."""

from __future__ import annotations

import pytest

from wasserspiele import load
from wasserspiele.core.cards import card
from wasserspiele.core.errors import IllegalAction
from wasserspiele.games.seven_waters.rules import HAND_LIMIT, SCORING

from .helpers import DEFAULT_LINES, move_cards, new_state, place


def legal_texts(state):
    return [str(a) for a in state.legal_actions()]


def refuse(state, text, *words):
    """Apply `text`, expect IllegalAction whose reason contains every word."""
    with pytest.raises(IllegalAction) as err:
        state.apply(text)
    for w in words:
        assert w in err.value.reason, err.value.reason
    return err.value.reason


# -- SW-2: card values --------------------------------------------------------------
def test_sw_2_1_values_ace_one_faces_ten():
    s = new_state(lines=((["KH"], ["AC", "QD"], ["JS", "9S", "AS"], ["2C", "3C", "4C", "TH"]), None))
    assert list(s.line_sums[0]) == [10, 11, 20, 19]


def test_sw_2_1_river_keeps_rank_order_j_q_k():
    s = new_state(hands=(["JS", "QD", "KC"], ()))
    s.apply("river JS QD KC")
    assert [str(p) for p in s.river[0]] == ["JS", "QD", "KC"]
    s2 = new_state(hands=(["JS", "KC", "2D"], ()))
    refuse(s2, "river JS KC", "consecutive")


def test_sw_2_2_joker_in_hand_takes_any_slide_value():
    s = new_state(lines=(DEFAULT_LINES, None), hands=(["X1", "AC", "4S"], ()))
    # line 2 = 8C 3S = 11 = AC + X1=10
    s.apply("slide 2 AC X1=10")
    assert s.slides[0][1] is not None and s.extra


def test_sw_2_2_joker_in_a_line_counts_ten():
    s = new_state(lines=((["X2"], ["X1", "AC"], ["2H", "4H", "6D"], ["7H", "9H", "2D", "3D"]), None))
    assert s.line_sums[0][:2] == (10, 11)


def test_sw_2_2_joker_declared_rank_is_fixed_once_placed():
    s = new_state(hands=(["9S", "X1", "4D"], ()))
    s.apply("river 9S X1=T")
    assert [str(p) for p in s.river[0]] == ["9S", "X1=T"]
    s.apply("take 7-1")
    move_cards(s, 0, ["JD", "8C"])
    s.turn = 0
    s.apply("river JD")  # the joker stays a ten: J continues the run 9 T
    assert [str(p) for p in s.river[0]] == ["9S", "X1=T", "JD"]


def test_sw_2_2_joker_in_pool_declares_a_suit():
    s = new_state(hands=(["7H", "X2", "4D"], ()))
    s.apply("pool 7H X2=H")
    assert [str(p) for p in s.pool[0]] == ["7H", "X2=H"]
    s2 = new_state(hands=(["7H", "X2", "4D"], ()))
    refuse(s2, "pool 7H X2=S", "one suit")


# -- SW-3: preparation ----------------------------------------------------------------
def test_sw_3_2_pyramid_rows_and_initial_free_cards():
    s = load("seven_waters").new_game(seed=3)
    takes = [a for a in legal_texts(s) if a.startswith("take")]
    assert takes == [f"take 7-{c}" for c in range(1, 8)]
    v = s.view(0)
    assert [len(r) for r in v["pyramid"]] == [1, 2, 3, 4, 5, 6, 7]
    for r, row in enumerate(v["pyramid"], 1):
        for cell in row:
            assert (cell == "##") == (r % 2 == 0)


def test_sw_3_2_face_down_card_turns_up_when_freed_and_covered_face_up_cards_are_public():
    s = new_state(pyramid={"6-1": "QS", "5-1": "4H"})
    v = s.view(1)
    assert v["pyramid"][5][0] == "##" and v["pyramid"][4][0] == "4H"  # row 5 face up though covered
    s.apply("take 7-1")
    assert s.view(1)["pyramid"][5][0] == "##"  # 7-2 still lies on 6-1
    s.apply("take 7-2")
    v = s.view(0)
    assert v["pyramid"][5][0] == "QS"
    assert "6-1" in v["free"]
    assert v["log"][-1]["revealed"] == ["QS"]
    s.apply("take 6-1")
    assert card("QS") in s.hands[0]


def test_sw_3_2_covered_card_cannot_be_taken():
    s = load("seven_waters").new_game(seed=1)
    refuse(s, "take 6-1", "not free", "7-1", "7-2")


def test_sw_3_3_four_lines_of_one_to_four_cards_never_change():
    s = new_state(lines=(DEFAULT_LINES, None))
    assert [[c.name for c in line] for line in s.lines[0]] == [list(x) for x in DEFAULT_LINES]
    before = s.lines
    for _ in range(30):
        if s.is_terminal():
            break
        s.apply(s.legal_actions()[0])
    assert s.lines == before


def test_sw_3_4_deal_uses_all_54_cards():
    s = load("seven_waters").new_game(seed=5)
    assert [len(h) for h in s.hands] == [3, 3]
    assert sum(s.components().values()) == 54 and len(s.components()) == 54
    deck = s.record()["setup"]["deck"]
    assert s.hands[0] == sorted(card(n) for n in deck[48:51])
    assert s.hands[1] == sorted(card(n) for n in deck[51:54])
    assert [c.name for c in s.lines[1][3]] == deck[44:48]


# -- SW-4: a turn ------------------------------------------------------------------------
def test_sw_4_players_alternate_one_action_per_turn():
    s = load("seven_waters").new_game(seed=2)
    assert s.to_move() == (0,)
    s.apply("take 7-1")
    assert s.to_move() == (1,)
    s.apply("take 7-2")
    assert s.to_move() == (0,)


def test_sw_4_1_take_moves_a_free_card_into_the_hand():
    s = new_state(pyramid={"7-4": "JH"})
    s.apply("take 7-4")
    assert card("JH") in s.hands[0] and s.pyramid[24] is None and s.left == 27


def test_sw_4_1_no_take_while_holding_seven():
    s = new_state()
    move_cards(s, 0, ["QD", "QC", "KD", "KC"])
    assert len(s.hands[0]) == HAND_LIMIT
    assert not any(a.startswith("take") for a in legal_texts(s))
    refuse(s, "take 7-1", "7 cards")


def test_sw_4_2_discard_one_or_more_count_public_cards_secret():
    s = new_state(hands=(["4S", "X2", "9D"], ()))
    s.apply("discard 4S X2")
    assert [c.name for c in s.discards[0]] == ["4S", "X2"]
    v1, v0 = s.view(1), s.view(0)
    assert v1["players"][0]["discard_count"] == 2 and v1["players"][0]["discards"] is None
    assert v1["log"][-1]["action"] == "discard" and v1["log"][-1]["count"] == 2
    assert v0["players"][0]["discards"] == ["4S", "X2"] and v0["log"][-1]["action"] == "discard 4S X2"


def test_sw_4_3_one_attraction_per_action_and_the_turn_passes():
    s = new_state(hands=(["5H", "6H", "7H"], ()))
    # river and pool at once cannot be written; a river build ends the turn
    s.apply("river 5H 6H")
    assert s.to_move() == (1,) and not s.extra


def test_sw_4_3a_slide_must_sum_exactly():
    s = new_state(lines=(DEFAULT_LINES, None), hands=(["KD", "6H", "AC"], ()))
    refuse(s, "slide 2 KD", "sum to 10", "sums to 11")
    refuse(s, "slide 2 KD 6H", "sum to 16")


def test_sw_4_3a_slide_built_all_at_once_on_a_line_without_one():
    s = new_state(lines=(DEFAULT_LINES, None), hands=(["KD", "AC", "5D"], ()))
    s.apply("slide 2 KD AC")
    s.apply("slide 1 5D")  # the extra action may be another slide
    assert s.extra and s.to_move() == (0,)
    move_cards(s, 0, ["7D", "4D"])
    refuse(s, "slide 2 7D 4D", "already has its slide")


def test_sw_4_3a_worked_example_kd_ac_on_8c_3s_then_extra_take_jh():
    """The seed's example: K♦ + A♣ = 11 on the line 8♣ 3♠, then the extra action takes J♥."""
    s = new_state(pyramid={"7-5": "JH"}, lines=(DEFAULT_LINES, None), hands=(["KD", "AC", "6H"], ()))
    assert "slide 2 KD AC" in legal_texts(s)
    s.apply("slide 2 KD AC")
    assert [str(p) for p in s.slides[0][1]] == ["KD", "AC"]
    assert s.to_move() == (0,) and s.extra
    s.apply("take 7-5")
    assert [c.name for c in s.hands[0]] == ["6H", "JH"]
    assert s.to_move() == (1,) and not s.extra
    log = s.view(1)["log"]
    assert [e["action"] for e in log] == ["slide 2 KD AC", "take 7-5"] and log[1]["extra"]


def test_sw_4_3a_extra_actions_chain_two_slides_in_one_turn():
    s = new_state(lines=(DEFAULT_LINES, None), hands=(["KD", "AC", "5D"], ()))
    s.apply("slide 1 5D")
    s.apply("slide 2 KD AC")
    assert s.to_move() == (0,) and s.slides_built == 2
    s.apply("take 7-1")
    assert s.to_move() == (1,)


def test_sw_4_3a_two_jokers_give_one_slide_per_subset():
    s = new_state(lines=(DEFAULT_LINES, None), hands=(["X1", "X2", "4C"], ()))
    slides = [a for a in legal_texts(s) if a.startswith("slide 2")]
    assert "slide 2 X1=10 X2=1" in slides and "slide 2 4C X1=7" in slides
    assert len([a for a in slides if "X1" in a and "X2" in a and "4C" not in a]) == 1
    s.apply("slide 2 X1=5 X2=6")  # another split of the same play is legal too
    assert s.slides_built == 1


def test_sw_4_3b_river_starts_with_a_run_and_extends_at_one_end():
    s = new_state(hands=(["5C", "6D", "7H"], ()))
    s.apply("river 6D 7H")
    s.apply("take 7-1")
    move_cards(s, 0, ["8D", "4D", "9D"])
    s.turn = 0
    refuse(s, "river 4D 8D", "consecutive")
    refuse(s, "river 9D", "runs 6-7", "ending at 5", "starting at 8")
    s.apply("river 8D 9D")
    assert [str(p) for p in s.river[0]] == ["6D", "7H", "8D", "9D"]
    s.turn = 0
    s.apply("river 4D 5C")  # the other end
    assert [str(p) for p in s.river[0]] == ["4D", "5C", "6D", "7H", "8D", "9D"]


def test_sw_4_3b_ace_low_no_wrap_from_king_to_ace():
    s = new_state(hands=(["QC", "KD", "AH"], ()))
    refuse(s, "river QC KD AH", "consecutive")
    s.apply("river QC KD")
    s.turn = 0
    refuse(s, "river AH", "one end")
    s2 = new_state(hands=(["AH", "2H", "3D"], ()))
    s2.apply("river AH 2H 3D")
    assert [str(p) for p in s2.river[0]] == ["AH", "2H", "3D"]


def test_sw_4_3b_river_holds_at_most_thirteen_and_notation_is_ascending():
    s = new_state(hands=(["9S", "8S", "X1"], ()))
    a = s.game.parse_action("river 9S X1=T 8S")
    assert str(a) == "river 8S 9S X1=T"
    s.apply(a)
    # A joker cannot be declared beyond K: a 14th rank does not exist
    from wasserspiele.core.errors import BadNotation
    with pytest.raises(BadNotation):
        s.game.parse_action("river X2=14")
    full = new_state()
    names = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"]
    full.river[0].extend(full.game.parse_action("river " + " ".join(names)).pieces)
    move_cards(full, 0, ["KD"])
    refuse(full, "river KD", "A to K")


def test_sw_4_3c_pool_is_one_suit_and_grows_with_that_suit():
    s = new_state(hands=(["7H", "2H", "9D"], ()))
    refuse(s, "pool 7H 9D", "one suit")
    s.apply("pool 7H 2H")
    s.apply("take 7-1")
    move_cards(s, 0, ["AH", "X1"])
    s.turn = 0
    refuse(s, "pool 9D", "hearts")
    refuse(s, "pool X1=S", "hearts")
    s.apply("pool AH X1=H")
    assert [str(p) for p in s.pool[0]] == ["7H", "2H", "AH", "X1=H"]


def test_sw_4_3d_theme_once_per_game_never_a_joker_and_secret():
    s = new_state(hands=(["3H", "X1", "5S"], ()))
    assert "theme X1" not in legal_texts(s)
    refuse(s, "theme X1", "joker cannot be the theme")
    s.apply("theme 3H")
    assert s.theme[0] == card("3H")
    v1 = s.view(1)
    assert v1["players"][0]["theme_placed"] and v1["players"][0]["theme"] is None
    assert v1["log"][-1]["action"] == "theme"
    assert s.view(0)["players"][0]["theme"] == "3H"
    s.apply("take 7-1")  # seat 1
    refuse(s, "theme 5S", "already been placed")


def test_sw_4_3d_theme_counts_as_a_build_so_it_can_be_the_extra_action():
    s = new_state(lines=(DEFAULT_LINES, None), hands=(["KD", "AC", "3H"], ()))
    s.apply("slide 2 KD AC")
    assert "theme 3H" in legal_texts(s)
    s.apply("theme 3H")
    assert s.to_move() == (1,)


def test_sw_4_4_no_slide_once_seven_are_built():
    s = new_state(lines=(DEFAULT_LINES, None), hands=(["KD", "AC", "5D"], ()))
    s.slides_built = 7  # as if both players had built seven together
    assert not any(a.startswith("slide") for a in legal_texts(s))
    refuse(s, "slide 2 KD AC", "no more slides", "SW-4.4")
    s.slides_built = 6
    s.apply("slide 2 KD AC")
    assert s.slides_built == 7
    refuse(s, "slide 1 5D", "no more slides")


def test_sw_4_5_pass_only_when_nothing_else_is_legal():
    s = new_state(hands=(["5C", "6D", "7H"], ()))
    assert "pass" not in legal_texts(s)
    refuse(s, "pass", "nothing else is legal")
    s.hands[0].clear()
    refuse(s, "pass", "a pyramid card can still be taken")
    s.pyramid = [None] * 28
    s.left = 0
    assert legal_texts(s) == ["pass"]
    s.apply("pass")


# -- SW-5: the end and scoring ----------------------------------------------------------
def _play_until_pyramid_empty(s):
    """Take whenever possible, else discard one card; returns the seat that took the last card."""
    while s.left:
        seat = s.turn
        acts = s.legal_actions()
        take = [a for a in acts if str(a).startswith("take")]
        s.apply(take[0] if take else next(a for a in acts if str(a).startswith("discard")
                                           and len(a.cards) == 1))
    return seat


@pytest.mark.parametrize("final_turns,expected", [("both", 2), ("opponent_only", 1), ("none", 0)])
def test_sw_5_1_end_after_last_pyramid_card_then_final_turns(final_turns, expected):
    s = load("seven_waters", final_turns=final_turns).new_game(seed=8)
    taker = _play_until_pyramid_empty(s)
    order = []
    while not s.is_terminal():
        seat = s.turn
        order.append(seat)
        acts = s.legal_actions()
        s.apply(next((a for a in acts if str(a).startswith("discard") and len(a.cards) == 1), acts[0]))
    want = [taker ^ 1, taker][:expected]
    assert order == want


def test_sw_5_1_extra_actions_of_the_last_take_turn_come_first():
    s = load("seven_waters").new_game(seed=8)
    # empty the pyramid but one card, then let a slide's extra action take the last one
    s.pyramid = [None] * 27 + [s.pyramid[27]]
    s.left = 1
    s.lines = ((( card("5C"),), s.lines[0][1], s.lines[0][2], s.lines[0][3]), s.lines[1])
    s.line_sums = ((5, *s.line_sums[0][1:]), s.line_sums[1])
    for c in list(s.hands[0]):
        s.hands[0].remove(c)
    s.hands[0].append(card("5D"))
    s.apply("slide 1 5D")
    s.apply("take 7-7")
    assert s.to_move() == (1,) and s.final_left == 1


def test_sw_5_2_seed_scoring_example_is_32():
    """The seed: slides of 2, 2, 3 cards (14), river of 6 (6), larger pool (5), 10 hearts
    counting the theme 3♥ (10), one card in hand (-1), one discarded (-2) = 32."""
    s = new_state(lines=(DEFAULT_LINES, None))  # lines hold 2H 4H 7H 9H
    total = s.components()
    place(s, 0, "slide 1", "AH 4C")
    place(s, 0, "slide 2", "KD AC")
    place(s, 0, "slide 3", "5H 5D 2C")
    place(s, 0, "river", "6H 7C 8H 9C TH JC")
    place(s, 0, "pool", "7D 8D 9D")
    place(s, 1, "pool", "TD JD")
    place(s, 0, "theme", "3H")
    for c in list(s.hands[0]):
        s.hands[0].remove(c)
        s.hands[1].append(c)
    place(s, 0, "hand", "QC")
    place(s, 0, "discards", "KC")
    assert s.components() == total
    assert s.breakdown(0) == {"slides": 14, "river": 6, "pool": 5, "theme": 10, "hand": -1, "discards": -2}
    assert s.scores()[0] == 32


def test_sw_4_3d_a_running_score_seen_by_another_seat_leaves_the_secret_theme_out():
    """SW-4.3d: the theme lies face down.  The web showed every seat the running totals
    (`scores()`), whose difference to the public parts was the theme count and named
    the suit; `scores_seen_by` leaves another seat's theme points out until the end."""
    s = new_state(lines=(DEFAULT_LINES, None))  # seat 0's lines hold 2H 4H 7H 9H
    place(s, 0, "theme", "3H")
    place(s, 0, "river", "6H 7C 8H")
    full = s.scores()
    theme = s.breakdown(0)["theme"]
    assert theme == 7  # 3H, 6H, 8H and the four hearts of the lines
    assert s.scores_seen_by(0) == full  # a seat knows its own theme
    assert s.scores_seen_by(1) == [full[0] - theme, full[1]] == s.scores_seen_by(None)
    s.over = True
    assert s.scores_seen_by(1) == s.scores_seen_by(None) == full  # turned up at the end (SW-5.2)


def test_sw_5_2_scoring_table_is_one_constant():
    assert SCORING == {"slides": 2, "river": 1, "pool": 5, "theme": 1, "hand": -1, "discards": -2}


def test_sw_5_2_equal_pools_give_no_one_the_five_and_jokers_never_count_for_the_theme():
    s = new_state(lines=((["X1"], ["8C", "3S"], ["2H", "4H", "6D"], ["7H", "9H", "2D", "3D"]), None))
    assert s.breakdown(0)["pool"] == 0 and s.breakdown(1)["pool"] == 0
    place(s, 0, "pool", "X2=H")
    place(s, 0, "theme", "5H")
    b = s.breakdown(0)
    assert b["pool"] == 5  # 1 card against 0
    assert b["theme"] == 1 + 4  # 5H itself and 2H 4H 7H 9H in the lines; X1 and X2=H never


def _terminal_with(scores_equal: bool, pools: tuple[int, int]):
    s = load("seven_waters").new_game(seed=4)
    s.over = True
    s.hands = [[], []]
    s.discards = [[], []]
    g = s.game.parse_action
    suits = ("C", "D")
    for seat, n in enumerate(pools):
        s.pool[seat] = list(g("pool " + " ".join(f"{r}{suits[seat]}" for r in "A23456789TJQK"[:n])).pieces) \
            if n else []
    return s


def test_sw_5_3_higher_total_wins_then_larger_pool_then_draw():
    s = _terminal_with(True, (0, 0))
    assert s.scores() == [0, 0] and s.winners() == [0, 1] and s.returns() == [0.5, 0.5]
    assert s.decision() == ([0, 1], "draw")
    s = _terminal_with(True, (2, 0))
    assert s.scores() == [5, 0] and s.winners() == [0] and s.decision() == ([0], "points")
    # equal totals, larger pool wins: seat 1 makes up the 5 with a river of 5 cards
    s.river[1] = list(s.game.parse_action("river 2S 3S 4S 5S 6S").pieces)
    assert s.scores() == [5, 5] and s.winners() == [0] and s.decision() == ([0], "pool")


# -- SW-7: variants ---------------------------------------------------------------------------
def test_sw_7_1_competition_edition_has_no_slide_limit():
    s = new_state(lines=(DEFAULT_LINES, None), hands=(["KD", "AC", "5D"], ()), slide_limit=None)
    s.slides_built = 7
    s.apply("slide 2 KD AC")
    assert s.slides_built == 8


# -- options -------------------------------------------------------------------------------------
def test_option_first_player():
    assert load("seven_waters", first_player=1).new_game(seed=1).to_move() == (1,)
    assert load("seven_waters").new_game(seed=1).to_move() == (0,)
    from wasserspiele.core.errors import BadOption
    with pytest.raises(BadOption):
        load("seven_waters", first_player=2)


def test_option_slide_limit_counts_both_players_together():
    lines_1 = (["5S"], ["8D", "3H"], ["2S", "4S", "6S"], ["7S", "9S", "2C", "3C"])
    s = new_state(lines=(DEFAULT_LINES, lines_1), hands=(["KD", "AC", "6C"], ["5H", "QH", "JH"]),
                  slide_limit=1)
    s.apply("slide 2 KD AC")
    s.apply("take 7-1")
    assert not any(a.startswith("slide") for a in legal_texts(s))
    refuse(s, "slide 1 5H", "no more slides")


def test_option_final_turns_values_and_default():
    from wasserspiele.core.errors import BadOption
    assert load("seven_waters").options["final_turns"] == "both"
    with pytest.raises(BadOption):
        load("seven_waters", final_turns="twice")
