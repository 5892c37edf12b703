"""The eleventh lean pass's shortcuts agree with the ways they replace, at every step of
seeded games: a round's event list joins the log's shared chain itself (no copy), so no
later play (the state's own, a clone's) may change an earlier round's events; every round
begins as the first (WW-3.1); the trusted path's decisions (WW-3.2) leave what the
checked one's `_resolve` leaves; the reveal counts the round's turns by the number of
seats, which the resolution order holds once each."""

import random

import pytest

from wasserspiele import load
from wasserspiele.core.protocol import State
from wasserspiele.games.wildwasser.state import CHOOSE, PICK_PHASE


def _steps(game, seed, rng):
    """Every state of a seeded game through the trusted path, random seats and actions."""
    state = game.new_game(seed=seed)
    yield state
    while not state.is_terminal():
        seat = rng.choice(state.to_move())
        state.apply_legal(rng.choice(state.legal_actions(seat)), seat)
        yield state


@pytest.mark.parametrize("players", [2, 4, 6])
def test_earlier_rounds_events_stay_as_they_were_on_the_state_and_its_clones(players):
    """The chain's round lists are shared by a state and its clones: each goes on playing
    (into its own list) and every event seen once stays where it was, numbered alike."""
    game = load("wildwasser", players=players)
    for seed in range(4):
        rng = random.Random(seed)
        seen = []  # (state, its events then)
        for state in _steps(game, seed, rng):
            if rng.random() < 0.15:  # a clone that goes its own way, with a generator of its own
                clone = state.clone()
                clone.chance.rng = random.Random(rng.random())
                before = clone.events()
                crng = random.Random(seed + 1000)
                for _ in range(rng.randrange(5, 60)):
                    if clone.is_terminal():
                        break
                    seat = crng.choice(clone.to_move())
                    clone.apply_legal(crng.choice(clone.legal_actions(seat)), seat)
                after = clone.events()
                assert after[:len(before)] == before
                seen.append((clone, after))
            seen.append((None, state.events()))
        final = state.events()
        for clone, events in seen:
            if clone is None:  # the game's own earlier logs are prefixes of its last one
                assert final[:len(events)] == events
            else:  # a clone's log is unchanged by everything played after it was read
                assert clone.events() == events
        assert state.log_len == len(final) == final[-1][0] + 1


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_WW_3_1_every_round_begins_as_the_first_one(players):
    """At each round's start: every seat to pick, seat 0 asked first, the order from the
    start marker, no card being resolved, the round's first pick's history index, and the
    round's event first in its log; the order holds every seat once."""
    game = load("wildwasser", players=players)
    rounds = 0
    for seed in range(6):
        last_round = 0
        for state in _steps(game, seed, random.Random(50 + seed)):
            assert sorted(state.order) == list(range(players))
            if state.round == last_round or state.is_terminal():
                continue
            last_round = state.round
            rounds += 1
            assert state.phase == PICK_PHASE
            assert state.waiting == tuple(range(players)) and state.current_seat == 0
            assert state.order == tuple((state.marker + i) % players for i in range(players))
            assert (state.turn, state.card, state.choices) == (-1, -1, ())
            assert state.round_start == len(state.history)
            assert state.events(1)[0][1] == ("round", -1, state.round, state.marker)
            assert len(state.log_tail) == 1 and state.log_count == state.log_len - 1
    assert rounds > 20 * 6


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("river_flow", ["forward", "back"])
def test_WW_3_2_trusted_decisions_agree_with_resolve(players, river_flow):
    """Every decision on a revealed card, through `apply_legal`, leaves what `_apply`
    (the rulebook's `_resolve`) leaves: the cheetah's marker, the zebra's push, the rhino's
    roll, the meerkat's cards, the turtle card's animal, a card's own move."""
    game = load("wildwasser", players=players, river_flow=river_flow)
    taken = set()
    for seed in range(6):
        rng = random.Random(200 + seed)
        for state in _steps(game, seed, rng):
            if state.phase != CHOOSE:
                continue
            seat = state.current_seat
            for action in state.legal_actions(seat):
                lean, book = state.clone(), state.clone()
                draws = rng.random()  # the same dice for both (clones share a generator)
                lean.chance.rng, book.chance.rng = random.Random(draws), random.Random(draws)
                lean.apply_legal(action, seat)
                State.apply_legal(book, action, seat)  # calls book._apply
                assert lean.history == book.history
                assert lean.state_json() == book.state_json()
                assert lean.events() == book.events()
                assert (lean.current_seat, lean.waiting, lean.choices) == \
                    (book.current_seat, book.waiting, book.choices)
                taken.add((state.card, action.kind))
    assert len(taken) >= 8  # each card's own move and its action, the turtle's moves
