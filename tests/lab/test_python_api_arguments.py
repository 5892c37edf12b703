"""The lab's Python API refuses a bad argument by name before any game is played, and takes
numpy's integers as the counts and seeds they are (a researcher's values often are)."""

import numpy as np
import pytest

from wasserspiele.core.errors import BadOption
from wasserspiele.lab import make_study, run_study

SMALL = dict(options=["rounds=1"], games=4, seed=3)


def test_numpy_integers_are_counts_and_seeds():
    study = make_study("wasserloch", **{**SMALL, "games": np.int64(4), "seed": np.int64(3)})
    assert type(study.games) is int and type(study.seed) is int  # (a study's JSON holds them)
    assert study.games == 4 and study.seed == 3
    numpy_run = run_study(study, jobs=np.int64(1))
    plain_run = run_study(make_study("wasserloch", **SMALL), jobs=1)
    assert numpy_run.rows == plain_run.rows  # the same games


@pytest.mark.parametrize("argument, said", [
    (dict(progress=True), "run_study: progress is a function called with the number of games"),
    (dict(progress="yes"), "run_study: progress is a function"),
    (dict(runner="process"), "run_study: runner is an open backend"),
    (dict(start=-1), "run_study: start is the first game to play, from 0 to 4, not -1"),
    (dict(start=5), "run_study: start is the first game to play, from 0 to 4, not 5"),
    (dict(start=1.5), "run_study: start is the first game to play"),
])
def test_a_bad_run_argument_is_refused_before_any_game(argument, said, monkeypatch):
    import wasserspiele.lab.backends as backends
    played = []
    monkeypatch.setattr(backends, "run_chunk", lambda *a, **k: played.append(a) or [])
    with pytest.raises(BadOption, match="^" + said.replace("(", r"\(").replace(")", r"\)")):
        run_study(make_study("wasserloch", **SMALL), jobs=1, **argument)
    assert not played


@pytest.mark.parametrize("kernels", ["no", 0, None])
def test_kernels_is_true_or_false(kernels):
    with pytest.raises(BadOption, match="make_study: kernels is True or False"):
        make_study("wasserloch", **SMALL, kernels=kernels)
