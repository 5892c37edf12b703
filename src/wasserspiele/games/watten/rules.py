"""Watten (shared/spec/watten.md): the Game and the rules, in the order of the spec."""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from ...core.chance import Chance, Shuffle, UnitInterval
from ...core.errors import BadNotation, BadRecord
from ...core.inline import inline_tail_calls
from ...core.messages import Reason
from ...core.protocol import Game, State
from . import view as _view
from .manifest import MANIFEST
from .actions import (
    ACCEPT, ACCEPT_ACTION, CARD_NAMES, CONCEDE, CONCEDE_ACTION, JACK, N_CARDS, PLAY, PLAYS,
    RAISE, RAISE_ACTION, RANK_OF, CARD_ID, SIGNAL, SIGNALS, SUIT_OF, SUITS, TRUMP, TRUMPS, Action, card_id,
    parse_action as _parse_action,
)
from .state import (
    ALL_SEATS, ANSWER_PHASE, EV_ACCEPT, EV_CAUGHT, EV_CONCEDE, EV_DEAL, EV_GAME, EV_HAND, EV_PLAY,
    EV_RAISE, EV_SIGNAL, EV_TRICK, EV_TRUMP, LOG_MAX, OVER, PLAY_PHASE, SIGNAL_PHASE, TRUMP_PHASE,
    StateData, log_window,
)

HAND_SIZE = 5
REASON_TRICKS, REASON_CONCEDE, REASON_CAUGHT = range(3)
REASON_NAMES = ("tricks", "concede", "caught")
_SEAT = ((0,), (1,), (2,), (3,))
_NEXT = (1, 2, 3, 0)  # the seat to the left (WA-3.1, WA-5: clockwise)
_NO_SEATS: tuple[int, ...] = ()
_NO_ACTIONS: tuple[Action, ...] = ()
# History entries (seat, action, simultaneous) of the commonest actions, made once: a
# tuple is immutable, so every play of a card by a seat can share one (no allocation).
_PLAY_ENTRIES = tuple(tuple((seat, a, False) for a in PLAYS) for seat in range(4))
# Log events of the same: a card played by a seat, a trick won by a seat with its nth card.
_PLAY_EVENTS = tuple(tuple((EV_PLAY, seat, c, ALL_SEATS) for c in range(N_CARDS)) for seat in range(4))
_TRICK_EVENTS = tuple(tuple((EV_TRICK, seat, best, ALL_SEATS) for best in range(4)) for seat in range(4))
_SIGNAL_ENTRIES = tuple(tuple((seat, a, False) for a in SIGNALS) for seat in range(4))
# and of the once-a-hand ones: a deal by a dealer to a caller, a trump named by a seat
_DEAL_EVENTS = tuple(tuple((EV_DEAL, dealer, caller, ALL_SEATS) for caller in range(4)) for dealer in range(4))
_TRUMP_EVENTS = tuple(tuple((EV_TRUMP, seat, suit, ALL_SEATS) for suit in range(4)) for seat in range(4))
_ANSWERS = (ACCEPT_ACTION, CONCEDE_ACTION)


# WA-1.2: the whole deck, shuffled; drawn as card numbers, written in records as names
# (the "deals" stream is declared with Chance.record_as as a game sets up)
DECK = Shuffle(CARD_NAMES, "deal", indices=True)
# WA-1.2: five cards each starting with the caller: per caller, where each seat's hand
# starts in the deal (seat (caller + k) % 4 gets cards 5k to 5k + 4)
_DEALT_AT = tuple(tuple(HAND_SIZE * ((seat - caller) % 4) for seat in range(4)) for caller in range(4))


def rank_tables(jack_order: str) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """WA-2, WA-2.1: per trump, each card's effective suit (jacks are trump) and, per
    (trump, led suit), each card's strength; 0 never wins.  Equal strengths: the
    earlier card wins (jack_order=first_played)."""
    eff = []
    strength = []
    for trump in range(4):
        eff.append(tuple(trump if RANK_OF[c] == JACK else SUIT_OF[c] for c in range(N_CARDS)))
        others = [s for s in range(4) if s != trump]  # C > S > H > D, trump's jack skipped
        for led in range(4):
            row = []
            for c in range(N_CARDS):
                s, r = SUIT_OF[c], RANK_OF[c]
                if r == JACK:
                    if s == trump:
                        v = 100
                    elif jack_order == "first_played":
                        v = 98
                    else:
                        v = 99 - others.index(s)
                elif s == trump:
                    v = 50 + r
                elif s == led:
                    v = 20 + r
                else:
                    v = 0
                row.append(v)
            strength.append(tuple(row))
    return tuple(eff), tuple(strength)


