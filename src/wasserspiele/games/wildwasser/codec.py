"""Wildwasser: 29 actions (pick/move/sun per animal, move, action, action/marker per seat) and the view."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ...adapters.codecs.base import NotationCodec, Vec, index_of, sparse, _seat
from .board import SPECIES as BOARD_SPECIES, ICON_NAME
from .state import CHOOSE, MARKER_CHOICE, N_SPECIES, OVER, SUN_CHOICE, TEAM_CARD

SPECIES = ("cheetah", "zebra", "rhino", "meerkat", "turtle")
SPECIES_AT = index_of(SPECIES)
ICONS = (None, "+1", "+2", "+3", "die", "marker", "cards", "push")
PHASES = ("pick", "resolve", "sun", "marker", "over")
WHERE = ("team card", "track", "podium")
MAX_SEATS = 6
COLUMNS = 3
ICON_AT = index_of(ICONS)
PHASE_AT = index_of(PHASES)
WHERE_AT = index_of(WHERE)
MAYBE_SPECIES = index_of([None, *SPECIES])
RESOLVING = (CHOOSE, SUN_CHOICE, MARKER_CHOICE)
BITS = tuple(tuple(sp for sp in range(N_SPECIES) if m >> sp & 1) for m in range(1 << N_SPECIES))  # mask -> species
# the direct encoder writes the engine's species and icon codes as one-hot positions
if BOARD_SPECIES != SPECIES or ICON_NAME != ICONS:
    raise ImportError("wildwasser codec: its species or icons no longer match board.py's order")


class WildwasserCodec(NotationCodec):
    def _action_names(self) -> list[str]:
        return ([f"pick {a}" for a in SPECIES] + ["move"] + [f"move {a}" for a in SPECIES] + ["action"]
                + [f"action {s}" for s in range(MAX_SEATS)] + [f"sun {a}" for a in SPECIES]
                + [f"marker {s}" for s in range(MAX_SEATS)])

    def __init__(self, game):
        self.fields = game.new_game(seed=0).view(0)["fields"]
        p = game.players
        self.seats = index_of(range(p))
        self.maybe_seat = index_of([None, *range(p)])
        self.owners = index_of([(s, a) for s in range(p) for a in SPECIES])
        super().__init__(game)

    def _fill(self, view: Mapping[str, Any], vec: Vec) -> None:
        p = view["players"]
        seats, maybe_seat, owners = self.seats, self.maybe_seat, self.owners
        vec.multihot("seat", _seat(view), seats, f"the observing seat (one-hot over {p} seats; all 0 for a spectator)",
                     most=1)
        vec.onehot("phase", view["phase"], PHASE_AT, "phase: " + ", ".join(PHASES))
        vec.multihot("to_move", view["to_move"], seats, "seats whose decision is pending", most=1)
        # no rule ends the rounds (two seats can go on taking the meerkat's action): every round
        # takes a pick from each seat, so the length bound the environments cut at bounds them
        rounds = self.game.manifest.limits.game_length(self.game.options) // p + 1
        vec.scalar("round", view["round"], 30, "round number / 30", span=(0, rounds))
        vec.onehot("start_marker", view["start_marker"], seats, "seat holding the start marker")
        vec.scalars("order", [view["order"].index(s) for s in range(p)], max(1, p - 1),
                    "each seat's position in this round's resolving order / (players - 1)", span=(0, max(1, p - 1)))
        vec.onehot("resolving", view["resolving"], maybe_seat, "seat resolving its card: none, then seats")
        vec.onehot("card", view["card"], MAYBE_SPECIES, "card being resolved: none, then animals")
        track = view["track"]
        if len(track) != self.fields:
            raise ValueError(f"wildwasser: the track has {len(track)} fields, the codec expects {self.fields}")
        if vec.segments is None:  # the fast path: the same values without naming segments
            data = vec.data
            n_icons, n_owners = len(ICON_AT), len(owners)
            for cell in track:
                block = [0.0] * (n_icons + n_owners + 1)
                block[ICON_AT[cell["icon"]]] = 1.0
                animal = cell["animal"]
                if animal:
                    block[n_icons + owners[animal[0], animal[1]]] = 1.0
                if "crossing" in cell and not cell["passable"]:
                    block[-1] = 1.0
                data += block
        else:
            for cell in track:
                f = cell["field"]
                vec.onehot(f"field{f}_icon", cell["icon"], ICON_AT,
                           "icon on the field: none, +1, +2, +3, die, marker, cards, push")
                animal = cell["animal"]
                vec.multihot(f"field{f}_animal", [tuple(animal)] if animal else [], owners,
                             "animal on the field, one-hot over (seat, species) seat-major", most=1)
                vec.flag(f"field{f}_blocked", "crossing" in cell and not cell["passable"],
                         "1 on a river crossing with no tile (impassable)")
        for slot in view["river"]:
            icons = slot["icons"] or [None] * COLUMNS
            for c in range(COLUMNS):
                vec.onehot(f"slot{slot['slot']}_col{c + 1}_icon", icons[c], ICON_AT,
                           f"icon on column {c + 1} of the tile in this river slot")
            vec.flag(f"slot{slot['slot']}_empty", slot["tile"] is None, "1 if the slot holds no tile")
        tiles = len(self.game.board.tile_ids)
        vec.scalar("stack", view["stack"], 25, "tiles left in the stack / 25", span=(0, tiles))
        vec.scalar("removed", view["removed"], 25, "tiles removed from the game / 25", span=(0, tiles))
        vec.scalar("discard", len(view["discard"]), 25, "tiles on the discard pile / 25", span=(0, tiles))
        vec.flag("last_round", view["last_round"], "1 in the last round")
        most_points = sum(max(points) for points in self.game.board.podium)  # every animal first (WW-5.3)
        for s in view["seats"]:
            k = s["seat"]
            vec.flag(f"seat{k}_hand_known", s["hand"] is not None, "1 when this seat's hand is visible")
            vec.multihot(f"seat{k}_hand", s["hand"] or [], SPECIES_AT, "cards in hand (if visible)", most=1)
            vec.multihot(f"seat{k}_unrevealed", s["unrevealed"], SPECIES_AT, "cards not yet revealed", most=1)
            vec.multihot(f"seat{k}_revealed", s["revealed"], SPECIES_AT, "cards revealed this cycle", most=1)
            vec.flag(f"seat{k}_picked", s["picked"], "1 once this seat has picked this round")
            vec.onehot(f"seat{k}_pick", s["pick"], MAYBE_SPECIES,
                       "the seat's own pick (only ever set for the observing seat)")
            for a in SPECIES:
                where = s["animals"][a]
                vec.onehot(f"seat{k}_{a}_at", where["at"], WHERE_AT, "team card, track, podium")
                vec.scalar(f"seat{k}_{a}_field", where["field"], self.fields, "field / number of fields",
                           span=(0, self.fields))
                vec.scalar(f"seat{k}_{a}_place", where["place"], p, "podium place / players", span=(0, p))
            vec.scalar(f"seat{k}_finished", s["finished"], 5, "animals finished / 5", span=(0, len(SPECIES)))
            vec.scalar(f"seat{k}_points", s["points"], 30, "points / 30", span=(0, most_points))
        vec.flag("over", view["phase"] == "over", "1 once the game is over")

    # -- the environments' path: straight from the state ----------------------------

    def _offsets(self, game: Any) -> None:
        """Where the direct encoder writes: segment starts (from the recorded layout) and
        the track's fixed part (bank icons) and field positions."""
        at = {name: start for name, start, _size, _meaning in self.layout}
        self._at = at
        track = at["card"] + len(MAYBE_SPECIES)
        cell = len(ICON_AT) + len(self.owners) + 1
        self._river = track + self.fields * cell
        self._slot = COLUMNS * len(ICON_AT) + 1
        self._seat_parts = [tuple(at[f"seat{k}_{part}"] for part in (
            "hand_known", "hand", "unrevealed", "revealed", "picked", "pick", "finished", "points"))
            for k in range(self.players)]
        self._animals = [tuple(at[f"seat{k}_{name}_{part}"] for part in ("at", "field", "place"))
                         for k in range(self.players) for name in SPECIES]
        self._banks: list[int] = []  # the bank fields' icons never change
        self._crossings: list[tuple[int, int, int]] = []  # (cell start, river slot, column)
        self._animal_at = [0] * (self.fields + 2)  # field -> where its animal's one-hot starts
        for j, (f, k, slot, col, bank) in enumerate(game.field_table):
            base = track + j * cell
            if k < 0:
                self._banks.append(base + bank)
            else:
                self._crossings.append((base, slot, col))
            self._animal_at[f] = base + len(ICON_AT)
        self._blocked = cell - 1

    def observe_state(self, state: Any, seat: int) -> np.ndarray:
        """`observe(state.view(seat))` read from the state: the same vector without
        building the view (the track alone is a dict per field there)."""
        return self.observe_states(state, (seat,))[0]

    def observe_states(self, state: Any, seats) -> list[np.ndarray]:
        """What every seat sees is encoded once; each seat adds its seat, its own pick
        and the hands a face-down pick hides from it."""
        if not hasattr(self, "_at"):
            self._offsets(state.game)
        at, p, n = self._at, state.players, N_SPECIES
        phase = state.phase
        ones = [at["phase"] + phase, at["start_marker"] + state.marker]
        ones += [at["to_move"] + s for s in state.waiting]
        idx = [at["round"]]
        vals = [state.round / 30]
        order = state.order
        start, denom = at["order"], max(1, p - 1)
        for s in range(p):
            idx.append(start + s)
            vals.append(order.index(s) / denom)
        resolving = phase in RESOLVING
        ones.append(at["resolving"] + (1 + order[state.turn] if resolving else 0))
        ones.append(at["card"] + (1 + state.card if resolving else 0))
        # the track: per field an icon one-hot, the animal's (seat, species) and the blocked flag
        ones += self._banks
        slots, icons, blocked = state.slots, state.board.tile_icons, self._blocked
        for base, slot, col in self._crossings:
            t = slots[slot]
            if t >= 0:
                ones.append(base + icons[t][col])
            else:
                ones.append(base)  # no icon
                ones.append(base + blocked)  # a crossing without a tile: impassable
        n_icons = len(ICON_AT)
        base = self._river
        for t in slots:
            if t >= 0:
                tile = icons[t]
                for c in range(COLUMNS):
                    ones.append(base + c * n_icons + tile[c + 1])
            else:
                ones += [base, base + n_icons, base + 2 * n_icons, base + self._slot - 1]
            base += self._slot
        idx += [at["stack"], at["removed"], at["discard"]]
        vals += [len(state.stack) / 25, len(state.removed) / 25, len(state.discard) / 25]
        if state.last_round:
            ones.append(at["last_round"])
        bits, parts = BITS, self._seat_parts
        points = state.points()
        picking = []  # seats with a face-down pick: what each seat sees of them differs
        for s in range(p):
            hand_known, hand_at, unrevealed_at, revealed_at, picked, pick_at, finished, points_at = parts[s]
            hand, pick = state.hand[s], state.pick[s]
            if pick >= 0:
                ones.append(picked)
                picking.append(s)
                ones += [unrevealed_at + sp for sp in bits[hand | 1 << pick]]
            else:
                ones += (pick_at, hand_known)
                ones += [hand_at + sp for sp in bits[hand]]
                ones += [unrevealed_at + sp for sp in bits[hand]]
            ones += [revealed_at + sp for sp in bits[state.revealed[s]]]
            idx += (finished, points_at)
            vals += (state.done[s] / 5, points[s] / 30)
        # every animal: where it is (team card, track, podium), its field or its place,
        # and on the track its (seat, species) one-hot in its field's cell
        animal_at, fields, finish, place = self._animal_at, self.fields, state.finish, state.place
        for a, (where, field, podium) in zip(range(p * n), self._animals):
            x = state.pos[a]
            if x == TEAM_CARD:
                ones.append(where)
            elif x == finish:
                ones.append(where + 2)
                idx.append(podium)
                vals.append(place[a] / p)
            else:
                ones += (where + 1, animal_at[x] + a)
                idx.append(field)
                vals.append(x / fields)
        if phase == OVER:
            ones.append(at["over"])
        public, out = sparse(self.obs_size, ones, idx, vals), []
        for seat in seats:
            own = [at["seat"] + seat]
            for s in picking:
                hand_known, hand_at, _u, _r, _p, pick_at, _f, _pts = parts[s]
                if s == seat:  # its own pick, and so its hand
                    own += (pick_at + 1 + state.pick[s], hand_known)
                    own += [hand_at + sp for sp in bits[state.hand[s]]]
                else:
                    own.append(pick_at)
            vector = public if len(seats) == 1 else public.copy()
            vector.put(own, 1.0)
            out.append(vector)
        return out
