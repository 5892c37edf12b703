"""Two defects a tester found playing Wildwasser in German.

* A seat that had picked its card (WW-3.1) and picked again was told only that it was
  not its turn (the protocol's "it is not seat 0's turn"); it is told that its card for
  the round is picked and that the cards are resolved once all have picked.
* The game's end named nobody: "Das Spiel ist vorbei: jemand hat drei Tiere im Ziel."
  The end event carries the seats with three animals across the finish line (WW-5.1; one
  round ends the game, so several may), and the terminal and the page name them."""

from __future__ import annotations

import pytest

from wasserspiele import load
from wasserspiele.core.errors import IllegalAction, NotYourTurn
from wasserspiele.core.messages import render
from wasserspiele.games.wildwasser import render as terminal
from wasserspiele.games.wildwasser.view import _event

from .helpers import events, finish, last_player_finishes_third, new, picks, put

def picked(players: int, lang: str) -> str:
    """Seat 0's second pick refused, the others still to pick (named as the engine's reasons name seats)."""
    waiting = render("not_your_turn", {"seat": 0, "waiting": list(range(1, players))}, lang)
    waiting = waiting[waiting.index("("):]  # "(waiting for seat 1 and seat 2)", as not_your_turn says it
    return (f"seat 0 has already picked a card for this round {waiting}" if lang == "en"
            else f"Platz 0 hat für diese Runde schon eine Karte gewählt {waiting}")


# -- WW-3.1: a second pick --------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 6])
def test_ww_3_1_a_seat_that_picked_is_told_its_card_is_picked_not_that_it_is_not_its_turn(players):
    state = load("wildwasser", players=players).new_game(seed=2)
    state.apply("pick zebra", 0)
    before = state.state_json()
    with pytest.raises(NotYourTurn) as refused:   # still the protocol's kind of refusal
        state.apply("pick rhino", 0)
    reason = refused.value.reason
    assert reason.code == "wildwasser.already_picked"
    assert reason == picked(players, "en") and reason.render("de") == picked(players, "de")
    assert str(refused.value) == f'"pick rhino" by seat 0: {picked(players, "en")}'
    assert state.state_json() == before and len(state.history) == 1
    why = state.why_illegal("pick rhino", 0)        # the same reason asked beforehand
    assert why.code == "wildwasser.already_picked" and why.render("de") == picked(players, "de")
    with pytest.raises(NotYourTurn) as refused:     # the action itself, not only notation
        state.apply(state.legal_actions(1)[0], 0)
    assert refused.value.reason.code == "wildwasser.already_picked"


def test_ww_3_1_the_others_still_pick_and_the_round_goes_on():
    state = new(3)
    state.apply("pick zebra", 0)
    with pytest.raises(NotYourTurn):
        state.apply("pick zebra", 0)
    state.apply("pick zebra", 1)
    state.apply("pick rhino", 2)   # the last pick: the reveals begin with the marker's holder
    assert state.phase != 0 and state.current_seat == 0


def test_ww_3_1_a_seat_not_to_move_outside_the_picks_or_not_at_the_table_is_still_not_to_move():
    """Only a seat that picked this round's card is told so: while a revealed card is
    resolved (WW-3.2) another seat, and a seat the table does not have, hear the
    protocol's "not your turn"."""
    state = new(3)
    assert state.why_illegal("pick zebra", 7).code == "not_your_turn"
    with pytest.raises(NotYourTurn) as refused:
        state.apply("pick zebra", 7)
    assert refused.value.reason.code == "not_your_turn"
    picks(state, "zebra", "zebra", "zebra")
    assert state.current_seat == 0
    for seat in (1, 2):
        assert state.why_illegal("move", seat).code == "not_your_turn"
        with pytest.raises(NotYourTurn) as refused:
            state.apply("move", seat)
        assert refused.value.reason.code == "not_your_turn"


