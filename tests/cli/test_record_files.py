"""`wasserspiele replay FILE` and `play --resume FILE` on record files the audit found
giving tracebacks (shared/spec/records.md: exit 2 for a file that cannot be read or is
not JSON, exit 1 for an action that cannot be parsed where it stands)."""

from __future__ import annotations

import json

import pytest

from wasserspiele import load

from test_records_schema import _finished_record

LATIN1 = b'{"game": "wasserloch", "seed": 1, "session": {"note": "caf\xe9"}}'
BIG_INT = b'{"game": "wasserloch", "seed": 1' + b"0" * 5000 + b"}"
DEEP = b'{"game": "wasserloch", "seed": 1, "session": {"x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}"
FILES = {"latin1": LATIN1, "big_int": BIG_INT, "deep": DEEP}


@pytest.mark.parametrize("kind", FILES)
@pytest.mark.parametrize("command", [("replay", "{path}", "--json"), ("play", "--resume", "{path}")],
                         ids=["replay", "resume"])
def test_records_replaying_an_unreadable_file_exits_2_naming_it(run, tmp_path, kind, command):
    """A Latin-1 byte, a 5,000-digit integer and 100,000 nested lists gave a Python traceback
    and exit 1 (UnicodeDecodeError, ValueError, RecursionError)."""
    path = tmp_path / f"{kind}.json"
    path.write_bytes(FILES[kind])
    out = run(*(a.format(path=path) for a in command))
    assert out.exit_code == 2, out.output
    assert "Traceback" not in out.output and str(path) in out.output


@pytest.mark.parametrize(("kind", "en", "de"), [
    ("latin1", "{path}: not UTF-8 text (byte 0xe9 at position 58); save the record as UTF-8",
     "{path}: kein UTF-8-Text (Byte 0xe9 an Stelle 58); speichere das Spielprotokoll als UTF-8"),
    ("big_int", "{path}: holds a number of more than 4300 digits, too long to read",
     "{path}: enthält eine Zahl mit mehr als 4300 Ziffern, zu lang zum Lesen"),
    ("deep", "{path}: lists and objects nested too deeply to read",
     "{path}: Listen und Objekte sind zu tief verschachtelt, um sie zu lesen"),
])
def test_records_an_unreadable_file_is_said_in_english_and_in_german(run, tmp_path, kind, en, de):
    """The message codes record.not_utf8, record.number_too_long, record.too_deep have text in
    both catalogues (/tmp/audit/records/new_entries.po until the catalogues hold them)."""
    assert LATIN1.index(b"\xe9") == 58
    path = tmp_path / f"{kind}.json"
    path.write_bytes(FILES[kind])
    out = run("replay", str(path))
    assert " ".join(out.output.split()) == "Error: " + en.format(path=path), out.output
    out = run("replay", str(path), "--lang", "de")
    assert " ".join(out.output.split()) == "Fehler: " + de.format(path=path), out.output
    out = run("play", "--resume", str(path), "--lang", "de")
    assert "Fehler: " + de.format(path=path) in " ".join(out.output.split()), out.output


def test_records_a_bad_seat_prefix_is_said_in_english_and_in_german(run, tmp_path):
    doc = _finished_record("wildwasser")
    doc["actions"][0] = "\u00b2: pick cheetah"
    path = tmp_path / "prefix.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    out = run("replay", str(path), "--json")
    assert out.exit_code == 1 and out.stdout == ""
    assert " ".join(out.output.split()) == (
        "Error: action 0 \"\u00b2: pick cheetah\": '\u00b2' is not a seat: a seat prefix is the seat's number "
        "in the digits 0-9, then a colon ('2: pick zebra')"), out.output
    out = run("replay", str(path), "--lang", "de")
    assert out.exit_code == 1
    assert "„\u00b2“ ist kein Platz" in out.output, out.output


