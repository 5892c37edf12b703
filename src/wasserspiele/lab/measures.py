"""Per-game measures, computed through the public protocol only.

Each game's `Measures` watches a game as it is played (or as its record is
replayed): `step(state, action, seat)` after every applied action and
`finish(state)` at the end, which returns a flat dict of numbers for the results
table.  They read spectator views (`state.view(None)`) and, where a question
needs a player's hidden cards (Seven Waters: "could this player have built a
slide but for the limit?"), that player's own view — never the engine's internals.

A game offers its measures as the `measures` plug-in of its manifest
(`games/<game>/measures.py`); `measures_class(game).describe` lists how the report
summarises each column:
`mean` (per-game mean, t interval), `share` (a yes/no per game, Wilson) or
`ratio` (numerator and denominator columns pooled over games, Wilson), each with a
readable label and a description of what it counts (the report prints both, so a
column's code name never stands alone).  A game may also declare `splits`: one
quantity of every game divided among named parts of the game (Wildwasser: the points
among its five species), whose shares the report tests against a fair 1/k as it
tests the seats' win rates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ..core.protocol import Game, State
from ..core.registry import manifest
from ..core.stats import NONNEGATIVE


@dataclass(frozen=True)
class Measure:
    """How the report summarises one measure."""

    name: str           # column (without the m_ prefix); for ratios the numerator
    kind: str           # mean | share | ratio
    label: str          # what a designer reads
    denominator: str = ""  # ratio only: the denominator column
    bounds: tuple[float, float] = NONNEGATIVE  # the values a game (or a ratio) can take
    description: str = ""  # what it counts, in a sentence a designer reads (with the rule's clause)


@dataclass(frozen=True)
class Split:
    """One quantity of every game divided among named parts of the game, such as Wildwasser's
    points among its species (every player races one animal of each, WW-1, so a species is
    neither a seat nor a choice, and its advantage is its share of the points).  The report
    tests each part's share, pooled over the games, against a fair 1/k (k parts), with the
    seats' interval and test and in the same Holm family."""

    name: str                 # the parts' noun, for headings and sentences: "species"
    label: str                # what a part's share is of: "share of the points"
    parts: tuple[str, ...]    # the parts, in the report's order
    amount: str               # a part's amount in a game, with its unit: "points"
    description: str = ""     # how the amounts are counted (a sentence for the report)


class Measures:
    """No per-game measures beyond the common ones (the base for every game)."""

    per_step = False
    units = ""  # "rounds" / "hands": the length unit this game reports besides actions
    units_fixed = False  # True when the options fix the length in units (no headline figure)
    describe: tuple[Measure, ...] = ()
    splits: tuple[Split, ...] = ()

    def __init__(self, game: Game):
        self.game = game

    def split_amounts(self, split: Split, measures: Mapping[str, float]) -> list[float]:
        """Each part's amount (in `split.parts` order) in one finished game, from that game's
        measures (a results row's `measures`): derived from the columns, so a study's rows
        hold everything its report needs."""
        raise NotImplementedError(f"{type(self).__name__} declares no split {split.name!r}")

    def step(self, state: State, action: Any, seat: int) -> None:
        """Called after each applied action when `per_step` is set."""

    def finish(self, state: State) -> dict[str, float]:
        """The measures of the finished game; `units` under the key 'units'."""
        return {}


def measures_class(game: Game | str) -> type[Measures]:
    """The game's `Measures` subclass, or the base (common measures only) if it declares none."""
    m = game.manifest if isinstance(game, Game) else manifest(game)
    return m.plugin("measures") if m.plugins.measures is not None else Measures


def measures_for(game: Game) -> Measures:
    """A fresh measures object for one game."""
    return measures_class(game)(game)


def measure_record(doc: Any) -> dict[str, float]:
    """The measures of a recorded game, by replaying its record step by step through
    the public protocol (any saved game, not only the lab's own)."""
    from ..bots.match import STOP, Seated, play_out
    from ..core.records import parse_record
    game, doc = parse_record(doc)
    state = game.new_game(setup=doc["setup"]) if "setup" in doc else game.new_game(seed=doc["seed"])
    measures = measures_for(game)
    texts = iter(doc.get("actions", []))

    def recorded(state, seat):
        text = next(texts, None)
        if text is None:
            return STOP
        recorded_seat, action = game.parse_decision(text)  # "2: pick zebra" names its seat
        return Seated(seat if recorded_seat is None else recorded_seat, action)

    play_out(state, recorded, measures.step if measures.per_step else None)
    return measures.finish(state)
