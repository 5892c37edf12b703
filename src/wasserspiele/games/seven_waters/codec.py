"""Seven Waters: a fixed space of 2,830 hand-relative actions, and the view as a vector.

The building actions name subsets of a hand of at most 7 cards (SW-4.1), so there are
far too many notation strings to list (every subset of 54 cards).  As in Hanabi, the
codec names hand *slots* instead: slot i is the i-th card of the hand as the view
lists it, and a subset is a 7-bit mask (bit i = slot i).  What the engine emits is
then fixed by a few small numbers:

* `take R-C`: the pyramid position (28);
* `theme CARD`: the slot (7);
* `discard …`: the mask (127);
* `slide K …`: line K and the mask (4 × 127): the joker values follow from the
  line's sum, and the engine emits one split per subset;
* `river …`: the run's first rank (A…K) and the mask (13 × 127): jokers fill the
  gaps, X1 the lower, as the engine places them;
* `pool …`: the pool's suit and the mask (4 × 127): jokers declare that suit;
* `pass` (1).
"""

from __future__ import annotations

from collections import abc
from typing import Any, Iterator, Mapping

import numpy as np

from ...core.cards import ALL_CARDS, Card
from ...core.protocol import Action
from ...adapters.codecs.base import Codec, EncodingError, Vec, index_of, _seat
from ...fast import COMPILED
from . import kernel as K
from .actions import (
    COVERED_BY, FACE_UP_ROW, PLAIN, POOL_JOKER, TAKES, THEMES, VALUE, Discard, Pass, Pool, River, Slide, Take,
    Theme,
)
from .actions import PASS as PASS_ACTION
from .rules import _high_first, _river_pieces, slide_jokers

RANKS = "A23456789TJQK"
SUITS = "CDHS"
CARDS = tuple(r + s for s in SUITS for r in RANKS) + ("X1", "X2")
CARD = index_of(CARDS)
HAND_SLOTS = 7
MASKS = (1 << HAND_SLOTS) - 1  # 127 non-empty subsets
ROWS = 7
PYRAMID = ROWS * (ROWS + 1) // 2
LINES = 4

TAKE = 0
THEME = TAKE + PYRAMID
DISCARD = THEME + HAND_SLOTS
SLIDE = DISCARD + MASKS
RIVER = SLIDE + LINES * MASKS
POOL = RIVER + len(RANKS) * MASKS
PASS = POOL + len(SUITS) * MASKS
SIZE = PASS + 1
SEAT_AT = index_of([0, 1])
CELL_AT = index_of(["empty", "face down", *CARDS])
POOL_SUIT_AT = index_of([None, *SUITS])
POSITIONS = tuple(f"{r}-{c}" for r in range(1, ROWS + 1) for c in range(1, r + 1))
POSITION = tuple(CARD[c.name] for c in ALL_CARDS)  # an engine card's index -> its one-hot position


def _slots(mask: int) -> str:
    return ",".join(str(i) for i in range(HAND_SLOTS) if mask >> i & 1)


def _rank(token: str) -> int:
    """1…13 of a river piece: the card's rank, or a joker's declared rank."""
    name, _, decl = token.partition("=")
    r = decl if decl else name[0]
    return RANKS.index("T" if r == "10" else r) + 1


def _suit(token: str) -> str:
    name, _, decl = token.partition("=")
    return decl if decl else name[-1]


