"""Pebbles, a game the package has never heard of, through every generic part of the project:
the CLI (`play`, `replay`), the web lobby and a table, the lab, the arena, the three
adapters' environments, the bots and levels, and registration by entry point.

The registry-driven suites (conformance, golden, web/test_hidden, web/test_static, the
adapters' tests, bots/test_ismcts) run it too, because tests/conftest.py registers it.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import wasserspiele
from wasserspiele.core.registry import game_class, game_names, manifest

from web.conftest import client, db_url, make_client  # noqa: F401  (the web tests' fixtures)

from .manifest import MANIFEST

SRC = Path(wasserspiele.__file__).parent
TESTS = Path(__file__).parents[1]
GAME_NAMES = ("wasserloch", "seven_waters", "watten", "wildwasser")


def test_pebbles_is_registered_by_its_manifest_alone():
    assert "pebbles" in game_names()
    assert manifest("pebbles") is MANIFEST and game_class("pebbles").manifest is MANIFEST
    game = wasserspiele.load("pebbles", players=3)
    assert (game.name, game.title, game.players) == ("pebbles", "Pebbles", 3)
    assert game.option_list is MANIFEST.options


def test_generic_code_names_no_game():
    """No source outside a game's folder mentions the fifth game, and no string in it is a
    game's name (a table keyed by game, a default game); docstrings may show examples."""
    for path in SRC.rglob("*"):
        if path.suffix in (".py", ".js", ".html", ".toml", ".json", ".md"):
            text = path.read_text(encoding="utf-8").lower()
            assert "pebbles" not in text and "fifth_game" not in text, path
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC)
        if rel.parts[0] == "games":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert node.value not in GAME_NAMES, f"{rel}:{node.lineno} names {node.value!r}"
    for path in (SRC / "web" / "static").rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        assert not any(f'"{name}' in text or f"/{name}." in text for name in GAME_NAMES), path


# ----------------------------------------------------------------------------- CLI
def test_cli_lists_plays_all_bot_and_replays(tmp_path):
    from wasserspiele.cli.main import main
    runner = CliRunner()
    listed = runner.invoke(main, ["games"], catch_exceptions=False)
    assert "pebbles  (Pebbles, 2-3 players)" in listed.output and "moves: play N" in listed.output
    assert "first_player" in listed.output
    save = tmp_path / "pebbles.json"
    played = runner.invoke(main, ["play", "pebbles", "--players", "3", "--seats", "heuristic,random,expert",
                                  "--seed", "4", "--save", str(save)], catch_exceptions=False)
    assert played.exit_code == 0, played.output
    assert "Result" in played.output and "Winner(s):" in played.output
    doc = json.loads(save.read_text())
    assert doc["game"] == "pebbles" and len(doc["actions"]) == 12 and sorted(doc["setup"]["bags"][0]) == list(range(1, 17))
    shown = runner.invoke(main, ["replay", str(save)], catch_exceptions=False)
    assert shown.exit_code == 0 and "Winner(s):" in shown.output
    as_json = json.loads(runner.invoke(main, ["replay", str(save), "--json"], catch_exceptions=False).output)
    assert as_json["game"] == "pebbles" and as_json["terminal"] is True
    rules = runner.invoke(main, ["rules", "pebbles"], catch_exceptions=False)
    assert "PB-4 The prize" in rules.output


def test_cli_refuses_a_bad_pebbles_record_naming_the_field(tmp_path):
    from wasserspiele.cli.main import main
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "pebbles", "players": 2, "setup": {"bags": [[1, 1, 2]]}, "actions": []}))
    out = CliRunner().invoke(main, ["replay", str(bad)])
    assert out.exit_code == 2 and "setup.bags[0]" in out.output


# ----------------------------------------------------------------------------- bots
def test_levels_take_the_manifests_budgets():
    from wasserspiele.bots.levels import bot_for_level
    game = wasserspiele.load("pebbles")
    assert bot_for_level("expert", game, seed=1).iterations == 300  # MANIFEST.search.levels
    assert bot_for_level("hard", game, seed=1).iterations == 200    # the level's default
    assert bot_for_level("medium", game, seed=1).kind == "heuristic"
    from wasserspiele.bots.registry import make_bot
    assert make_bot("ismcts", game, seed=1).rollout_depth == 10     # MANIFEST.search.ismcts


def test_arena_plays_duplicate_deals():
    from wasserspiele.bots.arena import run_arena
    from wasserspiele.bots.specs import parse_bot_spec
    specs = [parse_bot_spec("heuristic"), parse_bot_spec("random")]
    result = run_arena("pebbles", {"players": 2}, specs, 40, seed=3, jobs=1)
    assert len(result.games) == 40 and result.games[0].seed == result.games[1].seed
    again = run_arena("pebbles", {"players": 2}, specs, 40, seed=3, jobs=1)
    assert [g.scores for g in again.games] == [g.scores for g in result.games]
    from wasserspiele.cli.main import main
    out = CliRunner().invoke(main, ["arena", "pebbles", "--bots", "heuristic,random",
                                    "--games", "4", "--jobs", "1"])
    assert out.exit_code == 0, out.output


