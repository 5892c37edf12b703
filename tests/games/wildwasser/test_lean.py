"""The fields the lean engine keeps beside the position (current_seat, the drift table,
the finished species, the pending choices, the log's length) and its inlined trusted
path agree with the rules at every step of seeded games."""

import random

import pytest

from wasserspiele import load
from wasserspiele.core.protocol import State
from wasserspiele.games.wildwasser.state import CHOOSE, TEAM_CARD


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("river_flow", ["forward", "back"])
def test_current_seat_and_trusted_path_agree_with_checked_play(players, river_flow):
    game = load("wildwasser", players=players, river_flow=river_flow)
    for seed in range(6):
        checked, trusted = game.new_game(seed=seed), game.new_game(seed=seed)
        rng = random.Random(seed)
        while not checked.is_terminal():
            for s in (checked, trusted, trusted.clone()):
                waiting = s.to_move()
                assert s.current_seat == (waiting[0] if waiting else None)
            seat = rng.choice(checked.to_move())  # any pending seat, not only the first
            action = rng.choice(checked.legal_actions(seat))
            checked.apply(action, seat)
            trusted.apply_legal(action, seat)
            assert trusted.history == checked.history
            assert trusted.events(3) == checked.events(3)
            assert trusted.state_json() == checked.state_json()
        assert trusted.is_terminal() and trusted.current_seat is None
        assert trusted.events() == checked.events()


@pytest.mark.parametrize("river_flow", ["forward", "back"])
def test_drift_table_follows_the_river(river_flow):
    """WW-4.4: an animal on a crossing drifts to the same column of the next slot's
    crossing, or off the last slot back to its team card."""
    game = load("wildwasser", players=4, river_flow=river_flow)
    b = game.board
    for f in b.crossing_field_list:
        slot = game.flow[b.field_crossing[f]]
        to = game.drift[f]
        if slot == b.slots - 1:
            assert to == TEAM_CARD
        else:
            assert game.flow[b.field_crossing[to]] == slot + 1
            assert b.field_column[to] == b.field_column[f]


def _random_steps(game, seed, clones=False):
    """(state before, seat, action) along a seeded random game, any pending seat."""
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = rng.choice(state.to_move())
        yield state, seat, rng.choice(state.legal_actions(seat))


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("river_flow", ["forward", "back"])
def test_lean_path_agrees_with_the_rulebook_path(players, river_flow):
    """`apply_legal` (the pick, the decision's dispatch and the next reveal inlined) leaves
    what the rulebook's `_apply` leaves, through the protocol's own trusted path."""
    game = load("wildwasser", players=players, river_flow=river_flow)
    for seed in range(5):
        book, lean = game.new_game(seed=seed), game.new_game(seed=seed)
        rng = random.Random(100 + seed)
        while not book.is_terminal():
            seat = rng.choice(book.to_move())
            action = rng.choice(book.legal_actions(seat))
            State.apply_legal(book, action, seat)  # calls book._apply
            lean.apply_legal(action, seat)
            assert lean.history == book.history
            assert lean.state_json() == book.state_json()
            assert lean.events(4) == book.events(4)
            assert (lean.current_seat, lean.is_terminal()) == (book.current_seat, book.is_terminal())
            for s in range(players):
                assert lean.legal_actions(s) == book.legal_actions(s)
        assert lean.events() == book.events() and lean.log_len == book.log_len


@pytest.mark.parametrize("players", [2, 4, 6])
def test_kept_fields_agree_with_the_position(players):
    """`fin` (finished species per seat) and `choices` (the decider's legal actions) are
    what `sync()` derives from the position at every step, and `choices` is the list the
    rules give: the card's own move or its action (WW-3.2/3.3), a sun, a marker."""
    game = load("wildwasser", players=players)
    for seed in range(8):
        for state, seat, action in _random_steps(game, seed):
            fresh = state.clone()
            fresh.fin, fresh.choices = None, None
            fresh.sync()
            assert fresh.fin == state.fin
            assert fresh.choices == state.choices
            for s in range(players):
                assert state.fin[s] == sum(1 << sp for sp in range(5)
                                           if state.pos[s * 5 + sp] == state.finish)
            if state.phase == CHOOSE:
                assert state.choices == state._card_choices(seat, state.card)
            state.apply(action, seat)
        assert state.choices == () and state.legal_actions() == ()


def test_log_length_is_counted_right_on_clones_and_edits():
    """`log_len` is counted from a marked node: right on a state, on clones that go their
    own ways after the mark, and after the log is replaced by hand."""
    game = load("wildwasser", players=3)
    rng = random.Random(5)
    states = [game.new_game(seed=5)]
    for step in range(400):
        s = rng.choice(states)
        if s.is_terminal():
            continue
        if step % 7 == 0:
            states.append(s.clone())
        if step % 3 == 0:
            assert s.log_len == len(s.events())
        seat = s.current_seat
        s.apply_legal(rng.choice(s.legal_actions(seat)), seat)
    for s in states:
        assert s.log_len == len(s.events()) == s.events()[-1][0] + 1
    s = states[0]
    s.log, s.log_len = ((("round", -1, 1, 0), None)), 1
    assert s.log_len == 1 and s.events() == [(0, ("round", -1, 1, 0))]


def test_actions_are_interned_so_identity_is_equality():
    """WildAction has no __eq__: parsing, copying and unpickling give the one interned
    action, and an action is never equal to another action or to its notation."""
    import copy
    import pickle

    from wasserspiele.games.wildwasser.actions import ALL, parse_action
    for action in ALL:
        text = str(action)
        assert parse_action(text) is action and parse_action(text.upper()) is action
        assert pickle.loads(pickle.dumps(action)) is action
        assert copy.deepcopy(action) is action and copy.copy(action) is action
        assert action == action and action != text
        assert [a for a in ALL if a == action] == [action]
        assert hash(action) == hash((action.kind, action.arg))
