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


def unmanaged(a):
    """Array `a` for the compiled code without numba's reference counting; `a` itself in
    plain Python.  Numba counts the references to an array in every compiled helper it
    is passed to or bound in, with atomic (locked) instructions: in the Watten kernel
    those took 85% of a random game's time (perf), and games ran 8x faster without.
    The view has no memory info, so the counting is skipped.  Only for arrays that
    outlive the compiled call (the arguments from Python, their rows and slices), never
    for arrays the compiled code allocates: numba frees those after their last use."""
    return a


if numba is not None:
    from numba.core import types as _types
    from numba.extending import intrinsic as _intrinsic, overload as _overload

    @_intrinsic
    def _unmanaged(typingctx, a):
        if not isinstance(a, _types.Array):
            return None

        def codegen(context, builder, sig, args):
            view = context.make_array(sig.args[0])(context, builder, value=args[0])
            view.meminfo = context.get_constant_null(_types.MemInfoPointer(_types.voidptr))
            return view._getvalue()  # a new reference to nothing: nothing to count

        return a(a), codegen

    @_overload(unmanaged, inline="always")
    def _unmanaged_overload(a):
        return lambda a: _unmanaged(a)


@inline_kernel
def shuffle_xorshift(a, n: int, x: int) -> int:
    """Fisher-Yates of a[:n] in place, from the end (as random.shuffle), drawing from the
    xorshift32 state `x`; the new state.  Every kernel deals with it."""
    for i in range(n - 1, 0, -1):
        x = xorshift32(x)
        j = below(x, i + 1)
        a[i], a[j] = a[j], a[i]
    return x


# -- Python's own generator (random.Random) inside kernels ---------------------------
# A kernel that must play exactly the games the Python engine and bots play given their
# seeds (the lab's covered studies) draws from CPython's Mersenne Twister as
# `random.Random(seed)` does: the same seeding (init_by_array on the seed's 32-bit
# words), the same 32-bit outputs, `getrandbits` and `_randbelow` by rejection.  A
# generator is an int64 array of MT_SIZE: the 624 state words, then the position.
MT_N, MT_M = 624, 397
MT_SIZE = MT_N + 1


@kernel
def mt_seed(mt, seed: int) -> None:
    """`random.Random(seed)` for a seed 0 <= seed < 2**63: CPython's init_by_array with
    the seed's 32-bit words, least significant first (one word below 2**32)."""
    mt[0] = 19650218  # init_genrand(19650218)
    for i in range(1, MT_N):
        prev = mt[i - 1]
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & MASK32
    key_length = 1 if seed < 2**32 else 2
    i, j = 1, 0
    for _ in range(MT_N):  # max(N, key_length) steps
        prev = mt[i - 1]
        word = (seed >> (32 * j)) & MASK32
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + word + j) & MASK32
        i += 1
        j += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
        if j >= key_length:
            j = 0
    for _ in range(MT_N - 1):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & MASK32
        i += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
    mt[0] = 0x80000000
    mt[MT_N] = MT_N  # the next output twists first


@kernel
def mt_twist(mt) -> None:
    """The Mersenne Twister's regeneration of all 624 words."""
    for k in range(MT_N):
        y = (mt[k] & 0x80000000) | (mt[(k + 1) % MT_N] & 0x7FFFFFFF)
        mt[k] = mt[(k + MT_M) % MT_N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
    mt[MT_N] = 0


@inline_kernel
def mt_next(mt) -> int:
    """The next 32-bit output (CPython's genrand_uint32, tempered)."""
    i = mt[MT_N]
    if i >= MT_N:
        mt_twist(mt)
        i = 0
    y = mt[i]
    mt[MT_N] = i + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y


@inline_kernel
def mt_below(mt, n: int) -> int:
    """`random.Random._randbelow(n)` for 1 <= n < 2**32: getrandbits(n.bit_length())
    until the number is below n."""
    k = 0
    while (1 << k) <= n:
        k += 1
    r = mt_next(mt) >> (32 - k)
    while r >= n:
        r = mt_next(mt) >> (32 - k)
    return r


@inline_kernel
def mt_random(mt) -> float:
    """`random.Random.random()`: a 53-bit float in [0, 1) from two 32-bit outputs."""
    a = mt_next(mt) >> 5
    b = mt_next(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)
