"""Golden playthroughs: a rules change shows up as a reviewed diff of tests/golden/*.json."""

import json

import pytest

from golden.playthrough import path_for, playthrough, render
from wasserspiele import game_names
from wasserspiele.core.records import replay, summary


@pytest.mark.parametrize("name", game_names())
def test_golden_playthrough_is_unchanged(name):
    path = path_for(name)
    if not path.exists():
        pytest.fail(f"{path} missing: run .venv/bin/python tests/golden/playthrough.py {name}")
    assert render(playthrough(name)) == path.read_text(encoding="utf-8"), (
        f"{name} plays differently from its golden file; if intended, regenerate with "
        f"`.venv/bin/python tests/golden/playthrough.py {name}` and review the diff")


@pytest.mark.parametrize("name", game_names())
def test_golden_record_replays_to_its_final_position(name):
    data = json.loads(path_for(name).read_text(encoding="utf-8"))
    assert summary(replay(data["record"])) == data["final"]
