"""Bot specs (QA of the research kit): an outside policy that cannot be imported is refused
once, not as "bot spec 'x': bot 'x': …", and a checkpoint takes the learned bot's settings
after a colon (`FILE.npz:search=2`, as `learned:weights=FILE.npz,search=2`)."""

from __future__ import annotations

import numpy as np
import pytest

from wasserspiele import load
from wasserspiele.bots.arena import parse_bots, run_arena
from wasserspiele.bots.learned import Network, codec_of
from wasserspiele.bots.specs import parse_bot_spec
from wasserspiele.core.errors import BadOption


@pytest.mark.parametrize("spec", ["python:kit_qa_no_such_module:make", "python:bots.test_kit_qa_specs:nothing"])
def test_an_outside_policy_refusal_names_its_spec_once(spec):
    with pytest.raises(BadOption) as caught:
        parse_bots([spec], load("wasserloch"))
    text = str(caught.value)
    assert text.startswith(f"bot '{spec}': "), text
    assert text.count(spec) == 1, text  # was "bot spec '…': bot '…': cannot import …"
    assert caught.value.reason.render("de").count(spec) == 1


def test_an_outside_policy_that_cannot_be_imported_says_which_module():
    with pytest.raises(BadOption, match=r"cannot import kit_qa_no_such_module \(No module named 'kit_qa_no_such_module'\)"):
        parse_bots(["python:kit_qa_no_such_module:make"], load("wasserloch"))


def test_a_checkpoint_takes_settings_after_a_colon():
    spec = parse_bot_spec("runs/ck_wl.npz:search=2,value=rollout")
    assert spec == parse_bot_spec("learned:weights=runs/ck_wl.npz,search=2,value=rollout")
    assert spec.text == "learned:weights=runs/ck_wl.npz,search=2,value=rollout"
    assert parse_bot_spec("CK.NPZ:search=2").params == (("weights", "CK.NPZ"), ("search", 2))
    assert parse_bot_spec("ck_wl.npz") == parse_bot_spec("learned:weights=ck_wl.npz")  # as before


@pytest.mark.parametrize("text, message", [
    ("ck_wl.npz:", "nothing after ':'"),
    ("ck_wl.npz:weights=other.npz", "'weights' given twice"),
    ("ck_wl.npz:search", "'search' is not NAME=VALUE"),
])
def test_a_checkpoints_settings_are_refused_as_any_specs(text, message):
    with pytest.raises(BadOption, match=message):
        parse_bot_spec(text)


def test_the_arena_plays_a_checkpoint_with_a_search(tmp_path):
    game = load("wasserloch", players=2, rounds=1)
    codec = codec_of(game)
    path = tmp_path / "ck_wl.npz"
    Network.init(codec.obs_size, codec.num_actions, (8,), np.random.default_rng(0)).save(path, {"game": "wasserloch"})
    specs = parse_bots([f"{path}:search=2", "random"], game)  # was: unknown bot '…ck_wl.npz'
    assert specs[0].kind == "learned" and dict(specs[0].params) == {"weights": str(path), "search": 2}
    result = run_arena("wasserloch", {"players": 2, "rounds": 1}, specs, games=2, seed=1)
    assert len(result.games) == 2
