"""Defects a second audit of the research interfaces found, probing them with bad and
boundary input as a researcher's code may pass it: reset options that were dropped
without a word, bad rewards and opponents that failed unclearly or not at all, indices
outside the action space that were played as "illegal" moves or named another action.
Each test failed before its fix."""

from __future__ import annotations

import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import wasserspiele
import wasserspiele.adapters.gymnasium  # noqa: F401  (registers the ids)
from wasserspiele.adapters import pettingzoo as wpz
from wasserspiele.adapters.codecs import EncodingError
from wasserspiele.adapters.vector import kernel_env_class

from .helpers import FAST

FOUR = ["wasserloch", "seven_waters", "watten", "wildwasser"]
IDS = {name: f"wasserspiele/{wasserspiele.core.registry.manifest(name).class_name}-v0" for name in FOUR}


def _legal_and_illegal(mask: np.ndarray) -> tuple[int, int]:
    return int(np.flatnonzero(mask)[0]), int(np.flatnonzero(mask == 0)[0])


# -- 1. reset(options=…) was dropped without a word -------------------------------------
# `reset(seed=1, options={"players": 3})` dealt the constructor's game, and a vector env's
# `reset_mask` dealt every table anew: another game or other tables than asked for.

@pytest.mark.parametrize("name", FOUR)
def test_reset_options_are_refused_by_the_gymnasium_and_vector_envs(name):
    gym = gymnasium.make(IDS[name], **FAST[name])
    vec = kernel_env_class(name)(2, seed=1)
    for call in (lambda o: gym.reset(seed=1, options=o), lambda o: vec.reset(seed=1, options=o)):
        for bad in ({"players": 3}, {"reset_mask": np.array([True, False])}, ["players"]):
            with pytest.raises(ValueError, match=r"take no reset options.*game options go to the constructor"):
                call(bad)
        call(None)  # what Gymnasium's wrappers and vectorisers pass, and its checker's {}, still work
        call({})


@pytest.mark.parametrize("name", FOUR)
def test_reset_options_are_warned_about_by_the_pettingzoo_envs(name):
    """PettingZoo's api_test calls reset(options={"options": 1}) and expects it to pass:
    a warning, not an error, and the constructor's game is dealt."""
    for env in (wpz.env(name, **FAST[name]), wpz.parallel_env(name, **FAST[name])):
        with pytest.warns(UserWarning, match=r"reset\(options=...\) ignored: .* take no reset options, got 'players'"):
            env.reset(seed=1, options={"players": 3})
        assert len(env.agents) == env.unwrapped.game.players
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            env.reset(seed=1, options={})
            env.reset(seed=1)


def test_a_refused_reset_leaves_the_running_episode_whole():
    env = gymnasium.make(IDS["watten"], target=3)
    obs, _info = env.reset(seed=4)
    with pytest.raises(ValueError, match="take no reset options"):
        env.reset(seed=9, options={"target": 5})
    legal = int(np.flatnonzero(env.unwrapped.action_masks())[0])
    again = gymnasium.make(IDS["watten"], target=3)
    again.reset(seed=4)
    assert all(np.array_equal(a, b) for a, b in zip(env.step(legal)[:1], again.step(legal)[:1]))


# -- 2. illegal_reward: NaN and infinity were taken, "x" failed without naming it --------

@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "x", None, True, np.bool_(False)])
def test_an_illegal_reward_that_is_not_a_finite_number_is_refused_by_name(bad):
    makes = [lambda: gymnasium.make(IDS["watten"], illegal_reward=bad),
             lambda: wpz.env("watten", illegal_reward=bad), lambda: wpz.parallel_env("watten", illegal_reward=bad),
             lambda: gymnasium.make_vec(IDS["watten"], num_envs=2, illegal_reward=bad)]
    makes += [lambda cls=kernel_env_class(name): cls(2, illegal_reward=bad) for name in FOUR]
    for make in makes:
        with pytest.raises(ValueError, match=r"illegal_reward must be a finite number"):
            make()


