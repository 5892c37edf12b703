"""Tuning a variant: which option values best serve a goal, found by successive halving.

`tune(game, vary=["slide_limit=5..9"], goal="fair-seats")` plays every candidate (each
combination of the varied values) for a first batch of games, keeps the better half by
the goal, doubles the games and repeats until one candidate is left — *successive
halving* (Karnin, Koren & Somekh 2013; Jamieson & Talwalkar 2016), a racing scheme that
spends most games on the candidates still in the running.  Every candidate plays the
same game seeds (common random numbers), so they are compared on the same deals.

Goals (each a number to make small):

* `fair-seats`: the largest gap between a seat's (team's) win rate and a fair share;
* `decisive`: the share of games without a single winner, seat or team (shared wins, no winner);
* `shorter`: actions per game.

The result names the best values with the goal's 95 % interval, and every other
candidate with the round it was dropped in: a designer sees how clear the choice is.
When another candidate is tied with the survivor, its interval overlaps the survivor's,
or its value is less than the practical size (`--min-effect`, as a report's flag needs)
above it, the report names no best but the candidates it cannot separate.  The survivor
is the last round's winner; a candidate dropped earlier (on fewer games) can show a
lower value, and the verdict then says so rather than calling the survivor the lowest.
Under duplicate seating every round is whole deal groups, and the deal group the unit
of the goal's interval.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..bots.runner import Backend, add_cut_short, cut_short_reasons
from ..core.errors import BadOption
from ..core.messages import shown
from ..core.registry import game_class, load, manifest
from ..core.stats import NONNEGATIVE, Z95, Estimate, normal_quantile, wilson
from .backends import run_study
from .clustered import parts_ci, ratio_parts, share, units_of
from .study import Study, _split_csv, make_study, refuse_empty, refuse_empty_entry, seating_note

GOALS = ("fair-seats", "decisive", "shorter")



@dataclass
class Candidate:
    label: str
    cond: int
    rows: list[dict[str, Any]] = field(default_factory=list)
    dropped: int | None = None      # the round it was dropped after (None: still in / the winner)
    score: Estimate | None = None   # the goal's value (smaller is better) with its interval
    detail: str = ""
    history: list[Estimate] = field(default_factory=list)  # the goal after each round it played (score.n games)

    def at(self, games: int) -> Estimate | None:
        """The goal as it stood after `games` games (the round that ranked it against another)."""
        return next((e for e in self.history if e.n == games), None)

    @property
    def measured(self) -> bool:
        """It has a goal value: an interrupt in the first round can leave a candidate without a
        game, its value NaN, and every comparison with NaN false (never a rival, never lower)."""
        return self.score is not None and self.score.n > 0 and not math.isnan(self.score.value)


def expand_vary(game: str, texts: Sequence[str]) -> list[str]:
    """`OPTION=RANGE` → `OPTION=V1,V2,…` as `make_study`'s --compare takes it.

    RANGE is a list (`5,7,null`, `forward,back`) or an integer range `LOW..HIGH`
    (both included), or a mix (`3..5,null`).  Every value is checked here, against the
    option's kind and range, so a mistake is reported as the `--vary` the user typed
    (`make_study` would name its own `--compare`, an option `lab tune` does not have)."""
    if not texts:
        raise BadOption("--vary: give at least one OPTION=RANGE, e.g. slide_limit=5..9")
    by_name = {o.name: o for o in game_class(game).option_list}
    out, seen = [], set()
    for text in texts:
        key, eq, raw = text.partition("=")
        key = key.strip()
        if not eq or not raw.strip():
            raise BadOption(f"--vary {shown(text)}: expected OPTION=RANGE, "
                            f"e.g. slide_limit=5..9 or river_flow=forward,back")
        if key == "players":
            # tune() plays one player count (its goals compare seats of one table), so a
            # player count is never a candidate; a game for exactly N players has no counts to
            # compare, and `lab GAME --players 2,3,4` would only be refused again
            fixed = game_class(game).fixed_players
            if fixed is not None:
                raise BadOption(f"--vary {shown(text)}: {game} is for exactly {fixed} players; "
                                f"its player count is not an option")
            raise BadOption(f"--vary {shown(text)}: player counts are not tuned; tune one count at a time with "
                            f"--players N, or compare counts with `lab {game} --players 2,3,4`")
        if key not in by_name:
            raise BadOption(f"--vary: {game} has no option {shown(key)} (options: {', '.join(sorted(by_name))})")
        if key in seen:
            raise BadOption(f"--vary {key}: given twice; list every value in one --vary {key}=…")
        seen.add(key)
        option = by_name[key]
        values: list[str] = []
        parsed: dict[str, str] = {}  # repr of each parsed value → the text that gave it
        refuse_empty_entry(f"--vary {key}", [raw])  # `rounds=1,,2`: a candidate fewer than written
        for part in (p.strip() for p in raw.split(",") if p.strip()):
            m = re.fullmatch(r"(-?\d+)\.\.(-?\d+)", part)
            if m:
                try:
                    low, high = int(m.group(1)), int(m.group(2))
                except ValueError:  # past Python's 4300 digits (int's traceback): no option takes such a number
                    digits = max(len(m.group(1).lstrip("-")), len(m.group(2).lstrip("-")))
                    raise BadOption(f"--vary {key}: {shown(part)} has a bound of {digits:,} digits, too long to be "
                                    f"a whole number; write LOW..HIGH, e.g. {key}=5..9") from None
                if high < low or high - low > 64:
                    raise BadOption(f"--vary {key}: {shown(part)} is not a range LOW..HIGH of at most 65 values "
                                    f"(LOW ≤ HIGH)")
                texts_here = [str(v) for v in range(low, high + 1)]
            elif ".." in part:  # `a..b`, `1..`, `1.5..3`: meant as a range, but not one of whole numbers
                raise BadOption(f"--vary {key}: {shown(part)} is not a range of whole numbers; write LOW..HIGH, "
                                f"e.g. {key}=5..9")
            else:
                texts_here = [part]
            for t in texts_here:
                try:
                    value = option.validate(option.parse_text(t, game), game)
                except BadOption as exc:
                    raise BadOption(f"--vary {key}: {exc}") from None
                if repr(value) in parsed:
                    same = parsed[repr(value)]
                    also = "" if same == t else f" (as {shown(same)})"
                    raise BadOption(f"--vary {key}: the value {shown(t)} is given twice{also} "
                                    f"in {shown(raw.strip())}; each value is one candidate")
                parsed[repr(value)] = t
                values.append(t)
        out.append(f"{key}={','.join(values)}")
    return out


@dataclass(frozen=True)
class TunePlan:
    """A checked `lab tune` command line: the varied options (two values or more) and the fixed ones."""

    compare: list[str]   # OPTION=V1,V2,… with at least two values: the candidates are their combinations
    fixed: list[str]     # OPTION=V from a --vary with a single value: a fixed option

    @property
    def candidates(self) -> int:
        return math.prod(len(t.partition("=")[2].split(",")) for t in self.compare)


def plan_tune(game: str, vary: Sequence[str], goal: str, *, players: Sequence[str] = (),
              options: Sequence[str] = (), first: int = 100) -> TunePlan:
    """Check a tune's command line before any game (the CLI calls it before opening a backend);
    raises BadOption naming the option the user typed."""
    if goal not in GOALS:
        raise BadOption(f"--goal: {shown(goal)} is not one of {', '.join(GOALS)}")
    if first < 2:
        raise BadOption(f"--games: {first} game{'s are' if first != 1 else ' is'} too few for the first round "
                        f"(at least 2)")
    counts = _split_csv(players)
    # `--players "3,"` is refused naming its empty entry, as `lab GAME` refuses it
    refuse_empty("players", players, counts, "the game's player count")
    name = game_class(game).name
    if len(counts) > 1:
        # the example is the game's own count: "e.g. --players 3" sent a Seven Waters user (2 players only)
        # to a count the next run refuses
        raise BadOption(f"--players: tune one player count at a time, e.g. --players {load(name).players}")
    texts = expand_vary(name, vary)
    fixed_keys = {t.partition("=")[0].strip() for t in options}
    for t in texts:
        key = t.partition("=")[0]
        if key in fixed_keys:
            raise BadOption(f"--vary {key}: also fixed with --option {key}=…; give it once")
    compare = [t for t in texts if len(t.partition("=")[2].split(",")) > 1]
    fixed = [t for t in texts if t not in compare]
    if not compare:
        given = " ".join(f"--vary {t}" for t in texts)
        raise BadOption(f"{given}: one value is nothing to choose from; give at least two values to choose "
                        f"from, as a list V1,V2 or a range LOW..HIGH")
    return TunePlan(compare, fixed)


def goal_score(goal: str, study: Study, cand: Candidate) -> tuple[Estimate, str]:
    """The goal's value for a candidate's games (smaller is better), its interval and a short reading.
    Under duplicate seating the deal group is the unit of the interval (games of one deal correlate)."""
    rows = cand.rows
    units = units_of(rows, study.group_of(cand.cond))
    if goal == "shorter":
        e = parts_ci(ratio_parts([r["actions"] for r in rows], None, units), NONNEGATIVE)
        return e, f"{e.fmt(digits=1)} actions per game"
    if goal == "decisive":
        e = share([int(bool(r["shared"] or not r["winners"])) for r in rows], units=units).est
        return e, f"{e.fmt(pct=True)} of games without a single winner"
    return largest_gap(study.series(cand.cond).load().teams, rows, units)


def largest_gap(teams, rows: list[dict[str, Any]], units: list[int]) -> tuple[Estimate, str]:
    """fair-seats: the largest gap between a team's win rate and a fair share, with an interval that covers
    it.  With two teams the gaps are one (the shares add up to one, but for games without a winner): the
    95 % Wilson interval of a team's share, folded at the fair share.  With k > 2 teams every team gets a Wilson interval at 1 − 0.05/k
    (Bonferroni): all k cover their teams at once with at least 95 %, and then the largest gap lies between the
    largest lower and the largest upper distance of those intervals from the fair share — the interval given
    (the 95 % interval of the worst team alone could end below the largest gap)."""
    n = len(rows)
    fair = 1 / len(teams)
    k = 1 if len(teams) <= 2 else len(teams)
    z = Z95 if k == 1 else normal_quantile(1 - 0.025 / k)
    worst = None
    low = high = 0.0
    for t, team in enumerate(teams):
        x = share([sum(r["returns"][s] for s in team) / len(team) for r in rows], units=units)
        if x.n_eff <= 0:
            return Estimate(float("nan"), float("nan"), float("nan"), 0), "no games"
        w = wilson(x.value * x.n_eff, x.n_eff, z)
        near, far = sorted((abs(w.low - fair), abs(w.high - fair)))
        low = max(low, 0.0 if w.low <= fair <= w.high else near)
        high = max(high, far)
        if worst is None or abs(x.value - fair) > abs(worst[1].value - fair):
            # the reading shows the interval the goal's comes from: with k > 2 teams the Bonferroni one,
            # where the plain 95 % interval was printed beside the words "over all k seats at once"
            worst = (t, x.est if k == 1 else Estimate(x.est.value, w.low, w.high, x.est.n))
    t, e = worst
    who = "seat" if len(teams[t]) == 1 else "team of seat"
    also = (f"; {100 * (1 - 0.05 / k):.1f} % interval, over all {k} {'seats' if who == 'seat' else 'teams'} at "
            f"once (Bonferroni)" if k > 1 else "")
    return (Estimate(abs(e.value - fair), low, high, n),
            f"{who} {teams[t][0]} wins {e.fmt(pct=True)} (fair {100 * fair:.1f} %){also}")


@dataclass
class TuneResult:
    study: Study
    goal: str
    candidates: list[Candidate]
    rounds: list[tuple[int, int]]   # (candidates in the round, games per candidate after it)
    interrupted: bool = False
    min_effect: float = 0.03        # the smallest lead worth naming a best (pp; % of the best for `shorter`)
    # what cut the run short when not Ctrl-C: a worker process's death, in words (bots/runner.py WorkerDied)
    cut_short_by: str = ""
    # per bot whose search's CPU safety net cut moves short: (those moves, its moves) (lab/study.py
    # `take_cut_short`); said in tune.md, where the workers' log lines went through the progress display
    cut_short: dict[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def best(self) -> Candidate:
        alive = [c for c in self.candidates if c.dropped is None]
        return min(alive or self.candidates, key=lambda c: c.score.value if c.measured else math.inf)

    def practical(self) -> float:
        """The smallest lead worth acting on: --min-effect in percentage points for the shares
        (fair-seats, decisive), that fraction of the best's value for `shorter` (actions per game)."""
        best = self.best
        if self.goal == "shorter":
            return self.min_effect * abs(best.score.value) if best.score else 0.0
        return self.min_effect

    def rivals(self) -> list[Candidate]:
        """The other candidates the best is not separable from: tied with it, with a goal interval
        that overlaps the best one's (the 95 % intervals the report prints), or ahead of it by less than
        the practical size (`min_effect`, as a report's flag needs) — or without a game to judge it by
        (an interrupted first round).  The halving itself ranks by the point value alone and breaks a tie
        by the order of the candidates, so its survivor is only *the* best when this list is empty."""
        best = self.best
        if not best.measured:
            return [c for c in self.candidates if c is not best]
        margin = self.practical()
        return [c for c in self.candidates if c is not best
                and (not c.measured or c.score.value <= best.score.value or c.score.low <= best.score.high
                     or c.score.value - best.score.value < margin)]

    def games(self) -> int:
        return sum(len(c.rows) for c in self.candidates)


