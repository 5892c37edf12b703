"""Records (shared/spec/records.md): setup + actions, load, save, replay."""

from __future__ import annotations

import errno
import json
import random
import sys
from pathlib import Path
from typing import Any, Literal, Mapping

from .errors import BadNotation, BadOption, BadRecord, IllegalAction, ReplayError, UnknownGame
from .messages import Reason, shortened
from .paths import write_file
from .protocol import Game, State
from .registry import load
from .schema import Schema, validate

FORMAT = "wasserspiele-record/1"


class RecordDocument(Schema):
    """The shape of a record (records.md); what the fields mean is checked by the game."""

    format: Literal["wasserspiele-record/1"] = FORMAT
    game: str
    rules_version: str | None = None
    players: int | None = None
    options: dict[str, Any] = {}
    # the game's own chance fields, checked by Game.validate_setup (permutations as code)
    setup: dict[str, Any] | None = None
    seed: int | None = None
    actions: list[str] = []
    # written by an interface for itself (the terminal: seats and language); replaying ignores it
    session: dict[str, Any] | None = None


def make_record(state: State) -> dict[str, Any]:
    """The record document of a state: explicit setup, actions in notation."""
    game = state.game
    return {
        "format": FORMAT,
        "game": game.name,
        "rules_version": game.rules_version,
        "players": game.players,
        "options": game.non_default_options(),
        "setup": _setup_to_write(state),
        "actions": state.record_actions(),
    }


def parse_record(doc: Any) -> tuple[Game, dict[str, Any]]:
    """Check a record document's shape; return its game and the document.  Raises BadRecord,
    whose Reason names the field as the document spells it and says what is wrong in the
    reader's language (a text the document holds quoted by the catalogue's `quote`)."""
    if not isinstance(doc, Mapping):
        raise BadRecord(Reason("record.not_object"))
    _refuse_long_texts(doc)
    # an unknown field and a wrong `format` are refused here before the schema: pydantic
    # reads a text holding a lone surrogate (`"\ud800"` in the file) as no text at all, and
    # for a field's name reports only the document (schema.not_unicode), not which field
    for key in doc:
        if key not in RecordDocument.model_fields:
            raise BadRecord(Reason("schema.unknown_field", field=str(key)))
    fmt = doc.get("format", FORMAT)
    if isinstance(fmt, str) and fmt != FORMAT:
        raise BadRecord(Reason("schema.not_literal", field="format", value=fmt, expected=FORMAT))
    shape = validate(RecordDocument, dict(doc), BadRecord)
    name = shape.game
    options = dict(shape.options)
    try:
        from .registry import game_class
        cls = game_class(name)
        if "players" in doc:
            if shape.players is None:
                raise BadRecord(Reason("record.players_null"))
            if "players" in options and options["players"] != shape.players:
                raise BadRecord(Reason("record.players_disagree", options=options["players"], players=shape.players))
            if cls.fixed_players is not None:
                if shape.players != cls.fixed_players:
                    raise BadRecord(Reason("record.fixed_players", game=name, n=cls.fixed_players,
                                           given=shape.players))
            else:
                options["players"] = shape.players
        game = load(name, **options)
    except UnknownGame as exc:  # the registry's reason, said in the same language
        raise BadRecord(Reason("record.field", field="game", problem=exc.reason)) from None
    except BadOption as exc:
        # records.md: the message names the field; a bad top-level `players` is that field's
        # fault, not the options' (it reached the game as the option of the same name)
        given_players = "players" in doc and "players" not in shape.options
        field = "players" if given_players and exc.reason.params.get("name") == "players" else "options"
        raise BadRecord(Reason("record.field", field=field, problem=exc.reason)) from None
    rv = doc.get("rules_version", game.rules_version)
    if rv != game.rules_version:  # the schema lets only a string or null through
        if rv is None:
            raise BadRecord(Reason("record.rules_version_null", version=game.rules_version))
        raise BadRecord(Reason("record.rules_version", given=rv, version=game.rules_version))
    if (shape.setup is None) == (shape.seed is None):
        raise BadRecord(Reason("record.setup_or_seed"))
    if shape.setup is not None:
        game.validate_setup(doc["setup"])
    # null stands for a field not given: the callers then find only the one that deals
    return game, {k: v for k, v in doc.items() if not (k in ("setup", "seed") and v is None)}


