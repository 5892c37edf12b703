"""The search's CPU safety net (ISMCTSBot `cpu_seconds`) is logged once a bot (a bot plays one
game: the terminal, the lab's and the arena's runners make one a game), not at every search it
cuts short, which on a slow machine was a line per move; the bot counts the searches cut short
(`cut_short`).  The log record carries the message as a Reason, which an interface says in its
user's language through the catalogue (the English one is the log's)."""

from __future__ import annotations

import random

from wasserspiele import load
from wasserspiele.bots.base import decision_for
from wasserspiele.bots.ismcts import MAX_ITERATIONS, ISMCTSBot


def test_the_safety_net_is_logged_once_a_bot_and_its_searches_cut_short_counted(caplog):
    game = load("wasserloch", players=2, rounds=1)
    state = game.new_game(seed=4)
    bot = ISMCTSBot(seed=1, iterations=MAX_ITERATIONS, cpu_seconds=0.01, game=game)
    rng = random.Random(4)
    searched = 0
    with caplog.at_level("WARNING", logger="wasserspiele.bots.ismcts"):
        while not state.is_terminal() and searched < 4:
            seat = state.current_seat
            legal = state.legal_actions(seat)
            if seat == 0 and len(legal) > 1:
                state.apply(bot.choose(decision_for(state, seat)), seat)
                assert bot.last_stop == "cpu_seconds"
                searched += 1
            else:
                state.apply(rng.choice(legal), seat)
    assert searched == 4
    nets = [r for r in caplog.records if "safety net" in r.getMessage()]
    assert len(nets) == 1, [r.getMessage() for r in nets]
    assert bot.cut_short == 4
    reason = nets[0].reason
    assert reason.render("en") == nets[0].getMessage()
    german = reason.render("de")
    assert "Sicherheitsnetz" in german and "0,01" in german, german
