"""The numpy training example keeps working (a few seconds of it; no torch needed)."""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

import wasserspiele
from wasserspiele.adapters import codec_for
from wasserspiele.bots.match import play_game
from wasserspiele.bots.registry import make_bot

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_wasserloch.py"


def load_example():
    spec = importlib.util.spec_from_file_location("train_wasserloch", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_masked_policy_gradient_trains_and_plays_as_a_bot():
    ex = load_example()
    policy, history = ex.train(minutes=0.03, seed=1)
    assert len(history) >= 16 and all(-1 <= r <= 1 for r in history)
    assert all(np.all(np.isfinite(v)) for v in policy.params.values())
    game = wasserspiele.load("wasserloch", **ex.OPTIONS)
    bots = [ex.PolicyBot(policy, codec_for(game))] + [make_bot("heuristic", game, seed=s) for s in (1, 2)]
    result = play_game(game, bots, seed=3)
    assert result.state.is_terminal()


def test_the_policy_gradient_is_the_gradient_of_log_pi():
    ex = load_example()
    rng = np.random.default_rng(0)
    policy = ex.Policy(6, 4, 5, rng)
    policy.params["W2"] = rng.normal(0, 1, (4, 5))
    x, mask, action = rng.normal(size=6), np.array([1, 0, 1, 1]), 2
    grads = policy.grad_log_prob(x, mask, action)
    eps = 1e-6
    for key in ("W1", "b2"):
        p = policy.params[key]
        idx = (0,) * p.ndim
        old = p[idx]
        p[idx] = old + eps
        up = np.log(policy.probs(x, mask)[0][action])
        p[idx] = old - eps
        down = np.log(policy.probs(x, mask)[0][action])
        p[idx] = old
        assert abs((up - down) / (2 * eps) - grads[key][idx]) < 1e-5


@pytest.mark.parametrize("minutes", ["-1", "0", "nan", "inf"])
def test_a_training_time_that_is_no_positive_number_is_refused_before_training(minutes, monkeypatch, capsys):
    """`--minutes -1` trained on no game, printed "mean zero-sum reward +nan" and then
    evaluated the untrained policy."""
    ex = load_example()
    monkeypatch.setattr(sys, "argv", ["train_wasserloch.py", "--minutes", minutes, "--games", "3"])
    monkeypatch.setattr(ex, "train", lambda *a, **k: pytest.fail("trained"))
    with pytest.raises(SystemExit) as stop:
        ex.main()
    assert stop.value.code == 2
    assert "--minutes must be a positive number of minutes, not " in capsys.readouterr().err
