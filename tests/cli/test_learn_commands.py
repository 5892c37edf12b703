"""`wasserspiele train`, `corpus`, `leaderboard` and `arena` at the command line: what they
write where, what they say they play, and the numbers they refuse (tiny budgets only)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from wasserspiele.cli.main import main
from wasserspiele.core.messages import catalogue

# a training run of a few seconds: one generation, a handful of searched positions
TINY_TRAIN = ["--seed", "3", "--games", "1", "--generations", "1", "--iterations", "3", "--epochs", "1",
              "--hidden", "4", "--option", "rounds=1", "--jobs", "1"]
TINY_CORPUS = ["--iterations", "3", "--option", "rounds=1"]


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_a_corpus_written_into_an_earlier_corpus_replaces_it_whole(tmp_path):
    """A second run with fewer games used to leave the first run's game-0001.json beside
    the new game-0000.json and one-line visits.jsonl: a mixed corpus."""
    out = tmp_path / "corpus"
    first = _run("corpus", "wasserloch", "--games", 2, *TINY_CORPUS, "--out", out)
    assert first.exit_code == 0, first.output
    assert sorted(p.name for p in out.iterdir()) == ["game-0000.json", "game-0001.json", "visits.jsonl"]
    second = _run("corpus", "wasserloch", "--games", 1, *TINY_CORPUS, "--seed", 5, "--out", out)
    assert second.exit_code == 0, second.output
    assert "replacing the earlier corpus" in second.output and "(2 games)" in second.output
    assert sorted(p.name for p in out.iterdir()) == ["game-0000.json", "visits.jsonl"]
    lines = (out / "visits.jsonl").read_text().splitlines()
    assert [json.loads(line)["record"] for line in lines] == ["game-0000.json"]


def test_a_corpus_refuses_a_folder_holding_other_files_before_any_game(tmp_path):
    """As `lab --out` does: the command never deletes what it did not write."""
    out = tmp_path / "corpus"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    (out / "game-0003.json").write_text("{}")  # an earlier corpus's record: would go, but not alone
    result = _run("corpus", "wasserloch", "--games", 1, *TINY_CORPUS, "--out", out)
    assert result.exit_code == 2, result.output
    assert "--out" in result.output and "holds files the corpus did not write (notes.txt)" in result.output
    assert sorted(p.name for p in out.iterdir()) == ["game-0003.json", "notes.txt"]


@pytest.mark.parametrize("name", ["w", "w.npz"])
def test_train_prints_the_files_it_wrote_and_learned_weights_takes_the_name_given_to_out(tmp_path, name):
    """`--out w.txt` used to print "wrote w.txt" while numpy wrote w.txt.npz and the
    sidecar went to w.json; `learned:weights=w.txt` then found no such file."""
    given = tmp_path / name
    result = _run("train", "wasserloch", *TINY_TRAIN, "--out", given)
    assert result.exit_code == 0, result.output
    weights, sidecar = tmp_path / "w.npz", tmp_path / "w.json"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.json", "w.npz"]
    assert f"wrote {weights} (weights) and {sidecar}" in result.output
    assert f"learned:weights={weights}" in result.output
    for spec in (f"learned:weights={given}", f"learned:weights={weights}", str(weights)):
        arena = _run("arena", "wasserloch", "--bots", f"{spec},random", "--games", 2, "--jobs", 1,
                     "--option", "rounds=1", "--option", "players=2")
        assert arena.exit_code == 0, (spec, arena.output)


@pytest.mark.parametrize("name", ["w.txt", "w.json", "w.NPZ", "run-1.5"])
def test_train_refuses_an_out_numpy_would_rename_before_any_training(tmp_path, name):
    result = _run("train", "wasserloch", *TINY_TRAIN, "--out", tmp_path / name)
    assert result.exit_code == 2, result.output
    assert "'--out'" in result.output and "give a name ending in .npz or without a suffix" in result.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args, option, says", [
    (["--hidden", "-3"], "--hidden", "every layer needs at least 1 unit"),
    (["--hidden", "0"], "--hidden", "every layer needs at least 1 unit"),
    (["--hidden", "16,0"], "--hidden", "every layer needs at least 1 unit"),
    (["--hidden", ""], "--hidden", "is not sizes like 128,64"),
    (["--games", "0"], "--games", "must be at least 1, not 0"),
    (["--generations", "-1"], "--generations", "must be at least 1"),
    (["--iterations", "0"], "--iterations", "must be at least 1"),
    (["--epochs", "0"], "--epochs", "must be at least 1"),
    (["--generations", "2", "--dagger", "0"], "--dagger", "must be at least 1"),
    (["--rollout-depth", "-5"], "--rollout-depth", "must be at least 1"),
    (["--generations", "2", "--guided-games", "0"], "--guided-games", "must be at least 1"),
    (["--window", "0"], "--window", "must be at least 1"),
    (["--jobs", "-1"], "--jobs", "must be at least 1"),
    (["--sharpen", "0"], "--sharpen", "must be above 0"),
    (["--sharpen", "inf"], "--sharpen", "must be above 0 and finite"),
    (["--generations", "2", "--guide-exploration", "-1"], "--guide-exploration", "must be above 0"),
])
def test_train_refuses_numbers_that_cannot_be_a_budget(tmp_path, args, option, says):
    """`--hidden -3` ended in numpy's "negative dimensions are not allowed", `--hidden 0`
    trained a network of zero units."""
    result = _run("train", "wasserloch", "--option", "rounds=1", *args, "--out", tmp_path / "w.npz")
    assert result.exit_code == 2, result.output
    assert f"'{option}'" in result.output and says in result.output
    assert "Traceback" not in result.output and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args, option", [(["--games", "0"], "--games"), (["--games", "-2"], "--games"),
                                          (["--iterations", "0"], "--iterations")])
def test_corpus_refuses_counts_below_1(tmp_path, args, option):
    result = _run("corpus", "wasserloch", *args, "--out", tmp_path / "c")
    assert result.exit_code == 2, result.output
    assert f"'{option}'" in result.output and "must be at least 1" in result.output
    assert list(tmp_path.iterdir()) == []


def test_issue17_5_corpus_refuses_more_iterations_than_a_search_takes_keeping_the_earlier_corpus(tmp_path):
    """`corpus --iterations 2000000` deleted the earlier corpus in --out and then was refused
    by the search itself, naming no flag ("iterations must be a whole number ..."); the
    flag is now checked against the search's range as the command line is read."""
    out = tmp_path / "corpus"
    assert _run("corpus", "wasserloch", "--games", 1, *TINY_CORPUS, "--out", out).exit_code == 0
    kept = sorted(p.name for p in out.iterdir())
    result = _run("corpus", "wasserloch", "--iterations", 2_000_000, "--out", out)
    assert result.exit_code == 2, result.output
    assert "'--iterations'" in result.output and "must be at most 1000000, not 2000000" in result.output
    assert sorted(p.name for p in out.iterdir()) == kept


