"""The protocol every game implements (OpenSpiel-style Game/State split).

`Game` is the fixed description: name, options, player count, teams, notation.
`State` is a position.  Interfaces, bots, the lab and adapters use only this
module's methods, so a new game drops in by implementing the abstract ones.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter
from typing import Any, ClassVar, Hashable, Mapping, Sequence

from .chance import Chance, Chooser, make_rng
from .errors import BadRecord, GameOver, IllegalAction, NotYourTurn
from .manifest import GameManifest
from .messages import Reason, reason_of
from .options import Option, resolve_options

Action = Hashable  # each game defines small frozen action objects whose str() is the notation


def entry_notation(entry: tuple[int, Action, bool]) -> str:
    """A history entry as a record writes it: a decision taken while several seats were
    pending names its seat (`"2: pick zebra"`), so the record keeps the real order."""
    seat, action, together = entry
    return f"{seat}: {action}" if together else str(action)


class Game(ABC):
    """A game with fixed options: creates states, parses notation, validates setups."""

    # What the game declares about itself (core/manifest.py); a subclass that sets it
    # takes its name, English title, options and seat count from it.
    manifest: ClassVar[GameManifest]
    name: ClassVar[str]
    title: ClassVar[str]
    rules_version: ClassVar[str] = "1"
    option_list: ClassVar[tuple[Option, ...]]
    fixed_players: ClassVar[int | None] = None  # games for exactly N players have no `players` option

    def __init_subclass__(cls, **kwargs: Any):
        super().__init_subclass__(**kwargs)
        m = cls.__dict__.get("manifest")
        if m is not None:
            cls.name, cls.title, cls.option_list = m.name, m.title["en"], m.options
            cls.fixed_players = m.fixed_players

    def __init__(self, /, **options: Any):
        self.options: dict[str, Any] = resolve_options(self.option_list, options, self.name)
        self.players: int = self.fixed_players or self.options["players"]

    # -- description ---------------------------------------------------------
    @property
    def teams(self) -> list[tuple[int, ...]]:
        """Seats that share a result; each seat alone unless the game pairs them."""
        return [(s,) for s in range(self.players)]

    def team_of(self, seat: int) -> int:
        for i, team in enumerate(self.teams):
            if seat in team:
                return i
        raise ValueError(f"seat {seat} does not exist")

    def non_default_options(self) -> dict[str, Any]:
        """The options a record must state: those that differ from the spec's defaults."""
        return {o.name: self.options[o.name] for o in self.option_list
                if o.name != "players" and self.options[o.name] != o.default}

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.non_default_options().items())
        return f"<{type(self).__name__} players={self.players}{', ' if opts else ''}{opts}>"

    # -- states --------------------------------------------------------------
    def new_game(self, seed: int | None = None, setup: Mapping[str, Any] | None = None,
                 rng: random.Random | None = None, chooser: Chooser | None = None,
                 chance: Chance | None = None) -> "State":
        """A fresh game.  With `setup` the chance outcomes are read from it (strictly,
        unless `rng` is given to draw what it lacks); otherwise from `seed`.  A `chooser`
        answers every new chance node itself (see `core.chance.Chance`).  `chance` is a
        source of the caller's own making instead (the environments' counting one)."""
        if chance is not None:
            return self._initial_state(chance)
        if setup is not None:
            self.validate_setup(setup)
            chance = Chance(dict(setup), rng)
        else:
            chance = Chance({}, rng if rng is not None or chooser is not None else make_rng(seed))
        chance.chooser = chooser
        return self._initial_state(chance)

    @abstractmethod
    def _initial_state(self, chance: Chance) -> "State":
        """Set up the first position, drawing chance outcomes from `chance`."""

    @abstractmethod
    def validate_setup(self, setup: Mapping[str, Any]) -> None:
        """Raise BadRecord naming the field if `setup` is malformed for this game."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Parse notation into an action (raises BadNotation); str(action) is canonical."""

    def parse_decision(self, text: str) -> tuple[int | None, Action]:
        """Parse a record entry: notation, optionally prefixed by its seat (`"2: pick zebra"`,
        records.md).  The seat is None when the entry names none."""
        head, sep, rest = text.partition(":")
        head = head.strip()
        if sep and head.isascii() and head.isdigit():  # not "²" or "١", which isdigit() takes for digits
            return int(head), self.parse_action(rest)
        return None, self.parse_action(text)

    def _setup_keys(self, setup: Mapping[str, Any], allowed: Sequence[str]) -> None:
        """Reject a setup that is not an object or has unknown fields: codes the catalogue
        says in the reader's language, the field path (`setup.foo`) kept as data."""
        if not isinstance(setup, Mapping):
            raise BadRecord(Reason("schema.not_object", field="setup"))
        for key in setup:
            if key not in allowed:
                raise BadRecord(Reason("record.setup_unknown_field", field=f"setup.{key}", game=self.name,
                                       fields=", ".join(allowed)))



