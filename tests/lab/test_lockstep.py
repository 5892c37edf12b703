"""Studies with the learned bot in every seat play in lockstep (lab/lockstep.py), and those
are the very games the engine plays one at a time: the same rows, measures included, for
every game, for tied logits (the bots' own generators break the ties) and for seats with
different networks."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from wasserspiele import load
from wasserspiele.bots.learned import Network, codec_of, network_for
from wasserspiele.lab import make_study, run_study
from wasserspiele.lab.kernels import kernel_note
from wasserspiele.lab.lockstep import lockstep_reason, play_lockstep

GAMES = {  # game: (options, games) — short enough for a test, long enough for many decisions
    "wasserloch": (["rounds=2"], 24),
    "seven_waters": ([], 4),
    "watten": ([], 8),
    "wildwasser": ([], 4),
}


def _lockstep_and_engine(study):
    """Every condition's games played in one lockstep batch, and one at a time by Series.play."""
    for cond in range(len(study.conditions)):
        series = study.series(cond)
        game = series.load()
        assert lockstep_reason(study, game) is None
        yield (play_lockstep(series, game, range(study.games)),
               [series.play(i, game=game) for i in range(study.games)])


@pytest.mark.parametrize("name", sorted(GAMES))
def test_lockstep_games_are_the_engine_games_with_the_shipped_weights(name):
    options, games = GAMES[name]
    study = make_study(name, bots=["learned"], options=options, games=games, seed=7)
    for fast, slow in _lockstep_and_engine(study):
        assert fast == slow
        assert len({p.actions for p in fast}) > 1  # the games differ (not one game repeated)


@pytest.fixture(scope="module")
def tied_weights(tmp_path_factory):
    """Weights whose policy head is zero: every legal logit ties, so every choice with
    more than one legal move is a draw from the bot's own generator."""
    folder = tmp_path_factory.mktemp("tied")

    def make(name: str, **options) -> str:
        game = load(name, **options)
        codec = codec_of(game)
        net = Network.init(codec.obs_size, codec.num_actions, (8,), np.random.default_rng(1))
        net.params["wp"][:] = 0
        path = folder / f"{name}.npz"
        net.save(path, {"game": name})
        return str(path)
    return make


@pytest.mark.parametrize("name", ["wasserloch", "watten"])
def test_lockstep_breaks_ties_with_each_bots_own_generator_as_the_bot_does(name, tied_weights):
    weights = tied_weights(name)
    options, games = GAMES[name]
    study = make_study(name, bots=[f"learned:weights={weights}"], options=options, games=games, seed=2)
    for fast, slow in _lockstep_and_engine(study):
        assert fast == slow


def test_seats_with_different_networks_each_get_their_own_and_the_rows_equal_the_engine_study(tied_weights):
    weights = tied_weights("wasserloch", players=3)
    study = make_study("wasserloch", players=["3"], bots=["learned", f"learned:weights={weights}"],
                       options=["rounds=1"], compare=["chase=nearest,adjacent"], games=20, seed=4)
    for fast, slow in _lockstep_and_engine(study):
        assert fast == slow
    engine = dataclasses.replace(study, kernels=False)
    assert run_study(study, jobs=1).rows == run_study(engine, jobs=1).rows
    assert kernel_note(study).startswith("Played in lockstep")
    assert "switched off" in kernel_note(engine)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_batch_of_observations_gives_each_row_exactly_its_lone_logits(name):
    """Bit for bit: a near tie must not turn into another move because of the batch."""
    game = load(name)
    codec = codec_of(game)
    net = network_for(game, codec)
    rng = np.random.default_rng(0)
    x = (rng.random((37, codec.obs_size)) < 0.3).astype(np.float32) * rng.random((37, codec.obs_size),
                                                                                   dtype=np.float32)
    batch = net.logits_rows(x)
    assert all(np.array_equal(batch[r], net.logits(x[r])) for r in range(len(x)))


