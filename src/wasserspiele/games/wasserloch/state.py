"""The Wasserloch position as data: counts per value, cheap to clone."""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from operator import attrgetter
from typing import Any

from ...core.chance import Chance
from .actions import HAND_LIMIT, VALUE_BITS, VALUE_MASK, VALUES

# WL-3.3, WL-5.2, WL-5.5: plays kept per seat in `recent`.  Between two turns of a seat at
# most 2 × players − 2 plays are made (the rest of a round that another seat ends, then the
# next round's plays before its own), so its previous play is among the last 2 × players − 1.
RECENT_PER_SEAT = 2

# A hand is kept packed in one int: value index v's count in bits 3v … 3v+2 (actions.py).
# A play then changes the hand by one subtraction (Play.bits), a drawn card by one addition
# (UNIT[v]; both at once: Play.swaps), and the hand is its own key for the legal plays.
UNIT = [1 << (VALUE_BITS * v) for v in range(len(VALUES))]
unit_of = UNIT.__getitem__  # a list's: a fast call, for map()


def pack(counts) -> int:
    """The packed hand of a list of counts per value index."""
    key = 0
    for v, n in enumerate(counts):
        if not 0 <= n <= VALUE_MASK:
            raise ValueError(f"a hand holds 0 … {VALUE_MASK} cards of a value, not {n}")
        key += n * UNIT[v]
    return key


def split(key: int) -> tuple[int, ...]:
    """The counts per value index of a packed hand, worked out (COUNTS holds them for every
    hand a deal makes)."""
    return tuple((key >> (VALUE_BITS * v)) & VALUE_MASK for v in range(len(VALUES)))


def unpack(key: int) -> list[int]:
    """The counts per value index of a packed hand (a new list; a hand no deal makes, of more
    than 5 cards, is a position set up by hand)."""
    return list(COUNTS.get(key) or split(key))


def hands_up_to(size: int) -> list[int]:
    """Every packed hand of at most `size` cards (1,287 for five), smallest first."""
    hands = [(0, 0)]  # (packed hand, cards in it)
    for unit in UNIT:  # add cards of each value to every hand made of the values before it
        hands = [(k + n * unit, c + n) for k, c in hands for n in range(size - c + 1)]
    return sorted(k for k, _ in hands)


# COUNTS[packed hand]: its counts per value index, for every hand of up to 5 cards
COUNTS: dict[int, tuple[int, ...]] = {}


def packed(cards) -> int:
    """The packed hand of `cards`, value indices (at most 7 of each)."""
    return sum(map(unit_of, cards))


# SIZES[packed hand]: how many cards it holds, for the same hands
SIZES: dict[int, int] = {}

for _key in hands_up_to(HAND_LIMIT):
    COUNTS[_key] = split(_key)
    SIZES[_key] = sum(COUNTS[_key])


def hand_size(key: int) -> int:
    """How many cards the packed hand `key` holds."""
    size = SIZES.get(key)
    return sum(split(key)) if size is None else size


_QUIET = (None, -1, 0, None)  # a play that drove nothing off, as `drives` would hold it


