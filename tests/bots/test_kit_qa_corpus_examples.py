"""The corpus command says one game in the singular, and the examples refuse `--games 0`
with argparse's usage error where they ended in a ZeroDivisionError (QA of the research kit)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from wasserspiele.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_corpus_says_one_earlier_game_in_the_singular(tmp_path):
    args = ["corpus", "wasserloch", "--games", "1", "--iterations", "5", "--out", str(tmp_path),
            "--option", "rounds=1"]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    assert "wrote 1 game to" in first.output
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 0, again.output
    assert f"replacing the earlier corpus in {tmp_path} (1 game)" in again.output  # was "(1 games)"


def _example(name: str):
    spec = importlib.util.spec_from_file_location(f"kit_qa_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name, needs", [
    ("train_wasserloch", "gymnasium"),
    ("openspiel_ismcts", "pyspiel"),
    ("maskable_ppo_wasserloch", "sb3_contrib"),
])
@pytest.mark.parametrize("games", ["0", "-3"])
def test_examples_refuse_no_games_before_any_work(name, needs, games, monkeypatch, capsys):
    pytest.importorskip(needs)
    module = _example(name)
    monkeypatch.setattr(sys, "argv", [f"{name}.py", "--games", games])
    with pytest.raises(SystemExit) as caught:  # argparse's usage error, before training or playing
        module.main()
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert f"error: --games: {games} is not a positive number of games" in err, err
