"""The Seven Waters kernel plays by the engine's rules: thousands of kernel games replayed
through the Python engine (same deck, same actions) give the same legal actions in the
same order at every decision, the same scores and the same winners; its action indices
are the codec's; and the compiled kernel equals its pure-Python fallback."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from wasserspiele import load
from wasserspiele.adapters.codecs import codec_for
from wasserspiele.games.seven_waters import kernel as K
from wasserspiele.games.seven_waters.heuristic import rollout_policy

from .kernel_codes import code, engine_game


class _Pick:
    """A stand-in generator whose random index is the k-th choice; it notes how many
    choices there were."""

    def __init__(self, k: int):
        self.k, self.n = k, 1

    def randrange(self, n: int) -> int:
        self.n = n
        return min(self.k, n - 1)


def heuristic_choices(state, seat) -> list:
    """Every action heuristic.rollout_policy may choose here (its ties in turn)."""
    first = _Pick(0)
    options = [rollout_policy(state, seat, first)]
    options += [rollout_policy(state, seat, _Pick(k)) for k in range(1, first.n)]
    return [code(a, state.hands[seat]) for a in options]


def replay(options: dict, games: int, seed: int, engine_options: dict | None = None, policies=K.RANDOM) -> dict:
    """Replay `games` recorded kernel games through the engine and the kernel's own step
    functions side by side, asserting equal legal lists, positions (`from_state`), scores
    and winners, and for a
    HEURISTIC seat an action the heuristic's rollout policy may choose; counts of the
    action kinds played."""
    scores, won, decks, plays = K.play_games(games, seed=seed, record=True, policies=policies, **options)
    seats = K.seat_policies(policies)
    game = load("seven_waters", **(options if engine_options is None else engine_options))
    limit = options.get("slide_limit", 7)
    g = np.zeros(K.FIELDS, np.int64)
    out = np.zeros(K.ACTIONS, np.int64)
    cards = np.zeros(K.SLOTS, np.int64)
    tab = np.zeros((8, 1 << K.SLOTS), np.int64)
    kinds: dict[str, int] = {}
    for e in range(games):
        state = engine_game(game, decks[e])
        K.start_game(decks[e], g, options.get("first_player", 0), K.NO_LIMIT if limit is None else limit,
                     K.FINAL_TURNS[options.get("final_turns", "both")])
        t = 0
        while not state.is_terminal():
            seat = state.current_seat
            assert g[K.TURN] == seat and not g[K.OVER], (e, t)
            legal = state.legal_actions(seat)
            codes = [code(a, state.hands[seat]) for a in legal]
            k = K.legal(g, out, cards, tab)
            assert codes == out[:k].tolist(), (e, t, [str(a) for a in legal])
            played = int(plays[e, t])
            if seats[seat] == K.HEURISTIC:
                assert played in heuristic_choices(state, seat), (e, t)
            action = legal[codes.index(played)]
            kinds[action.kind] = kinds.get(action.kind, 0) + 1
            state.apply(action, seat)
            K.apply(g, played, cards)
            t += 1
            if t % 8 == 0:  # the kernel's whole vector is what from_state reads off the engine
                assert np.array_equal(K.from_state(state), g), (e, t)
        assert np.array_equal(K.from_state(state), g), e
        assert g[K.OVER] and (t == K.MAX_STEPS or plays[e, t] == -1), e
        assert state.scores() == scores[e].tolist() == [K.score(g, 0), K.score(g, 1)], e
        assert state.winners() == K.winners(won[e]), e
    return kinds


@pytest.mark.parametrize("options, games, seed", [
    ({}, 800, 1),
    ({"first_player": 1}, 300, 2),
    ({"slide_limit": 1}, 300, 3),
    ({"slide_limit": None, "final_turns": "opponent_only"}, 300, 4),
    ({"slide_limit": 0, "final_turns": "none"}, 300, 5),
])
def test_sw_4_kernel_games_replay_in_the_engine_with_equal_legal_lists_scores_and_winners(options, games, seed):
    kinds = replay(options, games, seed)
    builds = ("take", "theme", "discard", "river", "pool") + (("slide",) if options.get("slide_limit") != 0 else ())
    assert all(kinds.get(k, 0) > 0 for k in builds), kinds


@pytest.mark.parametrize("policies, options, games, seed", [
    (K.HEURISTIC, {}, 150, 21),
    ((K.HEURISTIC, K.RANDOM), {"slide_limit": None}, 150, 22),
    ((K.RANDOM, K.HEURISTIC), {"first_player": 1, "final_turns": "opponent_only"}, 150, 23),
])
def test_kernel_heuristic_seats_play_the_rollout_policy_by_the_engines_rules(policies, options, games, seed):
    kinds = replay(options, games, seed, policies=policies)
    assert all(kinds.get(k, 0) > 0 for k in ("take", "theme", "slide", "river", "pool")), kinds


def test_sw_4_4_the_replay_notices_a_rule_the_engine_plays_differently():
    """The replay is a real check: kernel games without slides (slide_limit 0) against an
    engine that allows seven disagree at the first decision where a slide is possible."""
    with pytest.raises(AssertionError):
        replay({"slide_limit": 0}, 100, 6, engine_options={})


def test_kernel_action_indices_are_the_codecs():
    game = load("seven_waters")
    codec = codec_for(game)
    _s, _w, decks, plays = K.play_games(20, seed=7, record=True)
    checked = 0
    for e in range(20):
        state = engine_game(game, decks[e])
        t = 0
        while not state.is_terminal():
            seat = state.current_seat
            view = state.view(seat)
            legal = state.legal_actions(seat)
            codes = [code(a, state.hands[seat]) for a in legal]
            assert codes == [codec.action_index(a, view) for a in legal]
            checked += len(codes)
            state.apply(legal[codes.index(int(plays[e, t]))], seat)
            t += 1
    assert checked > 1000


def test_play_games_scores_add_up_and_bad_options_are_refused():
    scores, won = K.play_games(300, seed=9)
    assert scores.shape == (300, 2) and set(np.unique(won)) <= {0, 1, 2}
    better = np.where(scores[:, 0] > scores[:, 1], 0, np.where(scores[:, 1] > scores[:, 0], 1, -1))
    assert ((better == -1) | (better == won)).all()
    with pytest.raises(ValueError, match="first_player"):
        K.play_games(1, first_player=2)
    with pytest.raises(ValueError, match="slide_limit"):
        K.play_games(1, slide_limit=-1)
    with pytest.raises(ValueError, match="final_turns"):
        K.play_games(1, final_turns="many")
    with pytest.raises(ValueError, match="policies"):
        K.play_games(1, policies=(0, 7))


_FALLBACK = """
import json
from wasserspiele.fast import COMPILED
from wasserspiele.games.seven_waters import kernel as K
from wasserspiele.games.seven_waters.heuristic import rollout_policy
scores, won, decks, plays = K.play_games(150, seed=12, record=True, policies=(K.HEURISTIC, K.RANDOM),
                                        slide_limit=3)
