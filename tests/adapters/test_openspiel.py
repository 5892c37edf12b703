"""OpenSpiel registrations: pyspiel's random simulation test for every game, chance nodes
that reproduce the engine's own draws exactly, observers, and OpenSpiel's ISMCTS."""

import random
from collections import defaultdict

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed (pip install -e .[rl])")

import wasserspiele  # noqa: E402
from wasserspiele import load  # noqa: E402
from wasserspiele.adapters import openspiel as wos  # noqa: E402
from wasserspiele.adapters.codecs import codec_for  # noqa: E402

from .helpers import FAST, GAMES  # noqa: E402

# pyspiel parameters: short games (random_sim_test checks every node thoroughly).
PARAMS = defaultdict(dict, {"wasserloch": {"rounds": 1}, "watten": {"target": 2, "signal_detection_p": 0.5},
                            "wildwasser": {"players": 2}})


def test_every_game_is_registered():
    assert wos.GAME_NAMES == [f"wasserspiele_{n}" for n in wasserspiele.game_names()]
    assert set(wos.GAME_NAMES) <= set(pyspiel.registered_names())
    assert wos.register() == wos.GAME_NAMES  # idempotent


@pytest.mark.parametrize("name", GAMES)
def test_pyspiel_random_sim_test(name):
    game = pyspiel.load_game(f"wasserspiele_{name}", PARAMS[name])
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_serialized_states_come_back_equal():
    game = pyspiel.load_game("wasserspiele_watten", {"target": 2})
    rs = np.random.RandomState(1)
    state = game.new_initial_state()
    for _ in range(120):
        if state.is_terminal() or (_ > 80 and not state.is_chance_node()):
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rs.randint(len(outcomes))][0])
        else:
            state.apply_action(int(rs.choice(state.legal_actions())))
    game2, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(back) == str(state) and back.history() == state.history()
    assert back.legal_actions() == state.legal_actions()
    seat = state.current_player()
    assert seat >= 0 and back.view(seat) == state.view(seat)
    assert game2.get_parameters()["target"] == 2


class RecordingRandom(random.Random):
    """A generator that notes every uniform choice it makes (what OpenSpiel's chance nodes are)."""

    def __init__(self, seed):
        super().__init__(seed)
        self.choices = []

    def _randbelow(self, n):
        k = super()._randbelow(n)
        self.choices.append(k)
        return k


@pytest.mark.parametrize("name", GAMES)
def test_chance_nodes_reproduce_the_engines_own_draws(name):
    """Feed the choices a seeded generator made in the engine to the chance nodes: the
    OpenSpiel game deals exactly the same game, and players' actions map one to one."""
    engine_game = wasserspiele.load(name, **FAST[name])
    recorder = RecordingRandom(21)
    truth = engine_game.new_game(rng=recorder)
    moves = random.Random(4)
    game = pyspiel.load_game(f"wasserspiele_{name}", FAST[name])
    state = game.new_initial_state()
    codec = codec_for(engine_game)
    used = 0
    for _ in range(60):
        while state.is_chance_node():
            k = recorder.choices[used]
            assert k in dict(state.chance_outcomes())
            state.apply_action(k)
            used += 1
        assert used == len(recorder.choices)
        if truth.is_terminal():
            break
        seat = truth.current_seat
        assert state.current_player() == seat
        assert state.view(seat) == truth.view(seat)
        action = moves.choice(truth.legal_actions(seat))
        index = codec.action_index(action, truth.view(seat))
        assert index in state.legal_actions()
        assert state.action_to_string(seat, index) == str(action)
        truth.apply(action, seat)
        state.apply_action(index)
    assert used > 10  # the deal alone draws this many


def test_a_deck_is_a_sequence_of_shrinking_uniform_nodes():
    state = pyspiel.load_game("wasserspiele_wasserloch").new_initial_state()
    sizes = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        sizes.append(len(outcomes))
        state.apply_action(outcomes[-1][0])
    assert sizes == list(range(64, 1, -1))  # Fisher-Yates: 64, 63, ..., 2


def test_a_shuffle_runs_the_engine_once_not_once_per_node(monkeypatch):
    """The 63 nodes of a deck are known ahead (`Distribution.node_plan`): the adapter
    answers them without re-running the engine's step after each; a clone taken in the
    middle of the deal goes on independently to the same deal as the engine's."""
    from wasserspiele.adapters import openspiel as adapter
    runs = []
    settle = adapter.WasserspieleState._settle
    monkeypatch.setattr(adapter.WasserspieleState, "_settle", lambda self: (runs.append(1), settle(self))[1])
    game = pyspiel.load_game("wasserspiele_wasserloch")
    game.first_need = None  # count the first run too
    state = game.new_initial_state()
    for _ in range(30):
        state.apply_action(0)
    half = state.clone()
    while state.is_chance_node():
        state.apply_action(0)
    assert len(runs) == 2  # the deal's start, and once all 63 outcomes are chosen
    while half.is_chance_node():
        half.apply_action(half.chance_outcomes()[-1][0])
    engine = load("wasserloch").new_game(chooser=adapter.Script(64, [0] * 30 + list(range(33, 0, -1))))
    assert half.engine_state().chance.used_setup() == engine.chance.used_setup()
    assert state.engine_state().chance.used_setup() != engine.chance.used_setup()


