"""Records as users meet them (shared/spec/records.md): a saved game edited by hand, cut
short, mangled by an editor or written by another program.  Whatever the document holds,
loading and replaying it either succeeds, and then the game replayed is exactly the one
the record describes (written back out, it replays to the same game), or it is refused by
the project's own errors (BadRecord, ReplayError) with a message that says what was wrong
in both languages; never another exception, never a traceback at the terminal."""

from __future__ import annotations

import functools
import json
import pickle
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import wasserspiele
from wasserspiele import load
from wasserspiele.core.errors import BadRecord, ReplayError
from wasserspiele.core.messages import Reason, catalogue
from wasserspiele.core.records import read_record, replay, write_record
from wasserspiele.core.registry import game_class

FUZZ = settings(max_examples=500, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
BYTES_FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)

# the four games, each with options that keep a random game short, one set at defaults
# and one that differs (so `options` is not always empty)
SETUPS = [
    ("wasserloch", {"players": 2, "rounds": 1}),
    ("wasserloch", {"players": 4, "rounds": 1, "chase": "adjacent"}),
    ("seven_waters", {}),
    ("seven_waters", {"final_turns": "none", "slide_limit": None}),
    ("watten", {"target": 3}),
    ("watten", {"target": 2, "raising": True, "signal_detection_p": 0.5}),
    ("wildwasser", {"players": 3}),
    ("wildwasser", {"players": 2, "river_flow": "back"}),
]
GAME_NAMES = sorted({name for name, _ in SETUPS})


@functools.lru_cache(maxsize=None)
def _saved(index: int, cut: bool) -> str:
    """A seeded random game of SETUPS[index] (to its end, or cut short halfway), saved the
    way the terminal saves it (write_record) and read back as a file: its JSON text."""
    name, options = SETUPS[index]
    rng = random.Random(1000 + index)
    state = load(name, **options).new_game(seed=index)
    taken = []
    while not state.is_terminal():
        seat = rng.choice(state.to_move())
        taken.append((rng.choice(list(state.legal_actions(seat))), seat))
        state.apply(*taken[-1])
    if cut:
        state = load(name, **options).new_game(seed=index)
        for action, seat in taken[:len(taken) // 2]:
            state.apply(action, seat)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "saved.json"
        write_record(state, path)
        return path.read_text(encoding="utf-8")


def base_record(index: int, cut: bool) -> dict:
    """A fresh copy of a saved record, as read_record reads it."""
    return json.loads(_saved(index, cut))


# -- values a hand or another program puts where they do not belong -------------------
AWKWARD = st.one_of(st.characters(codec=None), st.sampled_from(list("\x00\x1b\x1f\x7f\u202e\u200b\ufeff²٣-+:%/\\ \t\n")),
                    st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF))
TEXT = st.text(AWKWARD, max_size=12)
NUMBERS = st.one_of(st.integers(-10**30, 10**30), st.sampled_from([0, 1, 2, 3, 4, 5, 6, 7, 99, 100, -1, 2**63, -2**63]),
                    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(["NaN", "Infinity", "-1", "1e400", "3"]))
LONG = st.builds(lambda c, n: c * n, st.sampled_from(["x", "7", "\u00e9", "\x00", " "]), st.sampled_from([1000, 100_000]))
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, TEXT, LONG)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(TEXT, inner, max_size=3)), max_leaves=8)


