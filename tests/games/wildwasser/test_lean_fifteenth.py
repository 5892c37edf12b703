"""The fifteenth lean pass's checked `apply`: the trusted body inlined behind a guard that
asks only whether `legal_actions(seat)` offers the action now (WW-3.1 a pick by a seat
yet to pick, of a card in its hand; WW-3.2/3.3 a choice of the seat to move), with the
seat to move's filled in off the common path.  Everything else still reaches the
protocol's refusals, a strict replay's decisions still go through its transaction, and
seeded games through `apply` with and without a seat are the trusted path's."""

import random

import pytest

from wasserspiele import load
from wasserspiele.core.errors import ChanceExhausted, GameOver, IllegalAction, NotYourTurn
from wasserspiele.games.wasserloch.actions import PLAYS
from wasserspiele.games.wildwasser.actions import ALL, PICK, parse_action
from wasserspiele.games.wildwasser.state import PICK_PHASE


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("named", [True, False])
def test_ww_3_1_games_through_apply_are_the_trusted_path_s(players, named):
    """A seat named (any pending one, in random order among the picks, WW-3.1: they are
    simultaneous) or none (the seat to move's)."""
    game = load("wildwasser", players=players)
    rng = random.Random(players)
    for seed in range(4):
        checked, trusted = game.new_game(seed=seed), game.new_game(seed=seed)
        while not trusted.is_terminal():
            seat = rng.choice(trusted.to_move()) if named else trusted.current_seat
            action = rng.choice(trusted.legal_actions(seat))
            trusted.apply_legal(action, seat)
            checked.apply(action, seat if named else None)
            assert checked.history == trusted.history
        assert checked.state_json() == trusted.state_json() and checked.is_terminal()


def test_ww_3_1_a_seat_that_picked_may_not_pick_again_and_a_card_not_in_hand_is_refused():
    state = load("wildwasser", players=3).new_game(seed=2)
    seat = state.current_seat
    picks = state.legal_actions(seat)
    state.apply(picks[0], seat)
    with pytest.raises(NotYourTurn):
        state.apply(picks[1], seat)
    with pytest.raises(NotYourTurn):  # a seat the table does not have
        state.apply(state.legal_actions()[0], 7)
    rng = random.Random(2)
    every_pick = [a for a in ALL if a.kind == PICK]
    while True:  # on to a pick by a seat whose hand lacks a card (one it played before)
        seat = state.current_seat
        missing = [a for a in every_pick if a not in state.legal_actions(seat)]
        if state.phase == PICK_PHASE and missing:
            break
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    before = state.state_json()
    with pytest.raises(IllegalAction) as caught:
        state.apply(missing[0], seat)
    assert caught.value.reason.code == "wildwasser.card_not_in_hand"
    assert state.state_json() == before


def test_another_game_s_action_is_refused_as_not_an_action_and_notation_is_parsed():
    state = load("wildwasser", players=2).new_game(seed=1)
    with pytest.raises(IllegalAction) as caught:
        state.apply(PLAYS[0][1], state.current_seat)
    assert caught.value.reason.code == "not_an_action"
    assert state.history == []
    state.apply(str(state.legal_actions()[0]))
    assert len(state.history) == 1


def test_ww_5_1_once_the_game_is_over_apply_refuses_with_or_without_a_seat():
    game = load("wildwasser", players=2)
    state = game.new_game(seed=3)
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply_legal(rng.choice(state.legal_actions()), state.current_seat)
    for seat in (None, 0, 1):
        with pytest.raises(GameOver):
            state.apply(parse_action("pick zebra"), seat)


def test_a_strict_replay_s_decision_is_still_a_transaction():
    """A decision whose die roll the record lacks is refused and leaves the state as it was
    (the guard no longer asks for a generator: the trusted body sends a strict replay's
    decisions to the protocol's `apply`)."""
    game = load("wildwasser", players=2)
    rng = random.Random(9)
    for seed in range(30):
        played = game.new_game(seed=seed)
        while not played.is_terminal():
            played.apply_legal(rng.choice(played.legal_actions()), played.current_seat)
        setup = played.chance.used_setup()
        if not setup.get("dice"):
            continue
        setup["dice"] = setup["dice"][:-1]  # the last roll is missing
        replay = game.new_game(setup=setup)
        for seat, action, _ in played.history:
            before = replay.state_json()
            try:
                replay.apply(action, seat)
            except ChanceExhausted:
                assert replay.state_json() == before and replay.history == played.history[:len(replay.history)]
                return
        pytest.fail("the replay never needed the missing roll")
    pytest.fail("no game of 30 rolled a die")


def test_ww_3_2_a_choice_by_a_seat_not_to_move_is_refused():
    """While one seat decides on its revealed card, the same choice named for another seat
    is not that seat's turn."""
    state = load("wildwasser", players=3).new_game(seed=4)
    rng = random.Random(4)
    while state.phase == PICK_PHASE:
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_seat
    before = state.state_json()
    with pytest.raises(NotYourTurn):
        state.apply(state.legal_actions(seat)[0], (seat + 1) % 3)
    assert state.state_json() == before