class SevenWatersCodec(Codec):
    def _action_names(self) -> list[str]:
        names = [f"take {r}-{c}" for r in range(1, ROWS + 1) for c in range(1, r + 1)]
        names += [f"theme slot {i}" for i in range(HAND_SLOTS)]
        names += [f"discard slots {_slots(m)}" for m in range(1, MASKS + 1)]
        names += [f"slide {k} slots {_slots(m)}" for k in range(1, LINES + 1) for m in range(1, MASKS + 1)]
        names += [f"river from {r} slots {_slots(m)}" for r in RANKS for m in range(1, MASKS + 1)]
        names += [f"pool {s} slots {_slots(m)}" for s in SUITS for m in range(1, MASKS + 1)]
        names.append("pass")
        return names

    def _hand(self, view: Mapping[str, Any]) -> dict[str, int]:
        seat = view["seat"]
        hand = view["players"][seat]["hand"] if seat is not None else None
        if hand is None:
            raise EncodingError("seven_waters: the view shows no hand (a spectator cannot act)")
        return {name: i for i, name in enumerate(hand)}

    def _mask(self, tokens: list[str], hand: dict[str, int], text: str) -> int:
        m = 0
        for t in tokens:
            slot = hand.get(t.partition("=")[0].upper())
            if slot is None:
                raise EncodingError(f"seven_waters: {text!r} names {t.partition('=')[0]}, which is not in the hand")
            m |= 1 << slot
        if not m:
            raise EncodingError(f"seven_waters: {text!r} names no cards")
        return m

    def action_index(self, action: Action | str, view: Mapping[str, Any]) -> int:
        text = str(self.game.parse_action(action)) if isinstance(action, str) else str(action)
        verb, *args = text.split()
        if verb == "pass":
            return PASS
        if verb == "take":
            r, c = (int(x) for x in args[0].split("-"))
            return TAKE + r * (r - 1) // 2 + c - 1
        hand = self._hand(view)
        if verb == "theme":
            return THEME + self._mask(args, hand, text).bit_length() - 1
        if verb == "discard":
            return DISCARD + self._mask(args, hand, text) - 1
        if verb == "slide":
            return SLIDE + (int(args[0]) - 1) * MASKS + self._mask(args[1:], hand, text) - 1
        if verb == "river":
            start = min(_rank(t) for t in args)
            return RIVER + (start - 1) * MASKS + self._mask(args, hand, text) - 1
        if verb == "pool":
            return POOL + SUITS.index(_suit(args[0])) * MASKS + self._mask(args, hand, text) - 1
        raise EncodingError(f"seven_waters: {text!r} is not an action the codec knows")

    def _fill(self, view: Mapping[str, Any], vec: Vec) -> None:
        me = view["seat"] if view["seat"] is not None else 0
        vec.multihot("seat", _seat(view), SEAT_AT, "the observing seat (all 0 for a spectator)", most=1)
        mover = view["to_move"][0] if view["to_move"] else None
        vec.flag("my_turn", mover == me, "1 when the observing seat is to move")
        vec.flag("extra_action", view["extra_action"], "1 during the extra action after a slide")
        vec.scalar("pyramid_left", view["pyramid_left"], PYRAMID, "pyramid cards left / 28", span=(0, PYRAMID))
        # without a slide limit both may build all their 2 x 4 slides
        vec.scalar("slides_built", view["slides_built"], 7, "slides built by both / 7", span=(0, 2 * LINES))
        limit = view["slide_limit"]
        vec.scalar("slide_limit", 0 if limit is None else limit, 7, "slide limit / 7 (0: no limit)",
                   span=(0, max(7, limit or 0)))  # an option: the same in every view of a game
        left = view["final_turns_left"]
        vec.scalar("final_turns_left", -1 if left is None else left, 2, "final turns left / 2 (-0.5: not started)",
                   span=(-1, 2))
        vec.flag("over", view["over"], "1 once the game is over")
        cells = [c for row in view["pyramid"] for c in row]
        states = CELL_AT
        for i, c in enumerate(cells):
            vec.onehot(f"pyramid{i}", "empty" if c is None else "face down" if c == "##" else c, states,
                       "pyramid position (rows top down): empty, face down, or the card (56)")
        free = set(view["free"])
        vec.scalars("free", [1.0 if rc in free else 0.0 for rc in POSITIONS], 1,
                    "1 for each pyramid position that may be taken", span=(0, 1))
        mine = view["players"][me]
        hand = mine["hand"] or []
        for i in range(HAND_SLOTS):
            vec.multihot(f"hand_slot{i}", [hand[i]] if i < len(hand) else [], CARD,
                         "the card in this hand slot (the action codec's slot i)", most=1)
        for who, p in (("me", mine), ("opponent", view["players"][1 - me])):
            # each of the 54 cards is one of a kind: every card multi-hot is exactly [0, 1]
            vec.multihot(f"{who}_lines", [c for line in p["lines"] for c in line], CARD, "cards in the 4 lines", most=1)
            vec.scalars(f"{who}_line_sums", p["line_sums"], 40, "sum of lines 1…4 / 40",
                        span=(0, 10 * LINES))  # line k: k cards of value at most 10 (SW-3.3)
            vec.scalars(f"{who}_slide_built", [0.0 if s is None else 1.0 for s in p["slides"]], 1,
                        "1 for each line whose slide is built", span=(0, 1))
            vec.multihot(f"{who}_slides", [c.partition("=")[0] for s in p["slides"] if s for c in s], CARD,
                         "cards in the slides", most=1)
            vec.multihot(f"{who}_river", [c.partition("=")[0] for c in p["river"]], CARD, "cards in the lazy river",
                         most=1)
            ranks = [_rank(c) for c in p["river"]]
            vec.scalars(f"{who}_river_ends", [min(ranks) if ranks else 0, max(ranks) if ranks else 0], 13,
                        "lowest and highest river rank / 13 (0: no river)", span=(0, 13))
            vec.multihot(f"{who}_pool", [c.partition("=")[0] for c in p["pool"]], CARD, "cards in the wave pool",
                         most=1)
            vec.onehot(f"{who}_pool_suit", p["pool_suit"], POOL_SUIT_AT, "pool suit: none, C D H S")
            vec.flag(f"{who}_theme_placed", p["theme_placed"], "1 once a theme card is placed")
            vec.multihot(f"{who}_theme", [p["theme"]] if p["theme"] else [], CARD, "the theme card, if visible", most=1)
            vec.scalar(f"{who}_hand_count", p["hand_count"], HAND_SLOTS, "cards in hand / 7", span=(0, HAND_SLOTS))
            vec.scalar(f"{who}_discard_count", p["discard_count"], 54, "cards discarded / 54", span=(0, len(CARDS)))
            vec.multihot(f"{who}_discards", p["discards"] or [], CARD, "discarded cards, if visible", most=1)

    # -- the environments' path: straight from the state ----------------------------
    # Two ways, giving equal maps and vectors (tests/games/seven_waters/test_codec_paths.py):
    # with numba, the compiled kernel on the position mirrored in its vector (`_kernel_*`;
    # a step's legal actions and observation in a few microseconds, where the engine's
    # subset tables for a hand never seen before cost a hundred); without it the engine's
    # objects (`_engine_*`), since the kernel in pure Python is 3× slower than the engine.
    _at: dict[str, int] | None = None  # segment starts (the direct encoder's offsets)

    def __init__(self, game):
        super().__init__(game)
        self.use_kernel = COMPILED
        self._mirrors: dict[int, _Mirror] = {}
        self._starts: np.ndarray | None = None

    def legal_map_state(self, state: Any, seat: int) -> Mapping[int, Action]:
        """`legal_map(state.legal_actions(seat), state.view(seat))`, read from the state."""
        if self.use_kernel:
            return self._kernel_legal_map(state, seat)
        return self._engine_legal_map(state, seat)

    def observe_state(self, state: Any, seat: int) -> np.ndarray:
        """`observe(state.view(seat))`, read from the state."""
        if self.use_kernel:
            return self._kernel_observe(state, seat)
        return self._engine_observe(state, seat)

    def _kernel_position(self, state: Any) -> "_Mirror":
        """The position in the kernel's vector: kernel.from_state once, then kept in step
        by kernel.apply while the state grows by actions of this codec's legal maps (a
        state changed any other way is read afresh)."""
        history = state.history
        n = len(history)
        last = history[-1] if n else None
        mirror = self._mirrors.get(id(state))
        if mirror is None or mirror.state is not state:
            if len(self._mirrors) >= 128:  # a lab lockstep chunk plays up to 64 games at once (runner.chunked)
                self._mirrors.clear()
            mirror = self._mirrors[id(state)] = _Mirror(state)
        elif mirror.last is last and mirror.moves == n:
            return mirror
        elif mirror.moves == n - 1 and mirror.last is (history[-2] if n > 1 else None):
            made = mirror.made.get(id(last[1]))
            if made is not None and made[0] is last[1] and last[0] == mirror.g[K.TURN]:
                K.apply(mirror.g, made[1], np.empty(K.SLOTS, np.int64))  # scratch per call: codecs may be shared by threads
                mirror.moved(n, last)
                return mirror
        mirror.g = K.from_state(state)
        mirror.moved(n, last)
        return mirror

    def _kernel_legal_map(self, state: Any, seat: int) -> "KernelLegal":
        mirror = self._kernel_position(state)
        if state.over or seat != state.turn:
            indices = np.empty(0, np.int64)
        else:
            out = np.empty(K.ACTIONS, np.int64)
            indices = out[:K.legal(mirror.g, out, np.empty(K.SLOTS, np.int64), np.empty((8, 1 << K.SLOTS), np.int64))]
        return KernelLegal(indices, tuple(state.hands[seat]), state.line_sums[seat], mirror)

    def _kernel_observe(self, state: Any, seat: int) -> np.ndarray:
        if self._starts is None:
            self._starts = segment_starts(self)
        row = np.empty(self.obs_size, np.float32)
        K.encode(seat, self._kernel_position(state).g, self._starts, row, np.empty(K.SLOTS, np.int64))
        return row

    def _engine_legal_map(self, state: Any, seat: int) -> dict[int, Action]:
        """`legal_map(state.legal_actions(seat), state.view(seat))` from the action
        objects and the hand's order (the view's slots), without notation or a view.
        (Piece ranks and suits are read inline: a call per piece cost a fifth of the map.)"""
        bit = {c: 1 << i for i, c in enumerate(state.hands[seat])}  # a hand card's slot bit
        out: dict[int, Action] = {}
        for a in state.legal_actions(seat):
            t = a.__class__
            if t is Take:
                i = TAKE + a.index
            elif t is Discard:
                m = 0
                for c in a.cards:
                    m |= bit[c]
                i = DISCARD + m - 1
            elif t is Slide or t is River or t is Pool:
                m = 0
                for p in a.pieces:
                    m |= bit[p.card]
                if t is Slide:
                    i = SLIDE + (a.line - 1) * MASKS + m - 1
                elif t is River:  # the run's lowest rank: a joker's declared one, else the card's
                    low = min(p.card.rank or p.decl for p in a.pieces)
                    i = RIVER + (low - 1) * MASKS + m - 1
                else:
                    first = a.pieces[0]
                    i = POOL + SUITS.index(first.card.suit or first.decl) * MASKS + m - 1
            elif t is Theme:
                i = THEME + bit[a.card].bit_length() - 1
            elif t is Pass:
                i = PASS
            else:
                raise EncodingError(f"seven_waters: {a!r} is not an action the codec knows")
            if i in out:
                raise EncodingError(f"seven_waters: actions {out[i]} and {a} share index {i} ({self.action_names[i]})")
            out[i] = a
        return out

    def _offsets(self) -> dict[str, int]:
        """Segment starts (from the recorded layout), and per park (me, opponent) a tuple
        of them in the order the direct encoder writes."""
        at = self._at = {name: start for name, start, _size, _meaning in self.layout}
        self._base_cache: dict[tuple[int, int], tuple[tuple, np.ndarray]] = {}
        self._pyramid_cache: dict[tuple, np.ndarray] = {}
        parts = ("slide_built", "slides", "river", "river_ends", "pool", "pool_suit", "theme_placed", "theme",
                 "hand_count", "discard_count", "discards")
        self._parks = tuple(tuple(at[f"{who}_{part}"] for part in parts) for who in ("me", "opponent"))
        self._sums_at = (at["me_line_sums"], at["opponent_line_sums"])
        return at

    def _base(self, state: Any, seat: int, at: dict[str, int]) -> np.ndarray:
        """What never changes in a game for `seat`'s observation: the seat, the slide limit
        and both parks' line cards (dealt at setup, SW-3.3), as a vector to copy.  Found once
        per game and seat (keyed by the game's `lines` tuple, which its states share)."""
        lines = state.lines
        key = (id(lines), seat)
        found = self._base_cache.get(key)
        if found is None or found[0] is not lines:
            if len(self._base_cache) > 64:
                self._base_cache.clear()
            base = np.zeros(self.obs_size, np.float32)
            limit = state.game.options["slide_limit"]
            base[at["seat"] + seat] = 1.0
            base[at["slide_limit"]] = (0 if limit is None else limit) / 7
            for p, start in ((seat, at["me_lines"]), (1 - seat, at["opponent_lines"])):
                base[[start + POSITION[c.index] for line in lines[p] for c in line]] = 1.0
            found = self._base_cache[key] = (lines, base)
        return found[1]

    def _pyramid(self, pyramid: list, at: dict[str, int]) -> np.ndarray:
        """The one-hot positions of the pyramid cells and the free flags (an index array).
        It changes only when a card is taken, so most steps find it made already."""
        key = tuple(pyramid)
        found = self._pyramid_cache.get(key)
        if found is not None:
            return found
        if len(self._pyramid_cache) > 4096:
            self._pyramid_cache.clear()
        ones = []
        cell, free, width = at["pyramid0"], at["free"], len(CELL_AT)
        for i, c in enumerate(pyramid):
            if c is None:
                ones.append(cell)
            else:
                covered_by = COVERED_BY[i]  # SW-3.2: free once neither covering card is left
                if not covered_by or (pyramid[covered_by[0]] is None and pyramid[covered_by[1]] is None):
                    ones += (cell + 2 + POSITION[c.index], free + i)
                elif FACE_UP_ROW[i]:
                    ones.append(cell + 2 + POSITION[c.index])
                else:
                    ones.append(cell + 1)  # face down
            cell += width
        found = self._pyramid_cache[key] = np.array(ones, np.intp)
        return found

    def _engine_observe(self, state: Any, seat: int) -> np.ndarray:
        """`observe(state.view(seat))` read from the state: the same vector without
        building the view (card names, the pyramid rows, the log).  The parts that change
        least come as arrays made once (`_base`, `_pyramid`); the rest is put in one go."""
        at = self._at or self._offsets()
        s = state
        over = s.over
        out = self._base(s, seat, at).copy()
        out.put(self._pyramid(s.pyramid, at), 1.0)
        ones = []
        if not over and s.turn == seat:
            ones.append(at["my_turn"])
        if s.extra:
            ones.append(at["extra_action"])
        if over:
            ones.append(at["over"])
        idx = [at["pyramid_left"], at["slides_built"], at["final_turns_left"]]
        vals = [s.left / PYRAMID, s.slides_built / 7, (-1 if s.final_left < 0 else s.final_left) / 2]
        start = at["hand_slot0"] - len(CARD)
        for c in s.hands[seat]:
            start += len(CARD)
            ones.append(start + POSITION[c.index])
        for p, park, sums_at in ((seat, self._parks[0], self._sums_at[0]), (1 - seat, self._parks[1], self._sums_at[1])):
            (slide_built, slides, river_at, river_ends, pool_at, pool_suit, theme_placed, theme_at, hand_count,
             discard_count, discards) = park
            idx += (sums_at, sums_at + 1, sums_at + 2, sums_at + 3)
            vals += [x / 40 for x in s.line_sums[p]]
            for k, slide in enumerate(s.slides[p]):
                if slide is not None:
                    ones.append(slide_built + k)
                    ones += [slides + POSITION[piece.card.index] for piece in slide]
            river = s.river[p]
            if river:
                ones += [river_at + POSITION[piece.card.index] for piece in river]
                idx += (river_ends, river_ends + 1)  # the river lies in ascending rank order
                first, last = river[0], river[-1]
                vals += ((first.card.rank or first.decl) / 13, (last.card.rank or last.decl) / 13)
            pool = s.pool[p]
            if pool:
                ones += [pool_at + POSITION[piece.card.index] for piece in pool]
                first = pool[0]
                ones.append(pool_suit + 1 + SUITS.index(first.card.suit or first.decl))
            else:
                ones.append(pool_suit)
            theme = s.theme[p]
            if theme is not None:
                ones.append(theme_placed)
                if p == seat or over:
                    ones.append(theme_at + POSITION[theme.index])
            idx += (hand_count, discard_count)
            vals += (len(s.hands[p]) / HAND_SLOTS, len(s.discards[p]) / 54)
            if p == seat:
                ones += [discards + POSITION[c.index] for c in s.discards[p]]
        out.put(ones, 1.0)
        out.put(idx, vals)
        return out


