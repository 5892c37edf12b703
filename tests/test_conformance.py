"""One conformance suite over every registered game (the Pgx/OpenSpiel validator idea).

Playouts end; legal actions exist until the end; illegal actions raise with a
reason; components are conserved; clones are independent; views never leak
(a world re-dealt from what seat p cannot see gives p the same view, and the
same scores) and neither do sampled worlds (they depend only on what p sees);
records replay exactly; the same seed gives the same game.
"""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest
from hypothesis import given, settings, strategies as st

from wasserspiele import load
from wasserspiele.core.errors import ChanceExhausted, GameOver, IllegalAction, NotYourTurn
from wasserspiele.core.records import replay, summary
from wasserspiele.core.registry import game_class, game_names

MAX_ACTIONS = 20_000


def _player_counts(name: str) -> list[int]:
    cls = game_class(name)
    if cls.fixed_players:
        return [cls.fixed_players]
    opt = next(o for o in cls.option_list if o.name == "players")
    return sorted({int(opt.minimum), opt.default, int(opt.maximum)})


CONFIGS = [(name, p) for name in game_names() for p in _player_counts(name)]
IDS = [f"{n}-{p}p" for n, p in CONFIGS]


def _game(name: str, players: int):
    cls = game_class(name)
    return load(name) if cls.fixed_players else load(name, players=players)


def _random_step(state, rng: random.Random):
    # Simultaneous choices may arrive in any order; records keep the order they came in.
    seat = rng.choice(state.to_move())
    action = rng.choice(list(state.legal_actions(seat)))
    state.apply(action, seat)
    return seat, action


def _playout(game, seed: int, policy_seed: int, every=None):
    state = game.new_game(seed=seed)
    rng = random.Random(policy_seed)
    while not state.is_terminal():
        assert len(state.history) < MAX_ACTIONS, "playout did not end"
        if every:
            every(state, rng)
        _random_step(state, rng)
    return state


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_playouts_end_with_legal_actions_until_the_end(name, players):
    game = _game(name, players)

    def check(state, rng):
        pending = state.to_move()
        assert pending, "no seat to move in a running game"
        assert list(pending) == sorted(set(pending))
        for seat in pending:
            assert state.legal_actions(seat), f"seat {seat} has no legal action"

    for seed in range(3):
        state = _playout(game, seed, seed, check)
        assert state.to_move() == ()
        assert state.legal_actions() in ([], ())
        assert len(state.scores()) == game.players
        assert state.winners(), "a finished game names its winners"
        assert all(0 <= w < game.players for w in state.winners())


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_components_are_conserved_at_every_step(name, players):
    game = _game(name, players)
    first = game.new_game(seed=7).components()
    assert sum(first.values()) > 0

    def check(state, rng):
        assert state.components() == first

    _playout(game, 7, 7, check)


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_legal_actions_agree_with_why_illegal_and_notation(name, players):
    game = _game(name, players)

    def check(state, rng):
        for seat in state.to_move():
            for action in state.legal_actions(seat):
                assert state.why_illegal(action, seat) is None, f"{action} listed but refused"
                text = str(action)
                assert str(game.parse_action(text)) == text, "notation does not round-trip"
                assert str(game.parse_action(" " + text.lower() + " ")) == text, "input not case/space tolerant"

    _playout(game, 3, 3, check)


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_illegal_actions_raise_with_a_reason_and_change_nothing(name, players):
    game = _game(name, players)
    # Actions legal somewhere in other games are a rich source of illegal ones here.
    pool = set()
    for seed in range(3):
        s = game.new_game(seed=100 + seed)
        rng = random.Random(seed)
        while not s.is_terminal() and len(pool) < 400:
            for seat in s.to_move():
                pool.update(map(str, s.legal_actions(seat)))
            _random_step(s, rng)
    refused = 0

    def check(state, rng):
        nonlocal refused
        seat = state.to_move()[0]
        legal = set(map(str, state.legal_actions(seat)))
        for text in rng.sample(sorted(pool - legal), min(5, len(pool - legal))):
            before = json.dumps(state.state_json(), sort_keys=True)
            reason = state.why_illegal(text, seat)
            assert isinstance(reason, str) and reason.strip()
            with pytest.raises(IllegalAction) as err:
                state.apply(text, seat)
            assert err.value.reason
            # whole through a pickle, as a process pool or a vector env's worker sends it
            sent = pickle.loads(pickle.dumps(err.value))
            assert type(sent) is type(err.value) and str(sent) == str(err.value)
            assert (sent.action, sent.seat, sent.reason.render("de")) == (
                err.value.action, err.value.seat, err.value.reason.render("de"))
            assert json.dumps(state.state_json(), sort_keys=True) == before
            refused += 1
        others = [s for s in range(game.players) if s not in state.to_move()]
        if others and legal:
            with pytest.raises(NotYourTurn):
                state.apply(sorted(legal)[0], others[0])

    final = _playout(game, 11, 11, check)
    assert refused > 0
    with pytest.raises(GameOver):
        final.apply(sorted(pool)[0])


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_clones_are_independent(name, players):
    game = _game(name, players)

    def check(state, rng):
        if rng.random() < 0.3:
            before = json.dumps(state.state_json(), sort_keys=True)
            twin = state.clone()
            probe = random.Random(rng.random())
            for _ in range(5):
                if twin.is_terminal():
                    break
                _random_step(twin, probe)
            assert json.dumps(state.state_json(), sort_keys=True) == before
            kid = state.child(state.legal_actions(state.current_seat)[0], state.current_seat)
            assert json.dumps(state.state_json(), sort_keys=True) == before
            assert len(kid.history) == len(state.history) + 1

    _playout(game, 5, 5, check)


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_positions_survive_pickle_and_deepcopy_and_play_on_alike(name, players):
    """Researchers copy environments mid-episode (copy.deepcopy, pickle to a worker,
    OpenSpiel's serialize_state): a copy holds the same position and plays on as the
    original.  Wildwasser's log, a chain of pairs, ended both in RecursionError after
    some hundreds of events (a six-player game's end)."""
    game = _game(name, players)

    def same_future(a, b, seed: float):
        assert json.dumps(a.state_json(), sort_keys=True) == json.dumps(b.state_json(), sort_keys=True)
        assert a.history == b.history and a.view(None) == b.view(None)
        ra, rb = random.Random(seed), random.Random(seed)
        for _ in range(5):
            if a.is_terminal():
                break
            assert _random_step(a, ra) == _random_step(b, rb)
        assert json.dumps(a.state_json(), sort_keys=True) == json.dumps(b.state_json(), sort_keys=True)

    def check(state, rng):
        if rng.random() < 0.05:
            seed = rng.random()
            same_future(state.clone(), pickle.loads(pickle.dumps(state)), seed)
            same_future(state.clone(), copy.deepcopy(state), seed)

    final = _playout(game, 7, 7, check)
    for twin in (pickle.loads(pickle.dumps(final)), copy.deepcopy(final)):
        same_future(final, twin, 0.0)
        assert twin.scores() == final.scores() and twin.winners() == final.winners()