def win_shares(game: "Game", winners: Sequence[int]) -> list[float]:
    """Per seat of a finished game won by `winners`: its share of the win (1/k for a
    k-way shared win, team wins count whole; all 0 when nobody won)."""
    if not winners:
        return [0.0] * game.players
    share = 1.0 / len({game.team_of(s) for s in winners})
    return [share if s in winners else 0.0 for s in range(game.players)]

class State(ABC):
    """A position of a game.  Subclasses keep data only and write a fast clone()."""

    # no instance dict where a game's state declares its slots: every protocol call of a driver
    # (is_terminal, legal_actions, apply) is an attribute lookup that would search it first
    __slots__ = ()

    game: Game
    chance: Chance
    # Every decision taken so far, in order, as `(seat, action, simultaneous)`: who took
    # it, what it was, and whether several seats were pending at the time (records then
    # name the seat, records.md).  Plain tuples: search appends thousands a second.
    history: list[tuple[int, Action, bool]]

    def __init_subclass__(cls, **kwargs: Any):
        super().__init_subclass__(**kwargs)
        # A method another was inlined into (core.inline) would not call a subclass's
        # override of it: such a subclass gets the method as written back.
        for caller, callee in getattr(cls, "_inlined_calls", ()):
            if callee in cls.__dict__ and caller not in cls.__dict__:
                setattr(cls, caller, getattr(cls, caller).__wrapped__)

    # -- whose decision ------------------------------------------------------
    @abstractmethod
    def to_move(self) -> tuple[int, ...]:
        """Seats whose decision is pending, ascending; several only for simultaneous choices.
        Empty exactly when the game is over."""

    def simultaneous(self) -> bool:
        """True while the pending decisions belong to a simultaneous phase: the seats
        choose independently, none seeing another's choice until all are revealed.
        Games with such phases say so even when one seat of the phase is left."""
        return len(self.to_move()) > 1

    @property
    def current_seat(self) -> int | None:
        """The seat the next unqualified action is applied for (lowest pending seat)."""
        seats = self.to_move()
        return seats[0] if seats else None

    @abstractmethod
    def is_terminal(self) -> bool:
        """True once the game (the whole match) is over."""

    # -- actions -------------------------------------------------------------
    @abstractmethod
    def legal_actions(self, seat: int | None = None) -> Sequence[Action]:
        """Every legal action of `seat` (default: current_seat), in a deterministic order.
        Callers must not mutate the result (games may return a cached sequence)."""

    @abstractmethod
    def _why_illegal(self, action: Action, seat: int) -> Reason | None:
        """Why `seat` may not take `action` now, as a code with parameters (messages.py);
        None when legal.  Called only for a seat whose decision is pending."""

    @abstractmethod
    def _apply(self, action: Action, seat: int) -> None:
        """Carry out a legal action in place (no checking)."""

    def why_illegal(self, action: Action | str, seat: int | None = None) -> Reason | None:
        """Why the action is refused now (a Reason: code, parameters, English as str); None if legal."""
        if isinstance(action, str):
            action = self.game.parse_action(action)
        if self.is_terminal():
            return Reason("game_over")
        pending = self.to_move()
        if seat is None:
            seat = pending[0]
        elif seat not in pending:
            return Reason("not_your_turn", seat=seat, waiting=list(pending))
        reason = self._why_illegal(action, seat)
        return None if reason is None else reason_of(reason)  # a game without codes: its words as they are

    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Apply an action in place, raising IllegalAction (with a reason) if refused."""
        if action.__class__ is str:
            action = self.game.parse_action(action)
        pending = self.to_move()  # empty exactly when the game is over
        if not pending:
            raise GameOver(action, seat, Reason("game_over"))
        if seat is None:
            seat = pending[0]
        elif seat not in pending:
            raise NotYourTurn(action, seat, Reason("not_your_turn", seat=seat, waiting=list(pending)))
        reason = self._why_illegal(action, seat)
        if reason is not None:
            raise IllegalAction(action, seat, reason)
        chance = self.chance
        if chance.rng is None and chance.chooser is None:  # chance.strict, inlined: a hot path
            # A strict replay may run out of chance outcomes halfway through an action:
            # apply it as a transaction, so the state is left exactly as it was.  (With
            # a generator or a chooser every draw succeeds and no copy is needed.)
            backup = self.clone()
            try:
                self._apply(action, seat)
            except BaseException:
                self._restore(backup)
                raise
        else:
            self._apply(action, seat)
        self.history.append((seat, action, len(pending) > 1))

    def apply_legal(self, action: Action, seat: int) -> None:
        """Apply an action the caller took from this very state's `legal_actions(seat)`,
        without checking the turn and the legality again: the trusted path of search,
        the lab's bulk play and the adapters (about a fifth of a random playout's time,
        `./dev bench engines`).  Anything else must go through `apply`.  A strict replay
        (no generator, no chooser) still applies it as a transaction, through `apply`."""
        chance = self.chance
        if chance.rng is None and chance.chooser is None:
            self.apply(action, seat)
            return
        together = len(self.to_move()) > 1  # as apply records it
        self._apply(action, seat)
        self.history.append((seat, action, together))

    def _restore(self, backup: "State") -> None:
        """Take over the data of `backup`, an untouched clone of this state."""
        for cls in type(self).__mro__:
            names = getattr(cls, "__slots__", ())
            for name in (names,) if isinstance(names, str) else names:
                if name == "__dict__":
                    continue
                if hasattr(backup, name):
                    setattr(self, name, getattr(backup, name))
                elif hasattr(self, name):
                    delattr(self, name)
        if hasattr(backup, "__dict__"):
            self.__dict__.clear()
            self.__dict__.update(backup.__dict__)

    def child(self, action: Action | str, seat: int | None = None) -> "State":
        """A new state: this one with the action applied; this one is unchanged."""
        c = self.clone()
        c.apply(action, seat)
        return c

    @abstractmethod
    def clone(self) -> "State":
        """An independent copy (hand-written: no deepcopy on the search path)."""

    # -- outcome -------------------------------------------------------------
    @abstractmethod
    def scores(self) -> list[float]:
        """Score per seat, final or so far (team games: the team's score for each partner)."""

    def scores_seen_by(self, seat: int | None) -> list[float]:
        """The scores as `seat` (None: a spectator) can know them: what a running game
        shows beside its views.  `scores()` itself where every part of a score is
        public, as in most games; a game whose scores count something hidden (Seven
        Waters' secret theme) leaves that part of the other seats' scores out until
        the end (conformance: a sampled world of the seat shows the same)."""
        return self.scores()

    @abstractmethod
    def winners(self) -> list[int]:
        """Seats that won (several on a shared win or a team); [] while running."""

    def returns(self) -> list[float]:
        """Per seat: share of the win (1/k for a k-way shared win, team wins count whole)."""
        if not self.is_terminal():
            return [0.0] * self.game.players
        return win_shares(self.game, self.winners())

    # -- information ---------------------------------------------------------
    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything `seat` may know and nothing else, as JSON-ready data.
        `None` is a spectator: only public information."""

    def views(self, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        """The views of several seats at once, each equal to `view(seat)`: what a server
        pushes to every seat after a move.  Views returned together may share their public
        parts (the very same objects in several views), so read them (encode, compare)
        and never change them.  A game overrides this to build what every seat sees once;
        the default builds each view on its own."""
        return {seat: self.view(seat) for seat in seats}

    @abstractmethod
    def sample_world(self, seat: int, rng: random.Random) -> "State":
        """A state with the same view for `seat`, its hidden parts dealt anew from `rng`,
        and a future (draws, dice) that is not the true one."""

    @abstractmethod
    def components(self) -> Counter:
        """The multiset of all physical components in play (cards, tiles, animals);
        constant through a game, whatever zones they move between."""

    @abstractmethod
    def state_json(self) -> dict[str, Any]:
        """The full position as JSON-ready data (for replay summaries and debugging)."""

    # -- records -------------------------------------------------------------
    def actions(self) -> list[Action]:
        """The actions taken so far, in order (without their seats)."""
        return [a for _, a, _ in self.history]

    def committed(self) -> dict[int, Action]:
        """The hidden commitments of the simultaneous phase in progress, seat -> action:
        taken, but shown to no other seat until the phase is revealed."""
        if not self.simultaneous():
            return {}
        out: dict[int, Action] = {}
        for seat, action, together in reversed(self.history):
            if not together:  # the last decision of the previous phase had the table alone
                break
            out[seat] = action
        return out

    def record_actions(self) -> list[str]:
        """The decisions so far in notation, in the order they were taken (records.md)."""
        return [entry_notation(e) for e in self.history]

    def record(self) -> dict[str, Any]:
        """This game as a record document (records.md), setup explicit."""
        from .records import make_record  # records imports the registry, which imports games
        return make_record(self)

    def __str__(self) -> str:
        return f"{self.game.name} {self.state_json()}"

