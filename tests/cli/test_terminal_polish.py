"""What a player met playing every game in the terminal, in German and English: the root
command's help and `games`' notation in German; Wasserloch's `help` explaining value x
count, its loot line, a game's end telling only the plays since the player's own; Watten
saying what the player decides before the first card, and its winners as its teams;
Wildwasser's moves named by the player letter shown, and what a revealed card can do."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner
from rich.text import Text

from wasserspiele.cli.main import main
from wasserspiele.cli.render import renderer

from .test_usage_german import english


def _flat(text: str) -> str:
    return " ".join(text.split())


# -- the root command's help ---------------------------------------------------------------
@pytest.mark.parametrize("args", [["--help", "--lang", "de"], ["--lang", "de", "--help"], ["-h", "--lang=de"]],
                         ids=["help_first", "lang_first", "short_and_equals"])
def test_the_root_help_is_german_when_the_command_line_asks_for_it(args):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    text = result.output
    flat = _flat(text)
    for said in ("Aufruf: main [OPTIONEN] BEFEHL [ARGUMENTE]...", "Spiele spielen, nachspielen und erforschen",
                 "Optionen:", "--version Die Version zeigen und beenden.", "-h, --help Diese Hilfe zeigen und beenden.",
                 "Befehle:", "games Die Spiele auflisten", "play SPIEL im Terminal spielen",
                 "replay Ein Spielprotokoll DATEI nachspielen", "serve Die Web-App starten"):
        assert said in flat, said
    found = english(text)
    assert not found, f"English {sorted(found)} in:\n{text}"
    for name, command in main.commands.items():  # every command has its line, none in English
        assert re.search(rf"^  {name} +\S", text, re.M), name
        assert command.get_short_help_str(30).rstrip(".") not in text, name


@pytest.mark.parametrize("args", [["--lang", "de"], ["--lang=de"]], ids=["apart", "equals_sign"])
def test_the_root_command_with_only_a_language_shows_its_help_as_with_nothing(args):
    """`wasserspiele` alone shows the help; `wasserspiele --lang de` said only that a command
    was missing."""
    result = CliRunner().invoke(main, args)
    alone = CliRunner().invoke(main, [])
    assert result.exit_code == alone.exit_code
    assert "Aufruf: main [OPTIONEN]" in result.stderr and "Befehle:" in result.stderr
    assert "Fehler" not in result.stderr


def test_the_root_help_in_english_reads_as_before():
    text = CliRunner().invoke(main, ["--help"]).output
    assert text.startswith("Usage: main [OPTIONS] COMMAND [ARGS]...\n\n"
                           "  Play, replay and study tabletop games (`wasserspiele games` lists them).\n\nOptions:\n")
    assert "  play         Play GAME in the terminal against bots or friends at one..." in text


def test_the_root_lang_is_the_language_of_the_command_after_it():
    """`wasserspiele --lang de games` asks for German as `games --lang de` does; the
    command's own --lang, later on the line, has the last word."""
    german = CliRunner().invoke(main, ["--lang", "de", "games"])
    assert german.exit_code == 0 and "Spieler" in german.output
    assert german.output == CliRunner().invoke(main, ["games", "--lang", "de"]).output
    own = CliRunner().invoke(main, ["--lang", "de", "games", "--lang", "en"])
    assert own.output == CliRunner().invoke(main, ["games"]).output


