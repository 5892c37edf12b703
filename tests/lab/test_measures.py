"""Per-game measures against independent readings of the same games."""

import pytest

from wasserspiele.bots.base import decision_for
from wasserspiele.bots.registry import make_bot
from wasserspiele.core.registry import game_names, load
from wasserspiele.games.seven_waters.measures import SevenWatersMeasures
from wasserspiele.games.wasserloch.measures import WasserlochMeasures
from wasserspiele.games.wildwasser.measures import WildwasserMeasures
from wasserspiele.lab.measures import measures_for


def _play(game, kind, seed, measures):
    state = game.new_game(seed=seed)
    bots = [make_bot(kind, game, seed=seed * 10 + s) for s in range(game.players)]
    seen = []
    while not state.is_terminal():
        seat = state.current_seat
        action = bots[seat].choose(decision_for(state, seat))
        state.apply(action, seat)
        measures.step(state, action, seat)
        seen.append((seat, action, state.view(None)))
    return state, seen, measures.finish(state)


@pytest.mark.parametrize("seed", range(6))
def test_wasserloch_drive_offs_match_the_spectator_view(seed):
    game = load("wasserloch", players=2 + seed % 3, rounds=1 + seed % 2, chase=("nearest", "adjacent")[seed % 2])
    state, seen, m = _play(game, "heuristic", seed, WasserlochMeasures(game))
    drives = [v["last"][seat] for seat, _a, v in seen if v["last"][seat]["drove_off"] is not None]
    aces = [d for d in drives if d["drove_off"] == "8" and d["play"].startswith("A")]
    assert m["drive_offs"] == len(drives) and m["loot"] == sum(d["loot"] for d in drives)
    assert m["ace_eights"] == len(aces) and m["ace_eight_loot"] == sum(d["loot"] for d in aces)
    assert m["loot"] == sum(state.scores())  # every point is loot from a drive-off
    assert m["units"] == game.options["rounds"]


@pytest.mark.parametrize("seed", range(4))
def test_seven_waters_categories_add_up_to_the_score(seed):
    game = load("seven_waters", slide_limit=None if seed % 2 else 7)
    state, seen, m = _play(game, "heuristic", seed, SevenWatersMeasures(game))
    assert m["score_mismatch"] == 0
    assert m["slides"] == sum(1 for _s, a, _v in seen if str(a).startswith("slide"))
    total = sum(m[f"pts_{c}"] for c in ("slides", "river", "pool", "theme", "hand", "discards"))
    assert total * 2 == pytest.approx(sum(state.scores()))


def test_seven_waters_limit_is_reached_and_bites_when_built_up():
    game = load("seven_waters", slide_limit=1)
    m = None
    for seed in range(3):
        _state, _seen, m = _play(game, "heuristic", seed, SevenWatersMeasures(game))
        if m["limit_bites"]:
            break
    assert m["limit_reached"] == 1 and m["slides"] == 1 and m["limit_bites"] == 1


@pytest.mark.parametrize("seed", range(3))
def test_watten_hands_and_caller(seed):
    game = load("watten", target=5)
    state, _seen, m = _play(game, "heuristic", seed, measures_for(game))
    results = state.view(None)["results"]
    assert m["units"] == m["hands"] == len(results)
    assert m["points"] == sum(r["points"] for r in results)
    team_points = [sum(r["points"] for r in results if r["team"] == t) for t in (0, 1)]
    assert max(team_points) >= 5
    callers = [((r["dealer"] - 1) % 4) % 2 for r in results]  # WA-1.3: the dealer's right
    assert m["caller_wins"] == sum(c == r["team"] for c, r in zip(callers, results))


@pytest.mark.parametrize("seed", range(3))
def test_wildwasser_finishes_match_the_final_position(seed):
    game = load("wildwasser", players=2 + seed)
    state, _seen, m = _play(game, "random", seed, WildwasserMeasures(game))
    placed = {}
    for animals in state.state_json()["animals"]:
        for species, where in animals.items():
            if isinstance(where, str) and where.startswith("podium"):
                placed[species] = placed.get(species, 0) + 1
    for species in ("cheetah", "zebra", "rhino", "meerkat", "turtle"):
        assert m[f"finish_{species}"] == placed.get(species, 0)
    done = max(sum(1 for w in a.values() if isinstance(w, str) and w.startswith("podium"))
               for a in state.state_json()["animals"])
    assert m["end_tiles"] == (0 if done >= 3 else 1)
    assert m["washed_winner"] <= m["washed"] and m["icon_pushes"] <= m["pushes"]


@pytest.mark.parametrize("seed", range(3))
def test_wildwasser_pushes_washes_and_finishes_match_the_spectator_logs(seed):
    """The measures read the state's log; the spectator's view after every action shows
    the same public events (WW-4.4 pushes, WW-4.2 finishes, WW-5.2 the end)."""
    game = load("wildwasser", players=2 + seed)
    state, seen, m = _play(game, "random", seed, WildwasserMeasures(game))
    events = {e["i"]: e for _seat, _a, v in seen for e in v["log"]}
    log = [events[i] for i in sorted(events)]
    assert [e["i"] for e in log] == list(range(log[0]["i"], log[-1]["i"] + 1))  # nothing missed
    pushes = [k for k, e in enumerate(log) if e["event"] == "push"]

    def after_push_icon(k: int) -> bool:  # the push icon just before (a last-round note may lie between)
        j = k - 1
        while j >= 0 and log[j]["event"] == "last_round":
            j -= 1
        return j >= 0 and log[j]["event"] == "icon" and log[j]["icon"] == "push"

    by_icon = [k for k in pushes if after_push_icon(k)]
    washed = [owner for k in pushes for owner, _animal in log[k]["washed"]]
    assert m["pushes"] == len(pushes) and m["icon_pushes"] == len(by_icon)
    assert m["washed"] == len(washed)
    assert m["washed_winner"] == sum(1 for owner in washed if owner in state.winners())
    assert m["finishes"] == sum(1 for e in log if e["event"] == "finish")
    assert m["end_tiles"] == int(any(e["event"] == "end" and e["why"] == "tiles" for e in log))


SHORTER = {"wasserloch": ["rounds=2"], "watten": ["target=4"], "wildwasser": ["players=3"]}


@pytest.mark.parametrize("name", game_names())
def test_measures_from_a_replayed_record_equal_those_taken_in_play(name):
    from wasserspiele.lab import make_study
    from wasserspiele.lab.measures import measure_record
    from wasserspiele.lab.study import play_one
    study = make_study(name, bots=["heuristic"], options=SHORTER.get(name, []), games=1, seed=3)
    row = play_one(study, 0, 0, keep_state=True)
    m = measure_record(row["state"].record())
    assert m.pop("units", 0) == row["units"]  # a game without a length unit reports 0, as the lab does
    assert m == row["measures"]
