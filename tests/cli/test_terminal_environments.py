"""Terminal play in the terminals people have: a locale whose encoding lacks the boards'
characters (Latin-1, ASCII: suits, dashes, German quotes; it ended every game in a
UnicodeEncodeError's traceback), narrow windows (Wildwasser's track cut mid-field, the
result tables' columns wrapped away), a dumb terminal (TERM=dumb: the hand-over's clear
was junk and left the last hand in view), Ctrl-C while a game is being set up (Click's
"Aborted!" and exit 1, where an interrupt exits 130), and a save's resume command broken
in two by the line wrap."""

from __future__ import annotations

import io
import os
import re

import pytest
from click.testing import CliRunner
from rich.console import Console

import wasserspiele
from wasserspiele.cli import console as console_module
from wasserspiele.cli import play as play_module
from wasserspiele.cli.console import clear_screen, thinking
from wasserspiele.cli.main import main
from wasserspiele.cli.play import resume_command
from wasserspiele.cli.render import renderer

GAMES = ("wasserloch", "seven_waters", "watten", "wildwasser")
# the words a player types at a terminal that cannot show ü (the catalogue's ASCII forms)
TYPED = {"en": "moves\nquit\n", "de": "zuege\nende\n"}


def _invoke(charset: str, args: list[str], input: str | None = None, env: dict | None = None):
    """The command line run in-process on streams in `charset`, as Python sets them up for
    a terminal in that encoding (stdout strict, stderr backslashreplace)."""
    return CliRunner(charset=charset).invoke(main, args, input=input, env=env, catch_exceptions=False)