def segment_starts(codec: SevenWatersCodec) -> np.ndarray:
    """The starts of the codec's segments the kernel writes (kernel.OBS, then kernel.WHO
    for the observer and the opponent); an error if the layout is not the one it knows."""
    start = {name: (at, size) for name, at, size, _meaning in codec.layout}
    names = list(K.OBS) + [f"{who}_{n}" for who in ("me", "opponent") for n in K.WHO]
    missing = [n for n in names if n not in start]
    if missing or codec.num_actions != K.ACTIONS:
        raise ValueError(f"seven_waters codec layout unknown to the kernel (missing {missing}, "
                         f"{codec.num_actions} actions)")
    for i in range(K.PYRAMID):  # the per-position and per-slot blocks must follow each other
        if start[f"pyramid{i}"] != (start["pyramid0"][0] + K.CELL * i, K.CELL):
            raise ValueError(f"seven_waters codec: pyramid{i} is not where the kernel writes it")
    for i in range(K.SLOTS):
        if start[f"hand_slot{i}"] != (start["hand_slot0"][0] + K.DECK * i, K.DECK):
            raise ValueError(f"seven_waters codec: hand_slot{i} is not where the kernel writes it")
    return np.array([start[n][0] for n in names], np.int64)


class _Mirror:
    """An engine state's position as the kernel's vector `g`, as of `moves` actions (the
    last history entry `last`), and the actions made from its legal map ({id: (action,
    index)}) so that the one applied next is found."""

    __slots__ = ("state", "moves", "last", "g", "made")

    def __init__(self, state: Any):
        self.state = state
        self.made: dict[int, tuple[Action, int]] = {}

    def moved(self, moves: int, last: Any) -> None:
        self.moves, self.last = moves, last
        self.made = {}