def test_version_is_untouched_by_the_root_lang():
    for args in (["--version"], ["--version", "--lang", "de"], ["--lang", "de", "--version"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0 and re.fullmatch(r"main, version \S+\n", result.output), (args, result.output)


# -- Wasserloch -------------------------------------------------------------------------------
@pytest.mark.parametrize("lang, legend", [("en", "A play is value x count: 7x2 plays two 7s"),
                                          ("de", "Ein Zug ist Wert x Anzahl: 7x2 legt zwei 7er")])
def test_wasserloch_help_explains_value_x_count(lang, legend):
    """`help` named `Ax1` as an example and left the player to guess what the x is."""
    words = {"en": "help\nquit\n", "de": "hilfe\nende\n"}[lang]
    result = CliRunner().invoke(main, ["play", "wasserloch", "--seed", "3", "--lang", lang], input=words)
    assert legend in _flat(result.output)


def _view(me, last_mover, last, round_=1, start=0):
    """`last`: per seat (play, round, the play's number in the match) or None; the view's
    `recent` plays are these in play order (no seat played twice in between)."""
    entries = [None if e is None else {"play": e[0], "drove_off": None, "loot": 0, "round": e[1], "move": e[2]}
               for e in last]
    recent = sorted(({**e, "seat": s} for s, e in enumerate(entries) if e is not None), key=lambda e: e["move"])
    return {"seat": me, "players": 3, "round": round_, "start_player": start, "last_mover": last_mover,
            "last": entries, "recent": recent}


def test_wl_5_2_the_end_of_a_wasserloch_game_tells_no_play_from_before_the_player_s_own():
    """Seat 1 played its last card and ended the game: seat 2, who had no turn after the
    player's, was told again as if it had just played its earlier 7x1."""
    view = _view(0, 1, [("7x1", 1, 11), ("6x1", 1, 12), ("7x1", 1, 10)])
    assert Text.from_markup(renderer("wasserloch").describe_last(view, "en")).plain == "Seat 1 played 6x1"


def test_wl_5_2_a_wasserloch_round_ended_by_the_player_tells_nothing_old():
    """The player's own play ended the round and the player begins the next: no other seat
    has played since."""
    view = _view(0, 0, [("5x1", 1, 12), ("6x1", 1, 10), ("7x1", 1, 11)], round_=2, start=0)
    assert Text.from_markup(renderer("wasserloch").describe_last(view, "en")).plain == "Round 2 begins; seat 0 starts"


# -- a move named by its last word as shown ---------------------------------------------------
def _wildwasser_at(phase_word: str, lang: str):
    """A seeded Wildwasser session of four humans played on until every legal move begins
    with `phase_word` (`marker`: the start marker is given)."""
    import random

    from wasserspiele.cli.play import PlaySession
    session = PlaySession.create("wildwasser", None, "human,human,human,human", 3, [], None, None, lang)
    state, rng = session.state, random.Random(3)
    while True:
        seat = state.current_seat
        legal = state.legal_actions(seat)
        if all(str(a).startswith(phase_word) for a in legal) and len(legal) > 1:
            return session, seat, legal
        state.apply(rng.choice(legal), seat)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_player_letter_alone_names_the_move_that_ends_with_it(lang):
    """`marker A, marker B, marker C, marker D` were listed, and `D` was not understood:
    the last word as the board shows it names the move, as `gepard` names `pick cheetah`."""
    session, seat, legal = _wildwasser_at("marker", lang)
    action, problem = session.understand("d", seat, legal)
    assert problem is None and str(action) == "marker 3"


@pytest.mark.parametrize("lang, line", [
    ("en", "Loot (cards in hand): seat 0 (you): 0 (5) | seat 1: 0 (5) | seat 2: 0 (5)"),
    ("de", "Beute (Karten auf der Hand): Platz 0 (du): 0 (5) | Platz 1: 0 (5) | Platz 2: 0 (5)")])
def test_the_wasserloch_loot_line_says_which_number_is_the_hand(lang, line):
    """`Beute: Platz 0 (du): 0 · 5 Karten` read as five cards of loot; they were the hand."""
    from wasserspiele.core.registry import load
    view = load("wasserloch").new_game(seed=3).view(0)
    assert line in Text.from_markup(renderer("wasserloch").render_view(view, lang)).plain.splitlines()


# -- the smaller commands ---------------------------------------------------------------------
def test_games_in_german_explains_each_notation_in_german():
    """The notation's words stay those of the records, its explanation was English
    (`cards as TH, jokers declared X1=7, e.g.`, `or a card`, `animals:`)."""
    output = CliRunner().invoke(main, ["games", "--lang", "de"]).output
    shipped = ("wasserloch", "seven_waters", "watten", "wildwasser")  # (a test may register a game of its own)
    text = _flat(" ".join(block for block in re.split(r"\n(?=\S)", output) if block.startswith(shipped)))
    for english_words in ("e.g.", "cards as", "or a card", "animals:", "play COUNT cards"):
        assert english_words not in text, english_words
    assert text.count("z. B.") == 2 and "oder eine Karte (JC, TH)" in text and "(Tiere: " in text


def test_the_english_notation_entries_are_the_manifests_words():
    """A `<game>.ui.notation` entry stands for its manifest's notation only while its
    English is that notation word for word."""
    from wasserspiele.core.messages import catalogue
    from wasserspiele.core.registry import manifests
    for m in manifests():
        assert catalogue("en").text(f"{m.name}.ui.notation") in (None, m.notation), m.name


# -- Watten -------------------------------------------------------------------------------------
def _watten_decision(phase: str):
    """The first seeded Watten position where a seat decides in `phase`, with that seat."""
    import random

    from wasserspiele.core.registry import load
    state, rng = load("watten").new_game(seed=7), random.Random(7)
    while state.view(None)["phase"] != phase:
        seat = state.current_seat
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    return state, state.current_seat


@pytest.mark.parametrize("phase, lang, line", [
    ("signal", "en", "Signal to your partner how strong your hand is: signal weak, medium or strong, or signal none"),
    ("signal", "de", "Zwicken: zeig deinem Partner, wie stark deine Hand ist – signal schwach, mittel oder stark, "
                     "oder signal keins"),
    ("trump", "en", "You call trump: trump C, S, H or D"),
    ("trump", "de", "Du sagst Trumpf an: trumpf Kreuz, Pik, Herz oder Karo")])
def test_watten_says_what_the_player_decides_before_the_first_card(phase, lang, line):
    """The signal asked for `signal none, signal weak, …` with no word of what a signal is."""
    state, seat = _watten_decision(phase)
    r = renderer("watten")
    assert line in Text.from_markup(r.render_view(state.view(seat), lang)).plain.splitlines()
    other = next(s for s in range(4) if s != seat)  # a seat not deciding is not asked
    assert line not in Text.from_markup(r.render_view(state.view(other), lang)).plain


@pytest.mark.parametrize("lang, line", [("en", "Winners: Team 0 (seats 0+2)"), ("de", "Sieger: Team 0 (Plätze 0+2)")])
def test_the_watten_winners_are_named_as_the_team_lines_name_them(lang, line):
    """The end said `Team 0 (Platz 0 + 2)`, one seat in the singular, where the team lines
    above it say `Team 0 (Plätze 0+2)`."""
    view = {"results": [], "scores": [11, 9], "winners": [0, 2]}
    assert line in Text.from_markup(renderer("watten").render_result(view, lang)).plain.splitlines()


# -- Wildwasser ---------------------------------------------------------------------------------
@pytest.mark.parametrize("lang, said", [
    ("en", {"cheetah": "move (5 fields) or action PLAYER (give the start marker to another team card)",
            "zebra": "move (4 fields) or action (push the river)"}),
    ("de", {"cheetah": "ziehen (5 Felder) oder aktion SPIELER (den Startmarker auf eine andere Teamkarte legen)",
            "zebra": "ziehen (4 Felder) oder aktion (den Fluss schieben)"})])
def test_wildwasser_says_what_move_and_action_do_with_the_card_revealed(lang, said):
    """The moves were `move, action` (`ziehen, aktion`) with no word of what the action of
    the card is."""
    import random

    from wasserspiele.core.registry import load
    r = renderer("wildwasser")
    seen = set()
    for seed in range(1, 40):
        state, rng = load("wildwasser").new_game(seed=seed), random.Random(seed)
        while not state.is_terminal() and len(seen) < len(said):
            seat = state.current_seat
            view = state.view(seat)
            if view["phase"] == "resolve" and view["resolving"] == seat and view["card"] in said:
                lines = Text.from_markup(r.render_view(view, lang)).plain.splitlines()
                assert any(line.endswith(said[view["card"]]) for line in lines), lines
                seen.add(view["card"])
                other = state.view((seat + 1) % 4)  # told to the seat deciding only
                assert said[view["card"]] not in Text.from_markup(r.render_view(other, lang)).plain
            state.apply(rng.choice(state.legal_actions(seat)), seat)
        if len(seen) == len(said):
            break
    assert seen == set(said)
