"""Declared game options: defaults, parsing from text, validation with clear errors."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .errors import BadOption
from .messages import Reason, json_text


def plain_int(value: Any) -> Any:
    """numpy's integers (any `numbers.Integral` but a bool: from an array, a sweep's config)
    as the int they are, which the checks take and JSON holds; anything else unchanged,
    for the checks to refuse."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    return value

_NULL_WORDS = {"null", "none", "off"}


def number_text(text: str, kind: type[int] | type[float]) -> int | float:
    """The number typed text writes in plain ASCII (`12`, `-3`, `0.5`, `1e-3`); ValueError
    otherwise.  `int` and `float` also read "٣" as 3 and "1_0" as 10: a value the text
    does not show to its reader, kept in the records as such."""
    if not text.isascii() or "_" in text:
        raise ValueError(text)
    return kind(text)
_TRUE_WORDS = {"true", "yes", "on", "1"}
_FALSE_WORDS = {"false", "no", "off", "0"}
# an integer option declared without a maximum still has one: no option value may make a
# game endless (a target of 10**18 points) or a table unbounded
INT_MAXIMUM = 99


@dataclass(frozen=True)
class Option:
    """One option of a game, as the game's spec lists it.

    kind is one of: "int", "float", "bool", "choice".  `nullable` lets the value
    be None (spelled `null` on the command line).  `check` may refine validation
    given all option values (e.g. a seat must be below the player count); it
    returns None, or why not: a catalogue code and its parameters (the option's name and
    label are added), so the refusal is said in the reader's language.  `seat` marks a
    value that is a seat of the table (0-based, as the API and the records count): the
    value stays a number, but the lobby offers the table's seats by their names rather
    than a bare number field.
    """

    name: str
    default: Any
    kind: str
    help: str = ""
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    nullable: bool = False
    check: Callable[[Any, Mapping[str, Any]], tuple[str, dict[str, Any]] | None] | None = field(
        default=None, compare=False)
    seat: bool = False

    def __post_init__(self) -> None:
        if self.kind == "int" and self.maximum is None:
            object.__setattr__(self, "maximum", INT_MAXIMUM)

    def describe(self) -> str:
        """A one-line description of the values this option takes."""
        if self.kind == "choice":
            values = " | ".join(self.choices)
        elif self.kind == "bool":
            values = "true | false"
        else:
            lo = "" if self.minimum is None else f"{self.minimum:g}"
            hi = "" if self.maximum is None else f"{self.maximum:g}"
            values = f"{self.kind} {lo}..{hi}".rstrip(".") if (lo or hi) else self.kind
        if self.nullable:
            values += " | null"
        return values

    def problem(self, code: str, game: str = "", **params: Any) -> BadOption:
        """The refusal `code` (`option.*` in the catalogue) of a value of this option:
        `name` for the command line and the API, `option` (GAME.NAME, the `option` term)
        for a page that shows the option's label.  A value of the wrong kind is passed as
        it came: the templates' `{value:shown}` quotes text (typed, or a JSON string) as
        the reader's language quotes ('abc', „abc“) and writes anything else as JSON
        does (2.5, true, [3], {"x": 1}, not Python's True or {'x': 1})."""
        return BadOption(Reason(code, name=self.name, option=f"{game}.{self.name}" if game else self.name, **params))

    def parse_text(self, text: str, game: str = "") -> Any:
        """Turn command-line text into a value of this option's kind."""
        t = text.strip()
        if self.nullable and t.lower() in _NULL_WORDS:
            return None
        try:
            if self.kind == "int":
                return number_text(t, int)
            if self.kind == "float":
                value = number_text(t, float)
                if not math.isfinite(value):
                    raise ValueError(t)
                return value
        except ValueError:
            raise self.problem("option.not_integer" if self.kind == "int" else "option.not_number", game,
                               value=t) from None
        if self.kind == "bool":
            if t.lower() in _TRUE_WORDS:
                return True
            if t.lower() in _FALSE_WORDS:
                return False
            raise self.problem("option.not_bool", game, value=t)
        return t

    def validate(self, value: Any, game: str = "") -> Any:
        """Check a (JSON or Python) value against the option's kind and range; return it normalised."""
        value = plain_int(value)
        if value is None:
            if self.nullable:
                return None
            raise self.problem("option.null", game, takes=self.describe())
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise self.problem("option.not_integer", game, value=value)
        elif self.kind == "float":
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise self.problem("option.not_number", game, value=value)
            value = float(value) if isinstance(value, float) or abs(value) < 2**1023 else math.inf
            if not math.isfinite(value):  # NaN compares false with every bound: refuse it here
                raise self.problem("option.not_finite", game, value=json_text(value))
        elif self.kind == "bool":
            if not isinstance(value, bool):
                raise self.problem("option.not_bool", game, value=value)
        elif self.kind == "choice":
            if value not in self.choices:
                raise self.problem("option.not_choice", game, value=value, choices=", ".join(self.choices))
        if self.minimum is not None and value < self.minimum:
            raise self.problem("option.below", game, value=json_text(value), minimum=f"{self.minimum:g}")
        if self.maximum is not None and value > self.maximum:
            raise self.problem("option.above", game, value=json_text(value), maximum=f"{self.maximum:g}")
        return value


def resolve_options(declared: tuple[Option, ...], given: Mapping[str, Any], game: str) -> dict[str, Any]:
    """Validate `given` against `declared`; return every option with defaults filled in."""
    by_name = {o.name: o for o in declared}
    unknown = [k for k in given if k not in by_name]
    if unknown:
        names = ", ".join(sorted(by_name))
        # the name as given: the catalogue's template quotes it in the reader's language
        raise BadOption(Reason("option.unknown", game=game, key=str(unknown[0]), names=names))
    values = {o.name: o.default for o in declared}
    for name, value in given.items():
        values[name] = by_name[name].validate(value, game)
    for o in declared:
        if o.check is not None:
            problem = o.check(values[o.name], values)
            if problem is not None:  # (code, params): the option's name and label added
                code, params = problem
                raise o.problem(code, game, **params)
    return values


def parse_option_texts(declared: tuple[Option, ...], texts: list[str], game: str) -> dict[str, Any]:
    """Parse `key=value` strings (command line) into typed option values."""
    by_name = {o.name: o for o in declared}
    out: dict[str, Any] = {}
    texts_of: dict[str, str] = {}  # the text each value came from, for a refusal
    for text in texts:
        if "=" not in text:
            raise BadOption(Reason("option.key_value", text=text))
        key, _, raw = text.partition("=")
        key = key.strip()
        if key not in by_name:
            names = ", ".join(sorted(by_name))
            raise BadOption(Reason("option.unknown", game=game, key=key, names=names))
        value = by_name[key].parse_text(raw, game)
        if key in out and out[key] != value:
            # `--option rounds=1 --option rounds=2` kept the last without a word: which one the
            # user meant is not ours to guess (the same value twice is no contradiction)
            raise BadOption(Reason("option.twice", key=key, first=texts_of[key], second=text.strip()))
        out[key] = value
        texts_of[key] = text.strip()
    return out


def seat_check(value: Any, values: Mapping[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """A seat-valued option must name a seat of the table."""
    players = values.get("players")
    if players is not None and not 0 <= value < players:
        return "option.no_seat", {"value": value, "n": players, "last": players - 1}
    return None
