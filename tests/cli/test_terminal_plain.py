"""`play --plain` (or WASSERSPIELE_PLAIN=1): the terminal game for a screen reader or a
braille display that reads the terminal line by line (Orca, NVDA or JAWS in a console,
VoiceOver in Terminal.app).  On a real terminal the game drew styles and colours, a spinner
redrawn in place about twelve times a second while a bot thought (read aloud at every
redraw), and cleared the screen at every hand-over between players sharing it (the reader
lost its place and the log); TERM=dumb avoided the first two only by accident and pushed
the log away with blank lines.  Plain output has none of these; the default output is
unchanged (the other tests in tests/cli)."""

from __future__ import annotations

import functools
import io
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from wasserspiele.cli.console import make_console, thinking
from wasserspiele.cli.main import main

from .test_terminal_thinking import _session

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("wasserloch", "seven_waters", "watten", "wildwasser")
QUIT = {"en": "quit", "de": "ende"}
PROMPT = {"en": r"your move \(help", "de": r"dein Zug \(hilfe"}
# quitting after a move of one's own, unsaved, asks for a file (Enter: none)
FILE_PROMPT = {"en": r"\nfile> ", "de": r"\nDatei> "}
SGR = re.compile(r"\x1b\[[0-9;]*m")  # a colour or a style
CLEAR = ("\x1b[2J", "\x1b[3J")  # erase the screen, erase the scrollback
REDRAW = ("\r\x1b[2K", "\x1b[?25l", "\x1b[1A")  # back to the line's start, hide the cursor, line up

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")


class Terminal:
    """`wasserspiele ARGS` in a pseudo-terminal of a colour terminal (TERM=xterm-256color)."""

    def __init__(self, args: list[str], **env: str):
        self.master, slave = pty.openpty()
        environ = {k: v for k, v in os.environ.items()
                   if k not in ("NO_COLOR", "FORCE_COLOR", "WASSERSPIELE_PLAIN", "WASSERSPIELE_LAUNCHER")}
        environ.update(PYTHONPATH=os.pathsep.join([str(ROOT / "src"), environ.get("PYTHONPATH", "")]),
                       COLUMNS="100", LINES="40", TERM="xterm-256color", PYTHONUNBUFFERED="1")
        environ.update(env)  # (COLUMNS too: a narrow terminal)
        self.proc = subprocess.Popen([sys.executable, "-m", "wasserspiele", *args], stdin=slave, stdout=slave,
                                     stderr=slave, cwd=ROOT, env=environ, start_new_session=True)
        os.close(slave)
        self.out = b""

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

    @property
    def raw(self) -> str:
        return self.out.decode("utf-8", "replace")  # whole: a read may end inside a character

    @property
    def text(self) -> str:
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", self.raw).replace("\r", "")

    def answer(self, pattern: str, line: str, timeout: float = 60) -> None:
        """Wait for the `pattern`'th prompt not yet answered, then type `line` and Enter."""
        start = len(self.text)
        end = time.monotonic() + timeout
        while not re.search(pattern, self.text[start:]):
            if time.monotonic() > end or not self._read(0.1) and self.proc.poll() is not None:
                self.proc.kill()
                pytest.fail(f"never asked {pattern!r}:\n{self.text[-2000:]}")
        os.write(self.master, (line + "\n").encode())

    def ending(self, timeout: float = 60) -> int:
        end = time.monotonic() + timeout
        while self._read(0.1) or self.proc.poll() is None:
            if time.monotonic() > end:
                self.proc.kill()
                pytest.fail(f"still running:\n{self.text[-2000:]}")
        os.close(self.master)
        return self.proc.wait()


def _played(args: list[str], lines: list[str], lang: str = "en", unsaved: bool = False, **env: str) -> Terminal:
    """The game played at a terminal: each of `lines` typed at the next prompt, then (a game
    quit `unsaved` after a move) Enter at the question for a file; exit 0."""
    term = Terminal(["play", *args, "--lang", lang], **env)
    for line in lines:
        term.answer(PROMPT[lang], line)
    if unsaved:
        term.answer(FILE_PROMPT[lang], "")
    assert term.ending() == 0, term.text[-2000:]
    return term


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", GAMES)
def test_plain_draws_the_board_without_colours_or_styles_on_a_colour_terminal(game, lang):
    """A colour terminal gets styles by default (bold heads, red suits, seat colours); with
    --plain none, and the prompt and the last words are the same (the moves, plain, are said
    in words with what to type: test_plain_moves)."""
    styled = _played([game, "--seed", "1"], ["moves", QUIT[lang]], lang)
    plain = _played([game, "--seed", "1", "--plain"], ["moves", QUIT[lang]], lang)
    assert SGR.search(styled.raw)  # the terminal is one that shows colours
    assert not SGR.search(plain.raw), repr(plain.raw[:600])
    assert plain.text.splitlines()[-3:] == styled.text.splitlines()[-3:]


