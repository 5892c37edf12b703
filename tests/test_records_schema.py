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
