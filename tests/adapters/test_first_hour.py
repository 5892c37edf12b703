"""A researcher's first hour with the adapters: the standard libraries' own tools and
common training code (Gymnasium's vectorisers and wrappers, PettingZoo's conversions,
OpenSpiel's observers and algorithms) used as their documentation says, beyond the API
checks of the other adapter tests.  The Gymnasium and OpenSpiel sections failed before
their fixes; the last section keeps what docs/encodings.md says of the tools true."""

from __future__ import annotations

import copy
import pickle

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AsyncVectorEnv

import wasserspiele
from wasserspiele.adapters import pettingzoo as wpz
from wasserspiele.adapters.gymnasium import WasserspieleEnv
from wasserspiele.core.errors import IllegalAction

from .helpers import FAST

FOUR = ["wasserloch", "seven_waters", "watten", "wildwasser"]
IDS = {name: f"wasserspiele/{wasserspiele.core.registry.manifest(name).class_name}-v0" for name in FOUR}


def _illegal_index(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask == 0)[0])


# -- Gymnasium ---------------------------------------------------------------------

def test_illegal_action_raise_survives_pickling_with_its_reason():
    env = WasserspieleEnv("watten", illegal_action="raise", **FAST["watten"])
    _obs, info = env.reset(seed=2)
    with pytest.raises(IllegalAction) as caught:
        env.step(_illegal_index(info["action_mask"]))
    error = caught.value
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error) and str(back) == str(error)
    assert (back.action, back.seat, back.reason) == (error.action, error.seat, error.reason)
    assert back.reason.code == error.reason.code
    # Gymnasium's AsyncVectorEnv raises a worker's error again as type(error)(error)
    again = type(error)(back)
    assert str(again) == str(error) and again.seat == 0


@pytest.mark.filterwarnings("ignore:.*ERROR:")  # AsyncVectorEnv logs the worker's error
def test_async_vector_env_reraises_the_illegal_action_and_closes():
    envs = AsyncVectorEnv([lambda: gymnasium.make(IDS["watten"], illegal_action="raise", **FAST["watten"])
                           for _ in range(2)])
    try:
        _obs, info = envs.reset(seed=0)
        with pytest.raises(IllegalAction, match="is not legal now"):
            envs.step(np.array([_illegal_index(m) for m in info["action_mask"]]))
    finally:
        envs.close()  # raised EOFError when the error could not be rebuilt
    assert envs.closed


def _truncations(envs, steps):
    _obs, info = envs.reset(seed=1)
    out = []
    for _ in range(steps):
        actions = np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in info["action_mask"]])
        _obs, _r, terminated, truncated, info = envs.step(actions)
        assert not terminated.any()
        out.append(truncated.tolist())
    envs.close()
    return out


@pytest.mark.parametrize("name", FOUR)
def test_make_vec_takes_max_episode_steps_as_the_single_table_envs_do(name):
    """make_vec hands `max_episode_steps` to every vector entry point; the kernel env took
    it for a game option ("watten has no option 'max_episode_steps'")."""
    kernel = gymnasium.make_vec(IDS[name], 2, max_episode_steps=2, **FAST[name])
    assert kernel.unwrapped.__class__.__module__ == f"wasserspiele.games.{name}.vector"
    single = gymnasium.make_vec(IDS[name], 2, vectorization_mode="sync", max_episode_steps=2, **FAST[name])
    cut = _truncations(kernel, 7)
    assert cut == _truncations(single, 7)  # TimeLimit's count of the agent's steps
    assert [row[0] for row in cut] == [False, True, False, False, True, False, False]
    with pytest.raises(ValueError, match="max_episode_steps must be a positive integer"):
        gymnasium.make_vec(IDS[name], 2, max_episode_steps=0, **FAST[name])


def _copies(env):
    return copy.deepcopy(env), pickle.loads(pickle.dumps(env))