def paths(doc: Any, here: tuple = ()) -> list[tuple]:
    """Every place in a JSON document (the root included)."""
    out = [here]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += paths(v, here + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += paths(v, here + (i,))
    return out


def at(doc: Any, path: tuple) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def put(doc: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    at(doc, path[:-1])[path[-1]] = value
    return doc


def some_action_text(draw) -> str:
    """An action of some game (possibly another), or a near miss, or noise."""
    other = base_record(draw(st.integers(0, len(SETUPS) - 1)), False)["actions"]
    return draw(st.one_of(st.sampled_from(other), TEXT, LONG,
                          st.builds(lambda s, a: f"{s}: {a}", st.integers(-2, 8), st.sampled_from(other)),
                          st.sampled_from(other).map(str.lower), st.sampled_from(other).map(lambda a: a + " x"),
                          st.sampled_from(other).map(lambda a: a.replace("1", "9"))))


@st.composite
def mutated(draw) -> tuple[dict, list[str]]:
    """A saved record of one of the games, with one to three hand edits; and what they were."""
    index = draw(st.integers(0, len(SETUPS) - 1))
    doc = base_record(index, draw(st.booleans()))
    done = []
    for _ in range(draw(st.integers(1, 3))):
        if not isinstance(doc, dict) or not doc:
            break  # the whole document was replaced: nothing left to edit
        kind = draw(st.sampled_from(["delete", "add", "rename", "retype", "number", "string", "actions",
                                     "actions", "actions", "prefix", "players", "setup", "setup", "options",
                                     "game", "format", "top"]))
        done.append(kind)
        places = paths(doc)
        if kind == "delete":
            path = draw(st.sampled_from([p for p in places if p]))  # a non-empty object has a field
            del at(doc, path[:-1])[path[-1]]
        elif kind == "add":
            objects = [p for p in places if isinstance(at(doc, p), dict)]
            path = draw(st.sampled_from(objects))
            at(doc, path)[draw(st.one_of(TEXT, st.sampled_from(["seed", "setup", "players", "session", "x"])))] = \
                draw(VALUES)
        elif kind == "rename":
            keyed = [p for p in places if p and isinstance(p[-1], str)]
            if keyed:
                path = draw(st.sampled_from(keyed))
                parent = at(doc, path[:-1])
                parent[draw(st.one_of(TEXT, st.just(path[-1].upper()), st.just(path[-1] + "s")))] = \
                    parent.pop(path[-1])
        elif kind == "retype":
            doc = put(doc, draw(st.sampled_from(places)), draw(VALUES))
        elif kind == "number":
            doc = put(doc, draw(st.sampled_from(places)), draw(NUMBERS))
        elif kind == "string":
            texts = [p for p in places if isinstance(at(doc, p), str)]
            if not texts:
                continue
            path = draw(st.sampled_from(texts))
            old = at(doc, path)
            cut = draw(st.integers(0, len(old)))
            doc = put(doc, path, old[:cut] + draw(st.one_of(TEXT, LONG)) + old[cut:])
        elif kind == "actions" and isinstance(doc.get("actions"), list) and doc["actions"]:
            acts = doc["actions"]
            i = draw(st.integers(0, len(acts) - 1))
            j = draw(st.integers(0, len(acts) - 1))
            how = draw(st.sampled_from(["swap", "duplicate", "drop", "reorder", "replace", "truncate", "append"]))
            done[-1] += "." + how
            if how == "swap":
                acts[i], acts[j] = acts[j], acts[i]
            elif how == "duplicate":
                acts.insert(i, acts[i])
            elif how == "drop":
                del acts[i]
            elif how == "reorder":
                lo, hi = sorted((i, j))
                part = acts[lo:hi + 1]
                draw(st.randoms(use_true_random=False)).shuffle(part)
                acts[lo:hi + 1] = part
            elif how == "replace":
                acts[i] = some_action_text(draw)
            elif how == "truncate":
                del acts[i:]
            else:
                acts.append(some_action_text(draw))
        elif kind == "prefix" and isinstance(doc.get("actions"), list) and doc["actions"]:
            acts = doc["actions"]
            i = draw(st.integers(0, len(acts) - 1))
            if isinstance(acts[i], str):
                bare = acts[i].partition(":")[2].strip() if ":" in acts[i] else acts[i]
                acts[i] = f"{draw(st.sampled_from([-1, 0, 1, 2, 3, 5, 6, 7, 99, 10**20]))}: {bare}"
        elif kind == "players":
            doc["players"] = draw(st.one_of(NUMBERS, st.integers(-1, 8)))
        elif kind == "setup" and isinstance(doc.get("setup"), dict) and doc["setup"]:
            stream = draw(st.sampled_from(sorted(doc["setup"])))
            entries = doc["setup"][stream]
            if isinstance(entries, list) and entries:
                # Watten's deals are lists of lists: edit one deal as often as the stream
                deals = [e for e in entries if isinstance(e, list)]
                if deals and draw(st.booleans()):
                    entries = draw(st.sampled_from(deals))
                if entries:
                    i = draw(st.integers(0, len(entries) - 1))
                    j = draw(st.integers(0, len(entries) - 1))
                    how = draw(st.sampled_from(["duplicate", "drop", "add", "replace", "swap", "empty", "cut"]))
                    done[-1] += "." + how
                    if how == "duplicate":
                        entries[i] = entries[j]
                    elif how == "drop":
                        del entries[i]
                    elif how == "add":
                        entries.insert(i, entries[j])
                    elif how == "replace":
                        entries[i] = draw(st.one_of(SCALARS, st.sampled_from(["X1", "X3", "TH", "10H", "1H", "sun",
                                                                              "moon", "0", "9", "AZ"])))
                    elif how == "swap":
                        entries[i], entries[j] = entries[j], entries[i]
                    elif how == "empty":
                        entries.clear()
                    else:
                        del entries[i:]
        elif kind == "options":
            options = doc.setdefault("options", {}) if isinstance(doc.get("options", {}), dict) else {}
            known = ["players", "rounds", "first_player", "chase", "slide_limit", "final_turns", "target",
                     "first_dealer", "raising", "signals", "signal_detection_p", "jack_order", "follow",
                     "caller", "hand_value", "river_flow"]
            options[draw(st.one_of(st.sampled_from(known), TEXT))] = draw(st.one_of(NUMBERS, VALUES))
        elif kind == "top":  # a field of the record itself, any JSON value
            doc[draw(st.sampled_from(["format", "game", "rules_version", "players", "options", "setup", "seed",
                                      "actions", "session"]))] = draw(st.one_of(TEXT, NUMBERS, VALUES))
        elif kind == "game" and isinstance(doc, dict):
            doc["game"] = draw(st.one_of(st.sampled_from(GAME_NAMES + ["Watten", "fifth", "", "watten\ud800"]), TEXT))
        elif kind == "format" and isinstance(doc, dict):
            doc["format"] = draw(st.one_of(st.sampled_from(["wasserspiele-record/2", "wasserspiele-record/1 ",
                                                            "wasserspiele-record/1\ud800", "\udfff"]), TEXT, VALUES))
    return doc, done


# -- what every refusal must be -------------------------------------------------------
def reasons(reason: Any) -> list[Reason]:
    """A Reason and every Reason it quotes."""
    out = [reason] if isinstance(reason, Reason) else []
    for value in getattr(reason, "params", {}).values():
        out += reasons(value)
    return out


def said_clearly(exc: Exception) -> None:
    """A refusal the reader understands: a non-empty message in English and in German,
    every part of it a catalogue entry in both (not another layer's English words)."""
    if isinstance(exc, ReplayError):
        texts = [exc.render("en"), exc.render("de")]
        assert exc.index >= 0 and isinstance(exc.action, str)
    else:
        texts = [exc.reason.render("en"), exc.reason.render("de")]
    for text in texts:
        assert text.strip(), exc
    for r in reasons(exc.reason):
        assert r.code != "text", f"English words, not a catalogue entry: {r!r}"
        assert r.code != "schema.other", f"pydantic's English words: {r!r}"
        for lang in ("en", "de"):
            assert catalogue(lang).has(r.code), f"{r.code} not in the {lang} catalogue"
    json.dumps(exc.reason.to_json())  # the web passes it on as JSON
    sent = pickle.loads(pickle.dumps(exc))  # whole through a process pool (the lab's, the arena's)
    assert type(sent) is type(exc) and str(sent) == str(exc) and sent.reason.render("de") == exc.reason.render("de")


def replays_or_refuses(doc: Any) -> None:
    """The property: a refusal said clearly, or a game that is exactly the record's; the
    same for the game resumed from it (`play --resume`: outcomes still to come drawn)."""
    resumes(doc)
    try:
        state = replay(doc)
    except (BadRecord, ReplayError) as exc:
        said_clearly(exc)
        return
    again = state.record()
    assert len(state.history) == len(doc.get("actions", [])), "an action was skipped"
    assert again["game"] == game_class(doc["game"]).name  # the name is read as `load` reads it
    second = replay(json.loads(json.dumps(again)))  # written out and read back: the same game
    assert second.record() == again
    assert second.state_json() == state.state_json()
    assert [a.partition(":")[2].strip() if ":" in a else a for a in again["actions"]] == \
        [a.partition(":")[2].strip() if ":" in a else a for a in state.record_actions()]
    # the options it was played under are those the record asked for
    asked = dict(doc.get("options", {}))
    if doc.get("players") is not None:
        asked["players"] = doc["players"]
    for key, value in asked.items():
        played = state.game.players if key == "players" else state.game.options[key]
        assert played == value and type(played) is type(value), (key, value, played)
    if isinstance(doc.get("setup"), dict):
        assert set(again["setup"]) <= set(doc["setup"]) or not doc["setup"]


def resumes(doc: Any) -> None:
    """`play --resume`: the record replayed with a generator for what its setup lacks."""
    try:
        state = replay(doc, rng=random.Random(7))
    except (BadRecord, ReplayError) as exc:
        said_clearly(exc)
        return
    again = state.record()
    assert len(state.history) == len(doc.get("actions", []))
    second = replay(json.loads(json.dumps(again)))  # the save it goes on from replays strictly
    assert second.record() == again and second.state_json() == state.state_json()


@FUZZ
@given(case=mutated())
@example(case=({"game": "wasserloch", "seed": -5}, ["seed"]))          # BadOption escaped replay()
@example(case=({"game": "wildwasser", "players": 10**30, "seed": 1}, ["players"]))  # blamed on options
@example(case=({"game": "watten", "seed": 1, "format": "\ud800"}, ["format"]))      # pydantic's English
def test_records_a_hand_edited_record_replays_exactly_or_is_refused_naming_what_is_wrong(case):
    """records.md, Replaying: a malformed document is refused (exit 2) naming the field, an
    illegal action (exit 1) naming its index, action and seat; anything else replays."""
    doc, _edits = case
    replays_or_refuses(doc)


def test_records_every_saved_record_replays_to_itself():
    """The fuzz starts from records that are right: each replays and is written back as saved."""
    for index in range(len(SETUPS)):
        for cut in (False, True):
            doc = base_record(index, cut)
            state = replay(doc)
            assert state.is_terminal() is not cut
            assert state.record() == doc


def test_records_a_session_note_of_any_length_does_not_stop_a_replay():
    """`play --save` writes the seats as typed into `session` (a checkpoint's path may be long),
    which replay never reads: the long-text check refused the program's own save on resume."""
    doc = base_record(0, True)
    seat = "learned:weights=" + "/very/long/folder" * 12 + "/w.npz,search=400"
    assert len(seat) > 200
    doc = {**doc, "session": {"seats": ["human", seat]}}
    state = replay(doc)
    assert state.record()["actions"] == doc["actions"]


# -- the file itself: bytes an editor, a download or a disk leaves ------------------------
@st.composite
def mangled_file(draw) -> bytes:
    index = draw(st.integers(0, len(SETUPS) - 1))
    data = _saved(index, draw(st.booleans())).encode("utf-8")
    how = draw(st.sampled_from(["truncate", "byte", "empty", "array", "bom", "nul", "utf16", "nan", "dup_key"]))
    if how == "truncate":
        return data[:draw(st.integers(0, len(data) - 1))]
    if how == "byte":
        i = draw(st.integers(0, len(data)))
        return data[:i] + bytes([draw(st.integers(0x80, 0xFF))]) + data[i:]
    if how == "empty":
        return draw(st.sampled_from([b"", b" ", b"\n", b"null", b"0", b'""', b"{}", b"[]"]))
    if how == "array":
        return b"[" + data + b"]"
    if how == "bom":
        return b"\xef\xbb\xbf" + data
    if how == "nul":
        i = draw(st.integers(0, len(data)))
        return data[:i] + b"\x00" + data[i:]
    if how == "utf16":
        return data.decode("utf-8").encode(draw(st.sampled_from(["utf-16", "utf-16-le", "utf-32"])))
    if how == "nan":
        return data.replace(b'"players": ', b'"players": NaN, "x": ', 1) if draw(st.booleans()) else \
            data.replace(b'"actions": [', b'"seed": Infinity, "actions": [', 1)
    return data.replace(b'"game": ', b'"game": "watten", "game": ', 1)


@BYTES_FUZZ
@given(content=mangled_file())
def test_records_a_damaged_record_file_is_refused_naming_it(tmp_path, content):
    """records.md: bad JSON is refused (exit 2) with a message that says what is wrong."""
    path = tmp_path / "damaged.json"
    path.write_bytes(content)
    try:
        doc = read_record(path)
    except BadRecord as exc:
        said_clearly(exc)
        return
    replays_or_refuses(doc)


# -- the terminal: one clear line, the right exit status ------------------------------
def _cli(path: Path, *args: str) -> subprocess.CompletedProcess:
    src = Path(wasserspiele.__file__).resolve().parents[1]  # the package these tests import
    return subprocess.run([sys.executable, "-m", "wasserspiele", "replay", str(path), *args],
                          capture_output=True, text=True, timeout=60,
                          env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})


def _worst_cases() -> dict[str, tuple[bytes, int]]:
    watten = base_record(SETUPS.index(("watten", {"target": 3})), False)
    swapped = dict(watten, game="wasserloch")
    illegal = dict(watten, actions=list(watten["actions"]))
    illegal["actions"][0] = next(a for a in watten["actions"] if " " not in a)  # a card before trump is named
    control = dict(watten, actions=list(watten["actions"]))
    control["actions"][1] = "\x1b[2J\x1b[31mJC\ud800"
    wild = base_record(SETUPS.index(("wildwasser", {"players": 3})), False)
    seat = dict(wild, actions=["7: " + a.partition(":")[2].strip() if ":" in a else a for a in wild["actions"]])
    return {
        "empty": (b"", 2),
        "array": (b"[" + json.dumps(watten).encode() + b"]", 2),
        "truncated": (json.dumps(watten).encode()[:-40], 2),
        "latin1": (json.dumps(watten, ensure_ascii=False).encode().replace(b'"watten"', b'"w\xe4tten"'), 2),
        "other_game": (json.dumps(swapped).encode(), 2),
        "illegal": (json.dumps(illegal).encode(), 1),
        "control": (json.dumps(control).encode(), 1),
        "seat": (json.dumps(seat).encode(), 1),
        "huge_players": (json.dumps(dict(wild, players=10**30)).encode(), 2),
        "nan_option": (json.dumps(dict(watten, options={"target": float("nan")})).encode(), 2),
        "long_action": (json.dumps(dict(watten, actions=["\x1b[31m" * 20_000])).encode(), 1),
        "long_game": (json.dumps(dict(watten, game="\x1b[31m" * 20_000)).encode(), 2),
    }


@pytest.mark.parametrize("lang", ["en", "de"])
def test_records_the_worst_files_get_one_clear_line_at_the_terminal(tmp_path, lang):
    """`wasserspiele replay FILE`: exit 2 for a malformed document, 1 for an illegal action,
    one line on stderr in the reader's language, nothing on stdout, no traceback."""
    prefix = {"en": "Error: ", "de": "Fehler: "}[lang]
    for name, (content, status) in _worst_cases().items():
        path = tmp_path / f"{name}.json"
        path.write_bytes(content)
        out = _cli(path, "--json", "--lang", lang)
        assert out.returncode == status, (name, out.returncode, out.stderr)
        assert out.stdout == "", (name, out.stdout)
        lines = out.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(prefix), (name, out.stderr)
        assert "Traceback" not in out.stderr and "\x1b" not in out.stderr, (name, out.stderr)
        assert len(lines[0]) < 1000, (name, len(lines[0]))  # a line a reader can read


# -- what the fuzz found (each failed before its fix) ----------------------------------
def test_records_malformed_document_a_setup_too_short_for_its_actions_is_said_in_german_too():
    """records.md: setup of the wrong size is refused in the reader's language.  A setup
    that runs out (one Wasserloch deck for a match of two rounds) was refused in English
    words only (Chance.draw's f-string), in the German message too."""
    doc = base_record(0, False)
    doc["options"]["rounds"] = 2
    with pytest.raises(BadRecord) as err:
        replay(doc)
    reason = err.value.reason
    assert reason.code == "record.chance_exhausted"
    assert str(err.value) == "setup.decks has 1 entry but the game needs deck number 2"
    assert reason.render("de") == "setup.decks hat 1 Eintrag, aber das Spiel braucht einen 2. Eintrag (Kartenstapel)"
    said_clearly(err.value)


def test_records_malformed_document_a_negative_seed_is_a_bad_record_naming_seed():
    """records.md: a malformed document is refused naming the field.  `"seed": -5` escaped
    replay() as BadOption (not the BadRecord it documents) without the field's name."""
    with pytest.raises(BadRecord) as err:
        replay({"game": "wasserloch", "seed": -5})
    assert str(err.value).startswith("seed: ")
    assert err.value.reason.render("de").startswith("seed: Startwert -5 ist negativ")


@pytest.mark.parametrize("players", [10**30, 1, 0, -1])
def test_records_malformed_document_players_out_of_range_names_players_not_options(players):
    """A top-level `"players": 10**30` was blamed on `options`, a field the record does not
    hold (`options: option players: … is above the maximum 6`)."""
    with pytest.raises(BadRecord) as err:
        replay({"game": "wildwasser", "players": players, "seed": 1})
    assert str(err.value).startswith(f"players: option players: {players} is "), str(err.value)
    with pytest.raises(BadRecord, match="^options: "):
        replay({"game": "wildwasser", "options": {"players": players}, "seed": 1})


@pytest.mark.parametrize(("text", "en", "de"), [
    ("", "expecting a value at line 1 column 1", "in Zeile 1, Spalte 1 (hier fehlt ein Wert)"),
    ('{"game": "watt', "a string that is never closed, starting at line 1 column 10",
     "in Zeile 1, Spalte 10 (hier beginnt eine Zeichenkette, die nie geschlossen wird)"),
    ('{"game" "watten"}', "expecting ':' after a field name at line 1", "nach dem Feldnamen fehlt „:“"),
    ('{"game": "watten" "seed": 1}', "expecting ',' or a closing bracket", "hier fehlt „,“ oder eine schließende"),
    ("{'game': 1}", "expecting a field name in double quotes", "hier fehlt ein Feldname in doppelten"),
    ('{"game": "a\x01"}', "a control character inside a string", "ein Steuerzeichen in einer Zeichenkette"),
    ('{"game": "\\q"}', "an invalid backslash escape", "eine ungültige Escape-Sequenz mit Backslash"),
    ('{"game": "\\u12"}', "an invalid \\uXXXX escape", "eine ungültige \\uXXXX-Escape-Sequenz"),
    ('{"seed": 1} {}', "more text after the end of the document", "nach dem Ende des Dokuments folgt noch Text"),
], ids=["empty", "unterminated", "colon", "comma", "name", "control", "escape", "u_escape", "extra"])
def test_records_malformed_document_bad_json_is_said_in_the_readers_language(tmp_path, text, en, de):
    """records.md: bad JSON is refused with a message that says what is wrong.  The json
    module's English words were passed on into the German message (`kein gültiges JSON …
    (Expecting value)`), and the English read `Unterminated string starting at at line 1`."""
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BadRecord) as err:
        read_record(path)
    assert str(err.value).startswith(f"{path}: not valid JSON (") and en in str(err.value), str(err.value)
    assert " at at " not in str(err.value)
    assert de in err.value.reason.render("de"), err.value.reason.render("de")
    said_clearly(err.value)


