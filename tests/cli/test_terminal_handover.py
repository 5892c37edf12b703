"""Players sharing one screen are asked to hand it over before each turn; `quit` typed at
that question stops the game there (it went on and showed the next player's hand)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("lang, quit_word, hand", [("en", "quit", "Your hand"), ("de", "ende", "Deine Hand")])
def test_quit_at_the_hand_over_stops_before_the_next_hand_is_shown(run, lang, quit_word, hand):
    result = run("play", "wasserloch", "--seats", "human,human", "--seed", "1", "--lang", lang,
                 input=f"\nAx1\n{quit_word}\n")
    assert result.exit_code == 0, result.output  # stopped by the player, not by the end of the input
    after = result.output.split("Ax1")[-1]  # from seat 0's play on
    assert hand not in after, after
    assert ("game not saved" if lang == "en" else "Spiel nicht gespeichert") in after


def test_enter_at_the_hand_over_still_shows_the_next_hand(run):
    result = run("play", "wasserloch", "--seats", "human,human", "--seed", "1", input="\nAx1\n\nquit\n")
    assert result.exit_code == 0
    assert "Your hand" in result.output.split("You played Ax1")[-1]