def test_the_environment_variable_asks_for_plain_output_in_every_game():
    """Set once in the shell's profile (WASSERSPIELE_PLAIN=1), as a screen reader's user
    would, rather than typed at each game."""
    plain = _played(["watten", "--seed", "1"], ["moves", "quit"], WASSERSPIELE_PLAIN="1")
    assert "Your hand" in plain.text
    assert not SGR.search(plain.raw), repr(plain.raw[:600])


@pytest.mark.parametrize("lang, hand, played", [("en", "Your hand", "You played Ax1"),
                                                ("de", "Deine Hand", "Du hast Ax1 gelegt")])
def test_plain_keeps_the_screen_at_the_hand_over_between_players_sharing_it(lang, hand, played):
    """Two players at one screen: by default the screen and its scrollback are cleared at
    each hand-over (the reader loses its place and the log); with --plain nothing is
    cleared or pushed away with blank lines, and the first player's move stays above the
    second player's hand, to be read back."""
    args = ["wasserloch", "--seats", "human,human", "--seed", "1"]
    handover = {"en": "press Enter", "de": "Enter drücken"}[lang]
    lines = ["\a", "Ax1", "\a", QUIT[lang], "\f"]  # \f: Enter at the question for a file
    cleared = Terminal(["play", *args, "--lang", lang])
    plain = Terminal(["play", *args, "--plain", "--lang", lang])
    for term in (cleared, plain):
        for line in lines:
            prompt = {"\a": handover, "\f": FILE_PROMPT[lang]}.get(line[:1], PROMPT[lang])
            term.answer(prompt, line.lstrip("\a\f"))
        assert term.ending() == 0, term.text[-2000:]
    assert all(code in cleared.raw for code in CLEAR)
    assert not any(code in plain.raw for code in CLEAR), repr(plain.raw)
    assert "\n\n\n" not in plain.text.replace("\r", "")
    after = plain.text.split(played, 1)[1]
    assert hand in after  # the second player's hand, below the first player's move


@pytest.mark.parametrize("lang, said", [("en", "Seat 1 (expert) is thinking …"),
                                        ("de", "Platz 1 (Experte) überlegt …")])
def test_plain_says_a_bot_s_thinking_once_as_a_line_and_redraws_nothing(lang, said):
    """A bot searching for a second: a spinner redrawn in place on the default terminal;
    plain, one line that says it, then the game goes on below it."""
    session, buf = _session("medium,expert", lang, terminal=True, pause=1.0)
    session.console = make_console(plain=True, file=buf, force_terminal=True, width=100)
    session.plain = True
    assert session.run() == 0
    out = buf.getvalue()
    assert out.count(said) == 1, out[:600]
    assert "\r" not in out and "\x1b" not in out, repr(out[:600])
    assert out.index(said) < out.index("Seat 1 played" if lang == "en" else "Platz 1 legte")


def test_plain_thinking_says_nothing_for_a_bot_that_answers_at_once():
    buf = io.StringIO()
    console = make_console(plain=True, file=buf, force_terminal=True, width=100)
    with thinking(console, "Seat 1 (expert) is thinking …", plain=True):
        pass
    time.sleep(0.4)  # past the delay: a timer left running would print now
    assert buf.getvalue() == ""


def test_a_real_game_against_a_searching_bot_has_no_redrawn_line_with_plain():
    """The real command at a terminal against the expert: no carriage return redraws, no
    hidden cursor, no line moved up over, whatever the search's time."""
    term = _played(["wasserloch", "--seats", "human,expert", "--seed", "3", "--option", "rounds=1", "--plain"],
                   ["Ax1", "moves", "quit"], unsaved=True)
    assert not any(code in term.raw for code in REDRAW), repr(term.raw[-800:])
    assert "Seat 1 played" in term.text


