"""Seeds, seatings and backends: the same study always gives the same results table."""

import pytest

from wasserspiele import game_names, load

from wasserspiele.core.errors import BadOption, UnknownGame
from wasserspiele.core.protocol import Game
from wasserspiele.lab import make_study, run_study
from wasserspiele.core.chance import derive_seed


def _table(result):
    return [(r["cond"], r["game"], r["seed"], r["bots"], r["scores"], r["winners"], r["actions"], r["measures"])
            for r in result.rows]


def test_same_seed_same_results_table(small_study, small_result):
    again = run_study(small_study, jobs=1)
    assert _table(again) == _table(small_result)
    other = run_study(make_study("wasserloch", players=["2"], bots=["heuristic random"], options=["rounds=1"],
                                 compare=["chase=nearest,adjacent"], games=12, seed=6), jobs=1)
    assert [r["seed"] for r in other.rows] != [r["seed"] for r in small_result.rows]
    assert _table(other) != _table(small_result)


def test_results_do_not_depend_on_jobs(small_study, small_result):
    parallel = run_study(small_study, jobs=2)
    assert parallel.backend == "process" and not parallel.interrupted
    assert _table(parallel) == _table(small_result)


def test_every_game_seed_is_derived_from_the_master_seed_and_shared_by_the_variants(small_result):
    rows = small_result.rows
    assert len(rows) == 24
    for r in rows:
        assert r["seed"] == derive_seed(5, "game", r["game"])
    by_cond = {}
    for r in rows:
        by_cond.setdefault(r["cond"], []).append(r["seed"])
    assert by_cond[0] == by_cond[1]  # common random numbers across chase=nearest / adjacent


def test_bots_rotate_over_the_seats(small_result):
    seats = {}
    for r in small_result.rows:
        for s, b in enumerate(r["bots"]):
            seats[(b, s)] = seats.get((b, s), 0) + 1
    assert seats == {("heuristic", 0): 12, ("heuristic", 1): 12, ("random", 0): 12, ("random", 1): 12}


def test_more_bots_than_seats_cycle_through_every_seating():
    study = make_study("wasserloch", players=["2"], bots=["random", "heuristic", "heuristic:keep_pairs=0"],
                       games=6, seed=1)
    game = study.series(0).load()
    seatings = {study.seating.lineup(game, 3, i, study.seed) for i in range(6)}
    assert len(seatings) == 6 and all(len(set(s)) == 2 for s in seatings)


@pytest.mark.parametrize("kwargs, words", [
    (dict(options=["rounds=0"]), ["rounds"]),
    (dict(options=["round=2"]), ["round"]),
    (dict(compare=["chase=nearest,sideways"]), ["chase", "sideways"]),
    (dict(compare=["chase=nearest"]), ["chase", "two values"]),
    (dict(compare=["colour=red,blue"]), ["colour"]),
    (dict(players=["7"]), ["players"]),
    (dict(players=["x"]), ["--players"]),
    (dict(bots=["genius"]), ["genius"]),
    (dict(bots=["heuristic:keep_pears=0"]), ["keep_pears", "keep_pairs"]),
    (dict(bots=["heuristic:keep_pairs=lots"]), ["keep_pairs", "number"]),
    (dict(bots=["heuristic:keep_pairs"]), ["keep_pairs", "NAME=VALUE"]),
    (dict(games=0), ["--games"]),
])
def test_bad_input_fails_before_any_game_naming_the_problem(monkeypatch, kwargs, words):
    played = []
    monkeypatch.setattr(Game, "new_game", lambda self, *a, **k: played.append(1))
    with pytest.raises(BadOption) as info:
        make_study("wasserloch", **{"games": 3, **kwargs})
    for word in words:
        assert word in str(info.value)
    assert played == []


def test_unknown_game_is_refused():
    with pytest.raises(UnknownGame):
        make_study("wasserball")


@pytest.mark.parametrize("name", game_names())
def test_trait_params_are_checked_against_the_games_heuristic(name):
    from wasserspiele.bots.specs import trait_names
    names = trait_names(name)
    with pytest.raises(BadOption) as info:
        make_study(name, bots=["heuristic:aggression=1"], games=1)
    text = str(info.value)
    assert "heuristic:aggression=1" in text
    if names:
        assert "unknown trait 'aggression'" in text and all(n in text for n in names)
    else:
        assert "no switchable traits" in text


def test_interrupt_keeps_the_finished_games(small_study, small_result):
    full = {(r["cond"], r["game"]): r["scores"] for r in small_result.rows}
    for jobs in (1, 2):
        seen = []

        def progress(n):
            seen.append(n)
            if len(seen) == 2:
                raise KeyboardInterrupt

        result = run_study(small_study, jobs=jobs, progress=progress)
        assert result.interrupted
        assert 0 < len(result.rows) < small_study.total
        assert len(result.rows) >= sum(seen)  # chunks already running when Ctrl-C came are kept too
        assert all(full[(r["cond"], r["game"])] == r["scores"] for r in result.rows)


@pytest.mark.parametrize("name", ["seven_waters", "watten", "wasserloch"])
def test_a_player_count_given_twice_is_refused_for_fixed_count_games_too(name):
    # seven_waters (2 players only) and watten (4) used to drop `--players 2,2` silently and play
    # one condition, while wasserloch refused the same slip
    count = str(load(name).players)
    with pytest.raises(BadOption, match="a player count is given twice"):
        make_study(name, players=[f"{count},{count}"], games=1)
