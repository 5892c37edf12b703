"""The standard wrapper libraries on the environments, as their tutorials use them:
supersuit's wrappers and its PettingZoo-to-vector-env path (the usual way to train one
shared policy with Stable-Baselines3 on a parallel env), Gymnasium's wrappers that
test_first_hour.py does not cover, SB3's own checks and shimmy's OpenSpiel-to-PettingZoo
conversion.  docs/encodings.md ("With the libraries' own tools") says what works, what
cannot by design and the way round; these tests keep it true.  supersuit is in the test
extra; SB3 (it needs torch) and shimmy are not, so their tests skip without them."""

from __future__ import annotations

import numpy as np
import pytest

import gymnasium
import wasserspiele
import wasserspiele.adapters.gymnasium  # noqa: F401  (registers wasserspiele/<Game>-v0)
from wasserspiele.adapters import common
from wasserspiele.adapters import pettingzoo as wpz

from .helpers import FAST

FOUR = ["wasserloch", "seven_waters", "watten", "wildwasser"]
IDS = {name: f"wasserspiele/{wasserspiele.core.registry.manifest(name).class_name}-v0" for name in FOUR}


def _supersuit():
    return pytest.importorskip("supersuit", reason="supersuit (the test extra) is not installed")


def _first_legal(masks: np.ndarray) -> np.ndarray:
    """The first legal index of each row (0 for a row with nothing to decide: ignored)."""
    return np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in masks])


# -- seat_infos=False: infos a vectoriser may copy at every step -------------------

def _run_parallel(env, seed, steps=40):
    """(observations, rewards, ends, infos) of every step of mask-respecting play."""
    out = []
    obs, infos = env.reset(seed=seed)
    out.append((obs, None, None, infos))
    for _ in range(steps):
        if not env.agents:
            obs, infos = env.reset()
        actions = {a: int(_first_legal(obs[a]["action_mask"][None])[0]) for a in env.agents}
        obs, rewards, terms, truncs, infos = env.step(actions)
        out.append((obs, rewards, (terms, truncs), infos))
    return out


@pytest.mark.parametrize("name", FOUR)
def test_seat_infos_false_gives_empty_infos_and_the_same_episodes(name):
    """supersuit's vector env copies every info at every step (`{**info, **reset_info}`),
    which builds every seat's view and legal actions' notation that our infos otherwise
    build only when read; `seat_infos=False` gives PettingZoo's classic `{}` instead."""
    plain = _run_parallel(wpz.parallel_env(name, **FAST[name]), seed=4)
    bare = _run_parallel(wpz.parallel_env(name, seat_infos=False, **FAST[name]), seed=4)
    for (obs, rewards, ends, infos), (obs2, rewards2, ends2, infos2) in zip(plain, bare):
        assert infos2 == {a: {} for a in infos} and all(set(i) == {"legal_actions", "view"} for i in infos.values())
        assert obs.keys() == obs2.keys()
        for a in obs:
            assert np.array_equal(obs[a]["observation"], obs2[a]["observation"])
            assert np.array_equal(obs[a]["action_mask"], obs2[a]["action_mask"])
        assert (rewards, ends) == (rewards2, ends2)
    aec = wpz.env(name, seat_infos=False, **FAST[name])
    aec.reset(seed=1)
    assert aec.infos == {a: {} for a in aec.possible_agents}
    aec.step(int(_first_legal(aec.observe(aec.agent_selection)["action_mask"][None])[0]))
    assert all(info == {} for info in aec.infos.values())


def test_seat_infos_false_keeps_the_reason_of_an_illegal_index():
    for make in (wpz.raw_env, wpz.parallel_env):
        env = make("watten", seat_infos=False, illegal_action="lose", target=3)
        if make is wpz.raw_env:
            env.reset(seed=2)
            agent = env.agent_selection
            env.step(int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0]))
            infos = env.infos
        else:
            obs, _ = env.reset(seed=2)
            agent = next(a for a in env.agents if obs[a]["action_mask"].any())
            _o, _r, _t, _tr, infos = env.step({a: int(np.flatnonzero(obs[a]["action_mask"] == 0)[0])
                                              for a in env.agents})
        assert "is not legal now" in infos[agent]["illegal_action"]


@pytest.mark.parametrize("value", ["no", 0, None])
def test_seat_infos_must_be_true_or_false(value):
    for make in (wpz.env, wpz.parallel_env):
        with pytest.raises(ValueError, match="seat_infos must be True or False"):
            make("watten", seat_infos=value)


