"""`play --plain`: the hint said its moves in the old form, the notation first (`B♣ – Kreuz-Bube`,
`3x2 – play two 3s`), where a screen reader read the suit sign as "black club suit" and no
keyboard types it, while the move lists (`moves`) say each move in words and what to type
("jack of clubs: type JC", „Kreuz-Bube: tippe BKr").  The plain hint says its moves as the
move lists do; the styled hint keeps the notation."""

from __future__ import annotations

import re

import pytest

from wasserspiele.cli.play import read_move

from .test_plain_moves import BEFORE, GAMES, HEAD, SIGN, TYPE

HINT = {"en": "hint: ", "de": "Tipp: "}
QUIT = {"en": "quit", "de": "ende"}
# the hint's lines end in what the search expects of the move, or in the convention's note
TAIL = {"en": re.compile(r" \((about \d+%|the expert's convention)"),
        "de": re.compile(r" \((Gewinnchance|Konvention des Experten)")}


def _hint(output: str, lang: str) -> list[str]:
    """The moves of the hint: the best, then the alternatives (a terminal wide enough not to fold them)."""
    lines = output.split(HINT[lang], 1)[1].splitlines()
    moves = [lines[0]] + [x.strip() for x in lines[2:] if x.startswith("    ")]
    return [TAIL[lang].split(x)[0] for x in moves]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", GAMES)
def test_the_plain_hint_says_its_moves_as_the_move_list_does(run, game, lang):
    typed = BEFORE.get(game, {}).get(lang, "") + f"moves\n{'hint' if lang == 'en' else 'tipp'}\n{QUIT[lang]}\n"
    args = ["play", game, "--seed", "3", "--lang", lang]
    plain = run(*args, "--plain", input=typed, env={"COLUMNS": "1000"})
    styled = run(*args, input=typed, env={"COLUMNS": "1000"})
    assert plain.exit_code == 0 and styled.exit_code == 0, plain.output[-800:]
    listed = [x for x in plain.output.splitlines() if HEAD[lang] in x][0].split(HEAD[lang], 1)[1].split("; ")
    hinted = _hint(plain.output, lang)
    assert hinted, plain.output[-800:]
    for move in hinted:
        assert not SIGN.search(move), move  # no suit sign to read aloud
        assert move in listed, (move, listed)  # word for word as the move list says it
    # the styled hint keeps the notation, the same moves
    shown = _hint(styled.output, lang)
    assert len(shown) == len(hinted)
    for move, notation in zip(hinted, shown):
        to_type = move.rpartition(TYPE[lang])[2]
        assert read_move(game, to_type, lang) == read_move(game, notation, lang), (move, notation)
