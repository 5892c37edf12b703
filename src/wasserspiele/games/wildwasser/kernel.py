"""Wildwasser as an array kernel for bulk play (uniformly random seats, whole games).

The rules are those of `rules.py` on two flat int64 arrays: `bd`, the board of
`board.json` and the river flow (`board_array`: a header of sizes and offsets, then
the lookup tables; passed in, so a changed board file is read, never baked into the
compiled code), and `st`, one position (`new_position`):

    st[0:N_SCALARS]          the scalars MARKER … PLAYERS below
    st[POS + a], st[PLACE + a]   animal a = 5·seat + species: field (0 team card, fields + 1
                             finished), podium place (0 none)
    st[PODIUM_N + sp], st[DONE + s], st[HAND + s], st[REVEALED + s], st[PICK + s]
                             placed per species; finished per seat; species bit masks; the pick or -1
    st[st[SLOTS_AT] + i], st[st[OCC_AT] + f], st[st[STACK_AT] + i]
                             tile per river slot or -1; animal per field or -1; the stack, top last

One array per position keeps the compiled calls cheap: a tuple of eleven arrays,
unpacked in every function, filled the compiled code with reference counting and ran
5× slower.  The entry points take their arrays `unmanaged` (wasserspiele.fast: no
reference counting at all), and the helpers are inlined except `run`, `push` and
`roll`: inlining those too (each is inlined into several callers) took the first
compile of `play_games` from 8 to 40 s for about 10% more games per second.

Decisions are coded as the single-table codec's action indices (codec.py: `pick A`
0-4, `move` 5, `move A` 6-10, `action` 11, `action S` 12-17, `sun A` 18-22, `marker S`
23-28); `legal` lists them in the engine's order.  The picks
of a round are made seat by seat (seat 0 first), as `state.current_seat` asks for
them.  Chance (the tile order, the die) and the random seats draw from the position's
own xorshift32 state (`wasserspiele.fast`), so compiled (numba) and pure-Python runs
give the same games.  tests/games/wildwasser/test_kernel.py replays thousands of kernel
games through the Python engine (same tiles, same die rolls, same decisions: same
legal actions at every decision, same podium places, points and winners).

    points, winners = play_games(games=10_000, players=4, seed=1)   # (games, players) each
"""

from __future__ import annotations

import numpy as np

from ...fast import (MT_SIZE, below, inline_kernel, kernel, mt_below, mt_seed, seed_state, shuffle_xorshift, unmanaged,
                     xorshift32)
from .actions import MAX_SEATS
from .board import CARDS, CHEETAH, DIE, MARKER as MARKER_ICON, MEERKAT, RHINO, TURTLE, ZEBRA
from .rules import BOARD, FINISHED_TO_END, TIE_BREAK
from .state import CHOOSE, MARKER_CHOICE, N_SPECIES, OVER, PICK_PHASE, SUN_CHOICE, TEAM_CARD

# action codes: the codec's indices (tested against codec.action_names)
PICK_A, MOVE_CARD, MOVE_A, ACTION, ACTION_S, SUN_A, MARKER_S = 0, 5, 6, 11, 12, 18, 23
N_ACTIONS = 29
MAX_LEGAL = 8                       # at most 6 (the cheetah's move and 5 seats; 6 markers)
ALL_SPECIES = (1 << N_SPECIES) - 1
TURTLE_CARD_MASK = 1 << TURTLE | 1 << RHINO | 1 << MEERKAT  # WW-3.2: what the turtle card may move
ROLL_NOTHING, ROLL_SUN = -1, -2

# st: the scalars, then the per-animal and per-seat blocks (room for MAX_SEATS), then the
# board-sized blocks at the offsets the header names
(MARKER, PHASE, TURN, CARD, NSTACK, GAPS, LAST_ROUND, ROUND, WAIT, FIRST, NDISCARD, RNG, NDICE, PLAYERS,
 SLOTS_AT, OCC_AT, STACK_AT, LAB_AT) = range(18)
N_SCALARS = 18
# LAB_AT: 0, or where a lab game's tail begins (after the position: lab_start): its
# chance generator, CPython's Mersenne Twister, which `roll` then draws the die from as
# the engine does, and the push count `push` keeps there for the lab's measures
POS = N_SCALARS
PLACE = POS + N_SPECIES * MAX_SEATS
PODIUM_N = PLACE + N_SPECIES * MAX_SEATS
DONE = PODIUM_N + N_SPECIES
HAND = DONE + MAX_SEATS
REVEALED = HAND + MAX_SEATS
PICK = REVEALED + MAX_SEATS
BOARD_BLOCKS = PICK + MAX_SEATS

# a lab game's tail (LAB_AT): pushes, animals washed over the waterfall per seat, the generator
LAB_PUSHES = 0
LAB_WASHED = 1
LAB_MT = LAB_WASHED + MAX_SEATS
LAB_TAIL = LAB_MT + MT_SIZE

# bd: sizes, then the offsets of its tables
(B_FINISH, B_SLOTS, B_COLUMNS, B_FACES, B_REGULAR_N, B_START, B_PODIUM_W, B_FIELD_CROSSING, B_FIELD_COLUMN,
 B_BANK_ICON, B_CROSSING_FIRST, B_CROSSING_FIELDS, B_TILE_ICONS, B_SPEED, B_PODIUM, B_FACE_SPECIES, B_REGULAR,
 B_FLOW, B_SLOT_CROSSING) = range(19)
B_HEADER = 20