def test_copies_of_an_env_not_reset_yet_deal_different_games_and_seeded_ones_the_same():
    """Gymnasium makes an env's generator at the first reset without a seed, from the
    operating system (Env.reset); ours was made in the constructor, so every copy of a
    fresh env (deepcopy, pickle, a forked worker) dealt the same sequence of games."""
    gym = gymnasium.make(IDS["watten"], **FAST["watten"])
    first, second = _copies(gym)
    assert first.unwrapped.reset()[1]["view"] != second.unwrapped.reset()[1]["view"]
    for make in (wpz.raw_env, wpz.parallel_env):
        env = make("watten", **FAST["watten"])
        first, second = _copies(env)
        first.reset()
        second.reset()
        assert first.game_state.view(0) != second.game_state.view(0)  # seat 0's hand
    # a seeded env's copy goes on with the same games (reproducibility after pickling)
    gym.reset(seed=4)
    first, second = _copies(gym)
    for _ in range(2):
        assert first.reset()[1]["view"] == second.reset()[1]["view"] == gym.reset()[1]["view"]


def test_async_workers_sharing_one_fresh_env_deal_different_games():
    env = gymnasium.make(IDS["watten"], **FAST["watten"])
    envs = AsyncVectorEnv([lambda: env, lambda: env])  # each worker gets a copy (forked or pickled)
    try:
        _obs, info = envs.reset()
        assert info["view"][0] != info["view"][1]
    finally:
        envs.close()


# -- OpenSpiel ---------------------------------------------------------------------