def test_studies_with_another_bot_or_a_searching_learned_bot_play_through_the_engine_and_say_why():
    mixed = make_study("watten", bots=["learned heuristic"], games=2)
    assert "`heuristic`" in lockstep_reason(mixed, mixed.conditions[0].load("watten"))
    assert kernel_note(mixed) is None  # no lab kernel for Watten and not every seat learned: no choice
    searching = make_study("watten", bots=["learned:search=3"], games=2)
    assert "searches" in lockstep_reason(searching, searching.conditions[0].load("watten"))
    assert kernel_note(searching).startswith("Played through the Python engine, not lockstep")
    assert kernel_note(make_study("watten", bots=["learned"], games=2)).startswith("Played in lockstep")
    from wasserspiele.fast import COMPILED
    inside = "in the compiled watten kernel" in kernel_note(make_study("watten", bots=["learned"], games=2))
    assert inside == COMPILED
    assert "compiled" not in kernel_note(make_study("seven_waters", bots=["learned"], games=2))


def test_bots_share_one_codec_per_game_class_and_options_and_keep_no_game_alive():
    import gc
    import weakref

    first, again, other = load("watten"), load("watten"), load("watten", target=4)
    assert codec_of(first) is codec_of(again)
    assert codec_of(other) is not codec_of(first) and codec_of(other).game.options["target"] == 4
    later = weakref.ref(again)  # the cache holds the first game of these options, not each one
    del again
    gc.collect()
    assert later() is None


def test_a_learned_only_study_plays_chunks_of_at_least_thirty_two_games_and_others_keep_theirs():
    from wasserspiele.bots.runner import chunked
    from wasserspiele.lab.backends import LOCKSTEP_CHUNK, chunk_least

    learned = make_study("watten", bots=["learned"], games=100)
    assert chunk_least(learned) == LOCKSTEP_CHUNK == 32
    assert chunk_least(dataclasses.replace(learned, kernels=False)) == 1
    assert chunk_least(make_study("watten", bots=["learned heuristic"], games=100)) == 1
    sizes = [len(c) for c in chunked(learned.tasks(), 2, least=chunk_least(learned))]
    assert sizes == [32] * 3 + [4]
    assert [len(c) for c in chunked(learned.tasks(), 2)] == [3] * 33 + [1]


def test_a_kernel_lockstep_study_gives_each_worker_one_chunk_of_up_to_128_games():
    from wasserspiele.fast import COMPILED
    from wasserspiele.lab.backends import KERNEL_CHUNK, LOCKSTEP_CHUNK, chunk_least

    watten = make_study("watten", bots=["learned"], games=100)
    seven = make_study("seven_waters", bots=["learned"], games=100)
    if COMPILED:
        assert [chunk_least(watten, 100, jobs) for jobs in (1, 2, 8)] == [100, 50, LOCKSTEP_CHUNK]
        assert chunk_least(watten, 10_000, 2) == KERNEL_CHUNK == 128
    else:  # no kernel: the Python lockstep
        assert chunk_least(watten, 100, 1) == LOCKSTEP_CHUNK
    assert chunk_least(seven, 100, 1) == LOCKSTEP_CHUNK  # Seven Waters' lockstep runs in Python
    assert chunk_least(dataclasses.replace(watten, kernels=False), 100, 1) == 1


KERNEL_GAMES = {  # game: option sets whose chance and rules the kernel path must follow (the first two
    # keep the shipped network's sizes, so the row test below plays them with the learned bot)
    "wildwasser": [{}, {"first_player": 2, "river_flow": "back"}, {"players": 3, "first_player": 1},
                   {"players": 6, "river_flow": "back"}],
    "watten": [{}, {"raising": True, "signal_detection_p": 0.3}, {"signals": "public", "caller": "dealer_left",
                                                                  "raising": True, "target": 7}],
}


