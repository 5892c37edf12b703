"""`wasserspiele arena` in the language of the root's --lang, as games, play, replay and rules
speak it: it refused in English only ("3 bots for 2 seats/teams") and had no --lang, so
`wasserspiele --lang de arena …` answered "Hinweis: arena schreibt auf Englisch" and then
English.  Its refusals, its help, its progress and its table come from the catalogue
(cli.arena.*, cli.flags.*, cli.progress.*), in English as before."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from wasserspiele.cli.main import main

from .test_usage_german import english, german

TINY = ["--games", "4", "--jobs", "1", "--option", "rounds=1", "--option", "players=2"]


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize("where", ["root", "own"])
def test_arena_says_too_many_bots_in_the_language_of_the_root_lang_or_its_own(where):
    args = ["arena", "watten", "--bots", "random,heuristic,expert", "--games", "1", "--jobs", "1"]
    args = ["--lang", "de", *args] if where == "root" else [*args, "--lang", "de"]
    result = _run(*args)
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert result.stderr.splitlines() == [
        "Fehler: --bots: 3 Bots für 2 Teams (Watten wird in Teams gespielt, ein Bot je Team); nenne höchstens 2"]
    english_line = _run(*[a for a in args if a not in ("--lang", "de")])
    assert english_line.stderr.splitlines() == [
        "Error: --bots: 3 bots for 2 teams (Watten is played in teams, one bot a team); name at most 2"]


# (arguments after `arena`, what the German refusal says): every refusal before the first game
REFUSALS = [
    (["wasserloch", "--bots", "random,random,random,random", "--option", "players=3"],
     "--bots: 4 Bots für 3 Plätze; nenne höchstens 3 (weniger besetzen die Plätze abwechselnd)"),
    (["wasserloch", "--bots", ""], "--bots nennt keinen Bot: nenne mindestens einen"),
    (["wasserloch", "--bots", "random", "--jobs", "0"], "Ungültiger Wert für --jobs: 0 Prozesse sind zu wenig: mindestens 1"),
    (["wasserloch", "--bots", "random", "--jobs", "99999"],
     "Ungültiger Wert für --jobs: 99999 Prozesse sind mehr als die 1024, die ein Lauf starten darf"),
    (["wasserloch", "--bots", "random", "--games", "0"], "Ungültiger Wert für --games: muss mindestens 1 sein, nicht 0"),
    (["wasserloch", "--bots", "random", "--games", "99999999999"],
     "Ungültiger Wert für --games: 99999999999 Partien sind mehr als die 10.000.000, die ein Lauf spielen darf"),
    (["watten", "--bots", "random", "--players", "3"],
     "Ungültiger Wert für --players: Watten ist für genau 4 Spieler, nicht für 3"),
    (["wasserloch", "--bots", "random", "--players", "3", "--option", "players=2"],
     "--players 3 und --option players=2 nennen zwei verschiedene Spielerzahlen: gib nur eine an"),
    (["nogame", "--bots", "random"], "es gibt kein Spiel namens „nogame“"),
    (["wasserloch", "--bots", "bogus"], "Bot-Angabe „bogus“: unbekannter Bot „bogus“"),
    (["wasserloch", "--bots", "random", "--option", "rounds=x"], "„x“ ist keine ganze Zahl"),
]


@pytest.mark.parametrize("args, says", REFUSALS, ids=[s[:40] for _, s in REFUSALS])
def test_every_arena_refusal_follows_the_root_lang(args, says):
    # the bots and levels are named as they are typed (`medium` is a level's name, not English)
    text = german(["--lang", "de", "arena", *args], aside="easy, medium, hard, expert")
    assert says in " ".join(text.split()), text
    assert "Hinweis" not in text  # arena speaks German: no note that it writes English


def test_the_arena_table_and_progress_are_in_the_language_asked_for():
    result = _run("--lang", "de", "arena", "wasserloch", "--bots", "random,heuristic", *TINY)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Wasserloch: 4 Partien, Startwert 0, 2 Spieler" in out
    for heading in ("Bot", "Plätze", "Gewinnquote", "95-%-Intervall", "Punkte im Schnitt", "Rang im Schnitt"):
        assert heading in out, out
    assert re.search(r"\b[01],\d{3}–[01],\d{3}\b", out) and not re.search(r"\d\.\d", out), out
    assert not english(out), out
    assert result.stderr.splitlines()[0] == "Wasserloch-Arena" and "4/4 Partien gespielt" in result.stderr
    same = _run("arena", "wasserloch", "--bots", "random,heuristic", *TINY)
    assert same.exit_code == 0, same.output
    assert "Wasserloch: 4 games, seed 0, 2 players" in same.stdout and "95 % CI" in same.stdout
    assert re.search(r"\b[01]\.\d{3}–[01]\.\d{3}\b", same.stdout)
    assert same.stderr.splitlines()[0] == "Wasserloch arena" and "4/4 games finished" in same.stderr
    # the same games, only the words and the decimal sign differ
    figures = re.findall(r"\d+[.,]\d+", out)
    assert figures and figures == re.findall(r"\d+[.,]\d+", same.stdout.replace(".", ","))


@pytest.mark.parametrize("lang, first, second", [("en", "random (bot 1)", "random (bot 2)"),
                                                  ("de", "random (Bot 1)", "random (Bot 2)")])
def test_a_spec_given_twice_is_two_rows_told_apart_by_their_place_in_bots(lang, first, second):
    """`--bots random,random` (does a seat matter?) printed two rows both labelled "random"."""
    result = _run("--lang", lang, "arena", "wasserloch", "--bots", "random,random", *TINY)
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if "random" in line]
    assert len(rows) == 2 and first in rows[0] and second in rows[1], result.stdout
    once = _run("--lang", lang, "arena", "wasserloch", "--bots", "random,heuristic", *TINY)
    assert "(bot 1)" not in once.stdout.lower(), once.stdout  # a spec given once keeps its name alone


def test_the_arena_help_is_german_whole():
    result = _run("--lang", "de", "arena", "--help")
    assert result.exit_code == 0 and result.stderr == "", result.output
    assert "Aufruf: main arena [OPTIONEN] SPIEL" in result.stdout
    assert not english(result.stdout.replace("docs/bots.md", "")), result.stdout
