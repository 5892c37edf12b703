"""Validation by schema (pydantic): a document's shape — fields, types, ranges — is
declared once as a model, and every error names the field it is about in the
project's style, `crossings[1].fields: must be a list`."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

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


_PHRASES = {
    "missing": "missing",
    "extra_forbidden": "unknown field",
    "int_type": "must be an integer",
    "int_from_float": "must be an integer",
    "float_type": "must be a number",
    "string_type": "must be a string",
    "bool_type": "must be true or false",
    "list_type": "must be a list",
    "tuple_type": "must be a list",
    "dict_type": "must be an object",
    "model_type": "must be an object",
    "model_attributes_type": "must be an object",
}


def describe(error: dict[str, Any]) -> str:
    """One pydantic error as `field: what is wrong`."""
    kind, ctx = error["type"], error.get("ctx") or {}
    where = field_path(error["loc"]) or "document"
    if kind in _PHRASES:
        what = _PHRASES[kind]
    elif kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound = {"greater_than_equal": "at least", "greater_than": "more than",
                 "less_than_equal": "at most", "less_than": "less than"}[kind]
        limit = next(iter(ctx.values()), "?")
        what = f"{error['input']!r} is out of range ({bound} {limit})"
    elif kind in ("too_short", "too_long"):
        what = f"must have {'at least' if kind == 'too_short' else 'at most'} " \
               f"{ctx.get('min_length', ctx.get('max_length'))} entries"
    elif kind == "literal_error":
        what = f"{error['input']!r} is not one of {ctx.get('expected')}"
    else:
        what = error["msg"]
    return f"{where}: {what}"


def validate(model: type[M], data: Any, error: type[Exception], prefix: str = "") -> M:
    """`data` as an instance of `model`, or `error` naming the first wrong field."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise error(prefix + describe(exc.errors()[0])) from None