# No text in a record of any game is near this long (the longest, `format`, has 21
# characters; an action a few dozen): a longer one is damage or a paste gone wrong, and
# every refusal that quoted it (an unknown action, card, option or game) was a line of
# hundreds of thousands of characters, not a clear error.
MAX_TEXT = 200
_SHOWN = 30  # how much of such a text the refusal shows


def _refuse_long_texts(doc: Mapping[str, Any]) -> None:
    """Refuse the first text (a value or a field's name) longer than MAX_TEXT, naming its
    field as the document spells it (`actions[3]`, `setup.deck[0]`) and showing its start.
    A loop, not recursion: a document given through the API may nest deeper than the stack."""
    stack: list[tuple[str, Any]] = [("", doc)]
    while stack:
        path, value = stack.pop()
        if path == "actions" and isinstance(value, list):
            continue  # an action is refused where it stands, by index (exit 1): `replay`
        if path == "session":
            continue  # the terminal's own notes (seat specs as typed, a weights path), which replay never reads
        if isinstance(value, str):
            _check_text(value, path)
        elif isinstance(value, Mapping):
            items = [(str(k), v) for k, v in value.items()]
            for key, _ in items:  # a name too long is named by its start
                _check_text(key, _joined(path, shortened(key, _SHOWN + 1)))
            stack.extend((_joined(path, k), v) for k, v in reversed(items))
        elif isinstance(value, list):
            # the bulk of a record is lists of short texts (decks): their lengths measured in C
            texts = [v for v in value if type(v) is str]
            if len(texts) < len(value) or (texts and max(map(len, texts)) > MAX_TEXT):
                stack.extend((f"{path}[{i}]", v) for i, v in reversed(list(enumerate(value))))


