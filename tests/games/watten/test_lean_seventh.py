"""The seventh lean pass over the Watten engine (issue 17): what it keeps in leaner form
still says what the position says.

* `signal_log` holds one entry per hand whose signals are all sent instead of one per
  signal; a sampled world re-draws the hidden signals (WA-5) exactly as it did from the
  per-signal entries (history, log, the current hand's signals and the signal checks),
  also while a hand is signalling.
* A finished trick keeps its own list of cards in `tricks`: it never changes again.
* Raising (WA-6) is offered by the state class of a game with raising.
"""

from __future__ import annotations

import random

import pytest

from wasserspiele import load
from wasserspiele.games.watten import view as watten_view
from wasserspiele.games.watten.actions import RAISE_ACTION, SIGNAL, SIGNALS
from wasserspiele.games.watten.rules import REASON_CAUGHT, RaisingWattenState, WattenState
from wasserspiele.games.watten.state import EV_SIGNAL, PLAY_PHASE
from wasserspiele.games.watten.view import signal_visible

SIGNAL_OPTIONS = [{"signal_detection_p": 0.3}, {"signals": "public", "signal_detection_p": 0.5, "raising": True},
                  {"signal_detection_p": 0.0}]


def _reference_resample(state, w, seat, rng, signals) -> None:
    """What sample_world did with one entry per signal, (history index, sender, hand,
    event number, revealed), as the engine kept them before this pass."""
    mode = state.game.signal_mode
    if mode == "off" or not signals:
        return
    new_log_level = {}
    sent = 0
    history = w.history
    for idx, sender, hand_no, ev_no, revealed in signals:
        level = history[idx][1].arg
        if not revealed and not signal_visible(mode, seat, sender):
            level = rng.randrange(4)
            history[idx] = (sender, SIGNALS[level], history[idx][2])
            new_log_level[ev_no] = level
            if hand_no == state.hand_no:
                w.signals[sender] = level
        if level:
            sent += 1
    if new_log_level:
        cut = w.log_cut
        w.log = [(k, s, new_log_level.get(cut + n, a) if k == EV_SIGNAL else a, m)
                 for n, (k, s, a, m) in enumerate(w.log, 1)]
    if state.game.detection_p > 0:
        w.chance.streams["signal_checks"] = [None] * sent
        w.chance._read["signal_checks"] = sent


@pytest.mark.parametrize("options", SIGNAL_OPTIONS)
def test_wa_5_sampled_worlds_redraw_hidden_signals_as_from_one_entry_per_signal(options):
    game = load("watten", **options)
    caught = compared = 0
    for seed in range(6):
        state = game.new_game(seed=seed)
        rng = random.Random(100 + seed)
        signals = []  # one entry per signal, as the engine kept them before
        while not state.is_terminal():
            seat = state.current_seat
            if rng.random() < 0.3:  # also while a hand is signalling, the first hand too
                for viewer in range(4):
                    w1, w2 = state.clone(), state.clone()
                    watten_view._resample_signals(state, w1, viewer, random.Random(seed * 7 + viewer))
                    _reference_resample(state, w2, viewer, random.Random(seed * 7 + viewer), signals)
                    assert w1.history == w2.history and w1.log == w2.log and w1.signals == w2.signals
                    assert w1.chance.setup.get("signal_checks") == w2.chance.setup.get("signal_checks")
                    compared += 1
            action = rng.choice(state.legal_actions(seat))
            before = (len(state.history), seat, state.hand_no, state.log_cut + len(state.log) + 1)
            results = len(state.results)
            state.apply_legal(action, seat)
            if action.kind == SIGNAL:
                revealed = len(state.results) > results and state.results[-1][5] == REASON_CAUGHT
                caught += revealed
                signals.append((*before, revealed))
        # every signal is found from the per-hand entries, with its log event where kept
        found = []
        for first, n, hand_no, first_ev, seen in state.signal_log:
            assert n == 4 or seen == first + n - 1  # fewer only when caught (WA-5.1)
            for idx in range(first, first + n):
                assert state.history[idx][1].kind == SIGNAL
                found.append((idx, first_ev + idx - first, idx == seen))
        assert found == [(s[0], s[3], s[4]) for s in signals]
        for idx, ev_no, _ in found:
            if ev_no > state.log_cut:
                kind, sender, level, _ = state.log[ev_no - state.log_cut - 1]
                assert (kind, sender, level) == (EV_SIGNAL, state.history[idx][0], state.history[idx][1].arg)
    assert compared > 20
    if options["signal_detection_p"] > 0:
        assert caught > 0  # a hand that ended on a caught signal was among them


def test_wa_3_finished_tricks_never_change_and_clones_keep_their_own():
    game = load("watten")
    state = game.new_game(seed=3)
    rng = random.Random(3)
    made = []
    while not state.is_terminal():
        if len(state.tricks) > len(made) or len(state.tricks) < len(made):
            made = [(t[0], tuple(t[1]), t[2]) for t in state.tricks]
        assert [(t[0], tuple(t[1]), t[2]) for t in state.tricks] == made
        copy = state.clone()
        seat = state.current_seat
        action = rng.choice(state.legal_actions(seat))
        state.apply_legal(action, seat)
        if copy.current_seat == seat:  # the same action in the clone leaves the original as it is
            snapshot = [(t[0], tuple(t[1]), t[2]) for t in state.tricks]
            copy.apply_legal(action, seat)
            assert [(t[0], tuple(t[1]), t[2]) for t in state.tricks] == snapshot


@pytest.mark.parametrize("options", [{}, {"raising": True}, {"raising": True, "signals": "off", "target": 5}])
def test_wa_6_raise_is_offered_exactly_when_the_seat_may_raise(options):
    game = load("watten", **options)
    expected = RaisingWattenState if options.get("raising") else WattenState
    offered = 0
    for seed in range(6):
        state = game.new_game(seed=seed)
        assert type(state) is expected
        rng = random.Random(seed)
        while not state.is_terminal():
            assert type(state.clone()) is expected
            seat = state.current_seat
            legal = state.legal_actions(seat)
            may = state.phase == PLAY_PHASE and state._raise_problem(seat) is None
            assert (RAISE_ACTION in legal) == may
            assert list(state.offered) == list(legal)
            offered += may
            state.apply_legal(rng.choice(legal), seat)
    assert (offered > 0) == bool(options.get("raising"))