def test_supersuit_vector_env_builds_no_view_with_seat_infos_false(monkeypatch):
    ss = _supersuit()
    built = []
    agent_info = common.agent_info
    monkeypatch.setattr(common, "agent_info", lambda *a, **k: built.append(1) or agent_info(*a, **k))
    for seat_infos in (True, False):
        built.clear()
        venv = ss.concat_vec_envs_v1(ss.pettingzoo_env_to_vec_env_v1(
            wpz.parallel_env("seven_waters", seat_infos=seat_infos)), 2, base_class="gymnasium")
        obs, _ = venv.reset(seed=0)
        for _ in range(5):
            obs, *_ = venv.step(_first_legal(obs["action_mask"]))
        venv.close()
        # with the seats' infos every step builds every table's every seat's (2 x 2 x 5)
        assert len(built) == (20 if seat_infos else 0)


# -- supersuit's vector path on the action-masked Dict observations -----------------

def _vector_env(ss, name, copies=2, num_cpus=0, **kwargs):
    par = wpz.parallel_env(name, seat_infos=False, **FAST[name], **kwargs)
    return ss.concat_vec_envs_v1(ss.pettingzoo_env_to_vec_env_v1(par), copies, num_cpus=num_cpus,
                                 base_class="gymnasium")


@pytest.mark.parametrize("name", FOUR)
def test_supersuit_vector_env_plays_the_masked_dict_observations(name):
    ss = _supersuit()
    venv = _vector_env(ss, name)
    players = len(wpz.parallel_env(name, **FAST[name]).possible_agents)
    assert venv.num_envs == 2 * players  # one sub-env per seat of each table
    obs, infos = venv.reset(seed=3)
    assert venv.observation_space.contains({k: v[0] for k, v in obs.items()})
    assert len(infos) == venv.num_envs
    again = _vector_env(ss, name)
    same, _ = again.reset(seed=3)
    assert np.array_equal(obs["observation"], same["observation"])  # seeded: reproducible
    assert not np.array_equal(obs["observation"][:players], obs["observation"][players:])  # tables differ
    ends = 0
    for _ in range(400):
        actions = _first_legal(obs["action_mask"])
        obs, rewards, terms, truncs, infos = venv.step(actions)
        same, *_ = again.step(actions)
        assert np.array_equal(obs["observation"], same["observation"])
        for table in range(2):
            seats = slice(table * players, (table + 1) * players)
            done = terms[seats] | truncs[seats]
            assert done.all() or not done.any()  # a table's seats end together
            if done.all():
                ends += 1
                assert abs(rewards[seats].sum()) < 1e-6  # zero-sum at the end
                assert all("terminal_observation" in info for info in infos[seats])
                # the new game's first position: exactly one seat (all in a simultaneous pick) to move
                assert obs["action_mask"][seats].any()
            else:
                assert not rewards[seats].any()
    venv.close()
    again.close()
    assert ends >= 2


@pytest.mark.parametrize("name", FOUR)
def test_supersuit_vector_env_with_an_unmasked_policy_and_illegal_action_lose(name):
    """An unmasked policy (SB3's PPO) samples indices the mask shuts: with
    `illegal_action="lose"` the episode ends with the offender's -1, and the table is
    dealt anew (with the default "raise" the first illegal index raises EncodingError)."""
    ss = _supersuit()
    venv = _vector_env(ss, name, illegal_action="lose")
    rng = np.random.default_rng(1)
    obs, _ = venv.reset(seed=1)
    penalties = 0
    for _ in range(30):  # supersuit's action_space is one sub-env's
        obs, rewards, terms, _truncs, _infos = venv.step(rng.integers(venv.action_space.n, size=venv.num_envs))
        penalties += int((rewards == -1).sum())
    venv.close()
    assert penalties >= 5
    with pytest.raises(wasserspiele.adapters.codecs.EncodingError, match="is not legal now"):
        strict = ss.concat_vec_envs_v1(ss.pettingzoo_env_to_vec_env_v1(wpz.parallel_env(name, **FAST[name])), 1)
        obs, _ = strict.reset(seed=1)
        strict.step(np.array([np.flatnonzero(m == 0)[0] for m in obs["action_mask"]]))


def test_supersuit_vector_env_in_worker_processes():
    ss = _supersuit()
    venv = _vector_env(ss, "watten", copies=2, num_cpus=2)
    try:
        obs, _ = venv.reset(seed=5)
        for _ in range(60):
            obs, rewards, terms, truncs, infos = venv.step(_first_legal(obs["action_mask"]))
        assert obs["observation"].shape == (8, 280) and len(infos) == 8
    finally:
        venv.close()


