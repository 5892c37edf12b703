"""Per-game measures, computed through the public protocol only.

Each game's `Measures` watches a game as it is played (or as its record is
replayed): `step(state, action, seat)` after every applied action and
`finish(state)` at the end, which returns a flat dict of numbers for the results
table.  They read spectator views (`state.view(None)`) and, where a question
needs a player's hidden cards (Seven Waters: "could this player have built a
slide but for the limit?"), that player's own view — never the engine's internals.

`MEASURES[game].describe` lists how the report summarises each column:
`mean` (per-game mean, t interval), `share` (a yes/no per game, Wilson) or
`ratio` (numerator and denominator columns pooled over games, Wilson).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ..core.protocol import Game, State


@dataclass(frozen=True)
class Measure:
    """How the report summarises one measure."""

    name: str           # column (without the m_ prefix); for ratios the numerator
    kind: str           # mean | share | ratio
    label: str          # what a designer reads
    denominator: str = ""  # ratio only: the denominator column


class Measures:
    """No per-game measures beyond the common ones (the base for every game)."""

    per_step = False
    units = ""  # "rounds" / "hands": the length unit this game reports besides actions
    describe: tuple[Measure, ...] = ()

    def __init__(self, game: Game):
        self.game = game

    def step(self, state: State, action: Any, seat: int) -> None:
        """Called after each applied action when `per_step` is set."""

    def finish(self, state: State) -> dict[str, float]:
        """The measures of the finished game; `units` under the key 'units'."""
        return {}


# ----------------------------------------------------------------------------- Wasserloch
class WasserlochMeasures(Measures):
    """Drive-offs and loot (WL-4.2), aces taking the 8s (WL-4.3)."""

    per_step = True
    units = "rounds"
    describe = (
        Measure("drive_offs", "mean", "drive-offs per game"),
        Measure("loot", "ratio", "loot per drive-off (cards)", "drive_offs"),
        Measure("ace_eights", "mean", "aces taking the 8s, per game"),
        Measure("ace_eights_any", "share", "games in which 3+ aces took the 8s at least once"),
        Measure("ace_eight_loot", "ratio", "loot per ace→8 drive-off", "ace_eights"),
        Measure("ace_eights", "ratio", "share of drive-offs that are aces taking the 8s", "drive_offs"),
        Measure("big_drive_offs", "ratio", "share of drive-offs taking 5+ cards", "drive_offs"),
    )

    def __init__(self, game: Game):
        super().__init__(game)
        self.drive_offs = self.loot = self.ace_eights = self.ace_eight_loot = self.big = 0
        self.before = [0.0] * game.players

    def step(self, state: State, action: Any, seat: int) -> None:
        # A play drove off a herd exactly when the player's score rose (WL-5.3: one point per
        # looted card), and aces only ever drive off the 8s (WL-4.3).  Reading scores() is
        # much cheaper than building a view after every play.
        scores = state.scores()
        loot = scores[seat] - self.before[seat]
        self.before = scores
        if loot <= 0:
            return
        self.drive_offs += 1
        self.loot += loot
        if loot >= 5:
            self.big += 1
        if str(action).upper().startswith("A"):
            self.ace_eights += 1
            self.ace_eight_loot += loot

    def finish(self, state: State) -> dict[str, float]:
        return {"units": state.view(None)["round"], "drive_offs": self.drive_offs, "loot": self.loot,
                "ace_eights": self.ace_eights, "ace_eights_any": int(self.ace_eights > 0),
                "ace_eight_loot": self.ace_eight_loot, "big_drive_offs": self.big}


# ----------------------------------------------------------------------------- Seven Waters
_RANK_VALUE = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}
_CATEGORIES = ("slides", "river", "pool", "theme", "hand", "discards")


def _card_value(card: str) -> int | None:
    """SW-2.1 building value of a card text; None for a joker (any 1–10)."""
    if card.startswith("X"):
        return None
    r = card[0]
    return _RANK_VALUE.get(r, int(r) if r.isdigit() else 10)


def _can_sum(values: list[int | None], target: int) -> bool:
    """Can some hand cards sum exactly to `target` (jokers any value 1–10)?  SW-4.3a."""
    plain = [v for v in values if v is not None]
    jokers = len(values) - len(plain)
    for size in range(1, len(plain) + 1):
        for combo in combinations(plain, size):
            rest = target - sum(combo)
            if rest == 0 or (1 <= rest <= 10 * jokers and jokers >= 1 and rest >= 1):
                return True
    return 1 <= target <= 10 * jokers


class SevenWatersMeasures(Measures):
    """Slides built (SW-4.3a), the seven-slide limit (SW-4.4), points by category (SW-5.2)."""

    per_step = True
    describe = (
        Measure("slides", "mean", "slides built per game (both players)"),
        Measure("limit_reached", "share", "games in which the slide limit was reached"),
        Measure("limit_bites", "share", "games in which the limit stopped a slide the mover could build"),
        Measure("eight_slides", "share", "games with 8 slides (impossible under the limit)"),
    ) + tuple(Measure(f"pts_{c}", "mean", f"points per player from {c}") for c in _CATEGORIES) + (
        Measure("score_mismatch", "share", "games where the category sum differs from the score (a check)"),
    )

    def __init__(self, game: Game):
        super().__init__(game)
        self.limit = game.options.get("slide_limit")
        self.slides = 0
        self.bites = 0

    def step(self, state: State, action: Any, seat: int) -> None:
        if str(action).startswith("slide"):
            self.slides += 1
        if self.bites or self.limit is None or self.slides < self.limit or state.is_terminal():
            return
        mover = state.current_seat
        view = state.view(mover)  # the mover's own cards: what it could have built
        me = view["players"][mover]
        values = [_card_value(c) for c in me["hand"] or []]
        for line_sum, slide in zip(me["line_sums"], me["slides"]):
            if slide is None and _can_sum(values, line_sum):
                self.bites = 1
                return

    def finish(self, state: State) -> dict[str, float]:
        view = state.view(None)
        players = view["players"]
        pools = [len(p["pool"] or []) for p in players]
        totals = {c: 0.0 for c in _CATEGORIES}
        mismatch = 0
        for i, p in enumerate(players):
            pts = self._categories(p, pools, i)
            for c in _CATEGORIES:
                totals[c] += pts[c]
            if abs(sum(pts.values()) - state.scores()[i]) > 1e-9:
                mismatch = 1
        built = view["slides_built"]
        out = {"units": 0, "slides": built,
               "limit_reached": int(self.limit is not None and built >= self.limit),
               "limit_bites": self.bites, "eight_slides": int(built >= 8), "score_mismatch": mismatch}
        out.update({f"pts_{c}": totals[c] / len(players) for c in _CATEGORIES})
        return out

    @staticmethod
    def _categories(p: dict, pools: list[int], i: int) -> dict[str, float]:
        """SW-5.2 points of one park, by category."""
        slides = [c for s in p["slides"] if s for c in s]
        river, pool = p["river"] or [], p["pool"] or []
        theme = p.get("theme")
        theme_pts = 0
        if theme:
            suit = theme[-1]
            park = slides + river + pool + [c for line in p["lines"] for c in line] + [theme]
            theme_pts = sum(1 for c in park if not c.startswith("X") and c.split("=")[0][-1] == suit)
        other = max(x for j, x in enumerate(pools) if j != i)
        return {"slides": 2 * len(slides), "river": len(river), "pool": 5 if pools[i] > other else 0,
                "theme": theme_pts, "hand": -p["hand_count"], "discards": -2 * p["discard_count"]}


# ----------------------------------------------------------------------------- Watten
class WattenMeasures(Measures):
    """Hands per game (WA-1.4), the caller's team (WA-1.3), raising (WA-6)."""

    units = "hands"
    describe = (
        Measure("units", "mean", "hands per game"),
        Measure("caller_wins", "ratio", "hands won by the caller's team", "hands"),
        Measure("raised", "ratio", "hands played for more than the base value", "hands"),
        Measure("conceded", "ratio", "hands ended by a concede", "hands"),
        Measure("caught", "ratio", "hands lost to a caught signal", "hands"),
        Measure("points", "ratio", "points per hand", "hands"),
        Measure("caller_team_wins_game", "share", "games won by the team that called the first hand"),
    )

    def finish(self, state: State) -> dict[str, float]:
        view = state.view(None)
        results = view["results"]
        left = self.game.options.get("caller") == "dealer_left"
        base = self.game.options.get("hand_value", 1)
        caller_wins = raised = conceded = caught = points = 0
        first_caller_team = None
        for r in results:
            caller = (r["dealer"] + (1 if left else -1)) % 4
            team = caller % 2
            if first_caller_team is None:
                first_caller_team = team
            caller_wins += r["team"] == team
            raised += r["points"] > base
            conceded += r["reason"] == "concede"
            caught += r["reason"] == "caught"
            points += r["points"]
        winners = state.winners()
        return {"units": len(results), "hands": len(results), "caller_wins": caller_wins, "raised": raised,
                "conceded": conceded, "caught": caught, "points": points,
                "caller_team_wins_game": int(bool(winners) and winners[0] % 2 == first_caller_team)}


