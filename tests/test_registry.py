"""The registry and the manifests: what every game declares, and registration rules."""

from __future__ import annotations

import dataclasses

import pytest

from wasserspiele.core import registry
from wasserspiele.core.errors import UnknownGame
from wasserspiele.core.manifest import GameManifest, Limits, PluginMissing, Plugins
from wasserspiele.core.options import Option


@pytest.mark.parametrize("m", registry.manifests(), ids=lambda m: m.name)
def test_every_manifest_agrees_with_its_game(m):
    cls = registry.game_class(m.name)
    assert cls.manifest is m and cls.name == m.name and cls.title == m.title["en"] and "de" in m.title
    assert cls.option_list is m.options and cls.fixed_players == m.fixed_players
    lo, hi = m.players
    for players in {lo, hi}:
        game = registry.load(m.name, **({} if lo == hi else {"players": players}))
        assert game.players == players
        assert m.limits.game_length(game.options) > 0 and m.limits.max_chance_outcomes > 1
    assert m.notation and m.search.score_scale > 0
    for kind in ("heuristic", "codec", "render", "measures"):
        assert m.plugin(kind) is not None  # every shipped game has every plug-in, and it imports
    assert "export default" in m.web_source()


def test_listing_games_loads_no_rules():
    import subprocess
    import sys
    code = ("import sys, wasserspiele; wasserspiele.game_names(); "
            "print(sorted(m for m in sys.modules if m.endswith('.rules')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_names_are_normalised_and_unknown_names_list_the_games():
    assert registry.manifest(" Seven-Waters ").name == "seven_waters"
    with pytest.raises(UnknownGame, match=r"unknown game 'chess' \(games: .*wasserloch"):
        registry.load("chess")


def test_register_is_idempotent_and_refuses_a_second_game_of_the_same_name():
    m = registry.manifest("wasserloch")
    assert registry.register(m) is m
    impostor = dataclasses.replace(m, title={"en": "Impostor"})
    with pytest.raises(ValueError, match="'wasserloch' is already taken"):
        registry.register(impostor)
    assert registry.manifest("wasserloch") is m


def test_a_game_registered_for_a_while_then_forgotten():
    m = dataclasses.replace(registry.manifest("pebbles"), name="pebbles_too", plugins=Plugins())
    registry.register(m)
    try:
        assert "pebbles_too" in registry.game_names()
        with pytest.raises(TypeError, match="does not carry the manifest of 'pebbles_too'"):
            registry.game_class("pebbles_too")  # its Game class carries the original manifest
        with pytest.raises(PluginMissing, match="pebbles_too has no codec plug-in"):
            m.plugin("codec")
    finally:
        registry.unregister("pebbles_too")
    assert "pebbles_too" not in registry.game_names()


def test_register_by_import_path():
    assert registry.register("fifth_game.manifest:MANIFEST") is registry.manifest("pebbles")


LIMITS = Limits(max_game_length=10, max_chance_outcomes=2, num_distinct_actions=3)
PLAYERS = Option("players", 2, "int", "number of players", minimum=2, maximum=4)


@pytest.mark.parametrize("kwargs, message", [
    ({"name": "Bad Name"}, "lower-case letters"),
    ({"title": {"de": "Nur deutsch"}}, "needs an English entry"),
    ({"players": (3, 2)}, "not a range"),
    ({"players": (2, 2), "options": (PLAYERS,)}, "exactly 2 players has no players option"),
    ({"players": (2, 5), "options": (PLAYERS,)}, "needs a players option with minimum 2 and maximum 5"),
    ({"players": (2, 4), "options": ()}, "needs a players option"),
])
def test_a_manifest_refuses_contradictions(kwargs, message):
    base = dict(name="toy", title={"en": "Toy"}, game="toy.rules:Toy", players=(2, 4), options=(PLAYERS,),
                notation="x", limits=LIMITS)
    with pytest.raises(ValueError, match=message):
        GameManifest(**{**base, **kwargs})


def test_manifests_are_read_only():
    m = registry.manifest("watten")
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.name = "skat"
    with pytest.raises(TypeError):
        m.search.ismcts["exploration"] = 2.0
    with pytest.raises(TypeError):
        m.title["en"] = "Skat"


def test_the_package_docstring_example_runs_and_the_package_loads_nothing_before_it_is_asked():
    # the example `help(wasserspiele)` shows is run as written; the package's names are
    # loaded on first use (a Ctrl-C while the command line starts is said, cli/entry.py)
    import doctest
    import subprocess
    import sys
    from pathlib import Path

    import wasserspiele

    run = doctest.testmod(wasserspiele)
    assert run.failed == 0 and run.attempted >= 3
    code = "import sys, wasserspiele; print(sorted(m for m in ('babel', 'importlib.metadata') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(Path(wasserspiele.__file__).parents[1])})
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
