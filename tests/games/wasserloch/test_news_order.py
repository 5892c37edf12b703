"""Wasserloch in the terminal: "what happened since your last move" across a round's end.

A round's end breaks the seats' order round the table (WL-5.2: any seat's emptied hand
ends the round, and the next round's start player moves one seat on, WL-5.5): the news
worked out from that order told a play made before the player's own move, and a view that
kept one play per seat lost a seat's round-ending play once it played again first in the
next round.  The expected news here comes from the game's history, not from the view."""

from __future__ import annotations

import random
import re

import pytest

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


def expected_news(history, rounds, seat, current_round) -> tuple[list[tuple], bool, bool]:
    """Every play made since `seat`'s own last play, in play order, with the note of a
    new round placed between the last round's plays and this round's; whether an older
    play of another seat, from before the seat's own, is still some seat's last play with
    a newer round begun (the case the seat order got wrong); and whether a seat played
    twice since (the case one play per seat lost)."""
    latest = {s: k for k, (s, _a, _t) in enumerate(history)}
    mine = latest.get(seat, -1)
    plays = range(mine + 1, len(history))
    since = rounds[mine] if mine >= 0 else current_round
    items = [(history[k][0], str(history[k][1])) for k in plays if rounds[k] < current_round]
    if since < current_round:
        items.append(("round", current_round))
    items += [(history[k][0], str(history[k][1])) for k in plays if rounds[k] == current_round]
    stale = mine >= 0 and since < current_round and any(k < mine for s, k in latest.items() if s != seat)
    seats = [history[k][0] for k in plays]
    return items, stale, len(set(seats)) < len(seats)


def test_wl_5_2_the_news_since_your_move_tells_no_play_made_before_it():
    """Every turn of seeded random games of 2, 3 and 4 players over three rounds: the
    seat to move is told exactly the plays made after its own last play, every one of
    them, in the order they were made (WL-3.3), the end of the last round's first (WL-5.2)."""
    crossings = twice = 0
    for players in (2, 3, 4):
        game = load("wasserloch", players=players, rounds=3)
        for seed in range(6):
            state = game.new_game(seed=seed)
            rng = random.Random(seed)
            rounds: list[int] = []   # the round of each play in state.history
            while not state.is_terminal():
                seat = state.current_seat
                view = state.view(seat)
                expected, stale, again = expected_news(state.history, rounds, seat, view["round"])
                assert told(view) == expected, (players, seed, len(state.history), seat, view["last"])
                crossings += stale and players == 4
                twice += again and players > 2
                rounds.append(view["round"])
                state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert crossings > 0 and twice > 0  # both cases were met


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


def _play_until(players: int, found, seeds=range(40)):
    """Seeded random games (three rounds) played until `found(state, rounds)` holds for the
    seat to move; `rounds` is the round of each play in the history.  The state, rounds."""
    game = load("wasserloch", players=players, rounds=3)
    for seed in seeds:
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        rounds: list[int] = []
        while not state.is_terminal():
            if found(state, rounds):
                return state, rounds
            rounds.append(state.round + 1)
            seat = state.current_seat
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    raise AssertionError(f"no seeded game of {players} players met the position")


def _played_twice_across_a_round_s_end(state, rounds):
    """A seat played the round's last play and then again in the new round, both since
    the seat to move last played (WL-5.2, WL-5.5)."""
    history, me = state.history, state.current_seat
    mine = max((k for k, (s, _a, _t) in enumerate(history) if s == me), default=None)
    if mine is None:
        return False
    since = range(mine + 1, len(history))
    return any(history[a][0] == history[b][0] and rounds[a] < rounds[b] for a in since for b in since if a < b)


@pytest.mark.parametrize("players", [3, 4])
def test_wl_5_2_wl_5_5_a_seat_that_ends_a_round_and_begins_the_next_is_told_with_both_plays(players):
    """A seat empties its hand and ends the round (WL-5.2); the next round's start player
    is one seat on (WL-5.5), so that seat plays again before the seat to move has its
    turn (four seats: seat 2 ends round 2, round 3 begins at seat 1 or 2, seat 2 plays
    before seat 0).  The view kept one play per seat: its round-ending play was replaced,
    and the news told only the second."""
    state, rounds = _play_until(players, _played_twice_across_a_round_s_end)
    me = state.current_seat
    view = state.view(me)
    expected, _stale, again = expected_news(state.history, rounds, me, view["round"])
    assert again
    news = told(view)
    assert news == expected, (news, expected)
    note = news.index(("round", view["round"]))
    seats = [item[0] for item in news]
    twice = {x for x in seats if x != "round" and seats.count(x) == 2}
    assert twice and all(seats.index(x) < note < len(seats) - 1 - seats[::-1].index(x) for x in twice), news


def test_wl_3_3_the_view_keeps_every_play_since_each_seat_s_turn_in_order():
    """Seeded games of 3 and 4 players: every view and the spectator's hold the same
    `recent` plays: the match's plays in the order made, from the oldest of the seats'
    last plays on (so every play since any seat's previous turn, a seat's two plays
    across a round's end both, WL-5.2, WL-5.5), each with its seat, play, round, number
    in the match and what it took as it was when made; `last` is each seat's newest."""
    checked_twice = 0
    for players in (3, 4):
        game = load("wasserloch", players=players, rounds=3)
        for seed in range(3):
            state = game.new_game(seed=seed)
            rng = random.Random(seed)
            made: list[dict] = []   # each play as the view told it right after it was made
            while not state.is_terminal():
                seat = state.current_seat
                before = state.totals()
                round_ = state.round + 1
                state.apply(rng.choice(state.legal_actions(seat)), seat)
                views = [state.view(s) for s in (*range(players), None)]
                newest = views[-1]["recent"][-1]
                _s, action, _t = state.history[-1]
                assert newest == {**newest, "seat": seat, "play": str(action), "round": round_,
                                  "move": len(state.history), "loot": state.totals()[seat] - before[seat]}
                made.append(newest)
                latest = {s: k for k, (s, _a, _t) in enumerate(state.history)}
                first = min(latest.values())
                for view in views:
                    assert view["recent"] == made[first:]
                    assert view["last"] == [None if s not in latest else made[latest[s]] for s in range(players)]
                    assert len(view["recent"]) <= 2 * players - 1
                seats = [e["seat"] for e in views[-1]["recent"]]
                checked_twice += len(set(seats)) < len(seats)
    assert checked_twice > 0


def test_wl_3_3_clones_and_sampled_worlds_keep_the_recent_plays_apart():
    """WL-3.3: a clone's plays do not reach the original's recent plays, and a world
    sampled for the seat to move shows it the same plays, whose own plays stay its own."""
    state, _rounds = _play_until(4, lambda s, r: len(s.history) >= 9, seeds=[1])
    seat = state.current_seat
    view = state.view(None)
    clone = state.clone()
    clone.apply(clone.legal_actions(seat)[0], seat)
    assert state.view(None) == view and clone.view(None)["recent"][-1]["move"] == len(state.history) + 1
    world = state.sample_world(seat, random.Random(3))
    assert world.view(seat)["recent"] == state.view(seat)["recent"]
    world.apply(world.legal_actions(seat)[0], seat)
    assert state.view(None) == view
