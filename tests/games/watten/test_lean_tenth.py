"""Tenth pass (docs/performance.md): the public log is trimmed only as a hand is dealt,
no longer as a trick ends.  Views read the tail `state.log_window` names, so the kept log
must still hold that tail, be the newest events in order, and stay bounded."""

from __future__ import annotations

import random

import pytest

from wasserspiele import load
from wasserspiele.games.watten.state import EV_DEAL, LOG_MAX, log_window

OPTION_SETS = [
    {},
    {"raising": True, "target": 7},
    {"signal_detection_p": 0.3, "signals": "public"},  # caught hands end early (WA-5.1)
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=["defaults", "raising", "caught"])
def test_wa_1_4_the_log_is_trimmed_only_as_a_hand_is_dealt_and_keeps_what_views_show(options):
    game = load("watten", **options)
    rng = random.Random(7)
    for seed in range(6):
        state = game.new_game(seed=seed)
        events = list(state.log)  # every event of the game, none trimmed
        assert state.log_cut == 0
        step = 0
        while not state.is_terminal():
            seat = state.current_seat
            cut, hand_no = state.log_cut, state.hand_no
            action = rng.choice(state.legal_actions(seat))
            if step % 2:
                state.apply(action, seat)
            else:
                state.apply_legal(action, seat)
            step += 1
            total = state.log_cut + len(state.log)
            new = total - len(events)
            assert 0 < new <= len(state.log)
            events.extend(state.log[len(state.log) - new:])
            # the kept log is exactly the newest events, in order
            assert state.log == events[state.log_cut:]
            # ... and holds at least the tail the views show
            assert len(state.log) >= log_window(total)
            if state.log_cut != cut:  # trimmed: only as a new hand was dealt (WA-1.2, WA-1.4)
                assert state.hand_no == hand_no + 1
            if state.hand_no != hand_no:  # a hand dealt: its deal is the newest event, and the
                # log was cut back to at most LOG_MAX then (bounded: that and one hand's events)
                assert state.log[-1][0] == EV_DEAL and len(state.log) <= LOG_MAX
