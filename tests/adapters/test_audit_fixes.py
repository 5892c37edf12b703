"""Defects an audit of the research interfaces found: Gymnasium's standard vectorisers,
the observation bounds, OpenSpiel's perfect recall, and smaller ones; each test failed
before its fix."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv

import wasserspiele
from wasserspiele.adapters.gymnasium import WasserspieleEnv

from .helpers import FAST

_ROOT = Path(__file__).resolve().parents[2]
_DOCS = _ROOT / "docs"
FOUR = ["wasserloch", "seven_waters", "watten", "wildwasser"]
IDS = {name: f"wasserspiele/{wasserspiele.core.registry.manifest(name).class_name}-v0" for name in FOUR}


def _masked_steps(envs, steps, seed=0):
    """Random masked actions on every sub-env for `steps` steps; yields each step's results."""
    _obs, info = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]])
        out = envs.step(actions)
        info = out[4]
        yield out


# -- 1. Gymnasium's SyncVectorEnv, AsyncVectorEnv and make_vec --------------------------

@pytest.mark.parametrize("name", FOUR)
def test_sync_vector_env_plays_every_game_with_autoreset(name):
    envs = SyncVectorEnv([lambda: gymnasium.make(IDS[name], **FAST[name]) for _ in range(3)])
    ends = 0
    for obs, _r, terminated, truncated, info in _masked_steps(envs, 300):
        ends += int((terminated | truncated).sum())
        assert obs.shape == (3, envs.single_observation_space.shape[0])
        # every sub-env's view whole, as its env gave it: equal to the position's view
        for i, env in enumerate(envs.envs):
            assert info["_view"][i] and info["view"][i] == env.unwrapped.state.view(env.unwrapped.seat)
            assert list(info["legal_actions"][i]) == [str(a) for a in env.unwrapped._legal.values()]
    envs.close()
    assert ends >= 1  # an autoreset happened beside running episodes


def test_the_info_view_is_a_read_only_mapping_equal_to_the_view():
    env = WasserspieleEnv("watten", **FAST["watten"])
    _obs, info = env.reset(seed=3)
    view = info["view"]
    plain = env.state.view(0)
    assert view == plain and plain == view and dict(view) == plain
    assert not isinstance(view, dict)  # Gymnasium's vectorisers keep it whole (an object array)
    with pytest.raises(TypeError):
        view["seat"] = 1
    assert pickle.loads(pickle.dumps(view)) == plain and copy.deepcopy(view) == plain
    assert json.loads(json.dumps(dict(view))) == json.loads(json.dumps(plain))


def test_async_vector_env_plays_watten():
    envs = AsyncVectorEnv([lambda: gymnasium.make(IDS["watten"], target=3) for _ in range(3)])
    ends = 0
    for _obs, _r, terminated, truncated, info in _masked_steps(envs, 200):
        ends += int((terminated | truncated).sum())
        assert all(v["seat"] == 0 for v in info["view"])
    envs.close()
    assert ends >= 1


def test_make_vec_gives_the_kernel_env_and_the_standard_modes_still_work():
    from wasserspiele.games.watten.vector import WattenVectorEnv
    from wasserspiele.games.wildwasser.vector import WildwasserVectorEnv

    envs = gymnasium.make_vec(IDS["watten"], num_envs=4, target=3, opponents="greedy")
    assert isinstance(envs.unwrapped, WattenVectorEnv) and envs.num_envs == 4
    list(_masked_steps(envs, 50))
    assert isinstance(gymnasium.make_vec(IDS["wildwasser"], 2, players=3).unwrapped, WildwasserVectorEnv)
    for mode, cls in (("sync", SyncVectorEnv), ("async", AsyncVectorEnv)):
        envs = gymnasium.make_vec(IDS["watten"], num_envs=2, vectorization_mode=mode, target=3)
        assert isinstance(envs, cls)
        list(_masked_steps(envs, 60))
        envs.close()


@pytest.mark.parametrize("name", FOUR)
def test_make_vec_makes_every_games_kernel_env(name):
    envs = gymnasium.make_vec(IDS[name], num_envs=2, **FAST[name])
    assert envs.unwrapped.__class__.__module__ == f"wasserspiele.games.{name}.vector"
    list(_masked_steps(envs, 20))


