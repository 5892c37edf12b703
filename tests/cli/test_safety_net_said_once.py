"""A search's CPU safety net (bots/ismcts.py) fired at every move of a slow machine's bot, and
the table said so at every move: a line per move in the middle of the game.  The hint's search
(the expert's) had it said by logging's last resort, in English on stderr, in the middle of a
German game, once per hint.  Now the table says it once a game for each seat, in the game's
language, and counts the moves cut short at the end; the hint's once, in the game's language."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from .test_interrupts import environment
from .test_terminal_thinking import played_with_the_net_firing

TOTAL = {"en": re.compile(r"^Seat 1 \(ismcts:iterations=1000000\): (\d+) moves were cut short by its safety net$", re.M),
         "de": re.compile(r"^Platz 1 \(ismcts:iterations=1000000\): (\d+) Züge vom Sicherheitsnetz abgebrochen$", re.M)}
FIRST = {"en": "Seat 1 (ismcts:iterations=1000000) stopped thinking at its safety net of 0.02 CPU seconds",
         "de": "Platz 1 (ismcts:iterations=1000000) hat das Überlegen nach 0,02 CPU-Sekunden abgebrochen"}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_seat_s_searches_cut_short_are_said_once_and_counted_at_the_end(monkeypatch, lang):
    out = played_with_the_net_firing(monkeypatch, lang)
    assert out.count(FIRST[lang]) == 1, out[:3000]
    counted = TOTAL[lang].search(out)
    assert counted and int(counted.group(1)) >= 2, out[-1500:]
    assert out.index(FIRST[lang]) < counted.start()


# the expert's net (the hint's search) and the default net (a seat's spec without cpu_seconds)
# made to fire at once, in the real command
FAST_NET = """
import sys
from wasserspiele.bots import ismcts, levels
ismcts.DEFAULT_CPU_SECONDS = 0.001
levels.LEVELS["expert"] = ("ismcts", {"iterations": 1000000, "cpu_seconds": 0.001})
from wasserspiele.cli.entry import main
sys.argv[0] = "wasserspiele"
main()
"""
HINT_CUT = {"en": "the hint's search stopped at its safety net", "de": "die Suche des Tipps wurde vom Sicherheitsnetz"}


@pytest.mark.parametrize("lang, hint, quit", [("en", "hint", "quit"), ("de", "tipp", "ende")])
def test_a_hint_cut_short_is_said_once_in_the_game_s_language_not_in_english_on_stderr(tmp_path, lang, hint, quit):
    proc = subprocess.run([sys.executable, "-c", FAST_NET, "play", "wasserloch", "--seats",
                           "ismcts:iterations=1000000,human", "--seed", "1", "--lang", lang],
                          input=f"{hint}\n{hint}\n{quit}\n", capture_output=True, text=True, cwd=tmp_path,
                          env=environment(), timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "ISMCTS safety net" not in proc.stderr, proc.stderr[-2000:]
    assert proc.stdout.count(HINT_CUT[lang]) == 1, proc.stdout[-3000:]
    assert proc.stdout.count(FIRST[lang].replace("Seat 1", "Seat 0").replace("Platz 1", "Platz 0")
                             .replace("0.02", "0.001").replace("0,02", "0,001")) == 1, proc.stdout[:3000]