def board_array(river_flow: str = "forward", board=BOARD) -> np.ndarray:
    """The board's lookup tables and a river flow as one int64 array (header: sizes and
    the offset of each table)."""
    b = board
    flow = b.flows[river_flow]
    podium_w = max(len(p) for p in b.podium)
    podium = [[pts[i] if i < len(pts) else 0 for i in range(podium_w)] for pts in b.podium]
    tables = {
        B_FIELD_CROSSING: list(b.field_crossing), B_FIELD_COLUMN: list(b.field_column),
        B_BANK_ICON: list(b.bank_icon), B_CROSSING_FIRST: list(b.crossing_first),
        B_CROSSING_FIELDS: [f for row in b.crossing_fields for f in row],
        B_TILE_ICONS: [i for row in b.tile_icons for i in row], B_SPEED: list(b.speed),
        B_PODIUM: [p for row in podium for p in row],
        B_FACE_SPECIES: [b.face_species[f] for f in b.die_faces],
        B_REGULAR: [b.tile_index[t] for t in b.regular_ids],
        B_FLOW: list(flow), B_SLOT_CROSSING: [flow.index(s) for s in range(b.slots)],
    }
    header = [0] * B_HEADER
    header[B_FINISH], header[B_SLOTS], header[B_COLUMNS] = b.fields + 1, b.slots, b.columns
    header[B_FACES], header[B_REGULAR_N] = len(b.die_faces), len(b.regular_ids)
    header[B_START], header[B_PODIUM_W] = b.start_tile, podium_w
    out = header
    for key, values in tables.items():
        out[key] = len(out)
        out.extend(values)
    return np.array(out, np.int64)


BOARDS = {flow: board_array(flow) for flow in BOARD.flows}


def position_size(board=BOARD) -> int:
    return BOARD_BLOCKS + board.slots + board.fields + 2 + len(board.regular_ids)


def new_position(board=BOARD) -> np.ndarray:
    """An empty position array (start_game fills it)."""
    return np.zeros(position_size(board), np.int64)


def from_state(state, seed: int = 0) -> np.ndarray:
    """The kernel position of an engine state (rules.WildwasserState), its generator
    seeded from `seed`: how a search or the lab hands a position to the kernel.  The
    engine's stack keeps its top last, as the kernel's does."""
    b = state.board
    p = state.players
    n = N_SPECIES * p
    st = new_position(b)
    slots_at, occ_at = BOARD_BLOCKS, BOARD_BLOCKS + b.slots
    stack_at = occ_at + b.fields + 2
    st[SLOTS_AT], st[OCC_AT], st[STACK_AT] = slots_at, occ_at, stack_at
    st[POS:POS + n] = state.pos
    st[PLACE:PLACE + n] = state.place
    st[PODIUM_N:PODIUM_N + N_SPECIES] = state.podium_n
    st[DONE:DONE + p] = state.done
    st[HAND:HAND + p] = state.hand
    st[REVEALED:REVEALED + p] = state.revealed
    st[PICK:PICK + p] = state.pick
    st[slots_at:slots_at + b.slots] = state.slots
    st[occ_at:occ_at + b.fields + 2] = state.occ[:b.fields + 2]  # (the engine's runs past the finish)
    st[stack_at:stack_at + len(state.stack)] = state.stack
    st[NSTACK] = len(state.stack)
    st[GAPS] = state.gaps
    st[LAST_ROUND] = state.last_round
    st[MARKER], st[PHASE], st[TURN], st[CARD], st[ROUND] = state.marker, state.phase, state.turn, state.card, state.round
    st[FIRST] = state.order[0]
    st[WAIT] = state.waiting[0] if state.waiting else -1  # picks: the lowest seat still to pick
    st[NDISCARD] = len(state.discard)
    st[RNG] = seed_state(seed)
    st[PLAYERS] = p
    return st


# -- setup ----------------------------------------------------------------------------
@kernel
def shuffle_tiles(bd, order, x: int) -> int:
    """WW-2.1: a uniformly random order of the regular tiles into `order` (Fisher-Yates);
    the new generator state."""
    n = bd[B_REGULAR_N]
    r = bd[B_REGULAR]
    for i in range(n):
        order[i] = bd[r + i]
    return shuffle_xorshift(order, n, x)


@kernel
def start_game(st, bd, players, first, removed, order, x):
    """WW-1, WW-2.1: teams on their cards, full hands, the start marker at `first`; the
    tile `order` (regular tiles) puts `removed` out unseen, the next ones into slots
    2.., the rest onto the stack (top last, as the engine keeps it).  `x` seeds the
    position's generator."""
    ns = bd[B_SLOTS]
    n = bd[B_REGULAR_N]
    st[:] = 0
    st[SLOTS_AT] = BOARD_BLOCKS
    st[OCC_AT] = BOARD_BLOCKS + ns
    st[STACK_AT] = BOARD_BLOCKS + ns + bd[B_FINISH] + 1
    occ = st[OCC_AT]
    for f in range(bd[B_FINISH] + 1):
        st[occ + f] = -1
    for s in range(players):
        st[HAND + s] = ALL_SPECIES
        st[PICK + s] = -1
    slots = st[SLOTS_AT]
    st[slots] = bd[B_START]
    for i in range(1, ns):
        st[slots + i] = order[removed + i - 1]
    rest = n - removed - (ns - 1)
    stack = st[STACK_AT]
    for i in range(rest):
        st[stack + i] = order[n - 1 - i]
    st[NSTACK] = rest
    st[MARKER] = first
    st[ROUND] = 1
    st[RNG] = x
    st[PLAYERS] = players
    begin_round(st)


# -- WW-3 rounds ------------------------------------------------------------------------
@inline_kernel
def begin_round(st):
    """WW-3.1: every seat picks face down (seat 0 first); resolution starts at the marker."""
    st[PHASE] = PICK_PHASE
    st[TURN] = -1
    st[CARD] = -1
    st[FIRST] = st[MARKER]
    st[WAIT] = 0


@inline_kernel
def unfinished(st, finish, seat, mask) -> int:
    """Bit mask of the species in `mask` of `seat` that have not finished."""
    m = 0
    base = POS + seat * N_SPECIES
    for sp in range(N_SPECIES):
        if mask >> sp & 1 and st[base + sp] != finish:
            m |= 1 << sp
    return m


@inline_kernel
def next_turn(st, bd):
    """WW-3.1, WW-3.3: the next seat from the marker reveals its card; a turtle card with
    nothing left to move does nothing.  After the last seat the round ends."""
    players = st[PLAYERS]
    while True:
        st[TURN] += 1
        if st[TURN] == players:
            end_round(st)
            return
        s = (st[FIRST] + st[TURN]) % players
        c = st[PICK + s]
        st[PICK + s] = -1
        st[REVEALED + s] |= 1 << c  # WW-3.4: revealed cards stay face up
        st[CARD] = c
        if c == TURTLE and not unfinished(st, bd[B_FINISH], s, TURTLE_CARD_MASK):
            continue
        st[PHASE] = CHOOSE
        st[WAIT] = s
        return


