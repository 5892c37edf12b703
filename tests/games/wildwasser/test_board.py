"""The board as data: board.json loads, matches the spec's design, and broken copies are
refused with an error naming the field."""

from __future__ import annotations

import json

import pytest

from wasserspiele.games.wildwasser.board import (BOARD_FILE, CARDS, DIE, MARKER, PUSH, SPECIES, Board,
                                                 BoardError, load_board, parse_board)

DATA = json.loads(BOARD_FILE.read_text(encoding="utf-8"))


def broken(edit) -> str:
    """The board data with one edit applied, as the message its validation raises."""
    data = json.loads(json.dumps(DATA))
    edit(data)
    with pytest.raises(BoardError) as err:
        Board(data, "board.json")
    return str(err.value)


def test_board_json_matches_the_spec_design():
    b = load_board()
    assert b.fields == 37 and b.slots == 5 and b.columns == 3
    assert [b.crossing_first[k] for k in range(5)] == [4, 11, 18, 25, 32]
    # left->right crossings count columns from the left bank, right->left from the right
    assert b.crossing_fields[0] == (4, 5, 6) and b.crossing_fields[1] == (13, 12, 11)
    assert b.crossing_fields[4] == (32, 33, 34)
    fixed = {f: b.bank_icon[f] for f in range(1, 38) if b.bank_icon[f]}
    assert fixed == {2: 1, 8: 2, 10: DIE, 15: MARKER, 16: 1, 22: CARDS, 23: 2, 29: PUSH, 30: 1, 36: 2}
    assert len(b.tile_ids) == 25 and b.tile_ids[b.start_tile] == "T00"
    assert b.tile_icons[b.tile_index["T16"]] == (0, 0, 3, 0)
    assert b.tile_icons[b.tile_index["T24"]] == (0, 0, 0, PUSH)
    assert dict(zip(SPECIES, b.speed)) == {"cheetah": 5, "zebra": 4, "rhino": 3, "meerkat": 2, "turtle": 1}
    assert b.podium[SPECIES.index("turtle")] == (10, 6, 3)
    assert b.points(SPECIES.index("turtle"), 4) == 0
    assert b.die_faces == ("1", "2", "3", "4", "5", "sun")
    assert {p: b.removed_for(p) for p in range(2, 7)} == {2: 8, 3: 6, 4: 4, 5: 2, 6: 0}
    assert b.flows == {"forward": (0, 1, 2, 3, 4), "back": (4, 3, 2, 1, 0)}


def test_board_unknown_tile_icon_names_the_field():
    msg = broken(lambda d: d["tiles"]["T13"].update(icon="jump"))
    assert msg.startswith("board.json: tiles.T13.icon: unknown icon 'jump'")


def test_board_tile_column_out_of_range():
    assert "tiles.T09.column" in broken(lambda d: d["tiles"]["T09"].update(column=4))
    assert "tiles.T01.column" in broken(lambda d: d["tiles"]["T01"].update(column=2))


@pytest.mark.parametrize(("edit", "field"), [
    (lambda d: d.update(fields="37"), "fields"),
    (lambda d: d.pop("crossings"), "crossings: missing"),
    (lambda d: d.update(extra=1), "extra: unknown field"),
    (lambda d: d["bank_icons"].update({"5": "+1"}), "bank_icons.5: is a river crossing"),
    (lambda d: d["bank_icons"].update({"40": "+1"}), "bank_icons.40"),
    (lambda d: d["bank_icons"].update({"7": "rocket"}), "bank_icons.7: unknown icon 'rocket'"),
    (lambda d: d["crossings"][1].update(fields=[11, 14]), "crossings[1].fields"),
    (lambda d: d["crossings"][1].update(fields=[5, 7]), "crossings[1].fields: overlaps"),
    (lambda d: d["crossings"][2].update(direction="up"), "crossings[2].direction"),
    (lambda d: d["river_flow"].update(back=[5, 4, 3, 2, 2]), "river_flow.back"),
    (lambda d: d["species"].pop("zebra"), "species.zebra: missing"),
    (lambda d: d["species"].update(lion={"speed": 6, "podium": [1]}), "species.lion: unknown species"),
    (lambda d: d["species"]["rhino"].update(speed=5), "species: every species needs its own speed"),
    (lambda d: d["species"]["turtle"].update(podium=[10, -6, 3]), "species.turtle.podium[1]"),
    (lambda d: d["die"].__setitem__(2, "7"), "die[2]: unknown face '7'"),
    (lambda d: d.update(start_tile="T99"), "start_tile: 'T99'"),
    (lambda d: d["removed_tiles"].update({"2": 30}), "removed_tiles.2"),
])
def test_board_broken_copies_are_refused_naming_the_field(edit, field):
    msg = broken(edit)
    assert msg.startswith("board.json: ")
    assert field in msg


def test_board_not_json_or_missing_file(tmp_path):
    with pytest.raises(BoardError, match="board.json: not valid JSON"):
        parse_board("{", "board.json")
    with pytest.raises(BoardError, match="cannot read"):
        load_board(tmp_path / "board.json")
    good = tmp_path / "board.json"
    good.write_text(json.dumps(DATA))
    assert load_board(good).fields == 37


def test_board_missing_player_count_is_reported():
    data = json.loads(json.dumps(DATA))
    del data["removed_tiles"]["6"]
    with pytest.raises(BoardError, match="removed_tiles.6"):
        Board(data).removed_for(6)
