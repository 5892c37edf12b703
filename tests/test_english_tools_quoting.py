"""The English-only tools (cli/language.py: lab, serve, train, corpus, leaderboard)
quote what the user gave as the project's English quotes it — the catalogue's term
`shown`: text in '…' (`'it's'`), anything else as JSON writes it (`2`, `["random"]`) —
never with Python's repr (`"it's"`, `['random']`, `np.float64(2.5)`).

A value with an apostrophe tells the two apart: Python's repr switches to double quotes.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from wasserspiele.cli.main import main
from wasserspiele.core.errors import BadOption

TYPED = "it's"            # repr: "it's"
QUOTED = "'it's'"         # the catalogue's English `quote`


def _cli(args: list[str], tmp_path) -> str:
    out = tmp_path / "never"
    res = CliRunner().invoke(main, [*args, "--games", "4", "--jobs", "1", "--quiet", "--out", str(out)])
    assert res.exit_code == 2, res.output
    assert not out.exists()
    return res.output


# -- lab tune ----------------------------------------------------------------------------
@pytest.mark.parametrize("vary, words", [
    (TYPED, f"--vary {QUOTED}: expected OPTION=RANGE"),
    (f"players={TYPED}", "--vary 'players=it's': player counts are not tuned"),
    (f"{TYPED}=1,2", f"--vary: wasserloch has no option {QUOTED} (options: "),
    ("rounds=1..2'", "--vary rounds: '1..2'' is not a range of whole numbers"),
])
def test_lab_tune_vary_quotes_what_was_typed(tmp_path, vary, words):
    output = _cli(["lab", "tune", "wasserloch", "--vary", vary, "--goal", "shorter"], tmp_path)
    assert words in output
    assert '"' not in output.split("Error:")[-1]  # no repr's double quotes


def test_lab_tune_vary_twice_quotes_both_spellings():
    from wasserspiele.lab.tune import expand_vary
    with pytest.raises(BadOption) as caught:
        expand_vary("wasserloch", ["rounds=1,01"])
    assert str(caught.value) == ("--vary rounds: the value '01' is given twice (as '1') in '1,01'; "
                                 "each value is one candidate")


def test_lab_tune_goal_quotes_the_goal():
    from wasserspiele.lab.tune import plan_tune
    with pytest.raises(BadOption) as caught:
        plan_tune("wasserloch", ["rounds=1,2"], TYPED)
    assert str(caught.value) == f"--goal: {QUOTED} is not one of fair-seats, decisive, shorter"


# -- lab study ---------------------------------------------------------------------------
@pytest.mark.parametrize("args, words", [
    (["--players", TYPED], f"--players: {QUOTED} is not a number"),
    (["--compare", TYPED], f"--compare {QUOTED}: expected KEY=VALUE1,VALUE2"),
    (["--compare", f"{TYPED}=1,2"], f"--compare: wasserloch has no option {QUOTED} (options: "),
])
def test_lab_study_quotes_what_was_typed(tmp_path, args, words):
    output = _cli(["lab", "wasserloch", "--bots", "random", *args], tmp_path)
    assert words in output
    assert '"' not in output.split("Error:")[-1]


# -- the runner: seating and backend (arena, lab, leaderboard) ----------------------------
def test_runner_seating_quotes_the_name():
    from wasserspiele.bots.runner import seating
    with pytest.raises(BadOption) as caught:
        seating(TYPED)
    assert str(caught.value) == f"--seating: {QUOTED} is not one of rotated, duplicate"


def test_runner_backend_quotes_the_name():
    from wasserspiele.bots.runner import BACKENDS, open_backend
    with pytest.raises(BadOption) as caught:
        open_backend(TYPED)
    assert str(caught.value) == f"--backend: {QUOTED} is not one of {', '.join(BACKENDS)}"


# -- leaderboard data ----------------------------------------------------------------------
@pytest.mark.parametrize("version, shown", [("1'", "'1''"), (99, "99"), (None, "null")])
def test_leaderboard_version_shown_as_json_and_said_once(tmp_path, version, shown):
    from wasserspiele.bots.leaderboard import DATA_VERSION, read_boards
    path = tmp_path / "boards.json"
    path.write_text(json.dumps({"version": version, "boards": {}}))
    with pytest.raises(BadOption) as caught:
        read_boards(path)
    # the version refusal itself, not wrapped again as "not leaderboard data (<path>: …)"
    assert str(caught.value) == f"{path}: leaderboard data version {shown}, expected {DATA_VERSION}"


# -- learned training (train) ---------------------------------------------------------------
def test_learned_positions_quote_the_file_and_show_settings_as_json(tmp_path):
    from wasserspiele.bots.learned_train import Positions
    path = tmp_path / "it's.npz"
    rows = Positions()
    rows.add([(np.zeros(3, np.float32), np.ones(2, np.int8), np.ones(2, np.float32), 1.0, float("nan"), 0)])
    rows.save(path, {"teacher": "search", "iterations": 8})
    with pytest.raises(BadOption) as caught:
        Positions.load(path, {"teacher": "heuristic", "iterations": None})
    assert str(caught.value) == (f"positions '{path}' were made by {{\"iterations\": 8, \"teacher\": \"search\"}}, "
                                 f"not {{\"teacher\": \"heuristic\", \"iterations\": null}}: give another file")
    broken = tmp_path / "it's-broken.npz"
    broken.write_text("not numpy")
    with pytest.raises(BadOption) as caught:
        Positions.load(broken, {})
    assert str(caught.value).startswith(f"positions '{broken}': not a positions file (")


def test_learned_trainer_quotes_the_teacher():
    from wasserspiele.bots.learned_train import Budget, Trainer
    from wasserspiele.core.registry import load
    with pytest.raises(BadOption) as caught:
        Trainer(load("watten"), 1, Budget(teacher=TYPED))
    assert str(caught.value) == f"teacher: {QUOTED} is not one of search, heuristic"


# -- the Gymnasium adapters (a programmer's English) -----------------------------------------
@pytest.mark.parametrize("kwargs, words", [
    ({"opponents": ["random"]}, 'opponents=["random"] (one policy name for every other seat)'),
    ({"illegal_action": TYPED}, f"illegal_action={QUOTED} (an illegal index"),
    ({"render_mode": TYPED}, f"render_mode={QUOTED}: the batched kernel env"),
    ({"opponents": TYPED}, f"opponents must be one of random, greedy, not {QUOTED}"),
])
def test_vector_adapter_shows_arguments_as_json(kwargs, words):
    from wasserspiele.adapters.vector import make_vector_env
    with pytest.raises(ValueError) as caught:
        make_vector_env(2, game="wasserloch", **kwargs)
    assert words in str(caught.value)


def test_vector_adapter_shows_numpy_values_as_their_python_value():
    from wasserspiele.games.wasserloch.vector import WasserlochVectorEnv
    with pytest.raises(ValueError, match=r"num_envs must be a positive integer, not 2\.5$"):
        WasserlochVectorEnv(np.float64(2.5))
    envs = WasserlochVectorEnv(2, players=2, rounds=1)
    with pytest.raises(ValueError, match=r"seed must be an integer or None, not 'it's'$"):
        envs.reset(seed=TYPED)
    envs.reset(seed=1)
    with pytest.raises(ValueError, match=r"table 0 got 0\.5 \(float64 actions\)"):
        envs.step(np.array([0.5, 1.0]))


@pytest.mark.parametrize("env, policies", [
    ("wasserspiele.games.seven_waters.vector:SevenWatersVectorEnv", "random, heuristic"),
    ("wasserspiele.games.wasserloch.vector:WasserlochVectorEnv", "random, greedy"),
    ("wasserspiele.games.watten.vector:WattenVectorEnv", "random, greedy"),
    ("wasserspiele.games.wildwasser.vector:WildwasserVectorEnv", "random (the kernel's only policy so far)"),
])
def test_game_vector_envs_quote_the_opponents(env, policies):
    from importlib import import_module
    module, _, name = env.partition(":")
    cls = getattr(import_module(module), name)
    with pytest.raises(ValueError) as caught:
        cls(2, opponents=TYPED)
    assert str(caught.value) == f"opponents must be one of {policies}, not {QUOTED}"


# -- lab --precision, the server's operator settings and its messages -----------------------
def test_lab_precision_quotes_what_was_typed():
    from wasserspiele.lab.precision import parse_precision
    for typed, words in [(TYPED, f"--precision: {QUOTED} is not a half-width"),
                         ("5'", "--precision: '5'' is not a half-width"),
                         ("5", "--precision: '5' has no unit; write 5pp"),
                         ("99pp", "--precision: '99pp' is out of range")]:
        with pytest.raises(BadOption) as caught:
            parse_precision(typed)
        assert str(caught.value).startswith(words), str(caught.value)


def test_server_limits_and_bot_pool_quote_the_operators_setting():
    from wasserspiele.web.botpool import BotPool
    from wasserspiele.web.limits import Limits
    with pytest.raises(ValueError) as caught:
        Limits.from_env({"WASSERSPIELE_BOT_WORKERS": TYPED})
    assert str(caught.value) == f"WASSERSPIELE_BOT_WORKERS={QUOTED}: not an int"
    with pytest.raises(ValueError) as caught:
        Limits(idle_seconds=-1.5)
    assert str(caught.value) == "limit idle_seconds: -1.5 must be a number ≥ 0"
    with pytest.raises(ValueError) as caught:
        BotPool(1, TYPED)
    assert str(caught.value) == f"bot pool kind {QUOTED}: one of process, thread, inline"


def test_server_messages_show_an_unknown_field_or_type_as_the_project_quotes():
    from wasserspiele.web.schemas import Invalid, load_message
    for message, words in [({"type": TYPED}, f"unknown message type {QUOTED} (types: "),
                           ({"type": None}, "unknown message type null (types: "),
                           ({"type": "ping", TYPED: 1}, f"unknown field {QUOTED} (fields: ")]:
        with pytest.raises(Invalid) as caught:
            load_message(message)
        assert words in str(caught.value), str(caught.value)
