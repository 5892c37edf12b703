"""A fresh server's bot workers build every game's bots in the background as they start
(web/botpool.py `BotPool.warm`): the first hint or bot move of a game no longer pays for
loading its compiled kernels (Seven Waters' expert: 0.7 CPU-s at its first decision in a
worker, 0.2 s after; docs/web-server.md, Bots)."""

from __future__ import annotations

from wasserspiele.core.registry import game_names
from wasserspiele.web import botpool
from wasserspiele.web.botpool import BotPool
from wasserspiele.web.limits import Limits


def _games_there(pool: BotPool) -> list[str]:
    """The games a worker knows (this process knows the tests' fifth game besides)."""
    names = pool._pool().submit(game_names).result(timeout=120)
    assert {"wasserloch", "seven_waters", "watten", "wildwasser"} <= set(names)
    return names


def test_a_servers_bot_worker_builds_every_games_bots_as_it_starts(make_client):
    """The server's pool (started at start-up) builds them without being asked."""
    client = make_client(bot_pool="process", limits=Limits(bot_workers=1))
    pool = client.app.state.hub.bots
    built = pool._pool().submit(botpool.warmed_games, 120).result(timeout=180)
    assert built == _games_there(pool)


def test_workers_started_before_the_warm_up_build_them_once_told():
    """A worker started by a decision before the warm-up (a bot of a table resumed at
    start-up) builds them too once the server warms its pool; before that, nothing."""
    pool = BotPool(1, "process")
    try:
        assert pool._pool().submit(botpool.warmed_games, 0).result(timeout=120) == []
        pool.warm()
        assert pool._pool().submit(botpool.warmed_games, 120).result(timeout=180) == _games_there(pool)
    finally:
        pool.close()


def test_the_warm_up_loads_the_kernels_a_search_bot_uses_which_building_it_no_longer_does():
    """A search bot loads its compiled kernels before its first search, not when it is made
    (bots/ismcts.py `load_compiled`: an arena's parent process makes bots only to check
    them); the warm-up loads them itself, else a fresh server's first Seven Waters hint paid
    them again.  In a fresh process, as a worker is."""
    import subprocess
    import sys

    import pytest

    from wasserspiele.fast import COMPILED

    if not COMPILED:
        pytest.skip("numba is not installed: nothing is compiled")
    loaded = ("from wasserspiele.games.seven_waters import kernel as K;"
              "print(bool(K._rollout.signatures))")
    made = subprocess.run([sys.executable, "-c", "from wasserspiele import load;"
                           "from wasserspiele.bots.levels import bot_for_level;"
                           "bot_for_level('expert', load('seven_waters'), seed=0);" + loaded],
                          capture_output=True, text=True, timeout=600, check=True)
    assert made.stdout.split() == ["False"]
    warmed = subprocess.run([sys.executable, "-c", "from wasserspiele.web import botpool;"
                             "botpool._warm_bots();" + loaded],
                            capture_output=True, text=True, timeout=600, check=True)
    assert warmed.stdout.split() == ["True"]
