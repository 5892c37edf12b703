"""Wasserloch: 64 actions (`A x1` … `8 x8`) and the view as a vector."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ...adapters.codecs.base import NotationCodec, Vec, index_of, _seat

VALUES = "A2345678"
MAX_SEATS = 4
SEATS = index_of(range(MAX_SEATS))
PLAYERS_AT = index_of(range(2, MAX_SEATS + 1))
MOVER_AT = index_of([0, 1, 2, 3, None])


class WasserlochCodec(NotationCodec):
    def _action_names(self) -> list[str]:
        # index = value * 8 + (count - 1): value A=0 … 8=7
        return [f"{v}x{n}" for v in VALUES for n in range(1, 9)]

    def _fill(self, view: Mapping[str, Any], vec: Vec) -> None:
        seats = SEATS
        vec.multihot("seat", _seat(view), seats, "the observing seat (one-hot over 4 seats; all 0 for a spectator)")
        vec.onehot("players", view["players"], PLAYERS_AT, "number of players: 2, 3, 4")
        vec.onehot("to_move", view["to_move"][0] if view["to_move"] else None,
                   MOVER_AT, "seat to move; last position: nobody (game over)")
        vec.scalar("round", view["round"] - 1, max(1, view["rounds"]), "rounds played / rounds")
        vec.onehot("start_player", view["start_player"], seats, "start player of this round")
        vec.scalars("waterhole", view["waterhole"], 8, "cards of each value A…8 at the waterhole / 8")
        hand = view["hand"] or [0] * 8
        vec.scalars("hand", hand, 5, "own cards of each value A…8 / 5")
        sizes = list(view["hand_sizes"]) + [0] * (MAX_SEATS - len(view["hand_sizes"]))
        vec.scalars("hand_sizes", sizes, 5, "hand size of seats 0…3 / 5 (0 for absent seats)")
        vec.scalar("pile", view["pile"], 64, "cards left in the draw pile / 64")
        vec.scalars("gone", view["gone"], 8, "cards of each value driven off (gone) this round / 8")
        loot = view["loot"][-1] if view["loot"] else []
        loot = list(loot) + [0] * (MAX_SEATS - len(loot))
        vec.scalars("loot", loot, 30, "this round's loot of seats 0…3 / 30")
        scores = list(view["scores"]) + [0] * (MAX_SEATS - len(view["scores"]))
        vec.scalars("scores", scores, 100, "match score of seats 0…3 / 100")
        vec.flag("chase_adjacent", view["chase"] == "adjacent", "1 with the `chase=adjacent` option")
        vec.flag("over", view["over"], "1 once the match is over")


    def observe_state(self, state: Any, seat: int) -> np.ndarray:
        """`observe(state.view(seat))` read from the state: the same vector, written
        value by value in `_fill`'s order (the test compares them)."""
        players = state.players
        pad = [0.0] * (MAX_SEATS - players)
        data = [0.0] * (MAX_SEATS + 3 + 5)  # seat, players, to_move one-hots
        data[seat] = 1.0
        data[MAX_SEATS + players - 2] = 1.0
        data[MAX_SEATS + 3 + (4 if state.over else state.current)] = 1.0
        data.append(state.round / max(1, state.rounds))
        start = [0.0] * MAX_SEATS
        start[state.start_player] = 1.0
        data += start
        data += [x / 8 for x in state.hole]
        data += [x / 5 for x in state.hands[seat]]
        data += [x / 5 for x in state.hand_sizes]
        data += pad
        data.append(state.pile_size / 64)
        data += [x / 8 for x in state.gone]
        if state.loot:
            data += [x / 30 for x in state.loot[-1]]
            data += pad
        else:
            data += [0.0] * MAX_SEATS
        data += [x / 100 for x in state.totals()]
        data += pad
        data.append(1.0 if state.chase_adjacent else 0.0)
        data.append(1.0 if state.over else 0.0)
        return np.array(data, dtype=np.float32)
