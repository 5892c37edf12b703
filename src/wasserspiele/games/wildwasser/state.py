"""The Wildwasser position as data: small lists of ints, cheap to clone."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...core.chance import Chance
from .board import SPECIES, Board

N_SPECIES = len(SPECIES)
TEAM_CARD = 0  # pos of an animal still on its team card (fields are 1..board.fields)

# Phases: who decides what.
PICK_PHASE, CHOOSE, SUN_CHOICE, MARKER_CHOICE, OVER = range(5)
PHASE_NAMES = ("pick", "resolve", "sun", "marker", "over")
# `is_terminal` (the `terminal` slot): C callables of no argument, so that asking costs no
# Python frame; `bool()` is False
RUNNING, ENDED = bool, True.__bool__
# `current_seat` and `terminal` are declared on the class with the rules
# (rules.WildwasserState), not on WildwasserData: a driver's loop outside specialised code
# (a script's, at module level) reads them through their slot descriptors, which check the
# instance's type against the class they belong to, walking its bases when the two differ
DRIVER_SLOTS = ("current_seat", "terminal")


class WildwasserData:
    """Data only.  Animal `a` is seat `a // 5`'s species `a % 5` (board.SPECIES order).

    `pos[a]`: 0 on the team card, 1..fields on the track, `finish` once on the podium;
    `occ[f]`: the animal on field f or -1 (index 0 and finish+ stay -1; it runs past
    the finish by the longest move, `Wildwasser.occ_len`);
    `place[a]`: podium place (1-based) or 0; `podium_n[sp]`: animals of a species placed;
    `hand`, `revealed`: bit masks of species per seat; `pick[s]`: the face-down card or -1;
    `slots`: tile index per river slot (0 = upper end) or -1 when empty; `stack`: the
    face-down tiles with the TOP LAST (pop() draws); `removed`: out unseen (WW-2.1);
    `discard`: over the waterfall; `order`: this round's resolution order, `turn` an index
    into it; `card`: the species of the card being resolved; `waiting`: to_move();
    `log_tail`: the public event log's events since this round began, oldest first (a
    list: an event is one `append`, no chain node to allocate and free); `log_head`: the
    earlier rounds, a shared chain `(events of a round, previous)` newest first (a round's
    list itself, never added to once in the chain),
    so a clone copies only the round's list; `log_count`: the events in `log_head`;
    `log`: the whole log as the older chain of `(event, previous)` pairs, made when asked;
    `log_tail` None: a state that keeps no log (a game drawn from a generator: playouts,
    search and bulk play never read it); `events`, `log_len`, `log` and pickling make it
    first, by replaying the game (rules: `_replay_log`), and the state keeps it from then on;
    `round_start`: the history index of this round's first pick;
    `current_seat`: `waiting[0]`, or None once the game is over, kept as a field because
    every driver asks it before every action (a property costs ten times a slot read).

    Kept beside the position so the hot path reads instead of working out (`sync()`
    derives them again after a direct edit of the fields above):
    `fin[s]`: bit mask of seat s's finished species (pos == finish);
    `choices`: the legal actions of `current_seat` outside the pick phase (() once over);
    `pick_row`: in the pick phase the row of `waiting` in `Wildwasser.pick_rows` (per seat,
    the seats still to pick once it picked and their own row), else None;
    `terminal`: what `is_terminal` is (the class's `is_terminal` is this slot's descriptor,
    so `state.is_terminal()` calls the callable held here): `RUNNING` until `_end_round`
    ends the game (WW-5.1/WW-5.2), then `ENDED`, both C callables of no argument.  Every
    driver asks `is_terminal()` before every action, and a Python method's frame cost
    about 2 % of a random playout.  A subclass's own `is_terminal` method shadows the
    descriptor as any override does; the engine writes only `terminal`.
    """

    __slots__ = (
        "game", "chance", "history", "board", "players", "flow", "finish",
        "pos", "occ", "place", "podium_n", "done", "hand", "revealed", "pick",
        "marker", "round", "round_start", "phase", "order", "turn", "card", "waiting",
        "slots", "gaps", "stack", "removed", "discard", "last_round", "log_tail", "log_head", "log_count",
        "fin", "choices", "pick_row",
    )  # and DRIVER_SLOTS, on the class with the rules

    game: Any
    chance: Chance
    history: list
    board: Board
    players: int
    flow: tuple[int, ...]      # crossing k uses slot flow[k]
    finish: int                # pos of a finished animal (fields + 1)
    pos: list[int]
    occ: list[int]
    place: list[int]
    podium_n: list[int]
    done: list[int]            # finished animals per seat
    hand: list[int]
    revealed: list[int]
    pick: list[int]
    marker: int                # seat whose team card holds the start marker
    round: int                 # 1-based
    round_start: int           # len(history) when this round's pick phase began
    phase: int
    order: tuple[int, ...]
    turn: int
    card: int
    waiting: tuple[int, ...]
    current_seat: int | None   # waiting[0] (None when over), set wherever waiting is
    slots: list[int]
    gaps: bool                 # some slot is empty (WW-4.5, only after WW-5.2)
    stack: list[int]
    removed: list[int]
    discard: list[int]
    last_round: bool           # WW-5.2: the tiles ran out; the game ends with this round
    log_tail: list[tuple]      # this round's events, oldest first
    log_head: tuple | None     # (events of an earlier round, previous) chain, newest first
    log_count: int             # events in log_head
    fin: list[int]
    choices: tuple
    terminal: Any              # RUNNING or ENDED (is_terminal)
    pick_row: tuple | None     # the pick phase's `Wildwasser.pick_rows[waiting]`, else None

    def clone(self):
        """An independent copy: lists of ints are copied, immutable parts shared."""
        c = object.__new__(type(self))
        c.game = self.game
        c.chance = self.chance.clone()
        c.history = self.history.copy()
        c.board = self.board
        c.players = self.players
        c.flow = self.flow
        c.finish = self.finish
        c.pos = self.pos.copy()
        c.occ = self.occ.copy()
        c.place = self.place.copy()
        c.podium_n = self.podium_n.copy()
        c.done = self.done.copy()
        c.hand = self.hand.copy()
        c.revealed = self.revealed.copy()
        c.pick = self.pick.copy()
        c.marker = self.marker
        c.round = self.round
        c.round_start = self.round_start
        c.phase = self.phase
        c.order = self.order
        c.turn = self.turn
        c.card = self.card
        c.waiting = self.waiting
        c.current_seat = self.current_seat
        c.slots = self.slots.copy()
        c.gaps = self.gaps
        c.stack = self.stack.copy()
        c.removed = self.removed.copy()
        c.discard = self.discard.copy()
        c.last_round = self.last_round
        tail = self.log_tail
        if tail is None:
            # a clone is a position of its own, which may be searched, sampled (its chance
            # blinded) or edited outside its history: it keeps the log, made here once
            self._replay_log()
            tail = self.log_tail
        c.log_tail = tail.copy()
        c.log_head = self.log_head
        c.log_count = self.log_count
        c.fin = self.fin.copy()
        c.choices = self.choices
        c.terminal = self.terminal
        c.pick_row = self.pick_row
        return c

    # `pickle` and `copy.deepcopy` (a Gymnasium env copied mid-episode, OpenSpiel's
    # serialize_state) get the log as one list of events, newest first, and its length
    # (`log_mark`), as before the log was kept per round: a chain of pairs walked
    # recursively ended in RecursionError past some hundreds of events.
    _LOG_SLOTS = ("log_tail", "log_head", "log_count")
    _DERIVED_SLOTS = (*_LOG_SLOTS, "terminal", "pick_row")  # not pickled: they follow the phase

    def __getstate__(self) -> dict[str, Any]:
        if self.log_tail is None:  # a state that keeps no log makes it: a pickle holds the log
            self._replay_log()
        state = {name: getattr(self, name) for name in (*WildwasserData.__slots__, *DRIVER_SLOTS)
                 if name not in WildwasserData._DERIVED_SLOTS and hasattr(self, name)}
        state["log"] = [e for _, e in reversed(self.events())]
        state["log_mark"] = self.log_len
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            if name not in ("log", "log_mark"):
                setattr(self, name, value)
        events = state["log"][::-1]
        self.log_tail = events
        self.log_head = None
        self.log_count = state["log_mark"] - len(events)
        self._derive_driver_fields()  # (not pickled: they follow the phase)
        if len(self.occ) < self.game.occ_len:  # (a pickle made before `occ` ran past the finish)
            self.occ = self.occ + [-1] * (self.game.occ_len - len(self.occ))

    def _derive_driver_fields(self) -> None:
        """`terminal` and `pick_row` from the phase and `waiting` (a pickle, `sync`)."""
        self.terminal = ENDED if self.phase == OVER else RUNNING
        self.pick_row = self.game.pick_rows.get(self.waiting) if self.phase == PICK_PHASE else None

    # -- derived -------------------------------------------------------------
    @property
    def log(self) -> tuple | None:
        """The whole log as a chain of `(event, previous)` pairs, newest first (made when
        asked; the engine keeps it per round)."""
        node = None
        for _, e in self.events():  # (made first if this state keeps none)
            node = (e, node)
        return node

    @log.setter
    def log(self, node: tuple | None) -> None:
        """Replace the log by a chain of `(event, previous)` pairs (a position built field
        by field); its events are numbered from 0 unless `log_len` is set after it."""
        events = []
        while node is not None:
            events.append(node[0])
            node = node[1]
        events.reverse()
        self.log_tail = events
        self.log_head = None
        self.log_count = 0

    @property
    def log_len(self) -> int:
        """How many events the log holds (the log made first if this state keeps none)."""
        if self.log_tail is None:
            self._replay_log()
        return self.log_count + len(self.log_tail)

    @log_len.setter
    def log_len(self, n: int) -> None:
        """Number the log's events so that it holds n (a position built field by field,
        whose log is the last events of a longer one)."""
        self.log_count += n - self.log_len

    def points(self) -> list[int]:
        """Podium points per seat so far (WW-5.3)."""
        b = self.board
        out = [0] * self.players
        for a, pl in enumerate(self.place):
            if pl:
                out[a // N_SPECIES] += b.points(a % N_SPECIES, pl)
        return out

    def events(self, last: int | None = None) -> list[tuple]:
        """The public log, oldest first (the last `last` events), each `(index, event)`;
        made first if this state keeps none (`_replay_log`)."""
        if self.log_tail is None:
            self._replay_log()
        want = self.log_len if last is None else min(last, self.log_len)
        out = []
        i = self.log_len
        part, node = self.log_tail, self.log_head
        while len(out) < want:
            for e in reversed(part):
                i -= 1
                out.append((i, e))
                if len(out) == want:
                    break
            if node is None:
                break
            part, node = node
        out.reverse()
        return out

    def tile_id(self, t: int) -> str | None:
        return self.board.tile_ids[t] if t >= 0 else None

    # -- conservation ----------------------------------------------------------
    def components(self) -> Counter:
        """Every animal, card, tile and the start marker, counted where each lies."""
        c: Counter = Counter()
        n = N_SPECIES
        for a, p in enumerate(self.pos):
            if p == TEAM_CARD:
                c[f"animal {a // n} {SPECIES[a % n]}"] += 1
            if self.place[a]:
                c[f"animal {a // n} {SPECIES[a % n]}"] += 1
        for a in self.occ:
            if a >= 0:
                c[f"animal {a // n} {SPECIES[a % n]}"] += 1
        for s in range(self.players):
            for sp in range(n):
                bit = 1 << sp
                held = (self.hand[s] & bit > 0) + (self.revealed[s] & bit > 0) + (self.pick[s] == sp)
                if held:
                    c[f"card {s} {SPECIES[sp]}"] += held
        ids = self.board.tile_ids
        for zone in (self.slots, self.stack, self.removed, self.discard):
            for t in zone:
                if t >= 0:
                    c[f"tile {ids[t]}"] += 1
        c["start marker"] = 1 if 0 <= self.marker < self.players else 0
        return c

    def state_json(self) -> dict[str, Any]:
        """The full position, hidden parts included."""
        b = self.board
        n = N_SPECIES

        def where(a: int):
            p = self.pos[a]
            if p == TEAM_CARD:
                return "team card"
            if p == self.finish:
                return f"podium {self.place[a]}"
            return p

        return {
            "round": self.round,
            "phase": PHASE_NAMES[self.phase],
            "to_move": list(self.waiting),
            "start_marker": self.marker,
            "order": list(self.order),
            "resolving": self.order[self.turn] if self.phase in (CHOOSE, SUN_CHOICE, MARKER_CHOICE) else None,
            "card": SPECIES[self.card] if self.card >= 0 else None,
            "animals": [{SPECIES[sp]: where(s * n + sp) for sp in range(n)} for s in range(self.players)],
            "hands": [[SPECIES[sp] for sp in range(n) if h >> sp & 1] for h in self.hand],
            "revealed": [[SPECIES[sp] for sp in range(n) if r >> sp & 1] for r in self.revealed],
            "picks": [SPECIES[p] if p >= 0 else None for p in self.pick],
            "river": [self.tile_id(t) for t in self.slots],
            "stack": [b.tile_ids[t] for t in reversed(self.stack)],
            "removed": [b.tile_ids[t] for t in self.removed],
            "discard": [b.tile_ids[t] for t in self.discard],
            "last_round": self.last_round,
            "points": self.points(),
        }
