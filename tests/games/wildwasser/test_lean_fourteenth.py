"""The fourteenth lean pass's shortcuts give what the ways they replace give: the die drawn
by `Chance.draw_uniform` (the same generator draws and streams as `Chance.draw`), the
seats still to pick looked up by identity (WW-3.1), the turtle card's move made by `_run`
itself (WW-3.2), `is_terminal` read from a table, a move passing occupied fields to the
first free one found in C (WW-4.1/4.2), the push moving each animal in one pass (WW-4.4),
the game's end tested with a set (WW-5.1), the tiles' order turned into indices in C
(WW-2.1) and the revealed cards taken back by adding them (WW-3.2); and, over seeded
games at 2, 4 and 6 players and both river flows, the trusted path (whose round end now
comes before the next reveal, WW-3.1), the checked one and a strict replay of the record
agree state by state."""

import itertools
import random

import pytest

from wasserspiele import load
from wasserspiele.core.chance import Chance, Uniform, UnitInterval
from wasserspiele.core.errors import ChanceExhausted
from wasserspiele.games.wildwasser.board import TURTLE
from wasserspiele.games.wildwasser.rules import OTHER_CHOICE, TURTLE_CARD_MOVES
from wasserspiele.games.wildwasser.state import N_SPECIES, OVER, PICK_PHASE, TEAM_CARD


def _snapshot(state):
    """Everything a state holds but its chance, as text (so later play cannot change it)."""
    return repr((state.state_json(), state.phase, state.turn, state.card, state.fin, state.choices,
                 state.waiting, state.current_seat, state.gaps, state.pos, state.occ, state.place,
                 state.podium_n, state.done, state.hand, state.revealed, state.pick, state.marker,
                 state.round, state.round_start, state.history, state.legal_actions(),
                 state.is_terminal()))


def _trusted_game(game, seed, rng):
    """A seeded game through the trusted path: its snapshots, actions and final state."""
    state = game.new_game(seed=seed)
    snapshots, actions = [_snapshot(state)], []
    while not state.is_terminal():
        seat = rng.choice(state.to_move())
        action = rng.choice(state.legal_actions(seat))
        state.apply_legal(action, seat)
        actions.append((action, seat))
        snapshots.append(_snapshot(state))
    return snapshots, actions, state


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("river_flow", ["forward", "back"])
def test_trusted_checked_and_strict_replay_agree_state_by_state(players, river_flow):
    game = load("wildwasser", players=players, river_flow=river_flow)
    for seed in range(10):
        snapshots, actions, trusted = _trusted_game(game, seed, random.Random(1400 + seed))
        checked = game.new_game(seed=seed)
        strict = game.new_game(setup=trusted.chance.used_setup())  # reads the record, keeps its log
        for i, (action, seat) in enumerate(actions):
            assert _snapshot(checked) == snapshots[i] == _snapshot(strict)
            checked.apply(action, seat)
            strict.apply(action, seat)
        assert _snapshot(checked) == snapshots[-1] == _snapshot(strict)
        assert checked.chance.used_setup() == trusted.chance.used_setup() == strict.chance.used_setup()
        assert trusted.events() == checked.events() == strict.events()
        assert trusted.scores() == strict.scores() and trusted.winners() == strict.winners()


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_die_is_drawn_as_chance_draw_draws_it(players, monkeypatch):
    """The same seeded games with `draw_uniform` replaced by `Chance.draw`: the same states,
    the same chance streams and the generator left in the same state at every step."""
    game = load("wildwasser", players=players)

    def play(seed):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        out = []
        while not state.is_terminal():
            seat = state.current_seat
            state.apply_legal(rng.choice(state.legal_actions(seat)), seat)
            out.append((_snapshot(state), repr(state.chance.streams), state.chance._read.copy(),
                        state.chance.rng.getstate()))
        return out, state.chance.used("dice")

    lean = [play(seed) for seed in range(12)]
    monkeypatch.setattr(Chance, "draw_uniform", lambda self, key, dist: self.draw(key, dist))
    reference = [play(seed) for seed in range(12)]
    assert lean == reference
    assert sum(rolls for _, rolls in lean) > 80  # the die was rolled


