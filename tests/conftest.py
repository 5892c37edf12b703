"""Shared test settings: Hypothesis profiles kept small enough for a 2-core CI machine."""

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


@pytest.fixture
def run():
    """The command line run in-process: `run("play", "wasserloch", input=…, env=…)`, its
    exceptions raised (a traceback is a failure, not an exit code)."""
    from click.testing import CliRunner

    from wasserspiele.cli.main import main

    def _run(*args, input=None, env=None):
        return CliRunner().invoke(main, list(args), input=input, env=env, catch_exceptions=False)

    return _run
