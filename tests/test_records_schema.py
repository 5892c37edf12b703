"""Records are validated by a schema (core/schema.py): every malformed field is named."""

from __future__ import annotations

import pytest

from wasserspiele.core.errors import BadRecord
from wasserspiele.core.records import parse_record


@pytest.mark.parametrize(("doc", "message"), [
    ([], "record: must be a JSON object"),
    ({"seed": 1}, "game: missing"),
    ({"game": 7, "seed": 1}, "game: must be a string"),
    ({"game": "watten", "seed": True}, "seed: must be an integer"),
    ({"game": "watten", "seed": "1"}, "seed: must be an integer"),
    ({"game": "wasserloch", "players": True, "seed": 1}, "players: must be an integer"),
    ({"game": "watten", "seed": 1, "actions": ["take", 3]}, "actions[1]: must be a string"),
    ({"game": "watten", "seed": 1, "options": []}, "options: must be an object"),
    ({"game": "watten", "setup": [], "actions": []}, "setup: must be an object"),
    ({"game": "watten", "seed": 1, "format": "other/2"}, "format: 'other/2' is not one of"),
    ({"game": "watten", "seed": 1, "moves": []}, "moves: unknown field"),
    # null players was blamed on the options; a second players in the options was ignored
    ({"game": "wasserloch", "players": None, "seed": 1}, "players: must be the number of players, not null"),
    ({"game": "wasserloch", "players": 3, "options": {"players": 2}, "seed": 1},
     "options.players: 2 disagrees with players: 3"),
    ({"game": "watten", "seed": 1, "options": {"target": True}}, "options: option target: true is not an integer"),
])
def test_malformed_records_name_the_field(doc, message):
    with pytest.raises(BadRecord) as err:
        parse_record(doc)
    assert str(err.value).startswith(message)


def test_a_null_setup_beside_a_seed_deals_the_seed():
    """`"setup": null, "seed": 3` passed the check (null counts as not given) but replay saw the
    key and dealt an unseeded game: two replays of one record disagreed."""
    from wasserspiele.core.records import replay

    doc = {"game": "wasserloch", "setup": None, "seed": 3, "actions": []}
    first, second, seeded = replay(doc), replay(doc), replay({"game": "wasserloch", "seed": 3})
    assert first.record()["setup"] == second.record()["setup"] == seeded.record()["setup"]
    _, parsed = parse_record({"game": "watten", "seed": None, "setup": {"deals": []}})
    assert "setup" in parsed and "seed" not in parsed


# -- reading what a record may hold (shared/spec/records.md) --------------------------
import copy
import random

from wasserspiele import load
from wasserspiele.core.errors import ReplayError
from wasserspiele.core.records import read_record, replay


