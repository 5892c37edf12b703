"""`play --seed N --save FILE`, stopped, then `play --resume FILE --seed N`: the rest of the game
is dealt as seed N deals it (core/records.py `resume`), and the bots go on as they would have
without the break.  They were made afresh from seed N, so each bot's generator started again
from its first draw: the random bot repeated its first choices, the search sampled its first
worlds again, and the resumed game went another way than the uninterrupted one.  The bots'
generators are saved with the game (the save's `session.bots`) and taken up on resuming."""

from __future__ import annotations

import io
import json

import pytest

from wasserspiele.cli.console import make_console
from wasserspiele.cli.play import PlaySession, generator_states
from wasserspiele.core.errors import BadOption


class Stop(KeyboardInterrupt):
    """Ctrl-C, pressed while a bot thinks its `n`th move of the game."""


def _session(tmp_path, **kw) -> PlaySession:
    args = dict(game_name=None, players=None, seats=None, seed=None, option_texts=(), save=None, resume=None,
                lang=None)
    args.update(kw)
    session = PlaySession.create(**args)
    session.console = make_console(file=io.StringIO(), width=100)
    return session


def _stop_at(session: PlaySession, n: int) -> None:
    """The game's `n`th bot move (counted over all bot seats, from 1) is interrupted before
    the bot draws anything for it."""
    asked = [0]
    for bot in session.bots.values():
        choose = bot.choose

        def interrupted(decision, choose=choose):
            asked[0] += 1
            if asked[0] == n:
                raise Stop
            return choose(decision)
        bot.choose = interrupted


GAMES = [("wasserloch", "random,heuristic,ismcts:iterations=25,rollout=heuristic", 12),
         ("watten", "easy,medium,ismcts:iterations=25,random", 9),
         ("seven_waters", "random,medium", 7),
         ("wildwasser", "random,medium,easy", 10)]


@pytest.mark.parametrize("game, seats, stop", GAMES, ids=[g for g, _, _ in GAMES])
def test_a_resumed_seeded_game_with_bots_goes_on_as_the_uninterrupted_one(tmp_path, game, seats, stop):
    whole = _session(tmp_path, game_name=game, seats=seats, seed=11)
    assert whole.run() == 0
    played = whole.state.record_actions()

    save = tmp_path / "g.json"
    first = _session(tmp_path, game_name=game, seats=seats, seed=11, save=str(save))
    _stop_at(first, stop)
    assert first.run() == 130
    kept = len(json.loads(save.read_text())["actions"])
    assert 0 < kept < len(played)

    rest = _session(tmp_path, seed=11, resume=str(save))
    assert rest.run() == 0
    assert rest.state.record_actions() == played


def test_a_save_with_another_seat_made_afresh_keeps_the_other_bots(tmp_path):
    """A seat given another bot on resuming (`--seats`) starts from the seed; the others go on."""
    save = tmp_path / "g.json"
    first = _session(tmp_path, game_name="wasserloch", seats="random,random,random", seed=3, save=str(save))
    _stop_at(first, 5)
    assert first.run() == 130
    saved = json.loads(save.read_text())["session"]["bots"]
    assert set(saved) == {"0", "1", "2"}
    rest = _session(tmp_path, seed=3, resume=str(save), seats="random,heuristic,random")
    afresh = _session(tmp_path, game_name="wasserloch", seats="random,heuristic,random", seed=3)
    assert [generator_states(rest.bots[s]) for s in (0, 2)] == [saved["0"], saved["2"]]
    assert generator_states(rest.bots[1]) == generator_states(afresh.bots[1]) != saved["1"]


@pytest.mark.parametrize("lang, said", [("en", "session.bots: not the bots' generators"),
                                        ("de", "session.bots: nicht die Zufallsgeneratoren der Bots")])
def test_a_save_whose_bot_generators_are_damaged_is_refused_naming_the_field(tmp_path, lang, said):
    save = tmp_path / "g.json"
    first = _session(tmp_path, game_name="wasserloch", seats="random,random,random", seed=3, save=str(save))
    _stop_at(first, 5)
    assert first.run() == 130
    doc = json.loads(save.read_text())
    doc["session"]["bots"]["1"] = ["not a generator"]
    doc["session"]["lang"] = lang
    save.write_text(json.dumps(doc))
    with pytest.raises(BadOption) as caught:
        _session(tmp_path, seed=3, resume=str(save))
    text = caught.value.reason.render(lang)
    assert said in text and str(save) in text, text