# ----------------------------------------------------------------------------- lab
def test_lab_study_measures_and_report(tmp_path):
    from wasserspiele.lab import make_study, run_study, write_report
    from wasserspiele.core.records import read_record
    from wasserspiele.lab.measures import measure_record
    study = make_study("pebbles", players=["2", "3"], bots=["heuristic", "random"], games=24, seed=2)
    result = run_study(study, jobs=1)
    assert len(result.rows) == 48
    assert all(set(r["measures"]) == {"big_prize_decides", "spread"} for r in result.rows)
    info = write_report(result, tmp_path)
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "games whose winner took the bigger prize" in report
    rows = {(r["condition"], r["game"]): r for r in result.rows}
    for n in info["notable"]:  # a notable record replays to the measures of its row
        m = measure_record(read_record(tmp_path / n["file"]))
        assert m.pop("units", 0) == rows[(n["condition"], n["game"])]["units"]
        assert m == rows[(n["condition"], n["game"])]["measures"]


# ----------------------------------------------------------------------------- web
def test_web_lobby_lists_pebbles_and_serves_its_client(client):
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    g = games["pebbles"]
    assert g["titles"] == {"en": "Pebbles", "de": "Kiesel"} and g["players"] == [2, 3]
    assert [o["name"] for o in g["options"]] == ["players", "first_player"]
    module = client.get(g["client"])
    assert module.status_code == 200 and "javascript" in module.headers["content-type"]
    assert module.text == (TESTS / "fifth_game" / "web.js").read_text(encoding="utf-8")
    missing = client.get("/static/games/nonesuch.js")
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"


def test_web_table_plays_pebbles_to_the_end_and_replays(client):
    from web.helpers import create, humans, play_first_legal, table_state
    table = create(client, "pebbles", options={"players": 3}, seats=humans(3))
    play_first_legal(client, table, 12)
    final = table_state(client, table["id"])
    assert final["terminal"] and final["view"]["over"]
    record = client.get(f"/api/tables/{table['id']}/record").json()
    assert record["game"] == "pebbles" and len(record["actions"]) == 12
    step = client.get(f"/api/tables/{table['id']}/replay/5").json()
    assert step["view"]["round"] == 2


# ----------------------------------------------------------------------------- adapters
def test_the_three_environments_play_pebbles():
    gymnasium = pytest.importorskip("gymnasium")
    import numpy as np
    from wasserspiele.adapters import gymnasium as wgym
    from wasserspiele.adapters import pettingzoo as wpz
    assert "wasserspiele/Pebbles-v0" in wgym.register_all()
    env = gymnasium.make("wasserspiele/Pebbles-v0", opponents="heuristic", players=3)
    obs, info = env.reset(seed=1)
    done = False
    while not done:
        action = int(np.flatnonzero(info["action_mask"])[0])
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    aec = wpz.env("pebbles", players=2)
    aec.reset(seed=2)
    for agent in aec.agent_iter():
        observation, reward, termination, truncation, _ = aec.last()
        aec.step(None if termination or truncation else int(np.flatnonzero(observation["action_mask"])[0]))
    pyspiel = pytest.importorskip("pyspiel")
    from wasserspiele.adapters import openspiel as wos
    assert "wasserspiele_pebbles" in wos.register()
    game = pyspiel.load_game("wasserspiele_pebbles", {"players": 3})
    info = (game.num_distinct_actions(), game.max_chance_outcomes(), game.max_game_length())
    assert info == (16, 16, 15 + 4 * 3)  # the manifest's limits
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


# ----------------------------------------------------------------------------- entry points
def _dist(tmp_path: Path, entry: str) -> Path:
    """A minimal installed distribution (a .dist-info folder) declaring one entry point."""
    info = tmp_path / "pebbles_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: pebbles-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[wasserspiele.games]\n{entry}\n")
    return tmp_path


def _cli(*args: str, path: list[Path]) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(p) for p in [SRC.parent, *path])}
    return subprocess.run([sys.executable, "-m", "wasserspiele.cli.main", *args], env=env,
                          capture_output=True, text=True, timeout=120)


def test_an_entry_point_registers_a_game_from_another_package(tmp_path):
    plain = _cli("games", path=[TESTS])
    assert plain.returncode == 0 and "pebbles" not in plain.stdout  # importable is not registered
    plugin = [_dist(tmp_path, "pebbles = fifth_game.manifest:MANIFEST"), TESTS]
    listed = _cli("games", path=plugin)
    assert listed.returncode == 0 and "pebbles  (Pebbles, 2-3 players)" in listed.stdout, listed.stderr
    played = _cli("play", "pebbles", "--seats", "heuristic,random", "--seed", "5", path=plugin)
    assert played.returncode == 0 and "Winner(s):" in played.stdout, played.stderr


def test_a_broken_entry_point_spares_the_other_games(tmp_path):
    plugin = [_dist(tmp_path, "pebbles = fifth_game.missing:MANIFEST"), TESTS]
    listed = _cli("games", path=plugin)
    assert listed.returncode == 0 and "wasserloch" in listed.stdout and "pebbles" not in listed.stdout
    assert "game 'pebbles' skipped" in listed.stderr
    refused = _cli("play", "pebbles", "--seats", "random,random", path=plugin)
    assert refused.returncode == 2 and "could not be loaded" in refused.stderr + refused.stdout
