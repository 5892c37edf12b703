"""`./dev test` runs `-n auto`: the number of workers follows the cores this process may
use — a container's CPU quota too, which os.cpu_count() does not see — at most four."""

from __future__ import annotations

import builtins
import io

import conftest


def workers(monkeypatch, affinity: int, cpu_max: str | None) -> int:
    monkeypatch.setattr(conftest.os, "sched_getaffinity", lambda _pid: set(range(affinity)), raising=False)
    real_open = builtins.open

    def fake_open(path, *args, **kwargs):
        if path == "/sys/fs/cgroup/cpu.max":
            if cpu_max is None:
                raise FileNotFoundError(path)
            return io.StringIO(cpu_max)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", fake_open)
    return conftest.pytest_xdist_auto_num_workers(None)


def test_a_two_cpu_quota_on_a_large_host_gives_two_workers(monkeypatch):
    assert workers(monkeypatch, 64, "200000 100000\n") == 2


def test_no_quota_gives_one_worker_per_core_up_to_four(monkeypatch):
    assert workers(monkeypatch, 2, "max 100000\n") == 2
    assert workers(monkeypatch, 3, None) == 3
    assert workers(monkeypatch, 64, "max 100000\n") == conftest.MOST_WORKERS == 4


def test_a_quota_below_one_core_still_gives_one_worker(monkeypatch):
    assert workers(monkeypatch, 8, "50000 100000\n") == 1
