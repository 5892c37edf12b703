"""Compiled kernels for bulk play (the optional extra `fast`: numba).

`kernel` compiles a function with numba when it is installed and leaves it as plain
Python otherwise; both give identical results, since the kernels draw their chance and
their random choices from their own integer generator (`xorshift32`), never from numba's
or numpy's.  `NUMBA_DISABLE_JIT=1` forces the pure-Python fallback.
"""

from __future__ import annotations

import os

try:  # the optional extra
    import numba
except ImportError:  # pragma: no cover - exercised where numba is absent
    numba = None

COMPILED = numba is not None and os.environ.get("NUMBA_DISABLE_JIT", "0") in ("", "0")


def kernel(fn):
    """numba.njit(fn) when numba is there (cached on disk), else fn itself."""
    if numba is None:
        return fn
    return numba.njit(cache=True, nogil=True)(fn)


MASK32 = 0xFFFFFFFF


@kernel
def xorshift32(x: int) -> int:
    """Marsaglia's xorshift32 step on a state in 1 .. 2**32 - 1 (int64 arithmetic: no
    overflow in numba, and the same numbers in plain Python)."""
    x ^= (x << 13) & MASK32
    x ^= x >> 17
    x ^= (x << 5) & MASK32
    return x


@kernel
def below(x: int, n: int) -> int:
    """A number in 0 .. n-1 from a 32-bit state (multiply-shift, no division)."""
    return (x * n) >> 32


def seed_state(seed: int) -> int:
    """A valid xorshift32 state from any integer seed (never 0)."""
    x = (seed * 2654435761 + 0x9E3779B9) & MASK32
    return x or 1


def inline_kernel(fn):
    """`kernel(fn)` that numba inlines into its compiled callers (no call and no reference
    counting of array arguments: for small helpers on hot paths); fn itself without numba."""
    if numba is None:
        return fn
    return numba.njit(cache=True, nogil=True, inline="always")(fn)