@pytest.mark.parametrize("name,options", [(n, o) for n, sets in KERNEL_GAMES.items() for o in sets])
def test_the_kernel_lockstep_path_asks_with_the_engines_legal_actions_and_observations(name, options):
    """Random choices at every real decision, the kernel and the engine side by side from
    the same seeds: the same decisions (forced moves played by the kernel), the same legal
    indices in the same order, the same observation vectors, the same ends."""
    import random

    from wasserspiele.fast import COMPILED
    from wasserspiele.lab.measures import measures_class
    if not COMPILED:
        pytest.skip("the kernel path needs numba")
    game = load(name, **options)
    codec = codec_of(game)
    seeds = [11, 2**40 + 3, 77, 2**62 + 5]
    tables = measures_class(game).lockstep_tables(game, seeds, codec.obs_size)
    states = [game.new_game(seed=s) for s in seeds]
    rng = random.Random(5)
    asking, n_legal = np.zeros(len(seeds), np.int64), np.zeros(len(seeds), np.int64)
    legal = np.zeros((len(seeds), tables.max_legal), np.int64)
    x = np.zeros((len(seeds), codec.obs_size), np.float32)
    picks = np.zeros(len(seeds), np.int64)
    n = decisions = 0
    while True:
        n = tables.round(picks, n, 100_000, asking, legal, n_legal, x)
        expected = []
        for g, state in enumerate(states):
            while not state.is_terminal():
                moves = codec.legal_map_state(state, state.current_seat)
                if len(moves) > 1:
                    expected.append(g)
                    break
                state.apply_legal(next(iter(moves.values())), state.current_seat)
        assert asking[:n].tolist() == expected
        if not n:
            break
        seats = tables.seats(asking[:n])
        for r, g in enumerate(expected):
            state, seat = states[g], seats[r]
            assert seat == state.current_seat
            moves = codec.legal_map_state(state, seat)
            assert legal[r, :n_legal[r]].tolist() == list(moves)
            assert np.array_equal(x[r], codec.observe_state(state, seat))
            picks[r] = rng.randrange(n_legal[r])
            state.apply_legal(moves[int(legal[r, picks[r]])], seat)
            decisions += 1
    for state, r in zip(states, tables.results()):
        assert (r["scores"], r["winners"], r["actions"]) == (list(state.scores()), state.winners(),
                                                             len(state.history))
    assert decisions > 200


@pytest.mark.parametrize("name,options", [(n, sets[1]) for n, sets in KERNEL_GAMES.items()])
def test_kernel_lockstep_studies_under_other_options_give_the_engine_rows(name, options):
    study = make_study(name, bots=["learned"], options=[f"{k}={str(v).lower()}" for k, v in options.items()],
                       games=6, seed=3)
    for fast, slow in _lockstep_and_engine(study):
        assert fast == slow


def test_the_kernels_pick_is_best_legals_rule_on_near_ties():
    """best_rows (compiled) picks what best_legal picks, and defers exactly its ties: logits
    a few float32 steps either side of the 1e-6 margin."""
    import random

    from wasserspiele.bots.learned import best_legal
    from wasserspiele.lab.lockstep import best_rows
    rng = np.random.default_rng(3)
    n, width = 4000, 12
    logits = rng.normal(0, 1, (n, width)).astype(np.float32)
    n_legal = rng.integers(2, 9, n)
    legal = np.zeros((n, 8), np.int64)
    for r in range(n):
        legal[r, :n_legal[r]] = rng.choice(width, n_legal[r], replace=False)
        top = logits[r, legal[r, 0]]
        other = legal[r, 1 + r % (n_legal[r] - 1)]
        step = (r % 9) - 4  # float32 steps around top - 1e-6
        logits[r, other] = np.nextafter(top - np.float32(1e-6), np.float32(np.inf * np.sign(step or 1))) \
            if step else top - np.float32(1e-6)
        logits[r, legal[r, 0]] = max(logits[r, legal[r, :n_legal[r]]].max(), top)
    picks = np.zeros(n, np.int64)
    ties = best_rows(logits, legal, n_legal, picks, n)
    assert 0 < ties < n
    for r in range(n):
        row = legal[r, :n_legal[r]].tolist()
        draws = random.Random(r)
        expect = best_legal(logits[r:r + 1], [row], [draws])[0]
        if picks[r] < 0:
            assert draws.getstate() != random.Random(r).getstate()  # best_legal drew too: a tie
        else:
            assert picks[r] == expect and draws.getstate() == random.Random(r).getstate()
