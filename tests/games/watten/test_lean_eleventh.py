"""Eleventh pass (docs/performance.md): a deal is drawn as card numbers
(`Shuffle(CARD_NAMES, indices=True)`) and the `deals` stream holds those numbers
(`Chance.record_as`), so no deal turns 32 names into numbers; records still hold the
names (records.md).  Every check here but the first is an equality with what the game did
before (they pass on the tree before this pass as well): records of seeded games, records
cut short and written back, other spellings, sampled worlds, OpenSpiel's chooser, pickles."""

from __future__ import annotations

import pickle
import random

import pytest

from wasserspiele import load
from wasserspiele.core.chance import Shuffle
from wasserspiele.core.records import make_record, replay
from wasserspiele.games.watten.actions import CARD_NAMES

OPTION_SETS = [{}, {"raising": True, "target": 7}, {"signal_detection_p": 0.3, "signals": "public"}]


def _played(game, seed: int, rng: random.Random, stop: int | None = None):
    """A seeded game played at random (checked and trusted actions mixed) to its end or
    `stop` actions, with each hand's deal as the public setup showed it as it was dealt."""
    state = game.new_game(seed=seed)
    seen = [state.chance.setup["deals"][0]]
    step = 0
    while not state.is_terminal() and step != stop:
        seat = state.current_seat
        action = rng.choice(state.legal_actions(seat))
        hand_no = state.hand_no
        (state.apply if step % 3 == 0 else state.apply_legal)(action, seat)
        if state.hand_no != hand_no:
            seen.append(state.chance.setup["deals"][hand_no])
        step += 1
    return state, seen


def test_wa_1_2_the_deals_stream_holds_card_numbers_only():
    """The new invariant: one form of a card in the stream (numbers 0..31, the engine's),
    whether drawn from a seed or read from a record's names."""
    game = load("watten")
    state, _ = _played(game, 3, random.Random(3), stop=60)
    record = make_record(state)
    for s in (state, replay(record)):
        deals = s.chance.streams["deals"]
        assert deals and all(sorted(d) == list(range(32)) for d in deals)


@pytest.mark.parametrize("options", OPTION_SETS, ids=["defaults", "raising", "caught"])
def test_wa_1_2_records_hold_the_deals_as_card_names_and_replay(options):
    """records.md: `setup.deals` are 32 card names a hand, each what the hand was dealt
    (the deal the game slices is the stream's own list: play must not change it); a
    seed's deals are random.shuffle's of the deck when nothing else is drawn; the record
    replays to the same game."""
    game = load("watten", **options)
    rng = random.Random(11)
    for seed in range(4):
        state, seen = _played(game, seed, rng)
        doc = make_record(state)
        deals = doc["setup"]["deals"]
        assert deals == seen and len(deals) == state.hand_no
        assert all(sorted(d) == sorted(CARD_NAMES) for d in deals)
        if not options:  # only deals are drawn: successive shuffles of one generator
            reference = random.Random(seed)
            expected = []
            for _ in deals:
                deck = list(CARD_NAMES)
                reference.shuffle(deck)
                expected.append(deck)
            assert deals == expected
        again = replay(doc)
        assert again.state_json() == state.state_json() and make_record(again) == doc


def test_wa_1_2_a_record_cut_short_is_written_back_with_its_deals_to_come():
    """A save in progress writes every deal of its record, read or not (core.records:
    `chance.setup`), as names; other spellings (`10h` for `TH`) are written canonically."""
    game = load("watten")
    state, _ = _played(game, 5, random.Random(5))
    doc = make_record(state)
    cut = dict(doc, actions=doc["actions"][:30])  # the first hands only
    spelled = dict(cut, setup=dict(cut["setup"], deals=[[n.replace("T", "10").lower() for n in d]
                                                           for d in cut["setup"]["deals"]]))
    assert spelled["setup"]["deals"] != cut["setup"]["deals"]
    for given in (cut, spelled):
        half = replay(given)
        assert not half.is_terminal() and half.chance.unread()["deals"] > 0
        assert make_record(half) == cut
        assert half.state_json() == replay(cut).state_json()