def test_numpy_rewards_are_taken():
    env = gymnasium.make(IDS["watten"], illegal_reward=np.float32(-2.0), target=3)
    assert env.unwrapped.illegal_reward == -2.0
    assert wpz.parallel_env("watten", illegal_reward=np.int64(-3)).illegal_reward == -3.0


# -- 3. opponents that are neither a spec nor a list of specs -----------------------------

@pytest.mark.parametrize("bad", [3, None, {"seat": "random"}, ["random", 2, "random"]])
def test_opponents_that_are_not_bot_specs_are_refused_clearly(bad):
    with pytest.raises(ValueError, match=r"opponents must be a bot spec .* or a list of 3, one per other seat"):
        gymnasium.make(IDS["watten"], opponents=bad)


def test_opponents_may_be_a_path_or_a_tuple():
    env = gymnasium.make(IDS["watten"], opponents=("random", "heuristic", "random"), target=3)
    assert [s.kind for s in env.unwrapped.opponent_kinds.values()] == ["random", "heuristic", "random"]
    with pytest.raises(ValueError, match="no-such-file.npz"):  # a path is a checkpoint's spec, checked as one
        gymnasium.make(IDS["wasserloch"], opponents=Path("no-such-file.npz"))


# -- 4. indices outside the action space --------------------------------------------------

@pytest.mark.parametrize("name", FOUR)
def test_pettingzoo_lose_mode_refuses_what_is_no_index_and_forfeits_only_illegal_ones(name):
    """illegal_action="lose" ended the episode with the penalty for -1, 10**6 or 1.5, where
    the Gymnasium env raises: a caller's bug was booked as a lost game."""
    aec = wpz.env(name, illegal_action="lose", **FAST[name])
    aec.reset(seed=2)
    agent = aec.agent_selection
    legal, illegal = _legal_and_illegal(aec.observe(agent)["action_mask"])
    n = aec.action_space(agent).n
    for bad in (-1, n, 10**6, 1.5, "3", None):
        with pytest.raises((EncodingError, ValueError)):
            aec.step(bad)
        assert not any(aec.terminations.values()) and aec.agent_selection == agent  # nothing happened
    par = wpz.parallel_env(name, illegal_action="lose", **FAST[name])
    observations, _infos = par.reset(seed=2)
    acting = {a: _legal_and_illegal(o["action_mask"])[0] for a, o in observations.items() if o["action_mask"].any()}
    first = next(iter(acting))
    for bad in (-1, n, 1.5):
        with pytest.raises(EncodingError):
            par.step({**acting, first: bad})
        assert par.agents  # the episode goes on
    par.step(acting)  # and the position was left as it was: the legal picks still apply
    # an index in the space but illegal now still ends the episode with the penalty
    aec.step(illegal)
    assert all(aec.terminations.values()) and aec.rewards[agent] == -1.0
    assert "illegal_action" in aec.infos[agent]


@pytest.mark.parametrize("name", FOUR)
def test_kernel_vector_envs_refuse_indices_outside_the_action_space(name):
    """-1 and 10**6 were played as illegal moves (reward -1, table dealt anew); the
    single-table env raises for them.  A table being dealt anew ignores its action."""
    envs = gymnasium.make_vec(IDS[name], num_envs=3)
    _obs, info = envs.reset(seed=3)
    n = envs.single_action_space.n
    legal = np.array([_legal_and_illegal(m)[0] for m in info["action_mask"]])
    for bad_value in (-1, n, 10**6):
        bad = legal.copy()
        bad[1] = bad_value
        with pytest.raises(ValueError, match=rf"table 1 got index {bad_value}, outside the action space 0..{n - 1}"):
            envs.step(bad)
    with pytest.raises(ValueError, match="outside the action space"):
        envs.step(np.where(np.arange(3) == 2, 1e30, legal.astype(np.float64)))  # int64's overflow
    illegal = np.array([_legal_and_illegal(m)[1] for m in info["action_mask"]])
    _obs, rewards, terminated, _t, info = envs.step(illegal)  # the refusals changed nothing
    assert terminated.all() and (rewards == -1.0).all()
    _obs, _r, terminated, _t, _info = envs.step(np.full(3, -1))  # every table dealt anew: ignored
    assert not terminated.any()