def test_watten_signal_check_is_one_two_way_node():
    from wasserspiele.adapters.openspiel import NeedChance, Script
    check = load("watten", signal_detection_p=0.25).signal_check
    with pytest.raises(NeedChance) as need:
        check.build(Script(32))
    assert need.value.outcomes == [(0, 0.25), (1, 0.75)]
    assert check.build(Script(32, [0])) < 0.25 <= check.build(Script(32, [1]))
    with pytest.raises(ValueError, match="more than the declared 2"):
        load("wasserloch").new_game(chooser=Script(2))


def test_the_adapter_reads_declared_chance_not_random_internals():
    import wasserspiele.adapters.openspiel as adapter
    source = open(adapter.__file__, encoding="utf-8").read()
    assert "_randbelow" not in source and "random.Random)" not in source


def test_observer_tensors_and_strings():
    game = pyspiel.load_game("wasserspiele_watten", {"target": 2})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    seat = state.current_player()
    codec = codec_for(wasserspiele.load("watten"))
    obs = np.asarray(state.observation_tensor(seat))
    assert obs.shape == (codec.obs_size,) == tuple(game.observation_tensor_shape())
    assert np.array_equal(obs, codec.observe(state.view(seat)))
    assert np.array_equal(np.asarray(state.information_state_tensor(seat)), obs)
    assert state.observation_string(seat) != state.observation_string((seat + 1) % 4)
    assert "own:" in state.information_state_string(seat)


@pytest.mark.parametrize("name", GAMES)
def test_resampled_states_look_the_same_to_the_player(name):
    game = pyspiel.load_game(f"wasserspiele_{name}", PARAMS[name])
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 5:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            continue
        seat = state.current_player()
        world = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert world.view(seat) == state.view(seat)
        assert world.legal_actions() == state.legal_actions()
        assert world.information_state_string(seat) == state.information_state_string(seat)
        checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked == 5


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_ismcts_bot_plays(name):
    from open_spiel.python.algorithms import ismcts, mcts
    game = pyspiel.load_game(f"wasserspiele_{name}", PARAMS[name])
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, max_simulations=4, random_state=rs)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and decisions < 2:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rs.randint(len(outcomes))][0])
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions == 2


def test_bad_chance_outcome_and_bad_parameters():
    state = pyspiel.load_game("wasserspiele_wasserloch").new_initial_state()
    with pytest.raises(Exception, match="chance outcome 64"):
        state.apply_action(64)
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("wasserspiele_wasserloch", {"players": 7})


def test_public_observer_is_the_spectator_view():
    from open_spiel.python.observation import make_observation
    game = pyspiel.load_game("wasserspiele_wasserloch", {"rounds": 1})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    private = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    public.set_from(state, 0)
    seat0 = public.tensor.copy()
    public.set_from(state, 1)
    assert np.array_equal(seat0, public.tensor)            # nobody's hand in it
    private.set_from(state, 0)
    assert not np.array_equal(seat0, private.tensor)
    assert public.string_from(state, 0) == public.string_from(state, 1)
    with pytest.raises(ValueError, match="hidden information"):
        make_observation(game, pyspiel.IIGObservationType(
            perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


def test_a_game_ends_at_its_declared_max_game_length():
    """Wildwasser's meerkat loop (every seat picks the meerkat and takes its action) never
    ends the game by the rules: the state is terminal once its history, chance outcomes
    included, reaches max_game_length, with returns of 0 for everybody."""
    game = pyspiel.load_game("wasserspiele_wildwasser", {"players": 2})
    names = game.codec.action_names
    state, rng = game.new_initial_state(), random.Random(0)
    while not state.is_terminal():
        assert state.move_number() < game.max_game_length()
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            legal = state.legal_actions()
            loop = [a for a in legal if "meerkat" in names[a] or names[a] == "action"]
            state.apply_action(loop[0] if loop else legal[0])
    assert state.move_number() == len(state.history()) == game.max_game_length() == 5000
    assert not state.engine_state().is_terminal()  # cut off, not finished
    assert state.current_player() == pyspiel.PlayerId.TERMINAL and state.legal_actions() == []
    assert state.returns() == [0.0, 0.0]
    with pytest.raises(Exception, match="max_game_length"):
        state.apply_action(0)


@pytest.mark.parametrize("name", GAMES)
def test_the_environments_count_a_games_length_as_openspiel_does(name):
    """The environments' `game_length` (decisions plus the chance nodes of the engine's
    draws) is OpenSpiel's move number at the same position: the same bound cuts both."""
    from wasserspiele.adapters.common import game_length, new_counted_game
    engine_game = wasserspiele.load(name, **FAST[name])
    recorder = RecordingRandom(5)
    truth = new_counted_game(engine_game, rng=recorder)
    moves = random.Random(2)
    game = pyspiel.load_game(f"wasserspiele_{name}", FAST[name])
    state = game.new_initial_state()
    codec = codec_for(engine_game)
    used = checked = 0
    while True:
        while state.is_chance_node():
            state.apply_action(recorder.choices[used])
            used += 1
        assert game_length(truth) == state.move_number() == len(state.history())
        checked += 1
        if truth.is_terminal():
            break
        seat = truth.current_seat
        action = moves.choice(truth.legal_actions(seat))
        state.apply_action(codec.action_index(action, truth.view(seat)))
        truth.apply(action, seat)
    assert state.is_terminal() and checked > 10
