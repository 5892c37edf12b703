"""The renderer draws every view in both languages without leaking picks; the heuristic bot
plays legal actions from views only and beats random play."""

from __future__ import annotations

import random

from wasserspiele import load
from wasserspiele.bots.base import decision_for
from wasserspiele.games.wildwasser.heuristic import HeuristicBot
from wasserspiele.bots.match import play_game
from wasserspiele.bots.runner import seat_rotated_win_rate
from wasserspiele.bots.random_bot import RandomBot
from wasserspiele.cli.render import renderer

from .helpers import new, put


def test_render_view_result_and_last_events_in_both_languages():
    r = renderer("wildwasser")
    game = load("wildwasser", players=3)
    s = game.new_game(seed=4)
    rng = random.Random(4)
    step = 0
    while not s.is_terminal():
        if step % 17 == 0:
            for lang in ("en", "de"):
                for seat in (0, 1, None):
                    text = r.render_view(s.view(seat), lang)
                    assert "FINISH" in text or "ZIEL" in text
                    r.describe_last(s.view(seat), lang)
        seat = s.current_seat
        s.apply(rng.choice(s.legal_actions(seat)), seat)
        step += 1
    for lang in ("en", "de"):
        assert ("Winner" if lang == "en" else "Sieg") in r.render_result(s.view(None), lang)


def test_render_shows_only_the_own_pick():
    r = renderer("wildwasser")
    s = new(2)
    s.apply("pick turtle", 1)
    assert "your pick: turtle" in r.render_view(s.view(1))
    assert "your pick" not in r.render_view(s.view(0)) and "picked (face down)" in r.render_view(s.view(0))
    put(s, 0, "zebra", 5)
    assert "A" in r.render_view(s.view(None)) and "Crossing 1 · slot 1 · start tile (red arrow)" in r.render_view(s.view(None))


def test_heuristic_bot_plays_legal_actions_from_views():
    game = load("wildwasser", players=4)
    result = play_game(game, [HeuristicBot(1), RandomBot(2), HeuristicBot(3), RandomBot(4)], seed=9)
    assert result.state.is_terminal()


def test_heuristic_bot_takes_a_finishing_move_and_pushes_opponents_over_the_waterfall():
    s = new(2)
    put(s, 1, "rhino", 33)
    put(s, 1, "cheetah", 34)
    s.apply("pick zebra", 0)
    s.apply("pick turtle", 1)
    assert str(HeuristicBot(0).choose(decision_for(s, 0))) == "action"  # push two of them away
    t = new(2)
    put(t, 0, "zebra", 35)
    t.apply("pick zebra", 0)
    t.apply("pick turtle", 1)
    assert str(HeuristicBot(0).choose(decision_for(t, 0))) == "move"


def test_heuristic_bot_beats_random_bots():
    game = load("wildwasser", players=2)
    rate, games = seat_rotated_win_rate(game, lambda s: HeuristicBot(s), lambda s: RandomBot(s), 20, seed=1)
    assert rate > 0.6
