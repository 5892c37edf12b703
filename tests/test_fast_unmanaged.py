"""wasserspiele.fast.unmanaged: compiled code reads and writes the caller's array through
the view (its rows, slices and the helpers it is passed to, inlined or called), the
caller's array keeps its reference count however often the kernel runs, and in plain
Python the array itself is returned."""

from __future__ import annotations

import sys

import numpy as np

from wasserspiele.fast import inline_kernel, kernel, unmanaged


@inline_kernel
def _add_inline(row, i, v) -> None:
    row[i] += v


@kernel
def _add_called(row, i, v) -> None:
    row[i] += v


@kernel
def _fill(rows, scratch) -> int:
    rows, scratch = unmanaged(rows), unmanaged(scratch)
    total = 0
    for e in range(rows.shape[0]):
        row = rows[e]
        row[0] = e
        _add_inline(row, 1, 2 * e)
        _add_called(row, 2, 3 * e)
        tail = row[3:]
        tail[0] = e * e
        scratch[e] = row[0] + row[1] + row[2] + row[3]
        total += scratch[e]
    return total


def _expected(n: int) -> tuple[np.ndarray, np.ndarray]:
    rows = np.zeros((n, 5), np.int64)
    e = np.arange(n)
    rows[:, 0], rows[:, 1], rows[:, 2], rows[:, 3] = e, 2 * e, 3 * e, e * e
    return rows, rows[:, :4].sum(axis=1)


def test_unmanaged_views_write_the_callers_arrays():
    rows, scratch = np.zeros((6, 5), np.int64), np.zeros(6, np.int64)
    total = _fill(rows, scratch)
    want_rows, want_scratch = _expected(6)
    assert rows.tolist() == want_rows.tolist()
    assert scratch.tolist() == want_scratch.tolist()
    assert total == int(want_scratch.sum())


def test_unmanaged_leaves_the_callers_reference_count_alone():
    rows, scratch = np.zeros((4, 5), np.int64), np.zeros(4, np.int64)
    _fill(rows, scratch)  # compiled (or loaded) before counting
    before = sys.getrefcount(rows), sys.getrefcount(scratch)
    for _ in range(2000):
        _fill(rows, scratch)
    assert (sys.getrefcount(rows), sys.getrefcount(scratch)) == before


def test_unmanaged_in_plain_python_is_the_array_itself():
    a = np.zeros(3, np.int64)
    assert unmanaged(a) is a
