"""The Wasserloch position as data: counts per value, cheap to clone."""

from __future__ import annotations

from collections import Counter, deque
from typing import Any

from ...core.chance import Chance
from .actions import VALUES

# WL-3.3, WL-5.2, WL-5.5: plays kept per seat in `recent`.  Between two turns of a seat at
# most 2 × players − 2 plays are made (the rest of a round that another seat ends, then the
# next round's plays before its own), so its previous play is among the last 2 × players − 1.
RECENT_PER_SEAT = 2


class WasserlochData:
    """Data only.  Suits play no role (WL-2), so every zone is a count per value.

    `hands[s][v]`, `hole[v]`, `gone[v]` (cards looted this round, by value) are
    lists of 8 ints; `pile` is the draw pile, top first, as value indices;
    `loot[r][s]` is seat s's loot in round r; `recent` the match's latest plays.
    """

    __slots__ = (
        "game", "chance", "history", "players", "rounds", "chase_adjacent",
        "round", "start_player", "current_seat", "seat", "hands", "hand_sizes", "hole",
        "pile", "pile_pos", "gone", "loot", "recent", "quiet",
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
    hands: list[list[int]]
    hand_sizes: list[int]
    hole: list[int]
    pile: tuple[int, ...]   # the round's deck after dealing, shared between clones (never mutated)
    pile_pos: int           # index of the top card of the draw pile in `pile`
    gone: list[int]
    loot: list[list[int]]
    # The match's latest plays, oldest first, each (play, driven-off value index or -1, cards
    # looted, round); a play's seat and number are its history entry's (the last len(recent)
    # entries of `history`, in the same order).  At most RECENT_PER_SEAT × players (the
    # deque drops the oldest): every play since any seat's previous one (view.recent_plays).
    recent: deque
    quiet: tuple            # the round's `recent` entries of plays that drive nothing off, by Play.index

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
        c.hands = [h.copy() for h in self.hands]
        c.hand_sizes = self.hand_sizes.copy()
        c.hole = self.hole.copy()
        c.pile = self.pile
        c.pile_pos = self.pile_pos
        c.gone = self.gone.copy()
        c.loot = [r.copy() for r in self.loot]
        c.recent = self.recent.copy()  # keeps its bound
        c.quiet = self.quiet
        return c

    @property
    def pile_size(self) -> int:
        return len(self.pile) - self.pile_pos

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
        for v in self.pile[self.pile_pos:]:
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
            "pile": [VALUES[v] for v in self.pile[self.pile_pos:]],
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
