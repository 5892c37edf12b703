"""Click's own words in the command's language: a command line that asks for German
(`--lang de`, `--lang=de`, anywhere in the command's arguments) and is refused shows no
English from Click (its usage line, the help hint, "Error:", the refusal itself); English
command lines read exactly as Click writes them."""

from __future__ import annotations

import re

import click
import pytest
from click.testing import CliRunner

from wasserspiele.cli.language import LanguageGroup, own_help
from wasserspiele.cli.main import main
from wasserspiele.core.messages import catalogue

from .test_i18n import english_words

# Click's English words, beside test_i18n's (not "option" or "argument": German spells them alike)
CLICK_ENGLISH = {"usage", "try", "error", "help", "for", "such", "did", "you", "mean", "missing", "invalid",
                 "value", "valid", "integer", "float", "got", "unexpected", "extra", "requires", "command",
                 "commands", "does", "take", "one", "file", "path", "directory", "exist", "could", "open",
                 "choose", "from", "show", "message", "exit", "default", "range", "options", "args", "game",
                 "nothing", "written", "there", "folder", "writable", "or"}
_OPTION = re.compile(r"(?<!\w)--?[\w-]+")


def english(text: str) -> set[str]:
    """English words in `text`, option names (`--help`, `--verbose`) aside."""
    plain = _OPTION.sub(" ", text)
    return english_words(plain) | {w for w in re.findall(r"[A-Za-z]+", plain) if w.lower() in CLICK_ENGLISH}


def refused(args: list[str], command=main):
    """Run a command line that must be refused as bad usage: exit 2, words on stderr only."""
    result = CliRunner().invoke(command, args)
    assert result.exit_code == 2, result.output
    assert result.stdout == "" and result.stderr
    return result.stderr


def german(args: list[str], command=main, aside: str = "") -> str:
    """A refusal in German: no English word, `aside` (a path the test made) aside."""
    text = refused(args, command)
    found = english(text.replace(aside, " ") if aside else text)
    assert "Fehler:" in text and not found, f"English {sorted(found)} in:\n{text}"
    return text


# -- German, through the wasserspiele command ---------------------------------------------
def test_an_unknown_option_is_german_with_its_suggestion_and_the_usage_lines():
    text = german(["play", "wasserloch", "--bogus", "--lang", "de"])
    assert "Aufruf: main play [OPTIONEN] [SPIEL]" in text
    assert "„main play --help“" in text
    assert "„--bogus“" in text and "„--verbose“" in text


@pytest.mark.parametrize("args", [["play", "--lang=de", "--bogus"], ["play", "--lang", "de", "--bogus"],
                                  ["play", "--bogus", "--lang", "en", "--lang", "de"]],
                         ids=["equals_sign", "before_the_mistake", "the_last_one_counts"])
def test_lang_is_read_wherever_the_command_line_gives_it(args):
    assert "„--bogus“" in german(args)


def test_lang_after_a_double_dash_is_no_option_and_asks_nothing():
    assert "Error: Got unexpected extra argument (de)" in refused(["rules", "--", "--lang", "de"])


def test_a_missing_argument_is_german_and_named_in_german():
    assert "'SPIEL'" in german(["rules", "--lang", "de"])


def test_an_invalid_integer_is_german():
    assert "„x“" in german(["play", "wasserloch", "--players", "x", "--lang", "de"])


def test_an_invalid_choice_is_german():
    """`--lang DE` asks for German in a spelling Click refuses: the refusal is German."""
    assert "'en', 'de'" in german(["play", "--lang", "DE"])


def test_a_wrong_lang_value_is_refused_clearly_in_english():
    text = refused(["play", "--lang", "fr"])
    assert "Error: Invalid value for '--lang': 'fr' is not one of 'en', 'de'." in text
    assert "Option '--lang' requires an argument." in refused(["games", "--lang"])


def test_a_folder_where_a_file_belongs_is_german(tmp_path):
    assert f"„{tmp_path}“" in german(["replay", str(tmp_path), "--lang", "de"], aside=str(tmp_path))


