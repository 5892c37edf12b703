"""The engine plays the golden traces recorded from main c54ea01 before the lean rewrite
(issue 17): same legal actions, views, positions, setups and results in every seeded game."""

import pytest

from games.traces import load_traces, trace

CASES = load_traces("watten")


@pytest.mark.parametrize("options,expected", CASES,
                         ids=[f"{i}-{'views' if e['views'] else 'legal'}-seed{e['seed']}" for i, (_, e) in enumerate(CASES)])
def test_seeded_random_game_matches_its_golden_trace(options, expected):
    assert trace("watten", options, expected["seed"], expected["views"]) == expected, options