@inline_kernel
def end_round(st):
    """WW-3.4 empty hands take their revealed cards back; WW-5.1/WW-5.2 the game ends
    with this round."""
    st[CARD] = -1
    most = 0
    for s in range(st[PLAYERS]):
        if st[HAND + s] == 0:
            st[HAND + s] = st[REVEALED + s]
            st[REVEALED + s] = 0
        most = max(most, st[DONE + s])
    if st[LAST_ROUND] or most >= FINISHED_TO_END:
        st[PHASE] = OVER
        st[WAIT] = -1
        return
    st[ROUND] += 1
    begin_round(st)


# -- WW-4 movement, icons, the river ----------------------------------------------------
@inline_kernel
def gap_after(st, bd, p) -> int:
    """WW-4.5: the first field of the first crossing ahead of field p whose slot is empty
    (fields + 1 when there is none)."""
    best = bd[B_FINISH]
    slots = st[SLOTS_AT]
    for k in range(bd[B_SLOTS]):
        first = bd[bd[B_CROSSING_FIRST] + k]
        if first > p and st[slots + bd[bd[B_FLOW] + k]] < 0 and first < best:
            best = first
    return best


@inline_kernel
def step(st, bd, a, n) -> int:
    """WW-4.1, WW-4.2, WW-4.5: move animal `a` n fields forward (occupied fields count;
    ending on one it goes on to the next free field; past the last field it finishes and
    takes its species' next podium place; an empty slot's crossing stops it before).
    The field where it ended, 0 if it finished or could not move."""
    finish = bd[B_FINISH]
    occ = st[OCC_AT]
    p = st[POS + a]
    gap = gap_after(st, bd, p) if st[GAPS] else finish
    t = p + n
    while t < gap and st[occ + t] >= 0:
        t += 1
    if t >= gap and gap < finish:
        t = gap - 1
        while t > p and st[occ + t] >= 0:
            t -= 1
        if t <= p:
            return 0
    st[occ + p] = -1
    if t >= finish:
        sp = a % N_SPECIES
        st[POS + a] = finish
        st[PODIUM_N + sp] += 1
        st[PLACE + a] = st[PODIUM_N + sp]
        st[DONE + a // N_SPECIES] += 1
        return 0
    st[occ + t] = a
    st[POS + a] = t
    return t


@inline_kernel
def icon_at(st, bd, f) -> int:
    """The icon on field f now: fixed on a bank, from the tile in the slot on a crossing."""
    k = bd[bd[B_FIELD_CROSSING] + f]
    if k < 0:
        return bd[bd[B_BANK_ICON] + f]
    t = st[st[SLOTS_AT] + bd[bd[B_FLOW] + k]]
    if t < 0:
        return 0
    return bd[bd[B_TILE_ICONS] + t * (bd[B_COLUMNS] + 1) + bd[bd[B_FIELD_COLUMN] + f]]


@kernel
def roll(st, bd, seat, dice) -> int:
    """WW-3.2 rhino action / WW-4.3 die icon: roll (the face is logged in `dice` while it
    has room); the animal to move by its speed, ROLL_SUN (the seat chooses an animal to
    move 1) or ROLL_NOTHING (WW-3.3)."""
    lab = st[LAB_AT]
    if lab:  # a lab game: the engine's draw (`Uniform(die faces)` from random.Random)
        face = mt_below(st[lab + LAB_MT:lab + LAB_MT + MT_SIZE], bd[B_FACES])
    else:
        x = xorshift32(st[RNG])
        st[RNG] = x
        face = below(x, bd[B_FACES])
    if st[NDICE] < len(dice):
        dice[st[NDICE]] = face
    st[NDICE] += 1
    sp = bd[bd[B_FACE_SPECIES] + face]
    finish = bd[B_FINISH]
    if sp < 0:
        if unfinished(st, finish, seat, ALL_SPECIES):
            st[PHASE] = SUN_CHOICE
            return ROLL_SUN
        return ROLL_NOTHING
    a = seat * N_SPECIES + sp
    if st[POS + a] == finish:
        return ROLL_NOTHING
    return a


@inline_kernel
def cards_back(st, seat):
    """WW-3.2 meerkat action / WW-4.3 cards icon: all revealed cards back into hand."""
    st[HAND + seat] |= st[REVEALED + seat]
    st[REVEALED + seat] = 0


@kernel
def push(st, bd):
    """WW-4.4 push / WW-5.2: the top tile enters slot 1, every tile and the animals on it
    drift one slot down (from the waterfall up, so no field is taken twice), the animals
    of the last slot go back to their team cards.  With the stack empty slot 1 stays
    empty and this is the last round."""
    if st[LAB_AT]:
        st[st[LAB_AT] + LAB_PUSHES] += 1
    if st[NSTACK] > 0:
        st[NSTACK] -= 1
        new = st[st[STACK_AT] + st[NSTACK]]
    else:
        new = -1
        st[LAST_ROUND] = 1
    occ = st[OCC_AT]
    slots = st[SLOTS_AT]
    cols = bd[B_COLUMNS]
    fields = bd[B_CROSSING_FIELDS]
    slot_crossing = bd[B_SLOT_CROSSING]
    last = bd[B_SLOTS] - 1
    for s in range(last, -1, -1):
        here = fields + bd[slot_crossing + s] * cols
        for col in range(cols):
            f = bd[here + col]
            a = st[occ + f]
            if a >= 0:
                st[occ + f] = -1
                if s == last:
                    st[POS + a] = TEAM_CARD
                    if st[LAB_AT]:
                        st[st[LAB_AT] + LAB_WASHED + a // N_SPECIES] += 1
                else:
                    nf = bd[fields + bd[slot_crossing + s + 1] * cols + col]
                    st[occ + nf] = a
                    st[POS + a] = nf
    if st[slots + last] >= 0:
        st[NDISCARD] += 1
    for s in range(last, 0, -1):
        st[slots + s] = st[slots + s - 1]
    st[slots] = new
    gaps = 0
    for s in range(last + 1):
        if st[slots + s] < 0:
            gaps = 1
    st[GAPS] = gaps


@kernel
def run(st, bd, a, n, dice) -> bool:
    """WW-4.3: move `a` by n, then resolve the icon where the movement ended, chains in
    order.  True when a decision of the seat is pending (a sun, a start marker)."""
    seat = a // N_SPECIES
    while True:
        f = step(st, bd, a, n)
        if not f:
            return False
        icon = icon_at(st, bd, f)
        if not icon:
            return False
        if icon <= 3:  # +1 / +2 / +3: the same animal moves on
            n = icon
        elif icon == DIE:
            a = roll(st, bd, seat, dice)
            if a < 0:
                return a == ROLL_SUN
            n = bd[bd[B_SPEED] + a % N_SPECIES]
        elif icon == MARKER_ICON:
            st[PHASE] = MARKER_CHOICE
            return True
        elif icon == CARDS:
            cards_back(st, seat)
            return False
        else:  # the push icon
            push(st, bd)
            return False


@inline_kernel
def resolve(st, bd, code, seat, dice) -> bool:
    """WW-3.2: carry out the revealed card: its move, or its action."""
    c = st[CARD]
    speed = bd[B_SPEED]
    base = seat * N_SPECIES
    if code == MOVE_CARD:
        return run(st, bd, base + c, bd[speed + c], dice)
    if code < ACTION:  # the turtle card: move turtle, rhino or meerkat 1
        return run(st, bd, base + code - MOVE_A, 1, dice)
    if c == CHEETAH:
        st[MARKER] = code - ACTION_S  # WW-3.5: only its last place counts
        return False
    if c == ZEBRA:
        push(st, bd)
        return False
    if c == RHINO:
        a = roll(st, bd, seat, dice)
        if a < 0:
            return a == ROLL_SUN
        return run(st, bd, a, bd[speed + a % N_SPECIES], dice)
    cards_back(st, seat)  # MEERKAT
    return False


# -- decisions -----------------------------------------------------------------------------
@inline_kernel
def legal(st, bd, out) -> int:
    """The action codes of the seat to move (st[WAIT]) into `out`, in the engine's order;
    their count (0 once the game is over)."""
    seat = st[WAIT]
    ph = st[PHASE]
    finish = bd[B_FINISH]
    base = POS + seat * N_SPECIES
    k = 0
    if ph == PICK_PHASE:
        hand = st[HAND + seat]
        for sp in range(N_SPECIES):
            if hand >> sp & 1:
                out[k] = PICK_A + sp
                k += 1
    elif ph == CHOOSE:
        c = st[CARD]
        if c == TURTLE:  # the engine's order: turtle, rhino, meerkat
            if st[base + TURTLE] != finish:
                out[k] = MOVE_A + TURTLE
                k += 1
            if st[base + RHINO] != finish:
                out[k] = MOVE_A + RHINO
                k += 1
            if st[base + MEERKAT] != finish:
                out[k] = MOVE_A + MEERKAT
                k += 1
        else:
            if st[base + c] != finish:
                out[k] = MOVE_CARD
                k += 1
            if c == CHEETAH:
                for t in range(st[PLAYERS]):
                    if t != st[MARKER]:
                        out[k] = ACTION_S + t
                        k += 1
            else:
                out[k] = ACTION
                k += 1
    elif ph == SUN_CHOICE:
        for sp in range(N_SPECIES):
            if st[base + sp] != finish:
                out[k] = SUN_A + sp
                k += 1
    elif ph == MARKER_CHOICE:
        for s in range(st[PLAYERS]):
            out[k] = MARKER_S + s
            k += 1
    return k


@inline_kernel
def apply(st, bd, code, dice):
    """The seat to move (st[WAIT]) takes decision `code`, a legal one (the caller checks)."""
    seat = st[WAIT]
    ph = st[PHASE]
    if ph == PICK_PHASE:  # WW-3.1: a secret pick; the first reveal waits for the last one
        st[HAND + seat] &= ~(1 << code)
        st[PICK + seat] = code
        s = seat + 1
        while s < st[PLAYERS] and st[PICK + s] >= 0:
            s += 1
        if s < st[PLAYERS]:
            st[WAIT] = s
        else:
            next_turn(st, bd)
        return
    st[PHASE] = CHOOSE
    if ph == CHOOSE:
        pending = resolve(st, bd, code, seat, dice)
    elif ph == SUN_CHOICE:
        pending = run(st, bd, seat * N_SPECIES + code - SUN_A, 1, dice)
    else:
        st[MARKER] = code - MARKER_S
        pending = False
    if not pending:
        next_turn(st, bd)


@inline_kernel
def random_action(st, bd, out) -> int:
    """A uniformly random legal action of the seat to move (from the position's generator)."""
    k = legal(st, bd, out)
    x = xorshift32(st[RNG])
    st[RNG] = x
    return out[below(x, k)]


# -- outcome ----------------------------------------------------------------------------------
@kernel
def points(st, bd, out):
    """WW-5.3: podium points per seat into `out`."""
    w = bd[B_PODIUM_W]
    podium = bd[B_PODIUM]
    for s in range(st[PLAYERS]):
        out[s] = 0
        for sp in range(N_SPECIES):
            pl = st[PLACE + s * N_SPECIES + sp]
            if pl and pl <= w:
                out[s] += bd[podium + sp * w + pl - 1]


@kernel
def winners(st, pts, out):
    """WW-5.3: 1 for each winner in `out`: most points; ties go to the better turtle place,
    then meerkat, rhino, zebra, cheetah (a placed animal beats none); still tied, shared."""
    players = st[PLAYERS]
    best = pts[:players].max()
    tied = 0
    for s in range(players):
        out[s] = 1 if pts[s] == best else 0
        tied += out[s]
    if tied == 1:
        return
    for sp in TIE_BREAK:
        top, who = 0, -1
        for s in range(players):
            pl = st[PLACE + s * N_SPECIES + sp]
            if out[s] and pl and (who < 0 or pl < top):
                top, who = pl, s
        if who >= 0:
            for s in range(players):
                out[s] = 1 if s == who else 0
            return


@kernel
def race_estimate(st, bd, out):
    """Each seat's final points as the race stands, times the finish (whole numbers, so the
    compiled and the pure-Python kernel agree exactly), into `out`: the podium points won,
    and for each animal on the track the points of the podium place it would take if the
    animals finished in their present order (those of its species ahead of it on the
    track come first, after the ones already placed), weighted by its progress f/finish
    (an animal near the finish all but holds its place; one on the team card, none).
    The search's value of a rollout cut off before the end (`heuristic.estimated_scores`):
    the podium points alone are mostly 0 then, and every cut-off rollout a draw."""
    finish = bd[B_FINISH]
    w = bd[B_PODIUM_W]
    podium = bd[B_PODIUM]
    players = st[PLAYERS]
    points(st, bd, out)
    for s in range(players):
        out[s] *= finish
    for sp in range(N_SPECIES):
        for s in range(players):
            f = st[POS + s * N_SPECIES + sp]
            if f == TEAM_CARD or f >= finish:
                continue
            rank = st[PODIUM_N + sp]
            for t in range(players):
                g = st[POS + t * N_SPECIES + sp]
                if g > f and g < finish:
                    rank += 1
            if rank < w:
                out[s] += bd[podium + sp * w + rank] * f


# -- search rollouts -------------------------------------------------------------------------
@kernel
def _rollout(st, bd, depth, pts, won, codes, dice) -> bool:
    """`rollout` with its scratch: codes (MAX_LEGAL) and an empty dice log."""
    st, bd, pts, won = unmanaged(st), unmanaged(bd), unmanaged(pts), unmanaged(won)
    codes, dice = unmanaged(codes), unmanaged(dice)
    for _ in range(depth):
        if st[PHASE] == OVER:
            break
        apply(st, bd, random_action(st, bd, codes), dice)
    points(st, bd, pts)
    if st[PHASE] != OVER:
        return False
    winners(st, pts, won)
    return True


_NO_DICE = np.zeros(0, np.int64)  # an empty dice log (nothing recorded): never written, so shared


def rollout(st, bd, depth, pts, won) -> bool:
    """A search rollout from position `st` (`from_state` of a sampled world): at most
    `depth` uniformly random decisions, chance and choices from the position's generator;
    the podium points into `pts` and, once the game is over, the winners (1 each) into
    `won`.  Whether the game is over.  Its scratch (legal codes, no dice log) is
    allocated here, in Python, so the compiled code passes it on unmanaged
    (fast.unmanaged); per call, since searches may run in threads."""
    return _rollout(st, bd, depth, pts, won, np.zeros(MAX_LEGAL, np.int64), _NO_DICE)


# -- whole games ----------------------------------------------------------------------------
@kernel
def _play_games(games, players, first, removed, bd, st, x, points_out, winners_out, order, codes, dice, pts):
    # every array from Python, unmanaged (fast.unmanaged); order, codes, dice, pts are scratch
    bd, st, points_out, winners_out = unmanaged(bd), unmanaged(st), unmanaged(points_out), unmanaged(winners_out)
    order, codes, dice, pts = unmanaged(order), unmanaged(codes), unmanaged(dice), unmanaged(pts)
    for g in range(games):
        x = shuffle_tiles(bd, order, x)
        start_game(st, bd, players, first, removed, order, x)
        while st[PHASE] != OVER:
            apply(st, bd, random_action(st, bd, codes), dice)
        x = st[RNG]
        points(st, bd, pts)
        points_out[g, :] = pts
        winners(st, pts, winners_out[g])
    return x


def check_options(players: int, first_player: int, river_flow: str) -> None:
    """The engine's options (manifest.py), refused with what was wrong."""
    if not isinstance(players, int) or not 2 <= players <= 6:
        raise ValueError(f"players must be 2-6, not {players!r}")
    if not isinstance(first_player, int) or not 0 <= first_player < players:
        raise ValueError(f"first_player must be a seat 0-{players - 1}, not {first_player!r}")
    if river_flow not in BOARDS:
        raise ValueError(f"river_flow must be one of {', '.join(BOARDS)}, not {river_flow!r}")


def play_games(games: int, players: int = 4, seed: int = 0, first_player: int = 0,
               river_flow: str = "forward") -> tuple[np.ndarray, np.ndarray]:
    """Points (WW-5.3) and winners (1 per winning seat) of `games` independent games with
    uniformly random legal decisions in every seat; two int64 arrays (games, players)."""
    check_options(players, first_player, river_flow)
    pts = np.zeros((games, players), np.int64)
    won = np.zeros((games, players), np.int64)
    bd = BOARDS[river_flow]
    _play_games(games, players, first_player, BOARD.removed_for(players), bd, new_position(), seed_state(seed), pts,
                won, np.zeros(bd[B_REGULAR_N], np.int64), np.zeros(MAX_LEGAL, np.int64), np.zeros(0, np.int64),
                np.zeros(players, np.int64))
    return pts, won


@kernel
def _trace(games, players, first, removed, bd, st, x, orders, dice, ndice, seats, legal_out, played, steps,
           places, points_out, winners_out) -> int:
    bd, st, orders, dice, ndice = unmanaged(bd), unmanaged(st), unmanaged(orders), unmanaged(dice), unmanaged(ndice)
    seats, legal_out, played, steps = unmanaged(seats), unmanaged(legal_out), unmanaged(played), unmanaged(steps)
    places, points_out, winners_out = unmanaged(places), unmanaged(points_out), unmanaged(winners_out)
    codes = np.zeros(MAX_LEGAL, np.int64)
    pts = np.zeros(players, np.int64)
    cap = played.shape[1]
    overflow = 0
    for g in range(games):
        x = shuffle_tiles(bd, orders[g], x)
        start_game(st, bd, players, first, removed, orders[g], x)
        t = 0
        while st[PHASE] != OVER:
            seat = st[WAIT]
            code = random_action(st, bd, codes)
            if t < cap:
                k = legal(st, bd, codes)
                seats[g, t] = seat
                for i in range(k):
                    legal_out[g, t, i] = codes[i]
                played[g, t] = code
            t += 1
            apply(st, bd, code, dice[g])
        x = st[RNG]
        steps[g] = t
        ndice[g] = st[NDICE]
        if t > cap or st[NDICE] > dice.shape[1]:
            overflow += 1
        for a in range(N_SPECIES * players):
            places[g, a] = st[PLACE + a]
        points(st, bd, pts)
        points_out[g, :] = pts
        winners(st, pts, winners_out[g])
    return overflow


def trace_games(games: int, players: int, seed: int, first_player: int = 0, river_flow: str = "forward",
                max_steps: int = 1000, max_dice: int = 200) -> dict:
    """`play_games` with everything recorded, for checking the kernel against the engine:
    tile orders (board tile indices), die faces (indices into board.die_faces) and their
    count, the seat, legal codes (-1 padded) and code played per step, steps, podium
    places per animal, points and winners.  A game longer than the buffers raises."""
    check_options(players, first_player, river_flow)
    out = {"orders": np.zeros((games, len(BOARD.regular_ids)), np.int64),
           "dice": np.full((games, max_dice), -1, np.int64), "ndice": np.zeros(games, np.int64),
           "seats": np.full((games, max_steps), -1, np.int64),
           "legal": np.full((games, max_steps, MAX_LEGAL), -1, np.int8),
           "played": np.full((games, max_steps), -1, np.int64), "steps": np.zeros(games, np.int64),
           "places": np.zeros((games, N_SPECIES * players), np.int64),
           "points": np.zeros((games, players), np.int64), "winners": np.zeros((games, players), np.int64)}
    overflow = _trace(games, players, first_player, BOARD.removed_for(players), BOARDS[river_flow], new_position(),
                      seed_state(seed), out["orders"], out["dice"], out["ndice"], out["seats"], out["legal"],
                      out["played"], out["steps"], out["places"], out["points"], out["winners"])
    if overflow:
        raise ValueError(f"{overflow} game(s) needed more than max_steps={max_steps} or max_dice={max_dice}")
    return out


# -- many tables at once, one seat played from outside (vector.py) -----------------
# Row e of `st` (E, position_size) is table e; the other seats play uniformly random
# legal actions from the table's generator.
@kernel
def table_advance(st, bd, agent, codes, dice):
    """The other seats play until `agent` is to move or the game is over."""
    st, bd, codes, dice = unmanaged(st), unmanaged(bd), unmanaged(codes), unmanaged(dice)
    while st[PHASE] != OVER and st[WAIT] != agent:
        apply(st, bd, random_action(st, bd, codes), dice)


@kernel
def table_reset(st, bd, players, first, removed, agent, order, codes, dice):
    """Deal the table anew (from its generator) and play the other seats up to `agent`'s
    first decision."""
    st, bd, order, codes, dice = unmanaged(st), unmanaged(bd), unmanaged(order), unmanaged(codes), unmanaged(dice)
    x = shuffle_tiles(bd, order, st[RNG])
    start_game(st, bd, players, first, removed, order, x)
    table_advance(st, bd, agent, codes, dice)


def table_scratch(bd, players: int) -> tuple:
    """`tables_step`'s scratch (tile order, legal codes, an empty dice log, points,
    winners), allocated once by its caller (vector.py), so the compiled code passes it
    on unmanaged (fast.unmanaged)."""
    return (np.zeros(bd[B_REGULAR_N], np.int64), np.zeros(MAX_LEGAL, np.int64), np.zeros(0, np.int64),
            np.zeros(players, np.int64), np.zeros(players, np.int64))


@kernel
def tables_reset(st, bd, players, first, removed, agent, xs):
    """Every table dealt from its own generator state xs[e]."""
    st, bd, xs = unmanaged(st), unmanaged(bd), unmanaged(xs)
    order = np.zeros(bd[B_REGULAR_N], np.int64)
    codes = np.zeros(MAX_LEGAL, np.int64)
    dice = np.zeros(0, np.int64)
    for e in range(st.shape[0]):
        st[e, RNG] = xs[e]
        table_reset(st[e], bd, players, first, removed, agent, order, codes, dice)


@kernel
def tables_step(actions, st, bd, players, first, removed, agent, needs_reset, rewards, terminated, illegal,
                illegal_reward, order, codes, dice, pts, won):
    """One agent action per table (next-step autoreset: a table whose game ended on the
    previous step is dealt anew and its action ignored).  The reward at the end is the
    agent's zero-sum return (WW-5.3: a k-way shared win is 1/k, minus the mean
    1/players); an action that is not legal ends the episode with `illegal_reward`.
    order .. won: `table_scratch`."""
    actions, st, bd, needs_reset = unmanaged(actions), unmanaged(st), unmanaged(bd), unmanaged(needs_reset)
    rewards, terminated, illegal = unmanaged(rewards), unmanaged(terminated), unmanaged(illegal)
    order, codes, dice, pts, won = unmanaged(order), unmanaged(codes), unmanaged(dice), unmanaged(pts), unmanaged(won)
    for e in range(len(actions)):
        row = st[e]
        rewards[e] = 0.0
        terminated[e] = False
        illegal[e] = False
        if needs_reset[e]:
            needs_reset[e] = False
            table_reset(row, bd, players, first, removed, agent, order, codes, dice)
            continue
        a = actions[e]
        k = legal(row, bd, codes)
        ok = False
        for i in range(k):
            if codes[i] == a:
                ok = True
        if not ok:
            rewards[e] = illegal_reward
            terminated[e] = illegal[e] = needs_reset[e] = True
            continue
        apply(row, bd, a, dice)
        table_advance(row, bd, agent, codes, dice)
        if row[PHASE] == OVER:
            points(row, bd, pts)
            winners(row, pts, won)
            rewards[e] = (1.0 / won.sum() if won[agent] else 0.0) - 1.0 / players
            terminated[e] = needs_reset[e] = True


@kernel
def tables_encode(st, bd, players, removed, agent, obs, masks):
    """The agent's observation and legal-action mask per table, in the layout of
    games/wildwasser/codec.py (the view's values, docs/encodings.md)."""
    st, bd, obs, masks = unmanaged(st), unmanaged(bd), unmanaged(obs), unmanaged(masks)
    codes = np.zeros(MAX_LEGAL, np.int64)
    pts = np.zeros(players, np.int64)
    for e in range(st.shape[0]):
        row = st[e]
        encode(row, bd, players, removed, agent, obs[e], pts)
        ph = row[PHASE]
        m = masks[e]
        m[:] = 0
        if ph != OVER and row[WAIT] == agent:
            k = legal(row, bd, codes)
            for j in range(k):
                m[codes[j]] = 1


@inline_kernel
def encode(row, bd, players, removed, agent, o, pts) -> None:
    """Seat `agent`'s observation of position `row` into `o` (codec.py's layout)."""
    finish = bd[B_FINISH]
    fields = finish - 1
    ns = bd[B_SLOTS]
    cols = bd[B_COLUMNS]
    n_icons = 8
    o[:] = 0.0
    ph = row[PHASE]
    resolving = ph == CHOOSE or ph == SUN_CHOICE or ph == MARKER_CHOICE
    o[agent] = 1.0                                          # seat
    i = players
    o[i + ph] = 1.0                                         # phase
    i += 5
    if ph == PICK_PHASE:                                    # to_move
        for s in range(players):
            if row[PICK + s] < 0:
                o[i + s] = 1.0
    elif ph != OVER:
        o[i + row[WAIT]] = 1.0
    i += players
    o[i] = row[ROUND] / 30                                  # round
    i += 1
    o[i + row[MARKER]] = 1.0                                # start marker
    i += players
    for s in range(players):                                # place in the resolving order
        o[i + s] = ((s - row[FIRST]) % players) / max(1, players - 1)
    i += players
    o[i + (1 + row[WAIT] if resolving else 0)] = 1.0        # resolving seat
    i += players + 1
    o[i + (1 + row[CARD] if resolving else 0)] = 1.0        # card
    i += N_SPECIES + 1
    occ = row[OCC_AT]
    slots = row[SLOTS_AT]
    for f in range(1, fields + 1):                          # the track
        o[i + icon_at(row, bd, f)] = 1.0
        a = row[occ + f]
        if a >= 0:
            o[i + n_icons + a] = 1.0
        k = bd[bd[B_FIELD_CROSSING] + f]
        if k >= 0 and row[slots + bd[bd[B_FLOW] + k]] < 0:
            o[i + n_icons + N_SPECIES * players] = 1.0
        i += n_icons + N_SPECIES * players + 1
    for s in range(ns):                                     # the river
        t = row[slots + s]
        for c in range(cols):
            icon = bd[bd[B_TILE_ICONS] + t * (cols + 1) + c + 1] if t >= 0 else 0
            o[i + icon] = 1.0
            i += n_icons
        if t < 0:
            o[i] = 1.0
        i += 1
    o[i] = row[NSTACK] / 25
    o[i + 1] = removed / 25
    o[i + 2] = row[NDISCARD] / 25
    o[i + 3] = 1.0 if row[LAST_ROUND] else 0.0
    i += 4
    points(row, bd, pts)
    for s in range(players):                                # the seats
        pick = row[PICK + s]
        hidden = pick >= 0 and s != agent
        o[i] = 0.0 if hidden else 1.0                       # hand known
        i += 1
        hand = row[HAND + s]
        unrevealed = hand | (1 << pick if pick >= 0 else 0)
        for sp in range(N_SPECIES):
            if not hidden and hand >> sp & 1:
                o[i + sp] = 1.0
            if unrevealed >> sp & 1:
                o[i + N_SPECIES + sp] = 1.0
            if row[REVEALED + s] >> sp & 1:
                o[i + 2 * N_SPECIES + sp] = 1.0
        i += 3 * N_SPECIES
        o[i] = 1.0 if pick >= 0 else 0.0                    # picked
        i += 1
        o[i + (1 + pick if pick >= 0 and s == agent else 0)] = 1.0  # own pick
        i += N_SPECIES + 1
        for sp in range(N_SPECIES):
            a = s * N_SPECIES + sp
            p = row[POS + a]
            if p == TEAM_CARD:
                o[i] = 1.0
            elif p == finish:
                o[i + 2] = 1.0
                o[i + 4] = row[PLACE + a] / players
            else:
                o[i + 1] = 1.0
                o[i + 3] = p / fields
            i += 5
        o[i] = row[DONE + s] / 5
        o[i + 1] = pts[s] / 30
        i += 2
    o[i] = 1.0 if ph == OVER else 0.0



# -- the lab's games with outside policies (lab/lockstep.py) -------------------------------
# Row g of `st` is game g of a lab chunk: a position, then its tail (LAB_AT).  The tail's
# generator is CPython's Mersenne Twister seeded as `random.Random(game seed)`
# (wasserspiele.fast.mt_seed), drawn from as the engine draws (the tiles one by one as
# `Uniform(remaining)`, then the die), so the kernel plays the engine's games.  Every seat
# is played from outside: `lab_round` takes the chosen codes, plays the forced moves (a
# single legal action) itself and stops each game at its next real decision.  `stats`
# counts what the lab's measures (measures.py) and its lead count (lab/study.Watch) count.
W_ACTIONS, W_ICON_PUSHES, W_LEADER, W_LEAD_CHANGES = range(4)
W_FINISH = 4                      # per species
W_FIRST = W_FINISH + N_SPECIES    # per species: its podium's first place taken
LAB_STATS = W_FIRST + N_SPECIES


@kernel
def lab_start(seeds, st, bd, players, first, removed, stats) -> None:
    """Game g dealt from `random.Random(seeds[g])` as `Wildwasser.new_game(seed=...)` deals."""
    seeds, st, bd, stats = unmanaged(seeds), unmanaged(st), unmanaged(bd), unmanaged(stats)
    n = bd[B_REGULAR_N]
    at = st.shape[1] - LAB_TAIL
    remaining = np.zeros(n, np.int64)
    order = np.zeros(n, np.int64)
    tail = np.zeros(LAB_TAIL, np.int64)
    for g in range(len(seeds)):
        tail[:] = 0
        mt = tail[LAB_MT:]
        mt_seed(mt, seeds[g])
        for i in range(n):  # WW-2.1: the engine's tile draws, one Uniform(remaining) each
            remaining[i] = bd[bd[B_REGULAR] + i]
        for i in range(n):
            j = mt_below(mt, n - i)
            order[i] = remaining[j]
            for k in range(j, n - i - 1):
                remaining[k] = remaining[k + 1]
        row = st[g]
        start_game(row, bd, players, first, removed, order, 1)  # clears the whole row
        row[at:] = tail
        row[LAB_AT] = at
        stats[g, :] = 0
        stats[g, W_LEADER] = -1


@inline_kernel
def lab_act(row, bd, code, stats, pts, dice) -> None:
    """The seat to move takes `code` (legal), counted as the lab counts it."""
    zebra_action = row[PHASE] == CHOOSE and row[CARD] == ZEBRA and code == ACTION
    pushes = row[row[LAB_AT] + LAB_PUSHES]
    players = row[PLAYERS]
    n = N_SPECIES * players
    for a in range(n):  # a finished animal has a place: mark those without one
        if row[PLACE + a] == 0:
            pts[players + a] = 1
        else:
            pts[players + a] = 0
    apply(row, bd, code, dice)
    stats[W_ACTIONS] += 1
    if not zebra_action:  # WW-4.4: a push not from the zebra's action came from a push icon
        stats[W_ICON_PUSHES] += row[row[LAB_AT] + LAB_PUSHES] - pushes
    for a in range(n):  # WW-4.2: finishes
        if pts[players + a] and row[PLACE + a]:
            stats[W_FINISH + a % N_SPECIES] += 1
            if row[PLACE + a] == 1:
                stats[W_FIRST + a % N_SPECIES] = 1
    points(row, bd, pts)  # lab/study.Watch: the lead (a single seat with the most points)
    top = pts[0]
    leader = 0
    tied = False
    for s in range(1, players):
        if pts[s] > top:
            top, leader, tied = pts[s], s, False
        elif pts[s] == top:
            tied = True
    if not tied:
        if stats[W_LEADER] >= 0 and leader != stats[W_LEADER]:
            stats[W_LEAD_CHANGES] += 1
        stats[W_LEADER] = leader


@kernel
def lab_round(st, bd, players, removed, stats, picks, n_picks, max_actions, asking, legal_out, n_legal, obs) -> int:
    """The games that asked last (asking[:n_picks]) take their picks (positions in their
    legal codes legal_out); then every unfinished game plays its forced moves up to its
    next decision with a choice.  Those games go into
    `asking` (their legal codes into legal_out, their count into n_legal, the seat to
    move's observation into obs), and their number is returned; -1 - g when game g
    reached `max_actions` without an end."""
    st, bd, stats, picks, asking = unmanaged(st), unmanaged(bd), unmanaged(stats), unmanaged(picks), unmanaged(asking)
    legal_out, n_legal, obs = unmanaged(legal_out), unmanaged(n_legal), unmanaged(obs)
    codes = np.zeros(MAX_LEGAL, np.int64)
    pts = np.zeros(players + N_SPECIES * players, np.int64)  # points, then scratch per animal
    dice = np.zeros(0, np.int64)
    for i in range(n_picks):
        g = asking[i]
        lab_act(st[g], bd, legal_out[i, picks[i]], stats[g], pts, dice)
    n = 0
    for g in range(st.shape[0]):
        row = st[g]
        while row[PHASE] != OVER:
            if stats[g, W_ACTIONS] >= max_actions:
                return -1 - g
            k = legal(row, bd, codes)
            if k > 1:
                asking[n] = g
                n_legal[n] = k
                for j in range(k):
                    legal_out[n, j] = codes[j]
                encode(row, bd, players, removed, row[WAIT], obs[n], pts)
                n += 1
                break
            lab_act(row, bd, codes[0], stats[g], pts, dice)
    return n


class LabTables:
    """The games of a lab chunk in the kernel (`lab_start`, `lab_round`), for
    lab/lockstep.py: `round` applies the picks and answers which games ask next (their
    legal codes in the engine's order and observations); `results()` the finished
    games' scores, winners, actions and counts."""

    max_legal = MAX_LEGAL  # the most legal actions a decision has

    def __init__(self, game, seeds, obs_size: int) -> None:
        bad = [s for s in seeds if not 0 <= s < 2**63]
        if bad:  # mt_seed takes at most two 32-bit words
            raise ValueError(f"wildwasser lab tables: seeds must be 0 <= seed < 2**63, not {bad[0]!r}")
        check_options(game.players, game.options["first_player"], game.options["river_flow"])
        self.players = game.players
        self.removed = game.board.removed_for(game.players)
        self.bd = BOARDS[game.options["river_flow"]]
        g = len(seeds)
        self.st = np.zeros((g, position_size(game.board) + LAB_TAIL), np.int64)
        self.stats = np.zeros((g, LAB_STATS), np.int64)
        lab_start(np.array(seeds, np.int64), self.st, self.bd, self.players, game.options["first_player"],
                  self.removed, self.stats)

    def round(self, picks, n_picks: int, max_actions: int, asking, legal, n_legal, obs) -> int:
        """The games asking[:n_picks] take picks[:n_picks] (positions in their rows of
        `legal`); then how many games ask next: their indices into `asking`, their legal
        codes (engine order) into `legal` and `n_legal`, the seat to move's observation
        into `obs`.  OverflowError(g) when game g reached `max_actions` unfinished."""
        n = lab_round(self.st, self.bd, self.players, self.removed, self.stats, picks, n_picks, max_actions,
                      asking, legal, n_legal, obs)
        if n < 0:
            raise OverflowError(-1 - n)
        return n

    def seats(self, games) -> list[int]:
        """The seat to move in each of `games`."""
        return self.st[games, WAIT].tolist()

    def results(self) -> list[dict]:
        out = []
        p = self.players
        pts = np.zeros(p, np.int64)
        won = np.zeros(p, np.int64)
        for row, st in zip(self.st, self.stats.tolist()):
            points(row, self.bd, pts)
            winners(row, pts, won)
            at = int(row[LAB_AT])
            out.append({"scores": [float(x) for x in pts.tolist()], "winners": np.flatnonzero(won).tolist(),
                        "actions": st[W_ACTIONS], "stats": st, "round": int(row[ROUND]),
                        "last_round": bool(row[LAST_ROUND]), "pushes": int(row[at + LAB_PUSHES]),
                        "washed": row[at + LAB_WASHED:at + LAB_WASHED + p].tolist()})
        return out