@pytest.mark.parametrize("name", ["wasserloch", "seven_waters", "watten", "wildwasser"])
def test_a_position_keeps_its_data_in_slots_without_an_instance_dict(name):
    """The four engines' states (and their clones and sampled worlds) have no instance dict:
    search clones them thousands of times a second, and every protocol call a driver makes
    (is_terminal, legal_actions, apply) is an attribute lookup that would look there first."""
    state = load(name).new_game(seed=3)
    for s in (state, state.clone(), state.sample_world(state.current_seat, random.Random(1))):
        assert not hasattr(s, "__dict__"), type(s).__mro__


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_views_never_leak_and_sampled_worlds_keep_the_view(name, players):
    game = _game(name, players)
    differed = 0

    def check(state, rng):
        nonlocal differed
        for seat in [*range(game.players)]:
            v = state.view(seat)
            json.dumps(v)  # JSON-ready
            world = state.sample_world(seat, random.Random(rng.random()))
            assert world.view(seat) == v, f"sampled world changes seat {seat}'s view"
            assert world.view(None) == state.view(None), "sampled world changes the public view"
            # the running scores shown beside the views (web) must not tell what they hide
            for who in (seat, None):
                assert world.scores_seen_by(who) == state.scores_seen_by(who), \
                    f"scores seen by {who} tell a hidden card"
            assert world.components() == state.components()
            if world.state_json() != state.state_json():
                differed += 1
            # the sampled world is playable on its own
            if not world.is_terminal():
                probe = random.Random(1)
                for _ in range(3):
                    if world.is_terminal():
                        break
                    _random_step(world, probe)
        json.dumps(state.view(None))

    final = _playout(game, 9, 9, check)
    # the final position too (the playout checks only positions with a move to make): a
    # terminal view may lay open what the rules turn up at the end (Seven Waters: the hands
    # and themes, tests/games/seven_waters/test_end_view.py), but only what the seat's
    # sampled worlds keep, so it still tells nothing they re-deal
    check(final, random.Random(9))
    assert differed > 0, "sample_world never re-dealt anything"


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_a_sampled_world_depends_only_on_what_the_seat_sees(name, players):
    """Two positions a seat cannot tell apart (the true one, and a world sampled for that
    seat) give the same sampled world for the same generator: otherwise a seeded
    search's moves depend on hidden cards (Wildwasser shuffled the true stack order)."""
    game = _game(name, players)

    def check(state, rng):
        for seat in range(game.players):
            world = state.sample_world(seat, random.Random(rng.random()))
            probe = rng.random()
            a = state.sample_world(seat, random.Random(probe))
            b = world.sample_world(seat, random.Random(probe))
            assert a.state_json() == b.state_json(), f"seat {seat}'s sampled world tells a hidden card"

    final = _playout(game, 3, 3, check)
    check(final, random.Random(3))  # the end's views lay more open: the worlds still follow them alone


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_records_replay_exactly(name, players):
    game = _game(name, players)

    def check(state, rng):
        if rng.random() < 0.1:
            doc = json.loads(json.dumps(state.record()))
            again = replay(doc)
            assert again.state_json() == state.state_json()
            assert summary(again) == summary(state)

    final = _playout(game, 13, 13, check)
    doc = json.loads(json.dumps(final.record()))
    assert doc["format"] == "wasserspiele-record/1" and doc["game"] == name
    again = replay(doc)
    assert again.is_terminal()
    assert summary(again) == summary(final)


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_same_seed_same_game(name, players):
    game = _game(name, players)
    a = _playout(game, 21, 4)
    b = _playout(game, 21, 4)
    assert a.record() == b.record()
    seeded = replay({"game": name, "players": game.players, "seed": 21, "actions": a.record_actions()})
    assert seeded.state_json() == a.state_json()


