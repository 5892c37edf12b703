"""Numbers in every game's notation: only ASCII digits, and none longer than any notation's.

`str.isdigit` also takes "²" (superscript two) or "١" (Arabic-Indic one), which `int`
refuses with a ValueError, and `int` refuses more than 4,300 digits: a typed move, a
record or a request with such a number got a traceback (a server's 500) where the game's
own refusal was due (core/notation.py)."""

import pytest

from wasserspiele import load
from wasserspiele.core.errors import BadNotation
from wasserspiele.core.notation import MAX_DIGITS, ascii_number

LONG = "9" * 5000

# (game, a move with a number in it, where the number goes); each `good` is a move the
# game reads, so the refusals below are the number's alone
MOVES = [
    ("wasserloch", "3x{}", "2"),                 # WL-4.1: a count of cards
    ("wildwasser", "action {}", "1"),            # WW-3.2: the cheetah's seat
    ("wildwasser", "marker {}", "1"),            # WW-4.3: the marker icon's seat
    ("seven_waters", "take {}-1", "1"),          # SW-4.1: a pyramid row
    ("seven_waters", "take 5-{}", "1"),          # SW-4.1: a pyramid column
    ("seven_waters", "slide {} 8C 9C 10C", "2"),  # SW-4.3: a slide's line
    ("seven_waters", "slide 2 8C 9C X1={}", "10"),  # SW-4.3: a joker's rank in a slide
]
NOT_NUMBERS = ["²", "١", "1²", LONG, "0" * (MAX_DIGITS + 1), "+1", "-1", "1.0", "1_0"]


@pytest.mark.parametrize("name, form, good", MOVES)
def test_a_number_in_any_notation_is_read_only_from_ascii_digits(name, form, good):
    game = load(name)
    assert str(game.parse_action(form.format(good)))  # the move itself is read
    for bad in NOT_NUMBERS:
        with pytest.raises(BadNotation):
            game.parse_action(form.format(bad))


@pytest.mark.parametrize("name, form, good", MOVES)
def test_a_state_refuses_such_a_move_with_the_game_s_reason(name, form, good):
    state = load(name).new_game(seed=1)
    for bad in ("²", LONG):
        with pytest.raises(BadNotation):
            state.apply(form.format(bad))


def test_ascii_number():
    assert ascii_number("0") == 0 and ascii_number("007") == 7
    assert ascii_number("9" * MAX_DIGITS) == int("9" * MAX_DIGITS)
    for text in NOT_NUMBERS + ["", " 1", "1 ", "one"]:
        assert ascii_number(text) is None, text