def test_records_a_byte_order_mark_before_the_record_is_skipped(tmp_path):
    """A record saved by an editor that writes a UTF-8 byte order mark (Windows Notepad) was
    refused as `not valid JSON (Unexpected UTF-8 BOM (decode using utf-8-sig) …)`, English
    in every language; RFC 8259 lets a parser skip it, and the game is the record's."""
    doc = base_record(6, False)
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(doc).encode())
    assert replay(read_record(path)).record() == doc


@pytest.mark.parametrize(("where", "field"), [
    (lambda doc: doc.__setitem__("game", "watten" * 50_000), "game"),
    (lambda doc: doc["options"].__setitem__("t" * 100_000, 1), "options." + "t" * 30 + "…"),
    (lambda doc: doc["setup"]["deals"][1].__setitem__(0, "JC" * 50_000), "setup.deals[1][0]"),
], ids=["game", "option_name", "card"])
def test_records_malformed_document_a_text_longer_than_any_record_holds_is_refused_in_one_short_line(where, field):
    """records.md: a malformed document is refused with a message that says which field is
    wrong.  A 100,000-character game name, option name or card was quoted whole: one "line"
    of 100,000 characters."""
    doc = base_record(SETUPS.index(("watten", {"target": 3})), False)
    where(doc)
    with pytest.raises(BadRecord) as err:
        replay(doc)
    for lang in ("en", "de"):
        text = err.value.reason.render(lang)
        assert text.startswith(f"{field}: ") and len(text) < 250, text[:300]
    assert err.value.reason.code == "record.overlong_text"
    said_clearly(err.value)