def _missing(deal: list) -> str:
    """'7C, 8H': the cards a short deal of valid names lacks; '' if that cannot be said."""
    try:
        present = {card_id(n) for n in deal}
    except (BadNotation, AttributeError, TypeError):
        return ""
    gone = [CARD_NAMES[c] for c in range(N_CARDS) if c not in present]
    return ", ".join(gone) if gone and len(deal) < N_CARDS else ""


def best_index(row: tuple[int, ...], cards) -> int:
    """WA-3.3: the position of the winning card among `cards` played in order, by the
    strength `row` of the led suit; with equal strength the earlier card wins."""
    best = 0
    top = row[cards[0]]
    for i in range(1, len(cards)):
        v = row[cards[i]]
        if v > top:
            top = v
            best = i
    return best


class Watten(Game):
    """WA-1.1: four players, two fixed teams of partners sitting opposite."""

    manifest = MANIFEST  # name, title, options and seat count

    def __init__(self, /, **options: Any):
        super().__init__(**options)
        o = self.options
        self.eff, self.strength = rank_tables(o["jack_order"])
        self.follow_all = o["follow"] == "all"
        eff, strength = self.eff, self.strength
        # Per-hand tables the play reads instead of working things out at every card:
        # WA-3.2: per trump, the suit a trick's first card makes the others follow (-1: none);
        self.duty = tuple(tuple(e if e == t or self.follow_all else -1 for e in eff[t]) for t in range(4))
        # WA-3.2: per (trump, suit to follow), whether each card follows it;
        self.follows = tuple(tuple(e == led for e in eff[t]) for t in range(4) for led in range(4))
        # both, per trump and first card: (the suit to follow, its follow table or None);
        self.leads = tuple(tuple((d, None if d < 0 else self.follows[t * 4 + d]) for d in self.duty[t])
                           for t in range(4))
        # WA-3.3: per trump, the strength row (WA-2) a trick is judged by, by its first card.
        self.trick_rows = tuple(tuple(strength[t * 4 + eff[t][c]] for c in range(N_CARDS)) for t in range(4))
        self.caller_offset = 3 if o["caller"] == "dealer_right" else 1
        self.signal_mode = o["signals"]
        # WA-5: who sees a signal of each seat, as a bit mask of seats
        self.signal_masks = tuple(sum(1 << v for v in range(4) if _view.signal_visible(self.signal_mode, v, s))
                                  for s in range(4))
        # and the log event of each seat's signal of each level, made once
        self.signal_events = tuple(tuple((EV_SIGNAL, s, level, self.signal_masks[s]) for level in range(4))
                                   for s in range(4))
        self.detection_p = o["signal_detection_p"]
        # WA-5.1: the check draws x and catches the signal when x < p
        self.signal_check = UnitInterval((self.detection_p,), "signal check")
        self.target = o["target"]
        self.hand_value = o["hand_value"]
        self.raising = o["raising"]
        # WA-6: a game with raising deals positions that offer it (RaisingWattenState)
        self.state_class = RaisingWattenState if self.raising else WattenState

    @property
    def teams(self) -> list[tuple[int, ...]]:
        """WA-1.1: team 0 = seats {0, 2}, team 1 = seats {1, 3}."""
        return [(0, 2), (1, 3)]

    def parse_action(self, text: str) -> Action:
        if isinstance(text, Action):
            return text
        return _parse_action(text)

    def validate_setup(self, setup: Mapping[str, Any]) -> None:
        """Record setup: `deals` (32-card orders, one per hand, WA-1.2) and `signal_checks`
        (floats in [0, 1), WA-5.1).  Refusals are `watten.setup.*` codes, said in the
        reader's language; the field path and the card names are the record's own."""
        self._setup_keys(setup, ("deals", "signal_checks"))
        deals = setup.get("deals", [])
        if not isinstance(deals, list):
            raise BadRecord(Reason("watten.setup.deals_not_list", field="setup.deals"))
        for i, deal in enumerate(deals):
            where = f"setup.deals[{i}]"
            if not isinstance(deal, list):
                raise BadRecord(Reason("watten.setup.deal_not_list", field=where))
            if len(deal) != N_CARDS:
                missing = _missing(deal)
                raise BadRecord(Reason("watten.setup.deal_size_missing" if missing else "watten.setup.deal_size",
                                       field=where, n=len(deal), missing=missing))
            seen: dict[int, int] = {}
            for j, name in enumerate(deal):
                if not isinstance(name, str):
                    raise BadRecord(Reason("watten.setup.not_card_name", field=f"{where}[{j}]", value=name))
                try:
                    c = card_id(name)
                except BadNotation as exc:  # its reason, said in the same language
                    raise BadRecord(Reason("watten.setup.not_card", field=f"{where}[{j}]", why=exc.reason)) from None
                if c in seen:
                    raise BadRecord(Reason("watten.setup.card_twice", field=where, card=CARD_NAMES[c],
                                           first=seen[c], second=j))
                seen[c] = j
            # 32 distinct cards of a 32-card deck: none can be missing
        checks = setup.get("signal_checks", [])
        if not isinstance(checks, list):
            raise BadRecord(Reason("watten.setup.checks_not_list", field="setup.signal_checks"))
        for i, x in enumerate(checks):
            if isinstance(x, bool) or not isinstance(x, (int, float)):
                raise BadRecord(Reason("watten.setup.check_not_number", field=f"setup.signal_checks[{i}]", value=x))
            if not 0 <= x < 1:
                raise BadRecord(Reason("watten.setup.check_range", field=f"setup.signal_checks[{i}]", value=x))

    def _initial_state(self, chance: Chance) -> "WattenState":
        s = self.state_class.__new__(self.state_class)
        s.game = self
        s.chance = chance
        s.history = []
        s.team_scores = [0, 0]
        s.hand_no = 0
        s.dealer = self.options["first_dealer"]
        s.winner_team = -1
        s.log = []
        s.log_cut = 0
        s.signal_log = []
        s.results = []
        s.offered = _NO_ACTIONS
        chance.respell("deals", _canonical_deal)  # "10h" as "TH": the setup written back is canonical
        chance.record_as("deals", DECK)  # a record's deals become card numbers here, once
        s._start_hand(s._draw_deal())
        return s