@pytest.mark.parametrize("flag", ["--iterations", "--rollout-depth"])
def test_issue17_5_train_refuses_a_search_count_beyond_the_search_range(tmp_path, flag):
    result = _run("train", "wasserloch", flag, 2_000_000, "--out", tmp_path / "w.npz")
    assert result.exit_code == 2, result.output
    assert f"'{flag}'" in result.output and "must be at most 1000000, not 2000000" in result.output
    assert list(tmp_path.iterdir()) == []


def test_the_leaderboard_says_up_front_how_many_games_a_pairing_plays(tmp_path):
    """`--games 7` in Wasserloch said "× 7 games" and played 12 (both line-ups, every seat
    of three, on one deal: groups of 6); in Watten `--games 3` played 4."""
    result = _run("leaderboard", "wasserloch", "watten", "--bots", "random,heuristic", "--games", 7,
                  "--jobs", 1, "--out", tmp_path / "page.md")
    assert result.exit_code == 0, result.output
    assert ("wasserloch: 1 neighbour pairings × 12 games, 0 others × 12 (--games 7 rounded up to whole "
            "groups of 6 games" in result.output)
    assert "watten: 1 neighbour pairings × 8 games, 0 others × 8 (--games 7 rounded up to whole groups of 2" \
        in result.output
    page = (tmp_path / "page.md").read_text()
    assert "| random | heuristic | 12 |" in page and "| random | heuristic | 8 |" in page
    exact = _run("leaderboard", "watten", "--bots", "random,heuristic", "--games", 2, "--jobs", 1,
                 "--out", tmp_path / "exact.md")
    assert exact.exit_code == 0, exact.output
    assert "× 2 games" in exact.output and "rounded" not in exact.output


def test_the_leaderboard_page_only_refuses_a_missing_data_file(tmp_path):
    missing = tmp_path / "none.json"
    result = _run("leaderboard", "--page-only", "--data", missing, "--out", tmp_path / "page.md")
    assert result.exit_code == 2, result.output
    assert "--data" in result.output and f"no such file '{missing}'" in result.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("jobs", ["0", "-1"])
def test_the_arena_refuses_jobs_below_1_as_lab_and_leaderboard_do(jobs):
    result = _run("arena", "wasserloch", "--bots", "random,random", "--games", 3, "--jobs", jobs)
    assert result.exit_code == 2, result.output
    assert "--jobs" in result.output and "is not a positive number of processes" in result.output


