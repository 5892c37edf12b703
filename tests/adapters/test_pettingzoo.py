"""PettingZoo AEC environments: PettingZoo's own api_test and seed_test for every game."""

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from wasserspiele.adapters import pettingzoo as wpz
from wasserspiele.adapters.codecs import EncodingError

from .helpers import FAST, GAMES


# PettingZoo's test resets with options={"options": 1}, which our envs warn about (common.py)
@pytest.mark.filterwarnings("ignore:reset\\(options=\\.\\.\\.\\) ignored")
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


def _meerkat_loop(env, agent, obs):
    """Wildwasser's endless line of play: every seat picks the meerkat and takes its action."""
    names = env.unwrapped.codec.action_names
    legal = np.flatnonzero(obs["action_mask"])
    loop = [i for i in legal if "meerkat" in names[i] or names[i] == "action"]
    return int(loop[0] if loop else legal[0])


def test_the_wildwasser_meerkat_loop_is_truncated_at_the_manifest_bound():
    """Both seats picking the meerkat and taking `action` round after round never ends the
    game (seed 0): the AEC env truncates it where OpenSpiel's max_game_length says."""
    from wasserspiele.adapters.common import game_length
    env = wpz.env("wildwasser", players=2)
    env.reset(seed=0)
    bound = env.unwrapped.max_game_length
    assert bound == 5000  # games/wildwasser/manifest.py
    steps, ended = 0, []
    for agent in env.agent_iter(max_iter=2 * bound):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            ended.append((reward, term, trunc, obs["action_mask"].any(), info["legal_actions"]))
            env.step(None)  # the truncated agents leave as terminated ones do
            continue
        env.step(_meerkat_loop(env, agent, obs))
        steps += 1
    state = env.unwrapped.game_state
    assert not state.is_terminal() and state.view(None)["round"] > 1000
    assert game_length(state) == bound and steps == len(state.history) < bound  # chance nodes count too
    assert ended == [(0.0, False, True, False, [])] * 2  # both agents: truncated, reward 0, no moves
    assert env.agents == []


@pytest.mark.parametrize("name", GAMES)
def test_every_game_is_truncated_at_its_bound_in_both_apis(name):
    from wasserspiele.adapters.common import game_length
    aec = wpz.raw_env(name, **FAST[name])
    aec.reset(seed=5)
    aec.max_game_length = game_length(aec.game_state) + 4
    while not any(aec.truncations.values()):
        assert not any(aec.terminations.values())
        aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
    assert all(aec.truncations.values()) and set(aec.rewards.values()) == {0.0}
    assert not any(aec.observe(a)["action_mask"].any() for a in aec.agents)
    assert game_length(aec.game_state) >= aec.max_game_length

    par = wpz.parallel_env(name, **FAST[name])
    observations, _infos = par.reset(seed=5)
    par.max_game_length = game_length(par.game_state) + 4
    while par.agents:
        actions = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()
                   if o["action_mask"].any()}
        observations, rewards, terminations, truncations, infos = par.step(actions)
    assert all(truncations.values()) and not any(terminations.values()) and set(rewards.values()) == {0.0}
    assert not any(o["action_mask"].any() for o in observations.values())
    assert all(i["legal_actions"] == [] for i in infos.values())


def test_before_reset_every_call_says_to_call_reset():
    raw = wpz.raw_env("watten", render_mode="ansi")
    for call in (lambda: raw.observe("player_0"), lambda: raw.step(0), raw.render, raw.state):
        with pytest.raises(RuntimeError, match=r"call reset\(\)"):
            call()
    par = wpz.parallel_env("watten", render_mode="ansi")
    with pytest.raises(RuntimeError, match=r"call reset\(\)"):
        par.render()


def test_a_forfeit_leaves_the_offender_no_moves():
    env = wpz.parallel_env("wasserloch", rounds=1, illegal_action="lose")
    observations, _infos = env.reset(seed=2)
    agent = next(a for a, o in observations.items() if o["action_mask"].any())
    illegal = int(np.flatnonzero(observations[agent]["action_mask"] == 0)[0])
    observations, rewards, terminations, _trunc, infos = env.step({agent: illegal})
    assert rewards[agent] == -1.0 and all(terminations.values()) and "is not legal now" in infos[agent]["illegal_action"]
    assert not any(o["action_mask"].any() for o in observations.values())
    assert all(i["legal_actions"] == [] for i in infos.values())


def test_ww_3_1_every_seat_picking_an_illegal_card_at_once_forfeits_and_every_index_is_checked():
    """WW-3.1: the picks are simultaneous.  Of three seats picking the same illegal index,
    only the first was penalised (the others got 0, as a seat that had played well), and a
    later seat's index that is no index at all (-1, "x") went unchecked when an earlier
    seat's was illegal, but raised when the earlier ones were legal."""
    env = wpz.parallel_env("wildwasser", players=3, illegal_action="lose")
    observations, _ = env.reset(seed=0)
    assert len(observations) == 3 and all(o["action_mask"].any() for o in observations.values())
    illegal = int(np.flatnonzero(np.logical_or.reduce([o["action_mask"] for o in observations.values()]) == 0)[0])
    _obs, rewards, terminations, _trunc, infos = env.step({a: illegal for a in observations})
    assert rewards == {a: -1.0 for a in observations} and all(terminations.values())
    assert all("is not legal now" in infos[a]["illegal_action"] for a in observations)

    for bad in (-1, "x"):
        env.reset(seed=0)
        with pytest.raises(EncodingError):
            env.step({"player_0": illegal, "player_1": bad, "player_2": illegal})
    env.reset(seed=0)
    legal = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()}
    _obs, rewards, *_rest, infos = env.step({**legal, "player_1": illegal})
    assert rewards == {"player_0": 0.0, "player_1": -1.0, "player_2": 0.0}
    assert "illegal_action" not in infos["player_0"] and "illegal_action" in infos["player_1"]


def test_an_action_for_an_agent_that_does_not_exist_is_refused():
    """`{"bogus": 3}` was dropped silently, and the real agents were then told to act."""
    env = wpz.parallel_env("wasserloch", rounds=1)
    observations, _ = env.reset(seed=2)
    agent = next(a for a, o in observations.items() if o["action_mask"].any())
    legal = int(np.flatnonzero(observations[agent]["action_mask"])[0])
    with pytest.raises(ValueError, match="no agent named 'bogus' \\(agents: player_0, player_1, player_2\\)"):
        env.step({agent: legal, "bogus": 3})


def test_a_counted_game_is_the_game_its_seed_deals():
    """The environments deal through `new_counted_game` (to count chance nodes): the very
    game `new_game(seed=…)` deals, which the infos' replay relies on."""
    import random

    import wasserspiele
    from wasserspiele.adapters.common import new_counted_game
    for name in GAMES:
        game = wasserspiele.load(name, **FAST[name])
        counted, plain = new_counted_game(game, seed=9), game.new_game(seed=9)
        rng = random.Random(1)
        while not plain.is_terminal():
            assert counted.state_json() == plain.state_json()
            seat = plain.to_move()[0]
            action = rng.choice(plain.legal_actions(seat))
            counted.apply(action, seat)
            plain.apply(action, seat)
        assert counted.is_terminal() and counted.state_json() == plain.state_json(), name
