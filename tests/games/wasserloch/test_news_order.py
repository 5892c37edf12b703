"""Wasserloch in the terminal: "what happened since your last move" across a round's end.

The view keeps one play per seat.  Its news was worked out from the seats' order round
the table, which a round's end breaks (WL-5.2: any seat's emptied hand ends the round,
and the next round's start player moves one seat on, WL-5.5): in a four-player game a
play made before the player's own move was told as news.  The expected news here comes
from the game's history, not from the view."""

from __future__ import annotations

import random
import re

from wasserspiele import load
from wasserspiele.games.wasserloch.render import describe_last

PLAY = re.compile(r"^Seat (\d) played (\S+?)(?: and drove off .*)?$")
ROUND = re.compile(r"^Round (\d) begins; seat (\d) starts$")


def told(view) -> list[tuple]:
    """The news as (seat, play) and ("round", n) items."""
    out: list[tuple] = []
    for line in describe_last(view, "en").splitlines():
        play, new_round = PLAY.match(line), ROUND.match(line)
        assert play or new_round, line
        out.append((int(play[1]), play[2]) if play else ("round", int(new_round[1])))
    return out


def expected_news(history, rounds, seat, current_round) -> tuple[list[tuple], bool]:
    """The plays made since `seat`'s own last play that are still the last plays of their
    seats (the view keeps one a seat), in play order, with the note of a new round placed
    between the last round's plays and this round's; and whether an older play of another
    seat, from before the seat's own, is still in the view with a newer round begun (the
    case the seat order got wrong)."""
    latest = {s: k for k, (s, _a, _t) in enumerate(history)}
    mine = latest.get(seat, -1)
    plays = [k for k in range(mine + 1, len(history)) if latest[history[k][0]] == k]
    since = rounds[mine] if mine >= 0 else current_round
    items = [(history[k][0], str(history[k][1])) for k in plays if rounds[k] < current_round]
    if since < current_round:
        items.append(("round", current_round))
    items += [(history[k][0], str(history[k][1])) for k in plays if rounds[k] == current_round]
    stale = mine >= 0 and since < current_round and any(k < mine for s, k in latest.items() if s != seat)
    return items, stale


def test_wl_5_2_the_news_since_your_move_tells_no_play_made_before_it():
    """Every turn of seeded random games of 2, 3 and 4 players over three rounds: the
    seat to move is told exactly the plays made after its own last play, in the order
    they were made (WL-3.3), the end of the last round's first (WL-5.2)."""
    crossings = 0
    for players in (2, 3, 4):
        game = load("wasserloch", players=players, rounds=3)
        for seed in range(6):
            state = game.new_game(seed=seed)
            rng = random.Random(seed)
            rounds: list[int] = []   # the round of each play in state.history
            while not state.is_terminal():
                seat = state.current_seat
                view = state.view(seat)
                expected, stale = expected_news(state.history, rounds, seat, view["round"])
                assert told(view) == expected, (players, seed, len(state.history), seat, view["last"])
                crossings += stale and players == 4
                rounds.append(view["round"])
                state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert crossings > 0  # the four-player case of the report was met


def test_wl_5_2_a_play_before_yours_from_the_round_that_ended_is_no_news():
    """The case found last session, four seats: seat 3 plays in round 2 (started by seat
    1), seat 0 then empties its hand and ends the round; round 3 starts at seat 2, who
    plays; now seat 3 is to move.  Seat 1's round-2 play came before seat 3's own and was
    told as news."""
    game = load("wasserloch", players=4, rounds=3)
    for seed in range(200):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        rounds: list[int] = []
        while not state.is_terminal():
            seat = state.current_seat
            view = state.view(seat)
            history = state.history
            if (view["round"] == 3 and seat == 3 and len(history) >= 3 and rounds[-1] == 3
                    and [s for s, _a, _t in history[-3:]] == [3, 0, 2] and rounds[-3:-1] == [2, 2]):
                news = told(view)
                seat_1 = view["last"][1]
                assert seat_1["round"] == 2 and (1, seat_1["play"]) not in news, news
                assert news == [(0, str(history[-2][1])), ("round", 3), (2, str(history[-1][1]))], news
                return
            rounds.append(view["round"])
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    raise AssertionError("no seeded game of 200 met the position")


def test_wl_3_3_every_seat_and_a_spectator_see_the_same_play_numbers():
    """The order of the last plays is public: each `last` entry's `move` is the number of
    that seat's last play in the match (1: the first play), the same in every seat's view
    and the spectator's; the rest of the view's public part is as before."""
    game = load("wasserloch", players=4, rounds=2)
    state = game.new_game(seed=1)
    rng = random.Random(1)
    while not state.is_terminal():
        latest = {s: k + 1 for k, (s, _a, _t) in enumerate(state.history)}
        views = [state.view(s) for s in (*range(game.players), None)]
        for view in views:
            assert [None if e is None else e["move"] for e in view["last"]] == \
                [latest.get(s) for s in range(game.players)]
            assert view["last"] == views[-1]["last"]
        seat = state.current_seat
        state.apply(rng.choice(state.legal_actions(seat)), seat)
