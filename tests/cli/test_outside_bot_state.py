"""An outside policy's own state in a terminal save (`play --seats python:package.module:factory`).

The built-in bots carry nothing from move to move but their generators, which the save
holds (`session.bots`, test_resume_bots.py).  An outside policy may keep more (a count, a
memory, a generator of its own kind): the save did not hold it, so a resumed game started
the policy afresh and went another way than the unbroken one.  A policy with the pair of
methods `random.Random` has, `getstate()` (JSON) and `setstate(state)`, is now saved per seat
in `session.policy_states` and handed its state back on resuming; a state that cannot be
saved is said once and the game saved without it; a state the policy refuses on resuming,
or a malformed field, is a refusal naming the seat and the file.

The policies below are seated by their factories' names, `python:cli.test_outside_bot_state:…`."""

from __future__ import annotations

import io
import json

import pytest

from wasserspiele.cli.console import make_console
from wasserspiele.cli.play import PlaySession
from wasserspiele.core.errors import BadOption

from .test_resume_bots import _stop_at

HERE = "python:cli.test_outside_bot_state"


class Counting:
    """Plays by the count of its own moves: the legal move at (seed + 5 × moves) among them
    in notation order.  The count is all it carries from move to move, and no generator of
    its own that the save's `bots` would find: made afresh, it counts from 0 again."""

    def __init__(self, seed):
        self.seed = seed
        self.moves = 0

    def choose(self, decision):
        legal = sorted(decision.legal, key=str)
        self.moves += 1
        return legal[(self.seed + 5 * self.moves) % len(legal)]

    def getstate(self):
        return {"moves": self.moves}

    def setstate(self, state):
        if not (isinstance(state, dict) and set(state) == {"moves"} and type(state["moves"]) is int):
            raise ValueError(f"not a count of moves: {state!r}")
        self.moves = state["moves"]


class Forgetful(Counting):
    """Counts as `Counting` does but keeps its count to itself (no getstate / setstate): a
    policy as every policy was before, which a resumed game starts afresh."""

    getstate = setstate = None


class Raising(Counting):
    def getstate(self):
        raise RuntimeError("the count is busy")


class Unjson(Counting):
    def getstate(self):
        return {"moves": self.moves, "seen": {1, 2}}  # a set: no JSON


class Tupled(Counting):
    def getstate(self):
        return ("moves", self.moves)  # JSON would hand setstate a list


def make_counting(game, seed):
    return Counting(seed)


def make_forgetful(game, seed):
    return Forgetful(seed)


def make_raising(game, seed):
    return Raising(seed)


def make_unjson(game, seed):
    return Unjson(seed)


def make_tupled(game, seed):
    return Tupled(seed)


def _session(**kw) -> tuple[PlaySession, io.StringIO]:
    args = dict(game_name=None, players=None, seats=None, seed=None, option_texts=(), save=None, resume=None,
                lang=None)
    args.update(kw)
    session = PlaySession.create(**args)
    out = io.StringIO()
    session.console = make_console(file=out, width=400)
    return session, out


def _stopped_save(tmp_path, seats: str, stop: int = 8, game: str = "wasserloch", seed: int = 5, lang=None):
    save = tmp_path / "g.json"
    first, out = _session(game_name=game, seats=seats, seed=seed, save=str(save), lang=lang)
    _stop_at(first, stop)
    assert first.run() == 130
    return save, first, out


GAMES = [("wasserloch", f"{HERE}:make_counting,random,{HERE}:make_counting", 14),
         ("watten", f"{HERE}:make_counting,easy,random,{HERE}:make_counting", 11),
         ("seven_waters", f"random,{HERE}:make_counting", 9),
         ("wildwasser", f"{HERE}:make_counting,random,medium", 10)]


@pytest.mark.parametrize("game, seats, stop", GAMES, ids=[g for g, _, _ in GAMES])
def test_a_resumed_game_with_an_outside_policy_keeping_a_state_goes_on_as_the_unbroken_one(tmp_path, game, seats,
                                                                                           stop):
    whole, _ = _session(game_name=game, seats=seats, seed=5)
    assert whole.run() == 0
    played = whole.state.record_actions()

    save, first, _ = _stopped_save(tmp_path, seats, stop, game)
    doc = json.loads(save.read_text())
    kept = len(doc["actions"])
    assert 0 < kept < len(played)
    policies = {str(s) for s, k in enumerate(seats.split(",")) if k.startswith("python:")}

    rest, _ = _session(seed=5, resume=str(save))
    assert rest.run() == 0
    assert rest.state.record_actions() == played
    # the policies went on from their counts: each seat's state as the save held it
    assert doc["session"].get("policy_states") == {s: {"moves": first.bots[int(s)].moves} for s in policies}


