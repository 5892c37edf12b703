"""The lean Seven Waters engine plays exactly as the engine before it (traces.py):
legal actions, views, sampled worlds, rollout choices, scores and search trees."""

from __future__ import annotations

import json

import pytest

from . import traces

GOLDEN = json.loads(open(traces.STORE, encoding="utf-8").read())


def test_sw_4_sw_5_random_games_reproduce_the_recorded_traces():
    assert len(GOLDEN["games"]) == traces.GAMES
    differ = [seed for seed in range(traces.GAMES) if traces.game_digest(seed) != GOLDEN["games"][seed]]
    assert not differ, f"games that play differently from the recorded engine (seeds): {differ[:20]}"


@pytest.mark.parametrize("seed", range(traces.SEARCHES))
def test_ismcts_search_tree_is_the_recorded_one(seed):
    assert traces.search_digest(seed) == GOLDEN["searches"][seed]