def test_make_vec_refuses_what_the_kernel_cannot_play_pointing_at_sync():
    with pytest.raises(ValueError, match="vectorization_mode=\"sync\""):
        gymnasium.make_vec(IDS["watten"], num_envs=2, opponents="ismcts")
    with pytest.raises(ValueError, match="vectorization_mode=\"sync\""):  # (rounds=3 is played now)
        gymnasium.make_vec(IDS["wasserloch"], num_envs=2, rounds=3, opponents="heuristic")
    with pytest.raises(ValueError, match="vectorization_mode=\"sync\""):
        gymnasium.make_vec(IDS["watten"], num_envs=2, illegal_action="raise")


# -- 2. observation bounds from each codec's segment definitions -----------------------

# Segments of distinct items (one-hots over seats, cards, suits, species): exactly [0, 1]
# as docs/encodings.md promises; names with the numbers taken out
BINARY = {
    "wasserloch": {"seat"},
    "seven_waters": {"seat", "free", "hand_slot", "me_lines", "me_slides", "me_river", "me_pool", "me_theme",
                     "me_discards", "opponent_lines", "opponent_slides", "opponent_river", "opponent_pool",
                     "opponent_theme", "opponent_discards", "me_slide_built", "opponent_slide_built"},
    "watten": {"seat", "hand", "trick_seat", "played", "voids_seat", "gespannt", "can_raise"},
    "wildwasser": {"seat", "to_move", "field_animal", "seat_hand", "seat_unrevealed", "seat_revealed"},
}
# The margin docs/encodings.md states: with a game's default options every declared
# range lies within [-0.5, 2.2] (the rules' maxima over each segment's scale), except
# Wildwasser's round, which only the length bound ends
MARGIN = (-0.5, 2.2)
UNBOUNDED_BUT_FOR_LENGTH = {("wildwasser", "round")}


def _segments(codec):
    import re
    low, high = codec.bounds()
    for name, start, size, _meaning in codec.layout:
        yield re.sub(r"\d+", "", name), low[start:start + size], high[start:start + size]


@pytest.mark.parametrize("name", FOUR)
def test_binary_segments_are_exactly_zero_to_one(name):
    codec = wasserspiele.adapters.codec_for(wasserspiele.load(name))
    seen = set()
    for key, low, high in _segments(codec):
        if key in BINARY[name]:
            seen.add(key)
            assert (low == 0).all() and (high == 1).all(), key
    assert seen == BINARY[name]


@pytest.mark.parametrize("name", FOUR)
def test_every_segment_declares_a_range_within_the_documented_margin(name):
    from wasserspiele.adapters.codecs.base import LOOSE_HIGH
    codec = wasserspiele.adapters.codec_for(wasserspiele.load(name))
    for key, low, high in _segments(codec):
        assert (high < LOOSE_HIGH).all(), f"{key} keeps the loose range"
        if (name, key) not in UNBOUNDED_BUT_FOR_LENGTH:
            assert (low >= MARGIN[0]).all() and (high <= MARGIN[1]).all(), (key, low.min(), high.max())


@pytest.mark.parametrize("name, options", [
    ("wasserloch", {"players": 2, "rounds": 2}), ("wasserloch", {"players": 4, "rounds": 1}),
    ("seven_waters", {}), ("seven_waters", {"slide_limit": None}),
    ("watten", {"target": 5, "raising": True}), ("watten", {"target": 2, "raising": True, "hand_value": 2}),
    ("wildwasser", {"players": 2}), ("wildwasser", {"players": 5}),
])
def test_random_play_stays_inside_the_bounds_for_every_seat(name, options):
    import random
    game = wasserspiele.load(name, **options)
    codec = wasserspiele.adapters.codec_for(game)
    low, high = codec.bounds()
    for seed in range(6):
        rng, state = random.Random(seed), game.new_game(seed=seed)
        while True:
            for seat in [None, *range(game.players)]:
                obs = codec.observe(state.view(seat))
                bad = np.flatnonzero((obs < low) | (obs > high))
                assert not bad.size, [(s, obs[i], low[i], high[i]) for i in bad[:3] for s in codec.layout
                                      if s[1] <= i < s[1] + s[2]]
            if state.is_terminal():
                break
            seat = min(state.to_move())
            state.apply(rng.choice(state.legal_actions(seat)), seat)


# -- 3. OpenSpiel: information states are perfect recall ---------------------------------