def _finished_record(name: str, seed: int = 5, **options) -> dict:
    """The record of a seeded game played to its end by random moves (picks in any order)."""
    state = load(name, **options).new_game(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = rng.choice(state.to_move())
        state.apply(rng.choice(list(state.legal_actions(seat))), seat)
    return state.record()


def _respelled(doc: dict, where: list, canonical: str, spelling: str) -> dict:
    out = copy.deepcopy(doc)
    stream = out["setup"]
    for key in where:
        stream = stream[key]
    stream[stream.index(canonical)] = spelling
    return out


@pytest.mark.parametrize(("canonical", "spelling"), [("TH", "10H"), ("TH", "10h"), ("KD", "kd"), ("X1", "x1"),
                                                     ("7S", " 7s ")])
@pytest.mark.parametrize("resume", [False, True], ids=["replay", "resume"])
def test_records_notation_conventions_sw_3_4_a_deck_card_spelled_10h_or_lower_case_replays_and_is_written_back_canonical(
        canonical, spelling, resume):
    """records.md, notation conventions: `10` is accepted for `T` and input is case-insensitive,
    output canonical.  validate_setup accepted `10H`, `kd`, `x1`, but the deal drew the deck by
    its canonical names and crashed in `list.remove` (a traceback, exit 1), in replay and in
    `play --resume` alike."""
    doc = _finished_record("seven_waters")
    given = _respelled(doc, ["deck"], canonical, spelling)
    rng = random.Random(1) if resume else None
    state = replay(given, rng=rng)
    assert state.is_terminal()
    assert state.state_json() == replay(doc).state_json()
    assert state.record() == doc  # the setup written back names the card canonically


@pytest.mark.parametrize("spelling", ["10h", "10H", "th", " Th "])
def test_records_notation_conventions_wa_1_2_a_deal_card_spelled_10h_is_written_back_as_th(spelling):
    """records.md: output is always the canonical form.  A Watten deal holding `10h` replayed,
    but the record written back kept `10h` (the setup's strings were copied as given)."""
    doc = _finished_record("watten")
    given = _respelled(doc, ["deals", 0], "TH", spelling)
    state = replay(given)
    assert state.state_json() == replay(doc).state_json()
    assert state.record() == doc
    assert given["setup"]["deals"][0] != doc["setup"]["deals"][0]  # the caller's document is left as it was


@pytest.mark.parametrize(("name", "path", "value", "field"), [
    ("wasserloch", ["decks", 0, 0], [1], "setup.decks[0][0]: [1] is not a card value (A 2 3 4 5 6 7 8)"),
    ("wasserloch", ["decks", 0, 5], {"x": 1}, 'setup.decks[0][5]: {"x": 1} is not a card value'),
    ("wasserloch", ["decks", 0, 0], 7, "setup.decks[0][0]: 7 is not a card value"),
    ("wildwasser", ["dice", 0], [3], "setup.dice[0]: [3] is not a die face ('1', '2', '3', '4', '5', and 'sun')"),
    ("wildwasser", ["dice", 1], {"x": 1}, 'setup.dice[1]: {"x": 1} is not a die face'),
    ("wildwasser", ["dice", 0], None, "setup.dice[0]: null is not a die face"),
    ("wildwasser", ["dice", 0], True, "setup.dice[0]: true is not a die face"),
    ("wildwasser", ["tiles", 0], [1], "setup.tiles[0]:"),
    ("watten", ["deals", 0, 0], [1], "setup.deals[0][0]:"),
    ("watten", ["deals", 0], {"x": 1}, "setup.deals[0]:"),
    ("seven_waters", ["deck", 0], [1], "setup.deck[0]: [1] is not a card name (like 'TH' or 'X1')"),
    ("seven_waters", ["deck", 3], {"x": 1}, 'setup.deck[3]: {"x": 1} is not a card name'),
])
def test_records_malformed_document_a_setup_entry_of_the_wrong_json_type_is_refused_naming_the_field(
        name, path, value, field):
    """records.md: a malformed document (wrong types) is refused naming the field.  A list or
    an object in a Wasserloch deck or among Wildwasser's dice was looked up in a dict and
    raised TypeError (unhashable type), a traceback with exit 1; the value is shown as JSON
    writes it (`null`, not Python's `None`)."""
    doc = copy.deepcopy(_finished_record(name))
    where = doc["setup"]
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = value
    with pytest.raises(BadRecord) as err:
        replay(doc)
    assert str(err.value).startswith(field), str(err.value)


@pytest.mark.parametrize(("content", "code"), [
    (b'{"game": "wasserloch", "seed": 1, "session": {"note": "caf\xe9"}}', "record.not_utf8"),
    (b'{"game": "wasserloch", "seed": 1' + b"0" * 5000 + b"}", "record.number_too_long"),
    (b'{"game": "wasserloch", "seed": 1, "session": {"x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}",
     "record.too_deep"),
], ids=["latin1", "big_int", "deep"])
def test_records_malformed_document_a_file_that_cannot_be_read_is_bad_record_with_its_own_code(
        tmp_path, content, code):
    """records.md: a file that cannot be read or is not JSON is refused (exit 2).  A Latin-1
    byte (UnicodeDecodeError), an integer beyond Python's 4,300 digits (ValueError) and very
    deep nesting (RecursionError) escaped read_record as tracebacks."""
    path = tmp_path / "record.json"
    path.write_bytes(content)
    with pytest.raises(BadRecord) as err:
        read_record(path)
    reason = err.value.reason
    assert reason.code == code
    assert str(path) in reason.params.values()
    if code == "record.not_utf8":
        assert reason.params["byte"] == "0xe9" and reason.params["position"] == content.index(b"\xe9")


@pytest.mark.parametrize("prefix", ["\u00b2", "\u0661", "-1", "+1", "-0", "\u0661\u0662", "9" * 5000],
                         ids=["superscript", "arabic_indic", "minus", "plus", "minus_0", "two_arabic_indic", "5000_digits"])
def test_records_simultaneous_decisions_a_seat_prefix_not_in_ascii_digits_is_a_notation_error_naming_it(prefix):
    """records.md, simultaneous decisions: a prefix is the seat number.  `²:` crashed in
    int() (a traceback), Arabic-Indic `١:` was read as seat 1, and `-1:` was blamed on seat 0
    as a notation error of the whole text; a prefix of 5,000 ASCII digits crashed in int()
    too.  Each is refused at its index, naming the prefix and no seat."""
    doc = _finished_record("wildwasser")
    doc["actions"][0] = f"{prefix}: pick cheetah"
    with pytest.raises(ReplayError) as err:
        replay(doc)
    exc = err.value
    assert (exc.index, exc.seat) == (0, None)
    assert exc.reason.code == "record.seat_prefix" and exc.reason.params == {"prefix": prefix}


def test_records_simultaneous_decisions_an_ascii_seat_prefix_still_names_its_seat():
    doc = _finished_record("wildwasser")
    picks = [a for a in doc["actions"][:4]]
    assert any(":" in a for a in picks)  # random order: the writer prefixed picks
    assert replay(doc).record() == doc
    spaced = copy.deepcopy(doc)
    spaced["actions"] = [a.replace(": ", " :  ") for a in doc["actions"]]
    assert replay(spaced).record() == doc


def test_records_malformed_document_a_null_rules_version_is_named_as_json_spells_it():
    """The refusal said `rules_version: None is not supported` (Python's spelling)."""
    with pytest.raises(BadRecord, match=r"^rules_version: null is not supported \(this is '1'\)$"):
        parse_record({"game": "watten", "seed": 1, "rules_version": None})


def test_a_text_with_a_lone_surrogate_is_named_in_the_readers_language_by_every_schema():
    """pydantic reads `"\\ud800"` (a lone surrogate escape in a JSON body or file) as no text at
    all and said so in its own English ("Input should be a valid string, unable to parse raw
    data as a unicode string") inside German messages; every schema now says it from the
    catalogue (the web's bodies too, not only records)."""
    from wasserspiele.core.schema import validate
    from wasserspiele.web import schemas

    class Refused(Exception):
        pass

    with pytest.raises(Refused) as err:
        validate(schemas.MoveBody, {"action": "\ud800", "n": 1}, Refused)
    reason = err.value.args[0]
    assert reason.code == "schema.not_unicode"
    assert reason.render("de") == ("action: ein Text, der kein gültiges Unicode ist (er enthält ein einzelnes "
                                   "Surrogat wie \\ud800)")
    assert reason.render("en").startswith("action: a text that is not valid Unicode")
