"""core.inline: a checked `apply` compiled with the trusted `apply_legal`'s body in place
of its tail calls does what the method as written does, shows the written lines in a
traceback, and refuses every shape it could not inline faithfully."""

from __future__ import annotations

import random
import traceback

import pytest

from wasserspiele import load
from wasserspiele.core.errors import GameOver, IllegalAction, NotYourTurn
from wasserspiele.core.inline import InlineError, inline_tail_calls
from wasserspiele.core.protocol import State
from wasserspiele.games.wasserloch.actions import PLAYS
from wasserspiele.games.wasserloch.rules import WasserlochState

GAMES = ["wasserloch", "seven_waters", "watten", "wildwasser"]
OUTSIDE = 100  # a module global the tests' own callees read


class Counter:
    """A class whose `step` guards and then tail-calls `count` in every supported shape."""

    def __init__(self):
        self.log = []

    def count(self, n, note):
        """The callee: its statements land in `step`."""
        if n < 0:
            raise ValueError(f"negative {n}")
        self.log.append((n, note))
        if n == 0:
            return
        self.log.append("not zero")

    def step(self, n, note=None):
        if note is None:
            note = "plain"
        if n > 10:
            self.count(n - 10, "tens")
            return
        if n == 7:
            return self.count(n, "seven")
        if n == 5:
            self.count(n, note)
        else:
            self.count(n * 2, note + "!")


def _twin():
    """A subclass of Counter with `step`'s calls of `count` inlined."""
    return inline_tail_calls("step", "count")(type("Twin", (Counter,), {"step": Counter.step, "count": Counter.count}))


@pytest.mark.parametrize("n", [0, 3, 5, 7, 12, 10, -1, 11])
def test_the_inlined_method_does_what_the_written_one_does(n):
    Twin = _twin()
    assert Twin.step is not Counter.step and Twin.step.__wrapped__ is Counter.step
    assert "count" not in Twin.step.__code__.co_names  # every one of the four calls was inlined
    results = []
    for cls in (Counter, Twin):
        obj = cls()
        try:
            obj.step(n)
            results.append(obj.log)
        except ValueError as e:
            results.append(str(e))
    assert results[0] == results[1]


def test_the_arguments_are_bound_before_any_parameter_changes():
    """`self.count(n * 2, note + "!")` binds both from the caller's values: evaluated first."""
    Twin = _twin()
    obj = Twin()
    obj.step(2, "x")
    assert obj.log == [(4, "x!"), "not zero"]


def test_a_traceback_from_the_inlined_body_shows_the_callee_s_written_line():
    Twin = _twin()
    with pytest.raises(ValueError) as caught:
        Twin().step(-1)
    frame = traceback.extract_tb(caught.tb)[-1]
    assert frame.filename == __file__
    assert frame.line == 'raise ValueError(f"negative {n}")'


def test_a_subclass_that_overrides_the_callee_gets_the_method_as_written():
    """Otherwise its override would never be called (core.protocol.State.__init_subclass__)."""
    calls = []

    class Spy(WasserlochState):
        __slots__ = ()

        def apply_legal(self, action, seat):
            calls.append(action)
            WasserlochState.apply_legal(self, action, seat)

    assert Spy.apply is WasserlochState.apply.__wrapped__
    state = load("wasserloch", players=2).new_game(seed=3)
    state.__class__ = Spy  # the same slots: only the class differs
    action = state.legal_actions()[0]
    state.apply(action)
    assert calls == [action]


class Chain:
    """`top` tail-calls `middle`, which tail-calls `bottom` (a chain of inlinings)."""

    def __init__(self):
        self.log = []

    def bottom(self, n):
        self.log.append(("bottom", n))

    def middle(self, n):
        self.log.append(("middle", n))
        self.bottom(n + 1)

    def top(self, n):
        if n:
            self.middle(n * 10)
            return
        self.log.append("zero")


def _chained(base=Chain):
    cls = type("Chained", (base,), {k: base.__dict__[k] for k in ("bottom", "middle", "top")})
    return inline_tail_calls("top", "middle")(inline_tail_calls("middle", "bottom")(cls))


def test_inlining_composes_a_method_inlined_into_another_brings_its_own_inlined_calls():
    """`middle` has `bottom` inlined; `top` then gets `middle` as inlined, so it calls neither
    (decorators apply from the class up); an override of either gets `top` as written."""
    Chained = _chained()
    assert "middle" not in Chained.top.__code__.co_names and "bottom" not in Chained.top.__code__.co_names
    assert ("top", "bottom") in Chained._inlined_calls
    for n in (0, 1, 4):
        written, inlined = Chain(), Chained()
        written.top(n)
        inlined.top(n)
        assert written.log == inlined.log

    class Mine(State):  # the protocol's base: its __init_subclass__ gives methods back
        __slots__ = ("log",)
        bottom, middle, top = Chain.bottom, Chain.middle, Chain.top

    Mine = _chained(Mine)

    class Override(Mine):
        __slots__ = ()

        def bottom(self, n):
            pass

    # both hold `bottom`'s body: both as written, so the override is called
    assert Override.top is Chain.top and Override.middle is Chain.middle


def _both_paths(game, seeds, rng, facts=lambda state: state.history):
    """Seeded games, each action through the checked `apply` of one state and the trusted
    `apply_legal` of another: `facts` of the two agree after every action."""
    for seed in seeds:
        checked, trusted = game.new_game(seed=seed), game.new_game(seed=seed)
        while not trusted.is_terminal():
            seat = trusted.current_seat
            action = rng.choice(trusted.legal_actions(seat))
            checked.apply(action, seat)
            trusted.apply_legal(action, seat)
            assert facts(checked) == facts(trusted)
        assert checked.scores() == trusted.scores() and checked.is_terminal()


