"""The Seven Waters position as data: interned cards in small lists, cheap to clone."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...core.cards import Card
from ...core.chance import Chance
from .actions import COVERED_BY, FACE_UP_ROW, POS, PYRAMID_SIZE, Piece

# A public event (one per applied action), kept as a persistent chain so clones share it:
# (seat, action, taken card or None, cards turned face up, was an extra action, previous event or None)
Event = tuple


class SevenWatersData:
    """Data only.

    `pyramid[i]` is the card at position i (actions.POS) or None once taken; a
    card is face up when its row is odd or once it has become free (SW-3.2), so
    face-up-ness needs no field of its own.  `hands[s]` is kept sorted by card
    index.  `slides[s][k]` is the tuple of pieces of the slide at line k+1, or
    None.  `river[s]` is in ascending rank order.  `lines`/`line_sums` never
    change (SW-3.3) and are shared between clones, as are `chance` (the whole
    deck is drawn at setup, nothing is drawn later) and the event chain `log`.
    """

    __slots__ = (
        "game", "chance", "history", "pyramid", "left", "lines", "line_sums", "hands",
        "discards", "slides", "river", "pool", "theme", "slides_built", "slide_limit",
        "turn", "extra", "final_left", "over", "log", "free",
    )

    game: Any
    chance: Chance
    history: list
    pyramid: list[Card | None]
    left: int                         # pyramid cards still there
    lines: tuple[tuple[tuple[Card, ...], ...], ...]
    line_sums: tuple[tuple[int, ...], ...]
    hands: list[list[Card]]
    discards: list[list[Card]]        # in the order discarded
    slides: list[list[tuple[Piece, ...] | None]]
    river: list[list[Piece]]
    pool: list[list[Piece]]
    theme: list[Card | None]
    slides_built: int                 # by both players together (SW-4.4)
    slide_limit: int                  # SW-4.4 / SW-7.1 (a huge number when there is no limit)
    turn: int                         # seat to move
    extra: bool                       # the seat to move is taking a slide's extra action (SW-4.3a)
    final_left: int                   # SW-5.1: final turns still to come after this one; -1 before the end
    over: bool
    log: Event | None
    free: tuple                       # (left, bits of the free positions then): kept while left stays

    def clone(self):
        """An independent copy: lists are copied, interned cards/pieces and tuples shared."""
        c = object.__new__(type(self))
        c.game = self.game
        c.chance = self.chance
        c.history = self.history.copy()
        c.pyramid = self.pyramid.copy()
        c.left = self.left
        c.free = self.free
        c.lines = self.lines
        c.line_sums = self.line_sums
        c.hands = [self.hands[0].copy(), self.hands[1].copy()]
        c.discards = [self.discards[0].copy(), self.discards[1].copy()]
        c.slides = [self.slides[0].copy(), self.slides[1].copy()]
        c.river = [self.river[0].copy(), self.river[1].copy()]
        c.pool = [self.pool[0].copy(), self.pool[1].copy()]
        c.theme = self.theme.copy()
        c.slides_built = self.slides_built
        c.slide_limit = self.slide_limit
        c.turn = self.turn
        c.extra = self.extra
        c.final_left = self.final_left
        c.over = self.over
        c.log = self.log
        return c

    # -- SW-3.2: the pyramid ------------------------------------------------------
    def is_free(self, i: int) -> bool:
        """SW-3.2: a card still there with neither covering card left (row 7 starts free)."""
        p = self.pyramid
        if p[i] is None:
            return False
        for j in COVERED_BY[i]:
            if p[j] is not None:
                return False
        return True

    def face_up(self, i: int) -> bool:
        """SW-3.2: rows 1, 3, 5, 7 lie face up; a face-down card turns up once free."""
        if FACE_UP_ROW[i]:
            return True
        p = self.pyramid
        for j in COVERED_BY[i]:
            if p[j] is not None:
                return False
        return True

    def free_positions(self) -> list[int]:
        """Indices of the free pyramid cards, top to bottom, left to right."""
        return [i for i in range(PYRAMID_SIZE) if self.is_free(i)]

    # -- bookkeeping ------------------------------------------------------------------
    def park_cards(self, seat: int) -> list[Card]:
        """Every card of a seat's park: lines, slides, river, pool and theme."""
        out = [c for line in self.lines[seat] for c in line]
        for slide in self.slides[seat]:
            if slide:
                out += [p.card for p in slide]
        out += [p.card for p in self.river[seat]]
        out += [p.card for p in self.pool[seat]]
        if self.theme[seat] is not None:
            out.append(self.theme[seat])
        return out

    def components(self) -> Counter:
        """All 54 cards, wherever they lie (constant through the game)."""
        c: Counter = Counter(x.name for x in self.pyramid if x is not None)
        for s in (0, 1):
            c.update(x.name for x in self.park_cards(s))
            c.update(x.name for x in self.hands[s])
            c.update(x.name for x in self.discards[s])
        return c

    def state_json(self) -> dict[str, Any]:
        """The full position, hidden parts included."""
        return {
            "pyramid": [None if x is None else x.name for x in self.pyramid],
            "face_down": [position_name(i) for i, x in enumerate(self.pyramid)
                          if x is not None and not self.face_up(i)],
            "to_move": None if self.over else self.turn,
            "extra_action": self.extra,
            "slides_built": self.slides_built,
            "final_turns_left": self.final_left,
            "over": self.over,
            "seats": [
                {
                    "lines": [[x.name for x in line] for line in self.lines[s]],
                    "slides": [None if sl is None else [str(p) for p in sl] for sl in self.slides[s]],
                    "river": [str(p) for p in self.river[s]],
                    "pool": [str(p) for p in self.pool[s]],
                    "theme": None if self.theme[s] is None else self.theme[s].name,
                    "hand": [x.name for x in self.hands[s]],
                    "discards": [x.name for x in self.discards[s]],
                }
                for s in (0, 1)
            ],
        }


def position_name(i: int) -> str:
    """'7-3' for a pyramid index."""
    r, c = POS[i]
    return f"{r}-{c}"