def tune(game: str, vary: Sequence[str], goal: str, runner: Backend, *, players: Sequence[str] = (),
         bots: Sequence[str] = (), options: Sequence[str] = (), first: int = 100, seed: int = 0,
         seating: str = "rotated", progress: Callable[[int], None] | None = None,
         on_round: Callable[[int, list[Candidate]], None] | None = None, min_effect: float = 0.03) -> TuneResult:
    """Successive halving over the combinations of the varied option values.  Under duplicate seating
    the first round is rounded up to whole deal groups (doubling keeps them whole)."""
    plan = plan_tune(game, vary, goal, players=players, options=options, first=first)
    study = make_study(game, players=players, bots=bots, options=[*options, *plan.fixed], compare=plan.compare,
                       games=first, seed=seed, seating=seating)
    cands = [Candidate(c.label, i) for i, c in enumerate(study.conditions)]
    alive = list(cands)
    have, goal_games, rnd = 0, study.games, 0
    rounds: list[tuple[int, int]] = []
    interrupted = False
    cut_short: dict[str, tuple[int, int]] = {}
    while True:
        sub = dataclasses.replace(study, conditions=tuple(study.conditions[c.cond] for c in alive), games=goal_games)
        part = run_study(sub, runner=runner, progress=progress, start=have)
        add_cut_short(cut_short, part.cut_short)
        for r in part.rows:
            cand = alive[r["cond"]]
            cand.rows.append(dict(r, cond=cand.cond))
        for c in alive:
            c.score, c.detail = goal_score(goal, study, c)
            c.history.append(c.score)
        rounds.append((len(alive), goal_games))
        if part.interrupted:
            interrupted = True
            break
        have = goal_games
        rnd += 1
        if len(alive) == 1:
            break
        # by the goal's value; a tie goes to the candidate listed first (tune_markdown says when the
        # survivor is not separable from the others, so this order never passes for a finding)
        ranked = sorted(alive, key=lambda c: (c.score.value, c.cond))
        keep = max(1, math.ceil(len(ranked) / 2))
        for c in ranked[keep:]:
            c.dropped = rnd
        alive = ranked[:keep]
        if on_round:
            on_round(rnd, alive)
        goal_games *= 2
    died = runner.failure.reason().render("en") if interrupted and runner.failure is not None else ""
    return TuneResult(study, goal, cands, rounds, interrupted, min_effect, died, cut_short)


