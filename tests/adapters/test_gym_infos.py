"""`seat_infos=False` on the Gymnasium env: infos without the view and the legal actions'
notation.  Both are built when first read (tests/adapters/test_gym_lazy_infos.py), but
AsyncVectorEnv pickles every info, which builds them (Seven Waters: about four fifths
of a step); with `seat_infos=False` the info holds what a training loop reads: the
mask, an illegal index's reason and the episode's end.  docs/encodings.md has the
figures."""

from __future__ import annotations

import numpy as np
import pytest

import gymnasium
from gymnasium.utils.env_checker import check_env

import wasserspiele
import wasserspiele.adapters.gymnasium as wgym

from .helpers import FAST

FOUR = ["wasserloch", "seven_waters", "watten", "wildwasser"]
IDS = {name: f"wasserspiele/{wasserspiele.core.registry.manifest(name).class_name}-v0" for name in FOUR}
SEAT_KEYS = {"legal_actions", "view"}
# what an info may hold with seat_infos=False: the mask at every step, the rest at an end
LEAN_KEYS = {"action_mask", "illegal_action", "returns", "scores", "truncated_at"}


def _first_legal(mask: np.ndarray) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[0]) if legal.size else 0


def _play(env, seed: int, steps: int) -> list:
    """(observation, reward, terminated, truncated, info) of every step of first-legal play,
    over as many episodes as `steps` takes (the reset's as the first, reward None)."""
    obs, info = env.reset(seed=seed)
    out = [(obs, None, False, False, info)]
    for _ in range(steps):
        obs, reward, term, trunc, info = env.step(_first_legal(info["action_mask"]))
        out.append((obs, reward, term, trunc, info))
        if term or trunc:
            obs, info = env.reset()
            out.append((obs, None, False, False, info))
    return out


def _same_info(full: dict, lean: dict) -> None:
    assert set(full) - set(lean) == SEAT_KEYS and set(lean) <= LEAN_KEYS and "action_mask" in lean
    for key, value in lean.items():
        np.testing.assert_equal(value, full[key])


@pytest.mark.parametrize("name", FOUR)
def test_seat_infos_false_drops_the_view_and_notation_and_plays_the_same_episodes(name):
    steps = {"seven_waters": 30}.get(name, 120)  # whole episodes of the short games
    full = _play(gymnasium.make(IDS[name], **FAST[name]), seed=5, steps=steps)
    lean_env = gymnasium.make(IDS[name], seat_infos=False, **FAST[name])
    lean = _play(lean_env, seed=5, steps=steps)
    assert len(full) == len(lean)
    for (obs, reward, term, trunc, info), (obs2, reward2, term2, trunc2, info2) in zip(full, lean):
        np.testing.assert_array_equal(obs, obs2)
        assert (reward, term, trunc) == (reward2, term2, trunc2)
        _same_info(info, info2)
    if name != "seven_waters":  # an episode ended, and its returns are in the lean info too
        assert any("returns" in step[4] for step in lean)
    # the option is part of the env's spec: gymnasium.make(env.spec) makes the same env
    assert gymnasium.make(lean_env.spec).unwrapped.seat_infos is False
    assert wgym.WasserspieleEnv(name, **FAST[name]).seat_infos is True  # the default keeps the infos


def test_seat_infos_false_keeps_the_reason_of_an_illegal_index():
    infos = []
    for seat_infos in (True, False):
        env = gymnasium.make(IDS["watten"], seat_infos=seat_infos, **FAST["watten"])
        _, info = env.reset(seed=3)
        illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
        _, reward, term, _, info = env.step(illegal)
        assert reward == -1.0 and term
        infos.append(info)
    full, lean = infos
    assert "is not legal now" in lean["illegal_action"]
    _same_info(full, lean)


@pytest.mark.parametrize("value", ["false", "no", 0, 1, None, 1.0, [False]])
def test_seat_infos_must_be_true_or_false(value):
    """"false" is truthy: taken as it is, it would keep the infos the caller meant to drop."""
    with pytest.raises(ValueError, match="seat_infos must be True or False"):
        wgym.WasserspieleEnv("watten", seat_infos=value)
    with pytest.raises(ValueError, match="seat_infos must be True or False"):
        gymnasium.make_vec(IDS["watten"], num_envs=2, seat_infos=value)


def test_numpy_bools_are_taken():
    assert wgym.WasserspieleEnv("watten", seat_infos=np.bool_(False)).seat_infos is False


@pytest.mark.parametrize("name", FOUR)
def test_gymnasium_env_checker_passes_with_seat_infos_false(name):
    check_env(wgym.WasserspieleEnv(name, seat_infos=False, **FAST[name]).unwrapped, skip_render_check=True)


def test_sync_vector_env_keeps_no_view_with_seat_infos_false():
    """SyncVectorEnv's `_add_info` stores every key of every table's info: without the
    option each table's (lazy) view and notation, with it neither."""
    for seat_infos in (True, False):
        venv = gymnasium.vector.SyncVectorEnv(
            [lambda: gymnasium.make(IDS["seven_waters"], seat_infos=seat_infos) for _ in range(2)])
        _, infos = venv.reset(seed=0)
        for _ in range(5):
            _, _, _, _, infos = venv.step([_first_legal(m) for m in infos["action_mask"]])
        venv.close()
        assert infos["action_mask"].shape == (2, venv.single_action_space.n)
        assert (SEAT_KEYS <= set(infos)) is seat_infos


def test_make_vec_passes_seat_infos_to_the_single_table_envs():
    for mode in ("sync", "async"):
        venv = gymnasium.make_vec(IDS["watten"], num_envs=2, vectorization_mode=mode, seat_infos=False,
                                  **FAST["watten"])
        try:
            _, infos = venv.reset(seed=1)
            _, _, _, _, infos = venv.step([_first_legal(m) for m in infos["action_mask"]])
            assert not SEAT_KEYS & set(infos) and infos["action_mask"].shape == (2, 43), mode
        finally:
            venv.close()


def test_make_vec_kernel_env_takes_seat_infos_false_and_refuses_true():
    """The kernel env's infos hold the masks only, what `seat_infos=False` asks for: the
    same env as without it.  Views it cannot give: True is refused, naming the single-table
    envs (it used to be taken for a game option: "watten has no option 'seat_infos'")."""
    plain = gymnasium.make_vec(IDS["watten"], num_envs=3, **FAST["watten"])
    lean = gymnasium.make_vec(IDS["watten"], num_envs=3, seat_infos=False, **FAST["watten"])
    assert type(lean) is type(plain)
    (obs, infos), (obs2, infos2) = plain.reset(seed=2), lean.reset(seed=2)
    for _ in range(20):
        np.testing.assert_array_equal(obs, obs2)
        assert infos.keys() == infos2.keys()
        actions = [_first_legal(m) for m in infos["action_mask"]]
        obs, _, _, _, infos = plain.step(actions)
        obs2, _, _, _, infos2 = lean.step(actions)
    with pytest.raises(ValueError, match='seat_infos=true.*vectorization_mode="sync"'):
        gymnasium.make_vec(IDS["watten"], num_envs=2, seat_infos=True)