def _infostate_collision(game, trials):
    """Two histories with the same deal and seat 0's same moves, whose other moves differ,
    that give seat 0 the same information-state string (the auditor's scenario)."""
    import random
    seen = {}
    for trial in range(trials):
        rng, chance = random.Random(trial), random.Random(12345)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(chance.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            if state.current_player() == 0:
                key = state.information_state_string(0)
                others = tuple(h.action for h in state.full_history() if h.player not in (-1, 0))
                if seen.setdefault(key, others) != others:
                    return seen[key], others
                state.apply_action(min(state.legal_actions()))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return None


def test_wasserloch_information_states_tell_apart_the_order_of_public_plays():
    pyspiel = pytest.importorskip("pyspiel")
    import wasserspiele.adapters.openspiel  # noqa: F401 - registers the games
    game = pyspiel.load_game("wasserspiele_wasserloch", {"rounds": 1, "players": 3})
    assert _infostate_collision(game, 300) is None


def test_the_recall_digest_survives_clone_pickle_and_resampling():
    pyspiel = pytest.importorskip("pyspiel")
    import random
    import wasserspiele.adapters.openspiel  # noqa: F401
    game = pyspiel.load_game("wasserspiele_wasserloch", {"rounds": 1})
    rng = random.Random(0)
    state = game.new_initial_state()
    while state.is_chance_node() or state.move_number() < 80:
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                                      else state.legal_actions()))
    seat = state.current_player()
    text = state.information_state_string(seat)
    assert " seen:" in text
    assert state.clone().information_state_string(seat) == text
    assert pickle.loads(pickle.dumps(state)).information_state_string(seat) == text
    world = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string(seat) == text


# -- 4. Seven Waters' opponent_discards: discards lie face down (SW-4.2) ------------------

def test_seven_waters_opponent_discards_are_never_visible_and_own_discards_are():
    import random
    game = wasserspiele.load("seven_waters")
    codec = wasserspiele.adapters.codec_for(game)
    at = {name: (start, size) for name, start, size, _ in codec.layout}
    own_seen = 0
    for seed in range(8):
        rng, state = random.Random(seed), game.new_game(seed=seed)
        while not state.is_terminal():
            for seat in (0, 1):
                obs = codec.observe(state.view(seat))
                start, size = at["opponent_discards"]
                assert not obs[start:start + size].any()  # the documented, by-design zero
                start, size = at["me_discards"]
                own_seen += int(obs[start:start + size].sum())
            seat = state.to_move()[0]
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert own_seen > 0
    assert "`opponent_discards` is always 0" in (_DOCS / "encodings.md").read_text()


# -- 5. the ISMCTS example samples chance by the outcomes' probabilities ----------------

def _example(name):
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, _ROOT / "examples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_ismcts_example_samples_a_signal_check_by_its_probability():
    pyspiel = pytest.importorskip("pyspiel")
    example = _example("openspiel_ismcts")
    game = pyspiel.load_game("wasserspiele_watten", {"signal_detection_p": 0.9, "signals": "partner"})
    rs = np.random.RandomState(0)
    state = game.new_initial_state()
    while True:  # to the first signal check: a chance node with two outcomes
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            if len(outcomes) == 2 and {round(p, 3) for _, p in outcomes} == {0.9, 0.1}:
                break
            state.apply_action(outcomes[0][0])
        else:
            legal = state.legal_actions()
            signals = [a for a in legal if 37 <= a <= 39]  # weak/medium/strong: checked by chance
            state.apply_action(signals[0] if signals else legal[0])
    caught = dict((p, a) for a, p in state.chance_outcomes())
    draws = [example.sample_chance(state, rs) for _ in range(2000)]
    share = np.mean([d == caught[max(caught)] for d in draws])
    assert 0.85 < share < 0.95


# -- 6. the PettingZoo AEC env's illegal_action="lose", as the parallel env's ------------

def test_aec_illegal_action_lose_ends_the_episode_as_the_parallel_env_does():
    from wasserspiele.adapters import pettingzoo as wpz
    from wasserspiele.adapters.codecs import EncodingError
    env = wpz.env("watten", target=3, illegal_action="lose", illegal_reward=-2.0)
    env.reset(seed=0)
    agent = env.agent_selection
    bad = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    env.step(bad)
    assert all(env.terminations.values())
    assert env.rewards == {a: -2.0 if a == agent else 0.0 for a in env.possible_agents}
    assert "not legal now" in env.infos[agent]["illegal_action"]
    _obs, reward, terminated, _truncated, _info = env.last()
    assert terminated
    while env.agents:  # every agent leaves with a dead step, as after a game's end
        env.step(None)
    strict = wpz.env("watten", target=3)  # "raise" stays the default
    strict.reset(seed=0)
    with pytest.raises(EncodingError, match="not legal now"):
        strict.step(bad)
    with pytest.raises(ValueError, match="illegal_action"):
        wpz.raw_env("watten", illegal_action="ignore")


