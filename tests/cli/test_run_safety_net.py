"""`arena` and `lab` play their games in worker processes, where a search's CPU safety net
(bots/ismcts.py) that fired was written by logging's last resort: an English line per bot and
game on stderr, in the middle of the progress display, even for `arena --lang de`.  Now no such
line: the run counts the moves cut short per bot and says them once, after its games, in the
command's language (the arena's German, the lab's English, and in the lab's report).

The real commands with two worker processes, whose searches' CPU clock advances one second at
every reading (forked workers inherit it): `cpu_seconds=5` ends every search at 40
iterations, so the net fires at every searched move and the games still repeat from their
seeds (the lab plays its notable games again to record them)."""

from __future__ import annotations

import re
import subprocess
import sys

from .test_interrupts import environment

SPEC = "ismcts:iterations=1000000,cpu_seconds=5"
CLOCK = """
import itertools, sys, time, types
from wasserspiele.bots import ismcts
ticks = itertools.count()
ismcts.time = types.SimpleNamespace(perf_counter=time.perf_counter, thread_time=lambda: float(next(ticks)))
from wasserspiele.cli.entry import main
sys.argv[0] = "wasserspiele"
main()
"""
ARGS = ["--bots", f"{SPEC};random", "--players", "2", "--option", "rounds=1", "--seed", "3", "--jobs", "2"]


def _command(tmp_path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", CLOCK, *args], capture_output=True, text=True, cwd=tmp_path,
                          env=environment(), timeout=300)


def test_the_german_arena_says_the_net_once_a_bot_in_german_after_its_games(tmp_path):
    proc = _command(tmp_path, "arena", "wasserloch", *ARGS, "--games", "4", "--lang", "de")
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stderr.splitlines()
    assert not any("ISMCTS" in x or "safety net" in x for x in lines), proc.stderr[-2000:]
    said = [i for i, x in enumerate(lines) if "Sicherheitsnetz" in x]
    assert len(said) == 1, proc.stderr[-2000:]
    counted = re.fullmatch(rf"Bot „{re.escape(SPEC)}“: (\d+) seiner (\d+) Züge wurden vom CPU-Sicherheitsnetz "
                           r"seiner Suche abgebrochen, derselbe Startwert wiederholt diese Ergebnisse darum "
                           r"vielleicht nicht \(gib ihm weniger iterations oder ein größeres cpu_seconds\)",
                           lines[said[0]])
    assert counted and 1 < int(counted.group(1)) <= int(counted.group(2)), lines[said[0]]
    progress = [i for i, x in enumerate(lines) if "Partien gespielt" in x]
    assert progress and max(progress) < said[0]  # after the games, not among them
    assert "Wasserloch: 4 Partien" in proc.stdout  # the table as ever, on stdout


def _said_once_in_english(proc: subprocess.CompletedProcess) -> tuple[list[str], str]:
    """A run's stderr lines and its one line on the net (no search's log line among them),
    which counts the moves cut short, more than one and at most the bot's moves."""
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stderr.splitlines()
    assert not any("ISMCTS" in x for x in lines), proc.stderr[-2000:]
    said = [x for x in lines if "safety net" in x]
    assert len(said) == 1, proc.stderr[-2000:]
    counted = re.fullmatch(rf"bot '{re.escape(SPEC)}': (\d+) of its (\d+) moves were cut short by its search's "
                           r"CPU safety net, so the same seed may not repeat these results \(give it fewer "
                           r"iterations or a larger cpu_seconds\)", said[0])
    assert counted and 1 < int(counted.group(1)) <= int(counted.group(2)), said[0]
    return lines, said[0]


def test_the_lab_says_it_after_its_games_and_in_its_report(tmp_path):
    proc = _command(tmp_path, "lab", "wasserloch", *ARGS, "--games", "4", "--out", str(tmp_path / "out"))
    lines, said = _said_once_in_english(proc)
    assert lines.index(said) > max(i for i, x in enumerate(lines) if "games finished" in x)
    assert f"**CPU safety net**: {said}." in (tmp_path / "out" / "report.md").read_text(encoding="utf-8")


def test_the_leaderboard_says_it_once_a_bot_and_pairing_after_its_games(tmp_path):
    # the leaderboard's pairings ran with the net's log line a bot and game on stderr
    proc = _command(tmp_path, "leaderboard", "wasserloch", "--bots", f"random,{SPEC}", "--games", "6",
                    "--seed", "3", "--jobs", "2")
    _said_once_in_english(proc)
    assert "## wasserloch" in proc.stdout
