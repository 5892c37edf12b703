"""Declared game options: defaults, parsing from text, validation with clear errors."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .errors import BadOption

_NULL_WORDS = {"null", "none", "off"}
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
    returns an error text or None.
    """

    name: str
    default: Any
    kind: str
    help: str = ""
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    nullable: bool = False
    check: Callable[[Any, Mapping[str, Any]], str | None] | None = field(default=None, compare=False)

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

    def parse_text(self, text: str) -> Any:
        """Turn command-line text into a value of this option's kind."""
        t = text.strip()
        if self.nullable and t.lower() in _NULL_WORDS:
            return None
        try:
            if self.kind == "int":
                return int(t)
            if self.kind == "float":
                value = float(t)
                if not math.isfinite(value):
                    raise ValueError(t)
                return value
        except ValueError:
            raise BadOption(f"option {self.name}: {text!r} is not a{'n' if self.kind == 'int' else ''} {self.kind}") from None
        if self.kind == "bool":
            if t.lower() in _TRUE_WORDS:
                return True
            if t.lower() in _FALSE_WORDS:
                return False
            raise BadOption(f"option {self.name}: {text!r} is not true or false")
        return t

    def validate(self, value: Any) -> Any:
        """Check a (JSON or Python) value against the option's kind and range; return it normalised."""
        if value is None:
            if self.nullable:
                return None
            raise BadOption(f"option {self.name}: null is not allowed (takes {self.describe()})")
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadOption(f"option {self.name}: {value!r} is not an integer")
        elif self.kind == "float":
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise BadOption(f"option {self.name}: {value!r} is not a number")
            value = float(value) if isinstance(value, float) or abs(value) < 2**1023 else math.inf
            if not math.isfinite(value):  # NaN compares false with every bound: refuse it here
                raise BadOption(f"option {self.name}: {value!r} is not a finite number")
        elif self.kind == "bool":
            if not isinstance(value, bool):
                raise BadOption(f"option {self.name}: {value!r} is not true or false")
        elif self.kind == "choice":
            if value not in self.choices:
                raise BadOption(f"option {self.name}: {value!r} is not one of {', '.join(self.choices)}")
        if self.minimum is not None and value < self.minimum:
            raise BadOption(f"option {self.name}: {value!r} is below the minimum {self.minimum:g}")
        if self.maximum is not None and value > self.maximum:
            raise BadOption(f"option {self.name}: {value!r} is above the maximum {self.maximum:g}")
        return value


def resolve_options(declared: tuple[Option, ...], given: Mapping[str, Any], game: str) -> dict[str, Any]:
    """Validate `given` against `declared`; return every option with defaults filled in."""
    by_name = {o.name: o for o in declared}
    unknown = [k for k in given if k not in by_name]
    if unknown:
        names = ", ".join(sorted(by_name))
        raise BadOption(f"{game} has no option {unknown[0]!r} (options: {names})")
    values = {o.name: o.default for o in declared}
    for name, value in given.items():
        values[name] = by_name[name].validate(value)
    for o in declared:
        if o.check is not None:
            problem = o.check(values[o.name], values)
            if problem:
                raise BadOption(f"option {o.name}: {problem}")
    return values


def parse_option_texts(declared: tuple[Option, ...], texts: list[str], game: str) -> dict[str, Any]:
    """Parse `key=value` strings (command line) into typed option values."""
    by_name = {o.name: o for o in declared}
    out: dict[str, Any] = {}
    for text in texts:
        if "=" not in text:
            raise BadOption(f"option {text!r}: expected key=value")
        key, _, raw = text.partition("=")
        key = key.strip()
        if key not in by_name:
            names = ", ".join(sorted(by_name))
            raise BadOption(f"{game} has no option {key!r} (options: {names})")
        out[key] = by_name[key].parse_text(raw)
    return out


def seat_check(value: Any, values: Mapping[str, Any]) -> str | None:
    """A seat-valued option must name a seat of the table."""
    players = values.get("players")
    if players is not None and not 0 <= value < players:
        return f"seat {value} does not exist with {players} players (seats 0..{players - 1})"
    return None