def test_a_save_path_that_cannot_be_written_is_german(tmp_path):
    (tmp_path / "afile").write_text("")
    text = german(["play", "--save", str(tmp_path / "afile" / "game.json"), "--lang", "de"], aside=str(tmp_path))
    assert f"{tmp_path / 'afile'} ist eine Datei, kein Ordner" in text


def test_an_option_without_its_value_is_german():
    assert "„--seed“" in german(["play", "--lang", "de", "--seed"])


def test_a_flag_given_a_value_is_german():
    assert "„--verbose“" in german(["play", "--verbose=1", "--lang", "de"])


@pytest.mark.parametrize("extra", [["x"], ["x", "y"]], ids=["one", "two"])
def test_unexpected_extra_arguments_are_german(extra):
    assert " ".join(extra) in german(["rules", "watten", *extra, "--lang", "de"])


def test_an_unknown_command_is_german_with_its_suggestions():
    text = german(["plya", "--lang", "de"])
    assert "Aufruf: main [OPTIONEN] BEFEHL [ARGUMENTE]..." in text
    assert "„plya“" in text and "„play“, „replay“" in text


@pytest.mark.parametrize("args, suggestion", [
    (["play", "--lang", "de", "--seatz"], "(Meintest du eine davon: „--save“, „--seats“, „--seed“?)"),
    (["games", "--lang", "de", "--lnag"], "Meintest du „--lang“?")], ids=["several", "one"])
def test_the_suggested_options_are_quoted_as_german_quotes(args, suggestion):
    """Click joined the suggestions' reprs before its template was translated: German text
    with English quotes ('--save', '--seats', '--seed')."""
    text = german(args)
    assert suggestion in text and "'" not in text


def test_the_suggested_options_keep_clicks_quotes_in_english():
    text = refused(["play", "--seatz"])
    assert "(Did you mean one of: '--save', '--seats', '--seed'?)" in text


# -- German, the refusals the commands with --lang cannot give (same group class) ----------
@click.group("tool", cls=LanguageGroup)
def _tool() -> None:
    """A stand-in for commands with required, decimal, ranged and file options."""


@_tool.command("go")
@click.option("--bots", required=True)
@click.option("--delay", type=float)
@click.option("--port", type=click.IntRange(0, 9))
@click.option("--data", type=click.File())
@click.option("--lang", type=click.Choice(["en", "de"]))
def _go(bots, delay, port, data, lang) -> None:
    """Go."""


def test_a_missing_option_is_german():
    assert "'--bots'" in german(["go", "--lang", "de"], _tool)


def test_an_invalid_decimal_is_german():
    assert "„x“" in german(["go", "--bots", "a", "--delay", "x", "--lang", "de"], _tool)


def test_a_number_out_of_range_is_german():
    assert "0<=x<=9" in german(["go", "--bots", "a", "--port", "12", "--lang", "de"], _tool)


def test_a_file_that_cannot_be_opened_is_german(tmp_path):
    missing = str(tmp_path / "x.txt")
    text = refused(["go", "--bots", "a", "--data", missing, "--lang", "de"], _tool)
    # after the file's name comes the operating system's reason, in the system's words
    ours = text.partition(missing)[0]
    assert "Fehler: Ungültiger Wert für '--data'" in ours and not english(ours)


# -- English as Click writes it -------------------------------------------------------------
@pytest.mark.parametrize("args, lines", [
    (["play", "wasserloch", "--bogus"], ["Usage: main play [OPTIONS] [GAME]", "Try 'main play --help' for help.",
                                         "", "Error: No such option '--bogus'. Did you mean '--verbose'?"]),
    (["rules", "--lang", "en"], ["Usage: main rules [OPTIONS] GAME", "Try 'main rules --help' for help.", "",
                                 "Error: Missing argument 'GAME'."]),
    (["play", "--players", "x"], ["Usage: main play [OPTIONS] [GAME]", "Try 'main play --help' for help.", "",
                                  "Error: Invalid value for '--players': 'x' is not a valid integer."]),
    (["rules", "watten", "x", "y"], ["Usage: main rules [OPTIONS] GAME", "Try 'main rules --help' for help.", "",
                                     "Error: Got unexpected extra arguments (x y)"]),
    (["plya"], ["Usage: main [OPTIONS] COMMAND [ARGS]...", "Try 'main --help' for help.", "",
                "Error: No such command 'plya'. (Did you mean one of: 'play', 'replay'?)"]),
], ids=["no_such_option", "missing_argument", "invalid_integer", "extra_arguments", "no_such_command"])
def test_english_refusals_read_as_click_writes_them(args, lines):
    assert refused(args).splitlines() == lines


