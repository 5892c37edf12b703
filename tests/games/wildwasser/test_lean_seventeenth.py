"""The seventeenth lean pass (issue 17 item 1, Wildwasser's trusted path).  `is_terminal` is
the `terminal` slot's descriptor, so asking it calls a C callable (`RUNNING`, then
`ENDED` once WW-5.1/WW-5.2 end the game) with no Python frame.  The slot must follow the
phase wherever a position is made: a new game, every action on both paths, clones,
pickles (old ones without the slot too), `sync` after a direct edit; and a subclass's own `is_terminal` must still be the one called.

`occ` runs past the podium by the longest move, all free, so a move looks up the field it
aims at without testing the finish first; clones and old pickles hold it so too."""

import pickle
import random

import pytest

from wasserspiele import load
from wasserspiele.games.wildwasser.rules import WildwasserState
from wasserspiele.games.wildwasser.state import ENDED, OVER, RUNNING


def played(players, seed, steps=None, trusted=True):
    state = load("wildwasser", players=players).new_game(seed=seed)
    rng = random.Random(seed)
    n = 0
    while state.phase != OVER and (steps is None or n < steps):
        seat = state.current_seat
        action = rng.choice(state.legal_actions(seat))
        state.apply_legal(action, seat) if trusted else state.apply(action, seat)
        n += 1
    return state


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("trusted", [True, False])
def test_ww_5_1_is_terminal_follows_the_phase_at_every_step(players, trusted):
    for seed in range(3):
        state = load("wildwasser", players=players).new_game(seed=seed)
        rng = random.Random(seed)
        while True:
            over = state.phase == OVER
            assert state.is_terminal() is over
            assert state.terminal is (ENDED if over else RUNNING)
            assert state.clone().is_terminal() is over
            if over:
                break
            seat = state.current_seat
            action = rng.choice(state.legal_actions(seat))
            state.apply_legal(action, seat) if trusted else state.apply(action, seat)
        assert state.current_seat is None and state.legal_actions() == ()


def test_the_callables_answer_without_an_argument():
    assert RUNNING() is False and ENDED() is True
    # no Python frame: neither is a Python function or method
    assert not hasattr(RUNNING, "__code__") and not hasattr(ENDED, "__code__")
    assert not hasattr(load("wildwasser", players=2).new_game(seed=0).is_terminal, "__code__")


@pytest.mark.parametrize("steps", [0, 7, None])
def test_pickles_and_pickles_without_the_slot_follow_the_phase(steps):
    state = played(3, 5, steps)
    over = state.phase == OVER
    back = pickle.loads(pickle.dumps(state))
    assert back.is_terminal() is over and back.state_json() == state.state_json()
    # a pickle made before the slot existed holds no `terminal`
    data = state.__getstate__()
    assert "terminal" not in data
    old = object.__new__(WildwasserState)
    old.__setstate__(data)
    assert old.is_terminal() is over


def test_sync_derives_it_after_a_direct_edit():
    state = played(2, 1, 9)
    state.phase = OVER
    state.sync()
    assert state.is_terminal() is True
    state.phase = 1
    state.sync()
    assert state.is_terminal() is False


def test_a_subclass_s_own_is_terminal_is_called():
    asked = []

    class Asking(WildwasserState):
        __slots__ = ()

        def is_terminal(self):
            asked.append(self.phase)
            return self.phase == OVER

    state = played(4, 2, 11)
    sub = object.__new__(Asking)
    sub.__setstate__(state.__getstate__())
    rng = random.Random(0)
    while not sub.is_terminal():
        seat = sub.current_seat
        sub.apply_legal(rng.choice(sub.legal_actions(seat)), seat)
    assert len(asked) > 10 and asked[-1] == OVER and sub.terminal is ENDED
    assert sub.clone().is_terminal() is True and asked[-1] == OVER


# -- `occ` past the finish (WW-4.1/4.2: a move aims at a field without testing the finish first)

def test_occ_runs_past_the_finish_by_the_longest_move_all_free():
    game = load("wildwasser", players=3)
    b = game.board
    assert game.occ_len == b.fields + 2 + max(*b.speed, 3)
    state = played(3, 4, 30)
    assert len(state.occ) == game.occ_len and state.occ[b.fields + 1:] == [-1] * (game.occ_len - b.fields - 1)
    assert len(state.clone().occ) == game.occ_len


@pytest.mark.parametrize("n", [1, 3, 5])
def test_ww_4_2_a_move_from_the_last_field_finishes_however_long(n):
    from wasserspiele.games.wildwasser.board import CHEETAH
    state = load("wildwasser", players=2).new_game(seed=0)
    last = state.board.fields
    a = CHEETAH  # seat 0's cheetah
    state.pos[a], state.occ[last] = last, a
    assert state._run(0, CHEETAH, n) is False
    assert state.pos[a] == state.finish and state.place[a] == 1 and state.occ[last] == -1


def test_a_pickle_made_before_holds_a_shorter_occ():
    state = played(2, 6, 20)
    data = state.__getstate__()
    data["occ"] = data["occ"][:state.board.fields + 2]
    old = object.__new__(WildwasserState)
    old.__setstate__(data)
    assert old.occ == state.occ


