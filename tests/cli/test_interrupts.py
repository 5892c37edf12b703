"""Ctrl-C (SIGINT) and SIGTERM at chosen moments of the real `wasserspiele` process: one line
in the command line's language, exit status 130 (cli/main.py, Exit status), no traceback, and
what was done kept (a terminal game's save that resumes, the games an arena or a study
finished, a leaderboard's finished boards, a training's last generation).

The command is run as installed: the entry point [project.scripts] names in pyproject.toml,
called as the console script calls it.  A command that needs a terminal gets a pseudo-terminal.
Signals are sent when the process has said something (a prompt, a progress count), never
after a guessed sleep; one sent while the command line loads is sent by an import hook at
the import of a module the commands import.
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import shlex
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INTERRUPTED = 130

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and pseudo-terminals")


def entry_point() -> str:
    """`module:function` of the installed `wasserspiele` command."""
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]["wasserspiele"]


# The console script pip writes, with an import hook that can send the process a signal when
# a chosen module is first imported (WS_TEST_SIGNAL_AT=module, WS_TEST_SIGNAL=SIGINT|SIGTERM).
SCRIPT = """
import importlib, os, signal, sys

class SignalAt:
    def find_spec(self, name, path=None, target=None):
        if name == os.environ.get("WS_TEST_SIGNAL_AT"):
            os.kill(os.getpid(), getattr(signal, os.environ["WS_TEST_SIGNAL"]))
        return None