def test_english_follows_a_german_command_line():
    """The German words are Click's only while a German command line runs."""
    german(["play", "--bogus", "--lang", "de"])
    assert "Error: No such option '--bogus'." in refused(["play", "--bogus"])
    assert "Usage: main play [OPTIONS] [GAME]" in CliRunner().invoke(main, ["play", "--help"]).output


# -- --help ----------------------------------------------------------------------------------
def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("args", [["play", "--help", "--lang", "de"], ["play", "--lang", "de", "--help"],
                                  ["play", "-h", "--lang=de"]], ids=["help_first", "lang_first", "short_and_equals"])
def test_help_is_german_whichever_side_of_help_lang_stands(args):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0
    text = _flat(result.output)
    for said in ("Aufruf: main play [OPTIONEN] [SPIEL]", "SPIEL im Terminal spielen", "Optionen:",
                 "--players ZAHL Zahl der Spieler", "--option SCHLÜSSEL=WERT eine Option des Spiels",
                 "--save DATEI das Spiel nach jedem Zug", "-h, --help Diese Hilfe zeigen und beenden."):
        assert said in text, said


@pytest.mark.parametrize("name", ["games", "play", "replay", "rules"])
def test_the_help_of_a_command_with_lang_has_no_english_sentence(name):
    command = main.commands[name]
    text = _flat(CliRunner().invoke(main, [name, "--help", "--lang", "de"]).output)
    english_texts = [_flat(command.help)] + [p.help for p in command.params if p.help]
    assert not [t for t in english_texts if t in text]
    assert not {"Usage", "Options", "default", "Show"} & set(re.findall(r"[A-Za-z]+", text))


def test_the_english_help_entries_are_the_commands_own_words():
    """A `cli.help.*` entry translates the help its code names only while its English is
    that help word for word: a help rewritten in the code would show English, not old German."""
    entries = {code: text for code, text in catalogue("en").entries.items() if code.startswith("cli.help.")}
    assert entries
    for code, text in entries.items():
        name, _, param = code.removeprefix("cli.help.").partition(".")
        command = main if name == main.name else main.commands[name]  # the root, or one of its commands
        own = next(p.help for p in command.params if p.name == param) if param else own_help(command)
        assert text == own, code


def test_english_help_reads_as_click_writes_it_after_a_german_help():
    CliRunner().invoke(main, ["games", "--help", "--lang", "de"])
    text = CliRunner().invoke(main, ["games", "--help"]).output
    assert text.splitlines() == [
        "Usage: main games [OPTIONS]", "", "  List the games, their seats, notation and options.", "", "Options:",
        "  --lang [en|de]  language of the titles and option help  [default: en]",
        "  -h, --help      Show this message and exit."]


@pytest.mark.parametrize("args", [["--lang", "de", "leaderboard", "--help"], ["--lang", "de", "train", "--bogus"],
                                  ["corpus", "watten", "--lang", "de"], ["--lang=de", "lab", "--help"]])
def test_a_command_that_speaks_english_only_is_not_worded_half_in_german(args):
    """lab, serve, train, corpus and leaderboard have no --lang: their help and
    options are English, so Click's words around them stay English too (they read
    "Aufruf: … [OPTIONS]" with "Optionen:" above English option help)."""
    result = CliRunner().invoke(main, args)
    assert not re.search(r"Aufruf|Optionen|Fehler|Unbekannte|nötig|Standard", result.output), result.output
    assert "Usage:" in result.output
