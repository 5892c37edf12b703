"""A bot's refused choice names the bot (QA of the research kit): the arena, the lab's
runner and the Gymnasium env's opponents all apply bots' choices through
`bots.match.apply_choice`, so an illegal or unreadable choice is blamed on the bot's spec
and seat, with the game's seed and the engine's own reason, never on the caller."""

from __future__ import annotations

import pickle
import re

import numpy as np
import pytest
from click.testing import CliRunner

from wasserspiele import load
from wasserspiele.bots.arena import parse_bots, run_arena
from wasserspiele.bots.match import BotChoiceRefused, play_game
from wasserspiele.bots.random_bot import RandomBot
from wasserspiele.cli.main import main
from wasserspiele.core.errors import BadNotation, IllegalAction

HERE = "python:bots.test_kit_qa_bot_choices"


class _Returns:
    """A policy that always returns the same thing, whatever is legal."""

    def __init__(self, choice):
        self.choice = choice

    def choose(self, decision):
        return self.choice


def wrongmove(game, seed):  # well-formed notation, but no hand holds eight 8s
    return _Returns("8x8")


def illegal(game, seed):  # no notation of the game at all
    return _Returns("nonsense")


def retidx(game, seed):  # an index of the encoding, not an action
    return _Returns(0)


@pytest.mark.parametrize("factory, why", [
    ("wrongmove", "in hand"),
    ("illegal", "is not a play"),
    ("retidx", "is not a Wasserloch action"),
])
def test_arena_names_the_bot_whose_choice_was_refused(factory, why):
    spec = f"{HERE}:{factory}"
    out = CliRunner().invoke(main, ["arena", "wasserloch", "--bots", f"{spec},heuristic", "--games", "1",
                                    "--jobs", "1", "--option", "rounds=1"])
    assert out.exit_code == 2, out.output
    error = out.output.strip().splitlines()[-1]
    # the bot by its spec, the seat it played and the engine's reason; before, the reason alone
    assert f"'{spec}'" in error and "by seat " in error and why in error, error
    # and the game's own seed (drawn from the arena's), to play it again: said from Python only before
    assert re.search(r" \(wasserloch seed \d+\)$", error), error


def test_the_arena_says_the_refused_choice_and_its_seed_in_german():
    spec = f"{HERE}:wrongmove"
    out = CliRunner().invoke(main, ["--lang", "de", "arena", "wasserloch", "--bots", f"{spec},heuristic",
                                    "--games", "1", "--jobs", "1", "--option", "rounds=1", "--seed", "7"])
    assert out.exit_code == 2, out.output
    error = out.output.strip().splitlines()[-1]
    assert error.startswith("Fehler: Bot-Angabe") and f"„{spec}“" in error, error
    assert re.search(r" \(wasserloch, Startwert \d+\)$", error), error


def test_run_arena_raises_the_refusal_with_the_game_seed_and_engine_reason():
    specs = parse_bots([f"{HERE}:wrongmove", "random"], load("wasserloch", rounds=1))
    with pytest.raises(BotChoiceRefused) as caught:
        run_arena("wasserloch", {"rounds": 1}, specs, games=3, seed=2)
    exc = caught.value
    assert exc.bot == f"{HERE}:wrongmove" and exc.action == "8x8"
    # the game and its seed around the bot's spec, and the engine's reason kept whole inside
    assert exc.reason.code == "bot.choice_refused_in_game" and exc.reason.params["game"] == "wasserloch"
    assert exc.reason.params["seed"] == exc.seed and isinstance(exc.seed, int)
    assert exc.reason.params["problem"].params["problem"].params["reason"] is exc.refused
    assert exc.refused.code.startswith("wasserloch.")
    assert "wasserloch seed " in str(exc) and f"by seat {exc.seat}" in str(exc)
    # it crosses the arena's process pool whole
    again = pickle.loads(pickle.dumps(exc))
    assert str(again) == str(exc) and again.seat == exc.seat


def test_play_game_names_the_bots_it_was_given():
    game = load("wasserloch", players=2, rounds=1)
    bots = [wrongmove(game, 0), RandomBot(1)]
    with pytest.raises(BotChoiceRefused, match="'mine': action 0 \"8x8\" by seat 0: .*\\(wasserloch seed 3\\)"):
        play_game(game, bots, seed=3, names=["mine", "random"])


@pytest.mark.parametrize("factory, engine_error", [("illegal", BadNotation), ("wrongmove", IllegalAction),
                                                   ("retidx", IllegalAction)])
def test_gymnasium_blames_the_opponent_not_the_agents_step(factory, engine_error):
    import gymnasium

    import wasserspiele.adapters.gymnasium  # noqa: F401  (registers the envs)
    env = gymnasium.make("wasserspiele/Wasserloch-v0", opponents=f"{HERE}:{factory}")
    _, info = env.reset(seed=5)
    with pytest.raises(BotChoiceRefused) as caught:
        for _ in range(50):  # the agent only ever plays legal actions
            _, _, over, cut, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            assert not (over or cut)
    exc = caught.value
    assert not isinstance(exc, engine_error)  # the agent's action was not what was wrong
    assert exc.bot == f"{HERE}:{factory}" and exc.seat == 1
    assert f"'{HERE}:{factory}'" in str(exc) and "by seat 1" in str(exc)
    assert f"wasserloch seed {env.unwrapped._game_seed}" in str(exc)


class _Fails:
    def choose(self, decision):
        raise RuntimeError("boom in my bot")


def fails(game, seed):  # an outside policy whose own code fails
    return _Fails()


def _the_note(exc: BaseException, seat: str) -> str:
    notes = getattr(exc, "__notes__", [])
    assert len(notes) == 1, notes
    assert re.fullmatch(rf"raised by bot spec '{HERE}:fails' choosing action \d+ for seat {seat} "
                        rf"\(wasserloch seed \d+\)", notes[0]), notes
    return notes[0]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_policy_that_fails_keeps_its_own_error_and_a_note_names_its_spec_seat_and_game_seed(jobs):
    """An outside policy whose `choose` raised ended the arena in a bare traceback: no bot
    spec, no seat, no seed to play the game again (through the process pool too).  Its own
    error and traceback stay (they are its author's to read), with a note naming them."""
    game = load("wasserloch", rounds=1, players=2)
    with pytest.raises(RuntimeError, match="boom in my bot") as failed:
        run_arena("wasserloch", {"rounds": 1, "players": 2}, parse_bots([f"{HERE}:fails", "random"], game),
                  games=2, seed=1, jobs=jobs)
    _the_note(failed.value, "[01]")    # (the seat-rotated game that fails first: either, in the pool)


def test_a_gymnasium_opponent_that_fails_says_so_in_a_note():
    """The same from a Gymnasium env's opponent: raised from the agent's reset() or step(),
    with nothing saying that the opponent, not the agent, failed."""
    import gymnasium

    import wasserspiele.adapters.gymnasium  # noqa: F401  (registers the ids)

    env = gymnasium.make("wasserspiele/Wasserloch-v0", players=2, rounds=1, seat=1, opponents=f"{HERE}:fails")
    with pytest.raises(RuntimeError, match="boom in my bot") as failed:
        env.reset(seed=3)
    _the_note(failed.value, "0")