def test_records_replaying_an_action_longer_than_any_game_has_is_refused_at_its_index_shortened():
    """records.md, Replaying: an unparsable action stops the replay naming its index.  A
    100,000-character action was quoted whole three times over (the action, then the game's
    reason twice): a message of 300,000 characters."""
    doc = base_record(SETUPS.index(("watten", {"target": 3})), False)
    doc["actions"][7] = "x" * 100_000
    doc["actions"][9] = "y" * 100_000  # the first is the one named
    with pytest.raises(ReplayError) as err:
        replay(doc)
    exc = err.value
    assert (exc.index, exc.action, exc.reason.code) == (7, "x" * 30 + "…", "record.action_too_long")
    assert str(exc) == f'action 7 "{"x" * 30}…" by seat {exc.seat}: longer than any action of any game ' \
                       "(100000 characters, at most 200)"
    assert exc.render("de").endswith(": länger als jeder Zug eines Spiels (100000 Zeichen, höchstens 200)")
    said_clearly(exc)


@pytest.mark.parametrize("fmt", ["\ud800", "wasserspiele-record/1\udfff"])
def test_records_malformed_document_a_format_with_a_lone_surrogate_is_named_in_the_readers_language(fmt):
    """`"format": "\\ud800"` (a lone surrogate escape in the file) was refused in pydantic's
    English in every language: `format: Input should be a valid string, unable to parse raw
    data as a unicode string` — a text, and said to be none."""
    with pytest.raises(BadRecord) as err:
        replay({"game": "watten", "seed": 1, "format": fmt})
    assert err.value.reason.code == "schema.not_literal"
    assert str(err.value) == f"format: '{fmt}' is not one of wasserspiele-record/1"
    assert err.value.reason.render("de") == f"format: „{fmt}“ ist keiner der Werte wasserspiele-record/1"
    said_clearly(err.value)


@pytest.mark.parametrize("key", ["\ud800", "seed\udfff"])
def test_records_malformed_document_a_field_name_with_a_lone_surrogate_is_an_unknown_field_named(key):
    """A field `"\\ud800": 1` was refused as `document: Input should be a valid string, unable
    to parse raw data as a unicode string`, pydantic's English about no field at all."""
    with pytest.raises(BadRecord) as err:
        replay({"game": "watten", "seed": 1, key: 1})
    assert err.value.reason.code == "schema.unknown_field"
    assert str(err.value) == f"{key}: unknown field"
    assert err.value.reason.render("de") == f"{key}: unbekanntes Feld"
    said_clearly(err.value)