def test_wa_1_2_a_sampled_world_deals_anew_and_its_record_names_its_cards():
    """sample_world blinds the deals (None for each one drawn, the true ones unknown); the
    world's next hand is dealt from its own generator and written as names."""
    game = load("watten")
    state, _ = _played(game, 2, random.Random(2), stop=25)
    hands = state.hand_no
    world = state.sample_world(state.current_seat, random.Random(9))
    assert world.chance.used_setup()["deals"] == [None] * hands
    rng = random.Random(1)
    while world.hand_no == hands and not world.is_terminal():
        world.apply_legal(rng.choice(world.legal_actions(world.current_seat)), world.current_seat)
    deals = world.chance.used_setup()["deals"]
    assert deals[:hands] == [None] * hands and sorted(deals[hands]) == sorted(CARD_NAMES)
    assert {CARD_NAMES[c] for h in world.hands for c in h} <= set(deals[hands])


def test_wa_1_2_a_chooser_deals_what_fisher_yates_by_its_answers_gives():
    """OpenSpiel's path (`Distribution.build`): the chosen deal, as names, is the deck
    shuffled node by node with the same answers, and the hands are cut from it."""
    answers = random.Random(4)
    choices: list[int] = []

    def chooser(probabilities):
        choices.append(answers.randrange(len(probabilities)))
        return choices[-1]

    state = load("watten").new_game(chooser=chooser)
    replayed = iter(choices)
    expected = Shuffle(CARD_NAMES).build(lambda p: next(replayed))
    assert state.chance.used_setup() == {"deals": [expected]}
    caller = state.caller
    assert state.state_json()["hands"][caller] == expected[:5]


def test_a_watten_game_pickles_and_plays_on_the_same():
    """Gymnasium and the lab copy games through pickle: the chance's declared stream
    pickles with it (core.chance.Shuffle.__reduce__), and the copy plays on as the game."""
    game = load("watten")
    state, _ = _played(game, 8, random.Random(8), stop=40)
    copy = pickle.loads(pickle.dumps(state))
    assert copy.chance.used_setup() == state.chance.used_setup()
    for s in (state, copy):
        s.chance.rng = random.Random(1)
        rng = random.Random(2)
        while not s.is_terminal():
            s.apply_legal(rng.choice(s.legal_actions(s.current_seat)), s.current_seat)
    assert make_record(copy) == make_record(state)


def _snapshot(state):
    chance = state.chance
    return (state.state_json(), list(state.history), list(state.log), state.log_cut, list(state.signal_log),
            chance.used_setup(), {k: chance.used(k) for k in chance.setup}, [state.view(s) for s in range(4)])


@pytest.mark.parametrize("options", OPTION_SETS, ids=["defaults", "raising", "caught"])
def test_wa_1_2_a_strict_replay_short_of_a_deal_leaves_the_trusted_path_where_it_was(options):
    """records.md, a strict replay invents no outcome: the trusted path applies an action
    that needs a deal (a hand's last card, a concession) or a signal check the record lacks
    as a transaction, so ChanceExhausted leaves the position exactly as it was; the other
    actions draw nothing and are played at once."""
    from wasserspiele.core.errors import ChanceExhausted
    game = load("watten", **options)
    rng = random.Random(6)
    for seed in range(4):
        full, _ = _played(game, seed, random.Random(seed), stop=1)
        setup = {"deals": full.chance.used_setup()["deals"][:1]}  # the first hand's deal, no checks
        state = game.new_game(setup=setup)
        played = 0
        with pytest.raises(ChanceExhausted):
            while True:
                seat = state.current_seat
                before = _snapshot(state)
                legal = state.legal_actions(seat)
                concede = [a for a in legal if str(a) == "concede"]  # a concession deals at once
                state.apply_legal(concede[0] if concede else rng.choice(legal), seat)
                played += 1
        assert _snapshot(state) == before and played < 30


def test_a_card_is_the_only_action_of_kind_zero():
    """apply_legal tells a card from the other kinds by the kind's truth (`if action.kind`):
    PLAY must stay kind 0 and every other action's kind non-zero."""
    from wasserspiele.games.watten.actions import (
        ACCEPT_ACTION, CONCEDE_ACTION, PLAY, PLAYS, RAISE_ACTION, SIGNALS, TRUMPS)
    assert PLAY == 0 and all(a.kind == PLAY for a in PLAYS)
    assert all(a.kind for a in (*TRUMPS, *SIGNALS, RAISE_ACTION, ACCEPT_ACTION, CONCEDE_ACTION))