class _Loaded(random.Random):
    """A generator of its own kind: `Uniform.sample` asks its `randrange`."""

    def randrange(self, *args, **kwargs):
        return 0


@pytest.mark.parametrize("n", range(1, 10))
def test_draw_uniform_draws_what_draw_draws(n):
    """From a plain generator, interleaved with other streams and other kinds of draw: the
    same outcomes, streams, read counts, record and generator state as `draw`."""
    die = Uniform(tuple(f"f{i}" for i in range(n)), "face")
    coin = UnitInterval((0.5,))
    for seed in range(15):
        lean, book = Chance({}, random.Random(seed)), Chance({}, random.Random(seed))
        plan = random.Random(seed)
        for _ in range(40):
            key = plan.choice(("dice", "dice", "other"))
            assert lean.draw_uniform(key, die) == book.draw(key, die)
            if plan.random() < 0.2:
                assert lean.draw("coin", coin) == book.draw("coin", coin)
        assert lean.streams == book.streams and lean._read == book._read
        assert lean.used_setup() == book.used_setup()
        assert lean.rng.getstate() == book.rng.getstate()


def test_draw_uniform_takes_draws_way_for_everything_else():
    """A record's outcomes (strictly, and then a generator's), a chooser, a blind copy's
    unknown outcomes and a generator of another kind: what `draw` gives, in the same order,
    and an exhausted strict stream refused as `draw` refuses it."""
    die = Uniform(("1", "2", "3", "sun"), "die roll")

    def both(make, draws=6):
        lean, book = make(), make()
        for _ in range(draws):
            assert lean.draw_uniform("dice", die) == book.draw("dice", die)
        assert lean.streams == book.streams and lean._read == book._read
        return lean

    strict = both(lambda: Chance({"dice": ["3", "sun", "1"]}), draws=3)
    with pytest.raises(ChanceExhausted):
        strict.draw_uniform("dice", die)
    both(lambda: Chance({"dice": ["3", "sun"]}, random.Random(4)))
    both(lambda: Chance({"other": ["x"]}, random.Random(4)))

    def chosen():
        c = Chance({}, None)
        c.chooser = lambda probabilities: len(probabilities) - 1
        return c

    assert both(chosen).streams["dice"] == ["sun"] * 6

    def blind():
        c = Chance({}, random.Random(9))
        for _ in range(3):
            c.draw("dice", die)
        return c.blind(random.Random(11))

    assert both(blind).streams["dice"][:3] == [None] * 3
    loaded = both(lambda: Chance({}, _Loaded(2)))
    assert loaded.streams["dice"] == ["1"] * 6  # the generator's own randrange, not getrandbits

    class Noting(Chance):
        """A chance of its own kind, whose `draw` does more than draw."""

        __slots__ = ("seen",)

        def draw(self, key, dist):
            self.seen.append(key)
            return super().draw(key, dist)

    def noting():
        c = Noting({}, random.Random(4))
        c.seen = []
        return c

    assert both(noting).seen == ["dice"] * 6  # every roll through its own `draw`


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_environments_count_every_roll_as_a_chance_node(players):
    """The environments' counting chance (`new_counted_game`) sees every die roll in its
    `draw`: a game's chance nodes are its tiles and its rolls, as OpenSpiel counts them."""
    from wasserspiele.adapters.common import game_length, new_counted_game

    game = load("wildwasser", players=players)
    for seed in range(4):
        state = new_counted_game(game, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_seat
            state.apply_legal(rng.choice(state.legal_actions(seat)), seat)
        setup = state.chance.used_setup()
        assert setup["dice"]
        assert state.chance.nodes == len(setup["tiles"]) + len(setup["dice"])
        assert game_length(state) == len(state.history) + state.chance.nodes


@pytest.mark.parametrize("players", range(2, 7))
def test_WW_3_1_the_seats_still_to_pick_are_the_rows_own_keys(players):
    """`after_pick[waiting][seat]` is the seats still to pick once `seat` picked, and is
    the very tuple that keys its own row (so every look-up finds its key by identity); so
    is `all_seats`, every round's first `waiting`."""
    game = load("wildwasser", players=players)
    keys = {id(w) for w in game.after_pick}
    assert game.all_seats == tuple(range(players)) and id(game.all_seats) in keys
    for w, row in game.after_pick.items():
        assert len(row) == players
        for s in range(players):
            want = tuple(x for x in w if x != s) if s in w else None
            assert row[s] == want
            if want:
                assert id(row[s]) in keys
    rng = random.Random(players)
    state = game.new_game(seed=players)
    picks = 0
    while not state.is_terminal():
        if state.phase == PICK_PHASE:
            assert id(state.waiting) in keys
            picks += 1
        seat = rng.choice(state.to_move())
        state.apply_legal(rng.choice(state.legal_actions(seat)), seat)
    assert picks > 10


def test_is_terminal_follows_the_phase():
    state = load("wildwasser", players=3).new_game(seed=1)
    for phase in range(OVER + 1):
        state.phase = phase
        state.sync()  # `is_terminal` is a kept field (the `terminal` slot)
        assert state.is_terminal() is (phase == OVER)


@pytest.mark.parametrize("players", [2, 4])
def test_WW_5_1_the_game_ends_with_the_round_in_which_a_seat_has_three_home(players):
    """Every count of finished animals per seat (0–5, a seat may bring home its third and
    fourth in one round): the round ends the game exactly when some seat has three or
    more, or the tiles ran out (WW-5.2); else the next round begins."""
    game = load("wildwasser", players=players)
    setup = game.new_game(seed=5).chance.used_setup()
    for done in itertools.product(range(N_SPECIES + 1), repeat=players):
        for last_round in (False, True):
            state = game.new_game(setup=setup)  # strict: keeps its log
            state.done = list(done)
            state.last_round = last_round
            state._end_round(len(state.history))
            over = last_round or max(done) >= 3
            assert state.is_terminal() is over
            if over:
                home = tuple(s for s in range(players) if done[s] >= 3)  # WW-5.1: who ended it
                assert state.events(1)[0][1] == ("end", -1, "tiles" if last_round else "finish", home)
                assert (state.card, state.waiting, state.current_seat, state.choices) == (-1, (), None, ())
            else:
                assert state.round == 2 and state.phase == PICK_PHASE and state.card == -1


def _cleared(game, seed):
    """A position of a seeded game with every animal on its team card, keeping its log."""
    state = game.new_game(seed=seed)
    state.log_tail = []  # from here on this state keeps its log (a position built by hand)
    state.pos = [TEAM_CARD] * (N_SPECIES * game.players)
    state.occ = [-1] * len(state.occ)
    return state


@pytest.mark.parametrize("river_flow", ["forward", "back"])
def test_WW_4_1_a_move_passes_occupied_fields_to_the_first_free_one(river_flow):
    """A move of n from p ends on the first free field from p + n on (occupied ones are
    passed), or finishes past the last field: the rule written out, against `_run` on
    crowded tracks."""
    game = load("wildwasser", players=6, river_flow=river_flow)
    rng = random.Random(41)
    passed = finished = 0
    for trial in range(400):
        state = _cleared(game, trial)
        seat, sp = rng.randrange(6), rng.randrange(N_SPECIES)
        mover = seat * N_SPECIES + sp
        others = [a for a in range(6 * N_SPECIES) if a != mover]
        fields = rng.sample(range(1, state.finish), rng.randrange(5, 26))
        p = fields.pop() if rng.random() < 0.8 else TEAM_CARD
        for a, f in zip(rng.sample(others, len(fields)), fields):
            state.pos[a], state.occ[f] = f, a
        state.pos[mover] = p
        if p != TEAM_CARD:
            state.occ[p] = mover
        n = rng.randrange(1, 6)
        f = p + n
        while f < state.finish and state.occ[f] >= 0:  # WW-4.1/4.2
            f += 1
        passed += f > p + n
        state._run(seat, sp, n)
        first = state.log_tail[0]
        if f >= state.finish:
            assert first[:4] == ("finish", seat, sp, p)
            finished += 1
        else:
            assert first == ("move", seat, sp, p, f)
    assert passed > 100 and finished > 10


@pytest.mark.parametrize("river_flow", ["forward", "back"])
def test_WW_4_4_a_push_on_crowded_crossings_moves_every_animal_one_slot_down(river_flow):
    """Crossings crowded so that animals stand one behind another down the river: each
    drifts to the same column of the next slot's crossing, past the last slot back to its
    team card, worked out from the board's crossings (not the engine's drift table)."""
    game = load("wildwasser", players=6, river_flow=river_flow)
    b = game.board
    last = b.slots - 1
    rng = random.Random(44)
    chains = 0
    for trial in range(150):
        state = _cleared(game, trial)
        animals = list(range(6 * N_SPECIES))
        rng.shuffle(animals)
        for f in b.crossing_field_list:
            if rng.random() < 0.75:
                a = animals.pop()
                state.pos[a], state.occ[f] = f, a
        want_pos = state.pos.copy()
        washed = []
        for f in b.crossing_field_list:
            a = state.occ[f]
            if a < 0:
                continue
            slot = game.flow[b.field_crossing[f]]
            if slot == last:
                want_pos[a] = TEAM_CARD
                washed.append(a)
            else:
                below = b.crossing_fields[game.flow.index(slot + 1)][b.field_column[f] - 1]
                want_pos[a] = below
                chains += state.occ[below] >= 0  # the field it drifts to is taken until its animal drifts
        want_occ = [-1] * len(state.occ)
        for a, f in enumerate(want_pos):
            if f != TEAM_CARD:
                want_occ[f] = a
        state._push(0)
        assert state.pos == want_pos and state.occ == want_occ
        assert state.log_tail[-1][0] == "push" and state.log_tail[-1][4] == tuple(washed)
    assert chains > 500


@pytest.mark.parametrize("river_flow", ["forward", "back"])
def test_WW_3_2_the_turtle_card_moves_its_animal_by_one(river_flow):
    """`OTHER_CHOICE[TURTLE]` (`_run` with its n left at 1) moves the turtle, rhino or
    meerkat chosen one field on."""
    game = load("wildwasser", players=4, river_flow=river_flow)
    rng = random.Random(32)
    for trial in range(60):
        state = _cleared(game, trial)
        seat, sp = rng.randrange(4), rng.choice(TURTLE_CARD_MOVES)
        p = rng.randrange(0, state.finish - 1)
        a = seat * N_SPECIES + sp
        state.pos[a] = p
        if p != TEAM_CARD:
            state.occ[p] = a
        OTHER_CHOICE[TURTLE](state, seat, sp)
        assert state.log_tail[0] == ("move", seat, sp, p, p + 1)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_WW_2_1_the_tiles_lie_in_the_order_drawn(players):
    """The tiles removed unseen, then the river below the start tile, then the stack from
    its top: the stream's order of tile ids, as indices."""
    game = load("wildwasser", players=players)
    b = game.board
    for seed in range(20):
        state = game.new_game(seed=seed)
        drawn = [b.tile_index[t] for t in state.chance.used_setup()["tiles"]]
        assert state.slots[0] == b.start_tile
        assert state.removed + state.slots[1:] + state.stack[::-1] == drawn
        assert len(state.removed) == game.removed_count


@pytest.mark.parametrize("players", [2, 4, 6])
def test_WW_3_2_the_revealed_cards_go_back_into_the_hand(players):
    """The meerkat's action and the cards icon (`_cards_back`): the hand then holds what it
    held and every revealed card, nothing lies revealed, at every step of seeded games."""
    game = load("wildwasser", players=players)
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new_game(seed=seed)
        while not state.is_terminal():
            for seat in range(players):
                after = state.clone()
                after._cards_back(seat)
                assert after.hand[seat] == state.hand[seat] | state.revealed[seat]
                assert after.revealed[seat] == 0
                assert after.hand[seat] & ~((1 << N_SPECIES) - 1) == 0
            seat = state.current_seat
            state.apply_legal(rng.choice(state.legal_actions(seat)), seat)