# ----------------------------------------------------------------------------- Wildwasser
_SPECIES = ("cheetah", "zebra", "rhino", "meerkat", "turtle")


class WildwasserMeasures(Measures):
    """How games end (WW-5.1 / WW-5.2), finishes per species (WW-4.2), pushes (WW-4.4)."""

    per_step = True
    units = "rounds"
    describe = (
        Measure("units", "mean", "rounds per game"),
        Measure("end_tiles", "share", "games ended by the empty tile stack (WW-5.2), not a third finish"),
        Measure("finishes", "mean", "animals finished per game"),
    ) + tuple(Measure(f"finish_{sp}", "mean", f"{sp}s finished per game") for sp in _SPECIES) + tuple(
        Measure(f"first_{sp}", "share", f"games in which the {sp} podium's 1st place was taken") for sp in _SPECIES
    ) + (
        Measure("pushes", "mean", "river pushes per game"),
        Measure("icon_pushes", "mean", "pushes from a push icon (not a zebra action), per game"),
        Measure("washed", "ratio", "animals washed over the waterfall per push", "pushes"),
        Measure("washed_winner", "ratio", "share of washed animals that belonged to the eventual winner(s)", "washed"),
    )

    def __init__(self, game: Game):
        super().__init__(game)
        self.seen = -1
        self.end = ""
        self.finishes = {sp: 0 for sp in _SPECIES}
        self.first = {sp: 0 for sp in _SPECIES}
        self.pushes = self.icon_pushes = 0
        self.washed_by_seat = [0] * game.players
        self.pending_icon = False

    def step(self, state: State, action: Any, seat: int) -> None:
        for e in state.view(None)["log"]:
            if e["i"] <= self.seen:
                continue
            self.seen = e["i"]
            kind = e["event"]
            if kind == "finish":
                self.finishes[e["animal"]] += 1
                if e["place"] == 1:
                    self.first[e["animal"]] = 1
            elif kind == "icon":
                self.pending_icon = e["icon"] == "push"
                continue
            elif kind == "push":
                self.pushes += 1
                self.icon_pushes += self.pending_icon
                for owner, _animal in e["washed"]:
                    self.washed_by_seat[owner] += 1
            elif kind == "end":
                self.end = e["why"]
            elif kind == "last_round":
                continue  # noted inside a push, between the push icon and the push itself
            self.pending_icon = False

    def finish(self, state: State) -> dict[str, float]:
        winners = state.winners()
        out = {"units": state.view(None)["round"], "end_tiles": int(self.end == "tiles"),
               "finishes": sum(self.finishes.values()), "pushes": self.pushes, "icon_pushes": self.icon_pushes,
               "washed": sum(self.washed_by_seat),
               "washed_winner": sum(self.washed_by_seat[s] for s in winners)}
        out.update({f"finish_{sp}": n for sp, n in self.finishes.items()})
        out.update({f"first_{sp}": n for sp, n in self.first.items()})
        return out


MEASURES: dict[str, type[Measures]] = {
    "wasserloch": WasserlochMeasures,
    "seven_waters": SevenWatersMeasures,
    "watten": WattenMeasures,
    "wildwasser": WildwasserMeasures,
}


def measures_for(game: Game) -> Measures:
    """A fresh measures object for one game (the common ones only for an unknown game)."""
    return MEASURES.get(game.name, Measures)(game)


def measure_record(doc: Any) -> dict[str, float]:
    """The measures of a recorded game, by replaying its record step by step through
    the public protocol (any saved game, not only the lab's own)."""
    from ..core.records import parse_record
    game, doc = parse_record(doc)
    state = game.new_game(setup=doc["setup"]) if "setup" in doc else game.new_game(seed=doc["seed"])
    measures = measures_for(game)
    for text in doc.get("actions", []):
        seat, action = game.parse_decision(text)
        if seat is None:
            seat = state.current_seat
        state.apply(action, seat)
        if measures.per_step:
            measures.step(state, action, seat)
    return measures.finish(state)
