"""The engine plays the golden traces recorded from main c54ea01 before the lean rewrite
(issue 17): same legal actions, views, positions, setups and results in every seeded game."""

import pytest

from games.traces import load_traces, trace

CASES = load_traces("wasserloch")


@pytest.mark.parametrize("options,expected", CASES,
                         ids=[f"{i}-{'views' if e['views'] else 'legal'}-seed{e['seed']}" for i, (_, e) in enumerate(CASES)])
def test_seeded_random_game_matches_its_golden_trace(options, expected):
    assert trace("wasserloch", options, expected["seed"], expected["views"]) == expected, options


@pytest.mark.parametrize("options,expected", CASES[::5],
                         ids=[f"{i}-seed{e['seed']}" for i, (_, e) in enumerate(CASES[::5])])
def test_the_trusted_path_plays_the_golden_traces_too(options, expected, monkeypatch):
    """apply_legal repeats apply's lines after its checks (issue 17's lean engines):
    every fifth golden game played through apply_legal instead must match as well."""
    from wasserspiele.games.wasserloch.rules import WasserlochState
    monkeypatch.setattr(WasserlochState, "apply", lambda self, action, seat=None: self.apply_legal(action, seat))
    assert trace("wasserloch", options, expected["seed"], expected["views"]) == expected, options
