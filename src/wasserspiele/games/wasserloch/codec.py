"""Wasserloch: 64 actions (`A x1` … `8 x8`) and the view as a vector."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ...adapters.codecs.base import NotationCodec, Vec, index_of, _seat
from ...fast import COMPILED
from .kernel import TACTICS_AT, encode_tactics
from .rules import DRIVE_THRESHOLD as THRESHOLD, EIGHT, drive_targets, unseen as unseen_cards

VALUES = "A2345678"
MAX_SEATS = 4
SEATS = index_of(range(MAX_SEATS))
PLAYERS_AT = index_of(range(2, MAX_SEATS + 1))
MOVER_AT = index_of([0, 1, 2, 3, None])
# observe_state's divisors: 1 for the view's values (scaled already), then the scales of
# `tactics`' blocks as `_fill` writes them (prize, need, unseen, gain, exposure)
SCALE = np.array([1] * TACTICS_AT + [8] * 8 + [3] * 8 + [8] * 8 + [8] * 128, dtype=np.float32)


def tactics(hole: list[int], hand: list[int] | None, gone: list[int], adjacent: bool) -> list[list[int]]:
    """What the rules make of the waterhole, as counts the network need not work out:
    a small net over the raw counts missed the drive-off chains (WL-4.2, WL-4.3, WL-4.5),
    and these inputs raised its agreement with the search (docs/learned.md).

    [prize, need, unseen, gain, exposure]: per value v, the herd a drive by v takes now,
    the cards of v a drive takes (at least 1: a place already at 3+ drives again) and the
    cards of v this seat cannot see; per action index (`value * 8 + count - 1`, 0 for a
    play the seat cannot make), the herd the play drives off and, after it, the largest
    herd some value could drive off that has as many unseen cards as its drive takes
    (what an opponent may take next).  A spectator (no hand) sees no plays."""
    targets = drive_targets(hole, adjacent)
    prize = [hole[t] if t >= 0 else 0 for t in targets]
    need = [max(1, THRESHOLD - n) for n in hole]
    own = hand or [0] * 8
    unseen = unseen_cards(hole, gone, own)
    gain = [0] * 64
    exposure = [0] * 64
    for v in range(8):
        for n in range(1, own[v] + 1):
            after = hole.copy()
            after[v] += n
            if after[v] >= THRESHOLD and targets[v] >= 0:  # a play changes no place below it
                gain[v * 8 + n - 1] = prize[v]
                after[targets[v]] = 0
            # the largest herd a value w drives off next: `drive_targets` of `after`, inlined
            # (without numba a third of an observation: 37 µs through drive_targets, 23
            # inlined), counting the w an opponent may hold enough of: a drive takes
            # 3 - after[w] cards, at least 1 (WL-4.5)
            worst = after[EIGHT] if unseen[0] and after[0] + unseen[0] >= THRESHOLD else 0
            lower = 0
            for w in range(1, 8):
                if adjacent or after[w - 1]:
                    lower = after[w - 1]
                if lower > worst and unseen[w] and after[w] + unseen[w] >= THRESHOLD:
                    worst = lower
            exposure[v * 8 + n - 1] = worst
    return [prize, need, unseen, gain, exposure]


class WasserlochCodec(NotationCodec):
    def _action_names(self) -> list[str]:
        # index = value * 8 + (count - 1): value A=0 … 8=7
        return [f"{v}x{n}" for v in VALUES for n in range(1, 9)]

    def _fill(self, view: Mapping[str, Any], vec: Vec) -> None:
        seats = SEATS
        vec.multihot("seat", _seat(view), seats, "the observing seat (one-hot over 4 seats; all 0 for a spectator)",
                     most=1)
        vec.onehot("players", view["players"], PLAYERS_AT, "number of players: 2, 3, 4")
        vec.onehot("to_move", view["to_move"][0] if view["to_move"] else None,
                   MOVER_AT, "seat to move; last position: nobody (game over)")
        vec.scalar("round", view["round"] - 1, max(1, view["rounds"]), "rounds played / rounds",
                   span=(0, view["rounds"]))
        vec.onehot("start_player", view["start_player"], seats, "start player of this round")
        vec.scalars("waterhole", view["waterhole"], 8, "cards of each value A…8 at the waterhole / 8", span=(0, 8))
        hand = view["hand"] or [0] * 8
        vec.scalars("hand", hand, 5, "own cards of each value A…8 / 5", span=(0, 5))
        sizes = list(view["hand_sizes"]) + [0] * (MAX_SEATS - len(view["hand_sizes"]))
        vec.scalars("hand_sizes", sizes, 5, "hand size of seats 0…3 / 5 (0 for absent seats)", span=(0, 5))
        vec.scalar("pile", view["pile"], 64, "cards left in the draw pile / 64", span=(0, 64))
        vec.scalars("gone", view["gone"], 8, "cards of each value driven off (gone) this round / 8", span=(0, 8))
        loot = view["loot"][-1] if view["loot"] else []
        loot = list(loot) + [0] * (MAX_SEATS - len(loot))
        # a looted card is one point (WL-5.3): at most the 64 cards a round
        vec.scalars("loot", loot, 30, "this round's loot of seats 0…3 / 30", span=(0, 64))
        scores = list(view["scores"]) + [0] * (MAX_SEATS - len(view["scores"]))
        vec.scalars("scores", scores, 100, "match score of seats 0…3 / 100", span=(0, 64 * view["rounds"]))
        vec.flag("chase_adjacent", view["chase"] == "adjacent", "1 with the `chase=adjacent` option")
        vec.flag("over", view["over"], "1 once the match is over")
        prize, need, unseen, gain, exposure = tactics(view["waterhole"], view["hand"], view["gone"],
                                                      view["chase"] == "adjacent")
        vec.scalars("drive_prize", prize, 8, "per value A…8: the herd a drive by it takes now / 8", span=(0, 8))
        vec.scalars("drive_need", need, 3, "per value A…8: cards of it a drive takes (1…3) / 3", span=(0, 3))
        vec.scalars("unseen", unseen, 8, "per value A…8: cards of it the seat cannot see / 8", span=(0, 8))
        vec.scalars("play_gain", gain, 8, "per action: the herd it drives off / 8 (0: not playable)", span=(0, 8))
        vec.scalars("play_exposure", exposure, 8, "per action: the largest herd a value with enough "
                    "unseen cards could drive off after it / 8", span=(0, 8))

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
        data += [x / 5 for x in state.hand(seat)]
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
        if COMPILED:  # the kernel's encoder (the VectorEnv's) writes the tactics in a third of the time
            out = np.zeros(len(SCALE), dtype=np.float32)  # the kernel writes only the playable actions
            out[:TACTICS_AT] = data
            encode_tactics(out, TACTICS_AT, np.array(state.hole), np.array(state.hand(seat)),
                           np.array(state.gone), state.chase_adjacent)
            return out
        prize, need, unseen, gain, exposure = tactics(state.hole, state.hand(seat), state.gone,
                                                      state.chase_adjacent)
        return np.array(data + prize + need + unseen + gain + exposure, dtype=np.float32) / SCALE
