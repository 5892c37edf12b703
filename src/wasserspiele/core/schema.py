"""Validation by schema (pydantic): a document's shape — fields, types, ranges — is
declared once as a model, and every error names the field it is about in the
project's style, `crossings[1].fields: must be a list`: a Reason (`schema.*`) that the
catalogue words in the reader's language around the field's path."""

from __future__ import annotations

import re
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from .messages import Reason, json_text

M = TypeVar("M", bound=BaseModel)


class Schema(BaseModel):
    """A document shape: unknown fields are refused and no value is coerced
    (`"3"` is not the integer 3, `true` is not 1)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def field_path(loc: tuple[Any, ...]) -> str:
    """A pydantic location as the project writes fields: `tiles.T13.icon`, `die[2]`."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


# pydantic's error kinds → the catalogue's codes (`schema.*`), which word them in the
# reader's language; the field path stays as the document spells it (data, not words)
_CODES = {
    "missing": "schema.missing",
    "extra_forbidden": "schema.unknown_field",
    "int_type": "schema.not_integer",
    "int_from_float": "schema.not_integer",
    "float_type": "schema.not_number",
    "string_type": "schema.not_string",
    # a text holding a lone surrogate ("\ud800" in a JSON file): pydantic said so in its own English
    "string_unicode": "schema.not_unicode",
    "bool_type": "schema.not_bool",
    "list_type": "schema.not_list",
    "tuple_type": "schema.not_list",
    "dict_type": "schema.not_object",
    "model_type": "schema.not_object",
    "model_attributes_type": "schema.not_object",
}
_BOUNDS = {"greater_than_equal": "schema.at_least", "greater_than": "schema.more_than",
           "less_than_equal": "schema.at_most", "less_than": "schema.less_than"}


def describe(error: dict[str, Any], prefix: str = "") -> Reason:
    """One pydantic error as `field: what is wrong` (a Reason: English as a str, any
    language rendered).  A value the document holds is quoted by the catalogue's `quote`
    when it is text, else written as JSON writes it."""
    kind, ctx = error["type"], error.get("ctx") or {}
    path = field_path(error["loc"])
    where: Any = prefix + path if path else Reason("schema.document", prefix=prefix)
    if kind in _CODES:
        return Reason(_CODES[kind], field=where)
    if kind in _BOUNDS:
        limit = next(iter(ctx.values()), "?")
        return Reason(_BOUNDS[kind], field=where, value=json_text(error["input"]), limit=json_text(limit))
    if kind in ("too_short", "too_long"):
        n = ctx.get("min_length", ctx.get("max_length"))
        return Reason(f"schema.{kind}", field=where, n=n)
    if kind == "literal_error":
        expected = ", ".join(_literals(str(ctx.get("expected", ""))))
        return Reason("schema.not_literal", field=where, value=error["input"], expected=expected)
    return Reason("schema.other", field=where, problem=error["msg"])  # pydantic's own words


def _literals(expected: str) -> list[str]:
    """The values pydantic lists as `'a', 'b' or 'c'`, as they are (listed unquoted,
    as an option's choices are); its text as it is if it is not such a list."""
    found = re.findall(r"'((?:[^'\\]|\\.)*)'", expected)
    return found or [expected]


def validate(model: type[M], data: Any, error: type[Exception], prefix: str = "") -> M:
    """`data` as an instance of `model`, or `error` naming the first wrong field."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise error(describe(exc.errors()[0], prefix)) from None
