"""The Wasserloch heuristic's exposure (games/wasserloch/heuristic.py): the opponents'
hands are dealt from the cards the bot's view does not show.  WL-5.3: every looted card
lay face up at the waterhole, so the round's loot by value (`gone`) is public; the herd
the judged play itself drives off is public too (it lies at the waterhole now)."""

from __future__ import annotations

from math import comb

import pytest

from wasserspiele import load
from wasserspiele.bots.base import decision_for
from wasserspiele.games.wasserloch import heuristic
from wasserspiele.games.wasserloch.actions import PLAYS

A, _2, _3, _4, _5, _6, _7, _8 = range(8)


def position(pile: tuple[int, ...] = (_3, _8)):
    """Round 1 of 3 players, seat 1 to move.  Waterhole: four aces, five 2s, one 3, two 4s,
    one 7; looted this round: three aces, one 3, six 4s, seven each of 5s, 6s and 7s, three
    8s; seat 1 holds an ace, a 2, two 3s and an 8.  The other hands and `pile` hold the
    rest (with no pile, the two cards it would hold are looted too)."""
    state = load("wasserloch", players=3).new_game(seed=1)
    state.hole = [4, 5, 1, 2, 0, 0, 1, 0]
    state.gone = [3, 0, 1, 6, 7, 7, 7, 3]
    state.hands = [[0, 1, 2, 0, 0, 0, 0, 2], [1, 1, 2, 0, 0, 0, 0, 1], [0, 1, 1, 0, 1, 1, 0, 1]]
    if not pile:
        state.gone[_3] += 1
        state.gone[_8] += 1
    state.pile, state.pile_pos = pile, 0
    state.loot = [[12, 12, sum(state.gone) - 24]]
    state.current = 1
    assert sorted(state.components().values()) == [8] * 8  # the 64 cards, each once
    return state


def hidden(state, seat: int) -> list[int]:
    """Per value, the cards in the other hands and the pile (the true state: tests only)."""
    out = [0] * 8
    for other, hand in enumerate(state.hands):
        if other != seat:
            out = [a + b for a, b in zip(out, hand)]
    for v in state.pile[state.pile_pos:]:
        out[v] += 1
    return out


def test_wl_5_3_unseen_cards_are_the_deck_less_hand_waterhole_and_loot():
    state = position()
    view = decision_for(state, 1).view
    # 8 of each value (WL-2) less the waterhole, the round's loot and the own hand:
    # aces 8-4-3-1, 2s 8-5-0-1, 3s 8-1-1-2, 4s 8-2-6, 5s 8-7, 6s 8-7, 7s 8-1-7, 8s 8-3-1
    assert heuristic.unseen_counts(view) == [0, 2, 4, 0, 1, 1, 0, 4]
    # which are exactly the cards in the other hands and the pile
    assert heuristic.unseen_counts(view) == hidden(state, 1)


def test_wl_4_2_wl_5_3_the_herd_a_play_drives_off_is_not_unseen():
    """The exposure of a play judged beforehand equals the exposure read from the view
    after it was made (no pile: nothing is drawn, so both views show the same cards): the
    herd it drives off is public at the waterhole, then in the loot, never in a hand."""
    state = position(pile=())
    before = decision_for(state, 1).view
    for play in (PLAYS[_2][1], PLAYS[_3][2]):  # drive off the four aces; the five 2s
        after_state = state.clone()
        after_state.apply(play, 1)
        after = after_state.view(1)
        assert after["gone"] != before["gone"]  # the play drove a herd off
        assert heuristic.unseen_counts(after) == heuristic.unseen_counts(before) == hidden(state, 1)
        adjacent = before["chase"] == "adjacent"
        assert (heuristic.HeuristicBot.exposure(before, after["waterhole"], adjacent)
                == heuristic.HeuristicBot.exposure(after, after["waterhole"], adjacent))


def test_wl_4_2_the_bot_takes_the_bigger_herd_once_the_looted_cards_are_counted_seen():
    """3x2 drives off five 2s and leaves the four aces to one more 3; 2x1 drives off the
    four aces and leaves six 2s to two more 3s.  Four of the twelve unseen cards are 3s.
    Before the fix each play's own herd was counted among the unseen cards (sixteen
    after 2x1, seventeen after 3x2), which made an opponent's 3s look rarer: the six 2s
    2x1 leaves looked much safer (exposure 3.29 instead of 5.18; 3x2: 4.75 instead of
    5.58) and the bot played 2x1, the smaller herd."""
    state = position()
    decision = decision_for(state, 1)
    bot = heuristic.HeuristicBot(0)
    view = decision.view
    assert bot.evaluate(view, _3, 2) > bot.evaluate(view, _2, 1) + 0.5  # not a near tie
    assert str(bot.choose(decision)) == "3x2"
    # after 2x1: six 2s, one 3, two 4s, one 7.  The worst threat is two 3s taking the six
    # 2s: each of the next two players (weighed 1 and 1/2) holds five of the twelve unseen
    # cards, two or more of the four 3s with chance 1 - (C(8,5) + 4 C(8,4)) / C(12,5)
    after = [0, 6, 1, 2, 0, 0, 1, 0]
    two_threes = 1 - (comb(8, 5) + 4 * comb(8, 4)) / comb(12, 5)
    assert heuristic.HeuristicBot.exposure(view, after, False) == pytest.approx(6 * two_threes * 1.5)
