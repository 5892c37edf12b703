"""Outside policies and checkpoints in the arena (`--bots python:package.module:factory`,
`--bots FILE.npz`), and the expert corpus command."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from wasserspiele import load
from wasserspiele.bots.arena import parse_bots, run_arena
from wasserspiele.bots.learned import Network, codec_of
from wasserspiele.cli.main import main
from wasserspiele.core.errors import BadOption
from wasserspiele.core.records import read_record, replay

OUTSIDE = "python:bots.outside_policy:make"


def test_arena_seats_an_outside_policy_beside_built_in_bots():
    game = load("wasserloch", players=2, rounds=1)
    specs = parse_bots([OUTSIDE, "random"], game)
    assert [s.text for s in specs] == [OUTSIDE, "random"]
    result = run_arena("wasserloch", {"players": 2, "rounds": 1}, specs, games=6, seed=1)
    rows = result.by_spec()
    assert rows[0].spec == OUTSIDE and len(rows[0].credits) == 6
    # the outside policy really played: its choices are the lowest legal notation each time
    again = run_arena("wasserloch", {"players": 2, "rounds": 1}, specs, games=6, seed=1)
    assert [g.scores for g in again.games] == [g.scores for g in result.games]


def test_arena_command_takes_an_outside_policy_and_a_checkpoint(tmp_path):
    codec = codec_of(load("wasserloch"))
    path = tmp_path / "ckpt.npz"
    Network.init(codec.obs_size, codec.num_actions, (8,), np.random.default_rng(0)).save(path, {"game": "wasserloch"})
    out = CliRunner().invoke(main, ["arena", "wasserloch", "--bots", f"{OUTSIDE},{path},heuristic",
                                    "--games", "3", "--jobs", "1", "--option", "rounds=1"])
    assert out.exit_code == 0, out.output
    assert "bots.outside_policy:make" in out.output and "ckpt.npz" in out.output


@pytest.mark.parametrize("spec, message", [
    ("python:bots.no_such_module:make", "cannot import bots.no_such_module"),
    ("python:bots.outside_policy:nothing", "has no callable 'nothing'"),
    ("python:bots.outside_policy:not_a_bot", "has no choose"),
    ("python:outside_policy", "is not package.module:factory"),
    # settings after the factory were "cannot import bots.outside_policy:make (No module named …)"
    ("python:bots.outside_policy:make:x=1,y=2", r"'python:bots.outside_policy:make:x=1,y=2': takes no settings \(got x, y\)"),
])
def test_a_bad_outside_policy_is_refused_naming_it(spec, message):
    with pytest.raises(BadOption, match=message):
        parse_bots([spec], load("wasserloch"))


def test_corpus_writes_replayable_records_with_visit_counts(tmp_path):
    out = CliRunner().invoke(main, ["corpus", "wasserloch", "--games", "2", "--iterations", "12",
                                    "--seed", "4", "--out", str(tmp_path), "--option", "rounds=1"])
    assert out.exit_code == 0, out.output
    lines = [json.loads(x) for x in (tmp_path / "visits.jsonl").read_text().splitlines()]
    assert [x["record"] for x in lines] == ["game-0000.json", "game-0001.json"]
    for entry in lines:
        doc = read_record(tmp_path / entry["record"])
        state = replay(doc)
        assert state.is_terminal()
        assert entry["decisions"], "every game has searched decisions"
        for d in entry["decisions"]:
            seat, action, _ = state.history[d["index"]]
            assert seat == d["seat"] and str(action) == d["played"]
            assert d["played"] in d["visits"] and sum(d["visits"].values()) <= 12