@pytest.mark.parametrize("lang, said", [("en", "screen readers"), ("de", "Screenreader")])
def test_play_help_names_plain_and_its_variable(lang, said):
    result = CliRunner().invoke(main, ["play", "--help", "--lang", lang], catch_exceptions=False)
    assert result.exit_code == 0
    assert "--plain" in result.output and said in result.output
    assert "WASSERSPIELE_PLAIN=1" in result.output.replace("\n", " ").replace("  ", "")


# -- the boards read row by row ------------------------------------------------------------------
def _plain_game(run, *args: str, typed: str = "quit\n") -> tuple[str, str]:
    """The game's output (piped) by default and with --plain."""
    default = run("play", *args, input=typed)
    plain = run("play", *args, "--plain", input=typed)
    assert default.exit_code == 0 and plain.exit_code == 0, plain.output
    return default.output, plain.output


@pytest.mark.parametrize("lang, rows", [
    ("en", ["Row 1: 9 of clubs", "Row 2: face down, face down", "Row 3: queen of spades, 5 of clubs, 6 of diamonds"]),
    ("de", ["Reihe 1: Kreuz-9", "Reihe 2: verdeckt, verdeckt", "Reihe 3: Pik-Dame, Kreuz-5, Karo-6"]),
])
def test_plain_reads_seven_waters_pyramid_row_by_row_in_words(run, lang, rows):
    """The pyramid's face-down cards were `##` ("number number") and its rows lined up by
    spaces; plain, each row is a line that names its cards (in words: test_terminal_plain_words)."""
    default, plain = _plain_game(run, "seven_waters", "--seed", "1", "--lang", lang,
                                 typed=f"{QUIT[lang]}\n")
    assert "##" in default and "##" not in plain
    for row in rows:
        assert row in plain.splitlines(), plain[:800]
    free = {"en": "Free to take: 7-1 10 of diamonds", "de": "Frei zum Nehmen: 7-1 Karo-10"}[lang]
    assert free in plain  # the free cards' list, as before


def test_plain_reads_seven_waters_taken_places_as_taken(run):
    """A card taken from the pyramid leaves a gap that the default board shows as blanks."""
    _, plain = _plain_game(run, "seven_waters", "--seed", "1", typed="take 7-2\nquit\n")
    assert re.search(r"^Row 7: [^\n]*\btaken\b", plain, re.M), plain[:1500]


@pytest.mark.parametrize("lang, bank, crossing", [
    ("en", "Bank: 7; 8 (+2); 9; 10 (die)", "Crossing 1, slot 1, start tile (red arrow): 4; 5; 6"),
    ("de", "Ufer: 7; 8 (+2); 9; 10 (Würfel)", "Überquerung 1, Position 1, Starttafel (roter Pfeil): 4; 5; 6"),
])
def test_plain_reads_wildwasser_s_track_a_bank_or_crossing_to_a_line(run, lang, bank, crossing):
    """The track's fields were boxes (`[ 8 +2   ]`) read bracket by bracket and crossings
    marked `≈≈`; plain, a bank or crossing is a line of fields in words."""
    default, plain = _plain_game(run, "wildwasser", "--seed", "1", "--lang", lang, typed=f"{QUIT[lang]}\n")
    assert "≈≈" in default and "[ 8 +2" in default
    assert bank in plain.splitlines() and crossing in plain.splitlines(), plain[:1500]
    assert "≈" not in plain and not re.search(r"\[ ?\d", plain)


def test_plain_names_wildwasser_s_animals_on_the_track_by_player_and_animal(run):
    result = run("play", "wildwasser", "--seats", "random,random,random,random", "--seed", "1", "--plain")
    assert result.exit_code == 0
    assert re.search(r"\d+ \((?:[^()]*, )?[A-D] (cheetah|zebra|rhino|meerkat|turtle)\)", result.output), \
        result.output[:2000]


@pytest.mark.parametrize("lang, hole", [("en", "Waterhole: A: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0"),
                                        ("de", "Wasserloch: A: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0")])
def test_plain_says_wasserloch_s_empty_places_as_zero(run, lang, hole):
    """An empty place was `·` ("middle dot", or nothing at all)."""
    default, plain = _plain_game(run, "wasserloch", "--seed", "1", "--lang", lang, typed=f"{QUIT[lang]}\n")
    assert "A:·" in default
    assert hole in plain.splitlines() and "·  " not in plain


