"""What the games' notations share: reading a number that a player or a record wrote."""

from __future__ import annotations

# No number of any game's notation is near this long (a count of cards, a pyramid row, a
# seat, a joker's rank): a longer one is refused as out of range, unread.
MAX_DIGITS = 9


def ascii_number(text: str) -> int | None:
    """The whole number `text` writes in ASCII digits, or None.  `str.isdigit` also takes
    "²" or "١", which `int` refuses with a ValueError (a traceback, or a server's 500, where
    the game's own refusal was due), and `int` refuses text of more than 4,300 digits."""
    if text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS:
        return int(text)
    return None