print(json.dumps([COMPILED, scores.tolist(), won.tolist(), plays.tolist()]))
"""


def test_pure_python_fallback_plays_the_same_games_as_the_compiled_kernel():
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", _FALLBACK], env=env, capture_output=True, text=True, check=True)
    compiled, scores, won, plays = json.loads(out.stdout)
    assert compiled is False
    expected = K.play_games(150, seed=12, record=True, policies=(K.HEURISTIC, K.RANDOM), slide_limit=3)
    assert np.array_equal(np.array(scores), expected[0])
    assert np.array_equal(np.array(won), expected[1])
    assert np.array_equal(np.array(plays), expected[3])


def test_sw_4_engine_positions_go_on_in_the_kernel_by_the_same_rules():
    """from_state: mid-game engine positions (random prefixes, slides, rivers and pools
    built) as kernel vectors give the engine's legal lists, scores and winners from there
    on; play_out finishes them (the heuristic's rollouts for search)."""
    import random

    game = load("seven_waters")
    rng = random.Random(5)
    out = np.zeros(K.ACTIONS, np.int64)
    cards = np.zeros(K.SLOTS, np.int64)
    tab = np.zeros((8, 1 << K.SLOTS), np.int64)
    for n in range(150):
        state = game.new_game(seed=n)
        for _ in range(rng.randrange(60)):
            if state.is_terminal():
                break
            seat = state.current_seat
            state.apply(rollout_policy(state, seat, rng) if rng.random() < 0.7 else
                        rng.choice(state.legal_actions(seat)), seat)
        g = K.from_state(state)
        assert [K.score(g, 0), K.score(g, 1)] == state.scores(), n
        finished = g.copy()
        K.play_out(finished, K.seat_policies(K.HEURISTIC), 1234 + n)
        assert finished[K.OVER] and K.winner(finished) in (0, 1, 2)
        while not state.is_terminal():
            seat = state.current_seat
            legal = state.legal_actions(seat)
            codes = [code(a, state.hands[seat]) for a in legal]
            k = K.legal(g, out, cards, tab)
            assert codes == out[:k].tolist(), n
            i = rng.randrange(len(legal))
            state.apply(legal[i], seat)
            K.apply(g, codes[i], cards)
        assert g[K.OVER] and [K.score(g, 0), K.score(g, 1)] == state.scores(), n
        assert state.winners() == K.winners(K.winner(g)), n