sys.meta_path.insert(0, SignalAt())
module, _, function = sys.argv.pop(1).partition(":")
sys.argv[0] = "wasserspiele"
sys.exit(getattr(importlib.import_module(module), function)())
"""


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WS_TEST_", "WASSERSPIELE_LAUNCHER"))}
    env.update(PYTHONPATH=os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")]),
               COLUMNS="100", LINES="40", TERM="xterm", PYTHONUNBUFFERED="1", **extra)
    return env


class Terminal:
    """The command in a pseudo-terminal, in a session of its own (as a shell runs it)."""

    def __init__(self, args: list[str], cwd: Path, **env: str):
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen([sys.executable, "-c", SCRIPT, entry_point(), *args], stdin=slave,
                                     stdout=slave, stderr=slave, cwd=cwd, env=environment(**env),
                                     start_new_session=True)
        os.close(slave)
        self.out = b""

    @property
    def text(self) -> str:
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", self.out.decode("utf-8", "replace")).replace("\r", "")

    def _read(self, wait: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], wait)
        if not ready:
            return True
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # the other end closed: the process ended
            return False
        self.out += chunk
        return bool(chunk)

    def wait_for(self, pattern: str, timeout: float = 120) -> None:
        end = time.monotonic() + timeout
        while not re.search(pattern, self.text):
            if time.monotonic() > end or not self._read(0.1) and self.proc.poll() is not None:
                self.kill()
                pytest.fail(f"never said {pattern!r}:\n{self.text[-3000:]}")

    def type(self, text: str) -> None:
        os.write(self.master, text.encode())

    def signal(self, signum: int, group: bool = False) -> None:
        """`group`: to the whole process group, as a terminal's Ctrl-C, `kill -- -PGID` or a
        service manager sends it (the command's workers too)."""
        if group:
            os.killpg(self.proc.pid, signum)
        else:
            self.proc.send_signal(signum)

    def ending(self, timeout: float = 120, nudge: bool = False) -> tuple[int, str]:
        """The exit status and all that was shown.  `nudge`: a signal that reached a prompt
        before readline waited for input (CPython checks for it only when input comes)
        takes effect on an Enter, which the prompt would otherwise ignore."""
        end = time.monotonic() + timeout
        nudged = time.monotonic() + 2  # an Enter after an interrupt taken is never read: harmless
        while self._read(0.1) or self.proc.poll() is None:
            if nudge and time.monotonic() > nudged:
                self.type("\n")
                nudged = float("inf")
            if time.monotonic() > end:
                self.kill()
                pytest.fail(f"still running:\n{self.text[-3000:]}")
        os.close(self.master)
        return self.proc.wait(), self.text

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()


def no_traceback(text: str) -> None:
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text[-3000:]


# ------------------------------------------------------------------------- while Python imports the commands
# the package's errors and their catalogues (Babel), then the commands' modules: every
# import the command waits for, from the first one the package made
@pytest.mark.parametrize("module", ["wasserspiele.core.errors", "babel", "wasserspiele.cli.language"])
@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("lang, said", [("en", "Aborted!"), ("de", "Abgebrochen!")])
def test_an_interrupt_while_the_command_line_loads_exits_130_in_one_line(tmp_path, module, signame, lang, said):
    # the first tenth of a second of every command: Ctrl-C showed a KeyboardInterrupt
    # traceback and ended by the signal (-2), SIGTERM ended it on the spot (-15); in the
    # package's own imports (its first 60 ms) both did until the package loaded them lazily
    proc = subprocess.run([sys.executable, "-c", SCRIPT, entry_point(), "games", "--lang", lang],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env=environment(WS_TEST_SIGNAL_AT=module, WS_TEST_SIGNAL=signame))
    no_traceback(proc.stderr)
    assert proc.returncode == INTERRUPTED, proc.stderr
    assert proc.stderr.strip() == said
    assert proc.stdout == ""  # interrupted before any game was listed


def test_the_command_line_loads_without_the_records_schema_rich_or_the_bots():
    # what a Ctrl-C at the start interrupts, and what `--help` waits for: pydantic's schema,
    # rich and the worker pool took two thirds of the 0.2 s the import took
    code = ("import sys; import wasserspiele.cli.main; "
            "print(sorted(m for m in ('wasserspiele.core.records', 'wasserspiele.core.schema', 'rich', "
            "'wasserspiele.bots.runner', 'pydantic') if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=environment(),
                          timeout=120)
    assert proc.stdout.strip() == "[]", proc.stdout + proc.stderr


# ------------------------------------------------------------------------- a game at the terminal
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("lang, saved, resumed", [("en", "game saved to", "resumed Wasserloch after {n} moves"),
                                                  ("de", "Spiel gespeichert in", "Wasserloch fortgesetzt nach {n} Zügen")])
def test_a_game_stopped_at_the_prompt_is_saved_and_its_resume_command_works(tmp_path, signum, lang, saved,
                                                                            resumed):
    term = Terminal(["play", "wasserloch", "--seed", "1", "--save", "my game.json", "--lang", lang], tmp_path)
    term.wait_for(r"> $")
    term.type("Ax1\n")  # one move, then the bots', then this seat's prompt again
    term.wait_for(r"Ax1[\s\S]*> $")
    term.signal(signum)
    status, text = term.ending(nudge=True)
    no_traceback(text)
    assert status == INTERRUPTED, text
    line = next(l for l in text.splitlines() if saved in l)
    command = shlex.split(line.split(": ", 1)[1] if lang == "en" else line.split("weiter mit: ", 1)[1])
    assert command[:3] == ["wasserspiele", "play", "--resume"]
    moves = len(json.loads((tmp_path / "my game.json").read_text())["actions"])
    assert moves >= 3  # the human's and both bots'
    again = Terminal(command[1:], tmp_path)  # the hint, as the player types it
    again.wait_for(r"> $")
    again.signal(signal.SIGINT)
    status, text = again.ending(nudge=True)
    assert status == INTERRUPTED
    assert resumed.format(n=moves) in text, text


def test_ctrl_c_while_a_hint_is_searched_cancels_the_hint_and_the_game_goes_on(tmp_path):
    """Ctrl-C while the expert searched a hint ended the whole game, unsaved without
    --save.  It cancels the hint; the prompt comes back and the game goes on.  (Seven
    Waters: its expert's hint takes about a second, the spinner shows after a quarter.)"""
    term = Terminal(["play", "seven_waters", "--seed", "1"], tmp_path)
    term.wait_for(r"> $")
    term.type("hint\n")
    term.wait_for(r"looking for a hint")
    term.signal(signal.SIGINT)
    term.wait_for(r"hint cancelled: the game goes on\s*\n.*> $")
    term.type("moves\n")                      # the game goes on: its commands answer
    term.wait_for(r"legal moves: [\s\S]*> $")
    term.type("quit\n")
    status, text = term.ending()
    no_traceback(text)
    assert status == 0, text


def test_sigterm_while_a_hint_is_searched_still_ends_the_game_saved(tmp_path):
    """A SIGTERM (a `kill`, a service manager) is taken as Ctrl-C is, but it is no cancel:
    during a hint it still ends the game, saved."""
    term = Terminal(["play", "seven_waters", "--seed", "1", "--save", "g.json"], tmp_path)
    term.wait_for(r"> $")
    term.type("hint\n")
    term.wait_for(r"looking for a hint")
    term.signal(signal.SIGTERM)
    status, text = term.ending()
    no_traceback(text)
    assert status == INTERRUPTED, text
    assert "hint cancelled" not in text and "game saved to g.json" in text, text


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_bot_game_stopped_while_a_bot_thinks_is_saved(tmp_path, signum):
    # SIGTERM (a `kill`) ended the game on the spot: no word of the save, nor of how to resume
    term = Terminal(["play", "wasserloch", "--seed", "3", "--seats", "expert,expert,expert", "--save", "g.json"],
                    tmp_path)
    term.wait_for(r"is thinking")
    term.signal(signum)
    status, text = term.ending()
    no_traceback(text)
    assert status == INTERRUPTED, text
    assert "game saved to g.json; continue with: wasserspiele play --resume g.json" in text
    assert json.loads((tmp_path / "g.json").read_text())["session"]["seats"] == ["expert"] * 3


# ------------------------------------------------------------------------- runs of many games
def _count(text: str) -> int:
    return int(re.findall(r"(\d+)/\d+", text)[-1])


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("lang, said", [("en", r"interrupted: the table counts the (\d+) games"),
                                        ("de", r"abgebrochen: die Tabelle zählt die (\d+) fertigen Partien")])
def test_an_arena_stopped_shows_its_finished_whole_groups_and_exits_130(tmp_path, signum, lang, said):
    # it printed the table of the games that happened to finish as a finished run's: exit 0,
    # no word that it was cut short
    # 600 games: chunks of 6 groups (runner.chunked), so the chunks under way at the signal end
    # soon; with 30000 they were 64 groups (192 games) each, seconds of play after the signal
    term = Terminal(["arena", "wasserloch", "--bots", "heuristic,random", "--games", "600", "--jobs", "2",
                     "--lang", lang], tmp_path)
    term.wait_for(r"[1-9]\d*/600")
    term.signal(signum)
    status, text = term.ending()
    no_traceback(text)
    assert status == INTERRUPTED, text
    games = int(re.search(said, text).group(1))
    title = re.search(r"Wasserloch: (\d+) (games|Partien)", text)
    assert title and int(title.group(1)) == games
    assert 0 < games < 600 and games % 3 == 0  # whole groups: the deal in each of the 3 seats


@pytest.mark.parametrize("lang, said", [("en", "stopping: waiting for the games under way"),
                                        ("de", "wird beendet: wartet auf die laufenden Partien")])
def test_the_first_interrupt_of_a_run_says_it_waits_for_the_games_under_way(tmp_path, lang, said):
    # the workers finish the games they play (an expert's Watten games: minutes) while the bar
    # went on as if nothing had been pressed; a second Ctrl-C stops at once
    term = Terminal(["arena", "watten", "--bots", "expert,random", "--games", "300", "--jobs", "2", "--lang", lang],
                    tmp_path)
    term.wait_for(r" 0/300")
    term.signal(signal.SIGINT)
    term.wait_for(said, timeout=30)
    # a second signal while the first's interrupt is still unwinding (the line just said) would
    # be taken as that one: Python raises one exception at a time
    time.sleep(1)
    term.signal(signal.SIGINT)
    status, text = term.ending(timeout=30)
    no_traceback(text)
    assert status == INTERRUPTED, text
    assert text.count(said) == 1


@pytest.mark.parametrize("signum, group", [(signal.SIGINT, False), (signal.SIGINT, True), (signal.SIGTERM, False),
                                           (signal.SIGTERM, True)],
                         ids=["ctrl-c", "ctrl-c-to-the-group", "sigterm", "sigterm-to-the-group"])
def test_a_study_stopped_reports_the_games_that_finished(tmp_path, signum, group):
    # SIGTERM ended the study on the spot: every game played (held in memory until the
    # report) lost, no report; sent to the whole group it ended the workers too, and the
    # pool's BrokenProcessPool traceback lost the study as well
    # 600 games: chunks of 18 (runner.chunked), so the games under way at the signal end soon
    term = Terminal(["lab", "wasserloch", "--games", "600", "--jobs", "2", "--out", "study"], tmp_path)
    term.wait_for(r"[1-9]\d*/600")
    term.signal(signum, group)
    status, text = term.ending()
    no_traceback(text)
    assert status == INTERRUPTED, text
    reported = int(re.search(r"interrupted: reported the (\d+) games that finished", text).group(1))
    rows = (tmp_path / "study" / "results.csv").read_text().splitlines()
    assert len(rows) == reported + 1  # the header and one whole line a game
    assert json.loads((tmp_path / "study" / "study.json").read_text())["interrupted"] is True
    assert "**Interrupted**" in (tmp_path / "study" / "report.md").read_text()


def test_a_leaderboard_stopped_keeps_the_boards_of_the_games_it_finished(tmp_path):
    # --data was written once, after every game: an interrupt in the last game lost the others
    term = Terminal(["leaderboard", "wasserloch", "watten", "--bots", "random,heuristic", "--games", "200",
                     "--far-games", "0", "--jobs", "1", "--data", "boards.json"], tmp_path)
    term.wait_for(r"wrote boards.json \(wasserloch\)[\s\S]*watten:")
    term.signal(signal.SIGINT)
    status, text = term.ending()
    no_traceback(text)
    assert status == INTERRUPTED, text
    assert "interrupted: boards.json holds the boards of wasserloch, the games played to the end" in text
    assert list(json.loads((tmp_path / "boards.json").read_text())["boards"]) == ["wasserloch"]


def test_a_training_stopped_names_its_last_generation_and_the_command_that_resumes(tmp_path):
    # Click's "Aborted!" said nothing of the weights written, nor how to go on
    term = Terminal(["train", "wasserloch", "--games", "4", "--generations", "50", "--iterations", "20",
                     "--epochs", "1", "--jobs", "1", "--out", "w.npz", "--positions", "pos.npz"], tmp_path)
    term.wait_for(r"wrote w.npz and w.json \(generation 0")
    term.signal(signal.SIGINT)
    status, text = term.ending()
    no_traceback(text)
    assert status == INTERRUPTED, text
    said = re.search(r"interrupted: w.npz and w.json hold generation (\d+), the last that finished; `([^`]+)` "
                     r"resumes from the positions saved so far", text)
    assert said, text
    assert json.loads((tmp_path / "w.json").read_text())  # whole files
    command = shlex.split(said.group(2))
    assert command[:3] == ["wasserspiele", "train", "wasserloch"]
    assert command[command.index("--positions") + 1] == "pos.npz" and (tmp_path / "pos.npz").is_file()


@pytest.mark.parametrize("lang, said", [("en", "Aborted!"), ("de", "Abgebrochen!")])
def test_an_interrupt_while_click_reads_the_command_line_exits_130(monkeypatch, lang, said):
    # a Ctrl-C between the import and the command (Click parsing the root's options): Click's
    # "Aborted!" with exit status 1, not the 130 of every other interrupt
    import click
    from click.testing import CliRunner

    from wasserspiele.cli.main import main

    def interrupted(self, ctx, args):
        raise KeyboardInterrupt

    monkeypatch.setattr(click.Group, "parse_args", interrupted)
    result = CliRunner().invoke(main, ["--lang", lang, "games"])
    assert result.exit_code == INTERRUPTED, result.output
    assert result.output.strip() == said


def test_a_corpus_stopped_keeps_each_written_game_with_its_line(tmp_path):
    # Click's "Aborted!" said nothing of what was written; a game's record and its visits line
    # are now written together, with Ctrl-C held off between them
    term = Terminal(["corpus", "wasserloch", "--games", "500", "--iterations", "20", "--out", "corpus"], tmp_path)
    end = time.monotonic() + 120
    while not (tmp_path / "corpus" / "game-0001.json").exists():  # two games written: stop during the third
        assert time.monotonic() < end and term.proc.poll() is None, term.text
        term._read(0.05)
    term.signal(signal.SIGINT)
    status, text = term.ending()
    no_traceback(text)
    assert status == INTERRUPTED, text
    said = re.search(r"interrupted: corpus holds the (\d+) games written so far, each with its line in visits.jsonl",
                     text)
    assert said, text
    records = sorted(p.name for p in (tmp_path / "corpus").glob("game-*.json"))
    lines = [json.loads(line)["record"] for line in (tmp_path / "corpus" / "visits.jsonl").read_text().splitlines()]
    assert records == lines and len(records) == int(said.group(1)) >= 2


@pytest.mark.parametrize("module", ["llvmlite.binding.executionengine", "_weakrefset", "weakref"])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupt_inside_a_callback_from_compiled_code_comes_again_outside_it(monkeypatch, signum, module):
    # CI: numba compiling a kernel calls back into llvmlite's Python through ctypes, which
    # prints and drops an exception raised there; the KeyboardInterrupt of a Ctrl-C sent in
    # such a callback was lost and `train` ran on to its fiftieth generation
    # (test_a_training_stopped_names_its_last_generation_and_the_command_that_resumes).  The
    # handlers the command takes send the signal again a moment later, outside the callback.
    # So too in a weak reference's callback (a WeakSet's `_remove`, `weakref.finalize`), run
    # as a bot's search frees its trees: printed as "Exception ignored in", and dropped.
    from wasserspiele.cli import entry
    held = (signal.SIGINT, signal.SIGTERM)
    previous = {s: signal.getsignal(s) for s in held}
    monkeypatch.setattr(entry, "_owner", None)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        entry.take_sigterm_as_interrupt()
        handler = signal.getsignal(signum)
    finally:
        for s in held:
            signal.signal(s, previous[s])
    sent = []
    monkeypatch.setattr(entry.os, "kill", lambda pid, s: sent.append((pid, s)))
    callback = {"__name__": module, "sys": sys}
    exec(f"def notify(handler):\n    handler({int(signum)}, sys._getframe())", callback)
    try:
        callback["notify"](handler)
    except KeyboardInterrupt:
        pytest.fail("raised inside the callback, where ctypes prints it and drops it")
    end = time.monotonic() + 10
    while not sent and time.monotonic() < end:
        time.sleep(0.01)
    assert sent == [(os.getpid(), signum)]
    with pytest.raises(KeyboardInterrupt):   # sent again: raised where the program is
        handler(signum, sys._getframe())