def _decisions(game, seed, count):
    """States at the first `count` decisions of a random OpenSpiel game."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    found = 0
    while not state.is_terminal() and found < count:
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            continue
        yield state
        found += 1
        state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("name", FOUR)
def test_openspiel_private_observation_is_only_what_the_spectator_cannot_see(name):
    import json

    import pyspiel
    from open_spiel.python.observation import make_observation

    import wasserspiele.adapters.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game(f"wasserspiele_{name}", FAST[name])
    kind = pyspiel.IIGObservationType
    private = make_observation(game, kind(public_info=False, perfect_recall=False,
                                          private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER))
    public = make_observation(game, kind(public_info=True, perfect_recall=False,
                                         private_info=pyspiel.PrivateInfoType.NONE))
    both = make_observation(game, kind(perfect_recall=False))
    for state in _decisions(game, seed=5, count=12):
        public.set_from(state, 0)
        spectator = state.view(None)
        for player in range(game.num_players()):
            both.set_from(state, player)
            private.set_from(state, player)
            differs = both.tensor != public.tensor
            # the player's values where the spectator's differ, and nothing where they agree
            assert np.array_equal(private.tensor[differs], both.tensor[differs])
            assert not private.tensor[~differs].any()
            mine = state.view(player)
            text = private.string_from(state, player)
            part = json.loads(text) if text else {}
            assert set(part) == {key for key in mine if mine[key] != spectator.get(key)}
            assert "seat" in part  # which seat the player is: no spectator knows it


def test_openspiel_observation_kinds_without_the_players_information_are_empty_or_refused():
    import pyspiel
    from open_spiel.python.observation import make_observation

    import wasserspiele.adapters.openspiel  # noqa: F401

    game = pyspiel.load_game("wasserspiele_wasserloch", FAST["wasserloch"])
    state = next(_decisions(game, seed=1, count=1))
    kind = pyspiel.IIGObservationType
    nothing = make_observation(game, kind(public_info=False, perfect_recall=False,
                                          private_info=pyspiel.PrivateInfoType.NONE))
    nothing.set_from(state, 0)
    assert not nothing.tensor.any() and nothing.string_from(state, 0) == ""
    # a public observation "with perfect recall" used to be the spectator's present view,
    # which merges histories a perfect-recall algorithm must tell apart
    for public, private in ((True, pyspiel.PrivateInfoType.NONE), (False, pyspiel.PrivateInfoType.SINGLE_PLAYER)):
        with pytest.raises(ValueError, match="perfect recall"):
            make_observation(game, kind(public_info=public, perfect_recall=True, private_info=private))


def test_openspiel_generate_playthrough_keeps_public_information_out_of_private_strings():
    import json

    from open_spiel.python.algorithms import generate_playthrough

    import wasserspiele.adapters.openspiel  # noqa: F401

    text = generate_playthrough.playthrough("wasserspiele_wasserloch(players=2,rounds=1)", action_sequence=None,
                                            alsologtostdout=False)
    private = [line.split(" = ", 1)[1] for line in text.splitlines() if line.startswith("PrivateObservationString(")]
    assert private
    assert any(value != '""' for value in private)
    assert "GameType.provides_factored_observation_string = True" in text  # public and private strings
    for value in private:
        body = value[1:-1]  # the playthrough quotes the string without escaping its quotes
        fields = set(json.loads(body)) if body else set()
        assert fields <= {"seat", "hand"}, fields  # Wasserloch's only secret is the own hand


# -- what the docs say the libraries' own tools do (docs/encodings.md, "With the libraries'
#    own tools"): kept working --------------------------------------------------------

@pytest.mark.parametrize("name", FOUR)
def test_gymnasium_wrappers_under_same_step_autoreset(name):
    from gymnasium.vector import AutoresetMode, SyncVectorEnv
    from gymnasium.wrappers import FrameStackObservation, NormalizeObservation, RecordEpisodeStatistics

    def make():
        env = gymnasium.make(IDS[name], max_episode_steps=12, **FAST[name])
        return RecordEpisodeStatistics(FrameStackObservation(NormalizeObservation(env), 2))

    envs = SyncVectorEnv([make, make], autoreset_mode=AutoresetMode.SAME_STEP)
    _obs, info = envs.reset(seed=3)
    episodes = 0
    for _ in range(30):
        masks = info["action_mask"]
        _obs, _r, terminated, truncated, info = envs.step(np.array([np.flatnonzero(m)[0] for m in masks]))
        for i in np.flatnonzero(terminated | truncated):
            assert info["final_obs"][i].shape == (2, envs.single_observation_space.shape[-1])
            assert info["final_info"]["episode"]["l"][i] <= 12
            assert info["action_mask"][i].any()  # the next episode's first decision
            episodes += 1
    envs.close()
    envs.close()
    assert episodes >= 2


# PettingZoo's tests reset with options={"options": 1} and warn of Dict observations
@pytest.mark.filterwarnings("ignore:reset\\(options=\\.\\.\\.\\) ignored")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.parametrize("name", FOUR)
def test_pettingzoo_conversions_and_wrappers(name):
    from pettingzoo.test import api_test, parallel_api_test
    from pettingzoo.utils import wrappers
    from pettingzoo.utils.conversions import aec_to_parallel, parallel_to_aec, turn_based_aec_to_parallel

    api_test(parallel_to_aec(wpz.parallel_env(name, **FAST[name])), num_cycles=30)
    parallel_api_test(turn_based_aec_to_parallel(wpz.env(name, **FAST[name])), num_cycles=30)
    with pytest.raises(AssertionError, match="is_parallelizable"):  # a seat may act twice in a row
        aec_to_parallel(wpz.env(name, **FAST[name]))
    env = wrappers.TerminateIllegalWrapper(wpz.raw_env(name, **FAST[name]), illegal_reward=-1)
    env.reset(seed=1)
    offender = env.agent_selection
    env.step(_illegal_index(env.observe(offender)["action_mask"]))
    assert env.rewards[offender] == -1 and all(env.terminations.values())


@pytest.mark.parametrize("name", FOUR)
def test_openspiel_python_algorithms_play_every_game(name):
    import pyspiel
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import evaluate_bots, outcome_sampling_mccfr
    from open_spiel.python.bots import uniform_random

    import wasserspiele.adapters.openspiel  # noqa: F401

    game = pyspiel.load_game(f"wasserspiele_{name}", FAST[name])
    rng = np.random.RandomState(0)
    bots = [uniform_random.UniformRandomBot(p, rng) for p in range(game.num_players())]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert sum(returns) == pytest.approx(0) and max(returns) > 0
    env = rl_environment.Environment(game, seed=1)
    step = env.reset()
    while not step.last():
        player = step.observations["current_player"]
        assert len(step.observations["info_state"][player]) == game.information_state_tensor_size()
        step = env.step([step.observations["legal_actions"][player][0]])
    assert sum(step.rewards) == pytest.approx(0)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    solver.iteration()
    assert solver._infostates  # noqa: SLF001 - regrets were stored per information state