# -- 7. OpenSpiel games pickle ------------------------------------------------------------

def test_openspiel_games_pickle_with_their_parameters():
    pyspiel = pytest.importorskip("pyspiel")
    import wasserspiele.adapters.openspiel  # noqa: F401
    game = pyspiel.load_game("wasserspiele_watten", {"target": 5, "raising": True})
    copy_ = pickle.loads(pickle.dumps(game))
    assert type(copy_) is type(game) and copy_.get_parameters() == game.get_parameters()
    assert copy_.max_game_length() == game.max_game_length()
    seven = pickle.loads(pickle.dumps(pyspiel.load_game("wasserspiele_seven_waters", {"slide_limit": -1})))
    assert seven.engine_game.options["slide_limit"] is None


# -- 8. the corpus lists only decisions the expert searched ------------------------------

def test_the_corpus_leaves_out_conventional_moves_the_search_never_counted():
    from wasserspiele.bots import learned_train as lt
    game = wasserspiele.load("watten", target=2)
    state, decided = next(lt.corpus_games(game, seed=0, games=1, iterations=8))
    assert decided and all(d.searched and d.value is not None for d in decided)
    # the same game's conventional moves exist and are in its record, flagged
    settings = lt.search_defaults(game)
    searcher = lambda s: lt.ISMCTSBot(s, game=game, **{**settings, "iterations": 8, "seconds": None})  # noqa: E731
    budget = lt.Budget(games=1, iterations=8, explore=0.0, max_decisions=10**9)
    _state, every = lt.searched_game(game, searcher, lt.derive_seed(0, "corpus", 0), budget)
    conventional = [d for d in every if not d.searched]
    assert conventional and all(d.visits == {d.played: 1} for d in conventional)
    assert [d.index for d in every if d.searched] == [d.index for d in decided]
    assert len(state.history) == len(_state.history)


# -- 10. kernel VectorEnv seeds: every bit counts ----------------------------------------

@pytest.mark.parametrize("name", FOUR)
def test_kernel_seeds_2_to_the_32_apart_deal_different_tables(name):
    from wasserspiele.adapters.vector import kernel_env_class, table_seed
    envs = kernel_env_class(name)(4)
    a, _ = envs.reset(seed=7)
    b, _ = envs.reset(seed=7 + 2**32)
    c, _ = envs.reset(seed=7)
    assert not np.array_equal(a, b) and np.array_equal(a, c)
    assert table_seed(7) == 7 and table_seed(2**32 - 1) == 2**32 - 1  # small seeds deal as before
    assert len({table_seed(s) for s in (-1, -2, 2**32, 2**63 - 1, -(2**40))}) == 5


# -- 9. cosmetic: names, docs, human rendering from the first position -------------------

def test_human_rendering_draws_the_position_at_reset(capsys):
    from wasserspiele.adapters import pettingzoo as wpz
    env = WasserspieleEnv("watten", target=3, render_mode="human")
    env.reset(seed=0)
    assert capsys.readouterr().out.strip()
    for make in (wpz.raw_env, wpz.parallel_env):
        make("watten", target=3, render_mode="human").reset(seed=0)
        assert capsys.readouterr().out.strip()


def test_seven_waters_vector_env_takes_opponents_and_the_old_name_with_a_warning():
    from wasserspiele.games.seven_waters.vector import SevenWatersVectorEnv
    with pytest.warns(DeprecationWarning, match="opponents="):
        old = SevenWatersVectorEnv(2, opponent="heuristic")
    assert old.policy == SevenWatersVectorEnv(2, opponents="heuristic").policy != SevenWatersVectorEnv(2).policy
    with pytest.raises(ValueError, match="opponents must be"):
        SevenWatersVectorEnv(2, opponents="clever")


def test_the_docs_describe_every_kernel_vector_env_and_make_vec():
    doc = (_DOCS / "encodings.md").read_text()
    for cls in ("WasserlochVectorEnv", "WattenVectorEnv", "SevenWatersVectorEnv", "WildwasserVectorEnv"):
        assert f"## A batched {cls.removesuffix('VectorEnv').replace('SevenWaters', 'Seven Waters')} VectorEnv" in doc
    assert "make_vec" in doc and 'vectorization_mode="sync"' in doc
