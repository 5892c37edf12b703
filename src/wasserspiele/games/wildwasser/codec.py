"""Wildwasser: 29 actions (pick/move/sun per animal, move, action, action/marker per seat) and the view."""

from __future__ import annotations

from typing import Any, Mapping

from ...adapters.codecs.base import NotationCodec, Vec, index_of, _seat

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
        vec.multihot("seat", _seat(view), seats, f"the observing seat (one-hot over {p} seats; all 0 for a spectator)")
        vec.onehot("phase", view["phase"], PHASE_AT, "phase: " + ", ".join(PHASES))
        vec.multihot("to_move", view["to_move"], seats, "seats whose decision is pending")
        vec.scalar("round", view["round"], 30, "round number / 30")
        vec.onehot("start_marker", view["start_marker"], seats, "seat holding the start marker")
        vec.scalars("order", [view["order"].index(s) for s in range(p)], max(1, p - 1),
                    "each seat's position in this round's resolving order / (players - 1)")
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
                             "animal on the field, one-hot over (seat, species) seat-major")
                vec.flag(f"field{f}_blocked", "crossing" in cell and not cell["passable"],
                         "1 on a river crossing with no tile (impassable)")
        for slot in view["river"]:
            icons = slot["icons"] or [None] * COLUMNS
            for c in range(COLUMNS):
                vec.onehot(f"slot{slot['slot']}_col{c + 1}_icon", icons[c], ICON_AT,
                           f"icon on column {c + 1} of the tile in this river slot")
            vec.flag(f"slot{slot['slot']}_empty", slot["tile"] is None, "1 if the slot holds no tile")
        vec.scalar("stack", view["stack"], 25, "tiles left in the stack / 25")
        vec.scalar("removed", view["removed"], 25, "tiles removed from the game / 25")
        vec.scalar("discard", len(view["discard"]), 25, "tiles on the discard pile / 25")
        vec.flag("last_round", view["last_round"], "1 in the last round")
        for s in view["seats"]:
            k = s["seat"]
            vec.flag(f"seat{k}_hand_known", s["hand"] is not None, "1 when this seat's hand is visible")
            vec.multihot(f"seat{k}_hand", s["hand"] or [], SPECIES_AT, "cards in hand (if visible)")
            vec.multihot(f"seat{k}_unrevealed", s["unrevealed"], SPECIES_AT, "cards not yet revealed")
            vec.multihot(f"seat{k}_revealed", s["revealed"], SPECIES_AT, "cards revealed this cycle")
            vec.flag(f"seat{k}_picked", s["picked"], "1 once this seat has picked this round")
            vec.onehot(f"seat{k}_pick", s["pick"], MAYBE_SPECIES,
                       "the seat's own pick (only ever set for the observing seat)")
            for a in SPECIES:
                where = s["animals"][a]
                vec.onehot(f"seat{k}_{a}_at", where["at"], WHERE_AT, "team card, track, podium")
                vec.scalar(f"seat{k}_{a}_field", where["field"], self.fields, "field / number of fields")
                vec.scalar(f"seat{k}_{a}_place", where["place"], p, "podium place / players")
            vec.scalar(f"seat{k}_finished", s["finished"], 5, "animals finished / 5")
            vec.scalar(f"seat{k}_points", s["points"], 30, "points / 30")
        vec.flag("over", view["phase"] == "over", "1 once the game is over")
