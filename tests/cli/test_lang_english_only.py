"""The root `--lang` and the commands that write English only (cli/language.py).

`wasserspiele --lang de lab …` wrote its English report and lines without a word, while the
root help said `--lang` set the language of "the command after it": the help now names the
commands that speak the language, and a German `--lang` before an English-only command is
answered once on stderr, in German, that the command writes English."""

from __future__ import annotations

import re

import click
import pytest
from click.testing import CliRunner

from wasserspiele.cli.language import speaks_languages
from wasserspiele.cli.main import main
from wasserspiele.core.messages import render

SPEAKING = sorted(name for name, command in main.commands.items() if speaks_languages(command))
ENGLISH_ONLY = sorted(name for name, command in main.commands.items() if not speaks_languages(command))


def _run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_the_commands_are_split_as_the_help_says():
    assert SPEAKING == ["arena", "games", "play", "replay", "rules"]
    assert {"corpus", "lab", "leaderboard", "serve", "train"} <= set(ENGLISH_ONLY)


def _root_lang_help(lang: str) -> str:
    """The root --lang's help as `wasserspiele --lang LANG --help` shows it, on one line."""
    res = _run("--lang", lang, "--help")
    assert res.exit_code == 0, res.output
    text = " ".join(res.stdout.split())
    start = text.index("--lang [en|de] ") + len("--lang [en|de] ")
    return text[start:text.index(" -h, --help")]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_root_lang_help_names_the_commands_it_sets_the_language_of(lang):
    """The root help said "the command after it" of every command, lab and arena too."""
    text = _root_lang_help(lang)
    named = [name for name in main.commands if re.search(rf"\b{name}\b", text)]
    assert sorted(named) == SPEAKING, text
    assert text.startswith({"en": "language of this help", "de": "Sprache dieser Hilfe"}[lang]), text


@pytest.mark.parametrize("lang, listed", [("en", "arena, games, play, replay, rules, or zzz"),
                                          ("de", "arena, games, play, replay, rules oder zzz")])
def test_the_root_lang_help_is_made_from_the_commands_not_a_list_kept_by_hand(monkeypatch, lang, listed):
    """The help named "games, play, replay or rules" by hand: a command that gained its own
    --lang (arena) went unnamed.  It is read from `speaks_languages` when shown, so a new
    command is named the moment it speaks the language, and one that does not never is."""
    @click.command("zzz")
    @click.option("--lang", type=click.Choice(["en", "de"]), default="en")
    def speaks(lang):
        """A command that writes in the language of its --lang."""

    @click.command("yyy")
    def english_only():
        """A command that writes English only."""

    monkeypatch.setitem(main.commands, "zzz", speaks)
    monkeypatch.setitem(main.commands, "yyy", english_only)
    text = _root_lang_help(lang)
    assert listed in text and "yyy" not in text, text


def test_a_german_lang_before_lab_says_once_in_german_that_lab_writes_english(tmp_path):
    out = tmp_path / "report"
    res = _run("--lang", "de", "lab", "wasserloch", "--games", "2", "--bots", "random", "--jobs", "1", "--quiet",
               "--out", str(out))
    assert res.exit_code == 0, res.output
    note = render("cli.english_only", {"command": "lab"}, "de")
    assert note == "Hinweis: lab schreibt auf Englisch."
    assert res.stderr.splitlines().count(note) == 1 and res.stderr.count("Hinweis") == 1, res.stderr
    assert "Hinweis" not in res.stdout and (out / "report.md").exists()


@pytest.mark.parametrize("name", ENGLISH_ONLY)
def test_a_german_lang_before_any_english_only_command_is_not_ignored_in_silence(name):
    res = _run("--lang=de", name, "--help")
    assert res.exit_code == 0, res.output
    note = render("cli.english_only_serve" if name == "serve" else "cli.english_only", {"command": name}, "de")
    assert note.startswith(f"Hinweis: {name} schreibt auf Englisch")
    assert res.stderr.splitlines() == [note]
    assert "Usage:" in res.stdout and "Aufruf" not in res.stdout  # the help itself stays English whole


@pytest.mark.parametrize("args", [["--lang", "en", "lab", "--help"], ["leaderboard", "--help"], ["arena", "--help"]])
def test_english_or_no_lang_adds_no_note(args):
    res = _run(*args)
    assert res.exit_code == 0 and res.stderr == "", res.stderr


def test_a_german_speaking_command_gets_no_note_and_speaks_german():
    res = _run("--lang", "de", "rules", "wasserloch")
    assert res.exit_code == 0, res.output
    assert res.stderr == ""
    assert "Hinweis" not in res.stdout and re.search(r"\b(der|die|und)\b", res.stdout)
    games = _run("--lang", "de", "games")
    assert games.exit_code == 0 and games.stderr == "" and "Standard" in games.stdout


@pytest.mark.parametrize("name", ENGLISH_ONLY)
@pytest.mark.parametrize("form", [["--lang", "de"], ["--lang=de"]])
def test_a_german_lang_after_an_english_only_command_is_said_to_be_ignored_not_refused(name, form):
    """`play --lang de` is how the language is written at the commands that speak it;
    `serve --lang de` was Click's "No such option '--lang'"."""
    res = _run(name, *form, "--help")
    assert res.exit_code == 0, res.output
    note = render("cli.english_only_serve" if name == "serve" else "cli.english_only", {"command": name}, "de")
    assert res.stderr.splitlines() == [note]
    assert "Usage:" in res.stdout and "Aufruf" not in res.stdout


def test_a_language_we_do_not_speak_after_an_english_only_command_is_still_refused():
    res = _run("serve", "--lang", "fr", "--help")
    assert res.exit_code == 2 and "No such option" in res.stderr and "--lang" in res.stderr, res.output
