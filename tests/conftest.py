"""Shared test settings: Hypothesis profiles kept small enough for a 2-core CI machine, and
the number of workers `./dev test` (pytest-xdist's `-n auto`) starts."""

import os

import pytest

from hypothesis import HealthCheck, settings

settings.register_profile("default", max_examples=25, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=25, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "default")

# A test-only fifth game (tests/fifth_game) joins the registry like a game from another
# package, so every registry-driven test (conformance, golden, web, bots) also proves that
# generic code needs no game's name.
from fifth_game import register as _register_fifth_game  # noqa: E402

_register_fifth_game()

MOST_WORKERS = 4  # the browser tests' Chromium and servers gain little from more, and cost memory


@pytest.hookimpl(optionalhook=True)  # (pytest-xdist's hook: unknown where it is not installed)
def pytest_xdist_auto_num_workers(config):
    """`-n auto` (./dev test): one worker per core this process may use — its CPU affinity,
    and a container's CPU quota, which os.cpu_count() does not see (a 2-CPU container on a
    64-core host would start 64 workers, each with its browser) — at most MOST_WORKERS."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    try:
        with open("/sys/fs/cgroup/cpu.max") as f:  # cgroup v2: "<quota> <period>" or "max <period>"
            quota, period = f.read().split()
        if quota != "max":
            cores = min(cores, max(1, int(quota) // int(period)))
    except (OSError, ValueError):
        pass
    return max(1, min(cores, MOST_WORKERS))


@pytest.fixture
def run():
    """The command line run in-process: `run("play", "wasserloch", input=…, env=…)`, its
    exceptions raised (a traceback is a failure, not an exit code)."""
    from click.testing import CliRunner

    from wasserspiele.cli.main import main

    def _run(*args, input=None, env=None):
        return CliRunner().invoke(main, list(args), input=input, env=env, catch_exceptions=False)

    return _run