# -- the result read line by line ------------------------------------------------------------------
@pytest.mark.parametrize("game, lang, default_row, plain_row", [
    ("wasserloch", "en", re.compile(r"^Round 1 +21 +12 +14", re.M), "seat 0: 21 + 18 + 21 = 60"),
    ("wasserloch", "de", re.compile(r"^Durchgang 1 +21 +12 +14", re.M), "Platz 0: 21 + 18 + 21 = 60"),
    ("seven_waters", "en", re.compile(r"^Total +-7 +-14", re.M), "Total: Seat 0 -7, Seat 1 -14"),
    ("seven_waters", "de", re.compile(r"^Summe +-7 +-14", re.M), "Summe: Platz 0 -7, Platz 1 -14"),
    ("watten", "en", re.compile(r"^7 +♦ +Team 1 +1 +1:4 +three or more tricks", re.M),
     "Hand 7; Trump: ♦ diamonds; Won by: Team 1; Points: 1; Tricks: 1 for team 0, 4 for team 1; How: three or more tricks"),
    ("watten", "de", re.compile(r"^7 +♦ +Team 1 +1 +1:4 +mindestens drei Stiche", re.M),
     "Blattl 7; Trumpf: ♦ Karo; Gewinner: Team 1; Punkte: 1; Stiche: 1 für Team 0, 4 für Team 1; Wie: mindestens drei Stiche"),
    ("wildwasser", "en", re.compile(r"^B +- +- +- +1\. +1\. +18", re.M), "B: 18 points; meerkat place 1, turtle place 1"),
    ("wildwasser", "de", re.compile(r"^B +- +- +- +1\. +1\. +18", re.M),
     "B: 18 Punkte; Erdmännchen Platz 1, Schildkröte Platz 1"),
])
def test_plain_says_the_result_a_row_to_a_line_with_its_heads(run, game, lang, default_row, plain_row):
    """The result tables line figures up under heads (`Round 1  21  12  14`): a screen
    reader reads the figures without the heads.  Plain, each line names what its figures
    are (the narrow terminal's form where a game has one)."""
    import wasserspiele
    seats = ",".join(["random"] * wasserspiele.load(game).players)
    args = ["play", game, "--seats", seats, "--seed", "1", "--lang", lang]
    default = run(*args, env={"COLUMNS": "200"})
    plain = run(*args, "--plain", env={"COLUMNS": "200"})
    assert default.exit_code == 0 and plain.exit_code == 0
    assert default_row.search(default.output), default.output[-1500:]
    assert not default_row.search(plain.output)
    assert plain_row in plain.output.splitlines(), plain.output[-1500:]


@pytest.mark.parametrize("lang, total", [("en", "Total: Seat 0 "), ("de", "Summe: Platz 0 ")])
def test_sw_5_2_replay_plain_gives_a_finished_game_s_result_in_words_without_styles(tmp_path, lang, total):
    """`replay FILE` drew the final position with styles and the result as figures under
    column heads, as `play` did before --plain; `replay --plain` as `play --plain`."""
    import random

    from wasserspiele import load
    from wasserspiele.core.records import write_record

    state, rng = load("seven_waters").new_game(seed=3), random.Random(3)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions(state.current_seat)), state.current_seat)
    path = tmp_path / "game.json"
    write_record(state, path)
    styled, plain = Terminal(["replay", str(path), "--lang", lang]), Terminal(["replay", str(path), "--lang", lang, "--plain"])
    assert styled.ending() == 0 and plain.ending() == 0, plain.text[-2000:]
    assert SGR.search(styled.raw) and total not in styled.text
    assert not SGR.search(plain.raw), repr(plain.raw[:600])
    assert total in plain.text, plain.text[-1500:]


# -- separators a screen reader reads as words -------------------------------------------------------
# `·` is read "middle dot" (or dropped), `|` "vertical line": on the screen they line the
# parts of a line up; plain lines separate them by semicolons and commas, read as pauses.
SEPARATORS = re.compile(r"[·|]")


def _every_plain_text(game: str, lang: str, plain: bool, **options) -> tuple[str, ...]:
    """Everything the terminal draws of `game` (each seat's board, its news and its own
    move, the spectator's board, the result and the legend), `plain` or not, along one
    random game."""
    return _every_text(game, lang, tuple(sorted(options.items())))[plain]


