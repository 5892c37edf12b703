"""The research kit around the environments: PettingZoo's parallel env (simultaneous
picks at once), the global `state()`, infos with legal actions and the raw view,
observation bounds, and Gymnasium opponents named by any bot spec the CLI accepts."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import parallel_api_test, parallel_seed_test

import wasserspiele
from wasserspiele.adapters import pettingzoo as wpz
from wasserspiele.adapters.codecs import EncodingError, codec_for
from wasserspiele.adapters.gymnasium import WasserspieleEnv
from wasserspiele.core.errors import BadOption

from .helpers import FAST, GAMES, random_positions


# PettingZoo's test resets with options={"options": 1}, which our envs warn about (common.py)
@pytest.mark.filterwarnings("ignore:reset\\(options=\\.\\.\\.\\) ignored")
@pytest.mark.parametrize("name", GAMES)
def test_parallel_api_test(name):
    parallel_api_test(wpz.parallel_env(name, **FAST[name]), num_cycles=400)


@pytest.mark.parametrize("name", GAMES)
def test_parallel_seed_test(name):
    # PettingZoo's seed test samples without the mask: an illegal pick ends the episode
    parallel_seed_test(lambda: wpz.parallel_env(name, illegal_action="lose", **FAST[name]), num_cycles=100)


def test_parallel_illegal_action_can_end_the_episode():
    env = wpz.parallel_env("wasserloch", illegal_action="lose", rounds=1)
    obs, _ = env.reset(seed=2)
    agent = next(a for a in env.agents if obs[a]["action_mask"].any())
    illegal = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
    _obs, rewards, term, _trunc, infos = env.step({agent: illegal})
    assert rewards[agent] == -1.0 and all(term.values()) and env.agents == []
    assert "is not legal now" in infos[agent]["illegal_action"]


def test_parallel_wildwasser_takes_every_pick_in_one_step():
    env = wpz.parallel_env("wildwasser", players=3)
    obs, infos = env.reset(seed=11)
    state = env.game_state
    assert state.simultaneous() and len(state.to_move()) == 3
    acting = [a for a in env.agents if obs[a]["action_mask"].any()]
    assert acting == env.agents  # all three pick now
    actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in acting}
    before = len(state.history)
    env.step(actions)
    assert len(state.history) == before + 3
    assert [seat for seat, _action, _together in state.history[before:]] == [0, 1, 2]
    assert not state.simultaneous()  # the picks are revealed


def test_parallel_refuses_a_missing_or_illegal_action():
    env = wpz.parallel_env("wasserloch", rounds=1)
    obs, _ = env.reset(seed=2)
    agent = next(a for a in env.agents if obs[a]["action_mask"].any())
    with pytest.raises(ValueError, match=f"{agent} must act now"):
        env.step({})
    illegal = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
    with pytest.raises(EncodingError, match="is not legal now"):
        env.step({agent: illegal})


def test_parallel_turn_based_game_plays_to_a_zero_sum_end():
    env = wpz.parallel_env("watten", target=3)
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        acting = [a for a in env.agents if obs[a]["action_mask"].any()]
        assert len(acting) == 1  # Watten has no simultaneous phase: one seat per step
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in acting}
        obs, rewards, term, trunc, _ = env.step(actions)
        for a, r in rewards.items():
            total[a] += r
    assert abs(sum(total.values())) < 1e-9 and max(total.values()) == 0.5


@pytest.mark.parametrize("make", [wpz.env, wpz.parallel_env], ids=["aec", "parallel"])
def test_state_is_every_seat_observation(make):
    env = make("watten", target=3)
    env.reset(seed=3)
    unwrapped = env.unwrapped
    state = unwrapped.state()  # a method again: the engine state is `game_state`
    codec = unwrapped.codec
    assert state.shape == unwrapped.state_space.shape == (4 * codec.obs_size,)
    assert unwrapped.state_space.contains(state)
    seat2 = codec.observe(unwrapped.game_state.view(2))
    assert np.array_equal(state[2 * codec.obs_size:3 * codec.obs_size], seat2)


def test_aec_infos_hold_legal_actions_and_the_view():
    env = wpz.env("wasserloch", rounds=1)
    env.reset(seed=4)
    agent = env.agent_selection
    seat = int(agent.split("_")[1])
    state = env.unwrapped.game_state
    info = env.infos[agent]
    assert info["legal_actions"] == [str(a) for a in state.legal_actions(seat)]
    assert info["view"] == state.view(seat)
    waiting = next(a for a in env.agents if a != agent)
    assert env.infos[waiting]["legal_actions"] == [] and env.infos[waiting]["view"]["seat"] != seat


@pytest.mark.parametrize("name", GAMES)
def test_bounds_are_exact_for_one_hots_and_hold_in_play(name):
    game = wasserspiele.load(name, **FAST[name])
    codec = codec_for(game)
    low, high = codec.bounds()
    assert (high <= 1.0).any() and (low <= high).all()  # one-hots and flags declare [0, 1]
    for state, seat in random_positions(name, range(3)):
        obs = codec.observe(state.view(seat))
        assert (obs >= low).all() and (obs <= high).all(), [
            (codec.layout, i) for i in np.flatnonzero((obs < low) | (obs > high))][:1]


OPPONENTS = ["easy", "medium", "hard", "expert", "ismcts:iterations=4", "heuristic", "random", "learned",
             "learned:search=4", "python:bots.outside_policy:make"]


@pytest.mark.parametrize("spec", OPPONENTS)
def test_gymnasium_accepts_every_level_and_spec(spec):
    # tiny search budgets: the levels' own budgets are overridden per kind
    env = WasserspieleEnv("wasserloch", opponents=spec, rounds=1,
                          opponent_options={"ismcts": {"iterations": 4, "seconds": None}})
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=1)
    assert info["legal_actions"] and info["view"]["seat"] == 0


def test_gymnasium_refuses_a_bad_spec_naming_it():
    with pytest.raises(BadOption, match="ismcts:iterationz=3"):
        WasserspieleEnv("wasserloch", opponents="ismcts:iterationz=3", rounds=1)


@pytest.mark.parametrize("name", GAMES)
def test_infos_read_later_still_show_the_position_they_were_issued_for(name):
    """Infos are built when read (common.SeatInfo); one read after the env has moved on
    (the episode replayed from its seed) gives what it would have given at once."""
    env = wpz.env(name, **FAST[name])
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    kept = []  # (info, what it must hold) at every step, read only at the end
    for _step in range(60):
        if env.unwrapped.game_state.is_terminal():
            break
        agent = env.agent_selection
        state = env.unwrapped.game_state
        seat = env.unwrapped._seat[agent]
        kept.append((env.infos[agent], {"legal_actions": [str(a) for a in state.legal_actions(seat)],
                                        "view": state.view(seat)}))
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    env.reset(seed=8)
    assert len(kept) >= 8
    for info, expected in kept:
        assert info == expected and info["view"] == expected["view"]


def test_parallel_infos_read_later_are_those_of_their_step():
    env = wpz.parallel_env("watten", target=3)
    obs, infos = env.reset(seed=2)
    views = {a: env.game_state.view(env._seat[a]) for a in env.agents}
    acting = next(a for a in env.agents if obs[a]["action_mask"].any())
    legal = [str(x) for x in env.game_state.legal_actions(env._seat[acting])]
    env.step({acting: int(np.flatnonzero(obs[acting]["action_mask"])[0])})
    assert {a: infos[a]["view"] for a in env.agents} == views
    assert infos[acting]["legal_actions"] == legal


def test_an_info_is_a_plain_dict_to_every_reader():
    import copy
    import json
    import pickle
    env = wpz.env("seven_waters")
    env.reset(seed=3)
    agent = env.agent_selection
    state = env.unwrapped.game_state
    seat = env.unwrapped._seat[agent]
    plain = {"legal_actions": [str(a) for a in state.legal_actions(seat)], "view": state.view(seat)}
    readers = [json.dumps, lambda i: json.dumps(i, indent=1), dict, lambda i: {**i}, copy.copy, copy.deepcopy,
               lambda i: pickle.loads(pickle.dumps(i)), lambda i: list(i.items()), len, repr]
    for read in readers:
        env.reset(seed=3)
        info = env.infos[env.agent_selection]
        assert isinstance(info, dict)
        assert read(info) == read(plain), read