def _bots_game(game: str, seed: int, lang: str, columns: int, players: int | None = None) -> list[str]:
    """The lines a game of random bots (`players` of them, else the game's default) prints
    to its end (the final board and the result table) in a terminal `columns` wide."""
    seats = ",".join(["random"] * (players or wasserspiele.load(game).players))
    result = CliRunner().invoke(main, ["play", game, "--seats", seats, "--seed", str(seed), "--lang", lang],
                                env={"COLUMNS": str(columns)}, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def _plain(text: str) -> str:
    """Rich markup as a terminal with no styles shows it."""
    buf = io.StringIO()
    Console(file=buf, width=200, color_system=None, highlight=False).print(text)
    return buf.getvalue()


def _result_table(lines: list[str], lang: str) -> list[str]:
    return lines[lines.index({"en": "Result", "de": "Ergebnis"}[lang]) + 1:]


# -- encodings -------------------------------------------------------------------------------
@pytest.mark.parametrize("charset", ["latin-1", "ascii"])
@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_in_a_latin1_or_ascii_terminal_without_a_traceback(game, lang, charset):
    result = _invoke(charset, ["play", game, "--seed", "1", "--lang", lang], input=TYPED[lang])
    assert result.exit_code == 0, result.output
    shown = result.stdout_bytes.decode(charset)  # strictly: every byte is the terminal's
    prompt = {"en": "(help, moves, hint, quit)> ", "de": "(hilfe, züge, tipp, ende)> "}[lang]
    if charset == "ascii":
        prompt = prompt.replace("ü", "ue")
    assert shown.count(prompt) == 2, shown  # the moves were listed, then the game stopped
    assert "?" not in shown, shown  # every character has a fallback that says something


@pytest.mark.parametrize("charset", ["latin-1", "ascii"])
@pytest.mark.parametrize("lang, said", [("en", "Your hand: "), ("de", "Deine Karten: ")])
def test_cards_fall_back_to_the_notation_s_suit_letters_which_read_back(charset, lang, said):
    """K♠ is shown KS where ♠ cannot be: the letters the notation uses (German B♣ as BC),
    which the terminal reads back as the card shown."""
    result = _invoke(charset, ["play", "watten", "--seed", "1", "--lang", lang], input=TYPED[lang])
    shown = result.stdout_bytes.decode(charset)
    hand = re.search(rf"{said}(.*)", shown).group(1).split()
    assert hand and all(re.fullmatch(r"(10|[2-9TJQKABD])[SHDC]", card) for card in hand), hand
    dealt = wasserspiele.load("watten").new_game(seed=1).view(0)["hand"]
    assert sorted(play_module.read_move("watten", card, lang) for card in hand) == sorted(dealt)


def test_the_fallback_spells_german_letters_as_the_move_words_accept_them():
    from wasserspiele.cli.console import FALLBACK_ERRORS
    fallen_back = "Schildkröte züge „Kreuz“ – ♣ …".encode("ascii", FALLBACK_ERRORS)
    assert fallen_back == b'Schildkroete zuege "Kreuz" - C ...'
    assert "Café ✗".encode("ascii", FALLBACK_ERRORS) == b"Cafe ?"  # accents dropped; else `?`
    assert "Schildkröte ♣".encode("latin-1", FALLBACK_ERRORS) == "Schildkröte C".encode("latin-1")


@pytest.mark.parametrize("args", [["rules", "watten", "--lang", "de"], ["games", "--lang", "de"]])
def test_rules_and_games_print_in_a_latin1_terminal(args):
    result = _invoke("latin-1", args)
    assert result.exit_code == 0
    shown = result.stdout_bytes.decode("latin-1")
    assert "Kreuz C, Pik S" in shown if args[0] == "rules" else "Spieler" in shown


def test_replay_draws_its_board_in_an_ascii_terminal(tmp_path):
    save = tmp_path / "game.json"
    first = CliRunner().invoke(main, ["play", "wasserloch", "--seed", "1", "--save", str(save)], input="Ax1\nquit\n")
    assert first.exit_code == 0, first.output
    result = _invoke("ascii", ["replay", str(save), "--lang", "de"])
    assert result.exit_code == 0, result.output
    assert "Durchgang 1/3 - Startspieler: Platz 0" in result.stdout_bytes.decode("ascii")


def test_a_refusal_of_an_unreadable_byte_quotes_it_in_an_ascii_terminal():
    """Typed ü where the terminal's encoding is ASCII: the line is refused, quoting the
    byte it could not read, and the game goes on."""
    runner = CliRunner(charset="ascii")
    result = runner.invoke(main, ["play", "wasserloch", "--seed", "1"], input="z\xfcge\nquit\n".encode("latin-1"),
                           catch_exceptions=False)
    assert result.exit_code == 0
    assert "not understood: 'z?ge'" in result.stdout_bytes.decode("ascii")


def test_the_thinking_spinner_turns_a_bar_where_braille_cannot_be_shown():
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii", write_through=True)
    console = Console(file=out, force_terminal=True, width=80)
    with thinking(console, "Seat 1 (expert) is thinking ...", delay=0):
        pass
    shown = raw.getvalue().decode("ascii")  # it was UnicodeEncodeError on the first frame
    assert re.search(r"\x1b\[32m[-\\|/]\x1b\[0m Seat 1 \(expert\) is thinking", shown), shown


# -- narrow and wide terminals -----------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("columns", [40, 60])
def test_wildwasser_s_track_keeps_every_field_whole_in_a_narrow_terminal(lang, columns):
    result = CliRunner().invoke(main, ["play", "wildwasser", "--seed", "1", "--lang", lang], input="quit\n",
                                env={"COLUMNS": str(columns)}, catch_exceptions=False)
    lines = result.output.splitlines()
    track = [line for line in lines if re.search(r"\[ ?\d+", line)]
    assert len(track) >= 11  # a row for every bank and crossing (some in two)
    for line in track:
        assert line.count("[") == line.count("]"), line  # no field cut in two
        assert len(line.rstrip()) <= columns, line
        assert re.match(r"\S.{11} \[|\s{13}\[", line), line  # under the first field: not at the margin
    fields = [int(n) for line in track for n in re.findall(r"\[ ?(\d+)", line)]
    assert fields == list(range(1, 38))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_wildwasser_s_track_keeps_a_row_to_a_line_in_a_wide_terminal(lang):
    lines = _bots_game("wildwasser", 3, lang, 200)
    rows = [line for line in lines if re.search(r"\[ ?\d+", line)]
    assert len(rows) == 11 and all(line.count("[") == line.count("]") for line in rows), rows  # 6 banks, 5 crossings


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("columns", [40, 60])
def test_wildwasser_s_result_keeps_each_player_on_a_line_in_a_narrow_terminal(lang, columns):
    table = _result_table(_bots_game("wildwasser", 2, lang, columns), lang)
    assert all(len(line.rstrip()) <= columns for line in table), table
    players = [line for line in table if re.match(r"[A-D]\b", line)]
    assert [line[0] for line in players] == list("ABCD"), table  # one line each, none cut into two
    for line in players:
        assert re.search(r"\d+ (pts?|Pkt\.)", line), line  # with its points
    wide = _result_table(_bots_game("wildwasser", 2, lang, 200), lang)
    assert re.match(r"(player|Spieler) +(cheetah|Gepard) ", wide[0])  # the table, where it fits


@pytest.mark.parametrize("lang", ["en", "de"])
def test_watten_s_result_puts_how_a_hand_was_won_under_it_in_a_narrow_terminal(lang):
    table = _result_table(_bots_game("watten", 4, lang, 60), lang)
    assert all(len(line.rstrip()) <= 60 for line in table), table
    hands = [i for i, line in enumerate(table) if re.match(r"\d+ +[♠♥♦♣] +Team [01] +\d+ +\d:\d$", line)]
    assert len(hands) >= 6, table  # to 11, one point a hand at least
    for i in hands:
        assert table[i + 1].startswith(" " * 8) and table[i + 1].strip(), table  # under the hand, not at the margin
    wide = _result_table(_bots_game("watten", 4, lang, 200), lang)
    assert re.match(r"1 +[♠♥♦♣] +Team [01] +\d+ +\d:\d +\S", wide[1]), wide  # the table, where it fits


@pytest.mark.parametrize("lang, seat", [("en", "seat"), ("de", "Platz")])
def test_wasserloch_s_result_gives_each_seat_a_line_in_a_narrow_terminal(lang, seat):
    """Four seats at 36 columns: each row of the table was wrapped, the last seat's loot
    at the margin under the round names."""
    table = _result_table(_bots_game("wasserloch", 2, lang, 36, players=4), lang)
    assert all(len(line.rstrip()) <= 36 for line in table), table
    rows = [re.fullmatch(rf"{seat} (\d): ((?:\d+ \+ )+\d+) = (\d+)", line) for line in table[:4]]
    assert all(rows) and [int(m.group(1)) for m in rows] == [0, 1, 2, 3], table
    for m in rows:  # the rounds' loot, added up
        assert sum(int(n) for n in m.group(2).split(" + ")) == int(m.group(3))
    wide = _result_table(_bots_game("wasserloch", 2, lang, 80, players=4), lang)
    assert re.match(rf" +{seat} 0 +{seat} 1 +{seat} 2 +{seat} 3", wide[0]), wide  # the table, where it fits


def test_a_save_s_resume_command_is_never_broken_by_the_line_wrap(tmp_path):
    """At 40 columns the command was cut before the path: copied as shown, the shell ran
    `wasserspiele play --resume` alone, then the path."""
    save = tmp_path / "a folder with a rather long name" / "wasserloch game.json"
    result = CliRunner().invoke(main, ["play", "wasserloch", "--seed", "1", "--save", str(save)], input="quit\n",
                                env={"COLUMNS": "40"}, catch_exceptions=False)
    assert result.exit_code == 0
    assert any(line.endswith(resume_command(str(save))) for line in result.output.splitlines()), result.output


@pytest.mark.parametrize("lang, short, full", [
    ("en", "Seat 0 – your move> ", "Seat 0 – your move (help, moves, hint, quit)> "),
    ("de", "Platz 0 – dein Zug> ", "Platz 0 – dein Zug (hilfe, züge, tipp, ende)> "),
])
def test_at_40_columns_the_prompt_leaves_out_the_commands_and_fits_its_line(lang, short, full):
    """The prompt was 46 to 49 characters at 40 columns: the cursor wrapped onto the next
    row at every turn.  Where the prompt and room to type do not fit, it names no commands
    (`help` lists them, and every refusal names `help`)."""
    for columns, prompt in ((40, short), (80, full)):
        result = CliRunner().invoke(main, ["play", "wasserloch", "--seed", "1", "--lang", lang], input="quit\n",
                                    env={"COLUMNS": str(columns)}, catch_exceptions=False)
        assert result.exit_code == 0
        assert prompt in result.output, (columns, result.output[-300:])
        assert len(max((line for line in result.output.splitlines() if prompt.strip() in line), key=len)) <= columns


# -- a dumb terminal ---------------------------------------------------------------------------
def test_a_dumb_terminal_s_hand_over_pushes_the_last_hand_off_the_screen_without_escape_codes(monkeypatch):
    monkeypatch.setattr(console_module.shutil, "get_terminal_size", lambda fallback: os.terminal_size((80, 40)))
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, _environ={"TERM": "dumb"})
    clear_screen(console)
    assert "\x1b" not in buf.getvalue()
    assert buf.getvalue() == "\n" * 40  # the window's height, past rich's 25 for a dumb terminal


