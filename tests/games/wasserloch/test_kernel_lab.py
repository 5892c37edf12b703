"""The kernel's lab games (random bots throughout, any number of rounds) compiled and in the
pure-Python fallback are the same; tests/lab/test_kernels.py checks them against the engine."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from wasserspiele.games.wasserloch import kernel as K

_FALLBACK = """
import json
from wasserspiele.fast import COMPILED
from wasserspiele.games.wasserloch import kernel as K
out = K.lab_games([5, 2**40, 77], [[1, 2, 3], [4, 5, 2**62], [7, 8, 9]], 3, 3, 1, "adjacent")
print(json.dumps([COMPILED] + [a.tolist() for a in out]))
"""


def test_lab_games_of_the_pure_python_fallback_equal_the_compiled_ones():
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", _FALLBACK], env=env, capture_output=True, text=True, check=True)
    compiled, *arrays = json.loads(out.stdout)
    assert compiled is False
    expected = K.lab_games([5, 2**40, 77], [[1, 2, 3], [4, 5, 2**62], [7, 8, 9]], 3, 3, 1, "adjacent")
    assert all(np.array_equal(np.array(a), b) for a, b in zip(arrays, expected))


def test_lab_games_refuse_seeds_python_would_seed_differently():
    with pytest.raises(ValueError, match="seeds must be 0 <= seed < 2\\*\\*63"):
        K.lab_games([-1], [[1, 2]], 2, 1)
