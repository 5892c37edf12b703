"""Wildwasser rules (shared/spec/wildwasser.md), in the order of the rulebook."""

from __future__ import annotations

import abc
import random
from itertools import filterfalse
from operator import itemgetter
from typing import Any, Mapping, Sequence

from ...core.chance import Chance
from ...core.errors import BadRecord, NotYourTurn
from ...core.inline import inline_tail_calls
from ...core.messages import json_text
from ...core.messages import Reason
from ...core.protocol import Game, State
from . import view as _view
from .manifest import MANIFEST
from .actions import ALL as ALL_ACTIONS
from .actions import (ACT, ACT_SEAT, MARKER, MARKERS, MOVE, MOVE_ANIMAL, MOVE_CARD, PICK, PICKS,
                      SUN, SUNS, WildAction, parse_action)
from .board import CARDS, CHEETAH, DIE, MEERKAT, RHINO, SPECIES, TURTLE, ZEBRA, Board, load_board
from .board import MARKER as MARKER_ICON
from .state import (CHOOSE, DRIVER_SLOTS, ENDED, MARKER_CHOICE, N_SPECIES, OVER, PICK_PHASE, RUNNING, SUN_CHOICE,
                    TEAM_CARD, WildwasserData)

BOARD: Board = load_board()  # validated once at import: a broken board.json stops the game from loading

FINISHED_TO_END = 3  # WW-5.1
# WW-5.1: the counts of finished animals that do not end the game, so that "some seat has
# FINISHED_TO_END" is one C call on the seats' counts (`max` builds an argument tuple and
# compares through the generic rich compare: about three times the cost)
SHORT_OF_END = frozenset(range(FINISHED_TO_END))
TURTLE_CARD_MOVES = (TURTLE, RHINO, MEERKAT)  # WW-3.2: what the turtle card may move
TIE_BREAK = (TURTLE, MEERKAT, RHINO, ZEBRA, CHEETAH)  # WW-5.3
ROLL_NOTHING, ROLL_SUN = -1, -2

# PICKS_BY_MASK[hand]: the pick actions of a hand (a bit mask of species).
PICKS_BY_MASK: tuple[tuple[WildAction, ...], ...] = tuple(
    tuple(PICKS[sp] for sp in range(N_SPECIES) if m >> sp & 1) for m in range(1 << N_SPECIES))
# SUN_BY_MASK[unfinished]: the sun choices given a mask of unfinished species.
SUN_BY_MASK = tuple(tuple(SUNS[sp] for sp in range(N_SPECIES) if m >> sp & 1) for m in range(1 << N_SPECIES))
MOVE_OR_ACT, ACT_ONLY = (MOVE_CARD, ACT), (ACT,)  # WW-3.2: the other cards' choices
TURTLE_BY_MASK = tuple(tuple(MOVE_ANIMAL[sp] for sp in TURTLE_CARD_MOVES if m >> sp & 1)
                       for m in range(1 << N_SPECIES))
# The same tables by a seat's mask of FINISHED species (the `fin` field), so the hot path
# reads a seat's choices with one index: [card][fin] for every card but the cheetah
# (whose choices also depend on the start marker: Wildwasser.cheetah_choices).
ALL_SPECIES = (1 << N_SPECIES) - 1
BIT = tuple(1 << sp for sp in range(N_SPECIES))  # a species' bit: a look-up costs less than a shift
# a field's occupant is -1: empty (the push keeps the others with `filterfalse`).  A set's
# `__contains__` is a C method called directly; `(-1).__ne__`, a slot wrapper, was called
# through a tuple of arguments for each crossing field (0.6 % of a random game)
IS_EMPTY = frozenset((-1,)).__contains__
SUN_BY_FIN = tuple(SUN_BY_MASK[ALL_SPECIES & ~f] for f in range(1 << N_SPECIES))
CARD_CHOICES = tuple(
    tuple(TURTLE_BY_MASK[ALL_SPECIES & ~f] if c == TURTLE else ACT_ONLY if f >> c & 1 else MOVE_OR_ACT
          for f in range(1 << N_SPECIES))
    for c in range(N_SPECIES))