class KernelLegal(abc.Mapping):
    """{index: action} of a seat's legal actions as the kernel found them: the indices in
    the engine's order (`indices`), each action made only when asked for (`action_at`);
    equal to the dict of `legal_map`."""

    __slots__ = ("indices", "_hand", "_sums", "_mirror", "_moves", "_last", "_legal", "_actions")

    def __init__(self, indices: np.ndarray, hand: tuple[Card, ...], sums: tuple[int, ...], mirror: _Mirror):
        self.indices = indices
        self._hand, self._sums = hand, sums
        self._mirror, self._moves, self._last = mirror, mirror.moves, mirror.last
        self._legal: set[int] | None = None
        self._actions: dict[int, Action] = {}

    def __contains__(self, index: object) -> bool:
        if self._legal is None:
            self._legal = set(self.indices.tolist())
        return index in self._legal

    def __getitem__(self, index: int) -> Action:
        found = self._actions.get(index)
        if found is None:
            if index not in self:
                raise KeyError(index)
            found = self._actions[index] = action_at(index, self._hand, self._sums)
            mirror = self._mirror
            if mirror.moves == self._moves and mirror.last is self._last:  # the position is still the mirror's
                mirror.made[id(found)] = (found, index)
        return found

    def __iter__(self) -> Iterator[int]:
        return iter(self.indices.tolist())

    def __len__(self) -> int:
        return len(self.indices)