@pytest.mark.parametrize("name", GAMES)
def test_every_game_s_checked_apply_is_inlined_and_plays_as_apply_legal_does(name):
    game = load(name)
    cls = type(game.new_game(seed=0))
    assert hasattr(cls.apply, "__wrapped__"), f"{name}'s apply was not inlined"
    _both_paths(game, range(3), random.Random(7))


def test_wl_4_1_the_inlined_wasserloch_apply_still_refuses_with_a_reason():
    """WL-4.1: the guard in front of the inlined body still sends a play of cards not held,
    another seat's play and notation to the protocol's checks."""
    state = load("wasserloch", players=2).new_game(seed=1)
    seat = state.current_seat
    held = {p.value for p in state.legal_actions(seat)}
    missing = next(PLAYS[v][1] for v in range(8) if v not in held)
    before = list(state.keys)
    with pytest.raises(IllegalAction) as caught:
        state.apply(missing, seat)
    assert caught.value.reason.code == "wasserloch.holds_none"
    with pytest.raises(NotYourTurn):
        state.apply(state.legal_actions(seat)[0], 1 - seat)
    assert state.keys == before and state.history == []
    state.apply(str(state.legal_actions(seat)[0]))  # notation goes through the protocol's parse
    assert len(state.history) == 1
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    for named in (None, 0):  # the match is over, whether a seat is named or not
        with pytest.raises(GameOver):
            state.apply(PLAYS[0][1], named)


class _Refusals:
    def callee(self, n):
        return n + 1

    def dropped(self, n):
        self.callee(n)

    def not_tail(self, n):
        self.callee(n)
        print(n)

    def keywords(self, n):
        return self.callee(n=n)

    def closure(self, n):
        def inner():
            return n
        return self.callee(inner())

    def clash(self, n):
        OUTSIDE = n  # a local here, a global the callee reads
        return self.reads_outside(OUTSIDE)

    def reads_outside(self, n):
        return n + OUTSIDE


@pytest.mark.parametrize("caller, callee, words", [
    ("dropped", "callee", "returns a value, which the call drops"),
    ("not_tail", "callee", "makes no tail call"),
    ("keywords", "callee", "one positional argument per parameter"),
    ("closure", "callee", "has a closure"),
    ("clash", "reads_outside", "OUTSIDE is a local of one and a global of the other"),
])
def test_what_cannot_be_inlined_faithfully_is_refused_saying_why(caller, callee, words):
    cls = type("R", (_Refusals,), {caller: _Refusals.__dict__[caller], callee: _Refusals.__dict__[callee]})
    with pytest.raises(InlineError, match=words):
        inline_tail_calls(caller, callee)(cls)


def test_a_method_without_readable_source_stays_as_written():
    namespace: dict = {}
    exec("def step(self, n):\n    self.count(n)\n\ndef count(self, n):\n    self.n = n\n", globals(), namespace)
    cls = inline_tail_calls("step", "count")(type("NoSource", (), dict(namespace)))
    assert cls.step is namespace["step"]
    obj = cls()
    obj.step(4)
    assert obj.n == 4


def test_the_protocol_s_own_apply_is_not_replaced():
    assert not hasattr(State.apply, "__wrapped__")


def test_wa_3_3_watten_s_trusted_path_completes_a_trick_in_place_as_the_method_does():
    """apply_legal has `_finish_trick` inlined (WA-3.3: the highest card wins, its player
    leads); the checked apply, made from apply_legal's source, still calls the method.
    The two play the same games, trick for trick."""
    from wasserspiele.games.watten.rules import WattenState

    assert WattenState.apply_legal.__wrapped__.__name__ == "apply_legal"
    _both_paths(load("watten"), range(20), random.Random(5),
                lambda state: (state.tricks, state.won, state.current_seat, state.history))


def test_ww_3_1_wildwasser_s_next_round_begins_in_place_as_the_method_begins_it():
    """`_end_round` has `_begin_round` inlined (WW-3.1: the next round's picks begin,
    resolved from the start marker's seat; WW-5.1/5.2 the end).  A state whose class
    overrides `_begin_round` gets `_end_round` as written, which calls it: the two play
    the same games, round for round, with the same logs."""
    from wasserspiele.games.wildwasser.rules import WildwasserState

    assert WildwasserState._end_round.__wrapped__.__name__ == "_end_round"

    class Written(WildwasserState):
        __slots__ = ()
        _begin_round = WildwasserState._begin_round  # an override: `_end_round` as written

    assert Written._end_round is WildwasserState._end_round.__wrapped__
    # the trusted path ends a round in place with both bodies inlined (the composed
    # inlining), so it and the checked path are as written too
    for name in ("apply_legal", "apply"):
        assert not {"_end_round", "_begin_round"} & set(getattr(WildwasserState, name).__code__.co_names)
        assert getattr(Written, name) is getattr(WildwasserState, name).__wrapped__
    game, rng = load("wildwasser", players=3), random.Random(11)
    for seed in range(4):
        inlined = game.new_game(seed=seed)
        written = inlined.clone()  # (both keep their logs from now on)
        written.__class__ = Written  # the same slots: only the class differs
        # a clone shares its original's generator: each gets one of its own, alike
        inlined.chance.rng, written.chance.rng = random.Random(seed), random.Random(seed)
        rounds = 1
        while not inlined.is_terminal():
            seat = inlined.current_seat
            action = rng.choice(inlined.legal_actions(seat))
            inlined.apply(action, seat)
            written.apply(action, seat)
            assert (inlined.round, inlined.order, inlined.waiting, inlined.round_start) == \
                   (written.round, written.order, written.waiting, written.round_start)
            assert inlined.events() == written.events()
            rounds = inlined.round
        assert rounds > 5 and inlined.scores() == written.scores()