def _canonical_deal(deal: Any) -> Any:
    """A record's deal with every card in its canonical name (validate_setup accepted
    `10h` for `TH`, records.md); anything else as it is."""
    if not isinstance(deal, list) or all(isinstance(n, str) and n in CARD_ID for n in deal):
        return deal
    try:
        return [CARD_NAMES[card_id(n)] for n in deal]
    except (BadNotation, TypeError, AttributeError):
        return deal


@inline_tail_calls("apply", "apply_legal")  # the checked path without a second call (core.inline)
@inline_tail_calls("apply_legal", "_finish_trick")  # a trick's fourth card completes it in place
class WattenState(StateData, State):
    """A Watten position; the rules act on it."""

    __slots__ = ()

    # -- dealing --------------------------------------------------------------
    def _draw_deal(self) -> list[int]:
        """WA-1.2: the next 32-card order from the record's `deals` stream."""
        # card numbers as drawn (the stream's own list: the deal is only ever sliced)
        return self.chance.draw("deals", DECK)

    def _start_hand(self, deal: list[int]) -> None:
        """WA-1.2, WA-1.3: five cards each starting with the caller, 12 unused; caller to name trump."""
        self.hand_no += 1
        caller = (self.dealer + self.game.caller_offset) % 4
        self.caller = caller
        a, b, c, d = _DEALT_AT[caller]  # where each seat's five cards start in the deal
        self.hands = [deal[a:a + HAND_SIZE], deal[b:b + HAND_SIZE], deal[c:c + HAND_SIZE], deal[d:d + HAND_SIZE]]
        self.unused = deal[4 * HAND_SIZE:]
        self.phase = TRUMP_PHASE
        self.trump = -1
        self.trick = []
        self.led = -1
        self.follows = None
        self.tricks = []
        self.won = [0, 0]
        self.leader = caller
        self.turn = self.current_seat = caller
        self.value = self.game.hand_value
        self.last_raise_team = -1
        self.raiser = -1
        self.signals = [-1, -1, -1, -1]
        self.voids = [0, 0, 0, 0]
        log = self.log
        log.append(_DEAL_EVENTS[self.dealer][caller])  # _log inlined: the log is trimmed here only
        if len(log) > LOG_MAX:
            self._trim_log()

    def _log(self, kind: int, seat: int, arg: int, mask: int = ALL_SEATS) -> None:
        """A public event, seen by the seats in `mask` (views show the log's tail).  The
        log is trimmed only as a hand starts: it may hold a hand's events more than the
        views show (state.log_window), never fewer."""
        self.log.append((kind, seat, arg, mask))

    def _trim_log(self) -> None:
        """Cut the log back to the tail the views show (state.log_window): at the start of
        every hand, in bulk (views read only that tail, so when the cut is made does not
        show)."""
        log = self.log
        cut = len(log) - log_window(self.log_cut + len(log))
        if cut > 0:
            del log[:cut]
            self.log_cut += cut

    # -- whose decision -------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        if self.phase == OVER:
            return _NO_SEATS
        return _SEAT[self.turn]

    def is_terminal(self) -> bool:
        return self.current_seat is None  # exactly when phase is OVER; `is` costs less than `==`

    # -- actions ----------------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> list[Action] | tuple[Action, ...]:
        if self.phase == PLAY_PHASE:  # first: most decisions are plays
            turn = self.turn
            if seat != turn and seat is not None:
                return _NO_ACTIONS
            # WA-3.2: a card of the led suit if the seat holds one (jacks are trump), else any.
            # (Plain loops: in CPython 3.11 a comprehension or map() costs more than the
            # five cards it goes through; counted with callgrind, docs/performance.md.)
            hand = self.hands[turn]
            follows = self.follows
            acts = []
            if follows is not None:
                for c in hand:
                    if follows[c]:
                        acts.append(PLAYS[c])
                if not acts:
                    for c in hand:
                        acts.append(PLAYS[c])
            else:
                for c in hand:
                    acts.append(PLAYS[c])
            self.offered = acts  # (with raising, RaisingWattenState adds "raise" to this very list)
            return acts
        phase = self.phase
        if seat != self.turn and seat is not None or phase == OVER:
            return _NO_ACTIONS
        if phase == SIGNAL_PHASE:  # four a hand
            acts = SIGNALS
        elif phase == TRUMP_PHASE:
            acts = TRUMPS
        else:
            acts = _ANSWERS
        self.offered = acts
        return acts

    def _follow_duty(self) -> int:
        """WA-3.2: the suit that must be followed now (jacks count as trump), or -1 if none.
        Worked out from the trick; play keeps it in `led` and the cards that follow it in
        `follows` (code that builds a position field by field calls `_set_follow_duty()`)."""
        trick = self.trick
        if not trick:
            return -1
        led = self.game.eff[self.trump][trick[0]]
        return led if self.game.follow_all or led == self.trump else -1

    def _set_follow_duty(self) -> None:
        """`led` and `follows` as the trick says (for code that builds a position field by field)."""
        led = self.led = self._follow_duty()
        self.follows = None if led < 0 else self.game.follows[self.trump * 4 + led]

    def _raise_block(self, seat: int) -> str | None:
        """WA-6: the code of why `seat`'s team may not raise now; None if it may.  (Cheap:
        legal_actions and views ask it; only a refusal builds the Reason.)"""
        if not self.game.raising:
            return "watten.raising_off"
        team = seat & 1
        if self.last_raise_team == team:
            return "watten.raise_alternate"
        if self.won[0] >= 3 or self.won[1] >= 3:
            return "watten.raise_after_three"
        if self.team_scores[team] + self.value >= self.game.target:
            return "watten.gespannt"
        return None

    def _raise_problem(self, seat: int) -> Reason | None:
        """WA-6: why `seat`'s team may not raise now, as a Reason; None if it may."""
        code = self._raise_block(seat)
        if code is None:
            return None
        if code == "watten.gespannt":
            return Reason(code, n=self.team_scores[seat & 1], value=self.value, target=self.game.target)
        return Reason(code)

    def _why_illegal(self, action: Action, seat: int) -> Reason | None:
        if not isinstance(action, Action):
            return Reason("not_an_action", action=repr(action), game=self.game.title)
        kind = action.kind
        phase = self.phase
        if phase == PLAY_PHASE:
            if kind == PLAY:
                return self._play_problem(action.arg, seat)
            if kind == RAISE:
                return self._raise_problem(seat)
            if kind == TRUMP:
                return Reason("watten.trump_named", suit=SUITS[self.trump])
            if kind == SIGNAL:
                return Reason("watten.signals_over")
            return Reason("watten.no_raise")
        if phase == TRUMP_PHASE:
            if kind == TRUMP:
                return None
            return Reason("watten.name_trump_first")
        if phase == SIGNAL_PHASE:
            if kind == SIGNAL:
                return None
            if kind == TRUMP:  # WA-1.3: named once, before the signals
                return Reason("watten.trump_named", suit=SUITS[self.trump])
            return Reason("watten.signal_first")
        if kind == ACCEPT or kind == CONCEDE:
            return None
        return Reason("watten.answer_raise", seat=self.raiser, value=self.value + 1)  # WA-6

    def _play_problem(self, c: int, seat: int) -> Reason | None:
        """WA-3.2: must follow the led suit (jacks count as trump) if you can."""
        hand = self.hands[seat]
        if c not in hand:
            return Reason("watten.not_held", card=CARD_NAMES[c], hand=[CARD_NAMES[x] for x in hand])
        led = self.led
        if led < 0:
            return None
        trump = self.trump
        eff = self.game.eff[trump]
        if eff[c] == led:
            return None
        for x in hand:
            if eff[x] == led:
                break
        else:
            return None  # holds none of the led suit: any card
        must = [CARD_NAMES[x] for x in hand if eff[x] == led]
        if led == trump:
            return Reason("watten.must_follow_trump", suit=SUITS[trump], held=must)
        return Reason("watten.must_follow", suit=SUITS[led], held=must)

    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """The protocol's checked `apply`.  An action `legal_actions` offered a moment ago
        for the seat to move in this very position (`offered`: every action forgets it)
        needs no second check and takes the trusted path; anything else (an action not
        asked for first, a refusal and its reason, notation) takes the protocol's own way,
        which checks it with `_why_illegal`."""
        turn = self.turn
        if action in self.offered and (seat == turn or seat is None):
            self.apply_legal(action, turn)
            return
        State.apply(self, action, seat)

    def apply_legal(self, action: Action, seat: int) -> None:
        """The protocol's trusted path (an action from `legal_actions(seat)`), with the
        play inlined: most actions are plays.  `_play` is the same rule (WA-3.1, WA-3.2) in
        the rulebook's words: change both."""
        self.offered = _NO_ACTIONS  # the position changes: what legal_actions offered is gone
        if self.chance.rng is None:  # a strict replay: through State.apply, as a transaction
            State.apply_legal(self, action, seat)
            return
        # Other kinds first (five a hand), then cards (the block is long).  PLAY is kind 0:
        # a truth test of the kind costs less than a compare with PLAY (−0.36 % of a
        # trusted playout, docs/performance.md).
        if action.kind:  # not a card
            kind = action.kind
            if kind == SIGNAL:  # the next commonest (four a hand): no dispatch through _apply
                level = action.arg
                self._signal(level, seat)
                self.history.append(_SIGNAL_ENTRIES[seat][level])
                return
            if kind == TRUMP:
                self._call_trump(action.arg, seat)
            else:
                self._apply(action, seat)
            self.history.append((seat, action, False))
            return
        # a card (most actions)
        c = action.arg
        self.hands[seat].remove(c)
        trick = self.trick
        if not trick:
            # WA-3.2: the first card sets the suit to follow (and which cards follow it)
            self.leader = seat
            self.led, self.follows = self.game.leads[self.trump][c]
            trick.append(c)
            self.log.append(_PLAY_EVENTS[seat][c])
            self.history.append(_PLAY_ENTRIES[seat][c])
            self.turn = self.current_seat = _NEXT[seat]
            return
        follows = self.follows
        if follows is not None and not follows[c]:
            self.voids[seat] |= 1 << self.led  # did not follow: holds none of the led suit
        trick.append(c)
        self.log.append(_PLAY_EVENTS[seat][c])
        self.history.append(_PLAY_ENTRIES[seat][c])
        if len(trick) < 4:
            self.turn = self.current_seat = _NEXT[seat]  # WA-3.1: clockwise
            return
        self._finish_trick()

    def _apply(self, action: Action, seat: int) -> None:
        self.offered = _NO_ACTIONS  # as in apply_legal
        kind = action.kind
        if kind == PLAY:
            self._play(action.arg, seat)
        elif kind == TRUMP:
            self._call_trump(action.arg, seat)
        elif kind == SIGNAL:
            self._signal(action.arg, seat)
        elif kind == RAISE:
            self._raise(seat)
        elif kind == ACCEPT:
            self._accept(seat)
        else:
            self._concede(seat)

    # -- WA-1.3 the call ------------------------------------------------------
    def _call_trump(self, suit: int, seat: int) -> None:
        """WA-1.3: the caller names any suit as trump; the call is public.  WA-5: signals follow."""
        self.trump = suit
        self.log.append(_TRUMP_EVENTS[seat][suit])  # _log inlined (once a hand)
        if self.game.signal_mode == "off":
            self.phase = PLAY_PHASE
        else:
            self.phase = SIGNAL_PHASE
        self.turn = self.current_seat = self.caller  # WA-3.1 / WA-5: the caller signals first and leads

    # -- WA-5 Zwicken -----------------------------------------------------------
    def _signal(self, level: int, seat: int) -> None:
        """WA-5: one signal per player in play order from the caller, seen by the partner only
        (everyone with signals=public).  WA-5.1: a sent signal may be caught."""
        game = self.game
        self.signals[seat] = level
        log = self.log
        log.append(game.signal_events[seat][level])  # _log, with the event made once
        p = game.detection_p
        if level and p > 0.0:
            x = self.chance.draw("signal_checks", game.signal_check)
            if x < p:
                self._caught(seat, level)
                return
        nxt = _NEXT[seat]
        if nxt == self.caller:
            self.phase = PLAY_PHASE
            # all four sent: where they are, so sample_world can re-draw hidden ones (state.py);
            # this one's history entry comes next, its log event is the last
            self.signal_log.append((len(self.history) - 3, 4, self.hand_no, self.log_cut + len(log) - 3, -1))
        self.turn = self.current_seat = nxt

    def _caught(self, seat: int, level: int) -> None:
        """WA-5.1: the caught team loses the hand at once; the opponents score its current value."""
        # where the hand's signals are, this one the last (its history entry comes next, its
        # log event is the last), which everyone saw: sample_world keeps it (state.py)
        n = (seat - self.caller) % 4 + 1
        idx = len(self.history)
        self.signal_log.append((idx - n + 1, n, self.hand_no, self.log_cut + len(self.log) - n + 1, idx))
        self._log(EV_CAUGHT, seat, level)
        self._end_hand(1 - (seat & 1), REASON_CAUGHT)

    # -- WA-3 tricks -----------------------------------------------------------
    def _play(self, c: int, seat: int) -> None:
        """WA-3.1-3.3: play a card clockwise; the fourth card decides the trick.  (apply_legal
        has this inlined, as most actions are plays: change both.)"""
        self.hands[seat].remove(c)
        trick = self.trick
        if trick:
            if self.follows is not None and not self.follows[c]:
                self.voids[seat] |= 1 << self.led  # did not follow: holds none of the led suit
        else:
            self.leader = seat
            # WA-3.2: the first card sets the suit to follow (and which cards follow it)
            self.led, self.follows = self.game.leads[self.trump][c]
        trick.append(c)
        self._log(EV_PLAY, seat, c)
        if len(trick) == 4:
            self._finish_trick()
        else:
            self.turn = self.current_seat = (seat + 1) % 4

    def _finish_trick(self) -> None:
        """WA-3.3: the highest card by WA-2 wins; WA-3.1: the winner leads next; WA-4.1: five tricks."""
        # best_index unrolled: the strongest card; equal strength: the earlier card wins
        trick = self.trick
        a, b, c, d = trick
        row = self.game.trick_rows[self.trump][a]
        best = 0
        top = row[a]
        if row[b] > top:
            best = 1
            top = row[b]
        if row[c] > top:
            best = 2
            top = row[c]
        if row[d] > top:
            best = 3
        leader = self.leader
        winner = (leader + best) & 3
        tricks = self.tricks
        tricks.append((leader, trick, winner))  # the trick's own list: never changed again
        self.won[winner & 1] += 1
        self.trick = []
        self.led = -1
        self.follows = None
        # _log inlined, the event made once; no trim here: the next hand's start trims (a
        # trim and the list's regrowth after it at every few tricks cost 0.6 % of a playout)
        self.log.append(_TRICK_EVENTS[winner][best])
        self.leader = self.turn = self.current_seat = winner
        if len(tricks) == HAND_SIZE:
            self._end_hand(0 if self.won[0] >= 3 else 1, REASON_TRICKS)

    # -- WA-6 raising -------------------------------------------------------------
    def _raise(self, seat: int) -> None:
        """WA-6: the player about to play raises; the next opponent in play order answers."""
        self.raiser = seat
        self.phase = ANSWER_PHASE
        self.turn = self.current_seat = (seat + 1) % 4
        self._log(EV_RAISE, seat, self.value + 1)

    def _accept(self, seat: int) -> None:
        """WA-6: accepted: the value rises by 1 and the raiser plays on."""
        self.value += 1
        self.last_raise_team = self.raiser & 1
        self._log(EV_ACCEPT, seat, self.value)
        self.turn = self.current_seat = self.raiser
        self.raiser = -1
        self.phase = PLAY_PHASE

    def _concede(self, seat: int) -> None:
        """WA-6: conceded: the hand ends and the raising team scores the value before the raise."""
        team = self.raiser & 1
        self._log(EV_CONCEDE, seat, self.value)
        self.raiser = -1
        self._end_hand(team, REASON_CONCEDE)

    # -- WA-4 scoring ---------------------------------------------------------------
    def _end_hand(self, team: int, reason: int) -> None:
        """WA-4.1: the hand's winner scores its value; WA-4.2: the game ends at the target;
        WA-1.4: otherwise the deal passes clockwise."""
        points = self.value
        total = self.team_scores[team] + points
        over = total >= self.game.target
        if not over:
            deal = self._draw_deal()  # before changing anything: a short record fails cleanly
        self.team_scores[team] = total
        # (hand, dealer, trump, winning team, points, reason, tricks team 0, tricks team 1)
        self.results.append((self.hand_no, self.dealer, self.trump, team, points, reason, self.won[0], self.won[1]))
        self.log.append((EV_HAND, team, points * 4 + reason, ALL_SEATS))  # _log inlined (once a hand)
        if over:
            self.phase = OVER
            self.current_seat = None
            self.winner_team = team
            self._log(EV_GAME, team, total)
            return
        self.dealer = (self.dealer + 1) % 4
        self._start_hand(deal)

    # -- outcome -------------------------------------------------------------------
    def scores(self) -> list[float]:
        s = self.team_scores
        return [s[0], s[1], s[0], s[1]]

    def winners(self) -> list[int]:
        if self.phase != OVER:
            return []
        return [self.winner_team, self.winner_team + 2]

    # -- information -----------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        return _view.view(self, seat)

    def views(self, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        return _view.views(self, seats)

    def sample_world(self, seat: int, rng: random.Random) -> "WattenState":
        return _view.sample_world(self, seat, rng)

    def clone(self) -> "WattenState":
        cls = type(self)  # RaisingWattenState too
        c = cls.__new__(cls)
        self._copy_into(c)
        return c


class RaisingWattenState(WattenState):
    """A position of a game with raising (option `raising`, WA-6): the seat about to play
    may also raise.  A class of its own, so that games without raising (the default) do
    not ask at every card."""

    __slots__ = ()

    def legal_actions(self, seat: int | None = None) -> list[Action] | tuple[Action, ...]:
        acts = WattenState.legal_actions(self, seat)
        if acts and self.phase == PLAY_PHASE and self._raise_block(self.turn) is None:
            acts.append(RAISE_ACTION)  # the fresh list of plays, which is also `offered`
        return acts
