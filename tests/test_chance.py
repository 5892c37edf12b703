"""Declared chance distributions (core/chance.py): a seed deals what it always dealt,
and `build` from elementary nodes is the same distribution as `sample`."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from wasserspiele.core import chance
from wasserspiele.core.chance import Chance, Shuffle, Uniform, UnitInterval, make_rng, shuffle_like_random
from wasserspiele.core.errors import ChanceExhausted


def _uniform_chooser(rng: random.Random):
    """Answers each node as random.Random would draw among equally likely outcomes."""
    def choose(probabilities):
        assert sum(probabilities) == pytest.approx(1.0)
        return rng._randbelow(len(probabilities))
    return choose


@pytest.mark.parametrize("seed", [0, 1, 2**31 - 1, 2**32, 2**64 + 7, 10**30, None])
def test_make_rng_is_random_random_of_the_seed(seed):
    # make_rng seeds the C generator directly (random.Random's two Python frames cost a
    # new game a sixth of its instructions): the same generator as random.Random(seed)
    rng = make_rng(seed)
    assert type(rng) is random.Random
    if seed is None:  # seeded by the system: only its kind can be compared
        return
    reference = random.Random(seed)
    assert rng.getstate() == reference.getstate()
    assert [rng.random() for _ in range(3)] + [rng.gauss(0, 1) for _ in range(3)] == \
        [reference.random() for _ in range(3)] + [reference.gauss(0, 1) for _ in range(3)]


@pytest.mark.parametrize("seed", range(5))
def test_shuffle_consumes_the_generator_as_random_shuffle(seed):
    items = list(range(32))
    expected = items.copy()
    random.Random(seed).shuffle(expected)
    assert Shuffle(items).sample(random.Random(seed)) == expected
    # build is Fisher-Yates node by node: the same choices give the same deck
    assert Shuffle(items).build(_uniform_chooser(random.Random(seed))) == expected


def test_uniform_matches_randrange_and_choice():
    faces = ("1", "2", "sun")
    for seed in range(20):
        assert Uniform(faces).sample(random.Random(seed)) == random.Random(seed).choice(faces)


def test_unit_interval_nodes_weigh_the_intervals_between_cuts():
    check = UnitInterval((0.3,))
    seen = []
    assert check.build(lambda p: seen.append(list(p)) or 1) >= 0.3
    assert seen == [[pytest.approx(0.3), pytest.approx(0.7)]]
    assert UnitInterval(()).largest_node() == 1 and check.largest_node() == 2


def test_build_is_the_same_distribution_as_sample():
    rng = random.Random(1)
    counts = Counter(tuple(Shuffle("abc").build(_uniform_chooser(rng))) for _ in range(6000))
    assert len(counts) == 6 and min(counts.values()) > 850  # each of 3! orders ≈ 1000


def test_a_strict_chance_refuses_to_invent_outcomes_and_a_chooser_answers():
    chance = Chance({"dice": ["sun"]})
    assert chance.strict and chance.draw("dice", Uniform(("1", "sun"), "die roll")) == "sun"
    with pytest.raises(ChanceExhausted, match="setup.dice has 1 entry but the game needs die roll number 2"):
        chance.draw("dice", Uniform(("1", "sun"), "die roll"))
    chance.chooser = lambda p: 0
    assert not chance.strict and chance.draw("dice", Uniform(("1", "sun"))) == "1"
    assert chance.used_setup() == {"dice": ["sun", "1"]}


@pytest.mark.parametrize("size", [0, 1, 2, 3, 32, 33, 64, 126, 127, 128, 129, 130, 1024, 2000])
def test_shuffle_like_random_draws_exactly_as_random_shuffle(size):
    """Seeds deal what they always dealt: the shuffle written out (up to 128 items,
    `_unrolled`) gives random.shuffle's order and leaves the generator where random.shuffle
    leaves it (the larger lists use random.shuffle itself)."""
    for seed in range(40):
        ours, theirs = list(range(size)), list(range(size))
        a, b = random.Random(seed), random.Random(seed)
        shuffle_like_random(ours, a)
        b.shuffle(theirs)
        assert ours == theirs and a.getstate() == b.getstate()
    assert (size in chance._UNROLLED) == (size <= chance._MAX_UNROLLED)
    deck = Shuffle(range(64))
    expected = list(range(64))
    random.Random(5).shuffle(expected)
    assert deck.sample(random.Random(5)) == expected


def test_a_deck_has_its_shuffle_written_out_when_it_is_made_not_in_a_deal():
    """A game's deck is a `Shuffle` made as its module loads: its shuffle's code is made
    then, so no deal pays for it."""
    assert 77 not in chance._UNROLLED
    Shuffle(range(77))
    assert 77 in chance._UNROLLED
    Shuffle(range(200))   # more than _MAX_UNROLLED: random.shuffle itself, nothing made
    assert 200 not in chance._UNROLLED


@pytest.mark.parametrize("dist", [Shuffle(range(9)), Uniform("abcd"), UnitInterval([0.25, 0.6])],
                         ids=["shuffle", "uniform", "unit-interval"])
def test_node_plan_is_every_node_build_asks_whatever_the_answers(dist):
    rng = random.Random(3)
    for _ in range(20):
        asked = []

        def choose(probabilities):
            asked.append(list(probabilities))
            return rng.choice([k for k, p in enumerate(probabilities) if p > 0])
        dist.build(choose)
        assert asked == dist.node_plan()


def test_a_chooser_hears_of_each_draw_before_its_nodes():
    heard = []

    class Announcing:
        def announce(self, dist):
            heard.append(("draw", dist.what, len(dist.node_plan())))

        def __call__(self, probabilities):
            heard.append(("node", len(probabilities)))
            return 0
    chance = Chance()
    chance.chooser = Announcing()
    chance.draw("decks", Shuffle(range(4)))
    chance.draw("dice", Uniform(range(6), "face"))
    assert heard == [("draw", "deck", 3), ("node", 4), ("node", 3), ("node", 2), ("draw", "face", 1), ("node", 6)]


def _item_by_item(chance: Chance, key: str, items) -> list:
    """What `Chance.draw_order` stands for: one Uniform draw per item from those left."""
    remaining, out = list(items), []
    for _ in range(len(remaining)):
        x = chance.draw(key, Uniform(remaining))
        remaining.remove(x)
        out.append(x)
    return out


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("size", [1, 2, 7, 54])
def test_draw_order_draws_as_item_by_item_uniform_draws(seed, size):
    items = [f"c{i}" for i in range(size)]
    fast, slow = Chance({}, random.Random(seed)), Chance({}, random.Random(seed))
    assert fast.draw_order("deck", items) == _item_by_item(slow, "deck", items)
    assert fast.setup == slow.setup and fast.used("deck") == slow.used("deck") == size
    assert fast.rng.random() == slow.rng.random()  # the generator is left in the same state


def test_draw_order_reads_a_setup_and_asks_a_chooser_item_by_item():
    items = ["a", "b", "c", "d"]
    drawn = Chance({}, random.Random(3)).draw_order("x", items)
    strict = Chance({"x": drawn})
    assert strict.draw_order("x", items) == drawn  # a record's order, read back
    with pytest.raises(ChanceExhausted):
        Chance({"x": drawn[:2]}).draw_order("x", items)  # a strict replay invents nothing
    partial = Chance({"x": drawn[:2]}, random.Random(9))
    assert partial.draw_order("x", items)[:2] == drawn[:2]  # the rest drawn from the generator
    chosen = Chance({})
    chosen.chooser = lambda probabilities: len(probabilities) - 1  # always the last item left
    assert chosen.draw_order("x", items) == ["d", "c", "b", "a"]


def test_unread_counts_the_outcomes_of_each_stream_not_drawn_yet():
    """What a replay checks once the game is over (records.md): outcomes a record holds that
    nothing read.  Outcomes a generator adds are drawn as they are added, so never unread."""
    die = Uniform(("1", "2", "sun"), "die roll")
    chance = Chance({"dice": ["sun", "1", "2"], "checks": [0.5], "deals": []})
    assert chance.unread() == {"dice": 3, "checks": 1}
    chance.draw("dice", die)
    assert chance.unread() == {"dice": 2, "checks": 1}
    for _ in range(2):
        chance.draw("dice", die)
    chance.draw("checks", UnitInterval((0.5,)))
    assert chance.unread() == {}
    chance.rng = random.Random(1)
    chance.draw("dice", die)
    assert chance.unread() == {} and chance.used("dice") == 4
