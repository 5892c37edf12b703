"""The lab plays studies of random bots in the compiled Wasserloch kernel (lab/kernels.py),
and those are the very games the engine path plays: the same rows, measures included."""

from __future__ import annotations

import dataclasses

import pytest

from wasserspiele.fast import COMPILED
from wasserspiele.lab import make_study, run_study
from wasserspiele.lab.kernels import kernel_note, kernel_reason, play_in_kernel

STUDIES = [
    dict(players=["2", "3", "4"], options=["rounds=1"], games=30),
    dict(compare=["chase=nearest,adjacent"], games=25, seating="duplicate"),
    dict(players=["4"], options=["first_player=3", "chase=adjacent"], games=25),
]


@pytest.mark.parametrize("settings", STUDIES)
def test_wl_5_kernel_games_are_the_engine_games_with_equal_scores_plays_and_measures(settings):
    """play_in_kernel (compiled or its pure-Python fallback) against Series.play with the
    lab's Watch: every field of every game equal."""
    study = make_study("wasserloch", bots=["random"], seed=11, **settings)
    for cond in range(len(study.conditions)):
        series = study.series(cond)
        game = series.load()
        fast = play_in_kernel(series, game, range(study.games))
        slow = [series.play(i, game=game) for i in range(study.games)]
        assert fast == slow
        assert any(p.measures["_lead_changes"] for p in fast) and any(p.measures["ace_eights"] for p in fast)


@pytest.mark.skipif(not COMPILED, reason="the lab uses the kernel only when numba is installed")
@pytest.mark.parametrize("settings", STUDIES[:2])
def test_a_random_bot_study_through_the_kernel_equals_the_engine_study_row_for_row(settings):
    study = make_study("wasserloch", bots=["random"], seed=3, **settings)
    assert kernel_reason(study, study.conditions[0].load("wasserloch")) is None
    engine = dataclasses.replace(study, kernels=False)
    assert run_study(study, jobs=1).rows == run_study(engine, jobs=1).rows
    assert "compiled wasserloch kernel" in kernel_note(study)
    assert "switched off" in kernel_note(engine)


def test_studies_the_kernel_does_not_cover_play_through_the_engine_and_say_why():
    mixed = make_study("wasserloch", bots=["heuristic random"], options=["rounds=1"], games=4)
    game = mixed.conditions[0].load("wasserloch")
    reason = kernel_reason(mixed, game)
    assert reason is not None and ("`heuristic`" in reason or "numba" in reason)
    assert kernel_note(mixed).startswith("Played through the Python engine")
    assert kernel_reason(make_study("watten", bots=["random"], games=2),
                         make_study("watten", bots=["random"], games=2).conditions[0].load("watten"))
    assert kernel_note(make_study("watten", bots=["random"], games=2)) is None


@pytest.mark.parametrize("installed", [True, False])
def test_a_study_says_whether_numba_is_missing_or_its_compilation_switched_off(monkeypatch, installed):
    # with numba installed and NUMBA_DISABLE_JIT=1 the report said "numba is not installed"
    import wasserspiele.fast as fast
    monkeypatch.setattr(fast, "COMPILED", False)
    monkeypatch.setattr(fast, "numba", object() if installed else None)
    study = make_study("wasserloch", bots=["random"], games=2)
    reason = kernel_reason(study, study.conditions[0].load("wasserloch"))
    assert reason == ("numba's compilation is switched off (NUMBA_DISABLE_JIT)" if installed
                      else "numba is not installed (the optional extra `fast`)")