def test_a_policy_without_the_methods_and_a_save_without_the_field_start_the_policy_afresh(tmp_path):
    """As before the field: a policy without getstate/setstate is saved without a state (no
    field for it), and a save that holds none (an older one) resumes with the policy made
    afresh; the policies that keep one are handed it."""
    seats = f"{HERE}:make_counting,{HERE}:make_forgetful,random"
    save, first, _ = _stopped_save(tmp_path, seats)
    doc = json.loads(save.read_text())
    assert first.bots[1].moves > 0

    rest, _ = _session(seed=5, resume=str(save))
    assert (rest.bots[0].moves, rest.bots[1].moves) == (first.bots[0].moves, 0)
    assert doc["session"].get("policy_states") == {"0": {"moves": first.bots[0].moves}}

    del doc["session"]["policy_states"]
    save.write_text(json.dumps(doc))
    older, _ = _session(seed=5, resume=str(save))
    assert (older.bots[0].moves, older.bots[1].moves) == (0, 0)
    assert older.run() == 0


@pytest.mark.parametrize("factory, why", [
    ("make_raising", "getstate() raised RuntimeError: the count is busy"),
    ("make_unjson", "getstate() returned something that is not JSON: Object of type set is not JSON serializable"),
    ("make_tupled", "getstate() returned something JSON reads back otherwise (a tuple comes back as a list"),
])
def test_a_policy_state_that_cannot_be_saved_is_said_once_and_the_game_is_saved_without_it(tmp_path, factory, why):
    seats = f"{HERE}:{factory},random,{HERE}:make_counting"
    save = tmp_path / "g.json"
    whole, out = _session(game_name="wasserloch", seats=seats, seed=5, save=str(save))
    assert whole.run() == 0  # finished: saved after every move, no traceback
    said = out.getvalue()
    line = f"Seat 0 ({HERE}:{factory}): its state could not be saved: {why}"
    assert said.count(line) == 1, said
    assert said.count("could not be saved") == 1, said
    doc = json.loads(save.read_text())
    assert doc["actions"] == whole.state.record_actions()
    assert doc["session"].get("policy_states") == {"2": {"moves": whole.bots[2].moves}}


def test_a_policy_state_that_cannot_be_saved_is_said_in_german(tmp_path):
    save, _, out = _stopped_save(tmp_path, f"random,{HERE}:make_raising,random", lang="de")
    said = out.getvalue()
    assert said.count(f"Platz 1 ({HERE}:make_raising): der eigene Zustand ließ sich nicht speichern: "
                      "getstate() löste RuntimeError: the count is busy aus; das Spiel wird ohne ihn gespeichert") == 1
    assert "policy_states" not in json.loads(save.read_text())["session"]
    assert PlaySession.create(None, None, None, 5, (), None, str(save), None).resumed


@pytest.mark.parametrize("lang, said", [
    ("en", "session.policy_states: the outside policy of seat 2 ('" + HERE + ":make_counting') refused the state "
           "saved for it: ValueError: not a count of moves: {'moves': 'many'} (remove the seat's entry"),
    ("de", "session.policy_states: der Bot auf Platz 2 („" + HERE + ":make_counting“) lehnt den für ihn "
           "gespeicherten Zustand ab: ValueError: not a count of moves: {'moves': 'many'} (ohne den Eintrag"),
])
def test_a_saved_state_the_policy_refuses_is_a_refusal_naming_the_seat_and_the_file(tmp_path, lang, said):
    save, _, _ = _stopped_save(tmp_path, f"{HERE}:make_counting,random,{HERE}:make_counting")
    doc = json.loads(save.read_text())
    doc["session"]["policy_states"] = {"0": {"moves": 3}, "2": {"moves": "many"}}
    save.write_text(json.dumps(doc))
    with pytest.raises(BadOption) as caught:
        _session(seed=5, resume=str(save))
    text = caught.value.reason.render(lang)
    assert text.startswith(f"{save}: {said}"), text


@pytest.mark.parametrize("field", [["not", "states"], {"one": {"moves": 1}}, {"-1": {"moves": 1}}, "moves"])
@pytest.mark.parametrize("lang, said", [
    ("en", "session.policy_states: not the outside policies' (python:…) states as the game saved them"),
    ("de", "session.policy_states: nicht die Zustände der Bots von außen (python:…)"),
])
def test_a_save_whose_policy_states_field_is_malformed_is_refused_naming_the_field(tmp_path, field, lang, said):
    save, _, _ = _stopped_save(tmp_path, f"{HERE}:make_counting,random,random")
    doc = json.loads(save.read_text())
    doc["session"]["policy_states"] = field
    save.write_text(json.dumps(doc))
    with pytest.raises(BadOption) as caught:
        _session(seed=5, resume=str(save))
    text = caught.value.reason.render(lang)
    assert text.startswith(f"{save}: {said}"), text


def test_the_terminal_says_a_refused_state_as_an_error_line_not_a_traceback(tmp_path):
    from click.testing import CliRunner

    from wasserspiele.cli.main import main
    save, _, _ = _stopped_save(tmp_path, f"{HERE}:make_counting,random,random")
    doc = json.loads(save.read_text())
    doc["session"]["policy_states"] = {"0": None}
    save.write_text(json.dumps(doc))
    done = CliRunner().invoke(main, ["play", "--resume", str(save), "--seed", "5"])
    assert done.exit_code == 2, done.output
    assert done.exception is None or isinstance(done.exception, SystemExit)
    assert "Traceback" not in done.output
    assert f"{save}: session.policy_states: the outside policy of seat 0" in done.output
