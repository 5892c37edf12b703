"""Seven Waters views (what each seat may know) and sampled worlds."""

from __future__ import annotations

import json
import random

from wasserspiele import load
from wasserspiele.core.cards import card

from .helpers import make_deck, new_state

GAME = load("seven_waters")


def _played(seed: int, steps: int):
    s = GAME.new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_actions()))
    return s


def test_view_shows_own_hand_and_hides_the_opponents():
    s = new_state(hands=(["7H", "8H", "9H"], ["2S", "3S", "4S"]))
    v0, v1, spectator = s.view(0), s.view(1), s.view(None)
    assert v0["players"][0]["hand"] == ["7H", "8H", "9H"] and v0["players"][1]["hand"] is None
    assert v1["players"][1]["hand"] == ["2S", "3S", "4S"] and v1["players"][0]["hand"] is None
    assert spectator["players"][0]["hand"] is None and spectator["players"][1]["hand"] is None
    assert v0["players"][1]["hand_count"] == 3
    for v in (v0, v1, spectator):
        json.dumps(v)
        text = json.dumps(v["pyramid"])
        assert text.count("##") == 2 + 4 + 6


def test_view_never_names_a_hidden_card():
    for seed in range(6):
        s = _played(seed, 25 + seed * 7)
        for seat in (0, 1, None):
            text = json.dumps(s.view(seat))
            other = [1 - seat] if seat is not None else [0, 1]
            hidden = [c for p in other for c in s.hands[p] + s.discards[p]]
            hidden += [s.theme[p] for p in other if s.theme[p] is not None and not s.over]
            hidden += [c for i, c in enumerate(s.pyramid) if c is not None and not s.face_up(i)]
            # a hidden card may have been seen being taken; only cards never seen must not appear
            seen = {e[2] for e in _chain(s) if e[2] is not None} | {c for e in _chain(s) for c in e[3]}
            for c in hidden:
                if c not in seen:
                    assert f'"{c.name}"' not in text, (seed, seat, c)


def _chain(s):
    e = s.log
    while e is not None:
        yield e
        e = e[5]


def test_theme_is_revealed_when_the_game_is_over():
    s = new_state(hands=(["3H", "4H", "5H"], ()))
    s.apply("theme 3H")
    assert s.view(1)["players"][0]["theme"] is None
    s.over = True
    v = s.view(1)
    assert v["players"][0]["theme"] == "3H"
    assert v["scores"][0]["theme"] >= 1 and v["winners"]


def test_sample_world_keeps_the_view_and_redeals_the_unseen():
    changed = 0
    for seed in range(8):
        s = _played(seed, 10 + 6 * seed)
        for seat in (0, 1):
            for k in range(3):
                w = s.sample_world(seat, random.Random(k))
                assert w.view(seat) == s.view(seat)
                assert w.components() == s.components()
                opp = 1 - seat
                if w.theme[opp] is not None:
                    assert not w.theme[opp].is_joker
                changed += w.state_json() != s.state_json()
                # the sampled world plays on
                rng = random.Random(k)
                while not w.is_terminal():
                    w.apply(rng.choice(w.legal_actions()))
    assert changed > 30


def test_sample_world_keeps_cards_the_opponent_was_seen_to_take():
    s = new_state(pyramid={"7-1": "KS", "7-2": "QS"})
    s.apply("take 7-3")      # seat 0
    s.apply("take 7-1")      # seat 1 takes KS: seat 0 saw it
    s.apply("take 7-4")
    s.apply("take 7-2")      # and QS
    for k in range(10):
        w = s.sample_world(0, random.Random(k))
        assert card("KS") in w.hands[1] and card("QS") in w.hands[1]
        assert w.view(0) == s.view(0)


def test_sample_world_hides_the_true_secret_actions_from_the_history():
    s = new_state(hands=(["7H", "8H", "9H"], ["2S", "3S", "4S"]))
    s.apply("take 7-1")
    s.apply("discard 2S 3S")
    seen_true = 0
    for k in range(10):
        w = s.sample_world(0, random.Random(k))
        assert len(w.history) == len(s.history)
        assert [c.name for c in w.discards[1]] == [c.name for c in w.history[1][1].cards]
        seen_true += w.history[1] == s.history[1]
    assert seen_true < 10
    assert s.sample_world(0, random.Random(0)).chance.setup["deck"][0] is None


def test_components_are_all_54_cards_at_every_step():
    s = GAME.new_game(seed=2)
    first = s.components()
    assert len(first) == 54 and set(first.values()) == {1}
    rng = random.Random(2)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
        assert s.components() == first


def test_clone_is_independent():
    s = _played(4, 20)
    before = json.dumps(s.state_json())
    c = s.clone()
    rng = random.Random(1)
    while not c.is_terminal():
        c.apply(rng.choice(c.legal_actions()))
    assert json.dumps(s.state_json()) == before
    assert make_deck()  # the helper deck is a full deck


def test_sw_5_3_the_view_says_how_the_game_was_decided_only_at_the_end():
    """`decided_by` (SW-5.3: "points", "pool" or "draw") is the rules' own decision, in
    every seat's view once the game is over and in none while it runs (a running total's
    tie would say nothing yet)."""
    seen = set()
    for seed in range(4):
        s = GAME.new_game(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            assert all("decided_by" not in s.view(seat) for seat in (0, 1, None))
            s.apply(rng.choice(s.legal_actions()))
        views = [s.view(seat) for seat in (0, 1, None)]
        assert {v["decided_by"] for v in views} == {s.decision()[1]}
        assert all(v["winners"] == s.winners() for v in views)
        seen.add(views[0]["decided_by"])
    assert "points" in seen
