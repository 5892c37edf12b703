"""The project's error hierarchy: every refusal says what was wrong."""

from __future__ import annotations

from .messages import Reason, reason_of
from .messages import render as _render


class WasserspieleError(Exception):
    """Base of every error the project raises on purpose."""


class UnknownGame(WasserspieleError, KeyError):
    """A game name that is not registered; `reason` says so with the games there are."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason_of(reason)

    def __str__(self) -> str:  # KeyError would quote the message
        return self.args[0] if self.args else ""


class _Refusal(WasserspieleError, ValueError):
    """An error whose `reason` is a messages.Reason (plain text as the code `text`), for
    interfaces that word it in the player's language; str() is the English text."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason_of(reason)


class BadOption(_Refusal):
    """An unknown option name or a value outside the option's range; `reason` says which."""


class BadNotation(_Refusal):
    """Text that does not parse as an action of the game; `reason` says what is wrong
    (such as `wasserloch.notation.count` with its parameters)."""

    def shown(self, text: str) -> Reason:
        """The Reason to show a player who typed `text`: the game's own, or for a game
        that words its refusal in plain English (code `text`) the catalogue's `bad_notation`
        with those words, so that every language still says what was not understood."""
        if self.reason.code != "text":
            return self.reason
        return Reason("bad_notation", text=text, error=str(self))


class BadRecord(_Refusal):
    """A malformed record document; the message names the field (`reason`: a record file
    that cannot be read or is not JSON has a code of its own, for the player's language)."""


class IllegalAction(WasserspieleError, ValueError):
    """A well-formed action that the rules do not allow now; `reason` says why (a
    messages.Reason: `reason.code` and `reason.params` for interfaces that translate it)."""

    def __init__(self, action: object, seat: int | None, reason: str):
        self.action = action
        self.seat = seat
        self.reason = reason_of(reason)
        who = f" by seat {seat}" if seat is not None else ""
        super().__init__(f'"{action}"{who}: {reason}')

    def __reduce__(self):
        # pickled as what it was made from (an exception pickles its message alone, which
        # this constructor cannot take): it crosses process pools and vector-env workers
        return type(self), (self.action, self.seat, self.reason)


class NotYourTurn(IllegalAction):
    """An action by a seat whose decision is not pending."""


class GameOver(IllegalAction):
    """An action on a finished game."""




class ChanceExhausted(BadRecord):
    """The record's setup holds fewer chance outcomes than the game needs."""


class ReplayError(WasserspieleError, ValueError):
    """A record action that is illegal or unparsable at its position; `reason` says why
    (a messages.Reason), str() in English and `render(lang)` in another language."""

    def __init__(self, index: int, action: str, seat: int | None, reason: str):
        self.index = index
        self.action = action
        self.seat = seat
        self.reason = reason_of(reason)
        super().__init__(self.render("en"))

    def __reduce__(self):  # as IllegalAction's
        return type(self), (self.index, self.action, self.seat, self.reason)

    def render(self, lang: str, say_seat=None) -> str:
        """The error in `lang`; `say_seat(seat, lang)`: its seats as the surface names
        them (the terminal's board names: Wildwasser's "by player B"), else "by seat 1"."""
        by = "" if self.seat is None else _render("replay.by_seat", {"seat": self.seat}, lang, say_seat=say_seat)
        return _render("replay.error", {"index": self.index, "action": self.action, "by": by,
                                        "reason": self.reason.render(lang, say_seat=say_seat)}, lang)