WHAT = {"fair-seats": "the largest gap between a seat's win rate and a fair share",
        "decisive": "the share of games without a single winner (seat or team)",
        "shorter": "actions per game"}


SHOWN = 8  # rivals named in the verdict; the table lists every candidate


def _size(result: TuneResult) -> str:
    """The practical size as the verdict states it."""
    if result.goal == "shorter":
        return f"{100 * result.min_effect:g} % of its value (--min-effect)"
    return f"{100 * result.min_effect:g} pp (--min-effect)"


def shown_score(result: TuneResult, e: Estimate) -> str:
    """A goal's value with its interval in the goal's unit: fair-seats' largest gap between a win rate and a
    fair share is a difference of two percentages, so percentage points ("3.2 pp [0.0, 6.7]", the unit of
    --min-effect and of the reports' seat tables), where decisive's share of games is a percentage."""
    if result.goal == "shorter":
        return e.fmt(digits=1)
    return e.fmt(pct=True, unit="pp" if result.goal == "fair-seats" else "%")


def earlier(result: TuneResult) -> str:
    """The survivor against candidates dropped in earlier rounds that now show a lower value: each was
    ranked on fewer games, against the survivor's value on those same games (the halving's only
    comparison); the survivor's final value has more games behind it."""
    best = result.best
    lower = sorted((c for c in result.candidates if c is not best and c.dropped is not None and c.score is not None
                    and c.score.value < best.score.value), key=lambda c: (c.score.value, c.cond))
    if not lower:
        return ""
    parts = []
    for c in lower[:SHOWN]:
        then = best.at(len(c.rows))
        if then is None:
            when = f", dropped after round {c.dropped}"
        else:  # the halving keeps the lower value, and a tie goes to the candidate listed first
            how = "tied with" if then.value == c.score.value else "behind"
            tie = " (a tie goes to the candidate listed first)" if how == "tied with" else ""
            when = (f", {how} {best.label}'s {shown_score(result, then)} on those games when it was dropped "
                    f"after round {c.dropped}{tie}")
        parts.append(f"{c.label} ({shown_score(result, c.score)} over {len(c.rows)} games{when})")
    more = f" and {len(lower) - SHOWN} more (the table)" if len(lower) > SHOWN else ""
    shows = "one of them shows" if len(lower) == 1 else f"{len(lower)} of them show"
    return (f" Candidates dropped earlier were ranked on fewer games, and {shows} a lower value than the "
            f"survivor's final one: {', '.join(parts)}{more}; the halving compares candidates only on the same "
            f"games, so the survivor is not the lowest of all.")