def test_ww_3_1_a_pick_of_a_card_not_in_hand_by_a_seat_yet_to_pick_keeps_its_own_reason():
    state = new(2)
    picks(state, "zebra", "zebra")
    state.apply("move")
    state.apply("move")
    with pytest.raises(IllegalAction) as refused:
        state.apply("pick zebra", 0)
    assert refused.value.reason.code == "wildwasser.card_not_in_hand"
    state.apply("pick rhino", 0)
    assert state.why_illegal("pick zebra", 0).code == "wildwasser.already_picked"


# -- WW-5.1: who ended the game ----------------------------------------------------
def _end_line(state, lang):
    view = state.view(None)
    end = view["log"][-1]
    assert end["event"] == "end"
    return end, terminal.describe_event(end, lang)


def test_ww_5_1_the_end_names_the_seat_with_three_animals_across():
    """Seat 1 (B) finishes a third animal with the round's last card (test_seed_audit's
    scenario): the end says B, not "someone"."""
    s = last_player_finishes_third()
    s.apply("move")
    s.apply("move")
    assert s.is_terminal()
    assert events(s, "end")[-1] == ("end", -1, "finish", (1,))
    end, en = _end_line(s, "en")
    assert end["why"] == "finish" and end["finishers"] == [1]
    assert en == "The game is over: B has three animals across the finish line."
    assert _end_line(s, "de")[1] == "Das Spiel ist vorbei: B hat drei Tiere im Ziel."


def test_ww_5_1_two_seats_finishing_in_the_same_round_are_both_named():
    """One round ends the game for all (WW-5.1): A and B each bring a third animal home
    in it, and the end names both, in the plural."""
    s = new(3)
    for seat in (0, 1):
        finish(s, seat, "turtle")
        finish(s, seat, "meerkat")
    put(s, 0, "cheetah", 35)
    put(s, 1, "cheetah", 34)
    picks(s, "cheetah", "cheetah", "zebra")
    for _ in range(3):
        s.apply("move")
    assert s.is_terminal() and s.done[:2] == [3, 3]
    assert events(s, "end")[-1] == ("end", -1, "finish", (0, 1))
    assert _end_line(s, "en")[1] == "The game is over: A and B have three animals each across the finish line."
    assert _end_line(s, "de")[1] == "Das Spiel ist vorbei: A und B haben je drei Tiere im Ziel."


def test_ww_5_2_the_end_by_the_tiles_says_why_as_before():
    s = new(2)
    s.discard.extend(s.stack)
    s.stack.clear()
    picks(s, "zebra", "cheetah")
    s.apply("action")
    s.apply("move")
    assert s.is_terminal()
    end = events(s, "end")[-1]
    assert end[:3] == ("end", -1, "tiles") and end[3] == ()
    assert _end_line(s, "en")[1] == "The game is over: the log tiles have run out."
    assert _end_line(s, "de")[1] == "Das Spiel ist vorbei: die Baumstammtafeln sind ausgegangen."


def test_ww_5_1_an_end_event_of_an_older_log_without_its_seats_still_reads():
    """A log made before the end carried its seats (a pickle of an older state): the view
    knows none, and the line says why without a name."""
    old = _event(9, ("end", -1, "finish"), None)
    assert old["finishers"] is None and old["why"] == "finish"
    assert terminal.describe_event(old, "en") == "The game is over: a player has three animals across the finish line."


@pytest.mark.parametrize(("finishers", "en", "de"), [
    ([2], "The game is over: seat 2 has three animals across the finish line.",
     "Das Spiel ist vorbei: Platz 2 hat drei Tiere im Ziel."),
    ([0, 2], "The game is over: seat 0 and seat 2 have three animals each across the finish line.",
     "Das Spiel ist vorbei: Platz 0 und Platz 2 haben je drei Tiere im Ziel."),
])
def test_ww_5_1_the_page_s_end_line_names_the_seats(finishers, en, de):
    """The page's words (web.js logLines: the seats by the names the page gives them,
    here the catalogue's, as a seat nobody named is called)."""
    params = {"finishers": finishers, "n": len(finishers)}
    assert render("wildwasser.web.ev.end_finish", params, "en") == en
    assert render("wildwasser.web.ev.end_finish", params, "de") == de
