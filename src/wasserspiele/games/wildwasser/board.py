"""The Wildwasser board as data: load `board.json`, validate it, precompute lookup tables.

The track, crossings, river slots, log tiles, podium points and die faces are the
project's own design (shared/spec/wildwasser.md); they live in `board.json` so a
corrected board is a data change.  A broken file is refused at start with an error
naming the field: `board.json: tiles.T13.icon: unknown icon 'jump'`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

from ...core.chance import Uniform
from ...core.errors import WasserspieleError
from ...core.schema import Schema, validate

BOARD_FILE = Path(__file__).with_name("board.json")

# Species are part of the rules (each card has its own action), so their names are
# fixed here; their speeds and podium points come from the data.  Index order is
# the spec's listing order; the tie-break (WW-5.3) runs it backwards.
SPECIES: tuple[str, ...] = ("cheetah", "zebra", "rhino", "meerkat", "turtle")
CHEETAH, ZEBRA, RHINO, MEERKAT, TURTLE = range(5)
SPECIES_INDEX = {name: i for i, name in enumerate(SPECIES)}

# Icon codes: +n is code n, so a plus icon's code is its distance.
ICONS: tuple[str, ...] = ("+1", "+2", "+3", "die", "marker", "cards", "push")
NO_ICON, PLUS1, PLUS2, PLUS3, DIE, MARKER, CARDS, PUSH = range(8)
ICON_CODE = {name: i + 1 for i, name in enumerate(ICONS)}
ICON_NAME = (None,) + ICONS
SUN = "sun"
DIRECTIONS = ("left-to-right", "right-to-left")


class BoardError(WasserspieleError, ValueError):
    """A board file that does not describe a playable board; the message names the field."""


# -- the file's shape (types, unknown and missing fields, ranges) as a schema; what
# the values mean for each other (crossings in order, one speed per species) is
# checked in Board below.
class SpeciesData(Schema):
    speed: int = Field(ge=1)
    podium: list[Annotated[int, Field(ge=0)]] = Field(min_length=1)


class CrossingData(Schema):
    fields: list[int] = Field(min_length=2, max_length=2)  # [first, last]
    direction: str


class TileData(Schema):
    icon: str | None = None
    column: int | None = None


class BoardData(Schema):
    about: str = ""
    fields: int = Field(ge=1)
    columns: int = Field(ge=1)
    species: dict[str, SpeciesData]
    die: list[str] = Field(min_length=1)
    bank_icons: dict[str, str]
    crossings: list[CrossingData] = Field(min_length=1)
    river_flow: dict[str, list[int]]
    start_tile: str
    tiles: dict[str, TileData]
    removed_tiles: dict[str, Annotated[int, Field(ge=0)]]


class Board:
    """A validated board with the lookup tables the engine reads on its hot path.

    Fields are numbered 1..fields; index 0 of per-field tables is the team card.
    Slots and crossings are 0-based internally (slot 0 is the upper end of the river,
    the last slot is at the waterfall); the data file and the player see them 1-based.
    """

    def __init__(self, data: Any, source: str = "board.json"):
        self.source = source
        p = source + ": "

        def fail(where: str, what: str):
            raise BoardError(f"{p}{where}: {what}")

        if not isinstance(data, dict):
            fail("board", "must be an object")
        d = validate(BoardData, data, BoardError, p)
        # the checks of meaning, in the order of the file
        self.fields: int = d.fields
        columns = d.columns
        self.columns = columns

        # species: speed and podium points
        for name in d.species:
            if name not in SPECIES_INDEX:
                fail(f"species.{name}", f"unknown species (species: {', '.join(SPECIES)})")
        self.speed: list[int] = []
        self.podium: list[tuple[int, ...]] = []
        for name in SPECIES:
            if name not in d.species:
                fail(f"species.{name}", "missing")
            entry = d.species[name]
            if entry.speed > self.fields:
                fail(f"species.{name}.speed", f"{entry.speed} is out of range (1..{self.fields})")
            self.speed.append(entry.speed)
            self.podium.append(tuple(entry.podium))
        if len(set(self.speed)) != len(SPECIES):
            fail("species", "every species needs its own speed (the die names an animal by its speed)")

        # die faces: a species' speed (as text) or the sun
        faces = d.die
        by_speed = {str(s): i for i, s in enumerate(self.speed)}
        self.die_faces: tuple[str, ...] = tuple(faces)
        self.die = Uniform(self.die_faces, "die roll")  # WW-3.2: one roll of this die
        self.face_species: dict[str, int] = {}
        for i, face in enumerate(faces):
            if face == SUN:
                self.face_species[face] = -1
            elif face in by_speed:
                self.face_species[face] = by_speed[face]
            else:
                fail(f"die[{i}]", f"unknown face {face!r} (a species speed {', '.join(sorted(by_speed))} or 'sun')")
        if len(set(faces)) != len(faces):
            fail("die", "faces repeat")

        # crossings: consecutive fields, one per tile column
        crossings = d.crossings
        self.slots = len(crossings)
        self.field_crossing: list[int] = [-1] * (self.fields + 2)
        self.field_column: list[int] = [0] * (self.fields + 2)
        self.crossing_fields: list[tuple[int, ...]] = []  # [k][column-1] -> field
        self.crossing_first: list[int] = []
        self.crossing_direction: list[str] = []
        last = 0
        for k, c in enumerate(crossings):
            first, end = c.fields
            for i, f in enumerate(c.fields):
                if not 1 <= f <= self.fields:
                    fail(f"crossings[{k}].fields[{i}]", f"{f} is out of range (1..{self.fields})")
            if end - first + 1 != columns:
                fail(f"crossings[{k}].fields", f"spans {end - first + 1} fields but a tile has {columns} columns")
            if first <= last:
                fail(f"crossings[{k}].fields", "overlaps or precedes the crossing before it")
            if first == 1 or end == self.fields:
                fail(f"crossings[{k}].fields", "a crossing needs bank fields before and after it")
            last = end
            direction = c.direction
            if direction not in DIRECTIONS:
                fail(f"crossings[{k}].direction", f"{direction!r} is not one of {', '.join(DIRECTIONS)}")
            fields = list(range(first, end + 1))
            if direction == "right-to-left":
                fields.reverse()
            for col, f in enumerate(fields, start=1):
                self.field_crossing[f] = k
                self.field_column[f] = col
            self.crossing_fields.append(tuple(fields))
            self.crossing_first.append(first)
            self.crossing_direction.append(direction)
        self.crossing_field_list: tuple[int, ...] = tuple(
            f for f in range(1, self.fields + 1) if self.field_crossing[f] >= 0)

        # fixed icons on bank fields
        self.bank_icon: list[int] = [NO_ICON] * (self.fields + 2)
        for key, icon in d.bank_icons.items():
            if not (isinstance(key, str) and key.isdigit() and 1 <= int(key) <= self.fields):
                fail(f"bank_icons.{key}", f"not a field number 1..{self.fields}")
            if self.field_crossing[int(key)] >= 0:
                fail(f"bank_icons.{key}", "is a river crossing (its icons come from the tile there)")
            if icon not in ICON_CODE:
                fail(f"bank_icons.{key}", f"unknown icon {icon!r} (icons: {', '.join(ICONS)})")
            self.bank_icon[int(key)] = ICON_CODE[icon]

        # river flow: which slot each crossing uses
        self.flows: dict[str, tuple[int, ...]] = {}
        for name, slots in d.river_flow.items():
            if sorted(slots) != list(range(1, self.slots + 1)):
                fail(f"river_flow.{name}", f"must give each of the {self.slots} crossings its own slot 1..{self.slots}")
            self.flows[name] = tuple(s - 1 for s in slots)
        for name in ("forward", "back"):
            if name not in self.flows:
                fail(f"river_flow.{name}", "missing")

        # tiles: the start tile and the regular ones, each with at most one icon
        tiles = d.tiles
        self.tile_ids: tuple[str, ...] = tuple(sorted(tiles))
        self.tile_index: dict[str, int] = {t: i for i, t in enumerate(self.tile_ids)}
        self.tile_icons: list[tuple[int, ...]] = []  # [tile][column] -> icon (index 0 unused)
        for tid in self.tile_ids:
            w = f"tiles.{tid}"
            icon, col = tiles[tid].icon, tiles[tid].column
            row = [NO_ICON] * (columns + 1)
            if icon is None:
                if col is not None:
                    fail(f"{w}.column", "a tile without an icon has column null")
            else:
                if icon not in ICON_CODE:
                    fail(f"{w}.icon", f"unknown icon {icon!r} (icons: {', '.join(ICONS)})")
                if col is None or not 1 <= col <= columns:
                    fail(f"{w}.column", f"{col!r} is out of range (1..{columns})")
                row[col] = ICON_CODE[icon]
            self.tile_icons.append(tuple(row))
        start = d.start_tile
        if start not in self.tile_index:
            fail("start_tile", f"{start!r} is not one of the tiles")
        self.start_tile: int = self.tile_index[start]
        self.regular_ids: tuple[str, ...] = tuple(t for t in self.tile_ids if t != start)

        # tiles removed unseen by player count
        self.removed: dict[int, int] = {}
        for key, n in d.removed_tiles.items():
            if not key.isdigit():
                fail(f"removed_tiles.{key}", "not a player count")
            if n + self.slots - 1 > len(self.regular_ids):
                fail(f"removed_tiles.{key}", f"removing {n} leaves too few tiles to fill the river")
            self.removed[int(key)] = n

    def removed_for(self, players: int) -> int:
        """How many tiles go out unseen for this player count (WW-2.1)."""
        if players not in self.removed:
            raise BoardError(f"{self.source}: removed_tiles.{players}: missing for {players} players")
        return self.removed[players]

    def points(self, species: int, place: int) -> int:
        """Podium points of a 1-based place; places beyond the listed ones score 0."""
        table = self.podium[species]
        return table[place - 1] if place <= len(table) else 0


def parse_board(text: str, source: str = "board.json") -> Board:
    """A board from JSON text (BoardError if it is not JSON or not a valid board)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BoardError(f"{source}: not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    return Board(data, source)


def load_board(path: str | Path = BOARD_FILE) -> Board:
    """Read and validate a board file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise BoardError(f"{p.name}: cannot read ({exc.strerror})") from None
    return parse_board(text, p.name)
