"""Notation, record setups, record round trips, views and sampled worlds."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from wasserspiele import load
from wasserspiele.core.errors import BadNotation, BadRecord, ChanceExhausted, IllegalAction, ReplayError
from wasserspiele.core.records import replay

from .helpers import TILES, new, picks


def playout(players=4, seed=0, policy=0, in_order=True, stop=None, **options):
    game = load("wildwasser", players=players, **options)
    s = game.new_game(seed=seed)
    rng = random.Random(policy)
    while not s.is_terminal() and (stop is None or len(s.history) < stop):
        seat = s.to_move()[0] if in_order else rng.choice(s.to_move())
        s.apply(rng.choice(s.legal_actions(seat)), seat)
    return s


# -- notation ------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "canonical"), [
    ("pick zebra", "pick zebra"), ("  PICK   Zebra ", "pick zebra"), ("move", "move"),
    ("Move Rhino", "move rhino"), ("action", "action"), ("action 2", "action 2"),
    ("sun turtle", "sun turtle"), ("marker 0", "marker 0"),
])
def test_notation_parses_to_canonical(text, canonical):
    a = load("wildwasser").parse_action(text)
    assert str(a) == canonical and a is load("wildwasser").parse_action(canonical)


@pytest.mark.parametrize(("text", "why"), [
    ("", "not a Wildwasser action"), ("jump", "not a Wildwasser action"),
    ("pick lion", "'lion' is not an animal"), ("pick", "pick needs an animal"),
    ("marker x", "not a player"), ("action 9", "not a player"),
    ("move zebra rhino", "not a Wildwasser action"), ("sun", "sun needs an animal"),
])
def test_bad_notation_says_what_is_wrong(text, why):
    with pytest.raises(BadNotation, match=why):
        load("wildwasser").parse_action(text)


def test_illegal_actions_raise_with_a_reason():
    s = new(2)
    with pytest.raises(IllegalAction, match="first picks a card face down"):
        s.apply("action 1", 0)
    picks(s, "cheetah", "rhino")
    with pytest.raises(IllegalAction, match="all cards are picked"):
        s.apply("pick zebra")
    with pytest.raises(IllegalAction, match="there is no player E"):
        s.apply("action 4")
    with pytest.raises(IllegalAction, match="no sun choice is due"):
        s.apply("sun zebra")
    with pytest.raises(IllegalAction, match="not seat 1's turn"):
        s.apply("move", 1)


# -- setup -----------------------------------------------------------------------------
@pytest.mark.parametrize(("setup", "field"), [
    ({"tiles": TILES[:23]}, "setup.tiles: has 23 tiles"),
    ({"tiles": TILES[:23] + ["T01"]}, "setup.tiles[23]: T01 appears twice"),
    ({"tiles": TILES[:23] + ["T25"]}, "setup.tiles[23]: unknown tile 'T25'"),
    ({"tiles": ["T00"] + TILES[1:]}, "setup.tiles[0]: T00 is the start tile"),
    ({"tiles": [1] + TILES[1:]}, "setup.tiles[0]: 1 is not a tile id"),
    ({"tiles": "T01"}, "setup.tiles: must be a list"),
    ({}, "setup.tiles: missing"),
    ({"tiles": TILES, "dice": ["3", 4]}, "setup.dice[1]: 4 is not a die face"),
    ({"tiles": TILES, "dice": ["moon"]}, "setup.dice[0]: 'moon' is not a die face"),
    ({"tiles": TILES, "dice": "3"}, "setup.dice: must be a list"),
    ({"tiles": TILES, "decks": []}, "setup.decks: unknown field"),
])
def test_record_setup_errors_name_the_field(setup, field):
    with pytest.raises(BadRecord) as err:
        load("wildwasser").new_game(setup=setup)
    assert field in str(err.value)


def test_record_setup_shape_is_a_flat_tile_list_and_die_faces():
    s = playout(seed=5)
    setup = s.record()["setup"]
    assert sorted(setup["tiles"]) == TILES
    assert all(d in ("1", "2", "3", "4", "5", "sun") for d in setup["dice"])
    assert set(setup) <= {"tiles", "dice"}


def test_strict_replay_without_enough_dice_is_refused():
    s = new(2)
    picks(s, "rhino", "rhino")
    with pytest.raises(ChanceExhausted, match="setup.dice"):
        s.apply("action")


# -- records ----------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 4, 6])
def test_record_round_trip_of_whole_games(players):
    for seed in range(3):
        s = playout(players, seed, seed, river_flow="back" if seed == 1 else "forward")
        doc = json.loads(json.dumps(s.record()))
        again = replay(doc)
        assert again.is_terminal() and again.state_json() == s.state_json()
        assert again.winners() == s.winners()


def test_record_round_trip_at_every_prefix_with_picks_in_any_order():
    s = playout(3, 2, 2, in_order=False)
    doc = s.record()
    for k in range(0, len(doc["actions"]), 7):
        part = dict(doc, actions=doc["actions"][:k])
        assert replay(part).state_json() == playout(3, 2, 2, in_order=False, stop=k).state_json()


def test_record_keeps_picks_in_the_order_taken_with_their_seats():
    s = new(3)
    s.apply("pick turtle", 2)
    s.apply("pick zebra", 0)
    s.apply("pick rhino", 1)  # the last picker has the table alone: no prefix needed
    assert s.record_actions() == ["2: pick turtle", "0: pick zebra", "pick rhino"]
    assert [seat for seat, _, _ in s.history] == [2, 0, 1]
    assert replay(s.record()).state_json() == s.state_json()


def test_record_in_a_pick_phase_keeps_every_pick_taken_out_of_seat_order():
    s = new(3)
    s.apply("pick turtle", 2)
    s.apply("pick zebra", 0)
    assert s.record_actions() == ["2: pick turtle", "0: pick zebra"]
    back = replay(json.loads(json.dumps(s.record())))
    assert back.to_move() == (1,) and back.committed() == s.committed()
    assert back.state_json() == s.state_json()
    back.apply("pick rhino", 1)
    s.apply("pick rhino", 1)
    assert back.state_json() == s.state_json()


def test_records_without_seat_prefixes_still_replay():
    s = new(3)
    for text in ("pick zebra", "pick rhino", "pick turtle"):
        s.apply(text)
    old = dict(s.record(), actions=["pick zebra", "pick rhino", "pick turtle"])
    assert replay(old).state_json() == s.state_json()


def test_a_prefix_naming_a_seat_that_is_not_pending_is_an_illegal_action():
    s = new(3)
    s.apply("pick zebra", 0)
    doc = dict(s.record(), actions=["0: pick zebra", "0: pick rhino"])
    with pytest.raises(ReplayError) as err:
        replay(doc)
    # WW-3.1: seat 0 picked this round's card already, and is told so (it said "not seat 0's turn")
    assert err.value.index == 1 and err.value.seat == 0 and err.value.reason.code == "wildwasser.already_picked"


def test_committed_picks_are_hidden_commitments_until_revealed():
    s = new(3)
    s.apply("pick turtle", 2)
    assert s.simultaneous() and s.committed() == {2: load("wildwasser").parse_action("pick turtle")}
    assert s.view(0)["seats"][2]["pick"] is None and s.view(2)["seats"][2]["pick"] == "turtle"
    s.apply("pick zebra", 0)
    s.apply("pick rhino", 1)
    assert not s.committed()  # revealed: the phase is over


def test_record_of_out_of_order_picks_replays_exactly_once_the_phase_is_complete():
    s = playout(4, 3, 3, in_order=False)
    assert replay(json.loads(json.dumps(s.record()))).state_json() == s.state_json()


# -- views and sampled worlds ------------------------------------------------------------
def test_view_hides_picks_stack_order_and_removed_tiles():
    s = new(4)
    s.apply("pick zebra", 1)
    v = s.view(0)
    text = json.dumps(v)
    assert v["seats"][1]["picked"] and v["seats"][1]["pick"] is None and v["seats"][1]["hand"] is None
    assert v["seats"][1]["unrevealed"] == ["cheetah", "zebra", "rhino", "meerkat", "turtle"]
    assert v["stack"] == 16 and v["removed"] == 4
    assert "T01" not in text and "T24" not in text  # removed tiles and the stack stay hidden
    assert s.view(1)["seats"][1]["pick"] == "zebra"
    assert all(e["event"] != "pick" or "card" not in e for e in v["log"])


def test_WW_3_1_views_built_together_show_each_face_down_pick_to_its_seat_alone():
    s = new(4)
    s.apply("pick zebra", 1)
    s.apply("pick turtle", 3)
    picked = {1: "zebra", 3: "turtle"}
    views = s.views([None, 0, 1, 2, 3])
    for seat, v in views.items():
        assert v == s.view(seat) and v["seat"] == seat
        picks_seen = {e["seat"]: e["pick"] for e in v["seats"] if e["pick"] is not None}
        hands_seen = {e["seat"] for e in v["seats"] if e["hand"] is not None}
        assert picks_seen == ({seat: picked[seat]} if seat in picked else {})
        assert hands_seen == {0, 2} | ({seat} if seat in picked else set())
    # the public part is built once: the same objects in every seat's view
    assert views[0]["track"] is views[1]["track"] and views[0]["log"] is views[3]["log"]
    assert views[0]["seats"][0] is views[2]["seats"][0]  # a seat without a pick looks the same to all


def test_sample_world_redeals_hidden_parts_and_blinds_chance():
    s = new(4)
    for seat in (1, 2, 3):
        s.apply("pick cheetah", seat)
    seen = set()
    for k in range(30):
        w = s.sample_world(0, random.Random(k))
        assert w.view(0) == s.view(0)
        assert w.components() == s.components()
        seen.add((tuple(w.pick), tuple(w.stack)))
        assert all(x is None for x in w.chance.setup["tiles"])
        assert [str(a) for a in w.actions()] == [f"pick {['cheetah', 'zebra', 'rhino', 'meerkat', 'turtle'][w.pick[st]]}"
                                               for st in (1, 2, 3)]
    assert len(seen) > 20


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), policy=st.integers(0, 2**32), cut=st.floats(0, 1), players=st.integers(2, 6))
def test_property_views_survive_sampling_and_components_are_conserved(seed, policy, cut, players):
    full = playout(players, seed, policy, in_order=False)
    start = new(players).components()
    s = playout(players, seed, policy, in_order=False, stop=int(cut * len(full.history)))
    assert s.components() == start
    for seat in range(players):
        w = s.sample_world(seat, random.Random(seed))
        assert w.view(seat) == s.view(seat)
        json.dumps(s.view(seat))
    assert s.sample_world(0, random.Random(1)).view(None) == s.view(None)