class Wildwasser(Game):
    """Wildwasser: an animal race over a drifting river, 2–6 players."""

    manifest = MANIFEST  # name, title, options and seat count
    board: Board = BOARD

    def __init__(self, /, **options: Any):
        super().__init__(**options)
        b = self.board
        p = self.players
        self.flow: tuple[int, ...] = b.flows[self.options["river_flow"]]
        self.slot_crossing: tuple[int, ...] = tuple(self.flow.index(s) for s in range(b.slots))
        self.removed_count = b.removed_for(p)
        # `occ` runs past the podium (field fields + 1) by the longest move (a speed or a
        # +3 icon), all -1: the field a move aims at is looked up without testing the finish
        self.occ_len = b.fields + 2 + max(*b.speed, 3)
        # resolution order of a round by the start marker's seat (WW-3.1), interned
        self.orders = tuple(tuple((m + i) % p for i in range(p)) for m in range(p))
        # by the index into the order after a resolved card: was it the round's last (WW-3.1)
        self.round_resolved = (False,) * p + (True,)
        self.one_seat = tuple((s,) for s in range(p))
        self.cheetah_actions = tuple(tuple(ACT_SEAT[t] for t in range(p) if t != m) for m in range(p))
        # WW-3.2: the cheetah card's choices by the marker's seat, [0] its animal still running, [1] finished
        self.cheetah_choices = tuple(((MOVE_CARD, *acts), acts) for acts in self.cheetah_actions)
        self.markers = MARKERS[:p]
        # per field (field, crossing, slot, column, bank icon) under this river flow, for views
        self.field_table = tuple((f, k, self.flow[k] if k >= 0 else -1, b.field_column[f], b.bank_icon[f])
                                 for f in range(1, b.fields + 1) for k in (b.field_crossing[f],))
        # WW-3.1: to_move in the pick phase, after `seat` picked, by to_move before it:
        # after_pick[waiting][seat] (every seat picks once, so `waiting` is always one of
        # these ascending tuples), interned, as are the commonest log events
        # Each `waiting` is the very tuple that keys its row (the seats, interned here), so
        # the look-up at every pick finds its key by identity, not by comparing tuples.
        subsets = {w: w for w in (tuple(s for s in range(p) if m >> s & 1) for m in range(1, 1 << p))}
        subsets[()] = ()
        self.all_seats = subsets[tuple(range(p))]  # every seat picks first: the very key of its row
        self.after_pick: dict[tuple[int, ...], tuple[tuple[int, ...] | None, ...]] = {
            w: tuple(subsets[tuple(x for x in w if x != s)] if s in w else None for s in range(p))
            for w in subsets if w}
        # the same rows as the state keeps them (`pick_row`, the row of its `waiting`): each
        # entry the seats still to pick and their own row, so a pick reads the next
        # `waiting` without hashing the tuple of seats (None: that seat picked already)
        self.pick_rows: dict[tuple[int, ...], tuple | None] = {(): None}
        for w in sorted(self.after_pick, key=len):
            self.pick_rows[w] = tuple(None if left is None else (left, self.pick_rows[left])
                                      for left in self.after_pick[w])
        self.first_pick_row = self.pick_rows[self.all_seats]
        self.reveal_events = tuple(tuple(("reveal", s, c) for c in range(N_SPECIES)) for s in range(p))
        # (the log events and history entries of actions are made once on the actions)
        # WW-4.4: where the animal on crossing field f drifts when the river is pushed
        # (TEAM_CARD: over the waterfall), one lookup instead of working it out per animal
        last = b.slots - 1
        # occ -> who stands on each crossing field, as a tuple made in C, the slot nearest
        # the waterfall first: an animal drifts one slot down (WW-4.4), so the push moves
        # each in a single pass, the field it lands on left already by the one there
        crossing = tuple(sorted(b.crossing_field_list,
                                key=lambda f: (-self.flow[b.field_crossing[f]], f)))
        # per field the river slot its crossing uses under this flow (-1 on a bank)
        self.field_slot = tuple(self.flow[k] if k >= 0 else -1 for k in b.field_crossing)
        self.on_crossings = itemgetter(*crossing) if len(crossing) > 1 else lambda occ: (occ[crossing[0]],)
        self.drift = [-1] * (b.fields + 2)
        for f in b.crossing_field_list:
            s = self.flow[b.field_crossing[f]] + 1
            self.drift[f] = (TEAM_CARD if s > last
                             else b.crossing_fields[self.slot_crossing[s]][b.field_column[f] - 1])
        # WW-4.4: who stands on the waterfall's crossing (washed back), in field order, in C
        falls = sorted(b.crossing_fields[self.slot_crossing[last]])
        self.on_waterfall = itemgetter(*falls) if len(falls) > 1 else lambda occ: (occ[falls[0]],)
        # WW-4.3: the icon of field f is icon_by_tile[f][slots[icon_slot[f]]] (`icon_at` in
        # one look-up): on a crossing, per tile in its slot (the last entry, for index -1,
        # an empty slot: no icon); on a bank the fixed icon whatever tile slot 0 holds
        tiles = len(b.tile_ids)
        self.icon_slot = tuple(max(s, 0) for s in self.field_slot)
        self.icon_by_tile = tuple(
            tuple(b.tile_icons[t][b.field_column[f]] for t in range(tiles)) + (0,) if b.field_crossing[f] >= 0
            else (b.bank_icon[f],) * (tiles + 1)
            for f in range(b.fields + 2))
        # WW-3.2/3.3: a revealed card's choices, [start marker's seat][card][its seat's `fin`]
        self.card_choices = tuple(
            tuple(tuple(self.cheetah_choices[m][f & 1] for f in range(1 << N_SPECIES)) if c == CHEETAH
                  else CARD_CHOICES[c] for c in range(N_SPECIES))
            for m in range(p))

    def parse_action(self, text: str) -> WildAction:
        return parse_action(text, self.players - 1)

    def validate_setup(self, setup: Mapping[str, Any]) -> None:
        """`{"tiles": [every regular tile id once], "dice": ["3", "sun", …]}` (WW-2.1).
        Refusals are `wildwasser.setup.*` codes, said in the reader's language; the field
        path (`setup.tiles[0]`) and the tile ids are data, and a value the file holds is
        quoted as the language quotes (text) or shown as JSON writes it."""
        self._setup_keys(setup, ("tiles", "dice"))
        b = self.board
        ids = b.regular_ids
        tiles = setup.get("tiles")
        need = {"total": len(ids), "first": ids[0], "last": ids[-1]}  # "an order of all 24 tiles T01–T24"
        if tiles is None:
            raise BadRecord(Reason("wildwasser.setup.tiles_missing", field="setup.tiles", **need))
        if not isinstance(tiles, list):
            raise BadRecord(Reason("wildwasser.setup.tiles_not_list", field="setup.tiles", **need))
        if len(tiles) != len(ids):
            raise BadRecord(Reason("wildwasser.setup.tiles_count", field="setup.tiles", n=len(tiles), **need))
        seen: set[str] = set()
        for i, t in enumerate(tiles):
            field = f"setup.tiles[{i}]"
            if not isinstance(t, str):
                raise BadRecord(Reason("wildwasser.setup.not_tile_id", field=field, value=json_text(t),
                                       example=ids[0]))
            if t == b.tile_ids[b.start_tile]:
                raise BadRecord(Reason("wildwasser.setup.start_tile", field=field, tile=t))
            if t not in b.tile_index:
                raise BadRecord(Reason("wildwasser.setup.unknown_tile", field=field, value=t, first=ids[0],
                                       last=ids[-1]))
            if t in seen:
                raise BadRecord(Reason("wildwasser.setup.tile_twice", field=field, tile=t))
            seen.add(t)
        dice = setup.get("dice", [])
        if not isinstance(dice, list):
            raise BadRecord(Reason("wildwasser.setup.dice_not_list", field="setup.dice"))
        for i, d in enumerate(dice):
            if not isinstance(d, str) or d not in b.face_species:  # (a list is no key: TypeError)
                # the value as the file holds it: `{value:shown}` quotes text, writes JSON
                raise BadRecord(Reason("wildwasser.setup.not_face", field=f"setup.dice[{i}]", value=d,
                                       faces=list(b.die_faces)))

    def _initial_state(self, chance: Chance) -> "WildwasserState":
        """WW-1, WW-2.1: teams, hands, the start marker; the river and the stack."""
        b = self.board
        p = self.players
        s = object.__new__(WildwasserState)
        s.game = self
        s.chance = chance
        s.history = []
        s.board = b
        s.players = p
        s.flow = self.flow
        s.finish = b.fields + 1
        s.pos = [TEAM_CARD] * (N_SPECIES * p)
        s.occ = [-1] * self.occ_len
        s.place = [0] * (N_SPECIES * p)
        s.podium_n = [0] * N_SPECIES
        s.done = [0] * p
        s.hand = [(1 << N_SPECIES) - 1] * p
        s.revealed = [0] * p
        s.pick = [-1] * p
        s.marker = self.options["first_player"]
        s.round = 1
        # the public log: kept as the game goes by a strict replay (a record read back, to
        # be looked at), else None until asked for (`_replay_log`): a playout, a search or
        # the lab's bulk play never reads it, and making its events was 8 % of the
        # instructions of a random 4-player game
        s.log_tail = [] if chance.strict else None
        s.log_head = None
        s.log_count = 0
        # WW-2.1: each regular tile is one outcome of stream "tiles" (a Fisher-Yates draw)
        index = b.tile_index
        order = list(map(index.__getitem__, chance.draw_order("tiles", b.regular_ids, "tile")))  # in C
        k = self.removed_count
        river = b.slots - 1
        s.removed = order[:k]
        s.slots = [b.start_tile] + order[k:k + river]
        s.stack = order[k + river:][::-1]  # top last
        s.discard = []
        s.gaps = False
        s.last_round = False
        s.card = -1
        s.fin = [0] * p
        s.choices = ()
        s.terminal = RUNNING  # is_terminal
        s._begin_round(0)
        return s


