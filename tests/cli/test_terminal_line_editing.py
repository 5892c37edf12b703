"""Typing at the terminal: an arrow key pressed where the line has no editing sends an
escape sequence, which the refusal quoted back raw (the cursor jumped, the screen was
garbled); at an interactive terminal the line is now edited as in a shell (readline: the
arrows recall earlier moves), and players sharing a screen cannot recall each other's."""

from __future__ import annotations

import io

import pytest

from wasserspiele.cli import play
from wasserspiele.cli.console import printable


@pytest.mark.parametrize("lang", ["en", "de"])
def test_an_escape_sequence_in_the_typed_line_is_quoted_as_an_escape(run, lang):
    result = run("play", "wasserloch", "--seats", "human,random", "--seed", "1", "--lang", lang,
                 input="\x1b[A\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output  # (the test's runner echoes the input itself: the refusal is read here)
    refusal = out[out.index("not understood" if lang == "en" else "nicht verstanden"):]
    refusal = refusal[:refusal.index("> ")]
    assert "\x1b" not in refusal and "\\x1b[A" in refusal, refusal


def test_printable_escapes_control_characters_only():
    assert printable("7x2 Zürich ♠\n\t") == "7x2 Zürich ♠\n\t"
    assert printable("a\x07b\x00") == "a\\x07b\\x00"


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_line_editing_only_where_a_player_types_at_a_terminal():
    readline = pytest.importorskip("readline")
    assert play.line_editing(_Tty()) is readline
    assert play.line_editing(io.StringIO()) is None


def test_players_sharing_a_screen_cannot_recall_the_moves_typed_before_the_hand_over(run, monkeypatch):
    cleared = []

    class Editing:
        def clear_history(self) -> None:
            cleared.append(True)

    monkeypatch.setattr(play, "line_editing", lambda stdin=None: Editing())
    result = run("play", "wasserloch", "--seats", "human,human", "--seed", "1", input="\nAx1\n\nquit\n")
    assert result.exit_code == 0, result.output
    assert len(cleared) == 2  # before seat 0's turn and before seat 1's