def action_at(index: int, hand: tuple[Card, ...], sums: tuple[int, ...]) -> Action:
    """The engine's action for a legal index of a seat with this hand (slot order) and
    these line sums, made as rules.py makes it: plain cards highest rank first, then the
    jokers (SW-4.3a a slide's make up its sum, SW-4.3b a river's fill its gaps, SW-4.3c a
    pool's declare its suit)."""
    if index < THEME:
        return TAKES[index - TAKE]
    if index < DISCARD:
        return THEMES[hand[index - THEME].index]
    if index == PASS:
        return PASS_ACTION
    block, m = divmod(index - DISCARD, MASKS)
    m += 1
    chosen = [c for slot, c in enumerate(hand) if m >> slot & 1]
    plain = tuple(sorted((c for c in chosen if c.rank), key=_high_first))
    jokers = tuple(c for c in chosen if not c.rank)
    if block == 0:
        return Discard(plain + jokers)
    pieces = tuple(PLAIN[c.index] for c in plain)
    if block <= LINES:
        if jokers:
            pieces += slide_jokers(jokers, sums[block - 1] - sum(VALUE[c.index] for c in plain))
        return Slide(block, pieces)
    block -= LINES + 1
    if block < len(RANKS):
        return River(_river_pieces(plain, jokers, block + 1, len(chosen)))
    suit = SUITS[block - len(RANKS)]
    return Pool(pieces + tuple(POOL_JOKER[(j.index, suit)] for j in jokers))
