"""`play --plain` (a screen reader or braille display reading the terminal row by row): the
list of legal moves (`moves`) said the notation one types (`8S`, `3x2`, German `B♣`), read
"8 S", "3 x 2", "B black club suit", while the board's own plain lines say cards in words.
Plain, each move is said in words and with what to type ("8 of spades: type 8S", „Kreuz-Bube:
tippe BKr"), which the game reads back as that move; the styled screen keeps its notation.

A plain line too long for the terminal was broken by rich at the last space that fitted, inside
a card's words ("king of" on one row, "hearts" on the next); it is broken between the line's
parts now (cli/console.py PlainConsole)."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

import wasserspiele
from wasserspiele.cli.console import make_console
from wasserspiele.cli.play import read_move, show_move
from wasserspiele.core.cards import SUIT_SYMBOLS

GAMES = ("wasserloch", "seven_waters", "watten", "wildwasser")
TYPE = {"en": ": type ", "de": ": tippe "}
HEAD = {"en": "legal moves: ", "de": "erlaubte Züge: "}
SIGN = re.compile("[♣♦♥♠]")
# a card in words, as the page's screen reader names it (web.card_name), and a declared joker
CARD_WORDS = {"en": re.compile(r"\b(10|[2-9]|ace|king|queen|jack) of (clubs|diamonds|hearts|spades)\b"
                               r"|\bjoker [12]( as \w+)?"),
              "de": re.compile(r"\b(Kreuz|Karo|Herz|Pik)-(10|[2-9]|Ass|König|Dame|Bube)\b|\bJoker [12]( als \w+)?")}
# what is typed to reach a decision with cards to play (Watten's first is a signal)
BEFORE = {"watten": {"en": "signal weak\n", "de": "signal schwach\n"}}


def _moves_line(output: str, lang: str) -> str:
    lines = [x for x in output.splitlines() if HEAD[lang] in x]
    assert len(lines) == 1, output[-1500:]
    return lines[0].split(HEAD[lang], 1)[1]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", GAMES)
def test_plain_moves_say_each_move_in_words_and_what_to_type(run, game, lang):
    args = ["play", game, "--seed", "3", "--lang", lang]
    typed = BEFORE.get(game, {}).get(lang, "") + "moves\n" + ("quit" if lang == "en" else "ende") + "\n"
    plain = run(*args, "--plain", input=typed, env={"COLUMNS": "1000"})
    styled = run(*args, input=typed, env={"COLUMNS": "1000"})
    assert plain.exit_code == 0 and styled.exit_code == 0
    entries = _moves_line(plain.output, lang).split("; ")
    shown = _moves_line(styled.output, lang).split(", ")  # the styled screen: the notation as it was
    assert len(entries) == len(shown) > 1, (entries, shown)
    said_in_words = 0
    for entry, notation in zip(entries, shown):
        words, _, to_type = entry.rpartition(TYPE[lang])
        assert not SIGN.search(entry), entry  # no suit sign to read aloud, none to type
        # what it says to type is the move the styled screen lists in its place
        assert read_move(game, to_type, lang) == read_move(game, notation, lang), (entry, notation)
        if words:
            said_in_words += 1
            assert to_type not in words, entry
            if game in ("watten", "seven_waters"):
                assert CARD_WORDS[lang].search(words), entry
    # every move of Wasserloch (a play) and Watten (here: a card) is said in words
    if game in ("wasserloch", "watten"):
        assert said_in_words == len(entries), entries
    elif game == "seven_waters":
        assert said_in_words > 0, entries


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", GAMES)
def test_what_a_plain_move_says_to_type_is_read_back_as_that_move(game, lang):
    """Along random games: every legal move's typed form is read as that move, without a suit
    sign; the words, where there are any, come first."""
    from wasserspiele.cli.play import move_to_type, typed_move
    gm = wasserspiele.load(game)
    rng = random.Random(7)
    for seed in (1, 2):
        state = gm.new_game(seed=seed)
        steps = 0
        while not state.is_terminal() and steps < 150:
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            for action in legal:
                typed = typed_move(game, action, lang)
                assert not SIGN.search(typed), typed
                assert gm.parse_action(read_move(game, typed, lang)) == action, (typed, action)
                said = move_to_type(game, action, lang)
                assert said == typed or said.endswith(TYPE[lang] + typed), said
                assert not SIGN.search(said), said
            state.apply(rng.choice(legal), seat)
            steps += 1


def test_the_typed_form_keeps_what_the_board_shows_but_the_suit_signs():
    """German `B♣` is typed `BKr` (the legend's „Kr/♣ Kreuz"), English `JC` as it is."""
    from wasserspiele.cli.play import move_to_type, typed_move
    from wasserspiele.core.messages import render
    gm = wasserspiele.load("watten")
    jack = gm.parse_action("JC")
    assert show_move("watten", jack, "de") == "B" + SUIT_SYMBOLS["C"]
    assert typed_move("watten", jack, "de") == "B" + render("card.typed.C", {}, "de") == "BKr"
    assert typed_move("watten", jack, "en") == "JC"
    assert move_to_type("watten", jack, "en") == "jack of clubs: type JC"
    assert move_to_type("watten", jack, "de") == "Kreuz-Bube: tippe BKr"


def _split_cards(output: str, lang: str) -> list[str]:
    """The cards in words that a row's end cut in two: found when the rows are joined, not in the rows."""
    whole = Counter(m.group() for m in CARD_WORDS[lang].finditer(output))
    joined = Counter(m.group() for m in CARD_WORDS[lang].finditer(output.replace("\n", " ")))
    return sorted((joined - whole).elements())


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", ["watten", "seven_waters"])
def test_a_plain_row_never_ends_inside_a_card_s_words(run, game, lang):
    """A narrow terminal: the hand, the news, the moves and the hint in rows of 40 to 72
    columns, no card's words broken over two rows."""
    typed = BEFORE.get(game, {}).get(lang, "") + "moves\nhint\n" + ("quit" if lang == "en" else "ende") + "\n"
    cut = {}
    for width in (40, 48, 56, 64, 72):
        result = run("play", game, "--seed", "3", "--plain", "--lang", lang, input=typed,
                     env={"COLUMNS": str(width)})
        assert result.exit_code == 0
        assert max(len(row) for row in result.output.splitlines() if "> " not in row) <= width
        if _split_cards(result.output, lang):
            cut[width] = _split_cards(result.output, lang)
    assert not cut, cut


def test_a_plain_row_keeps_a_figure_with_its_percent_sign_and_a_line_s_indent():
    import io
    out = io.StringIO()
    console = make_console(plain=True, file=out, width=30)
    console.print("    3x1 – eine 3 ausspielen (Gewinnchance etwa 47 %, aus 1005 Partien)")
    rows = out.getvalue().splitlines()
    assert all(row.startswith("    ") and len(row) <= 30 for row in rows), rows
    assert not any(row.rstrip().endswith("47") for row in rows), rows
    assert " ".join(r.strip() for r in rows) == "3x1 – eine 3 ausspielen (Gewinnchance etwa 47 %, aus 1005 Partien)"