# -- supersuit's Box-only wrappers --------------------------------------------------

def _observation_only(ss, env):
    """The way round for the Box-only wrappers: the observation vector alone (the mask
    is dropped: for an unmasked policy with illegal_action="lose")."""
    return ss.observation_lambda_v0(env, lambda obs, space: obs["observation"], lambda space: space["observation"])


def _box_chain(ss, env):
    env = _observation_only(ss, env)
    env = ss.dtype_v0(env, np.float32)
    env = ss.normalize_obs_v0(env)  # needs every bound finite and low < high (codec.bounds)
    env = ss.flatten_v0(env)
    env = ss.frame_stack_v1(env, 2)
    return ss.clip_reward_v0(env)


@pytest.mark.parametrize("name", FOUR)
def test_supersuit_box_wrappers_on_the_observation_vector(name):
    ss = _supersuit()
    size = wpz.parallel_env(name, **FAST[name]).codec.obs_size
    aec = _box_chain(ss, wpz.env(name, illegal_action="lose", **FAST[name]))
    aec.reset(seed=2)
    for agent in aec.agent_iter(40):
        obs, _r, term, trunc, _info = aec.last()
        assert obs.shape == (2 * size,) and np.isfinite(obs).all() and obs.min() >= 0 and obs.max() <= 1
        aec.step(None if term or trunc else aec.action_space(agent).sample())
    venv = ss.concat_vec_envs_v1(ss.pettingzoo_env_to_vec_env_v1(
        _box_chain(ss, wpz.parallel_env(name, illegal_action="lose", seat_infos=False, **FAST[name]))), 2)
    rng = np.random.default_rng(0)
    obs, _ = venv.reset(seed=2)
    for _ in range(40):
        obs, rewards, *_ = venv.step(rng.integers(venv.action_space.n, size=venv.num_envs))
        assert obs.shape == (venv.num_envs, 2 * size) and np.isfinite(obs).all()
        assert (np.abs(rewards) <= 1).all()
    venv.close()


@pytest.mark.parametrize("name", FOUR)
def test_supersuit_box_only_wrappers_refuse_the_masked_dict(name):
    """What docs/encodings.md says cannot work by design: supersuit's observation
    wrappers and black death take Box (or Discrete) observations only; the spaces are
    already the same for every agent, so the padding wrappers are not needed."""
    ss = _supersuit()
    for wrap in (ss.flatten_v0, ss.normalize_obs_v0, lambda e: ss.dtype_v0(e, np.float32),
                 lambda e: ss.frame_stack_v1(e, 2), ss.pad_observations_v0):
        for make in (wpz.env, wpz.parallel_env):
            with pytest.raises((AssertionError, AttributeError)):
                wrap(make(name, **FAST[name]))
    par = ss.black_death_v3(wpz.parallel_env(name, **FAST[name]))
    with pytest.raises(AssertionError, match="must be Box"):
        par.reset(seed=0)
    # the same spaces for every agent: padding the action space changes nothing
    env = ss.pad_action_space_v0(ss.clip_reward_v0(wpz.env(name, **FAST[name])))
    env.reset(seed=0)
    assert env.action_space(env.possible_agents[-1]) == env.unwrapped.action_space(env.possible_agents[-1])
    for agent in env.agent_iter(30):
        obs, _r, term, trunc, _info = env.last()
        env.step(None if term or trunc else int(_first_legal(obs["action_mask"][None])[0]))


@pytest.mark.parametrize("name", FOUR)
def test_supersuit_wrappers_on_the_gymnasium_env(name):
    ss = _supersuit()
    env = gymnasium.make(IDS[name], **FAST[name])
    size = env.observation_space.shape[0]
    env = ss.clip_reward_v0(ss.frame_stack_v1(ss.flatten_v0(ss.normalize_obs_v0(ss.dtype_v0(env, np.float64))), 3))
    assert env.observation_space.shape == (3 * size,) and env.observation_space.dtype == np.float64
    obs, info = env.reset(seed=1)
    for _ in range(80):
        assert env.observation_space.contains(obs) and np.isfinite(obs).all()
        obs, reward, term, trunc, info = env.step(int(_first_legal(info["action_mask"][None])[0]))
        if term or trunc:
            obs, info = env.reset()


# -- Gymnasium's wrappers beyond test_first_hour.py ------------------------------------