@pytest.mark.parametrize("name", FOUR)
def test_openspiel_action_to_string_refuses_indices_outside_the_space(name):
    """A negative index named another action (action_names[-2]); 10**6 failed as "tuple
    index out of range"."""
    pyspiel = pytest.importorskip("pyspiel")
    import wasserspiele.adapters.openspiel  # noqa: F401
    game = pyspiel.load_game(f"wasserspiele_{name}")
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    player, n = state.current_player(), game.num_distinct_actions()
    for bad in (-2, n, 10**6):
        with pytest.raises(EncodingError, match=rf"action index {bad} is outside 0..{n - 1}"):
            state.action_to_string(player, bad)
    assert state.action_to_string(player, n - 1)  # the last index still has its name


def test_a_table_dealt_anew_ignores_whatever_action_it_gets():
    envs = gymnasium.make_vec(IDS["watten"], num_envs=2, target=3)
    _obs, info = envs.reset(seed=1)
    illegal = [_legal_and_illegal(m)[1] for m in info["action_mask"]]
    envs.step(illegal)  # both episodes end: the next step deals them anew
    _obs, _r, terminated, _t, info = envs.step(np.array([10**30, -(2**70)], dtype=object))
    assert not terminated.any() and info["action_mask"].any(axis=1).all()


def test_observing_an_agent_that_does_not_exist_names_the_agents():
    """A KeyError showed only the name ('player_9')."""
    env = wpz.env("watten", target=3)
    env.reset(seed=1)
    for bad in ("player_9", "player0", 0):
        with pytest.raises(ValueError, match=r"no agent named .* \(agents: player_0, player_1, player_2, player_3\)"):
            env.observe(bad)


def test_raw_env_step_after_every_agent_is_done_says_the_episode_is_over():
    """raw_env (docs: "without the order-enforcing wrapper") raised KeyError: 'player_0'."""
    env = wpz.raw_env("watten", target=3, illegal_action="lose")
    env.reset(seed=5)
    env.step(_legal_and_illegal(env.observe(env.agent_selection)["action_mask"])[1])  # forfeit: all done
    while env.agents:
        env.step(None)
    for action in (0, None):
        with pytest.raises(RuntimeError, match=r"the episode is over .*call reset\(\)"):
            env.step(action)
    env.reset(seed=5)  # and a new episode starts as usual
    assert env.agents and not any(env.terminations.values())


@pytest.mark.parametrize("name", FOUR)
def test_pettingzoo_seeds_are_integers_numpy_ones_included(name):
    """np.int64(4) failed inside random.Random ("The only supported seed types are…"),
    while 1.5, "x" and True were taken as seeds of their own."""
    aec, par = wpz.env(name, **FAST[name]), wpz.parallel_env(name, **FAST[name])
    aec.reset(seed=np.int64(4))
    numpy_seeded = aec.observe(aec.agent_selection)["observation"]
    aec.reset(seed=4)
    assert np.array_equal(numpy_seeded, aec.observe(aec.agent_selection)["observation"])
    assert all(np.array_equal(a["observation"], b["observation"])
               for a, b in zip(par.reset(seed=np.uint32(4))[0].values(), par.reset(seed=4)[0].values()))
    for bad in (1.5, 4.0, "x", True, np.bool_(True), [4]):
        for env in (aec, par):
            with pytest.raises(ValueError, match="seed must be an integer or None"):
                env.reset(seed=bad)


