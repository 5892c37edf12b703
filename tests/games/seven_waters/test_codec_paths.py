"""The codec's two ways to read a position for the environments give the same answers:
the compiled kernel's (the position mirrored in kernel.from_state's vector, kept in
step by kernel.apply) and the engine's objects.  Hundreds of games under every option
set, at every decision: equal legal maps (the same indices in the engine's order, and
equal actions with equal notation), equal observation vectors for both seats, and the
mirrored vector equal to a fresh from_state.  The pure-Python fallback of the kernel
path gives the same maps and vectors as the compiled one."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import numpy as np
import pytest

from wasserspiele import load
from wasserspiele.adapters.codecs import codec_for
from wasserspiele.fast import COMPILED
from wasserspiele.games.seven_waters import kernel as K
from wasserspiele.games.seven_waters.codec import KernelLegal
from wasserspiele.games.seven_waters.heuristic import rollout_policy


def _codecs(game):
    kernel, engine = codec_for(game), codec_for(game)
    kernel.use_kernel, engine.use_kernel = True, False
    return kernel, engine


def _jokers(action) -> bool:
    cards = action.cards if action.kind == "discard" else [p.card for p in getattr(action, "pieces", ())]
    return any(c.rank == 0 for c in cards)


def check_games(options: dict, games: int, seed: int) -> set[tuple[str, bool]]:
    """Play `games` games (the heuristic's rollout policy or a random legal action), and
    at every decision compare the two paths; the (kind, with a joker) of every legal
    action met."""
    game = load("seven_waters", **options)
    kc, ec = _codecs(game)
    rng = random.Random(seed)
    met: set[tuple[str, bool]] = set()
    for n in range(games):
        state = game.new_game(seed=seed * 10_000 + n)
        t = 0
        while True:
            for seat in (0, 1):
                assert np.array_equal(kc.observe_state(state, seat), ec.observe_state(state, seat)), (n, t, seat)
            assert np.array_equal(kc._kernel_position(state).g, K.from_state(state)), (n, t)
            if state.is_terminal():
                assert len(kc.legal_map_state(state, 0)) == len(kc.legal_map_state(state, 1)) == 0
                break
            seat = state.current_seat
            mine, theirs = kc.legal_map_state(state, seat), ec.legal_map_state(state, seat)
            assert isinstance(mine, KernelLegal)
            assert list(mine) == list(theirs), (n, t)  # the same indices, in the engine's order
            assert dict(mine.items()) == theirs, (n, t)
            assert [str(a) for a in mine.values()] == [str(a) for a in theirs.values()], (n, t)
            assert len(kc.legal_map_state(state, 1 - seat)) == 0
            if t % 9 == 0:  # the engine path against the view (the reference encoding)
                view = state.view(seat)
                assert theirs == kc.legal_map(state.legal_actions(seat), view)
                assert np.array_equal(kc.observe_state(state, seat), kc.observe(view))
            met.update((a.kind, _jokers(a)) for a in theirs.values())
            if rng.random() < 0.6:
                chosen = rollout_policy(state, seat, rng)
                index = next(i for i, a in theirs.items() if a == chosen)
            else:
                index = rng.choice(list(mine))
            if rng.random() < 0.1:  # an equal action that is not the map's: the mirror reads the state afresh
                state.apply(game.parse_action(str(mine[index])), seat)
            else:  # the map's own action: the mirror follows by kernel.apply
                state.apply_legal(mine[index], seat)
            t += 1
    return met


@pytest.mark.parametrize("options, games, seed", [
    ({}, 150, 1),
    ({"first_player": 1}, 50, 2),
    ({"slide_limit": 1}, 50, 3),
    ({"slide_limit": None, "final_turns": "opponent_only"}, 50, 4),
    ({"slide_limit": 0, "final_turns": "none"}, 50, 5),
])
def test_sw_4_the_kernel_path_gives_the_engines_legal_maps_and_observations(options, games, seed):
    met = check_games(options, games, seed)
    kinds = {"take", "theme", "discard", "river", "pool"}
    if options.get("final_turns") != "none":  # SW-4.5: a pass needs an empty hand and pyramid
        kinds.add("pass")
    if options.get("slide_limit") != 0:
        kinds.add("slide")
    assert kinds <= {kind for kind, _joker in met}, met
    jokers = {("discard", True), ("river", True), ("pool", True)}
    if options.get("slide_limit") != 0:
        jokers.add(("slide", True))
    assert jokers <= met, met


def test_the_kernel_map_refuses_an_index_that_is_not_legal():
    game = load("seven_waters")
    kc, _ec = _codecs(game)
    state = game.new_game(seed=3)
    legal = kc.legal_map_state(state, state.current_seat)
    missing = next(i for i in range(kc.num_actions) if i not in legal)
    assert legal.get(missing) is None
    with pytest.raises(KeyError):
        legal[missing]


def test_a_state_changed_behind_the_mirror_is_read_afresh():
    """Clones, and a state rewound and played differently to the same length, never see
    a stale mirrored position."""
    game = load("seven_waters")
    kc, ec = _codecs(game)
    state = game.new_game(seed=11)
    before = state.clone()
    seat = state.current_seat
    legal = kc.legal_map_state(state, seat)
    first, second = list(legal)[:2]
    state.apply_legal(legal[first], seat)
    assert np.array_equal(kc.observe_state(state, seat), ec.observe_state(state, seat))
    other = before.clone()
    other.apply_legal(kc.legal_map_state(other, seat)[second], seat)
    assert np.array_equal(kc.observe_state(other, seat), ec.observe_state(other, seat))
    state._restore(before.clone())  # the same object, one action back, then another action
    state.apply_legal(kc.legal_map_state(state, seat)[second], seat)
    assert np.array_equal(kc._kernel_position(state).g, K.from_state(state))
    assert np.array_equal(kc.observe_state(state, seat), ec.observe_state(state, seat))


_DIGEST = """
import hashlib, random
from wasserspiele import load
from wasserspiele.adapters.codecs import codec_for

def digest(use_kernel, games=12, seed=7):
    '''Per decision: the legal indices and a hash of both seats' observations.'''
    game = load("seven_waters", slide_limit=None)
    codec = codec_for(game)
    codec.use_kernel = use_kernel
    rng = random.Random(seed)
    out = []
    for n in range(games):
        state = game.new_game(seed=n)
        while not state.is_terminal():
            seat = state.current_seat
            legal = codec.legal_map_state(state, seat)
            obs = b"".join(codec.observe_state(state, s).tobytes() for s in (0, 1))
            out.append([list(legal), [str(a) for a in legal.values()], hashlib.sha256(obs).hexdigest()])
            state.apply_legal(legal[rng.choice(list(legal))], seat)
    return out
"""


def test_pure_python_fallback_of_the_kernel_path_gives_the_same_maps_and_vectors():
    child = _DIGEST + "\nimport json\nfrom wasserspiele.fast import COMPILED\nprint(json.dumps([COMPILED, digest(True)]))"
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", child], env=env, capture_output=True, text=True, check=True)
    compiled, fallback = json.loads(out.stdout)
    assert compiled is False
    here: dict = {}
    exec(_DIGEST, here)
    assert here["digest"](True) == fallback == here["digest"](False)
    assert len(fallback) > 500


def test_the_environments_take_the_kernel_path_exactly_when_it_is_compiled():
    assert codec_for(load("seven_waters")).use_kernel is COMPILED