def test_learned_weights_naming_the_sidecar_say_which_file_is_expected(tmp_path):
    result = _run("train", "wasserloch", *TINY_TRAIN, "--out", tmp_path / "w")
    assert result.exit_code == 0, result.output
    arena = _run("arena", "wasserloch", "--bots", f"learned:weights={tmp_path / 'w.json'},random",
                 "--games", 2, "--jobs", 1, "--option", "rounds=1")
    assert arena.exit_code == 2, arena.output
    assert "allow_pickle" not in arena.output and "pickled" not in arena.output
    assert "a JSON file, not weights" in arena.output
    assert f"learned:weights={tmp_path / 'w.npz'}" in arena.output


def test_the_corpus_help_names_every_field_of_a_visits_entry(tmp_path):
    """`corpus --help` described an entry as index, seat and {action: visits}: the `played`
    each entry also holds (docs/learned.md names it) was missing, in both catalogues."""
    out = tmp_path / "corpus"
    assert _run("corpus", "wasserloch", "--games", 1, *TINY_CORPUS, "--out", out).exit_code == 0
    entry = json.loads((out / "visits.jsonl").read_text().splitlines()[0])["decisions"][0]
    helps = [" ".join(_run("corpus", "--help").output.split()),
             catalogue("de").entries["cli.help.corpus"]]
    for text in helps:
        for field in entry:
            assert re.search(rf"\b{field}\b", text), (field, text)


def test_train_without_out_writes_game_learned_here_never_the_shipped_weights(tmp_path, monkeypatch):
    """`train GAME` without --out wrote the package's bots/weights/GAME.npz (site-packages
    once installed): an experiment replaced what ships.  It writes GAME-learned.npz in the
    current directory, says so, and refuses to replace an earlier run's file there unless
    --out names it."""
    import wasserspiele.bots.learned as learned
    shipped = tmp_path / "package" / "wasserloch.npz"
    # the test's guard: should train fall back to the shipped file, it writes here, not the repository
    monkeypatch.setattr(learned, "_shipped", lambda name: str(tmp_path / "package" / f"{name}.npz"))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    first = _run("train", "wasserloch", *TINY_TRAIN)
    assert first.exit_code == 0, first.output
    assert not shipped.exists()
    assert sorted(p.name for p in work.iterdir()) == ["wasserloch-learned.json", "wasserloch-learned.npz"]
    assert "wrote wasserloch-learned.npz (weights) and wasserloch-learned.json" in first.output
    assert "in the current directory; the shipped weights are unchanged" in first.output
    # the sidecar's command remakes these files, with the --out that names them
    meta = json.loads((work / "wasserloch-learned.json").read_text())
    assert meta["command"].startswith("wasserspiele train wasserloch --seed 3 --out wasserloch-learned.npz ")
    made = (work / "wasserloch-learned.npz").read_bytes()
    again = _run("train", "wasserloch", *TINY_TRAIN, "--seed", 4)
    assert again.exit_code == 2, again.output
    said = " ".join(again.output.split())
    assert "wasserloch-learned.npz and wasserloch-learned.json already in the current directory" in said
    assert "give --out wasserloch-learned.npz to replace them" in said
    assert (work / "wasserloch-learned.npz").read_bytes() == made
    named = _run("train", "wasserloch", *TINY_TRAIN, "--seed", 4, "--out", "wasserloch-learned.npz")
    assert named.exit_code == 0, named.output
    assert "replacing wasserloch-learned.npz and wasserloch-learned.json (--out names them)" in named.output
    assert "the shipped weights are unchanged" not in named.output
    assert json.loads((work / "wasserloch-learned.json").read_text())["seed"] == 4 and not shipped.exists()


@pytest.mark.parametrize("name", ["seven_waters", "wasserloch", "watten", "wildwasser"])
def test_the_shipped_sidecars_command_writes_the_shipped_weights(name, monkeypatch):
    """The reproduction command a shipped sidecar states (docs/learned.md quotes them) names
    its --out: run from the repository's top folder, it writes the shipped file, where
    without --out it writes GAME-learned.npz beside the user."""
    import shlex

    import wasserspiele
    from wasserspiele.bots.learned import shipped_weights
    from wasserspiele.cli.learn import train_cmd
    from wasserspiele.core.registry import load

    path = shipped_weights(load(name))
    command = shlex.split(json.loads(path.with_suffix(".json").read_text())["command"])
    assert command[:3] == ["wasserspiele", "train", name]
    monkeypatch.chdir(Path(wasserspiele.__file__).resolve().parents[2])  # src/wasserspiele → the top folder
    with train_cmd.make_context("train", command[2:]) as ctx:
        assert Path(ctx.params["out"]).resolve() == path
