"""The open-hand solver's scratch comes from Python (kernel.solver_scratch), so the compiled
search passes it on without numba's reference counting: a scratch used again must not
remember the last hand, and `hand_winner` allocates its own per call, so that searches in
several threads (the web's bot workers) do not share one."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from wasserspiele import load
from wasserspiele.games.watten import kernel as K
from wasserspiele.games.watten.state import PLAY_PHASE

from .test_solver import positions, reference_winner


def first_cards(count: int, seed: int) -> list:
    """Positions at the first card of a hand (random calls and signals): every hand's
    first trick start has the same key (nothing played, no trick won) but for its leader."""
    import random

    game, rng, found = load("watten"), random.Random(seed), []
    for g in range(count):
        state = game.new_game(seed=seed * 1000 + g)
        while state.phase != PLAY_PHASE:
            state.apply(rng.choice(state.legal_actions(state.current_seat)), state.current_seat)
        found.append(state)
    return found


def test_wa_3_wa_4_1_a_scratch_used_again_solves_each_hand_afresh():
    """One scratch for hands of different deals, first cards and later ones alternating:
    each answer is the exhaustive search's, not what the scratch remembered of the hand
    before (the search clears its remembered trick starts itself)."""
    rules = K.Rules()
    scratch = K.solver_scratch()
    states = [s for pair in zip(first_cards(14, seed=21), positions({}, 14, seed=22, min_cards=4)) for s in pair]
    winners = []
    for state in states:
        got = K._hand_winner(K.table_of(state), rules.opts, rules.eff, rules.strength, *scratch)
        assert got == reference_winner(state), (state.history[-6:], state.hands)
        winners.append(got)
    assert 0 < sum(winners) < len(winners)  # both teams win some: a stale answer would show


def test_wa_3_solving_in_threads_gives_the_answers_of_one_thread():
    """`hand_winner` allocates its scratch per call (the compiled search releases the GIL):
    hands solved by four threads at once get the answers they get one after another."""
    rules = K.Rules()
    tables = [K.table_of(s) for s in first_cards(60, seed=23) + positions({}, 60, seed=24)]

    def solve(chunk):
        return [int(K.hand_winner(t, rules.opts, rules.eff, rules.strength)) for t in chunk for _ in range(8)]

    alone = solve(tables)
    chunks = [tables[i::4] for i in range(4)]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(solve, chunks))
    for i, got in enumerate(together):
        assert got == solve(chunks[i]) == [a for j, a in enumerate(alone) if (j // 8) % 4 == i]