def _joined(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _check_text(text: str, field: str) -> None:
    if len(text) > MAX_TEXT:
        raise BadRecord(Reason("record.overlong_text", field=field, n=len(text), limit=MAX_TEXT,
                               start=shortened(text, _SHOWN + 1)))


def replay(doc: Any, *, stop_at: int | None = None, rng: random.Random | None = None) -> State:
    """Apply a record's actions to its setup; the resulting state.

    Strict by default: a setup that runs out of chance outcomes is an error.  To
    resume a saved game, pass `rng` to draw the outcomes still to come.
    Raises BadRecord for a malformed document (a game it ends with chance outcomes
    unread included), ReplayError for an action that is illegal or unparsable where it
    stands.
    """
    game, doc = parse_record(doc)
    if "setup" in doc:
        state = game.new_game(setup=doc["setup"], rng=rng)
    else:
        try:
            state = game.new_game(seed=doc["seed"])
        except BadOption as exc:  # a negative seed: a malformed document, named by its field
            raise BadRecord(Reason("record.field", field="seed", problem=exc.reason)) from None
    actions = doc.get("actions", [])
    if stop_at is not None:
        actions = actions[:stop_at]
    for index, text in enumerate(actions):
        seat = state.current_seat
        try:
            if _bad_seat_prefix(text):
                seat = None  # the seat the prefix means is unknown: blame no seat
                raise BadNotation(Reason("record.seat_prefix", prefix=text.partition(":")[0].strip()))
            if len(text) > MAX_TEXT:  # unparsable, and not to be quoted whole
                raise ReplayError(index, shortened(text, _SHOWN + 1), seat,
                                  Reason("record.action_too_long", n=len(text), limit=MAX_TEXT))
            named, action = game.parse_decision(text)
            if named is not None:
                if named >= game.players:  # "9: pick zebra" at four seats was refused as player J's turn
                    seat = None  # no seat of the table: blame none
                    raise BadNotation(Reason("record.no_such_seat", seat=named, players=game.players,
                                             n=game.players, last=game.players - 1))
                seat = named
            state.apply(action, seat)
        except (BadNotation, IllegalAction) as exc:  # both say why as a Reason (worded per language)
            raise ReplayError(index, text, seat, exc.reason) from None
    _refuse_unread(state)
    return state


def resume(doc: Any, seed: int | None = None) -> State:
    """A saved game to play on: `replay(doc, rng=…)` with the outcomes still to come drawn
    from a generator seeded by `seed` (None: one seeded by the system).

    Where the save was dealt from `seed` itself (`play --seed N --save`, resumed with
    `--seed N`), the generator goes on from where that game left it, so the rest of the
    game is dealt as seed N deals it without the break.  A generator seeded afresh would
    draw seed N's first outcomes again: Wasserloch's second round got the first round's
    deck, every hand as before.  Whether the save is seed N's own game is checked by
    replaying its actions from the seed: every outcome drawn must be the save's."""
    from .chance import make_rng
    rng = make_rng(seed)  # a negative seed is refused before any replay
    state = replay(doc, rng=rng)
    if seed is not None and isinstance(doc, Mapping):
        fields = {k: v for k, v in doc.items() if k not in ("setup", "seed")}
        try:
            own = replay({**fields, "seed": seed})
        except (BadRecord, ReplayError):  # its actions do not fit the seed's deal: dealt from another
            return state
        if own.chance.used_setup() == state.chance.used_setup():
            state.chance.rng = own.chance.rng
    return state


def _refuse_unread(state: State) -> None:
    """Refuse a finished game whose setup holds chance outcomes the game never read.

    records.md, the record's fields, `setup`: every chance outcome of the whole game.  A
    game that is over reads no more, so an outcome left unread (a deal after the last hand,
    a die roll too many, `signal_checks` while Watten's p is 0) is of no game and would
    vanish from a re-save.  A game not over keeps them: by records.md, Replaying, a record
    whose actions run out before the end replays to that position, and the outcomes still
    to come are the rest of its game (a resume reads them; `_setup_to_write`).  No writer
    leaves any: a save holds what was drawn up to its last action, as that action ended."""
    unread = state.chance.unread()
    if not unread or not state.is_terminal():
        return
    stream, n = next(iter(unread.items()))  # the first stream, in the record's order
    total = len(state.chance.setup[stream])
    read = total - n  # a stream is read in order: the unread entries are its last
    raise BadRecord(Reason("record.unread_outcomes", stream=stream, n=n, first=read, last=total - 1,
                           read=read, total=total))


def _setup_to_write(state: State) -> dict[str, list[Any]]:
    """A state's setup as its record holds it: every outcome drawn so far (a deck already
    shuffled for the round in progress included, so a resumed game sees the same cards)
    and, while the game is not over, the outcomes still to come of the record it was
    replayed from, so that a record cut short is written back as it was (a game drawing
    from a generator has none).  A finished game's are only those it read."""
    chance = state.chance
    if state.is_terminal():
        return chance.used_setup()
    return {k: list(v) for k, v in chance.setup.items()}


def _bad_seat_prefix(text: str) -> bool:
    """Whether a record action starts with a seat prefix that is not one (records.md: a seat
    is 0, 1, 2, … written in ASCII digits): `-1:`, `+1:`, digits of another script (`²:`,
    Arabic-Indic `١:`), which `str.isdigit` takes for digits and `int` reads as a seat or
    refuses with a ValueError, or more digits than any seat number has (`int` refuses
    over 4,300)."""
    head, sep, _ = text.partition(":")
    head = head.strip()
    number = head.lstrip("+-")
    if not (sep and number and number.isdigit()):
        return False  # no prefix: the whole text is the action
    return not (head == number and head.isascii()) or len(number.lstrip("0")) > _SEAT_DIGITS


_SEAT_DIGITS = 18  # no game has a seat number longer than this


def summary(state: State) -> dict[str, Any]:
    """The JSON summary `wasserspiele replay --json` prints (records.md)."""
    terminal = state.is_terminal()
    return {
        "game": state.game.name,
        "terminal": terminal,
        "to_move": [] if terminal else list(state.to_move()),
        "scores": state.scores(),
        "winners": state.winners() if terminal else [],
        "actions_applied": len(state.history),
        "state": state.state_json(),
    }


def load_record_text(text: str, source: str = "record") -> Any:
    """Parse JSON text, turning a syntax error, a number too long for Python to read or
    nesting too deep for its parser into BadRecord.  A byte order mark before the document
    (what some Windows editors write) is skipped, as RFC 8259 lets a parser do."""
    try:
        return json.loads(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as exc:
        raise BadRecord(Reason("record.not_json", source=source, error=_json_problem(exc.msg),
                               line=exc.lineno, column=exc.colno)) from None
    except ValueError:  # int() refuses an integer of more digits than the interpreter's limit
        raise BadRecord(Reason("record.number_too_long", source=source,
                               limit=sys.get_int_max_str_digits())) from None
    except RecursionError:  # the decoder's own guard, far below the stack's end
        raise BadRecord(Reason("record.too_deep", source=source)) from None


# the json module's messages (C and Python scanners) → the catalogue's codes, so that the
# reader's language says what is wrong with the JSON (the German message quoted English)
_JSON_PROBLEMS = (
    ("Expecting value", "record.json.expecting_value"),
    ("Expecting property name", "record.json.expecting_name"),
    ("Expecting ':'", "record.json.expecting_colon"),
    ("Expecting ','", "record.json.expecting_comma"),
    ("Unterminated string", "record.json.unterminated"),
    ("Invalid control character", "record.json.control"),
    ("Invalid \\uXXXX", "record.json.u_escape"),
    ("Invalid \\escape", "record.json.escape"),
    ("Extra data", "record.json.extra"),
    ("Illegal trailing comma", "record.json.trailing_comma"),  # Python 3.13's own message for `[1, 2,]`
)


def _json_problem(msg: str) -> Reason:
    """What the json module found wrong, as a Reason (its own words for one not listed)."""
    for prefix, code in _JSON_PROBLEMS:
        if msg.startswith(prefix):
            return Reason(code)
    return Reason("text", text=msg)


def _unreadable(path: Path, exc: OSError) -> Reason:
    """Why a record file cannot be read, with a code for the commonest causes (so any
    language can say it), else the system's own words."""
    code = {errno.ENOENT: "record.no_file", errno.EACCES: "record.no_access",
            errno.EISDIR: "record.a_folder"}.get(exc.errno, "record.cannot_read")
    return Reason(code, path=str(path), error=exc.strerror or str(exc))


def read_record(path: str | Path) -> Any:
    """Read a record file (BadRecord if missing, not UTF-8 or not JSON)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise BadRecord(_unreadable(p, exc)) from None
    except UnicodeDecodeError as exc:  # JSON is UTF-8 (RFC 8259); a Latin-1 editor's é is not
        raise BadRecord(Reason("record.not_utf8", path=str(p), byte=f"0x{exc.object[exc.start]:02x}",
                               position=exc.start)) from None
    return load_record_text(text, str(p))


def write_record(state: State, path: str | Path, session: Mapping[str, Any] | None = None) -> None:
    """Save a state's record atomically (paths.write_file: written beside `path` and renamed
    over it, nothing half-written left on a failure), with the interface's `session` (e.g.
    the terminal's seats and language) if given.  Raises paths.WriteFailed (an OSError)."""
    doc = state.record()
    if session is not None:
        doc["session"] = dict(session)
    write_file(path, json.dumps(doc, indent=1) + "\n")
