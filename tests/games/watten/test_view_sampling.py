"""What a seat may know (view) and worlds consistent with it (sample_world)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings, strategies as st

from wasserspiele import load
from wasserspiele.games.watten.actions import CARD_ID, SUIT_OF

from .helpers import new, play, start


def test_view_hides_other_hands_and_the_unused_cards():
    state = load("watten").new_game(seed=4)
    text = json.dumps(state.view(0))
    mine = set(state.view(0)["hand"])
    hidden = {str(n) for n in state.state_json()["unused"]} | {
        str(c) for s in (1, 2, 3) for c in state.state_json()["hands"][s]}
    for name in hidden:
        assert f'"{name}"' not in text
    assert len(mine) == 5 and state.view(0)["hand_sizes"] == [5, 5, 5, 5]
    assert state.view(None)["hand"] == []


def test_view_is_json_and_shows_the_trick_in_progress_and_the_log():
    state = start({3: "7C 9S TS QS KS", 0: "8C AH 9D KD 8D"})
    play(state, "7C", "8C")
    v = state.view(1)
    json.dumps(v)
    assert v["trick"] == [[3, "7C"], [0, "8C"]] and v["leader"] == 3 and v["to_move"] == [1]
    assert {"event": "play", "seat": 0, "card": "8C"} in v["log"]
    assert {"event": "trump", "seat": 3, "suit": "H"} in v["log"]


def test_view_two_states_differing_in_hidden_cards_look_the_same():
    a = new({0: "JC 8C AH 9D KD", 3: "7C 9S TS QS KS"})
    b = new({0: "KD 9D AH 8C JC", 3: "AS AD 7D 8S 8H"})
    play(a, "trump H", "signal strong")
    play(b, "trump H", "signal weak")
    assert a.view(0) == b.view(0) and a.view(None) == b.view(None)
    assert a.view(3) != b.view(3)


def test_sample_world_keeps_the_view_and_re_deals_the_rest():
    state = start({3: "7C 9S TS QS KS"})
    differs = 0
    for k in range(20):
        world = state.sample_world(0, random.Random(k))
        assert world.view(0) == state.view(0)
        assert world.components() == state.components()
        assert [len(h) for h in world.hands] == [5, 5, 5, 5]
        differs += world.hands[3] != state.hands[3]
    assert differs > 15


def test_sample_world_blinds_the_future_deals():
    state = start({})
    world = state.sample_world(1, random.Random(0))
    assert world.chance.setup["deals"] == [None]
    while world.view(None)["hand_no"] == 1:
        world.apply(world.legal_actions()[0])
    assert world.chance.setup["deals"][1] is not None


def test_sample_world_respects_revealed_voids_jacks_are_trump():
    """A player who did not follow holds none of the led suit (its jack excluded)."""
    state = start({3: "7C JD 8S 9S TS", 0: "AH 9D KD 8D QS", 1: "8C QH KH AC 7S", 2: "9C TC QC KC 7H"})
    play(state, "7C", "AH")  # seat 0 shows: no clubs (the club jack is trump, so it may hold it)
    play(state, "8C", "9C")  # seats 1 and 2 follow; seat 0's trump wins
    assert state.tricks[-1][2] == 0
    play(state, "KD")  # seat 0 leads a diamond; seat 1 holds none → void in diamonds
    play(state, "7S")
    assert state.view(None)["voids"][0] == ["C"] and state.view(None)["voids"][1] == ["D"]
    jc_seen_at_0 = False
    for k in range(200):
        world = state.sample_world(2, random.Random(k))
        assert world.view(2) == state.view(2)
        for c in world.hands[0]:
            assert not (SUIT_OF[c] == 0 and c != CARD_ID["JC"]), "seat 0 was dealt a club"
            jc_seen_at_0 |= c == CARD_ID["JC"]
        for c in world.hands[1]:
            assert not (SUIT_OF[c] == 3 and c != CARD_ID["JD"]), "seat 1 was dealt a diamond"
    assert jc_seen_at_0


def test_sample_world_trump_void_excludes_all_jacks():
    state = start({3: "JH 7C 8C 9C TC", 0: "AC QC KC AD 7S", 1: "8S 9S TS QS KS"})
    play(state, "JH", "AC")  # seat 0 cannot follow trump: no hearts and no jacks
    for k in range(100):
        world = state.sample_world(1, random.Random(k))
        for c in world.hands[0]:
            assert SUIT_OF[c] != 2 and c not in (CARD_ID["JC"], CARD_ID["JS"], CARD_ID["JD"])


def test_sample_world_succeeds_when_voids_leave_only_one_deal():
    # seat 1 and seat 2 void in everything but one suit each: tight constraints
    state = start({3: "JH JC JS JD AH", 0: "7C 8C 9C TC QC", 1: "7S 8S 9S TS QS", 2: "7D 8D 9D TD QD"})
    play(state, "JH", "7C", "7S", "7D")  # 0, 1, 2 void in trump
    play(state, "JC", "8C", "8S", "8D")
    play(state, "AH", "9C", "9S", "9D")  # seats 0, 1, 2 are void in trump; 2 cards each left
    for k in range(30):
        world = state.sample_world(3, random.Random(k))
        assert world.view(3) == state.view(3)


def test_sample_world_hides_opponents_signals_even_in_history():
    state = new({})
    play(state, "trump H", "signal strong", "signal weak", "signal medium", "signal none")
    seen_levels = set()
    for k in range(30):
        world = state.sample_world(0, random.Random(k))  # seat 0: partner 2, opponents 1 and 3
        assert world.view(0) == state.view(0)
        assert str(world.history[2][1]) == "signal weak" and str(world.history[4][1]) == "signal none"
        seen_levels.add(str(world.history[1][1]))
    assert len(seen_levels) > 1  # seat 3's strong signal is not known to seat 0


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), cut=st.integers(0, 40), seat=st.integers(0, 3))
def test_property_sampled_worlds_keep_the_view_under_any_options(seed, cut, seat):
    rng = random.Random(seed)
    game = load("watten", raising=True, follow=rng.choice(["all", "trump_only"]),
                signals=rng.choice(["partner", "public", "off"]), signal_detection_p=0.1,
                jack_order=rng.choice(["skat", "first_played"]))
    state = game.new_game(seed=seed)
    for _ in range(cut):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    world = state.sample_world(seat, random.Random(seed + 1))
    assert world.view(seat) == state.view(seat)
    assert world.view(None) == state.view(None)
    assert world.components() == state.components()


def test_constrained_deal_finds_the_only_consistent_deal():
    """When random dealing almost never fits, the matching step still finds a deal."""
    from wasserspiele.games.watten.view import _deal_constrained
    unseen = list(range(27))
    only = {1: set(range(0, 5)), 2: set(range(5, 10)), 3: set(range(10, 27))}
    for k in range(20):
        dealt = _deal_constrained(unseen, {1: 5, 2: 5, 3: 5}, lambda o, c: c in only[o], random.Random(k))
        assert dealt is not None
        assert set(dealt[1]) == only[1] and set(dealt[2]) == only[2] and set(dealt[3]) <= only[3]
    assert _deal_constrained(unseen, {1: 6, 2: 5}, lambda o, c: c in only[o], random.Random(0)) is None
