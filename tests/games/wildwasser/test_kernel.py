"""The Wildwasser kernel plays by the engine's rules: thousands of kernel games replayed
through the Python engine (the kernel's tile order and die rolls as the engine's setup,
the kernel's decisions) give the same seat to move and the same legal actions, in the
same order, at every decision, the same die rolls used, the same podium places, points
and winners; and the compiled kernel equals its pure-Python fallback."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from wasserspiele import load
from wasserspiele.adapters import codec_for
from wasserspiele.games.wildwasser import kernel as K


def _actions(game):
    """The engine's action for each kernel code (the codec's action indices)."""
    return [game.parse_action(name) for name in codec_for(game).action_names]


def replay(t: dict, g: int, game, actions) -> object:
    """Play kernel game g of trace t through the engine, asserting at every decision; the
    final engine state."""
    b = game.board
    code = {a: i for i, a in enumerate(actions)}
    setup = {"tiles": [b.tile_ids[i] for i in t["orders"][g]],
             "dice": [b.die_faces[i] for i in t["dice"][g, :t["ndice"][g]]]}
    state = game.new_game(setup=setup)
    for step in range(t["steps"][g]):
        seat = state.current_seat
        assert seat == t["seats"][g, step], (g, step)
        legal = [code[a] for a in state.legal_actions(seat)]
        assert legal == [c for c in t["legal"][g, step] if c >= 0], (g, step)
        state.apply(actions[t["played"][g, step]], seat)
    assert state.is_terminal(), g
    assert state.chance.used("dice") == t["ndice"][g], g
    assert state.place == list(t["places"][g]), g
    assert state.scores() == list(t["points"][g]), g
    assert state.winners() == list(np.flatnonzero(t["winners"][g])), g
    return state


@pytest.mark.parametrize("players, first_player, river_flow, seed", [
    (2, 0, "forward", 1), (3, 2, "forward", 2), (4, 0, "forward", 3), (4, 1, "back", 4),
    (5, 4, "forward", 5), (6, 0, "back", 6), (6, 3, "forward", 7),
])
def test_ww_kernel_games_replay_in_the_engine_with_equal_legal_actions_places_and_winners(players, first_player,
                                                                                          river_flow, seed):
    games = 400
    t = K.trace_games(games, players, seed, first_player, river_flow)
    game = load("wildwasser", players=players, first_player=first_player, river_flow=river_flow)
    actions = _actions(game)
    tiles_out = 0
    for g in range(games):
        state = replay(t, g, game, actions)
        tiles_out += state.last_round
    played = t["played"][t["played"] >= 0]
    # every kind of decision occurred: picks, moves, the turtle card, actions, suns, markers
    for first, last in ((0, 4), (5, 5), (6, 10), (11, 11), (12, 17), (18, 22), (23, 28)):
        assert ((played >= first) & (played <= last)).any(), (first, last)
    assert tiles_out > 0 or players >= 5  # WW-5.2 ends some games (rarely with 5-6 players' long stacks)


def test_ww_5_2_games_that_run_out_of_tiles_replay_equally():
    """Two players have the shortest stack: many games end by WW-5.2, with empty slots (WW-4.5)."""
    t = K.trace_games(300, 2, 11)
    game = load("wildwasser", players=2)
    actions = _actions(game)
    ended = sum(replay(t, g, game, actions).last_round for g in range(300))
    assert ended > 0


def test_the_replay_check_fails_on_a_kernel_that_differs():
    """The comparison is not vacuous: a changed legal list or a changed final place is caught."""
    t = K.trace_games(5, 3, 21)
    game = load("wildwasser", players=3)
    actions = _actions(game)
    bad = {k: v.copy() for k, v in t.items()}
    bad["legal"][0, 3, 0] = 28 if bad["legal"][0, 3, 0] != 28 else 27
    with pytest.raises(AssertionError):
        replay(bad, 0, game, actions)
    bad = {k: v.copy() for k, v in t.items()}
    bad["places"][1, 0] += 1
    with pytest.raises(AssertionError):
        replay(bad, 1, game, actions)


def test_kernel_codes_are_the_codec_action_indices():
    names = codec_for(load("wildwasser", players=6)).action_names
    assert len(names) == K.N_ACTIONS
    assert names[K.PICK_A] == "pick cheetah" and names[K.MOVE_CARD] == "move"
    assert names[K.MOVE_A] == "move cheetah" and names[K.ACTION] == "action"
    assert names[K.ACTION_S] == "action 0" and names[K.SUN_A] == "sun cheetah" and names[K.MARKER_S] == "marker 0"


def test_play_games_points_winners_and_bad_settings():
    pts, won = K.play_games(300, players=5, seed=9)
    assert pts.shape == won.shape == (300, 5) and (pts >= 0).all()
    assert (won.sum(axis=1) >= 1).all()
    best = pts.max(axis=1, keepdims=True)
    assert (pts[won == 1] == np.broadcast_to(best, pts.shape)[won == 1]).all()
    with pytest.raises(ValueError, match="players must be 2-6"):
        K.play_games(1, players=7)
    with pytest.raises(ValueError, match="first_player"):
        K.play_games(1, players=3, first_player=3)
    with pytest.raises(ValueError, match="river_flow"):
        K.play_games(1, river_flow="sideways")


_FALLBACK = """
import json
from wasserspiele.fast import COMPILED
from wasserspiele.games.wildwasser import kernel as K
pts, won = K.play_games(120, players=4, seed=12, first_player=1, river_flow="back")
print(json.dumps([COMPILED, pts.tolist(), won.tolist()]))
"""


def test_pure_python_fallback_plays_the_same_games_as_the_compiled_kernel():
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", _FALLBACK], env=env, capture_output=True, text=True, check=True)
    compiled, pts, won = json.loads(out.stdout)
    assert compiled is False
    expected = K.play_games(120, players=4, seed=12, first_player=1, river_flow="back")
    assert np.array_equal(np.array(pts), expected[0]) and np.array_equal(np.array(won), expected[1])


@pytest.mark.parametrize("players, river_flow", [(2, "forward"), (4, "back"), (6, "forward")])
def test_from_state_gives_the_engine_position_to_the_kernel(players, river_flow):
    """At every decision of engine games (picks made in any seat order, as simultaneous
    picks allow), the kernel position made from the state has the engine's seat to move
    and legal actions, and the vector env's encoder writes the codec's observation of it."""
    import random
    game = load("wildwasser", players=players, river_flow=river_flow)
    codec = codec_for(game)
    code = {a: i for i, a in enumerate(_actions(game))}
    bd = K.BOARDS[river_flow]
    out = np.zeros(K.MAX_LEGAL, np.int64)
    rng = random.Random(players)
    removed = game.board.removed_for(players)
    for g in range(12):
        state = game.new_game(seed=g)
        while not state.is_terminal():
            st = K.from_state(state, seed=g)
            seat = state.current_seat
            assert st[K.WAIT] == seat
            k = K.legal(st, bd, out)
            assert list(out[:k]) == [code[a] for a in state.legal_actions(seat)]
            obs = np.zeros((1, codec.obs_size), np.float32)
            masks = np.zeros((1, codec.num_actions), np.int8)
            K.tables_encode(st[None, :], bd, players, removed, seat, obs, masks)
            assert np.array_equal(obs[0], codec.observe_state(state, seat))
            assert np.array_equal(masks[0], codec.mask(state.legal_actions(seat), state.view(seat)))
            movers = state.to_move()
            mover = movers[rng.randrange(len(movers))]  # any seat of a simultaneous pick
            state.apply(rng.choice(state.legal_actions(mover)), mover)
