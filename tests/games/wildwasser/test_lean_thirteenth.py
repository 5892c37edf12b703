"""The thirteenth lean pass: a game drawn from a generator keeps no public log
(`log_tail` None) until one is asked for; then `_replay_log` makes it by replaying the
game strictly from its chance outcomes and history, and the state keeps it from then on.
The log so made is, all through seeded games, the log of the same game played with
its log kept from the first action (a strict replay of its record); clones, pickles and
sampled worlds of a state that keeps no log hold that log too."""

import pickle
import random

import pytest

from wasserspiele import load
from wasserspiele.games.wildwasser.state import CHOOSE


def _strict(state):
    """The same game with its log kept from its first action: a strict replay."""
    kept = state.game.new_game(setup=state.chance.used_setup())
    for seat, action, _ in state.history:
        kept.apply(action, seat)
    return kept


def _steps(game, seed, rng, checked):
    state = game.new_game(seed=seed)
    yield state
    while not state.is_terminal():
        seat = rng.choice(state.to_move())
        action = rng.choice(state.legal_actions(seat))
        (state.apply if checked else state.apply_legal)(action, seat)
        yield state


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("river_flow", ["forward", "back"])
@pytest.mark.parametrize("checked", [False, True])
def test_a_log_made_when_asked_is_the_log_kept_from_the_start(players, river_flow, checked):
    """Asked for at a random step, the log is the one a strict replay keeps as it goes;
    after that the state keeps it (checked at every step), and agrees with the replay at
    every 20th step and at the end."""
    game = load("wildwasser", players=players, river_flow=river_flow)
    for seed in range(5):
        rng = random.Random(seed * 7 + players)
        ask_at = rng.randrange(0, 150)
        for i, state in enumerate(_steps(game, seed, rng, checked)):
            if i < ask_at and not state.is_terminal():
                assert state.log_tail is None  # nothing asked yet: no log kept
                continue
            if i == ask_at or i % 20 == 0 or state.is_terminal():
                kept = _strict(state)
                assert kept.log_tail is not None  # a strict replay keeps its log
                assert state.events() == kept.events() and state.log_len == kept.log_len
            assert state.log_tail is not None  # kept from the first time it was asked for
        assert state.events()[-1][1][0] == "end"


def test_a_game_played_out_from_a_generator_never_makes_its_log():
    """A playout (the benchmark's loop, bulk play) asks for no log: none is made."""
    game = load("wildwasser", players=4)
    rng = random.Random(3)
    for seed in range(10):
        state = game.new_game(seed=seed)
        while not state.is_terminal():
            seat = state.current_seat
            state.apply_legal(rng.choice(state.legal_actions(seat)), seat)
        assert state.log_tail is None and state.log_head is None and state.log_count == 0
        assert state.events()[0][1][0] == "round" and state.log_len == len(state.events())


@pytest.mark.parametrize("players", [3, 5])
def test_clones_pickles_and_sampled_worlds_of_a_state_without_a_log_hold_its_log(players):
    """A clone, a pickle and a sampled world (its chance blinded, its picks redrawn, so
    it could not replay the game) carry the log the state would make, and go on keeping
    theirs; the state itself keeps it too from then on."""
    game = load("wildwasser", players=players)
    worlds = 0
    for seed in range(6):
        rng = random.Random(100 + seed)
        for state in _steps(game, seed, rng, False):
            if rng.random() > 0.08 or state.is_terminal():
                continue
            copy = state.clone()  # (the state stops keeping no log as it is copied)
            fresh = pickle.loads(pickle.dumps(copy))
            world = game.new_game(seed=seed)
            for seat, action, _ in state.history:
                world.apply_legal(action, seat)
            assert world.log_tail is None
            world = world.sample_world(state.current_seat, random.Random(seed))
            want = _strict(state).events()
            for other in (state, copy, fresh, world):
                assert other.events() == want
            if state.phase == CHOOSE:  # each goes on alone: its own next events
                seat = state.current_seat
                action = state.legal_actions(seat)[0]
                for other in (copy, fresh):
                    other.chance.rng = random.Random(seed)
                    other.apply_legal(action, seat)
                assert copy.events() == fresh.events()
                assert copy.events()[:len(want)] == want and len(copy.events()) > len(want)
                worlds += 1
    assert worlds > 10


@pytest.mark.parametrize("players", [2, 4, 6])
def test_WW_3_2_each_cards_other_choice_does_what_the_card_says(players):
    """`OTHER_CHOICE`, which `_resolve` and the trusted path both look up, by card: the
    cheetah's action moves the start marker to the seat chosen, the zebra's pushes the
    river, the rhino's rolls the die, the meerkat's takes the revealed cards back, the
    turtle card moves the animal chosen (by 1, unless it passes or is blocked)."""
    from wasserspiele.games.wildwasser.actions import MOVE_CARD
    from wasserspiele.games.wildwasser.board import CHEETAH, MEERKAT, RHINO, TURTLE, ZEBRA

    game = load("wildwasser", players=players)
    seen = set()
    for seed in range(4):
        rng = random.Random(300 + seed)
        for state in _steps(game, seed, rng, False):
            if state.phase != CHOOSE:
                continue
            seat, c = state.current_seat, state.card
            for action in state.legal_actions(seat):
                if action is MOVE_CARD:
                    continue
                for trusted in (True, False):
                    after = state.clone()
                    after.chance.rng = random.Random(seed)
                    n = after.log_len
                    (after.apply_legal if trusted else after.apply)(action, seat)
                    new = [e for _, e in after.events()][n + 1:]  # after its ("decide", …) event
                    if c == CHEETAH:
                        assert after.marker == action.arg and new[0] == ("marker", seat, action.arg, state.marker)
                    elif c == ZEBRA:
                        assert after.slots[1:] == state.slots[:-1] and "push" in [e[0] for e in new[:2]]
                    elif c == RHINO:
                        assert new[0][0] == "roll" and after.chance.used("dice") > state.chance.used("dice")
                    elif c == MEERKAT:
                        assert after.hand[seat] == state.hand[seat] | state.revealed[seat]
                        assert new[0] == ("cards", seat)
                    else:
                        assert c == TURTLE
                        sp = action.arg
                        a = seat * 5 + sp
                        assert new[0][:3] in (("move", seat, sp), ("finish", seat, sp), ("blocked", seat, sp))
                        if new[0][0] == "move":  # from where it stood, forward (an icon may move it on)
                            assert new[0][3] == state.pos[a] < new[0][4]
                    seen.add(c)
    assert seen == {CHEETAH, ZEBRA, RHINO, MEERKAT, TURTLE}
