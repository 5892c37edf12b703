"""The shapes of everything a client sends: JSON parsed under limits, then checked by
pydantic models that refuse unknown fields and say which field is wrong.

`parse_json` refuses what `json.loads` would accept but the server must not: nesting
deeper than MAX_DEPTH, `NaN`/`Infinity`, integers longer than MAX_DIGITS digits, and
unpaired surrogate escapes (`"\\ud800"`: no character, and no answer quoting one could
be encoded).
`load(model, data)` returns the model or raises `Invalid` whose reason names the field
path (`seats[1].level: ...`).
"""

from __future__ import annotations

import json
import re
from typing import Any, ClassVar, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..core.messages import shown

MAX_DEPTH = 16             # nesting of arrays and objects in one body or message
MAX_DIGITS = 18            # digits of one JSON integer (options and move numbers are far smaller)
MAX_ACTION_CHARS = 200
MAX_TOKEN_CHARS = 200
MAX_MOVE_NUMBER = 10**6    # far beyond the longest game


class Invalid(Exception):
    """Input of the wrong shape; `code` is stable, `reason` says what and where."""

    def __init__(self, code: str, reason: str, status: int = 400):
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.status = status


def _depth(value: Any) -> int:
    """How deeply arrays and objects nest in a parsed value (iterative: no recursion limit)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, depth)
            if depth <= MAX_DEPTH:
                stack.extend((x, depth + 1) for x in item)
    return deepest


_SURROGATE = re.compile("[\ud800-\udfff]")


def _unpaired_surrogate(value: Any) -> str | None:
    """The first unpaired surrogate escape (`\\ud800`) in a parsed value's strings and
    keys, as JSON writes it; None if there is none.  `json.loads` takes such an escape, but
    it is no character: it cannot be written as UTF-8, so any answer quoting it (an
    unknown option's name, a value an option refuses) failed to encode and was a 500."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and not item.isascii():
            found = _SURROGATE.search(item)
            if found:
                return f"\\u{ord(found.group()):04x}"
    return None


def _refuse_constant(name: str) -> Any:
    raise Invalid("bad_json", f"{name} is not a number in JSON (numbers must be finite)")


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise Invalid("bad_json", f"the number {text[:40]} is too large")
    return value


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise Invalid("bad_json", f"an integer of {len(text.lstrip('-'))} digits is too large "
                                  f"(at most {MAX_DIGITS} digits)")
    return int(text)


def parse_json(data: bytes | str, what: str = "the request body") -> Any:
    """JSON from a client, within the limits above, or Invalid saying what is wrong."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise Invalid("bad_json", f"{what} is not UTF-8 ({exc.reason} at byte {exc.start})") from None
    too_deep = Invalid("bad_json", f"{what} is nested too deeply (at most {MAX_DEPTH} levels)")
    try:
        value = json.loads(data or "null", parse_constant=_refuse_constant, parse_int=_bounded_int,
                           parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        raise Invalid("bad_json", f"{what} is not valid JSON ({exc.msg} at position {exc.pos})") from None
    except RecursionError:  # the decoder's own guard, far below the stack's end
        raise too_deep from None
    if _depth(value) > MAX_DEPTH:
        raise too_deep
    surrogate = _unpaired_surrogate(value)
    if surrogate is not None:
        raise Invalid("bad_json", f"{what} has the escape {surrogate}, half of a surrogate pair and no "
                                  f"character by itself (text must be valid Unicode)")
    return value


class Schema(BaseModel):
    """Strict: no coercion ("0" is not 0, true is not 1) and no unknown fields."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    refusal_code: ClassVar[str] = "bad_request"


class SeatSpec(Schema):
    kind: Literal["human", "bot"]
    level: str | None = Field(default=None, max_length=32)


class CreateTable(Schema):
    game: str = Field(max_length=64)
    options: dict[str, Any] | None = None
    seats: list[SeatSpec] | None = Field(default=None, max_length=16)


class MoveBody(Schema):
    refusal_code: ClassVar[str] = "bad_message"
    action: str = Field(min_length=1, max_length=MAX_ACTION_CHARS, description="the move in the game's notation")
    n: int = Field(ge=0, le=MAX_MOVE_NUMBER, description="the move number your move is based on")


class Rematch(Schema):
    """A rematch takes no fields (the table says the game, options and seats); an
    empty body or `{}`."""


class Hello(Schema):
    refusal_code: ClassVar[str] = "bad_message"
    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=MAX_TOKEN_CHARS)
    lang: str | None = Field(default=None, max_length=35)   # a language tag: en, de, de-AT
    # a page reconnecting on its own (not opened, not "play here again"): it does not take
    # its seat from a live connection of another tab, it is the one replaced (LiveTable.attach)
    resume: bool = False
    # the page's own id, the same in all its hellos: its own connection the server has not
    # seen drop yet is no other tab's (a resume replaces it as an ordinary hello does)
    tab: str | None = Field(default=None, max_length=64)


