"""The ninth lean pass's shortcuts agree with the ways they replace, at every step of
seeded games: the log kept per round, the push's drift (WW-4.4), the icon look-up (WW-4.3) and the revealed card's
choices (WW-3.2/3.3) from tables, the card bits added and taken (WW-3.4)."""

import copy
import pickle
import random

import pytest

from wasserspiele import load
from wasserspiele.games.wildwasser.state import N_SPECIES, TEAM_CARD


def _play(game, seed, rng, state=None):
    state = state or game.new_game(seed=seed)
    steps = [state.clone()]
    while not state.is_terminal():
        seat = rng.choice(state.to_move())
        state.apply_legal(rng.choice(state.legal_actions(seat)), seat)
        steps.append(state.clone())
    return state, steps


def _reference_push(state, game):
    """WW-4.4 animal by animal: every animal on a crossing moves to the same column of the
    next slot's crossing; past the last slot back to its team card."""
    b = state.board
    moved = {}
    for f in b.crossing_field_list:
        a = state.occ[f]
        if a >= 0:
            moved[a] = game.drift[f]
    pos = state.pos.copy()
    for a, to in moved.items():
        pos[a] = to
    occ = [-1] * len(state.occ)
    for a, p in enumerate(pos):
        if 0 < p < state.finish:
            occ[p] = a
    washed = tuple(a for f in b.crossing_field_list for a in (state.occ[f],) if a >= 0 and moved[a] == TEAM_CARD)
    return pos, occ, washed


@pytest.mark.parametrize("river_flow", ["forward", "back"])
def test_WW_4_4_push_moves_every_animal_as_the_drift_says(river_flow):
    game = load("wildwasser", players=6, river_flow=river_flow)
    pushes = washed_any = 0
    for seed in range(6):
        _, steps = _play(game, seed, random.Random(seed))
        for state in steps[::3]:
            if state.is_terminal():
                continue
            pos, occ, washed = _reference_push(state, game)
            state._push(0)
            event = state.events(1)[0][1]
            assert event[0] == "push" and event[4] == washed
            assert state.pos == pos and state.occ == occ
            pushes += 1
            washed_any += bool(washed)
    assert pushes > 100 and washed_any > 5


@pytest.mark.parametrize("river_flow", ["forward", "back"])
def test_WW_4_3_icon_table_agrees_with_icon_at(river_flow):
    """The one look-up `_run` makes is `icon_at` on every field, empty slots included."""
    game = load("wildwasser", players=2, river_flow=river_flow)
    _, steps = _play(game, 1, random.Random(1))
    rng = random.Random(7)
    for state in steps[::5]:
        if rng.random() < 0.3:
            state.slots[rng.randrange(len(state.slots))] = -1
        for f in range(1, state.finish):
            assert game.icon_by_tile[f][state.slots[game.icon_slot[f]]] == state.icon_at(f)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_WW_3_4_a_card_lies_in_one_place_and_choices_come_from_the_table(players):
    """Hand, face-down pick and face-up cards never share a species (so the engine adds
    and takes card bits), and a revealed card's choices are `_card_choices`."""
    game = load("wildwasser", players=players)
    for seed in range(5):
        _, steps = _play(game, seed, random.Random(seed))
        for state in steps:
            for s in range(players):
                pick = 1 << state.pick[s] if state.pick[s] >= 0 else 0
                assert state.hand[s] & state.revealed[s] == 0
                assert (state.hand[s] | state.revealed[s]) & pick == 0
                assert state.hand[s] | state.revealed[s] | pick == (1 << N_SPECIES) - 1
            if state.card >= 0 and not state.is_terminal():
                seat = state.order[state.turn]
                assert game.card_choices[state.marker][state.card][state.fin[seat]] == \
                    state._card_choices(seat, state.card)


def test_the_log_kept_per_round_reads_as_one_log():
    """Events, their numbers and the log's length on clones that go their own ways, after
    pickling and copying, and through the chain form (`log`) and back."""
    game = load("wildwasser", players=4)
    rng = random.Random(11)
    state = game.new_game(seed=11)
    states = [state]
    seen = {}
    for step in range(700):
        s = rng.choice(states)
        if s.is_terminal():
            continue
        if step % 9 == 0:
            states.append(s.clone())
        seat = s.current_seat
        s.apply_legal(rng.choice(s.legal_actions(seat)), seat)
        for i, e in s.events(2):
            assert seen.setdefault((id(s), i), e) == e
    for s in states:
        events = s.events()
        assert [i for i, _ in events] == list(range(s.log_len))
        # each round's events once: its "round" event, then every seat's pick
        assert [e[2] for _, e in events if e[0] == "round"] == list(range(1, s.round + 1))
        assert sum(e[0] == "pick" for _, e in events) <= 4 * s.round
        assert s.events(5) == events[-5:] and s.events(0) == []
        for other in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s)):
            assert other.events() == events and other.log_len == s.log_len
            assert other.state_json() == s.state_json()
        chain = s.log
        assert chain[0] == events[-1][1]
        t = s.clone()
        t.log = chain
        assert t.events() == events and t.log_len == s.log_len
    # a log that is the last events of a longer one keeps their numbers
    t = states[0].clone()
    last = t.events(3)
    node = None
    for _, e in last:
        node = (e, node)
    t.log, t.log_len = node, last[-1][0] + 1
    assert t.events() == last