@inline_tail_calls("apply", "apply_legal")  # the checked path without a second call (core.inline)
@inline_tail_calls("apply_legal", "_end_round")  # a round's last decision ends it without a call
@inline_tail_calls("_end_round", "_begin_round")  # every round: the next one begins without a call
@inline_tail_calls("_rhino_action", "_run")  # the rhino's roll moves the animal rolled without a call
class WildwasserState(WildwasserData, State):
    """A Wildwasser position with the rules."""

    __slots__ = DRIVER_SLOTS  # and the data's (state.py says why these two are here)

    game: Wildwasser

    # -- the log ---------------------------------------------------------------
    def _note(self, *event) -> None:
        if self.log_tail is not None:  # a state that keeps its log (else it is made when asked)
            self.log_tail.append(event)

    def _replay_log(self) -> None:
        """Make the log of a state that does not keep one (`log_tail` None: it began with a
        generator, `_initial_state`): the same game replayed strictly from its chance
        outcomes and history, by the same rules, keeping its log; from now on this state
        keeps its own.  `events` (so a view), `log_len`, `log`, a clone and a pickle ask for it."""
        replay = self.game.new_game(setup=self.chance.used_setup())  # strict: keeps its log
        for seat, action, _ in self.history:
            replay.apply(action, seat)
        self.log_tail = replay.log_tail
        self.log_head = replay.log_head
        self.log_count = replay.log_count

    def sync(self) -> None:
        """Derive the kept fields (`fin`, `choices`, `terminal`, `pick_row`) from the position,
        after the fields were edited directly (scenario tests, a position built from a
        kernel's)."""
        fin = self.finish
        self.fin = [sum(1 << sp for sp in range(N_SPECIES) if self.pos[s * N_SPECIES + sp] == fin)
                    for s in range(self.players)]
        ph, seat = self.phase, self.current_seat
        if ph == CHOOSE:
            self.choices = self._card_choices(seat, self.card)
        elif ph == SUN_CHOICE:
            self.choices = SUN_BY_FIN[self.fin[seat]]
        elif ph == MARKER_CHOICE:
            self.choices = self.game.markers
        else:
            self.choices = ()
        self._derive_driver_fields()

    def _card_choices(self, seat: int, c: int) -> tuple[WildAction, ...]:
        """WW-3.2, WW-3.3: move the card's animal (unless finished; the turtle card one of
        its three) or take the card's action (the cheetah's: the marker to another seat)."""
        if c == CHEETAH:
            return self.game.cheetah_choices[self.marker][self.fin[seat] & 1]
        return CARD_CHOICES[c][self.fin[seat]]

    # -- WW-3.1 rounds -------------------------------------------------------
    def _begin_round(self, first_pick: int) -> None:
        """WW-3.1: every seat picks one card face down; resolution starts at the start marker.
        `first_pick` is the history index the round's first pick will have."""
        g = self.game
        self.phase = PICK_PHASE
        self.waiting = g.all_seats
        self.pick_row = g.first_pick_row
        self.current_seat = 0
        self.order = g.orders[self.marker]
        self.turn = -1
        self.card = -1
        self.choices = ()
        self.round_start = first_pick
        tail = self.log_tail  # the last round's events join the shared chain (state.py: log_head)
        if tail is not None:  # a state that keeps its log
            if tail:
                # the list itself, not a copy: no event is added to it once it is in the chain
                # (this state's own events go to a new list, a clone's to its own copy)
                self.log_head = (tail, self.log_head)
                self.log_count += len(tail)
            self.log_tail = [("round", -1, self.round, self.marker)]  # _note inlined: every round

    def _next_turn(self) -> None:
        """WW-3.1: the next seat clockwise reveals its card and resolves it."""
        order = self.order
        pick = self.pick
        g = self.game
        turn = self.turn  # kept in a local: stored back at each exit
        while True:
            turn += 1
            if turn == len(order):
                self.turn = turn
                self._end_round(len(self.history) + 1)  # (called inside _apply: its action joins the history after it)
                return
            s = order[turn]
            c = pick[s]
            pick[s] = -1
            self.revealed[s] |= 1 << c  # WW-3.4: revealed cards stay face up
            self.card = c
            if self.log_tail is not None:  # _note inlined: every turn reveals
                self.log_tail.append(g.reveal_events[s][c])
            if c == CHEETAH:
                choices = g.cheetah_choices[self.marker][self.fin[s] & 1]
            else:
                choices = CARD_CHOICES[c][self.fin[s]]  # `_card_choices`, inlined
                if not choices:  # only the turtle card can leave none
                    self._note("nothing", s, "turtle")  # WW-3.3: nothing left for the turtle card
                    continue
            self.choices = choices
            self.turn = turn
            self.phase = CHOOSE
            self.waiting = g.one_seat[s]
            self.current_seat = s
            return

    def _end_round(self, first_pick: int) -> None:
        """WW-3.4 empty hands refill; WW-5.1/WW-5.2 the game ends with this round, or the
        next begins (`first_pick`: the history index its first pick will have)."""
        hand = self.hand
        if 0 in hand:  # most rounds nobody's hand is empty: skip the loop
            for s in range(self.players):
                if hand[s] == 0:
                    hand[s] = self.revealed[s]
                    self.revealed[s] = 0
        if self.last_round or not SHORT_OF_END.issuperset(self.done):  # a seat has FINISHED_TO_END
            self.card = -1  # (a new round resets it too, in `_begin_round`)
            self.phase = OVER
            self.terminal = ENDED  # is_terminal
            self.waiting = ()
            self.current_seat = None
            self.choices = ()
            if self.log_tail is not None:  # a state that keeps its log (`_note`): once a game
                # WW-5.1: the seats that got their third animal across this round, so the end
                # names them ("C has three animals across the finish line"); one round ends it
                # for all, so several may; after WW-5.2's last round there may be none
                finishers = tuple(s for s, n in enumerate(self.done) if n >= FINISHED_TO_END)
                self.log_tail.append(("end", -1, "tiles" if self.last_round else "finish", finishers))
            return
        self.round += 1
        self._begin_round(first_pick)

    # -- WW-4.1/4.2 movement -------------------------------------------------
    def _gap_after(self, p: int) -> int:
        """WW-4.5: the first field of the first crossing ahead of field p whose slot is empty."""
        b = self.board
        best = b.fields + 1
        for k, first in enumerate(b.crossing_first):
            if first > p and self.slots[self.flow[k]] < 0 and first < best:
                best = first
        return best

    def _short_of_gap(self, seat: int, sp: int, p: int, f: int) -> int:
        """WW-4.1/4.2 with WW-4.5: where a move from p aiming at f ends when a crossing
        ahead has no tile: passing occupied fields as always, but not into that crossing;
        the furthest free field before it, or -1 (noted "blocked") when there is none."""
        occ = self.occ
        gap = self._gap_after(p)
        while f < gap and occ[f] >= 0:
            f += 1
        if f >= gap and gap < self.finish:
            f = gap - 1
            while f > p and occ[f] >= 0:
                f -= 1
            if f <= p:
                self._note("blocked", seat, sp, p)
                return -1
            self._note("blocked", seat, sp, f)
        return f

    def icon_at(self, f: int) -> int:
        """The icon on field f now: fixed on a bank, from the tile in the slot on a crossing."""
        b = self.board
        k = b.field_crossing[f]
        if k < 0:
            return b.bank_icon[f]
        t = self.slots[self.flow[k]]
        return b.tile_icons[t][b.field_column[f]] if t >= 0 else 0

    def _run(self, seat: int, sp: int, n: int = 1) -> bool:
        """WW-4.3: move seat's animal of species sp by n (1 when not given: the turtle
        card's move, WW-3.2, whose `OTHER_CHOICE` entry is this method), then resolve the
        icon where the movement ended, chains in order; drifting never triggers icons.  True
        when a decision of the seat is pending (a sun to place, a start marker to move).

        Each move (WW-4.1, WW-4.2, WW-4.5; inlined here, most runs are one move and a
        call costs ~700 instructions): occupied fields are passed and counted; ending on
        one, the animal moves on to the next free field.  Past the last field it finishes
        (extra movement is lost) and takes its species' next podium place.  It cannot
        enter an empty slot's crossing (WW-4.5): it stops on the furthest free field
        before it, or stays if there is none."""
        occ, pos, finish = self.occ, self.pos, self.finish
        g = self.game
        tail = self.log_tail  # None: no log kept (`_note`)
        a = seat * N_SPECIES + sp
        while True:
            p = pos[a]
            f = p + n
            if self.gaps:  # some slot is empty (only once the tiles ran out)
                f = self._short_of_gap(seat, sp, p, f)
                if f < 0:
                    return False
            elif occ[f] >= 0:
                # passing occupied fields: the first free one, found in C (field `finish`,
                # the podium, and those past it are never occupied: -1, Wildwasser.occ_len)
                f = occ.index(-1, f)
            occ[p] = -1  # occ[0] (team card) stays -1 as well
            if f >= finish:
                pos[a] = finish
                self.podium_n[sp] += 1
                self.place[a] = self.podium_n[sp]
                self.done[seat] += 1
                self.fin[seat] |= 1 << sp
                if tail is not None:  # _note inlined (a call that mostly found no log)
                    tail.append(("finish", seat, sp, p, self.place[a]))
                return False
            occ[f] = a
            pos[a] = f
            if tail is not None:  # _note inlined: the commonest event
                tail.append(("move", seat, sp, p, f))
            icon = g.icon_by_tile[f][self.slots[g.icon_slot[f]]]  # icon_at(f) in one look-up
            if not icon:
                return False
            if tail is not None:  # _note inlined: half of all moves end on one
                tail.append(("icon", seat, icon, f))
            if icon <= 3:  # +1 / +2 / +3: the same animal moves on
                n = icon
            elif icon == DIE:
                sp = self._roll(seat)
                if sp < 0:
                    return sp == ROLL_SUN
                a = seat * N_SPECIES + sp
                n = self.board.speed[sp]
            elif icon == MARKER_ICON:
                self.phase = MARKER_CHOICE
                self.choices = g.markers
                return True
            elif icon == CARDS:
                self._cards_back(seat)
                return False
            else:  # the push icon
                self._push(seat)
                return False

    def _roll(self, seat: int) -> int:
        """WW-3.2 rhino action / WW-4.3 die icon: roll; the species to move by its speed,
        ROLL_SUN when the seat must choose an animal to move 1, ROLL_NOTHING (WW-3.3)."""
        b = self.board
        face = self.chance.draw_uniform("dice", b.die)  # `draw` for a Uniform, without its generic path
        if self.log_tail is not None:  # _note inlined
            self.log_tail.append(("roll", seat, face))
        sp = b.face_species[face]
        if sp < 0:
            fin = self.fin[seat]
            if fin != ALL_SPECIES:  # some animal of the seat is still running
                self.phase = SUN_CHOICE
                self.choices = SUN_BY_FIN[fin]
                return ROLL_SUN
            self._note("nothing", seat, "sun")
            return ROLL_NOTHING
        if self.fin[seat] >> sp & 1:
            self._note("nothing", seat, SPECIES[sp])  # WW-3.3: a finished animal does not move
            return ROLL_NOTHING
        return sp

    def _cards_back(self, seat: int, _arg: None = None) -> None:
        """WW-3.2 meerkat action / WW-4.3 cards icon: all revealed cards back into hand.
        (`_arg`: the action's argument, None, as `OTHER_CHOICE` passes it.)"""
        # (a card is in one place: hand, face down or face up, so adding joins the two;
        # CPython 3.11 specialises integer `+`, not `|`)
        self.hand[seat] += self.revealed[seat]
        self.revealed[seat] = 0
        if self.log_tail is not None:  # _note inlined (a meerkat in four actions)
            self.log_tail.append(("cards", seat))

    def _push(self, seat: int, _arg: None = None) -> None:
        """WW-4.4 push / WW-5.2 alternative end: the top tile enters slot 1, every tile drifts
        one slot down, the last one goes over the waterfall with its animals back to their
        team cards.  With the stack empty slot 1 stays empty and this is the last round.
        (`_arg`: the action's argument, None, as `OTHER_CHOICE` passes it.)"""
        stack = self.stack
        if stack:
            new = stack.pop()
        else:
            new = -1
            if not self.last_round:
                self.last_round = True
                self._note("last_round", seat)
        old = self.slots
        fallen = old[-1]
        g = self.game
        occ = self.occ
        tail = self.log_tail  # None: no log kept (`_note`)
        drifting = tuple(filterfalse(IS_EMPTY, g.on_crossings(occ)))  # nearest the waterfall first; tested in C
        if drifting:
            # each animal on a log drifts with it to the same column one slot down, or
            # over the waterfall back to its team card (field 0, whose `occ` stays -1);
            # those nearest the waterfall first, so the field one lands on was left
            # already by the animal that stood there.  Who is washed back is only
            # told in the log.
            washed = tuple(filterfalse(IS_EMPTY, g.on_waterfall(occ))) if tail is not None else ()
            pos, drift = self.pos, g.drift
            for a in drifting:
                f = pos[a]
                occ[f] = -1
                f = pos[a] = drift[f]
                occ[f] = a
            occ[TEAM_CARD] = -1
        else:
            washed = ()
        self.slots = [new] + old[:-1]
        if fallen >= 0:
            self.discard.append(fallen)
        self.gaps = -1 in self.slots
        if tail is not None:  # _note inlined
            tail.append(("push", seat, new, fallen, washed))

    # -- protocol ----------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        """WW-3.1: during the pick phase every seat that has not picked; then the resolver."""
        return self.waiting

    def apply(self, action: WildAction | str, seat: int | None = None) -> None:
        """The protocol's checked `apply`: an action `legal_actions(seat)` offers now is
        played by the trusted path (inlined, core.inline); anything else (a refusal and its
        reason, notation) takes the protocol's own way.  Actions are interned and have no
        `__eq__`, so `in` finds an offered action by identity (as Watten's `offered` does),
        and notation or another game's action equals none of them: no class test is needed.
        (The tests ask what is *not* offered, as Wasserloch's guard does: each jump then
        skips a short branch, not the inlined body, so it needs no EXTENDED_ARG, which
        would keep CPython 3.11 from specialising the seat's compare before it.)"""
        if self.phase:  # one seat decides: `choices` is what `_why_illegal` allows (() once over)
            if seat != self.current_seat or action not in self.choices:
                self._apply_not_offered(action, seat)
                return
        # WW-3.1, half of all actions: a seat yet to pick picks a card in its hand (a pick
        # draws no chance, so a strict replay needs no transaction for it either)
        elif seat not in self.waiting or action not in PICKS_BY_MASK[self.hand[seat]]:
            self._apply_not_offered(action, seat)
            return
        self.apply_legal(action, seat)

    def _apply_not_offered(self, action: WildAction | str, seat: int | None) -> None:
        """`apply` of what `legal_actions(seat)` does not offer now: notation, a seat left
        unnamed (the seat to move's), or a refusal with its reason (the protocol's way; a
        seat that picked this round's card is told so, not "it is not seat 1's turn")."""
        if seat is None and self.current_seat is not None:
            self.apply(action, self.current_seat)
            return
        try:
            State.apply(self, action, seat)
        except NotYourTurn as refused:
            picked = self._why_not_pending(seat)
            if picked is None:
                raise
            raise NotYourTurn(refused.action, seat, picked) from None

    def why_illegal(self, action: WildAction | str, seat: int | None = None) -> Reason | None:
        """The protocol's reason, but for a seat that already picked this round's card
        (WW-3.1): that, where the protocol says only that it is not the seat's turn."""
        reason = State.why_illegal(self, action, seat)
        if reason is None or reason.code != "not_your_turn":
            return reason
        picked = self._why_not_pending(seat)
        return reason if picked is None else picked

    def _why_not_pending(self, seat: int | None) -> Reason | None:
        """WW-3.1: why a seat of the table has no decision pending, where the game can say
        more than the protocol's "not your turn": during the picks, it picked its card."""
        if self.phase == PICK_PHASE and seat in range(self.players) and seat not in self.waiting:
            return Reason("wildwasser.already_picked", seat=seat, waiting=list(self.waiting))
        return None

    def apply_legal(self, action: WildAction, seat: int) -> None:
        """The protocol's trusted path (an action from `legal_actions(seat)`): `_pick`, the
        dispatch of a decision and the next reveal (`_next_turn`'s common case) inlined
        (a call costs about 400 instructions; the log events and history entries are the
        actions' own, made once); a round's last decision ends the round in place
        (`_end_round` inlined, core.inline), after its history entry."""
        if not self.phase:  # PICK_PHASE (0): a truth test costs less than a compare
            # WW-3.1: a secret pick; the first reveal waits for the last pick.  A pick
            # draws no chance, so a strict replay (no generator) has nothing to undo and
            # takes this path too.
            self.hand[seat] -= action.bit  # a legal pick's card is in the hand
            self.pick[seat] = action.arg
            if self.log_tail is not None:  # a state that keeps its log (`_note`)
                self.log_tail.append(action.event[seat])
            # the seats still to pick, `after_pick[waiting][seat]` as the state keeps its row
            left, self.pick_row = self.pick_row[seat]
            self.waiting = left
            if left:  # others still pick: this pick was made together with theirs
                self.current_seat = left[0]
                self.history.append(action.together[seat])
                return
            self.phase = CHOOSE  # the reveals begin
            g = self.game
        else:
            if self.log_tail is not None:  # a state that keeps its log (`_note`)
                # a strict replay keeps one from the start (`_initial_state`), so the one
                # test of a playout also finds it: checked again, applied as a transaction
                if self.chance.rng is None:
                    State.apply(self, action, seat)
                    return
                self.log_tail.append(action.event[seat])
            # `_apply` for one seat's decision, the card's own move dispatched first
            ph = self.phase
            if ph == CHOOSE:
                if action is MOVE_CARD:  # WW-3.2: the card's own animal moves by its speed
                    c = self.card
                    pending = self._run(seat, c, self.board.speed[c])
                else:  # WW-3.2: the card's other choice, as `_resolve` looks it up (no frame of its own)
                    pending = OTHER_CHOICE[self.card](self, seat, action.arg)
            else:
                self.phase = CHOOSE
                if ph == SUN_CHOICE:
                    pending = self._run(seat, action.arg, 1)
                else:
                    self._set_marker(seat, action.arg)
                    pending = False
            if pending:  # a sun to place or a start marker to move: the same seat again
                self.history.append(action.alone[seat])
                return
            g = self.game
        # WW-3.1: the next seat reveals its card: `_next_turn` inlined for its common case
        # (a seat left in this round's order whose card leaves a choice); the phase is
        # CHOOSE here (a decision left pending returned above)
        turn = self.turn + 1
        # (a look-up, not `turn >= self.players`: CPython 3.11 specialises a comparison
        # only when a jump follows it directly, and the jump over the round's end, inlined
        # here, is long enough to need an EXTENDED_ARG in between)
        if g.round_resolved[turn]:  # WW-3.1: every card of the round is resolved (`_next_turn`'s end)
            self.turn = turn
            self.history.append(action.alone[seat])
            self._end_round(len(self.history))
            return
        # the order holds every seat once (WW-3.1)
        s = self.order[turn]
        c = self.pick[s]
        choices = g.card_choices[self.marker][c][self.fin[s]]  # `_card_choices`, one look-up
        if choices:
            self.pick[s] = -1
            # WW-3.4: revealed cards stay face up (a card is in one place: hand, face
            # down or face up, so adding its bit sets it)
            self.revealed[s] += BIT[c]
            self.card = c
            if self.log_tail is not None:  # a state that keeps its log (`_note`)
                self.log_tail.append(g.reveal_events[s][c])
            self.choices = choices
            self.turn = turn
            self.waiting = g.one_seat[s]
            self.current_seat = s
            self.history.append(action.alone[seat])
            return
        self._next_turn()  # a card that leaves no choice: `_next_turn` goes on
        self.history.append(action.alone[seat])


    def legal_actions(self, seat: int | None = None):
        """WW-3.1: a pick from the hand; then the resolver's choices, kept in `choices`
        whenever a decision falls due (`_card_choices` WW-3.2/3.3, a sun, a marker)."""
        if seat == self.current_seat:  # (None once over: `choices` is () then)
            if self.phase:  # one seat decides (or nobody, once over)
                return self.choices
            return PICKS_BY_MASK[self.hand[seat]]
        if seat is None:  # the seat to move's
            return self.legal_actions(self.current_seat)
        if self.phase or seat not in self.waiting:  # outside the picks only current_seat waits
            return ()
        return PICKS_BY_MASK[self.hand[seat]]

    def _why_illegal(self, action, seat: int) -> Reason | None:
        if action.__class__ is not WildAction:
            return Reason("not_an_action", action=repr(action), game=self.game.title)
        ph = self.phase
        kind = action.kind
        if ph == PICK_PHASE:
            if kind != PICK:
                return Reason("wildwasser.pick_first")
            if not self.hand[seat] >> action.arg & 1:
                return Reason("wildwasser.card_not_in_hand", animal=SPECIES[action.arg])
            return None
        if ph == CHOOSE:
            c = self.card
            if action is MOVE_CARD and c != TURTLE and self.pos[seat * N_SPECIES + c] != self.finish:
                return None  # WW-3.2: the card's own animal moves (the commonest choice)
            if action is ACT and c != TURTLE and c != CHEETAH:
                return None  # WW-3.2: the zebra's, rhino's or meerkat's action (the next commonest)
            return self._why_not_choice(action, seat)
        if ph == SUN_CHOICE:
            if kind != SUN:
                return Reason("wildwasser.sun_choice_due")
            if self.pos[seat * N_SPECIES + action.arg] == self.finish:
                return Reason("wildwasser.sun_finished", animal=SPECIES[action.arg])
            return None
        if kind != MARKER:
            return Reason("wildwasser.marker_choice_due")
        if action.arg >= self.players:
            return Reason("wildwasser.no_such_player", seat=action.arg, last=self.players - 1)
        return None

    def _why_not_choice(self, action: WildAction, seat: int) -> Reason | None:
        """WW-3.2/WW-3.3: why a choice does not resolve the revealed card."""
        c = self.card
        name = SPECIES[c]
        kind, arg = action.kind, action.arg
        if kind == PICK:
            return Reason("wildwasser.all_picked", card=name)
        if kind in (SUN, MARKER):
            return Reason(f"wildwasser.no_{kind}_choice", card=name)
        if kind == MOVE:
            if c == TURTLE:
                if arg is None:
                    return Reason("wildwasser.turtle_say_which")
                if arg not in TURTLE_CARD_MOVES:
                    return Reason("wildwasser.turtle_moves_only", animal=SPECIES[arg])
                if self.pos[seat * N_SPECIES + arg] == self.finish:
                    return Reason("wildwasser.already_finished", animal=SPECIES[arg])
                return None
            if arg is not None:
                return Reason("wildwasser.move_takes_no_animal", card=name)
            if self.pos[seat * N_SPECIES + c] == self.finish:
                return Reason("wildwasser.finished_take_action", card=name)
            return None
        # ACTION
        if c == TURTLE:
            return Reason("wildwasser.turtle_no_action")
        if c == CHEETAH:
            if arg is None:
                return Reason("wildwasser.marker_say_which")
            if arg >= self.players:
                return Reason("wildwasser.no_such_player", seat=arg, last=self.players - 1)
            if arg == self.marker:
                return Reason("wildwasser.marker_already_there", seat=arg)
            return None
        if arg is not None:
            return Reason("wildwasser.action_takes_no_player", card=name)
        return None

    def simultaneous(self) -> bool:
        """WW-3.1: the picks of a round are simultaneous, down to the last picker."""
        return self.phase == PICK_PHASE

    def _apply(self, action: WildAction, seat: int) -> None:
        ph = self.phase
        if ph == PICK_PHASE:
            self._pick(action.arg, seat)
            return
        if self.log_tail is not None:  # _note inlined
            self.log_tail.append(("decide", seat, action._text))
        self.phase = CHOOSE
        if ph == CHOOSE:
            pending = self._resolve(action, seat)
        elif ph == SUN_CHOICE:
            pending = self._run(seat, action.arg, 1)
        else:
            self._set_marker(seat, action.arg)
            pending = False
        if not pending:
            self._next_turn()

    def _pick(self, sp: int, seat: int) -> None:
        """WW-3.1: a secret pick; the first reveal waits for the last pick."""
        self.hand[seat] &= ~(1 << sp)
        self.pick[seat] = sp
        g = self.game
        if self.log_tail is not None:  # _note inlined: every seat picks every round
            self.log_tail.append(("pick", seat))
        waiting, self.pick_row = self.pick_row[seat]  # g.after_pick[self.waiting][seat], kept as rows
        self.waiting = waiting
        if waiting:
            self.current_seat = waiting[0]
        else:
            self._next_turn()

    def _resolve(self, action: WildAction, seat: int) -> bool:
        """WW-3.2: carry out the revealed card: its own animal's move, or else what
        `OTHER_CHOICE` says (its action; the turtle card's: one of three animals)."""
        c = self.card
        if action is MOVE_CARD:
            return self._run(seat, c, self.board.speed[c])
        return OTHER_CHOICE[c](self, seat, action.arg)

    def _rhino_action(self, seat: int, _arg: None = None) -> bool:
        """WW-3.2 rhino action: roll; the animal rolled moves by its speed (a sun: the seat
        chooses one to move 1, WW-3.3: a finished one does not move)."""
        sp = self._roll(seat)
        if sp < 0:
            return sp == ROLL_SUN
        return self._run(seat, sp, self.board.speed[sp])

    def _set_marker(self, seat: int, to: int) -> None:
        """WW-3.5: the start marker may move several times; only the last place counts.
        WW-4.3: an icon may leave it where it lies.  The event keeps where it lay, so that
        the log can say "stays with A" or "takes it", not "A gives it to A"."""
        if self.log_tail is not None:  # _note inlined (a cheetah in four actions)
            self.log_tail.append(("marker", seat, to, self.marker))
        self.marker = to

    # -- outcome ------------------------------------------------------------------
    def scores(self) -> list[float]:
        """WW-5.3: podium points per seat."""
        return [float(p) for p in self.points()]

    def winners(self) -> list[int]:
        """WW-5.3: most points; ties go to the better turtle place, then meerkat, rhino,
        zebra, cheetah (a placed animal beats none); still tied, the win is shared."""
        if self.phase != OVER:
            return []
        pts = self.points()
        best = max(pts)
        tied = [s for s in range(self.players) if pts[s] == best]
        if len(tied) == 1:
            return tied
        for sp in TIE_BREAK:
            placed = [(self.place[s * N_SPECIES + sp], s) for s in tied if self.place[s * N_SPECIES + sp]]
            if placed:
                return [min(placed)[1]]
        return tied

    # -- information ----------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        return _view.view(self, seat)

    def views(self, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        return _view.views(self, seats)

    def sample_world(self, seat: int, rng: random.Random) -> "WildwasserState":
        return _view.sample_world(self, seat, rng)


# WW-5.1/WW-5.2: over once `_end_round` ends the game.  `is_terminal` is not a method but
# the `terminal` slot's descriptor (made with the class, so set here): `state.is_terminal()`
# calls the C callable the slot holds (RUNNING, then ENDED), no Python frame at every step
# of every playout (state.py)
WildwasserState.is_terminal = WildwasserState.terminal
abc.update_abstractmethods(WildwasserState)

# WW-3.2: what each card does when its own animal does not move by the card, by card
# (`_resolve` and the trusted path look it up): the cheetah's action moves the start
# marker to the seat chosen, the zebra's pushes the river, the rhino's rolls the die, the
# meerkat's takes the revealed cards back; the turtle card, which has no action, moves
# one of three animals by 1 (`_run` itself, whose n is 1 when not given: no forwarding
# frame between).  Each takes (state, seat, the action's argument) and returns True when
# a decision of the seat is pending (a sun or a marker icon), else False or None.
_OTHER = {CHEETAH: WildwasserState._set_marker, ZEBRA: WildwasserState._push,
          RHINO: WildwasserState._rhino_action, MEERKAT: WildwasserState._cards_back,
          TURTLE: WildwasserState._run}
OTHER_CHOICE = tuple(_OTHER[c] for c in range(N_SPECIES))