@functools.cache
def _every_text(game: str, lang: str, options: tuple) -> dict[bool, tuple[str, ...]]:
    """`_every_plain_text` both ways, from one walk through the game: the tests of
    separators and of figure signs read the same texts, and the views (a third of the
    time) are the same for both forms (a walk through Wildwasser draws 3,000 texts)."""
    import random

    import wasserspiele
    from wasserspiele.cli.render import drawn, renderer

    r = renderer(game)
    state, rng = wasserspiele.load(game, **dict(options)).new_game(seed=5), random.Random(5)
    texts: dict[bool, list[str]] = {True: [], False: []}
    seats = [*range(state.game.players), None]
    while True:
        for seat in seats:
            view = state.view(seat)
            for plain, said in texts.items():
                said.append(drawn(r.render_view, view, lang, 100, plain))
                said.append(drawn(r.describe_last, view, lang, None, plain))
                if seat is not None and hasattr(r, "describe_own"):
                    said.append(drawn(r.describe_own, view, lang, None, plain))
        if state.is_terminal():
            for plain, said in texts.items():
                said += [drawn(r.render_result, state.view(s), lang, 100, plain) for s in seats]
                said.append(r.legend(state.view(None), lang))
            return {plain: tuple(said) for plain, said in texts.items()}
        seat = state.current_seat
        state.apply(rng.choice(state.legal_actions(seat)), seat)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game, options", [("wasserloch", {}), ("seven_waters", {}), ("watten", {}),
                                           ("watten", {"signals": "public"}), ("wildwasser", {})])
def test_plain_lines_have_no_middle_dots_or_bars(game, options, lang):
    """Wasserloch's head and loot (`Round 1/3 · start player …`, `seat 0: 0 (5) | seat 1 …`),
    Watten's head, teams, trick, signals, hand ends and result rows, Wildwasser's head,
    crossings, players and result rows were read with "middle dot" and "vertical line"
    between their parts."""
    plain = [line for text in _every_plain_text(game, lang, True, **options) for line in text.splitlines()]
    said = [line for line in plain if SEPARATORS.search(line)]
    assert not said, said[:5]
    if game != "seven_waters":  # (its board has none to begin with)
        default = "\n".join(_every_plain_text(game, lang, False, **options))
        assert SEPARATORS.search(default)  # the default board keeps its dots and bars


# "1/3" is read "1 slash 3" (or as a date), "3:2" "3 colon 2" (or as a time)
FIGURE_SIGNS = re.compile(r"\d[:/]\d")


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game, options", [("wasserloch", {}), ("seven_waters", {}), ("watten", {}),
                                           ("wildwasser", {})])
def test_plain_lines_say_counts_in_words_not_with_slashes_or_colons(game, options, lang):
    """Wasserloch's `Round 1/3`, Seven Waters' `Slides: 0/7`, Watten's `Tricks: 3:2` (a
    hand's end and the result rows, team 0's first whoever read it): now "Round 1 of 3",
    "Slides: 0 of 7", "Tricks: 3 for team 0, 2 for team 1"."""
    plain = [line for text in _every_plain_text(game, lang, True, **options) for line in text.splitlines()]
    said = [line for line in plain if FIGURE_SIGNS.search(line)]
    assert not said, said[:5]
    if game != "wildwasser":  # (its board has none to begin with)
        default = "\n".join(_every_plain_text(game, lang, False, **options))
        assert FIGURE_SIGNS.search(default)  # the screen keeps its short forms


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", GAMES)
def test_a_plain_game_s_refusals_help_and_moves_have_no_middle_dots_or_bars(run, game, lang):
    """A typo's refusal listed Seven Waters' actions as `take R-C | discard CARDS | …` and
    Watten's signals as `signal weak|medium|strong|none`: read "vertical line" between
    every word."""
    typed = "\n".join(["xyz", "signal loud", "help", "moves", QUIT[lang]]) + "\n"
    result = run("play", game, "--seed", "1", "--lang", lang, "--plain", input=typed)
    assert result.exit_code == 0, result.output
    said = [line for line in result.output.splitlines() if SEPARATORS.search(line)]
    assert not said, said[:5]


def test_a_plain_game_resumed_at_a_colour_terminal_stays_plain(tmp_path):
    """`--plain` was not kept in the save: `play --resume FILE`, the command the game
    itself tells the player to type, drew colours and styles again (tests/cli/test_saves.py
    has the way back and the old saves)."""
    save = tmp_path / "game.json"
    _played(["wasserloch", "--seed", "1", "--plain", "--save", str(save)], ["quit"])
    resumed = Terminal(["play", "--resume", str(save)])
    resumed.answer(PROMPT["en"], "quit")
    assert resumed.ending() == 0, resumed.text[-2000:]
    assert "Waterhole: A: 0" in resumed.text
    assert not SGR.search(resumed.raw), repr(resumed.raw[:600])