@pytest.mark.parametrize("name", game_names())
@given(seed=st.integers(0, 2**32), policy=st.integers(0, 2**32), cut=st.floats(0, 1))
def test_property_any_prefix_replays_and_samples_consistently(name, seed, policy, cut):
    game = load(name)
    full = _playout(game, seed, policy)
    k = int(cut * len(full.history))
    doc = full.record()
    doc["actions"] = doc["actions"][:k]
    state = replay(doc)
    assert len(state.history) == k
    for seat in range(game.players):
        assert state.sample_world(seat, random.Random(seed)).view(seat) == state.view(seat)


def _snapshot(state) -> tuple:
    """Everything an observer could compare: the position, every seat's view, the record."""
    seats = [None, *range(state.game.players)]
    return (json.dumps(state.state_json(), sort_keys=True), [state.view(s) for s in seats],
            state.record(), state.to_move())


@pytest.mark.parametrize("name", game_names())
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), policy=st.integers(0, 2**32), cut=st.floats(0, 1), probe=st.integers(0, 2**32))
def test_property_a_refused_or_failing_apply_changes_nothing(name, seed, policy, cut, probe):
    """Apply is a transaction: an illegal action, a seat out of turn, or a strict replay
    whose setup runs out in the middle of an action (ChanceExhausted) leave the state,
    every seat's view and the record exactly as they were."""
    game = load(name)
    full = _playout(game, seed, policy)
    k = int(cut * len(full.history))
    doc = full.record()
    doc["actions"] = doc["actions"][:k]
    state = replay(doc)
    if state.is_terminal():
        return
    # the same position, strict, with only the chance outcomes drawn so far
    strict = replay(dict(doc, setup=state.chance.used_setup()))
    rng = random.Random(probe)
    for target in (state, strict):
        before = _snapshot(target)
        for seat in range(game.players):
            for action in rng.sample(list(full.actions()), min(6, len(full.history))):
                if target.why_illegal(action, seat) is None:
                    continue
                with pytest.raises(IllegalAction):
                    target.apply(action, seat)
                assert _snapshot(target) == before
    # every legal action of the strict state either applies or raises leaving it untouched
    before = _snapshot(strict)
    for seat in strict.to_move():
        for action in strict.legal_actions(seat):
            try:
                strict.child(action, seat)
            except ChanceExhausted:
                trial = strict.clone()
                with pytest.raises(ChanceExhausted):
                    trial.apply(action, seat)
                assert _snapshot(trial) == before
    assert _snapshot(strict) == before


def test_an_exhausted_setup_mid_round_leaves_wasserloch_unchanged():
    """The issue's case: a Wasserloch record whose setup runs out when a play ends the
    round (the next deck is needed) must not leave the round advanced and the hand empty."""
    game = load("wasserloch", players=2, rounds=2)
    state = game.new_game(seed=3)
    rng = random.Random(3)
    while state.chance.used("decks") < 2:
        last = state.clone()
        _random_step(state, rng)
    # `last` is the position before the action that shuffled deck 2
    action_seat, action, _ = state.history[-1]
    strict = replay(dict(last.record(), setup=last.chance.used_setup()))
    before = _snapshot(strict)
    with pytest.raises(ChanceExhausted):
        strict.apply(action, action_seat)
    assert _snapshot(strict) == before
    assert strict.legal_actions(strict.current_seat)


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_views_built_together_equal_each_seats_own_view(name, players):
    """State.views (what a server pushes after a move) gives every seat exactly its own view:
    sharing the public part between seats neither leaks nor loses anything."""
    game = _game(name, players)
    seats = [None, *range(game.players)]

    def check(state, rng):
        together = state.views(seats)
        assert list(together) == seats
        for seat in seats:
            alone = state.view(seat)
            assert together[seat] == alone, f"seat {seat}'s view differs when built with the others'"
            assert json.dumps(together[seat]) == json.dumps(alone)  # the same keys in the same order
        some = rng.sample(seats, rng.randint(1, len(seats)))
        assert state.views(some) == {s: together[s] for s in some}

    _playout(game, 13, 13, check)
