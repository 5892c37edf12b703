"""The Gymnasium env's infos through pickling, as `AsyncVectorEnv` sends them from its
worker processes: `info["view"]` and `info["legal_actions"]` go as one bytes object
each (`common._wire_view`, `common._wire_list`), built in the worker from the position
the info was issued for and decoded in the receiving process only when first read.
Before, the main process unpickled every table's view and notation at every step
whether the loop read them or not.  What is pickled is the seat's view and notation
only: nothing that would rebuild them elsewhere (the seed, the moves, the state)."""

from __future__ import annotations

import copy
import io
import json
import pickle
import random

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv

import wasserspiele
import wasserspiele.adapters.gymnasium  # noqa: F401  (registers the ids)
from wasserspiele.adapters.common import InfoList, InfoView, Position

from .helpers import FAST, GAMES, eager_infos

IDS = {name: f"wasserspiele/{wasserspiele.core.registry.manifest(name).class_name}-v0" for name in GAMES}
SEAT = 0  # the agent's seat in every env here


def _unread(value) -> bool:
    """The lazy info value has not been built nor decoded yet."""
    if type(value) is InfoView:
        return value._view is None
    assert type(value) is InfoList
    return value._items is None


def _random_index(rng, mask) -> int:
    legal = np.flatnonzero(mask)
    return int(rng.choice(legal)) if legal.size else 0


def _sent(env, seed: int, steps: int) -> list[tuple[bytes, dict]]:
    """Each info of random legal play over several episodes, pickled when it was issued
    (as a worker sends it), with its eager content."""
    rng = np.random.default_rng(seed)
    _obs, info = env.reset(seed=seed)
    out = [(pickle.dumps(info), eager_infos(env))]
    for _ in range(steps):
        _obs, _r, term, trunc, info = env.step(_random_index(rng, info["action_mask"]))
        out.append((pickle.dumps(info), eager_infos(env)))
        if term or trunc:
            _obs, info = env.reset()
            out.append((pickle.dumps(info), eager_infos(env)))
    return out


STEPS = {"seven_waters": 150, "wildwasser": 300}


@pytest.mark.parametrize("name", GAMES)
def test_pickled_infos_are_decoded_when_read_and_equal_the_eager_ones(name):
    env = gymnasium.make(IDS[name], **FAST[name])
    sent = _sent(env, seed=21, steps=STEPS.get(name, 500))
    assert sum(1 for _, expected in sent if expected["legal_actions"]) > 100
    for wire, expected in sent:
        info = pickle.loads(wire)
        view, legal = info["view"], info["legal_actions"]
        # unpickling decodes nothing: a loop that reads only the mask pays nothing more
        assert type(view) is InfoView and type(legal) is InfoList
        assert _unread(view) and _unread(legal)
        # copies and a second pickling (a process that passes them on) stay unread too
        copies = [copy.copy(info), copy.deepcopy(info), pickle.loads(pickle.dumps(info))]
        for other in copies:
            assert _unread(other["view"]) and _unread(other["legal_actions"])
        for other in [info] + copies:
            assert other["legal_actions"] == expected["legal_actions"]
            assert list(other["legal_actions"]) == expected["legal_actions"]
            assert other["view"] == expected["view"] and dict(other["view"]) == expected["view"]
            assert json.loads(json.dumps(dict(other["view"]))) == json.loads(json.dumps(expected["view"]))
        # a copy made after the read holds its own dict
        assert copy.deepcopy(view)._get() is not view._get() and copy.deepcopy(view) == view
        # and one read pickles again to the same values
        again = pickle.loads(pickle.dumps(info))
        assert again["view"] == expected["view"] and again["legal_actions"] == expected["legal_actions"]


def _first_legal(mask) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[0]) if legal.size else 0


@pytest.mark.parametrize("name", GAMES)
def test_async_vector_env_infos_arrive_unread_and_equal_the_sync_ones(name):
    """The infos AsyncVectorEnv's main process receives decode nothing until read, and
    read they are those SyncVectorEnv gives for the same seeds and actions (read there at
    once, the eager values), autoreset included."""
    def make():
        return gymnasium.make(IDS[name], **FAST[name])
    sync, async_ = SyncVectorEnv([make] * 2), AsyncVectorEnv([make] * 2)
    try:
        (_, infos), (_, infos2) = sync.reset(seed=5), async_.reset(seed=5)
        ended = 0
        for _ in range({"seven_waters": 40}.get(name, 80)):
            expected = [eager_infos(env) for env in sync.envs]
            for i in range(2):
                view, legal = infos2["view"][i], infos2["legal_actions"][i]
                assert _unread(view) and _unread(legal)
                assert legal == expected[i]["legal_actions"] == infos["legal_actions"][i]
                assert view == expected[i]["view"] == infos["view"][i]
            np.testing.assert_array_equal(infos2["action_mask"], infos["action_mask"])
            actions = [_first_legal(m) for m in infos["action_mask"]]
            _, _, term, trunc, infos = sync.step(actions)
            _, _, term2, trunc2, infos2 = async_.step(actions)
            np.testing.assert_array_equal(term, term2)
            ended += int(term.sum() + trunc.sum())
        if name != "seven_waters":
            assert ended  # an episode ended and the next one was dealt
    finally:
        sync.close()
        async_.close()


class _OnlyData(pickle.Unpickler):
    """Unpickles what a worker sends of an info: the two decoders of the lazy values and
    numpy's array (the mask); any other class (a state, an action, a game) is refused."""

    allowed = {("wasserspiele.adapters.common", "_wire_view"), ("wasserspiele.adapters.common", "_wire_list"),
               ("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
               ("numpy", "ndarray"), ("numpy", "dtype")}

    def find_class(self, module, name):
        if (module, name) not in self.allowed:
            raise pickle.UnpicklingError(f"{module}.{name} in a pickled info")
        return super().find_class(module, name)


class _Plain(pickle.Unpickler):
    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"{module}.{name} in a pickled view or notation")


@pytest.mark.parametrize("name", GAMES)
def test_a_pickled_info_holds_the_seats_view_and_notation_only(name):
    """What crosses the pipe is JSON-like data and the mask; two positions that differ
    only in what the seat cannot see (`sample_world`) pickle to the same bytes."""
    env = gymnasium.make(IDS[name], **FAST[name])
    rng, worlds = np.random.default_rng(8), random.Random(8)
    _obs, info = env.reset(seed=8)
    codec, checked = env.unwrapped.codec, 0
    for _ in range(60):
        wire = pickle.dumps(info)
        received = _OnlyData(io.BytesIO(wire)).load()
        assert _Plain(io.BytesIO(received["view"]._wire)).load() == env.unwrapped.state.view(SEAT)
        assert _Plain(io.BytesIO(received["legal_actions"]._wire)).load() == eager_infos(env)["legal_actions"]
        state = env.unwrapped.state
        if not state.is_terminal():
            world = state.sample_world(SEAT, worlds)
            assert world.view(SEAT) == state.view(SEAT)
            sent = [pickle.dumps((InfoView.of(Position(s, 0), SEAT),
                                  InfoList.of(codec.legal_map_state(s, SEAT) if info["action_mask"].any() else {},
                                              Position(s, 0), SEAT)))
                    for s in (state, world)]
            assert sent[0] == sent[1]
            checked += 1
        _obs, _r, term, trunc, info = env.step(_random_index(rng, info["action_mask"]))
        if term or trunc:
            _obs, info = env.reset()
    assert checked > 30
