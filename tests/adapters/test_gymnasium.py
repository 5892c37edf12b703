"""Gymnasium single-seat environments: gymnasium's env checker for every game, registration,
seeding, masks and bad input."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import wasserspiele
from wasserspiele.adapters.gymnasium import ENV_IDS, WasserspieleEnv
from wasserspiele.core.errors import BadOption, IllegalAction

from .helpers import FAST, GAMES

IDS = {name: f"wasserspiele/{wasserspiele.core.registry.manifest(name).class_name}-v0" for name in GAMES}


def test_every_game_is_registered():
    assert sorted(ENV_IDS) == sorted(IDS.values())
    assert {"wasserspiele/Wasserloch-v0", "wasserspiele/SevenWaters-v0", "wasserspiele/Watten-v0",
            "wasserspiele/Wildwasser-v0"} <= set(ENV_IDS)  # the ids the docs name
    for env_id in ENV_IDS:
        assert env_id in gymnasium.envs.registry


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_env_checker(name):
    env = gymnasium.make(IDS[name], opponents="heuristic" if name != "wildwasser" else "random", **FAST[name])
    check_env(env.unwrapped, skip_render_check=False)
    env.close()


def run_episode(env, seed, policy_seed=0):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    total, steps, observations = 0.0, 0, [obs]
    while True:
        assert np.array_equal(env.unwrapped.action_masks(), info["action_mask"].astype(bool))
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        observations.append(obs)
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps, observations, info


@pytest.mark.parametrize("name", GAMES)
def test_a_masked_episode_ends_with_the_seat_zero_sum_return(name):
    env = gymnasium.make(IDS[name], **FAST[name])
    total, steps, _obs, info = run_episode(env, seed=4)
    state = env.unwrapped.state
    assert state.is_terminal() and steps > 0
    r = state.returns()
    assert total == pytest.approx(r[0] - sum(r) / len(r))
    assert info["returns"] == r and "illegal_action" not in info


def test_same_seed_same_episode():
    a = run_episode(gymnasium.make(IDS["watten"], opponents="heuristic", target=3), seed=7)
    b = run_episode(gymnasium.make(IDS["watten"], opponents="heuristic", target=3), seed=7)
    assert a[0] == b[0] and a[1] == b[1]
    assert all(np.array_equal(x, y) for x, y in zip(a[2], b[2]))
    c = run_episode(gymnasium.make(IDS["watten"], opponents="heuristic", target=3), seed=8)
    assert not all(np.array_equal(x, y) for x, y in zip(a[2], c[2]))


def test_the_agent_can_take_any_seat_against_named_bots():
    env = WasserspieleEnv("wasserloch", seat=2, opponents=["heuristic", "random"], rounds=1)
    obs, info = env.reset(seed=1)
    assert env.state.current_seat == 2
    assert env.state.view(2)["seat"] == 2 and obs[2] == 1.0  # the seat one-hot


def test_illegal_action_ends_the_episode_or_raises():
    env = WasserspieleEnv("wasserloch", rounds=1)
    _obs, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _obs, reward, terminated, _trunc, info = env.step(illegal)
    assert terminated and reward == -1.0 and "is not legal now" in info["illegal_action"]
    strict = WasserspieleEnv("wasserloch", rounds=1, illegal_action="raise")
    strict.reset(seed=3)
    with pytest.raises(IllegalAction, match="is not legal now"):
        strict.step(illegal)


def test_bad_configuration_gets_a_clear_error():
    with pytest.raises(BadOption, match="unknown bot 'grandmaster'"):
        WasserspieleEnv("wasserloch", opponents="grandmaster")
    with pytest.raises(ValueError, match="2 bot names needed"):
        WasserspieleEnv("wasserloch", opponents=["random"])
    with pytest.raises(ValueError, match="seat must be 0..2"):
        WasserspieleEnv("wasserloch", seat=3)
    with pytest.raises(BadOption):
        WasserspieleEnv("wasserloch", players=9)
    env = WasserspieleEnv("wasserloch")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="outside 0..63"):
        env.step(64)


def test_a_loaded_game_can_be_passed():
    env = WasserspieleEnv(wasserspiele.load("wasserloch", players=2, rounds=1))
    obs, _info = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape


def test_ismcts_opponents_with_their_settings():
    env = WasserspieleEnv("wasserloch", opponents=["ismcts", "random"], rounds=1,
                          opponent_options={"ismcts": {"iterations": 20}})
    _obs, info = env.reset(seed=5)
    assert env.bots[1].kind != env.bots[2].kind
    done = False
    while not done:
        _obs, _r, done, _t, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert env.state.is_terminal()
    with pytest.raises(BadOption, match="the ismcts bot has no setting 'iterationz'"):
        WasserspieleEnv("wasserloch", opponents="ismcts", opponent_options={"ismcts": {"iterationz": 5}})


def _step_masked(env, info, rng):
    return env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))


@pytest.mark.parametrize("name", GAMES)
def test_a_game_reaching_max_game_length_is_truncated(name):
    """The bound is the manifest's (what OpenSpiel declares); shortened here so that every
    game reaches it.  The cut-off episode: truncated, reward 0, nothing legal, over."""
    from wasserspiele.adapters.common import game_length, max_game_length
    env = WasserspieleEnv(name, **FAST[name])
    assert env.max_game_length == max_game_length(env.game) == env.game.manifest.limits.game_length(env.game.options)
    _obs, info = env.reset(seed=2)
    env.max_game_length = game_length(env.state) + 3
    rng = np.random.default_rng(0)
    for _ in range(10):
        _obs, reward, terminated, truncated, info = _step_masked(env, info, rng)
        if terminated or truncated:
            break
    assert truncated and not terminated and reward == 0.0
    assert not env.state.is_terminal() and info["truncated_at"] == game_length(env.state) >= env.max_game_length
    assert not info["action_mask"].any() and not env.action_masks().any() and info["legal_actions"] == []
    with pytest.raises(RuntimeError, match="the episode is over: call reset()"):
        env.step(0)
    _obs, info = env.reset(seed=2)  # a new episode is not cut off at once
    assert info["action_mask"].any()


def test_after_an_illegal_index_ends_the_episode_no_step_is_taken():
    env = gymnasium.make(IDS["wasserloch"], rounds=1).unwrapped
    _obs, info = env.reset(seed=1)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _obs, reward, terminated, truncated, info = env.step(illegal)
    assert reward == -1.0 and terminated and not truncated
    assert info["legal_actions"] == [] and not info["action_mask"].any() and not env.action_masks().any()
    moves = len(env.state.history)
    with pytest.raises(RuntimeError, match="the episode is over: call reset()"):
        env.step(legal)
    assert len(env.state.history) == moves


def test_numpy_integers_are_seats_and_other_types_are_not_actions():
    env = gymnasium.make(IDS["wasserloch"], seat=np.int64(1), rounds=1)
    assert env.unwrapped.seat == 1 and type(env.unwrapped.seat) is int
    with pytest.raises(ValueError, match=r"seat must be 0..2 \(an integer\).*got True"):
        WasserspieleEnv("wasserloch", seat=True)
    with pytest.raises(ValueError, match="got 1.0"):
        WasserspieleEnv("wasserloch", seat=1.0)
    env.reset(seed=0)
    for bad in ("3", True, 1.5, None):
        with pytest.raises(ValueError, match="not an integer"):
            env.step(bad)


def test_options_for_a_bot_kind_no_opponent_is_are_checked_by_name_too():
    """One opponent_options may serve any opponents (kinds not playing are allowed), but a
    misspelt setting or kind is refused whether that kind plays now or not."""
    with pytest.raises(BadOption, match="the ismcts bot has no setting 'iteratons'"):
        WasserspieleEnv("wasserloch", opponents="random", opponent_options={"ismcts": {"iteratons": 3}})
    with pytest.raises(BadOption, match="'ismtcs' is not a bot kind"):
        WasserspieleEnv("wasserloch", opponents="ismcts", opponent_options={"ismtcs": {"iterations": 3}})
    with pytest.raises(BadOption, match="must map setting names to values"):
        WasserspieleEnv("wasserloch", opponent_options={"ismcts": 3})
    env = WasserspieleEnv("wasserloch", opponents="random", opponent_options={"ISMCTS": {"iterations": 5}})
    assert env.opponent_options == {"ismcts": {"iterations": 5}}
    # a level names its kind: the expert is an ismcts bot, so its settings apply
    env = WasserspieleEnv("wasserloch", opponents=["expert", "random"], rounds=1,
                          opponent_options={"ismcts": {"iterations": 5}})
    assert env.bots == {} and env.opponent_options == {"ismcts": {"iterations": 5}}


def test_render_before_reset_says_to_call_reset():
    env = gymnasium.make(IDS["watten"], render_mode="ansi").unwrapped
    with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
        env.render()
    env.reset(seed=0)
    assert isinstance(env.render(), str)


def test_the_mask_method_the_docs_show_works_through_gymnasium_make():
    """docs/encodings.md and this adapter's docstring show how to reach `action_masks()`
    on what `gymnasium.make` returns (a wrapped env): every form they show must work."""
    import re
    from pathlib import Path

    import wasserspiele.adapters.gymnasium as adapter
    doc = (Path(__file__).resolve().parents[2] / "docs" / "encodings.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"`(env\.[^`]*action_masks[^`]*)`", doc + adapter.__doc__))
    assert shown, "the docs no longer show how to read the mask"
    env = gymnasium.make(IDS["wasserloch"])
    _obs, info = env.reset(seed=0)
    for expression in shown:
        mask = eval(expression, {"env": env})  # noqa: S307 - the docs' own snippets
        assert np.array_equal(mask, info["action_mask"].astype(bool)), expression
