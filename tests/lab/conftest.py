import pytest

from wasserspiele.lab import make_study, run_study


@pytest.fixture(scope="session")
def small_study():
    """A quick study: 2-player one-round Wasserloch, heuristic against random, two chase variants."""
    return make_study("wasserloch", players=["2"], bots=["heuristic random"], options=["rounds=1"],
                      compare=["chase=nearest,adjacent"], games=12, seed=5)


@pytest.fixture(scope="session")
def small_result(small_study):
    return run_study(small_study, jobs=1)