# Gymnasium's own: DtypeObservation compares the float32 bounds with float64's range,
# RescaleObservation casts its float64 bounds to the env's float32
@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")
@pytest.mark.filterwarnings("ignore:.*precision lowered by casting")
@pytest.mark.parametrize("name", FOUR)
def test_more_gymnasium_wrappers(name):
    from gymnasium import wrappers

    makers = [
        wrappers.FlattenObservation,
        lambda e: wrappers.DtypeObservation(e, np.float64),
        lambda e: wrappers.RescaleObservation(e, -1.0, 1.0),  # finite bounds with low < high
        wrappers.TimeAwareObservation,
        lambda e: wrappers.ClipReward(e, -0.5, 0.5),
        wrappers.NormalizeReward,
        lambda e: wrappers.DelayObservation(e, 2),
    ]
    for make in makers:
        env = make(gymnasium.make(IDS[name], max_episode_steps=15, **FAST[name]))
        obs, info = env.reset(seed=2)
        for _ in range(40):
            assert env.observation_space.contains(obs)
            obs, _reward, term, trunc, info = env.step(int(_first_legal(info["action_mask"][None])[0]))
            if term or trunc:
                obs, info = env.reset()
    # TimeAwareObservation needs a step limit: the env's own length bound is no TimeLimit
    with pytest.raises(ValueError, match="TimeLimit"):
        wrappers.TimeAwareObservation(gymnasium.make(IDS[name], **FAST[name]))


# -- Stable-Baselines3 and shimmy (not in the test extra) ------------------------------

@pytest.mark.parametrize("name", FOUR)
def test_stable_baselines3_ppo_through_supersuit(name):
    pytest.importorskip("stable_baselines3", reason="Stable-Baselines3 (and torch) are not installed")
    ss = _supersuit()
    from stable_baselines3 import PPO
    from stable_baselines3.common.env_checker import check_env

    check_env(gymnasium.make(IDS[name], **FAST[name]).unwrapped)
    par = wpz.parallel_env(name, illegal_action="lose", seat_infos=False, **FAST[name])
    venv = ss.concat_vec_envs_v1(ss.pettingzoo_env_to_vec_env_v1(par), 2, base_class="stable_baselines3")
    # no PPO(seed=...): supersuit 3.11's SB3 wrapper hands seed() to a ConcatVecEnv, which
    # has none; seeding the ConcatVecEnv inside makes the resets PPO does reproducible
    twin = ss.concat_vec_envs_v1(ss.pettingzoo_env_to_vec_env_v1(
        wpz.parallel_env(name, illegal_action="lose", seat_infos=False, **FAST[name])), 2, base_class="stable_baselines3")
    for each in (venv, twin):
        each.venv.reset(seed=9)
    assert np.array_equal(venv.reset()["observation"], twin.reset()["observation"])
    twin.close()
    model = PPO("MultiInputPolicy", venv, n_steps=16, batch_size=32, n_epochs=1, device="cpu")
    model.learn(2 * 16 * venv.num_envs)
    assert model.num_timesteps >= 2 * 16 * venv.num_envs
    venv.close()


@pytest.mark.filterwarnings("ignore:Agent's m.* observation space value is")  # shimmy's unbounded Box
@pytest.mark.parametrize("name", FOUR)
def test_shimmy_openspiel_compatibility(name):
    pytest.importorskip("shimmy", reason="shimmy is not installed")
    pyspiel = pytest.importorskip("pyspiel")
    from pettingzoo.test import api_test
    from shimmy import OpenSpielCompatibilityV0

    import wasserspiele.adapters.openspiel  # noqa: F401  (registers the games)

    # game_name and config: shimmy's reset() loads the game anew by name, so a game
    # passed as env= loses its parameters at the first reset
    env = OpenSpielCompatibilityV0(game_name=f"wasserspiele_{name}", config=FAST[name] or None)
    api_test(env, num_cycles=30)
    env.reset(seed=1)
    game = pyspiel.load_game(f"wasserspiele_{name}", FAST[name])
    assert str(env._env) == str(game)  # noqa: SLF001 - the parameters survived the reset
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(5000):
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        assert obs.shape == (game.observation_tensor_size(),)
        env.step(None if term or trunc else int(np.flatnonzero(info["action_mask"])[0]))
    returns = env.game_state.returns()
    assert not env.agents and env.game_state.is_terminal() and abs(sum(returns)) < 1e-9 and max(returns) > 0
    # shimmy 2.0.1 adds the final rewards again at every dead step (the k-th agent to leave
    # gets its reward k times; OpenSpiel's own leduc_poker too): only the first is exact
    assert total["player_0"] == pytest.approx(returns[0])
