"""The Wildwasser board as data: load `board.json`, validate it, precompute lookup tables.

The track, crossings, river slots, log tiles, podium points and die faces are the
project's own design (shared/spec/wildwasser.md); they live in `board.json` so a
corrected board is a data change.  A broken file is refused at start with an error
naming the field: `board.json: tiles.T13.icon: unknown icon 'jump'`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...core.chance import Uniform
from ...core.errors import WasserspieleError

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
_TOP_FIELDS = ("about", "fields", "columns", "species", "die", "bank_icons", "crossings",
               "river_flow", "start_tile", "tiles", "removed_tiles")


class BoardError(WasserspieleError, ValueError):
    """A board file that does not describe a playable board; the message names the field."""


def _int(value: Any, where: str, lo: int, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BoardError(f"{where}: {value!r} is not an integer")
    if value < lo or (hi is not None and value > hi):
        rng = f"{lo}..{hi}" if hi is not None else f"at least {lo}"
        raise BoardError(f"{where}: {value} is out of range ({rng})")
    return value


def _obj(value: Any, where: str) -> dict:
    if not isinstance(value, dict):
        raise BoardError(f"{where}: must be an object")
    return value


def _list(value: Any, where: str) -> list:
    if not isinstance(value, list):
        raise BoardError(f"{where}: must be a list")
    return value


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

        try:
            data = _obj(data, "board")
            for key in data:
                if key not in _TOP_FIELDS:
                    fail(key, f"unknown field (fields: {', '.join(_TOP_FIELDS)})")
            for key in _TOP_FIELDS[1:]:
                if key not in data:
                    fail(key, "missing")
            self.fields: int = _int(data["fields"], p + "fields", 1)
            columns = _int(data["columns"], p + "columns", 1)
            self.columns = columns

            # species: speed and podium points
            species = _obj(data["species"], p + "species")
            for name in species:
                if name not in SPECIES_INDEX:
                    fail(f"species.{name}", f"unknown species (species: {', '.join(SPECIES)})")
            self.speed: list[int] = []
            self.podium: list[tuple[int, ...]] = []
            for name in SPECIES:
                if name not in species:
                    fail(f"species.{name}", "missing")
                entry = _obj(species[name], f"{p}species.{name}")
                for key in entry:
                    if key not in ("speed", "podium"):
                        fail(f"species.{name}.{key}", "unknown field (fields: speed, podium)")
                if "speed" not in entry or "podium" not in entry:
                    fail(f"species.{name}", "needs speed and podium")
                self.speed.append(_int(entry["speed"], f"{p}species.{name}.speed", 1, self.fields))
                points = _list(entry["podium"], f"{p}species.{name}.podium")
                if not points:
                    fail(f"species.{name}.podium", "must list the points of at least one place")
                self.podium.append(tuple(_int(v, f"{p}species.{name}.podium[{i}]", 0)
                                         for i, v in enumerate(points)))
            if len(set(self.speed)) != len(SPECIES):
                fail("species", "every species needs its own speed (the die names an animal by its speed)")

            # die faces: a species' speed (as text) or the sun
            faces = _list(data["die"], p + "die")
            if not faces:
                fail("die", "needs at least one face")
            by_speed = {str(s): i for i, s in enumerate(self.speed)}
            self.die_faces: tuple[str, ...] = tuple(faces)
            self.die = Uniform(self.die_faces, "die roll")  # WW-3.2: one roll of this die
            self.face_species: dict[str, int] = {}
            for i, face in enumerate(faces):
                if face == SUN:
                    self.face_species[face] = -1
                elif isinstance(face, str) and face in by_speed:
                    self.face_species[face] = by_speed[face]
                else:
                    fail(f"die[{i}]", f"unknown face {face!r} (a species speed {', '.join(sorted(by_speed))} or 'sun')")
            if len(set(faces)) != len(faces):
                fail("die", "faces repeat")

            # crossings: consecutive fields, one per tile column
            crossings = _list(data["crossings"], p + "crossings")
            if not crossings:
                fail("crossings", "the river needs at least one crossing")
            self.slots = len(crossings)
            self.field_crossing: list[int] = [-1] * (self.fields + 2)
            self.field_column: list[int] = [0] * (self.fields + 2)
            self.crossing_fields: list[tuple[int, ...]] = []  # [k][column-1] -> field
            self.crossing_first: list[int] = []
            self.crossing_direction: list[str] = []
            last = 0
            for k, c in enumerate(crossings):
                w = f"{p}crossings[{k}]"
                c = _obj(c, w)
                for key in c:
                    if key not in ("fields", "direction"):
                        fail(f"crossings[{k}].{key}", "unknown field (fields: fields, direction)")
                span = _list(c.get("fields"), w + ".fields")
                if len(span) != 2:
                    fail(f"crossings[{k}].fields", "must be [first, last]")
                first = _int(span[0], w + ".fields[0]", 1, self.fields)
                end = _int(span[1], w + ".fields[1]", 1, self.fields)
                if end - first + 1 != columns:
                    fail(f"crossings[{k}].fields", f"spans {end - first + 1} fields but a tile has {columns} columns")
                if first <= last:
                    fail(f"crossings[{k}].fields", "overlaps or precedes the crossing before it")
                if first == 1 or end == self.fields:
                    fail(f"crossings[{k}].fields", "a crossing needs bank fields before and after it")
                last = end
                direction = c.get("direction")
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
            for key, icon in _obj(data["bank_icons"], p + "bank_icons").items():
                if not (isinstance(key, str) and key.isdigit() and 1 <= int(key) <= self.fields):
                    fail(f"bank_icons.{key}", f"not a field number 1..{self.fields}")
                if self.field_crossing[int(key)] >= 0:
                    fail(f"bank_icons.{key}", "is a river crossing (its icons come from the tile there)")
                if icon not in ICON_CODE:
                    fail(f"bank_icons.{key}", f"unknown icon {icon!r} (icons: {', '.join(ICONS)})")
                self.bank_icon[int(key)] = ICON_CODE[icon]

            # river flow: which slot each crossing uses
            self.flows: dict[str, tuple[int, ...]] = {}
            for name, slots in _obj(data["river_flow"], p + "river_flow").items():
                slots = _list(slots, f"{p}river_flow.{name}")
                if sorted(slots) != list(range(1, self.slots + 1)) or not all(type(s) is int for s in slots):
                    fail(f"river_flow.{name}", f"must give each of the {self.slots} crossings its own slot 1..{self.slots}")
                self.flows[name] = tuple(s - 1 for s in slots)
            for name in ("forward", "back"):
                if name not in self.flows:
                    fail(f"river_flow.{name}", "missing")

            # tiles: the start tile and the regular ones, each with at most one icon
            tiles = _obj(data["tiles"], p + "tiles")
            self.tile_ids: tuple[str, ...] = tuple(sorted(tiles))
            self.tile_index: dict[str, int] = {t: i for i, t in enumerate(self.tile_ids)}
            self.tile_icons: list[tuple[int, ...]] = []  # [tile][column] -> icon (index 0 unused)
            for tid in self.tile_ids:
                w = f"tiles.{tid}"
                entry = _obj(tiles[tid], p + w)
                for key in entry:
                    if key not in ("icon", "column"):
                        fail(f"{w}.{key}", "unknown field (fields: icon, column)")
                icon, col = entry.get("icon"), entry.get("column")
                row = [NO_ICON] * (columns + 1)
                if icon is None:
                    if col is not None:
                        fail(f"{w}.column", "a tile without an icon has column null")
                else:
                    if icon not in ICON_CODE:
                        fail(f"{w}.icon", f"unknown icon {icon!r} (icons: {', '.join(ICONS)})")
                    row[_int(col, f"{p}{w}.column", 1, columns)] = ICON_CODE[icon]
                self.tile_icons.append(tuple(row))
            start = data["start_tile"]
            if start not in self.tile_index:
                fail("start_tile", f"{start!r} is not one of the tiles")
            self.start_tile: int = self.tile_index[start]
            self.regular_ids: tuple[str, ...] = tuple(t for t in self.tile_ids if t != start)

            # tiles removed unseen by player count
            self.removed: dict[int, int] = {}
            for key, n in _obj(data["removed_tiles"], p + "removed_tiles").items():
                if not (isinstance(key, str) and key.isdigit()):
                    fail(f"removed_tiles.{key}", "not a player count")
                n = _int(n, f"{p}removed_tiles.{key}", 0)
                if n + self.slots - 1 > len(self.regular_ids):
                    fail(f"removed_tiles.{key}", f"removing {n} leaves too few tiles to fill the river")
                self.removed[int(key)] = n
        except BoardError:
            raise
        except (TypeError, AttributeError, KeyError) as exc:  # a shape the checks above did not foresee
            raise BoardError(f"{p}malformed ({exc})") from None

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
