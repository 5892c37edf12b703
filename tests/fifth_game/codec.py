"""Pebbles: 9 actions (`play 1` … `play 9`) and the view as a vector."""

from __future__ import annotations

from typing import Any, Mapping

from wasserspiele.adapters.codecs.base import NotationCodec, Vec, _seat, index_of

from .manifest import PEBBLES

MAX_SEATS = 3
SEATS = index_of(range(MAX_SEATS))
MOVER_AT = index_of([*range(MAX_SEATS), None])
PEBBLE_AT = index_of(range(1, PEBBLES + 1))


class PebblesCodec(NotationCodec):
    def _action_names(self) -> list[str]:
        return [f"play {n}" for n in range(1, PEBBLES + 1)]

    def _fill(self, view: Mapping[str, Any], vec: Vec) -> None:
        pad = lambda xs: list(xs) + [0] * (MAX_SEATS - len(xs))  # noqa: E731
        vec.multihot("seat", _seat(view), SEATS, "the observing seat (all 0 for a spectator)")
        vec.onehot("to_move", view["to_move"][0] if view["to_move"] else None, MOVER_AT,
                   "seat to move; last position: nobody (game over)")
        vec.scalar("round", view["round"] - 1, view["rounds"], "rounds played / rounds")
        vec.multihot("hand", view["hand"] or [], PEBBLE_AT, "own pebbles 1…9")
        vec.onehot("prize", view["prize"], {**PEBBLE_AT, None: PEBBLES}, "the prize face up; last: none")
        vec.multihot("placed", [n for n in view["placed"] if n is not None], PEBBLE_AT, "pebbles placed this round")
        vec.multihot("discards", view["discards"], PEBBLE_AT, "pebbles discarded")
        vec.scalars("scores", pad(view["scores"]), 40, "score of seats 0…2 / 40")
        vec.flag("over", view["over"], "1 once the game is over")