# -- the pick order's rows kept on the state (WW-3.1)

@pytest.mark.parametrize("players", [2, 3, 6])
def test_pick_rows_are_after_pick_s_rows_with_their_own_next_row(players):
    game = load("wildwasser", players=players)
    assert game.first_pick_row is game.pick_rows[game.all_seats]
    for w, row in game.after_pick.items():
        assert len(row) == players
        for seat, left in enumerate(row):
            entry = game.pick_rows[w][seat]
            if left is None:
                assert entry is None
            else:
                assert entry[0] is left and entry[1] is game.pick_rows[left]


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("trusted", [True, False])
def test_ww_3_1_the_state_s_pick_row_is_its_waiting_s_at_every_step(players, trusted):
    """Picks in random order among the seats still to pick (they are simultaneous)."""
    game = load("wildwasser", players=players)
    rng = random.Random(players)
    for seed in range(3):
        state = game.new_game(seed=seed)
        while True:
            want = game.pick_rows[state.waiting] if state.phase == 0 else None
            for s in (state, state.clone()):
                assert s.pick_row is want
            back = pickle.loads(pickle.dumps(state))  # (with a game of its own)
            assert back.pick_row is (back.game.pick_rows[back.waiting] if back.phase == 0 else None)
            edited = state.clone()
            edited.pick_row = "stale"
            edited.sync()
            assert edited.pick_row is want
            if state.is_terminal():
                break
            seat = rng.choice(state.to_move())
            action = rng.choice(state.legal_actions(seat))
            state.apply_legal(action, seat) if trusted else state.apply(action, seat)


# -- a strict replay is told by its log (it keeps one from the start)

@pytest.mark.parametrize("trusted", [True, False])
def test_a_strict_replay_s_decision_through_either_path_is_still_a_transaction(trusted):
    """The trusted body tests for a kept log first and asks for a generator only then: a
    strict replay (which keeps its log from the start) whose record lacks the last roll is
    refused and left as it was, through `apply_legal` as through `apply`."""
    from wasserspiele.core.errors import ChanceExhausted
    game = load("wildwasser", players=3)
    for seed in range(30):
        done = played(3, seed)
        setup = done.chance.used_setup()
        if not setup.get("dice"):
            continue
        setup["dice"] = setup["dice"][:-1]  # the last roll is missing
        replay = game.new_game(setup=setup)
        assert replay.log_tail is not None and replay.chance.rng is None
        for seat, action, _ in done.history:
            before = (replay.state_json(), replay.events(), list(replay.history))
            try:
                replay.apply_legal(action, seat) if trusted else replay.apply(action, seat)
            except ChanceExhausted:
                assert (replay.state_json(), replay.events(), replay.history) == before
                return
        pytest.fail("the replay never needed the missing roll")


def test_a_game_with_a_generator_keeps_no_log_until_asked():
    """(So the trusted body's one test of a playout is the log's.)"""
    state = played(4, 3, 25)
    assert state.log_tail is None and state.chance.rng is not None


def test_the_driver_s_two_slots_are_the_concrete_class_s_and_pickled():
    """`current_seat` and `terminal` are declared on WildwasserState itself (a slot read
    outside specialised code checks the instance's type against the slot's class), and
    still copied, pickled and restored like the data's."""
    from wasserspiele.games.wildwasser.state import DRIVER_SLOTS, WildwasserData
    for name in DRIVER_SLOTS:
        assert name in WildwasserState.__dict__ and name not in WildwasserData.__slots__
    assert WildwasserState.is_terminal is WildwasserState.__dict__["terminal"]
    for steps in (3, 12, None):
        state = played(4, 8, steps)
        back = pickle.loads(pickle.dumps(state))
        assert (back.current_seat, back.is_terminal()) == (state.current_seat, state.is_terminal())
        assert state.clone().current_seat == state.current_seat


def test_ww_3_2_the_rhino_s_roll_moves_without_a_call_and_an_override_of_run_gets_it_as_written():
    assert "_run" not in WildwasserState._rhino_action.__code__.co_names

    class OwnRun(WildwasserState):
        __slots__ = ()

        def _run(self, seat, sp, n=1):
            return WildwasserState._run(self, seat, sp, n)

    assert OwnRun._rhino_action is WildwasserState._rhino_action.__wrapped__


@pytest.mark.parametrize("players", [2, 5])
def test_ww_3_1_legal_actions_of_no_seat_are_the_seat_to_move_s_at_every_step(players):
    game = load("wildwasser", players=players)
    rng = random.Random(1)
    for seed in range(3):
        state = game.new_game(seed=seed)
        while True:
            assert state.legal_actions() == state.legal_actions(state.current_seat)
            for seat in range(players):
                offered = state.legal_actions(seat)
                assert bool(offered) == (seat in state.to_move())
            if state.is_terminal():
                assert state.legal_actions() == () and state.legal_actions(0) == ()
                break
            seat = rng.choice(state.to_move())
            state.apply_legal(rng.choice(state.legal_actions(seat)), seat)
