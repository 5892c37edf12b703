"""wasserspiele.fast's copy of Python's generator gives random.Random's numbers: the same
state from the same seed, the same `_randbelow` draws (so kernels can play the games the
engine and the bots play), compiled and in the pure-Python fallback."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import numpy as np
import pytest

from wasserspiele.fast import MT_SIZE, kernel, mt_below, mt_seed

BOUNDS = np.array([1, 2, 3, 5, 8, 13, 40, 64, 1000, 2**31, 2**32 - 1] * 150, np.int64)


@kernel
def _draws(mt, bounds, out):
    for i in range(len(bounds)):
        out[i] = mt_below(mt, bounds[i])


def _kernel_draws(seed: int) -> tuple[list[int], list[int]]:
    mt = np.zeros(MT_SIZE, np.int64)
    mt_seed(mt, seed)
    state = mt[:624].tolist()
    out = np.zeros(len(BOUNDS), np.int64)
    _draws(mt, BOUNDS, out)
    return state, out.tolist()


SEEDS = [0, 1, 12345, 2**32 - 1, 2**32, 2**40 + 7, 9876543210123, 2**63 - 1]


@pytest.mark.parametrize("seed", SEEDS)
def test_mt_seed_and_mt_below_are_random_random_seeded_alike(seed):
    state, draws = _kernel_draws(seed)
    rng = random.Random(seed)
    assert state == list(rng.getstate()[1][:624])
    assert draws == [rng._randbelow(int(n)) for n in BOUNDS]  # the draws of random.choice / shuffle


_FALLBACK = """
import json, sys
sys.path.insert(0, sys.argv[1])
from wasserspiele.fast import COMPILED
from test_fast import SEEDS, _kernel_draws
print(json.dumps([COMPILED, [_kernel_draws(s)[1] for s in SEEDS[:3]]]))
"""


def test_the_pure_python_fallback_draws_the_same_numbers():
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", _FALLBACK, os.path.dirname(__file__)], env=env, capture_output=True,
                         text=True, check=True)
    compiled, draws = json.loads(out.stdout)
    assert compiled is False
    assert draws == [_kernel_draws(s)[1] for s in SEEDS[:3]]
