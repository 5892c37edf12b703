"""Watten: 43 actions (32 cards, 4 trumps, 4 signals, raise, accept, concede) and the view."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ...adapters.codecs.base import NotationCodec, Vec, index_of, sparse, _seat
from .actions import CARD_NAMES, SIGNAL_LEVELS, SUITS as ENGINE_SUITS
from .state import OVER, PHASE_NAMES
from .view import signal_visible

SUITS = "CSHD"
RANKS = "789TJQKA"
CARDS = tuple(r + s for s in SUITS for r in RANKS)  # card id = suit * 8 + rank, as the engine numbers them
CARD = index_of(CARDS)
SEATS = index_of(range(4))
PHASES = ("trump", "signal", "play", "answer", "over")
SIGNALS = (None, "none", "weak", "medium", "strong")
PHASE_AT = index_of(PHASES)
MAYBE_SEAT = index_of([0, 1, 2, 3, None])
TRUMP_AT = index_of([None, *SUITS])
RAISER_AT = index_of([None, 0, 1, 2, 3])
SIGNAL_AT = index_of(SIGNALS)
SUIT_AT = index_of(SUITS)
# the direct encoder writes the engine's card, suit, phase and signal codes as positions
if CARD_NAMES != CARDS or ENGINE_SUITS != SUITS or PHASE_NAMES != PHASES or (None, *SIGNAL_LEVELS) != SIGNALS:
    raise ImportError("watten codec: its cards, suits, phases or signals no longer match the engine's order")


class WattenCodec(NotationCodec):
    _at: dict[str, int] | None = None  # segment starts (the direct encoder's offsets)

    def _action_names(self) -> list[str]:
        return (list(CARDS) + [f"trump {s}" for s in SUITS]
                + [f"signal {lvl}" for lvl in ("none", "weak", "medium", "strong")]
                + ["raise", "accept", "concede"])

    def _fill(self, view: Mapping[str, Any], vec: Vec) -> None:
        target = max(1, view["target"])
        vec.multihot("seat", _seat(view), SEATS, "the observing seat; its team is seat % 2 (all 0 for a spectator)",
                     most=1)
        vec.onehot("phase", view["phase"], PHASE_AT, "phase: " + ", ".join(PHASES))
        mover = view["to_move"][0] if view["to_move"] else None
        vec.onehot("to_move", mover, MAYBE_SEAT, "seat to move; last: nobody")
        vec.onehot("dealer", view["dealer"], SEATS, "dealer of this hand")
        vec.onehot("caller", view["caller"], SEATS, "seat that names trump this hand")
        vec.onehot("leader", view["leader"], MAYBE_SEAT, "leader of the current trick")
        vec.onehot("trump", view["trump"], TRUMP_AT, "trump suit: none yet, C, S, H, D")
        vec.multihot("hand", view["hand"] or [], CARD, "own cards (32: suit-major C S H D, ranks 7…A)", most=1)
        vec.scalars("hand_sizes", view["hand_sizes"], 5, "cards in each seat's hand / 5", span=(0, 5))
        trick = {seat: c for seat, c in view["trick"]}
        for s in range(4):
            vec.multihot(f"trick_seat{s}", [trick[s]] if s in trick else [], CARD,
                         f"card seat {s} has played to the current trick", most=1)
        played = [c for t in view["tricks"] for _seat, c in t["cards"]]
        vec.multihot("played", played, CARD, "cards in completed tricks of this hand", most=1)
        vec.scalars("tricks_won", view["tricks_won"], 5, "tricks won this hand by team 0 / 1, / 5", span=(0, 5))
        # a raise is refused once score + value reaches the target (WA-6): a hand is worth at most
        # max(hand_value, target), and a score below the target grows by one hand at most
        most_value = max(self.game.options["hand_value"], target)
        vec.scalars("scores", view["scores"], target, "team scores / target", span=(0, target - 1 + most_value))
        vec.scalar("value", view["value"], target, "what this hand is worth / target", span=(0, most_value))
        r = view["raise"]
        vec.flag("raising", r["enabled"], "raising is allowed (option)")
        vec.onehot("raise_pending", r["pending"], RAISER_AT, "seat whose raise awaits an answer")
        vec.scalars("gespannt", [float(x) for x in r["gespannt"]], 1, "team 0 / 1 is one hand from winning",
                    span=(0, 1))
        vec.scalars("can_raise", [float(x) for x in r["can_raise"]], 1, "team 0 / 1 may raise now", span=(0, 1))
        for s in range(4):
            vec.onehot(f"signal_seat{s}", view["signals"][s], SIGNAL_AT,
                       f"seat {s}'s signal as far as visible: unseen/none-sent, none, weak, medium, strong")
        for s in range(4):
            vec.multihot(f"voids_seat{s}", view["voids"][s], SUIT_AT, f"suits seat {s} has shown void in", most=1)
        vec.flag("over", view["phase"] == "over", "1 once the game is over")

    # -- the environments' path: straight from the state ----------------------------

    def observe_state(self, state: Any, seat: int) -> np.ndarray:
        """`observe(state.view(seat))` read from the state: the same vector without
        building the view (its log, tricks and results as JSON)."""
        return self.observe_states(state, (seat,))[0]

    def observe_states(self, state: Any, seats) -> list[np.ndarray]:
        """What every seat sees is encoded once; each seat adds its seat, hand and the
        signals it may see (WA-5)."""
        at = self._at
        if at is None:
            at = self._at = {name: start for name, start, _size, _meaning in self.layout}
        game = state.game
        target = max(1, game.target)
        pending = state.to_move()
        leader = state.leader
        ones = [at["phase"] + state.phase, at["to_move"] + (pending[0] if pending else 4),
                at["dealer"] + state.dealer, at["caller"] + state.caller,
                at["leader"] + (leader if leader is not None and leader >= 0 else 4),
                at["trump"] + (state.trump + 1 if state.trump >= 0 else 0)]
        idx = [at["hand_sizes"] + s for s in range(4)]
        vals = [len(h) / 5 for h in state.hands]
        for i, c in enumerate(state.trick):
            ones.append(at[f"trick_seat{(leader + i) % 4}"] + c)
        start = at["played"]
        for t in state.tricks:
            ones += [start + c for c in t[1]]
        scores, value = state.team_scores, state.value
        idx += [at["tricks_won"], at["tricks_won"] + 1, at["scores"], at["scores"] + 1, at["value"]]
        vals += [state.won[0] / 5, state.won[1] / 5, scores[0] / target, scores[1] / target, value / target]
        raising = game.raising
        if raising:
            ones.append(at["raising"])
        ones.append(at["raise_pending"] + (state.raiser + 1 if state.raiser >= 0 else 0))
        over = state.winner_team >= 0
        for t in (0, 1):
            if scores[t] + value >= game.target:
                ones.append(at["gespannt"] + t)
            if raising and not over and state._raise_block(t) is None:
                ones.append(at["can_raise"] + t)
        for s, voids in enumerate(state.voids):
            start = at[f"voids_seat{s}"]
            ones += [start + suit for suit in range(4) if voids >> suit & 1]
        if state.phase == OVER:
            ones.append(at["over"])
        public = sparse(self.obs_size, ones, idx, vals)
        mode, hand_at, out = game.signal_mode, at["hand"], []
        for seat in seats:
            own = [at["seat"] + seat]
            own += [hand_at + c for c in state.hands[seat]]
            for s, level in enumerate(state.signals):
                seen = level >= 0 and signal_visible(mode, seat, s)
                own.append(at[f"signal_seat{s}"] + (level + 1 if seen else 0))
            vector = public if len(seats) == 1 else public.copy()
            vector.put(own, 1.0)
            out.append(vector)
        return out
