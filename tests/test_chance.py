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
@pytest.mark.parametrize("size", [1, 2, 7, 24, 54, 130])  # (up to 128: written out)
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


# -- streams held as indices, written as the items (Shuffle(indices=True), Chance.record_as) --

NAMES = tuple(f"{r}{s}" for s in "CSHD" for r in "789TJQKA")  # a 32-card deck of distinct names


@pytest.mark.parametrize("seed", range(5))
def test_a_shuffle_of_indices_draws_the_positions_of_the_items_random_shuffle_gives(seed):
    """The same draws as shuffling the items (the same generator state after), given as
    positions in `items`; `build` node by node the same; to_record / from_record convert."""
    deck = Shuffle(NAMES, "deal", indices=True)
    expected = list(NAMES)
    reference = random.Random(seed)
    reference.shuffle(expected)
    rng = random.Random(seed)
    drawn = deck.sample(rng)
    assert [NAMES[i] for i in drawn] == expected and rng.getstate() == reference.getstate()
    assert deck.build(_uniform_chooser(random.Random(seed))) == drawn
    assert deck.to_record(drawn) == expected and deck.from_record(expected) == drawn
    assert Shuffle(NAMES).to_record(expected) == expected  # items drawn as themselves: as they are
    with pytest.raises(ValueError):
        deck.from_record(expected[:-1] + ["2H"])  # not an item
    with pytest.raises(ValueError):
        Shuffle(("a", "b", "a"), indices=True)  # a position must name one item


def test_a_shuffle_pickles_as_what_it_was_made_of():
    """A pickled game's chance names its Shuffle (`Chance.recorded`); the written-out
    shuffle it keeps is no module's function, so the Shuffle is made again from its items."""
    import pickle
    for deck in (Shuffle(NAMES, "deal", indices=True), Shuffle(range(5))):
        copy = pickle.loads(pickle.dumps(deck))
        assert (copy.items, copy.what, copy.indices) == (deck.items, deck.what, deck.indices)
        assert copy.sample(random.Random(3)) == deck.sample(random.Random(3))


def _recorded_chance(setup, rng=None) -> tuple[Chance, Shuffle]:
    deck = Shuffle(NAMES, "deal", indices=True)
    c = Chance(setup, rng)
    c.record_as("deals", deck)
    return c, deck


def test_a_recorded_stream_is_drawn_as_indices_and_read_as_the_items():
    """records.md: the setup holds names.  A record's names become indices once, as the
    stream is declared; draws give indices; `setup` and `used_setup()` give the names."""
    first = list(reversed(NAMES))
    c, deck = _recorded_chance({"deals": [first], "dice": ["sun"]}, random.Random(4))
    assert c.streams["deals"] == [list(range(31, -1, -1))]  # one form in the stream: indices
    assert c.draw("deals", deck) == list(range(31, -1, -1))
    second = c.draw("deals", deck)  # from the generator: indices too
    assert sorted(second) == list(range(32))
    written = [first, [NAMES[i] for i in second]]
    assert c.used_setup() == {"deals": written, "dice": []}
    assert c.setup == {"deals": written, "dice": ["sun"]} and dict(c.setup) == c.setup
    assert c.unread() == {"dice": 1} and list(c.setup) == ["deals", "dice"] and len(c.setup) == 2
    clone = c.clone()
    assert clone.recorded is c.recorded and clone.used_setup() == c.used_setup()
    clone.draw("deals", deck)
    assert len(clone.setup["deals"]) == 3 and len(c.setup["deals"]) == 2  # independent streams
    # the declaration is once per stream: again with the same distribution does nothing
    c.record_as("deals", deck)
    assert c.used_setup()["deals"] == written
    with pytest.raises(ValueError):
        c.record_as("deals", Shuffle(NAMES, "deal", indices=True))
    with pytest.raises(ValueError):  # respelling reads the record's form: before the declaration
        c.respell("deals", str)


def test_a_recorded_setup_is_read_only_and_an_unrecorded_one_is_the_streams():
    """A chance with no `record_as` stream has `setup` as its streams, as before (the
    other games read and write it); a declared one's `setup` is written from the streams
    at each read, so a write through it would be lost: it is refused."""
    plain = Chance({"dice": ["sun"]})
    assert plain.setup is plain.streams
    c, _ = _recorded_chance({"deals": [list(NAMES)]})
    with pytest.raises(TypeError):
        c.setup["signal_checks"] = [None]  # type: ignore[index]
    assert "signal_checks" not in c.streams


def test_a_blind_copy_of_a_recorded_stream_knows_how_many_and_draws_indices():
    """sample_world's blind chance: None for every drawn outcome (written as None), then
    its own draws, as indices, written as names."""
    c, deck = _recorded_chance({}, random.Random(1))
    c.draw("deals", deck)
    blind = c.blind(random.Random(2))
    assert blind.setup["deals"] == [None] and blind.used_setup() == {"deals": [None]}
    drawn = blind.draw("deals", deck)
    assert blind.used_setup()["deals"] == [None, [NAMES[i] for i in drawn]]


def test_a_chooser_builds_a_recorded_stream_as_indices():
    """OpenSpiel's path: `build` answered node by node gives indices, written as names."""
    c, deck = _recorded_chance({})
    c.chooser = lambda probabilities: 0  # Fisher-Yates always swapping with the first
    drawn = c.draw("deals", deck)
    assert drawn == Shuffle(range(32)).build(lambda p: 0)
    assert c.used_setup()["deals"] == [Shuffle(NAMES).build(lambda p: 0)]


def test_a_uniform_keeps_its_count_and_bits_and_old_pickles_get_them():
    import pickle
    die = Uniform(("1", "2", "3", "4", "5", "sun"), "die roll")
    assert (die.n, die.bits) == (6, 3)
    back = pickle.loads(pickle.dumps(die))
    assert (back.items, back.what, back.n, back.bits) == (die.items, "die roll", 6, 3)
    old = Uniform.__new__(Uniform)
    old.__setstate__((None, {"items": [1, 2, 3, 4, 5], "what": "x"}))  # made before `n`, `bits`
    assert (old.n, old.bits) == (5, 3)