@pytest.mark.parametrize(("name", "where", "canonical", "spelling"), [
    ("seven_waters", ["deck"], "TH", "10H"), ("seven_waters", ["deck"], "KD", "kd"),
    ("watten", ["deals", 0], "TH", "10h")])
def test_records_a_card_spelled_10h_or_lower_case_replays_and_resumes(run, tmp_path, name, where, canonical,
                                                                        spelling):
    """Seven Waters' `10H` / `kd` replayed with a traceback (exit 1); `play --resume` saved a
    Watten deal's `10h` back as it was given."""
    doc = _finished_record(name)
    doc["actions"] = doc["actions"][:6]  # a save in progress, to resume
    given = json.loads(json.dumps(doc))
    stream = given["setup"]
    for key in where:
        stream = stream[key]
    stream[stream.index(canonical)] = spelling
    path = tmp_path / "game.json"
    path.write_text(json.dumps(given), encoding="utf-8")
    out = run("replay", str(path), "--json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["actions_applied"] == 6
    seats = ",".join(["random"] * load(name).players)
    out = run("play", "--resume", str(path), "--seats", seats, "--seed", "1")
    assert out.exit_code == 0, out.output
    saved = json.loads(path.read_text(encoding="utf-8"))
    stream = saved["setup"]
    for key in where:
        stream = stream[key]
    assert spelling not in stream and canonical in stream
    assert saved["setup"][where[0]][:1] == doc["setup"][where[0]][:1] if name == "watten" else \
        saved["setup"]["deck"] == doc["setup"]["deck"]


@pytest.mark.parametrize(("name", "path", "value", "field"), [
    ("wasserloch", ["decks", 0, 0], [1], "setup.decks[0][0]: [1] is not a card value"),
    ("wildwasser", ["dice", 0], [3], "setup.dice[0]: [3] is not a die face"),
    ("wildwasser", ["dice", 0], {"x": 1}, 'setup.dice[0]: {"x": 1} is not a die face'),
])
def test_records_a_setup_entry_of_the_wrong_json_type_exits_2_naming_the_field(run, tmp_path, name, path, value,
                                                                               field):
    """A list or an object in a Wasserloch deck or among Wildwasser's dice gave a TypeError
    traceback and exit 1."""
    doc = _finished_record(name)
    where = doc["setup"]
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = value
    file = tmp_path / "bad.json"
    file.write_text(json.dumps(doc), encoding="utf-8")
    out = run("replay", str(file), "--json")
    assert out.exit_code == 2 and out.output.startswith(f"Error: {field}"), out.output


def test_records_exit_status_an_illegal_action_is_1_for_replay_and_play_resume_alike(run, tmp_path):
    """records.md, Exit status: a save holding an action the rules refuse made `replay` exit
    1 but `play --resume` exit 2, the status of a refused command line or document; a script
    that tells a damaged game from a mistyped command now reads one status from both."""
    save = tmp_path / "game.json"
    played = run("play", "wasserloch", "--seed", "1", "--seats", "human,random,random", "--save", str(save),
                 input="quit\n")
    assert played.exit_code == 0, played.output
    doc = json.loads(save.read_text())
    assert doc["session"]["seats"] == ["human", "random", "random"] and doc["actions"] == []
    doc["actions"] = ["8x8"]  # seat 0 holds no 8 in this deal
    save.write_text(json.dumps(doc))
    message = 'Error: action 0 "8x8" by seat 0: no 8s in hand'
    for command in (("replay", str(save)), ("play", "--resume", str(save))):
        out = run(*command, input="quit\n")
        assert out.exit_code == 1 and out.output.strip() == message, (command, out.output)
    # a document refused as a whole stays 2 in both
    doc["actions"] = "8x8"
    save.write_text(json.dumps(doc))
    for command in (("replay", str(save)), ("play", "--resume", str(save))):
        out = run(*command, input="quit\n")
        assert out.exit_code == 2 and "actions" in out.output, (command, out.output)
