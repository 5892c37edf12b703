"""Seeds (core/chance.py): a seed is a whole number from 0 up, and distinct seeds deal
distinct games.  random.Random seeds with the absolute value of an integer, so seed -5
dealt seed 5's game (`play … --seed -5` was `--seed 5`); a negative seed is refused, in the
player's language, wherever it enters, and every seed from 0 up deals what it always dealt
(records hold their chance outcomes, and the golden traces and records still replay:
tests/test_golden.py, tests/test_records_*.py, tests/games/*/test_traces.py)."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from wasserspiele.core.chance import derive_seed, make_rng
from wasserspiele.core.errors import BadOption, BadRecord
from wasserspiele.core.records import replay
from wasserspiele.core.registry import load

GAMES = ("wasserloch", "seven_waters", "watten", "wildwasser")


def said(result) -> str:
    return " ".join(result.output.split())


def test_a_negative_seed_is_refused_not_dealt_as_its_positive_twin():
    with pytest.raises(BadOption) as err:
        make_rng(-5)
    reason = err.value.reason
    assert reason.code == "seed.negative" and reason.params == {"seed": -5}
    assert str(err.value) == "seed -5 is negative: a seed is a whole number from 0 up"
    assert reason.render("de") == "Startwert -5 ist negativ: ein Startwert ist eine ganze Zahl ab 0"


@pytest.mark.parametrize("name", GAMES)
def test_new_game_refuses_a_negative_seed_and_deals_each_seed_from_0_as_random_random_does(name):
    game = load(name)
    with pytest.raises(BadOption, match="seed -3 is negative"):
        game.new_game(seed=-3)
    for seed in (0, 1, 3, 2**32 + 7):  # the generator random.Random(seed) always was
        assert game.new_game(seed=seed).chance.used_setup() == \
            game.new_game(rng=random.Random(seed)).chance.used_setup()
    assert game.new_game(seed=None).chance.used_setup()  # None: a seed from the system, as before


def test_derived_seeds_of_a_negative_master_are_distinct_from_its_positive_twin():
    """The arena's, lab's and leaderboard's master seeds only ever pass through derive_seed,
    which already tells -5 from 5 (and gives seeds from 0 up): they stay accepted."""
    assert derive_seed(-5, "game", 0) != derive_seed(5, "game", 0)
    assert all(0 <= derive_seed(m, "game", i) < 2**63 for m in (-5, 0, 5) for i in range(20))


def test_a_record_with_a_negative_seed_is_refused_naming_the_seed(run, tmp_path):
    doc = {"format": "wasserspiele-record/1", "game": "wasserloch", "seed": -2, "actions": []}
    with pytest.raises(BadRecord, match="^seed: seed -2 is negative"):  # a malformed document, naming its field
        replay(doc)
    assert replay({**doc, "seed": 2}).chance.used_setup() == load("wasserloch").new_game(seed=2).chance.used_setup()
    path = tmp_path / "negative.json"
    path.write_text(json.dumps(doc))
    result = run("replay", str(path))
    assert result.exit_code == 2 and "Error: seed: seed -2 is negative" in said(result), result.output
    result = run("replay", str(path), "--lang", "de")
    assert result.exit_code == 2 and "Fehler: seed: Startwert -2 ist negativ: ein Startwert ist eine ganze Zahl ab 0" \
        in said(result), result.output


def test_play_refuses_a_negative_seed_in_the_players_language(run):
    result = run("play", "wasserloch", "--seed", "-5", input="quit\n")
    assert result.exit_code == 2 and "Error: seed -5 is negative: a seed is a whole number from 0 up" in said(result)
    result = run("play", "wasserloch", "--seed", "-5", "--lang", "de", input="quit\n")
    assert result.exit_code == 2 and "Fehler: Startwert -5 ist negativ" in said(result), result.output


def test_play_deals_seed_5_as_it_always_did(run, tmp_path):
    """Seed 5's Wasserloch deal, digested at b0deede (before negative seeds were refused):
    a seed from 0 up deals what it always dealt, through `play` as through `new_game`."""
    def digest(setup) -> str:
        return hashlib.blake2b(json.dumps(setup, sort_keys=True).encode(), digest_size=8).hexdigest()
    save = tmp_path / "five.json"
    assert run("play", "wasserloch", "--seed", "5", "--save", str(save), input="quit\n").exit_code == 0
    assert digest(json.loads(save.read_text())["setup"]) == "01e584af8c7e7953"
    assert digest(load("wasserloch").new_game(seed=5).chance.used_setup()) == "01e584af8c7e7953"


def test_the_kernel_vector_envs_refuse_a_negative_seed_as_gymnasium_does():
    """reset(seed=-5) went on with random.Random(-5) for the later resets: seed 5's deals."""
    from wasserspiele.games.watten.vector import WattenVectorEnv
    envs = WattenVectorEnv(2)
    with pytest.raises(ValueError, match="seed -5 is negative"):
        envs.reset(seed=-5)
    envs.reset(seed=5)


def test_resuming_with_a_negative_seed_is_refused_too(run, tmp_path):
    """`--seed` on a resumed game seeds the chance still to come (and the bots): -5 drew
    what 5 draws there as well."""
    save = tmp_path / "game.json"
    assert run("play", "wasserloch", "--seed", "2", "--save", str(save), input="quit\n").exit_code == 0
    result = run("play", "--resume", str(save), "--seed", "-5", input="quit\n")
    assert result.exit_code == 2 and "seed -5 is negative" in said(result), result.output
    result = run("play", "--resume", str(save), "--seed", "5", input="quit\n")
    assert result.exit_code == 0, result.output


def test_the_pettingzoo_env_refuses_a_negative_seed_rather_than_dealing_its_twin():
    """PettingZoo's reset(seed=-5) dealt what reset(seed=5) deals (random.Random's absolute
    value); Gymnasium's own reset refuses a negative seed, and so does this one now."""
    from wasserspiele.adapters.pettingzoo import env as aec_env
    env = aec_env("watten")
    with pytest.raises(ValueError, match="seed -5 is negative"):
        env.reset(seed=-5)
    env.reset(seed=5)  # from 0 up as before
