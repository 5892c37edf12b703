"""PettingZoo AEC environments: PettingZoo's own api_test and seed_test for every game."""

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from wasserspiele.adapters import pettingzoo as wpz
from wasserspiele.adapters.codecs import EncodingError

from .helpers import FAST, GAMES


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_test(name):
    api_test(wpz.env(name, **FAST[name]), num_cycles=300, verbose_progress=False)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_seed_test(name):
    seed_test(lambda: wpz.env(name, **FAST[name]), num_cycles=100)


def play_out(env, seed):
    """A whole episode with mask-respecting random actions; returns summed rewards per agent."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(max_iter=100_000):
        obs, reward, term, trunc, _info = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        state = env.unwrapped.game_state
        seat = int(agent.split("_")[1])
        legal = state.legal_actions(seat)
        mask = obs["action_mask"]
        assert mask.sum() == len(legal)  # the mask is exactly the legal set
        codec = env.unwrapped.codec
        assert {codec.action_index(a, state.view(seat)) for a in legal} == set(np.flatnonzero(mask))
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return total


@pytest.mark.parametrize("name", GAMES)
def test_rewards_come_at_the_end_and_sum_to_zero(name):
    env = wpz.env(name, **FAST[name])
    total = play_out(env, seed=3)
    assert abs(sum(total.values())) < 1e-9
    assert max(total.values()) > 0
    state = env.unwrapped.game_state
    assert state.is_terminal()
    mean = sum(state.returns()) / len(state.returns())
    assert total == {f"player_{s}": r - mean for s, r in enumerate(state.returns())}


def test_watten_partners_share_the_reward():
    env = wpz.env("watten", target=3)
    total = play_out(env, seed=8)
    assert total["player_0"] == total["player_2"] == -total["player_1"] == -total["player_3"] == 0.5 * np.sign(total["player_0"])


def test_a_wildwasser_pick_stays_hidden_from_the_others():
    observations = {}
    for pick in (0, 1):
        env = wpz.env("wildwasser", players=3)
        env.reset(seed=11)
        assert env.agent_selection == "player_0"
        mask = env.observe("player_0")["action_mask"]
        legal = np.flatnonzero(mask)
        env.step(int(legal[pick]))
        assert env.agent_selection == "player_1"  # the simultaneous picks, one seat after the other
        observations[pick] = (env.observe("player_1")["observation"], env.observe("player_0")["observation"])
    assert np.array_equal(observations[0][0], observations[1][0])      # seat 1 cannot tell the picks apart
    assert not np.array_equal(observations[0][1], observations[1][1])  # seat 0 knows its own pick


def test_illegal_action_is_refused_with_the_reason():
    env = wpz.env("wasserloch", rounds=1)
    env.reset(seed=2)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(EncodingError, match="is not legal now"):
        env.step(illegal)


@pytest.mark.parametrize("name", GAMES)
def test_render_is_text(name):
    env = wpz.env(name, render_mode="ansi", **FAST[name])
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and len(text) > 20 and "[bold]" not in text


def test_same_seed_same_game_different_seed_other_game():
    def first_obs(seed):
        env = wpz.env("seven_waters")
        env.reset(seed=seed)
        return env.observe(env.agent_selection)["observation"]
    assert np.array_equal(first_obs(4), first_obs(4))
    assert not np.array_equal(first_obs(4), first_obs(5))
