"""While a bot searches, the player at a terminal sees who is thinking ("Seat 1 (expert) is
thinking …", German "Platz 1 (Experte) überlegt …") instead of a screen that looks hung,
then the bot's move as before; output to a pipe or a file (scripts, these tests' captured
output) reads as it did.  A level is named in the player's language wherever the terminal
names a seat's kind (the thinking line, `--verbose`, a resumed game's seats)."""

from __future__ import annotations

import io
import time

import pytest
from rich.console import Console

from wasserspiele.bots.base import Bot
from wasserspiele.cli import console as console_module
from wasserspiele.cli.play import PlaySession


class Slow(Bot):
    """The bot it wraps, its first move after `pause` seconds (the time an expert searches)."""

    def __init__(self, bot: Bot, pause: float):
        self.bot, self.pause = bot, pause
        self.kind = bot.kind

    def choose(self, decision):
        if self.pause:
            time.sleep(self.pause)
            self.pause = 0.0
        return self.bot.choose(decision)


def _session(seats: str, lang: str, terminal: bool, pause: float = 0.0) -> tuple[PlaySession, io.StringIO]:
    """Wasserloch (one round) with bots for `seats`; seat 1's first move takes `pause`
    seconds, played by a medium bot whatever `seats` names there (its name is what is shown)."""
    buf = io.StringIO()
    session = PlaySession.create("wasserloch", None, seats, 5, ["rounds=1"], None, None, lang)
    medium = PlaySession.create("wasserloch", None, "medium,medium", 5, ["rounds=1"], None, None, lang)
    session.bots[1] = Slow(medium.bots[1], pause)
    session.console = Console(file=buf, force_terminal=terminal, width=100, highlight=False, soft_wrap=False)
    return session, buf


@pytest.mark.parametrize("lang, said", [("en", "Seat 1 (expert) is thinking …"),
                                        ("de", "Platz 1 (Experte) überlegt …")])
def test_a_searching_bot_is_shown_thinking_on_a_terminal(lang, said):
    session, buf = _session("medium,expert", lang, terminal=True, pause=1.0)
    assert session.run() == 0
    out = buf.getvalue()
    assert said in out, out[:400]
    assert out.count(said) < 40  # the line is shown while seat 1 searches, not before every move
    assert "\x1b[?25h" in out  # and then taken away (the cursor is given back)


def test_nothing_flashes_on_a_terminal_for_bots_that_answer_at_once():
    session, buf = _session("medium,expert", "en", terminal=True, pause=0.0)
    assert session.run() == 0
    assert "thinking" not in buf.getvalue()


def test_output_to_a_pipe_or_file_shows_no_thinking_line_and_reads_as_before():
    piped, buf = _session("medium,expert", "en", terminal=False, pause=1.0)
    assert piped.run() == 0
    quick, same = _session("medium,expert", "en", terminal=False, pause=0.0)
    assert quick.run() == 0
    assert "thinking" not in buf.getvalue() and "\x1b" not in buf.getvalue()
    assert buf.getvalue() == same.getvalue()


@pytest.mark.parametrize("seats, said", [
    # a level in the player's language
    ("hard,expert", ["Platz 0 (schwer) überlegt …", "Platz 1 (Experte) überlegt …"]),
    # a bot spec as typed
    ("heuristic,ismcts:iterations=30", ["Platz 0 (heuristic) überlegt …", "Platz 1 (ismcts:iterations=30) überlegt …"]),
])
def test_every_bot_move_on_a_terminal_is_announced_by_its_seat_and_kind(monkeypatch, seats, said):
    """With no delay every bot's move shows its line: the words come from the seat and
    the kind of the seat that moves."""
    monkeypatch.setattr(console_module, "THINKING_DELAY", 0.0)
    session, buf = _session(seats, "de", terminal=True)
    assert session.run() == 0
    out = buf.getvalue()
    assert all(line in out for line in said), out[:400]


def test_the_hint_s_search_is_shown_on_a_terminal(monkeypatch):
    monkeypatch.setattr(console_module, "THINKING_DELAY", 0.0)
    buf = io.StringIO()
    session = PlaySession.create("wasserloch", None, "human,medium", 2, [], None, None, "de")
    session.console = Console(file=buf, force_terminal=True, width=100)
    hint = session.hint(0)
    assert "Der Experte sucht einen Tipp …" in buf.getvalue()
    assert hint.startswith("Tipp: ")
    piped = PlaySession.create("wasserloch", None, "human,medium", 2, [], None, None, "de")
    piped.console = Console(file=io.StringIO(), width=100)
    piped.hint(0)
    assert piped.console.file.getvalue() == ""


# -- a level in the player's language wherever a seat's kind is named ------------------------
def test_verbose_names_a_level_in_german_and_a_bot_as_typed(run):
    out = run("play", "wasserloch", "--seats", "medium,easy,heuristic", "--option", "rounds=1", "--seed", "4",
              "--verbose", "--lang", "de").output
    assert out.startswith("Platz 0 (mittel): "), out[:200]
    assert "Platz 1 (leicht): " in out and "Platz 2 (heuristic): " in out
    assert "(medium)" not in out and "(easy)" not in out
    english = run("play", "wasserloch", "--seats", "medium,easy", "--option", "rounds=1", "--seed", "4",
                  "--verbose").output
    assert english.startswith("Seat 0 (medium): ") and "Seat 1 (easy): " in english


def test_a_resumed_game_names_its_bots_levels_in_german(run, tmp_path):
    save = tmp_path / "game.json"
    first = run("play", "wasserloch", "--seats", "human,expert", "--seed", "3", "--save", str(save), input="quit\n")
    assert first.exit_code == 0, first.output
    again = run("play", "--resume", str(save), "--lang", "de", input="ende\n")
    assert "Platz 0: Mensch, Platz 1: Experte" in again.output, again.output[:300]
    english = run("play", "--resume", str(save), "--lang", "en", input="quit\n")
    assert "seat 0: human, seat 1: expert" in english.output, english.output[:300]


def played_with_the_net_firing(monkeypatch, lang: str) -> str:
    """What the table said in a seeded one-round Wasserloch game of a random bot and a search
    whose CPU safety net (0.02 s, not a minute a move) fires at every searched move."""
    from wasserspiele.bots import ismcts
    monkeypatch.setattr(ismcts, "DEFAULT_CPU_SECONDS", 0.02)
    session = PlaySession.create("wasserloch", None, "random,ismcts:iterations=1000000", 5, ["rounds=1"], None,
                                 None, lang)
    buf = io.StringIO()
    session.console = Console(file=buf, force_terminal=False, width=300, highlight=False, soft_wrap=False)
    assert session.run() == 0
    return buf.getvalue()


@pytest.mark.parametrize("lang, said", [
    ("en", "Seat 1 (ismcts:iterations=1000000) stopped thinking at its safety net of 0.02 CPU seconds, after "),
    ("de", "Platz 1 (ismcts:iterations=1000000) hat das Überlegen nach 0,02 CPU-Sekunden abgebrochen "
           "(Sicherheitsnetz), bei "),
])
def test_issue17_5_a_search_cut_by_its_safety_net_is_said_at_the_table(monkeypatch, capsys, lang, said):
    """A spec naming no CPU net searched for as long as its iterations took, the player
    waiting with no word; it now keeps the default net, and when a net fires the table says
    so in the game's language (not logging's English line on stderr through the board)."""
    out = played_with_the_net_firing(monkeypatch, lang)
    assert said in out, out[:600]
    assert "iterations: with the same --seed" in out or "Iterationen: mit demselben --seed" in out
    assert "ISMCTS safety net" not in capsys.readouterr().err
