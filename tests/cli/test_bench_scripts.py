"""The bench scripts (`./dev bench` = bench/run.py, and bench/adapters.py) without their
optional packages: each figure that needs none of the missing ones is still measured, and a
missing package is one clear line, never a traceback.  Tiny budgets: nothing here is timed."""

from __future__ import annotations

import importlib.util
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# runs a bench script with some top-level packages made unimportable, as in a venv without them
_WITHOUT = """
import runpy, sys
blocked = set(sys.argv[1].split(","))
class Missing:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in blocked:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, Missing())
sys.argv = sys.argv[2:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def bench(script: str, blocked: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", _WITHOUT, blocked, str(ROOT / "bench" / script), *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})


@pytest.mark.parametrize("blocked", ["pygame", "pygame,pettingzoo"])
def test_run_adapters_measures_the_vector_env_without_connect_four(blocked):
    """The WasserlochVectorEnv needs neither pygame nor PettingZoo: its figure used to be
    skipped with the whole section ("No module named 'pettingzoo'")."""
    result = bench("run.py", blocked, "adapters", "wasserloch", "-s", "0.02")
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    out = result.stdout
    assert "no connect_four_v3 baseline: No module named" in out and "pip install -e '.[bench]'" in out, out
    vector = [line for line in out.splitlines() if line.startswith("wasserloch (VectorEnv")]
    assert len(vector) == 1 and float(vector[0].split()[-2].replace(",", "")) > 0, out
    # the AEC env is measured (alone) when PettingZoo is there, else named as skipped
    aec = "wasserloch (AEC)" in out
    assert aec == ("pettingzoo" not in blocked) and ("AEC envs skipped" in out) == (not aec), out


def test_adapters_script_without_pygame_says_so_in_one_line():
    result = bench("adapters.py", "pygame", "-g", "wasserloch", "-s", "0.02")
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.strip().splitlines() == [
        "bench/adapters.py: the ratios need PettingZoo's connect_four_v3 (No module named 'pygame'; install the "
        "bench extra: pip install -e '.[bench]', as `./dev bench` does); --table measures without it"]


def test_adapters_table_times_each_cell_after_one_untimed_game(monkeypatch):
    """The table's first cell of a game used to include the one-time start-up (Seven
    Waters engine+obs: 15 steps/s with -s 0.5): every cell now plays one game first."""
    # bench/adapters.py by its path: the name `adapters` is the tests' own package
    # (tests/adapters) once the whole suite runs
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location("bench_adapters", ROOT / "bench" / "adapters.py")
    adapters = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(adapters)

    played = []

    def one_game():
        played.append("game")
        return 7

    def timed(run, seconds):
        assert played == ["game"], "timed before a warm-up game"
        return run() / seconds
    monkeypatch.setattr(adapters, "rate", timed)
    assert adapters.cell(lambda name: one_game, "wasserloch", 0.5) == 14
    assert math.isnan(adapters.cell(lambda name: None, "wasserloch", 0.5))  # not measurable here
    # every column is such a run() of one whole game, returning its steps
    for column, make in adapters.ROWS.items():
        run = make("wasserloch")
        assert run is None and column == "openspiel" or run() > 0, column


def test_run_instructions_without_valgrind_says_so_in_one_line(tmp_path):
    """The instruction counts need valgrind: without it the section is one line, not a traceback."""
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "run.py"), "instructions", "watten", "--baseline", ""],
                            cwd=ROOT, capture_output=True, text=True, timeout=300,
                            env={"PYTHONPATH": str(ROOT / "src"), "PATH": str(tmp_path)})
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert result.stdout.strip() == "## instructions: skipped (valgrind is not installed: apt-get install valgrind)"


@pytest.mark.parametrize("games", ["3:3", "4:2", "-1:2", "12", "a:b"])
def test_run_instructions_refuses_a_range_that_is_not_one(games):
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "run.py"), "instructions", f"--games={games}"],
                            cwd=ROOT, capture_output=True, text=True, timeout=300, env={"PYTHONPATH": str(ROOT / "src")})
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert f"argument --games: {games!r} is not a range of games A:B with 0 <= A < B" in result.stderr


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed (apt-get install valgrind)")
def test_run_instructions_counts_each_path_of_a_game():
    """Two games of Watten counted on each path: a count per game, the trusted path's below
    the checked one's (it skips the checks the checked path makes)."""
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "run.py"), "instructions", "watten", "--baseline", "",
                             "--games", "1:3"], cwd=ROOT, capture_output=True, text=True, timeout=600,
                            env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert result.returncode == 0, result.stderr
    rows = {line.split()[2]: float(line.split()[3].replace(",", "")) for line in result.stdout.splitlines()
            if line.startswith("watten ")}
    assert set(rows) == {"checked", "trusted"} and 0 < rows["trusted"] < rows["checked"], result.stdout