class MoveMessage(MoveBody):
    type: Literal["move"]


class NameMessage(Schema):
    refusal_code: ClassVar[str] = "bad_message"
    type: Literal["name"]
    name: str = Field(max_length=200, description="the seat's player name")  # the hub says what is wrong with it


class StandInBody(Schema):
    """A seated player hands an absent player's seat to a bot (hub.LiveTable.stand_in)."""
    refusal_code: ClassVar[str] = "bad_message"
    seat: int = Field(ge=0, le=15, description="the absent player's seat")
    level: str = Field(max_length=32, description="the bot's level")


class StandInMessage(StandInBody):
    type: Literal["stand_in"]


class Sync(Schema):
    refusal_code: ClassVar[str] = "bad_message"
    type: Literal["sync"]


class Ping(Schema):
    refusal_code: ClassVar[str] = "bad_message"
    type: Literal["ping"]


MESSAGES: dict[str, type[Schema]] = {"move": MoveMessage, "name": NameMessage, "stand_in": StandInMessage,
                                     "sync": Sync, "ping": Ping}


def _path(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the body"


_JSON_WORDS = {"dict_type": "an object", "model_type": "an object", "list_type": "a list",
               "string_type": "a string", "int_type": "an integer", "bool_type": "true or false"}


def _schema_in(annotation: Any) -> type[Schema] | None:
    """The model inside an annotation such as `list[SeatSpec] | None`."""
    if isinstance(annotation, type) and issubclass(annotation, Schema):
        return annotation
    for arg in get_args(annotation):
        found = _schema_in(arg)
        if found is not None:
            return found
    return None


def explain(model: type[Schema], exc: ValidationError) -> str:
    """The first problem, as `field.path: what is wrong` (pydantic's words, shortened)."""
    err = exc.errors(include_url=False)[0]
    where, kind = _path(err["loc"]), err["type"]
    field = model.model_fields.get(err["loc"][0]) if len(err["loc"]) == 1 else None
    if field is not None and field.description:
        where += f" ({field.description})"
    if kind == "missing":
        return f"{where}: missing"
    if kind == "extra_forbidden":
        parent = model
        for part in err["loc"][:-1]:  # name the fields the enclosing object takes
            field = parent.model_fields.get(part) if isinstance(part, str) else None
            if field is not None:
                parent = _schema_in(field.annotation) or parent
        return f"{where}: unknown field {shown(err['loc'][-1])} ({_fields_words(parent)})"
    if kind in ("model_type", "dict_type") and not err["loc"]:
        return "the body must be a JSON object"
    if kind in _JSON_WORDS:
        return f"{where}: must be {_JSON_WORDS[kind]}"
    return f"{where}: {err['msg'][0].lower() + err['msg'][1:]}"


def _fields_words(model: type[Schema]) -> str:
    """The fields `model` takes, for a refusal; a model without any (a rematch) says so
    rather than listing nothing ("fields: ")."""
    if not model.model_fields:
        return "it takes no fields: send {} or no body"
    return f"fields: {', '.join(model.model_fields)}"


def load(model: type[Schema], data: Any) -> Schema:
    """`data` as `model`, or Invalid naming the field that is wrong."""
    if not isinstance(data, dict):
        raise Invalid(model.refusal_code, f"the body must be a JSON object ({_fields_words(model)})")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise Invalid(model.refusal_code, explain(model, exc)) from None


def load_message(data: Any) -> Schema:
    """One WebSocket message after the hello: a move, sync or ping."""
    if not isinstance(data, dict):
        raise Invalid("bad_message", "a message must be a JSON object with a \"type\"")
    kind = data.get("type")
    model = MESSAGES.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise Invalid("bad_message", f"unknown message type {shown(kind)} (types: {', '.join(MESSAGES)})")
    return load(model, data)