def test_every_environment_takes_numpy_seeds_and_refuses_a_bool_seed_alike():
    """Seeds were checked three ways: the Gymnasium env took True as a seed and refused
    np.int64 (Gymnasium's own check), where the PettingZoo and vector envs did the opposite."""
    env = gymnasium.make("wasserspiele/Wasserloch-v0")
    first, _ = env.reset(seed=np.int64(4))
    again, _ = env.reset(seed=4)
    assert (first == again).all()
    with pytest.raises(ValueError, match="seed must be an integer or None, not true"):
        env.reset(seed=True)


# -- a seed per table: Gymnasium's VectorEnv.reset(seed=[...]) --------------------------
@pytest.mark.parametrize("name", FOUR)
def test_a_kernel_vector_env_takes_a_seed_per_table_as_gymnasium_s_vector_envs_do(name):
    """`make_vec(...).reset(seed=[1, 2, 3])` worked with vectorization_mode="sync" and was
    refused by the kernel env ("seed must be an integer or None, not [1, 2, 3]").  Table e
    is dealt as a one-table env reset with seeds[e] deals its table."""
    cls = kernel_env_class(name)
    seeds = [11, 12, 13]
    obs, info = cls(3).reset(seed=seeds)
    for e, s in enumerate(seeds):
        one, one_info = cls(1).reset(seed=s)
        assert np.array_equal(obs[e], one[0]) and np.array_equal(info["action_mask"][e], one_info["action_mask"][0])
    assert not np.array_equal(obs[0], obs[1]) or not np.array_equal(obs[1], obs[2])
    again, _ = cls(3).reset(seed=(11, 12, 13))
    assert np.array_equal(obs, again)
    with pytest.raises(ValueError, match=r"seed: a list of 2 seeds for 3 tables \(one each\)"):
        cls(3).reset(seed=[1, 2])
    with pytest.raises(ValueError, match="seed must be an integer or None, not 1.5"):
        cls(3).reset(seed=[1, 1.5, 2])
    env = gymnasium.make_vec(IDS[name], num_envs=3)
    try:
        assert np.array_equal(env.reset(seed=seeds)[0], obs)
    finally:
        env.close()


# -- an environment's own argument misspelt -------------------------------------------
@pytest.mark.parametrize("make, meant", [
    (lambda: gymnasium.make(IDS["watten"], opponent="heuristic"), "opponents"),
    (lambda: gymnasium.make_vec(IDS["watten"], num_envs=2, opponent="random"), "opponents"),
    (lambda: wpz.env("watten", illegal_actions="lose"), "illegal_action"),
    (lambda: wpz.parallel_env("watten", render_mod="ansi"), "render_mode"),
])
def test_an_environment_s_own_argument_misspelt_is_named_with_the_one_meant(make, meant):
    """`gymnasium.make(..., opponent="heuristic")` was refused as "watten has no option
    'opponent' (options: caller, …)": the game's options only, never the env's `opponents`.
    An option the game lacks that is close to one of the environment's own arguments is
    refused as Python refuses an unexpected keyword, naming the one meant; a misspelt game
    option is still the game's refusal."""
    with pytest.raises(TypeError, match=rf"unexpected keyword argument '\w+': did you mean '{meant}'\? "
                                        r"\(watten has no option"):
        make()
    with pytest.raises(wasserspiele.core.errors.BadOption, match="watten has no option 'targte'"):
        gymnasium.make(IDS["watten"], targte=3)


def test_a_bad_value_in_opponent_options_names_opponent_options():
    """`opponent_options={"ismcts": {"iterations": -5}}` was refused as "iterations must be
    a whole number …", the only refusal of opponent_options that did not say where the value
    came from; the same value in the spec still names the spec."""
    with pytest.raises(wasserspiele.core.errors.BadOption,
                       match=r"^opponent_options\['ismcts'\]: iterations must be a whole number from 1 to"):
        gymnasium.make(IDS["watten"], opponents="ismcts", opponent_options={"ismcts": {"iterations": -5}})
    with pytest.raises(wasserspiele.core.errors.BadOption, match=r"^bot spec 'ismcts:iterations=-5': iterations must"):
        gymnasium.make(IDS["watten"], opponents="ismcts:iterations=-5")
