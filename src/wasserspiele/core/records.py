"""Records (shared/spec/records.md): setup + actions, load, save, replay."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Mapping

from .errors import BadNotation, BadOption, BadRecord, IllegalAction, ReplayError, UnknownGame
from .protocol import Game, State
from .registry import load

FORMAT = "wasserspiele-record/1"
# `session`: optional, written by an interface for itself (the terminal: seats and language);
# replaying ignores it
_FIELDS = {"format", "game", "rules_version", "players", "options", "setup", "seed", "actions", "session"}


def make_record(state: State) -> dict[str, Any]:
    """The record document of a state: explicit setup, actions in notation."""
    game = state.game
    return {
        "format": FORMAT,
        "game": game.name,
        "rules_version": game.rules_version,
        "players": game.players,
        "options": game.non_default_options(),
        # every outcome drawn so far, including a deck already shuffled for the
        # round in progress, so a resumed game sees the same cards
        "setup": state.chance.used_setup(),
        "actions": state.record_actions(),
    }


def parse_record(doc: Any) -> tuple[Game, dict[str, Any]]:
    """Check a record document's shape; return its game and the document.  Raises BadRecord."""
    if not isinstance(doc, Mapping):
        raise BadRecord("record: must be a JSON object")
    unknown = sorted(set(doc) - _FIELDS)
    if unknown:
        raise BadRecord(f"{unknown[0]}: unknown field (fields: {', '.join(sorted(_FIELDS))})")
    if doc.get("format", FORMAT) != FORMAT:
        raise BadRecord(f"format: {doc.get('format')!r} is not {FORMAT!r}")
    name = doc.get("game")
    if not isinstance(name, str):
        raise BadRecord("game: missing or not a string")
    options = doc.get("options", {})
    if not isinstance(options, Mapping):
        raise BadRecord("options: must be an object")
    options = dict(options)
    if "players" in doc:
        players = doc["players"]
        if isinstance(players, bool) or not isinstance(players, int):
            raise BadRecord("players: must be an integer")
    try:
        from .registry import game_class
        cls = game_class(name)
        if "players" in doc:
            if cls.fixed_players is not None:
                if doc["players"] != cls.fixed_players:
                    raise BadRecord(f"players: {name} is for exactly {cls.fixed_players} players, not {doc['players']}")
            else:
                options["players"] = doc["players"]
        game = load(name, **options)
    except UnknownGame as exc:
        raise BadRecord(f"game: {exc}") from None
    except BadOption as exc:
        raise BadRecord(f"options: {exc}") from None
    rv = doc.get("rules_version", game.rules_version)
    if rv != game.rules_version:
        raise BadRecord(f"rules_version: {rv!r} is not supported (this is {game.rules_version!r})")
    has_setup, has_seed = "setup" in doc, "seed" in doc
    if has_setup == has_seed:
        raise BadRecord("setup: give exactly one of setup or seed")
    if has_seed and (isinstance(doc["seed"], bool) or not isinstance(doc["seed"], int)):
        raise BadRecord("seed: must be an integer")
    if has_setup:
        game.validate_setup(doc["setup"])
    actions = doc.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise BadRecord("actions: must be a list of strings")
    return game, dict(doc)


def replay(doc: Any, *, stop_at: int | None = None, rng: random.Random | None = None) -> State:
    """Apply a record's actions to its setup; the resulting state.

    Strict by default: a setup that runs out of chance outcomes is an error.  To
    resume a saved game, pass `rng` to draw the outcomes still to come.
    Raises BadRecord for a malformed document, ReplayError for an action that is
    illegal or unparsable where it stands.
    """
    game, doc = parse_record(doc)
    if "setup" in doc:
        state = game.new_game(setup=doc["setup"], rng=rng)
    else:
        state = game.new_game(seed=doc["seed"])
    actions = doc.get("actions", [])
    if stop_at is not None:
        actions = actions[:stop_at]
    for index, text in enumerate(actions):
        seat = state.current_seat
        try:
            state.apply(game.parse_action(text), seat)
        except (BadNotation, IllegalAction) as exc:
            reason = exc.reason if isinstance(exc, IllegalAction) else str(exc)
            raise ReplayError(index, text, seat, reason) from None
    return state


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
    """Parse JSON text, turning a syntax error into BadRecord."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadRecord(f"{source}: not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None


def read_record(path: str | Path) -> Any:
    """Read a record file (BadRecord if missing or not JSON)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise BadRecord(f"{p}: cannot read ({exc.strerror})") from None
    return load_record_text(text, str(p))


def write_record(state: State, path: str | Path, session: Mapping[str, Any] | None = None) -> None:
    """Save a state's record atomically (write to a temporary file, then rename), with
    the interface's `session` (e.g. the terminal's seats and language) if given."""
    p = Path(path)
    doc = state.record()
    if session is not None:
        doc["session"] = dict(session)
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    tmp.replace(p)
