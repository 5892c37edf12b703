"""Tuning a variant: which option values best serve a goal, found by successive halving.

`tune(game, vary=["slide_limit=5..9"], goal="fair-seats")` plays every candidate (each
combination of the varied values) for a first batch of games, keeps the better half by
the goal, doubles the games and repeats until one candidate is left — *successive
halving* (Karnin, Koren & Somekh 2013; Jamieson & Talwalkar 2016), a racing scheme that
spends most games on the candidates still in the running.  Every candidate plays the
same game seeds (common random numbers), so they are compared on the same deals.

Goals (each a number to make small):

* `fair-seats`: the largest gap between a seat's (team's) win rate and a fair share;
* `decisive`: the share of games without a single winning team (shared wins, no winner);
* `shorter`: actions per game.

The result names the best values with the goal's 95 % interval, and every other
candidate with the round it was dropped in: a designer sees how clear the choice is.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..bots.runner import Backend
from ..core.errors import BadOption
from ..core.registry import game_class
from ..core.stats import Estimate, mean_ci, wilson
from .backends import run_study
from .study import Study, make_study

GOALS = ("fair-seats", "decisive", "shorter")


@dataclass
class Candidate:
    label: str
    cond: int
    rows: list[dict[str, Any]] = field(default_factory=list)
    dropped: int | None = None      # the round it was dropped after (None: still in / the winner)
    score: Estimate | None = None   # the goal's value (smaller is better) with its interval
    detail: str = ""


def expand_vary(game: str, texts: Sequence[str]) -> list[str]:
    """`OPTION=RANGE` → `OPTION=V1,V2,…` as `make_study`'s --compare takes it.

    RANGE is a list (`5,7,null`, `forward,backward`) or an integer range `LOW..HIGH`
    (both included), or a mix (`3..5,null`)."""
    if not texts:
        raise BadOption("--vary: give at least one OPTION=RANGE, e.g. slide_limit=5..9")
    by_name = {o.name: o for o in game_class(game).option_list}
    out = []
    for text in texts:
        key, eq, raw = text.partition("=")
        key = key.strip()
        if not eq or not raw.strip():
            raise BadOption(f"--vary {text!r}: expected OPTION=RANGE, e.g. slide_limit=5..9 or river_flow=a,b")
        if key not in by_name:
            raise BadOption(f"--vary: {game} has no option {key!r} (options: {', '.join(sorted(by_name))})")
        values: list[str] = []
        for part in (p.strip() for p in raw.split(",") if p.strip()):
            m = re.fullmatch(r"(-?\d+)\.\.(-?\d+)", part)
            if m:
                low, high = int(m.group(1)), int(m.group(2))
                if high < low or high - low > 64:
                    raise BadOption(f"--vary {key}: {part!r} is not a range LOW..HIGH of at most 65 values")
                values += [str(v) for v in range(low, high + 1)]
            else:
                values.append(part)
        out.append(f"{key}={','.join(values)}")
    return out


def goal_score(goal: str, study: Study, cand: Candidate) -> tuple[Estimate, str]:
    """The goal's value for a candidate's games (smaller is better), its interval and a short reading."""
    rows = cand.rows
    n = len(rows)
    if goal == "shorter":
        e = mean_ci(r["actions"] for r in rows)
        return e, f"{e.fmt(digits=1)} actions per game"
    if goal == "decisive":
        k = sum(1 for r in rows if r["shared"] or not r["winners"])
        e = wilson(k, n)
        return e, f"{e.fmt(pct=True)} of games without a single winner"
    teams = study.series(cand.cond).load().teams
    fair = 1 / len(teams)
    worst, worst_team = None, 0
    for t, team in enumerate(teams):
        w = wilson(sum(sum(r["returns"][s] for s in team) / len(team) for r in rows), n)
        if worst is None or abs(w.value - fair) > abs(worst.value - fair):
            worst, worst_team = w, t
    gap = abs(worst.value - fair)
    lo, hi = sorted((abs(worst.low - fair), abs(worst.high - fair)))
    if worst.low <= fair <= worst.high:
        lo = 0.0
    who = "seat" if len(teams[worst_team]) == 1 else "team of seat"
    return (Estimate(gap, lo, hi, n),
            f"{who} {teams[worst_team][0]} wins {worst.fmt(pct=True)} (fair {100 * fair:.1f} %)")


@dataclass
class TuneResult:
    study: Study
    goal: str
    candidates: list[Candidate]
    rounds: list[tuple[int, int]]   # (candidates in the round, games per candidate after it)
    interrupted: bool = False

    @property
    def best(self) -> Candidate:
        alive = [c for c in self.candidates if c.dropped is None]
        return min(alive or self.candidates, key=lambda c: c.score.value if c.score else math.inf)

    def games(self) -> int:
        return sum(len(c.rows) for c in self.candidates)


def tune(game: str, vary: Sequence[str], goal: str, runner: Backend, *, players: Sequence[str] = (),
         bots: Sequence[str] = (), options: Sequence[str] = (), first: int = 100, seed: int = 0,
         seating: str = "rotated", progress: Callable[[int], None] | None = None,
         on_round: Callable[[int, list[Candidate]], None] | None = None) -> TuneResult:
    """Successive halving over the combinations of the varied option values."""
    if goal not in GOALS:
        raise BadOption(f"--goal: {goal!r} is not one of {', '.join(GOALS)}")
    if first < 2:
        raise BadOption(f"--games: {first} games in the first round are too few (at least 2)")
    if len(players) > 1 or any("," in p for p in players):
        raise BadOption("--players: tune one player count at a time")
    texts = expand_vary(game_class(game).name, vary)
    compare = [t for t in texts if len(t.partition("=")[2].split(",")) > 1]
    fixed = [t for t in texts if t not in compare]
    if not compare:
        raise BadOption("--vary: give at least two values to choose from")
    study = make_study(game, players=players, bots=bots, options=[*options, *fixed], compare=compare,
                       games=first, seed=seed, seating=seating)
    cands = [Candidate(c.label, i) for i, c in enumerate(study.conditions)]
    alive = list(cands)
    have, goal_games, rnd = 0, first, 0
    rounds: list[tuple[int, int]] = []
    interrupted = False
    while True:
        sub = dataclasses.replace(study, conditions=tuple(study.conditions[c.cond] for c in alive), games=goal_games)
        part = run_study(sub, runner=runner, progress=progress, start=have)
        for r in part.rows:
            cand = alive[r["cond"]]
            cand.rows.append(dict(r, cond=cand.cond))
        for c in alive:
            c.score, c.detail = goal_score(goal, study, c)
        rounds.append((len(alive), goal_games))
        if part.interrupted:
            interrupted = True
            break
        have = goal_games
        rnd += 1
        if len(alive) == 1:
            break
        ranked = sorted(alive, key=lambda c: (c.score.value, c.cond))
        keep = max(1, math.ceil(len(ranked) / 2))
        for c in ranked[keep:]:
            c.dropped = rnd
        alive = ranked[:keep]
        if on_round:
            on_round(rnd, alive)
        goal_games *= 2
    return TuneResult(study, goal, cands, rounds, interrupted)


def tune_markdown(result: TuneResult) -> str:
    """The tuning report: the best values, then every candidate, best first."""
    study, best = result.study, result.best
    what = {"fair-seats": "the largest gap between a seat's win rate and a fair share",
            "decisive": "the share of games without a single winning team",
            "shorter": "actions per game"}[result.goal]
    lines = [f"# Tuning {study.game}: {result.goal}", "",
             f"Successive halving over {len(result.candidates)} candidates ({', '.join(study.compare)}): "
             f"every candidate played the first {result.rounds[0][1]} games; after each round the better half "
             f"(by {what}) went on with twice the games; all candidates play the same game seeds. "
             f"Bots: {', '.join(f'`{b.text}`' for b in study.bots)}; master seed {study.seed}; "
             f"{result.games()} games in all.", ""]
    if result.interrupted:
        lines += ["**Interrupted**: the ranking is of the games that finished.", ""]
    lines += [f"**Best: {best.label}** — {what} {best.score.fmt(pct=result.goal != 'shorter', digits=1)} "
              f"over {len(best.rows)} games ({best.detail}).", ""]
    ranked = sorted(result.candidates, key=lambda c: (c.dropped is not None, -(c.dropped or 0), c.score.value))
    lines += ["| candidate | games | goal (95 % CI) | reading | dropped after round |", "|---|---|---|---|---|"]
    for c in ranked:
        lines.append(f"| {c.label} | {len(c.rows)} | {c.score.fmt(pct=result.goal != 'shorter', digits=1)} | "
                     f"{c.detail} | {c.dropped if c.dropped is not None else '–'} |")
    lines += ["", "Candidates dropped early played fewer games, so their intervals are wider; a candidate "
                  "whose interval overlaps the best one's is not clearly worse."]
    return "\n".join(lines) + "\n"
