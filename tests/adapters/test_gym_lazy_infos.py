"""The Gymnasium env's default infos are built when first read: `info["view"]`
(`common.InfoView`) and `info["legal_actions"]` (`common.InfoList`) from the position
the info was issued for, however late, equal to what was built at once before; a
vectoriser or a deep copy that nobody reads builds neither (they were most of a step).
docs/encodings.md has the figures."""

from __future__ import annotations

import copy
import json
import pickle

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv

import wasserspiele
import wasserspiele.adapters.gymnasium  # noqa: F401  (registers the ids)
from wasserspiele.adapters.common import InfoList, InfoView

from .helpers import FAST, eager_infos

FOUR = ["wasserloch", "seven_waters", "watten", "wildwasser"]
IDS = {name: f"wasserspiele/{wasserspiele.core.registry.manifest(name).class_name}-v0" for name in FOUR}
SEAT = 0  # the agent's seat in every env here


def _random_index(rng, mask) -> int:
    legal = np.flatnonzero(mask)
    return int(rng.choice(legal)) if legal.size else 0


def _kept_infos(env, seed: int, steps: int) -> list[tuple[dict, dict]]:
    """(info, its eager content) at every reset and step of random legal play over
    several episodes; no info is read before the end."""
    rng = np.random.default_rng(seed)
    _obs, info = env.reset(seed=seed)
    kept = [(info, eager_infos(env))]
    for _ in range(steps):
        _obs, _r, term, trunc, info = env.step(_random_index(rng, info["action_mask"]))
        kept.append((info, eager_infos(env)))
        if term or trunc:
            _obs, info = env.reset()
            kept.append((info, eager_infos(env)))
    return kept


STEPS = {"seven_waters": 150, "wildwasser": 300}


@pytest.mark.parametrize("name", FOUR + ["seven_waters-engine"])
def test_infos_read_after_further_steps_and_resets_equal_the_eager_ones(name, monkeypatch):
    """Every info of several episodes, read only at the end: the view and the notation
    (in the engine's order) of the position each was issued for.  seven_waters-engine:
    the codec's engine path, whose legal map is a dict the notation is read from."""
    game = name.split("-")[0]
    env = gymnasium.make(IDS[game], **FAST[game])
    if name.endswith("-engine"):
        monkeypatch.setattr(env.unwrapped.codec, "use_kernel", False)
    kept = _kept_infos(env, seed=11, steps=STEPS.get(game, 600))
    episodes = sum(1 for info, _ in kept if "returns" in info or "truncated_at" in info)
    assert episodes >= (1 if game == "seven_waters" else 3)
    assert sum(1 for _, expected in kept if expected["legal_actions"]) > 100
    for info, expected in reversed(kept):  # the latest first: the early ones are replayed after
        assert type(info["view"]) is InfoView and type(info["legal_actions"]) is InfoList
        assert info["legal_actions"] == expected["legal_actions"]
        assert list(info["legal_actions"]) == expected["legal_actions"]
        assert info["view"] == expected["view"] and expected["view"] == info["view"]
        assert dict(info["view"]) == expected["view"]
        assert json.loads(json.dumps(dict(info["view"]))) == json.loads(json.dumps(expected["view"]))


def _count_agent_builds(monkeypatch, env) -> dict[str, int]:
    """Counts the agent seat's views and legal actions that anything asks the engine for:
    the eager infos asked for both at every reset and step."""
    counts = {"view": 0, "legal_actions": 0}
    cls = type(env.unwrapped.state)
    for method in counts:
        original = getattr(cls, method)

        def counting(self, seat, *args, _original=original, _method=method, **kwargs):
            if seat == SEAT:
                counts[_method] += 1
            return _original(self, seat, *args, **kwargs)
        monkeypatch.setattr(cls, method, counting)
    return counts


def _first_legal(mask) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[0]) if legal.size else 0


@pytest.mark.parametrize("name", FOUR)
def test_sync_vector_env_builds_no_view_nor_notation_nobody_reads(name, monkeypatch):
    """The default infos cost what `seat_infos=False` costs while nobody reads them
    (before: a view and the legal actions of every table at every step, which
    SyncVectorEnv's `_add_info` read key by key); read afterwards, they are there."""
    probe = gymnasium.make(IDS[name], **FAST[name])
    probe.reset(seed=0)
    counts = _count_agent_builds(monkeypatch, probe)
    seen = {}
    for seat_infos in (False, True):
        for key in counts:
            counts[key] = 0
        venv = SyncVectorEnv([lambda: gymnasium.make(IDS[name], seat_infos=seat_infos, **FAST[name])] * 2)
        _, infos = venv.reset(seed=4)
        for _ in range(40):
            _, _, _, _, infos = venv.step([_first_legal(m) for m in infos["action_mask"]])
        seen[seat_infos] = dict(counts)
        if seat_infos:
            for i, env in enumerate(venv.envs):  # kept whole, one per table, and right when read
                assert infos["_view"][i] and type(infos["view"][i]) is InfoView
                assert type(infos["legal_actions"][i]) is InfoList
                assert infos["view"][i] == eager_infos(env)["view"]
                assert infos["legal_actions"][i] == eager_infos(env)["legal_actions"]
        venv.close()
    assert seen[True] == seen[False]