def verdict(result: TuneResult) -> str:
    """The headline of the tuning report (and of the console): the best values only when no other
    candidate is tied with them, within their interval or closer than the practical size; otherwise that
    no candidate is clearly better, naming the ones that are not separable.  The survivor is called the
    lowest only when it is: a candidate dropped early (on fewer games) can show a lower value."""
    best, rivals = result.best, result.rivals()
    if not best.measured:
        return (f"**No candidate played a game**: the run stopped before any of the {len(result.candidates)} "
                f"finished one, so nothing is known of them.")
    pct = result.goal != "shorter"
    what = WHAT[result.goal]

    def value(c: Candidate) -> str:
        unit = " pp" if result.goal == "fair-seats" else " %"
        return f"{100 * c.score.value:.1f}{unit}" if pct else f"{c.score.value:.1f}"

    if not rivals:
        return (f"**Best: {best.label}** — {what} {shown_score(result, best.score)} over {len(best.rows)} games "
                f"({best.detail}); every other candidate's interval lies above it, and its value by at least "
                f"{_size(result)}.")
    if len(rivals) == len(result.candidates) - 1 and all(c.measured and c.score.value == best.score.value
                                                          for c in rivals):
        return (f"**No candidate is better than the others**: all {len(result.candidates)} scored {value(best)} "
                f"({what}). The halving kept {best.label} only because a tie goes to the candidate listed "
                f"first; more games per candidate (--games), another goal or other values may separate them.")
    rivals = sorted(rivals, key=lambda c: (not c.measured, c.score.value if c.measured else 0.0, c.cond))
    listed = ", ".join(f"{c.label} (no games)" if not c.measured else
                       f"{c.label} ({shown_score(result, c.score)}"
                       f"{', tied' if c.score.value == best.score.value else ''})" for c in rivals[:SHOWN])
    if len(rivals) > SHOWN:
        listed += f" and {len(rivals) - SHOWN} more (the table)"
    lowest = all(not c.measured or c.score.value >= best.score.value for c in result.candidates)
    head = "scored lowest" if lowest else "survived the halving"
    return (f"**No clear best**: {best.label} {head} — {what} {shown_score(result, best.score)} over "
            f"{len(best.rows)} games ({best.detail}) — but {len(rivals)} other candidate(s) are tied with it, "
            f"within its 95 % interval, less than {_size(result)} above it or without a game, so not clearly "
            f"worse: {listed}."
            f"{earlier(result)} More games per candidate (--games) may separate them.")


