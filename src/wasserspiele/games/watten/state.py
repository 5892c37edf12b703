"""The Watten position as data: ints and small lists, a hand-written clone."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .actions import CARD_NAMES, CARD_OBJECTS, SIGNAL_LEVELS, SUITS

# phases
TRUMP_PHASE, SIGNAL_PHASE, PLAY_PHASE, ANSWER_PHASE, OVER = range(5)
PHASE_NAMES = ("trump", "signal", "play", "answer", "over")

# log event kinds (see view.py for their public form)
EV_DEAL, EV_TRUMP, EV_SIGNAL, EV_PLAY, EV_TRICK, EV_RAISE, EV_ACCEPT, EV_CONCEDE, EV_CAUGHT, EV_HAND, EV_GAME = range(11)
ALL_SEATS = 0b1111
LOG_KEEP = 24  # events kept (trimmed in bulk once the log is twice this long)
LOG_MAX = 2 * LOG_KEEP


def log_window(events: int) -> int:
    """How many of the last `events` events the public log shows: every event is added
    and, once more than LOG_MAX are kept, the log is cut back to its last LOG_KEEP.  The
    engine keeps more (it trims only as a hand starts, so up to a hand's events more);
    views read this many from the end."""
    if events <= LOG_MAX:
        return events
    return LOG_KEEP + (events - LOG_MAX - 1) % (LOG_MAX + 1 - LOG_KEEP)


class StateData:
    """Every field of a Watten position.  Cards are ints 0..31 (actions.py).  `led` is
    the suit the current trick must follow (WA-3.2, jacks count as trump), -1 for none:
    set by its first card, so the rules need not work it out at every card; `follows`
    is then the table of which cards follow it (None: any card may be played).
    `current_seat` is `turn`, or None once the game is over, kept as a field because
    every caller asks it before every action (a property costs ten times as much).
    `log` holds the latest public events as (kind, seat, arg, visible-to mask) tuples,
    the commonest ones made once and shared; `log_cut` counts the events trimmed from
    its front, so event number k (from 1) is `log[k - log_cut - 1]`.  `signal_log` says
    where the signals are, so sample_world can re-draw hidden ones: per hand whose signals
    are all sent (the fourth, or one caught, WA-5.1), (history index of its first signal,
    how many, hand number, event number of the first one's log event, history index of
    the one everyone saw or -1); a hand's signals follow one another in the history and
    in the log (WA-5: one per player in turn, nothing in between), and those of a hand
    still signalling are the latest entries of both (as many as `signals` holds).
    `offered` is what
    `legal_actions` last returned for the seat to move in this very position (empty once
    any action is taken, and in a fresh clone): `apply` accepts one of those without
    checking it a second time."""

    __slots__ = (
        "game", "chance", "history",
        "phase", "hand_no", "dealer", "caller", "trump",
        "hands", "unused", "trick", "led", "follows", "leader", "turn", "current_seat", "tricks", "won",
        "team_scores", "value", "last_raise_team", "raiser",
        "signals", "voids",
        "winner_team", "log", "log_cut", "signal_log", "results", "offered",
    )

    def _copy_into(self, c: "StateData") -> None:
        c.game = self.game
        c.chance = self.chance.clone()
        c.history = list(self.history)
        c.phase = self.phase
        c.hand_no = self.hand_no
        c.dealer = self.dealer
        c.caller = self.caller
        c.trump = self.trump
        h = self.hands
        c.hands = [h[0][:], h[1][:], h[2][:], h[3][:]]
        c.unused = self.unused  # never mutated in place (replaced at each deal)
        c.trick = self.trick[:]
        c.led = self.led
        c.follows = self.follows  # a shared table, never mutated
        c.leader = self.leader
        c.turn = self.turn
        c.current_seat = self.current_seat
        c.tricks = self.tricks[:]  # (leader, cards, winner): never changed once made
        c.won = self.won[:]
        c.team_scores = self.team_scores[:]
        c.value = self.value
        c.last_raise_team = self.last_raise_team
        c.raiser = self.raiser
        c.signals = self.signals[:]
        c.voids = self.voids[:]
        c.winner_team = self.winner_team
        c.log = self.log[:]
        c.log_cut = self.log_cut
        c.signal_log = self.signal_log[:]
        c.results = self.results[:]  # tuples
        c.offered = ()  # code that builds a world from a clone changes its fields

    def clone(self):
        """An independent copy (no deepcopy: lists of ints and tuples copied by slicing)."""
        c = type(self).__new__(type(self))
        self._copy_into(c)
        return c

    def components(self) -> Counter:
        """All 32 cards of the current deal: hands, trick, won tricks, the 12 unused."""
        ids: list[int] = []
        for h in self.hands:
            ids.extend(h)
        ids.extend(self.trick)
        for t in self.tricks:
            ids.extend(t[1])
        ids.extend(self.unused)
        return Counter(CARD_OBJECTS[i] for i in ids)

    def state_json(self) -> dict[str, Any]:
        """The full position, JSON-ready."""
        names = CARD_NAMES
        return {
            "phase": PHASE_NAMES[self.phase],
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "caller": self.caller,
            "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "hands": [[names[c] for c in h] for h in self.hands],
            "unused": [names[c] for c in self.unused],
            "leader": self.leader,
            "turn": self.turn,
            "trick": [names[c] for c in self.trick],
            "tricks": [{"leader": t[0], "cards": [names[c] for c in t[1]], "winner": t[2]} for t in self.tricks],
            "tricks_won": list(self.won),
            "scores": list(self.team_scores),
            "value": self.value,
            "last_raise_team": None if self.last_raise_team < 0 else self.last_raise_team,
            "raiser": None if self.raiser < 0 else self.raiser,
            "signals": [None if s < 0 else SIGNAL_LEVELS[s] for s in self.signals],
            "voids": [[SUITS[s] for s in range(4) if v >> s & 1] for v in self.voids],
            "winner_team": None if self.winner_team < 0 else self.winner_team,
            "results": [list(r) for r in self.results],
        }