def _first_legal_play(env, seed: int, steps: int):
    """The env after its reset and each step of first-legal play (a new episode after
    one ends), with the info it gave."""
    _obs, info = env.reset(seed=seed)
    yield info
    for _ in range(steps):
        _obs, _r, term, trunc, info = env.step(_first_legal(info["action_mask"]))
        yield info
        if term or trunc:
            _obs, info = env.reset()
            yield info


def test_deep_copies_as_sb3s_dummy_vec_env_makes_them_build_nothing_and_read_right(monkeypatch):
    """SB3's DummyVecEnv returns `deepcopy(self.buf_infos)` at every step: a copy of an
    info not read yet is another such (before: built at every step), read right however
    late; a copy of one read copies its value."""
    name = "seven_waters"
    seen = {}
    for seat_infos in (False, True):
        env = gymnasium.make(IDS[name], seat_infos=seat_infos, **FAST[name])
        env.reset(seed=0)
        counts = _count_agent_builds(monkeypatch, env)
        copies = [copy.deepcopy([info])[0] for info in _first_legal_play(env, 6, 60)]
        seen[seat_infos] = dict(counts)
        monkeypatch.undo()
    assert seen[True] == seen[False]
    assert sum(1 for info in copies if "returns" in info) >= 1  # read across a reset too
    # the same positions again (the same seed and actions), built at once
    env = gymnasium.make(IDS[name], **FAST[name])
    for copied, _info in zip(copies, _first_legal_play(env, 6, 60), strict=True):
        expected = eager_infos(env)
        assert copied["view"] == expected["view"] and copied["legal_actions"] == expected["legal_actions"]
    read = copy.deepcopy(_info)
    assert read["view"] == _info["view"] and read["view"]._get() is not _info["view"]._get()
    assert read["legal_actions"] == _info["legal_actions"]


@pytest.mark.parametrize("name", FOUR)
def test_pickling_and_copying_give_the_position_the_info_was_issued_for(name):
    """AsyncVectorEnv pickles every info: pickling builds the view and the notation, of
    the issued position even after the env moved on."""
    env = gymnasium.make(IDS[name], **FAST[name])
    kept = _kept_infos(env, seed=3, steps=STEPS.get(name, 200) // 3)
    for info, expected in kept[::-1]:
        # the copies before pickling, which builds the original
        for out in (copy.copy(info), copy.deepcopy(info), pickle.loads(pickle.dumps(info))):
            assert type(out["view"]) is InfoView and type(out["legal_actions"]) is InfoList
            assert out["view"] == expected["view"] and out["legal_actions"] == expected["legal_actions"]
        np.testing.assert_array_equal(pickle.loads(pickle.dumps(info))["action_mask"], info["action_mask"])


def test_async_vector_env_gives_the_infos_sync_gives():
    def make():
        return gymnasium.make(IDS["watten"], **FAST["watten"])
    sync, async_ = SyncVectorEnv([make] * 2), AsyncVectorEnv([make] * 2)
    try:
        (_, infos), (_, infos2) = sync.reset(seed=9), async_.reset(seed=9)
        for _ in range(25):
            for i in range(2):
                assert infos2["view"][i] == infos["view"][i] and type(infos2["view"][i]) is InfoView
                assert infos2["legal_actions"][i] == infos["legal_actions"][i]
            actions = [_first_legal(m) for m in infos["action_mask"]]
            infos, infos2 = sync.step(actions)[4], async_.step(actions)[4]
    finally:
        sync.close()
        async_.close()


def test_the_lazy_infos_behave_as_the_list_and_the_dict_they_stand_for():
    env = gymnasium.make(IDS["watten"], **FAST["watten"])
    _obs, info = env.reset(seed=3)
    state = env.unwrapped.state
    notation, view = [str(a) for a in state.legal_actions(SEAT)], state.view(SEAT)
    legal, shown = info["legal_actions"], info["view"]
    assert len(notation) > 1
    # a sequence equal to the list (not to a tuple, as a list), unhashable, read-only
    assert legal == notation and notation == legal and not legal != notation
    assert legal != tuple(notation) and legal != notation[:-1]
    assert len(legal) == len(notation) and legal[0] == notation[0] and legal[-2:] == notation[-2:]
    assert notation[0] in legal and legal.index(notation[1]) == 1 and legal.count(notation[0]) == 1
    assert list(reversed(legal)) == notation[::-1] and legal + ["x"] == notation + ["x"]
    assert ["x"] + legal == ["x"] + notation and ", ".join(legal) == ", ".join(notation)
    assert json.dumps(list(legal)) == json.dumps(notation) and repr(legal) == f"InfoList({notation!r})"
    with pytest.raises(TypeError):
        hash(legal)
    with pytest.raises(TypeError):
        legal[0] = "x"
    # a mapping equal to the view dict; dict() of it for json
    assert shown == view and view == shown and dict(shown) == view and set(shown) == set(view)
    assert json.loads(json.dumps(dict(shown))) == json.loads(json.dumps(view))
    assert shown["seat"] == SEAT and shown.get("nothing") is None and "seat" in shown
    with pytest.raises(TypeError):
        shown["seat"] = 1
    # the info of an ended episode: no legal actions, the last view
    _obs, _r, term, _trunc, info = env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert term and info["legal_actions"] == [] and len(info["legal_actions"]) == 0
    assert info["view"] == env.unwrapped.state.view(SEAT)