class WasserlochData:
    """Data only.  Suits play no role (WL-2), so every zone is a count per value.

    `keys[s]` is seat s's hand packed in one int (`hands[s][v]` unpacks it into a list of 8
    counts); `hole[v]`, `gone[v]` (cards looted this round, by value) are lists of 8 ints;
    `pile` is the round's deck, top first, as value indices, drawn from `pile_pos` on;
    `loot[r][s]` is seat s's loot in round r; `recent` the match's latest plays.
    """

    __slots__ = (
        "game", "chance", "history", "players", "rounds", "chase_adjacent",
        "round", "start_player", "current_seat", "seat", "keys", "hole",
        "_pile", "pile_len", "fast_end", "pile_pos", "gone", "_loot", "round_loot", "drives", "round_ends",
        "after", "chase",
    )

    game: Any
    chance: Chance
    history: list
    players: int
    rounds: int
    chase_adjacent: bool
    round: int              # 0-based index of the round being played (== rounds when over)
    start_player: int       # start player of the current round
    # The seat to move, None once the match is over: a plain slot, as the protocol's
    # `current_seat` is read before every action (a property call was a tenth of a
    # random play).  `current` and `over` below are views of it.
    current_seat: int | None
    seat: int               # the seat to move, or that moved last once the match is over
    keys: list[int]         # per seat its hand, packed (`hands` unpacks them)
    hole: list[int]
    # `pile`: the round's deck, shared between clones and never mutated: a deal keeps the
    # chance stream's own list of draws, a position set up by hand (the setter) a tuple
    _pile: list[int] | tuple[int, ...]
    pile_len: int           # len(pile)
    # WL-4.4: the pile position up to which a play draws exactly what it played (every hand
    # holds 5 while the pile lasts): len(pile), or -1 for a position set up with a short hand
    fast_end: int
    pile_pos: int           # index of the top card of the draw pile in `pile`
    gone: list[int]
    _loot: list[list[int]]  # `loot`
    # loot[-1], the current round's row, which a drive-off adds to (a third of all plays):
    # `loot[-1]` is a negative index, which CPython 3.11 does not specialise (2.8k
    # instructions of a random 3-player round); assigning `loot` sets it too
    round_loot: list[int] | None  # None before the first round (a `loot` set empty)
    # WL-3.3, WL-5.2, WL-5.5: the plays that drove a herd off, newest first, as a chain of
    # tuples (history index of the play, driven-off value index, cards looted, older drives)
    # or None: shared between clones, since it only grows at its head; a play that drove
    # nothing off adds nothing.  `recent` reads them with the history.
    drives: tuple | None
    round_ends: tuple[int, ...]  # per round that has ended, the history index of its last play
    after: tuple            # WL-3.3: after[seat], the seat that plays next
    chase: tuple            # WL-4.2, WL-4.3, WL-4.5: chase[v], the places a drive by v may take (rules._CHASE)

    @property
    def recent(self) -> list[tuple[str, int, int, int]]:
        """The match's latest plays, oldest first, each (play, driven-off value index or -1,
        cards looted, round); a play's seat and number are its history entry's (the last
        len(recent) entries of `history`, in the same order).  At most RECENT_PER_SEAT ×
        players: every play since any seat's previous one (view.recent_plays)."""
        history = self.history
        first = max(0, len(history) - RECENT_PER_SEAT * self.players)
        drove = {}
        chain = self.drives
        while chain is not None and chain[0] >= first:
            drove[chain[0]] = chain
            chain = chain[3]
        out = []
        ends = self.round_ends
        for k in range(first, len(history)):
            _, driven, taken, _ = drove.get(k, _QUIET)
            # the rounds ended before play k (`round_ends` is in order)
            out.append((str(history[k][1]), driven, taken, bisect_left(ends, k)))
        return out

    # -- the hands, the hand sizes and the pile as lists and tuples ----------------------
    @property
    def hands(self) -> list[list[int]]:
        """Per seat its hand as counts per value index (new lists: change hands by assigning).
        One seat's to read: `hand(seat)`."""
        return [unpack(k) for k in self.keys]

    @hands.setter
    def hands(self, hands) -> None:
        self.keys = [pack(h) for h in hands]
        self._find_fast_end()

    def hand(self, seat: int) -> tuple[int, ...]:
        """Seat's hand as counts per value index, to read (`hands` makes every seat's lists,
        about 20 times the cost: the codec and the heuristic's rollouts read one at every step)."""
        key = self.keys[seat]
        return COUNTS.get(key) or split(key)

    @property
    def hand_sizes(self) -> list[int]:
        """Per seat how many cards it holds (public, WL-4.4), as its packed hand says: kept
        nowhere else, so a play once the pile is empty changes one number, not two."""
        return [hand_size(k) for k in self.keys]

    def _set_pile(self, pile) -> None:
        self._pile = tuple(pile)
        self.pile_len = len(self._pile)
        self._find_fast_end()

    pile = property(attrgetter("_pile"), _set_pile)

    def _set_loot(self, loot) -> None:
        self._loot = loot
        self.round_loot = loot[-1] if loot else None

    # a plain read in C; assigning (a position set up by hand) also sets `round_loot`
    loot = property(attrgetter("_loot"), _set_loot)

    def _find_fast_end(self) -> None:
        full = all(hand_size(k) == HAND_LIMIT for k in self.keys)
        self.fast_end = self.pile_len if full else -1

    @property
    def current(self) -> int:
        """The seat to move (once the match is over: the seat that ended it)."""
        seat = self.current_seat
        return self.seat if seat is None else seat

    @current.setter
    def current(self, seat: int) -> None:
        self.seat = seat
        if self.current_seat is not None:
            self.current_seat = seat

    @property
    def over(self) -> bool:
        """True once the match is over (WL-5.5)."""
        return self.current_seat is None

    @over.setter
    def over(self, over: bool) -> None:
        if over and self.current_seat is not None:
            self.seat = self.current_seat
            self.current_seat = None
        elif not over and self.current_seat is None:
            self.current_seat = self.seat

    def clone(self):
        """An independent copy: lists of ints are copied, immutable parts shared."""
        c = object.__new__(type(self))
        c.game = self.game
        c.chance = self.chance.clone()
        c.history = self.history.copy()
        c.players = self.players
        c.rounds = self.rounds
        c.chase_adjacent = self.chase_adjacent
        c.round = self.round
        c.start_player = self.start_player
        c.current_seat = self.current_seat
        c.seat = self.seat
        c.keys = self.keys.copy()
        c.hole = self.hole.copy()
        c._pile = self._pile
        c.pile_len = self.pile_len
        c.fast_end = self.fast_end
        c.pile_pos = self.pile_pos
        c.gone = self.gone.copy()
        c.loot = [r.copy() for r in self._loot]  # and its round_loot
        c.drives = self.drives  # shared: never changed, only prepended to
        c.round_ends = self.round_ends
        c.after = self.after
        c.chase = self.chase
        return c

    @property
    def pile_size(self) -> int:
        return self.pile_len - self.pile_pos

    def totals(self) -> list[int]:
        """Points per seat over all rounds played (WL-5.3, WL-5.5)."""
        # column sums (every round's loot row has a value per seat): read after every
        # action by the codec, the lab's measures and its lead count
        return [sum(col) for col in zip(*self.loot)] if self.loot else [0] * self.players

    def components(self) -> Counter:
        """The 64 cards of the current round by value, wherever they lie."""
        c: Counter = Counter()
        for zone in (*self.hands, self.hole, self.gone):
            for v, n in enumerate(zone):
                if n:
                    c[VALUES[v]] += n
        for v in self._pile[self.pile_pos:]:
            c[VALUES[v]] += 1
        return c

    def state_json(self) -> dict[str, Any]:
        """The full position (hidden parts included)."""
        return {
            "round": self.round + 1 if not self.over else self.rounds,
            "rounds": self.rounds,
            "start_player": self.start_player,
            "to_move": self.current_seat,
            "hands": [_counts(h) for h in self.hands],
            "waterhole": _counts(self.hole),
            "pile": [VALUES[v] for v in self._pile[self.pile_pos:]],
            "gone": _counts(self.gone),
            "loot": [list(r) for r in self.loot],
            "scores": self.totals(),
            # each recent play with its seat (the seat of its history entry)
            "recent": [[entry[0], *e] for entry, e in zip(self.history[len(self.history) - len(self.recent):],
                                                          self.recent)],
            "over": self.over,
        }


def _counts(row: list[int]) -> dict[str, int]:
    return {VALUES[v]: n for v, n in enumerate(row) if n}
