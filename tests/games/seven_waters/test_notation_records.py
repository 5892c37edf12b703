"""Seven Waters notation, setups and records."""

from __future__ import annotations

import json
import random

import pytest

from wasserspiele import load
from wasserspiele.core.errors import BadNotation, BadRecord, IllegalAction, ReplayError
from wasserspiele.core.records import replay, summary

from .helpers import make_deck

GAME = load("seven_waters")


@pytest.mark.parametrize("text", [
    "take 7-3", "slide 2 KD AC", "slide 2 KD X1=1", "slide 4 X1=10 X2=9 2C", "river 8S 9S X1=T",
    "pool 7H X2=H", "pool 7H 2H X1=H", "theme 3H", "discard 4S X2", "pass", "river X1=A",
])
def test_spec_notation_examples_are_canonical(text):
    assert str(GAME.parse_action(text)) == text
    assert str(GAME.parse_action("  " + text.upper().replace(" ", "   ") + " ")) == text


@pytest.mark.parametrize("text,canonical", [
    ("TAKE 7 - 3", "take 7-3"),
    ("slide 2 kd 10c", "slide 2 KD TC"),
    ("slide 1 x1=t", "slide 1 X1=10"),
    ("river 9s 8s x1=10", "river 8S 9S X1=T"),
    ("river X2=q jd", "river JD X2=Q"),
    ("discard X2 4S", "discard X2 4S"),  # the order the player gave
])
def test_input_is_tolerant_and_output_canonical(text, canonical):
    assert str(GAME.parse_action(text)) == canonical


@pytest.mark.parametrize("text,words", [
    ("", "empty"),
    ("jump 7-3", "unknown action"),
    ("take 8-1", "rows 1-7"),
    ("take 3-4", "columns 1-R"),
    ("take 7", "ROW-COLUMN"),
    ("slide 5 KD", "line 1-4"),
    ("slide 2", "line 1-4"),
    ("slide 2 KD X1", "must say what it stands for"),
    ("slide 2 KD X1=11", "value 1-10"),
    ("slide 2 KD=3", "only a joker"),
    ("river 8S X1=Z", "rank"),
    ("pool 7H X2=R", "suit"),
    ("pool", "name the pool cards"),
    ("theme", "theme CARD"),
    ("theme X1=H", "no declaration"),
    ("discard", "name the cards"),
    ("discard 4S X2=3", "no declaration"),
    ("discard 1S", "not a card"),
    ("pass now", "nothing after"),
])
def test_bad_notation_says_what_is_wrong(text, words):
    with pytest.raises(BadNotation) as err:
        GAME.parse_action(text)
    assert words in str(err.value)


def test_illegal_action_raises_with_a_plain_reason():
    s = GAME.new_game(setup={"deck": make_deck(hands=(["7H", "2C", "3C"], ()))})
    with pytest.raises(IllegalAction) as err:
        s.apply("discard 7H 7S")
    assert err.value.reason == "7♠ is not in hand"
    assert err.value.reason.code == "seven_waters.not_held" and err.value.reason.params == {"card": "7S"}
    with pytest.raises(IllegalAction) as err:
        s.apply("river 2C 2C")
    assert "named twice" in err.value.reason
    assert s.why_illegal("take 1-1").startswith("the pyramid card at 1-1 is not free")


def test_setup_deck_is_dealt_as_the_spec_says():
    deck = make_deck(pyramid={"1-1": "KD", "7-7": "X1"}, hands=(["7H", "8H", "9H"], ["2S", "3S", "4S"]))
    s = GAME.new_game(setup={"deck": deck})
    assert s.pyramid[0].name == "KD" and s.pyramid[27].name == "X1"
    assert [c.name for c in s.lines[0][0]] == [deck[28]]
    assert [c.name for c in s.lines[1][3]] == deck[44:48]
    assert [c.name for c in s.hands[0]] == ["7H", "8H", "9H"]
    assert [c.name for c in s.hands[1]] == ["2S", "3S", "4S"]
    assert s.record()["setup"] == {"deck": deck}


@pytest.mark.parametrize("mutate,words", [
    (lambda d: d[:53], "setup.deck: has 53 cards"),
    (lambda d: d + ["AC"], "setup.deck[54]: AC appears twice"),
    (lambda d: d[:10] + [d[11]] + d[11:], "setup.deck[11]"),
    (lambda d: d[:5] + [7] + d[6:], "setup.deck[5]: 7 is not a card name"),
    (lambda d: d[:5] + ["ZZ"] + d[6:], "setup.deck[5]: 'ZZ' is not a card"),
    (lambda d: "AC 2C", "setup.deck: must be a list"),
])
def test_malformed_setup_names_the_field(mutate, words):
    with pytest.raises(BadRecord) as err:
        GAME.new_game(setup={"deck": mutate(make_deck())})
    assert words in str(err.value)


def test_unknown_setup_field_is_refused():
    with pytest.raises(BadRecord, match="setup.decks: unknown field"):
        GAME.new_game(setup={"decks": make_deck()})


def test_record_round_trip_replays_to_the_same_state():
    rng = random.Random(5)
    for seed in range(4):
        s = GAME.new_game(seed=seed)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
            if rng.random() < 0.05:
                again = replay(json.loads(json.dumps(s.record())))
                assert again.state_json() == s.state_json()
        doc = json.loads(json.dumps(s.record()))
        again = replay(doc)
        assert again.state_json() == s.state_json() and summary(again) == summary(s)
        assert again.is_terminal() and again.winners() == s.winners()


def test_record_with_options_round_trips():
    game = load("seven_waters", first_player=1, slide_limit=None, final_turns="none")
    s = game.new_game(seed=3)
    rng = random.Random(3)
    for _ in range(40):
        s.apply(rng.choice(s.legal_actions()))
    doc = s.record()
    assert doc["options"] == {"first_player": 1, "slide_limit": None, "final_turns": "none"}
    assert replay(json.loads(json.dumps(doc))).state_json() == s.state_json()


def test_replay_of_an_illegal_action_names_index_action_seat_and_reason():
    s = GAME.new_game(seed=1)
    doc = s.record()
    doc["actions"] = ["take 7-1", "take 6-1"]
    with pytest.raises(ReplayError) as err:
        replay(doc)
    assert 'action 1 "take 6-1" by seat 1' in str(err.value) and "not free" in str(err.value)


def test_legal_actions_are_deterministic_distinct_and_accepted():
    s1, s2 = GAME.new_game(seed=12), GAME.new_game(seed=12)
    rng = random.Random(12)
    while not s1.is_terminal():
        a, b = s1.legal_actions(), s2.legal_actions()
        assert [str(x) for x in a] == [str(x) for x in b]
        assert len(set(map(str, a))) == len(a), "duplicate legal actions"
        act = rng.choice(a)
        s1.apply(act)
        s2.apply(str(act))


def test_actions_are_equal_by_kind_and_payload_only():
    # an action's key is its payload alone (no kind in it): the kind must still tell
    # a river from a pool, a discard and a slide made of the same cards
    game = load("seven_waters")
    parse = game.parse_action
    assert parse("river 7H") != parse("pool 7H") and parse("discard 7H") != parse("theme 7H")
    assert parse("slide 1 7H") != parse("slide 2 7H")
    assert parse("river 7H 8H") == parse("river 8h 7h") and hash(parse("pool 7H")) == hash(parse("pool 7h"))
    assert len({parse("river 7H"), parse("pool 7H"), parse("discard 7H"), parse("slide 1 7H")}) == 4