# -- the rules --------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_rules_on_a_terminal_are_drawn_not_shown_as_markdown(lang):
    """`rules` wrote its Markdown as it is to a terminal too: `**seats 0 and 2**`, `## The
    cards` and the rank table as `| 1 | … |` under `|---|---|`.  A terminal now shows
    headings and bold as styles and the tables lined up in columns; --plain (and a pipe:
    the test below) keeps the text as written."""
    from wasserspiele.core.rules_text import terminal_rules
    source = terminal_rules("watten", lang)
    first_row = next(line for line in source.splitlines() if re.match(r"\| 1 \|", line))
    rank, cards = [cell.strip() for cell in first_row.strip("|").split("|")]
    drawn = Terminal(["rules", "watten", "--lang", lang])
    assert drawn.ending() == 0
    assert SGR.search(drawn.raw)
    assert not any(mark in drawn.text for mark in ("**", "|---", "\n## ", "\n# ")), drawn.text[:600]
    assert re.search(rf"^\s*{rank}\s+{re.escape(cards)}\s*$", drawn.text, re.M), drawn.text[:2000]
    plain = Terminal(["rules", "watten", "--lang", lang, "--plain"])
    assert plain.ending() == 0
    assert not SGR.search(plain.raw)
    assert first_row in plain.text and "**" in plain.text


def test_the_rules_piped_keep_their_markdown(run):
    """Into a file, a pager or another program the rules stay the text as written."""
    from wasserspiele.core.rules_text import terminal_rules
    assert run("rules", "watten").output == terminal_rules("watten", "en") + "\n"


# -- leaving, and the hand-over, at a terminal --------------------------------------------------------
def test_ctrl_d_at_a_terminal_after_a_move_of_one_s_own_asks_for_a_file_as_quit_does(tmp_path):
    """Ctrl-D is a person leaving: it threw away an unsaved game that a typed `quit` would
    have offered to keep.  (The end of a pipe's input asks nothing: test_saves.py.)"""
    kept = tmp_path / "kept.json"
    term = Terminal(["play", "wasserloch", "--seed", "2", "--seats", "human,easy"])
    term.answer(PROMPT["en"], "Ax1")
    term.answer(PROMPT["en"], "")        # (an empty line: the game asks again)
    os.write(term.master, b"\x04")      # Ctrl-D on the empty line
    term.answer(FILE_PROMPT["en"], str(kept))
    assert term.ending() == 130
    assert kept.exists() and "game saved to" in term.text


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_hand_over_on_a_narrow_terminal_is_folded_between_words(lang):
    """At 40 columns the hand-over's question ran past the edge, broken inside a word."""
    term = Terminal(["play", "wasserloch", "--seed", "2", "--seats", "human,human", "--lang", lang], COLUMNS="40")
    handover = {"en": "press Enter", "de": "Enter drücken"}[lang]
    term.answer(handover, "")
    term.answer({"en": "your move>", "de": "dein Zug>"}[lang], QUIT[lang])  # (the prompt's short form)
    assert term.ending() == 0
    rows = term.text.splitlines()
    assert max(len(row) for row in rows) <= 40, [row for row in rows if len(row) > 40]
    words = {"en": "looking at the screen", "de": "auf den Bildschirm schaust"}[lang]
    assert words in " ".join(term.text.split())


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("columns", [80, 40])
def test_games_on_a_terminal_folds_its_lines_between_words(run, lang, columns):
    """`games` wrote lines of up to 250 characters, which the terminal broke inside words
    ("jokers declar|ed"); piped it keeps each line whole, to grep."""
    term = Terminal(["games", "--lang", lang], COLUMNS=str(columns))
    assert term.ending() == 0
    rows = term.text.splitlines()
    assert max(len(row) for row in rows) <= columns, [row for row in rows if len(row) > columns]
    piped = run("games", "--lang", lang).output
    assert max(len(row) for row in piped.splitlines()) > 100  # whole lines
    # none of its words cut in two (at 40 columns an option's value follows its name
    # after a colon, its type after a semicolon)
    words = {w.rstrip(":;") for w in piped.split()}
    assert [w for w in term.text.split() if w.rstrip(":;") not in words] == []