def test_a_capable_terminal_s_hand_over_still_clears_screen_and_scrollback():
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, _environ={"TERM": "xterm-256color"})
    clear_screen(console)
    assert buf.getvalue().endswith("\x1b[3J") and "\x1b[2J" in buf.getvalue()


# -- Ctrl-C while the game is set up -----------------------------------------------------------
@pytest.mark.parametrize("lang, said", [("en", "Aborted!"), ("de", "Abgebrochen!")])
def test_ctrl_c_while_the_bots_are_set_up_exits_130(monkeypatch, lang, said):
    """Setting the bots up may take seconds (their modules load): Ctrl-C then exited 1,
    where an interrupt exits 130 (cli/main.py, Exit status)."""
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(play_module.PlaySession, "create", interrupted)
    result = CliRunner().invoke(main, ["play", "watten", "--seats", "human,expert,expert,expert", "--lang", lang])
    assert result.exit_code == 130, result.output
    assert result.stderr.strip() == said


# -- what only a style said ----------------------------------------------------------------------
@pytest.mark.parametrize("lang, free, take", [("en", "Free to take: ", "take "), ("de", "Frei zum Nehmen: ", "nehmen ")])
def test_seven_waters_names_the_free_pyramid_cards_where_bold_cannot_be_shown(lang, free, take):
    """The free cards were told by bold alone, which output to a file, a dumb terminal or
    a screen reader drops: a covered face-up card (rows 1, 3, 5) looked as takeable as a
    free one."""
    result = CliRunner().invoke(main, ["play", "seven_waters", "--seed", "3", "--lang", lang], input=TYPED[lang],
                                env={"COLUMNS": "200"}, catch_exceptions=False)
    out = result.output
    named = re.search(rf"^{free}(.*)$", out, re.M).group(1)
    spots = [pair.split()[0] for pair in named.split(", ")]
    takes = [m.split()[1] for m in re.search(r"(legal moves|erlaubte Züge): (.*)", out).group(2).split(", ")
             if m.startswith(take)]
    assert spots == takes == [f"7-{c}" for c in range(1, 8)], (spots, takes)
    # once 7-1 and 7-2 are gone, 6-1 is free (turned up) and 6-2 not (7-3 lies on it)
    state = wasserspiele.load("seven_waters").new_game(seed=3)
    state.apply("take 7-2")
    state.apply("take 7-1")
    state.apply("take 7-7")
    shown = _plain(renderer("seven_waters").render_view(state.view(0), lang))
    spots = [pair.split()[0] for pair in re.search(rf"^{free}(.*)$", shown, re.M).group(1).split(", ")]
    assert spots == [f"7-{c}" for c in range(3, 7)] + ["6-1"], shown


@pytest.mark.parametrize("lang, free", [("en", "Free to take: "), ("de", "Frei zum Nehmen: ")])
def test_seven_waters_free_cards_wrap_between_cards_in_a_narrow_terminal(lang, free):
    result = CliRunner().invoke(main, ["play", "seven_waters", "--seed", "3", "--lang", lang], input=TYPED[lang],
                                env={"COLUMNS": "40"}, catch_exceptions=False)
    lines = result.output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(free))
    listed = [lines[start][len(free):]]
    listed += [line for line in lines[start + 1:start + 4] if line.startswith(" " * len(free) + "7-")]
    assert len(listed) > 1 and all(len(line.rstrip()) <= 40 for line in lines[start:start + len(listed)])
    pairs = [pair for line in listed for pair in line.strip().rstrip(",").split(", ")]
    assert all(re.fullmatch(r"7-\d (10|[2-9TJQKABD])[♠♥♦♣]|7-\d Jk[12]", pair) for pair in pairs), listed
    assert len(pairs) == 7