def tune_markdown(result: TuneResult) -> str:
    """The tuning report: the best values, then every candidate, best first."""
    study = result.study
    what = WHAT[result.goal]
    lines = [f"# Tuning {manifest(study.game).title_in('en')}: {result.goal}", "",
             f"Successive halving over {len(result.candidates)} candidates ({', '.join(study.compare)}): "
             f"every candidate played the first {result.rounds[0][1]} games; after each round the better half "
             f"(by {what}) went on with twice the games; all candidates play the same game seeds. "
             f"Bots: {', '.join(f'`{b.text}`' for b in study.bots)}; master seed {study.seed}; "
             f"{result.games()} games in all.", ""]
    note = seating_note(study, "--games")
    if note:
        lines += [note, ""]
    if result.cut_short_by:  # not an interrupt: a worker process died under the run (as a study's report says it)
        lines += [f"**Cut short**: {result.cut_short_by}; the ranking is of the games that finished.", ""]
    elif result.interrupted:
        lines += ["**Interrupted**: the ranking is of the games that finished.", ""]
    for reason in cut_short_reasons(result.cut_short):
        lines += [f"**CPU safety net**: {reason.render('en')}.", ""]
    lines += [verdict(result), ""]
    ranked = sorted(result.candidates, key=lambda c: (c.dropped is not None, -(c.dropped or 0), not c.measured,
                                                      c.score.value if c.measured else 0.0))
    lines += ["| candidate | games | goal (95 % CI) | reading | dropped after round |", "|---|---|---|---|---|"]
    for c in ranked:
        lines.append(f"| {c.label} | {len(c.rows)} | {shown_score(result, c.score)} | "
                     f"{c.detail} | {c.dropped if c.dropped is not None else '–'} |")
    lines += ["", "Candidates dropped early played fewer games, so their intervals are wider; a candidate "
                  "whose interval overlaps the survivor's, or whose value is less than the practical size "
                  f"({_size(result)}) above it, is not clearly worse. The halving ranks candidates only on the "
                  "same games: a value in this table from fewer games is not comparable with the survivor's "
                  "final value."]
    if result.goal == "fair-seats" and len(study.series(0).load().teams) > 2:
        lines += ["", "fair-seats with more than two seats (teams): the goal is the largest gap of any seat, and its "
                      "interval comes from simultaneous Wilson intervals of every seat (Bonferroni), so it covers "
                      "the largest gap with at least 95 %."]
    return "\n".join(lines) + "\n"
