"""A balance study: which games to play, playing them, and their results table.

A `Study` is plain data (picklable, so worker processes and Ray tasks get it
whole): the game, its conditions (player counts × compared option values), the
bot lineup and the master seed.  Everything about game `i` of a condition is
derived from the master seed and `i` alone — the game's seed, which bot sits in
which seat, every bot's seed — so results never depend on how the games are
split over processes, and the same game seed is used under every condition
(common random numbers: a compared option changes the rules, not the deal).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from ..bots.runner import Played, RotatedSeating, Seating, Series, games_problem, whole_groups
from ..bots.runner import seating as make_seating
from ..bots.specs import BotSpec, bot_specs_given, check_spec, empty_entry, parse_bot_spec
from ..core.errors import BadOption, WasserspieleError
from ..core.messages import shown
from ..core.options import parse_option_texts, plain_int
from ..core.protocol import Game, State
from ..core.registry import game_class, load
from .measures import measures_for


@dataclass(frozen=True)
class Condition:
    """One set of game options under study (player count included)."""

    label: str
    options: tuple[tuple[str, Any], ...]   # passed to `load`, players included if variable

    def load(self, game: str) -> Game:
        return load(game, **dict(self.options))


@dataclass(frozen=True)
class Study:
    """Everything needed to play (and re-play) every game of a study."""

    game: str
    conditions: tuple[Condition, ...]
    bots: tuple[BotSpec, ...]
    games: int                     # per condition
    seed: int
    compare: tuple[str, ...] = ()  # option names being compared
    base_options: tuple[tuple[str, Any], ...] = ()
    seating: Seating = RotatedSeating()
    kernels: bool = True           # fast paths: the game's compiled kernel (lab/kernels.py), lockstep (lab/lockstep.py)
    group: int = 1                 # `games` is a multiple of it: whole deal groups under every condition (duplicate)
    asked: int | None = None       # the --games asked for, where it was rounded up to whole groups

    @property
    def total(self) -> int:
        return self.games * len(self.conditions)

    def tasks(self, start: int = 0) -> list[tuple[int, int]]:
        """(condition, game index) of every game from game `start` on, in results-table order."""
        return [(c, i) for c in range(len(self.conditions)) for i in range(start, self.games)]

    def group_of(self, cond: int) -> int:
        """Games per deal group under condition `cond`: 1 with rotated seating (every game its own
        deal), the number of teams with duplicate seating (every rotation of the line-up plays the deal)."""
        return self.seating.group(self.conditions[cond].load(self.game), len(self.bots))

    def series(self, cond: int) -> Series:
        """The games of condition `cond`: the same game seeds under every condition
        (common random numbers), the lab's measures watching every game."""
        # the safety net's firings come back with the rows (`take_cut_short`), said in the report's
        # notes, not as log lines a worker wrote through the progress display
        return Series(self.game, self.conditions[cond].options, self.bots, self.seed, self.seating, Watch,
                      net_reported=True)


class Watch:
    """What the lab observes in a game: the game's own measures, and how often the lead
    changed hands (the leading team: the one with the single highest score so far)."""

    per_step = True

    def __init__(self, game: Game):
        self.own = measures_for(game)
        self.teams = game.teams
        self.leader: int | None = None
        self.lead_changes = 0
        self.scores: tuple = ()

    def step(self, state: State, action: Any, seat: int) -> None:
        if self.own.per_step:
            self.own.step(state, action, seat)
        scores = tuple(state.scores())
        if scores == self.scores:  # most actions score nothing: the same leader
            return
        self.scores = scores
        best = [max(scores[s] for s in team) for team in self.teams]
        top = max(best)
        if best.count(top) == 1:
            leader = best.index(top)
            if self.leader is not None and leader != self.leader:
                self.lead_changes += 1
            self.leader = leader

    def finish(self, state: State) -> dict[str, float]:
        return {**self.own.finish(state), LEAD_CHANGES: self.lead_changes}


LEAD_CHANGES = "_lead_changes"   # kept apart from the game's own measures in the row


# ----------------------------------------------------------------------------- building a study
def _option_text(value: Any) -> str:
    """An option value as the command line spells it (null, true, false)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def _split_csv(values: Iterable[str]) -> list[str]:
    return [p.strip() for v in values for p in str(v).split(",") if p.strip()]


def refuse_empty(flag: str, given: Sequence[str], parsed: Sequence[Any], default: str, specs: bool = False) -> None:
    """A flag given only empty values (`--bots ""`, an unset shell variable) names nothing: the
    study played its default (heuristic bots, the game's player count) without a word, where
    the arena refuses `--bots ""`.  An empty entry among others is refused too (`refuse_empty_entry`)."""
    if given and not parsed:
        raise BadOption(f"--{flag}: {' '.join(shown(str(v)) for v in given)} names nothing; leave --{flag} out "
                        f"for {default}")
    refuse_empty_entry(f"--{flag}", given, specs)


def refuse_empty_entry(flag: str, given: Iterable[Any], specs: bool = False) -> None:
    """An empty entry in a comma list (`--players 2,,3`, `--bots heuristic,`, a comma at either end)
    is refused naming its place, as `play --seats human,,easy` is: it was dropped without a word,
    and the run had one player count, bot or value fewer than the user had in mind."""
    given = list(given)
    for at, text in enumerate(given):
        if len(given) > 1 and isinstance(text, str) and not text.replace(";", " ").strip():
            # `--bots heuristic --bots "$UNSET"`, `bots=["heuristic", ""]`: one value fewer than written
            raise BadOption(f"{flag}: value {at + 1} of {' '.join(shown(str(v)) for v in given)} is empty")
        n = empty_entry(text, specs) if isinstance(text, str) else None
        if n is not None:
            raise BadOption(f"{flag}: entry {n} of {shown(text)} is empty (two commas with nothing between "
                            f"them, or a comma at either end)")


def _listed(given: Any, flag: str, default: str) -> list[Any]:
    """A flag's values as a Python caller may give them: one value (`players=3`, `bots="heuristic"`)
    or several; a single text was read letter by letter (`bots="heuristic"` as the bots h, e, u, …).
    A numpy integer (`players=np.int64(3)`) is one value, as `games=` takes it; so is anything that
    is not a collection (a bot class, a function), for the checks to refuse by name, where it failed
    as "'ABCMeta' object is not iterable"; None names nothing."""
    if given is None:
        raise BadOption(f"{flag}: None names nothing; leave {flag} out for {default}")
    given = plain_int(given)
    if isinstance(given, (str, int, BotSpec, type)) or not isinstance(given, Iterable):
        return [given]
    return [plain_int(v) for v in given]


def _option_list(given: Any) -> list[str]:
    """`--option` values from Python: KEY=VALUE texts, one such text, or a dict of values."""
    if isinstance(given, dict):
        return [f"{key}={_option_text(value)}" for key, value in given.items()]
    return [str(v) for v in _listed(given, "options", "the game's default options")]


def _compare_list(given: Any) -> list[str]:
    """`--compare` values from Python: KEY=V1,V2 texts, one such text, or a dict of each key's
    values, as `options=` takes a dict (a dict was read as its keys, "expected KEY=VALUE1,VALUE2")."""
    if not isinstance(given, dict):
        return [str(v) for v in _listed(given, "compare", "no compared options")]
    texts = []
    for key, values in given.items():
        if isinstance(values, str):  # written as on the command line: "a,b"
            texts.append(f"{key}={values}")
        elif isinstance(values, Iterable):
            texts.append(f"{key}={','.join(_option_text(v) for v in values)}")
        else:
            raise BadOption(f"compare: {key!r} takes the values to compare, e.g. {{{key!r}: [a, b]}}, "
                            f"not {values!r}")
    return texts


def make_study(game: str, *, players: Sequence[str | int] = (), bots: Sequence[str] = (),
               options: Sequence[str] = (), compare: Sequence[str] = (), games: int = 100,
               seed: int = 0, seating: str = "rotated", kernels: bool = True) -> Study:
    """Parse and check a study's command line; raises BadOption / UnknownGame naming the problem.
    `kernels=False` plays every game through the Python engine one at a time (no compiled
    kernel, lab/kernels.py, nor lockstep batches, lab/lockstep.py).

    Nothing is played here: every condition is loaded and every bot built once, so
    a bad option, value or bot fails before the first game."""
    cls = game_class(game)
    name = cls.name
    games, seed = plain_int(games), plain_int(seed)
    if games_problem(games):
        raise BadOption(games_problem(games))
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise BadOption(f"--seed: {seed!r} is not a whole number")
    if not isinstance(kernels, bool):  # `kernels="no"` is true to Python: the kernels would play
        raise BadOption(f"make_study: kernels is True or False, not {kernels!r}")
    players, bots = _listed(players, "players", "the game's player count"), _listed(bots, "bots", "the default bots")
    options, compare = _option_list(options), _compare_list(compare)
    seats = make_seating(seating)
    base = parse_option_texts(cls.option_list, list(options), name)
    by_name = {o.name: o for o in cls.option_list}

    # player counts
    counts: list[int | None] = []
    refuse_empty("players", players, _split_csv(players), "the game's player count")
    for text in _split_csv(players):
        try:
            n = int(text)
        except ValueError:
            raise BadOption(f"--players: {shown(text)} is not a number") from None
        if cls.fixed_players is not None and n != cls.fixed_players:
            raise BadOption(f"--players: {name} is for exactly {cls.fixed_players} players, not {n}")
        counts.append(n)
    # checked before a fixed-count game drops its counts: `--players 2,2` is the same slip for every game
    if len(set(counts)) != len(counts):
        raise BadOption("--players: a player count is given twice")
    if "players" in base:
        if counts:
            raise BadOption("players: give it with --players or --option players=…, not both")
        counts = [base.pop("players")]
    if cls.fixed_players is not None or not counts:
        counts = [None]  # the game's count (fixed, or its default)

    # compared options: KEY=V1,V2[,...]; several --compare multiply
    axes: list[tuple[str, list[Any]]] = []
    for text in compare:
        key, eq, raw = text.partition("=")
        key = key.strip()
        if not eq:
            raise BadOption(f"--compare {shown(text)}: expected KEY=VALUE1,VALUE2")
        if key == "players":
            raise BadOption("--compare players: use --players 2,3,4 to compare player counts")
        if key not in by_name:
            raise BadOption(f"--compare: {name} has no option {shown(key)} (options: {', '.join(sorted(by_name))})")
        if key in base:
            raise BadOption(f"--compare {key}: also fixed with --option {key}=…; give it once")
        if any(k == key for k, _ in axes):
            raise BadOption(f"--compare {key}: compared twice")
        refuse_empty_entry(f"--compare {key}", [raw])
        values = [by_name[key].parse_text(v) for v in raw.split(",") if v.strip()]
        if len(values) < 2:
            raise BadOption(f"--compare {key}: give at least two values, e.g. {key}=a,b")
        if len(set(map(repr, values))) != len(values):
            raise BadOption(f"--compare {key}: a value is given twice")
        axes.append((key, values))

    conditions = []
    for n in counts:
        for combo in itertools.product(*[vals for _, vals in axes]):
            opts = dict(base)
            if n is not None:
                opts["players"] = n
            label_parts = [f"players={n}"] if len(counts) > 1 or n is not None else []
            for (key, _), value in zip(axes, combo):
                opts[key] = value
                label_parts.append(f"{key}={_option_text(value)}")
            cond = Condition(" ".join(label_parts) or "default", tuple(opts.items()))
            cond.load(name)  # BadOption naming the option if a combination is refused
            conditions.append(cond)

    specs = bot_specs_given(bots)
    refuse_empty("bots", bots, specs, "the default bots", specs=True)
    if not specs:
        from ..bots.specs import heuristic_traits
        try:
            heuristic_traits(name)
            specs = [parse_bot_spec("heuristic")]
        except BadOption:
            specs = [parse_bot_spec("random")]
    group = 1
    for cond in conditions:
        g = cond.load(name)
        for spec in specs:
            check_spec(spec, g)
            _refuse_timed(spec, g)
        seats.check(g, len(specs))
        group = math.lcm(group, seats.group(g, len(specs)))
    # duplicate seating plays whole deal groups, as the arena and the leaderboard do: a deal played by only
    # some rotations of the line-up would leave its seats (and bots) unbalanced
    rounded = whole_groups(games, group)
    return Study(name, tuple(conditions), tuple(specs), rounded, seed, tuple(k for k, _ in axes),
                 tuple(base.items()), seats, kernels, group, games if rounded != games else None)


def _refuse_timed(spec: BotSpec, game: Game) -> None:
    """A study replays its notable games from their seeds to record them, and its report
    repeats from its seed: a search budgeted in wall-clock time (`seconds`) chooses by the
    machine's speed, so its study played every game and then failed to repeat one."""
    if spec.settings(game)[1].get("seconds") is not None:
        raise BadOption(f"--bots: {spec.text} searches for a time (seconds), so its games would not repeat from "
                        f"their seeds as a study's must (its notable games are played again to be recorded); budget "
                        f"it in iterations (iterations=N)")


def seating_note(study: Study, what: str = "--games") -> str:
    """What duplicate seating means for a study's counts and intervals (empty for rotated seating)."""
    if study.seating.name != "duplicate":
        return ""
    sizes = sorted({study.group_of(c) for c in range(len(study.conditions))})
    groups = " or ".join(map(str, sizes))
    text = (f"Duplicate seating: every rotation of the line-up over the seats (teams) plays the same deal, so the "
            f"games come in deal groups of {groups}")
    if study.asked is not None:
        text += (f"; {what} {study.asked} was rounded up to {study.games}, whole groups under every condition "
                 f"(a multiple of {study.group})")
    return text + ". The deal group, not the game, is the unit of every interval and test."


# ----------------------------------------------------------------------------- playing
def play_one(study: Study, cond: int, index: int, keep_state: bool = False) -> dict[str, Any]:
    """Play game `index` of condition `cond`; its row of the results table."""
    series = study.series(cond)
    game = series.load()
    return _row(study, cond, game, series.play(index, keep_state, game))


def _row(study: Study, cond: int, game: Game, p: Played) -> dict[str, Any]:
    m = dict(p.measures)
    units = m.pop("units", 0)
    lead_changes = m.pop(LEAD_CHANGES, 0)
    row = {
        "condition": study.conditions[cond].label, "cond": cond, "game": p.index, "seed": p.seed,
        "players": game.players, "bots": [study.bots[b].text for b in p.lineup],
        "bot_index": list(p.lineup), "scores": p.scores, "winners": p.winners, "returns": p.returns,
        "shared": int(len({game.team_of(s) for s in p.winners}) > 1), "actions": p.actions,
        "units": units, "lead_changes": lead_changes, "measures": m,
    }
    if p.state is not None:
        row["state"] = p.state
    return row


def run_chunk(study: Study, tasks: Sequence[tuple[int, int]]) -> list[dict[str, Any]]:
    """Play a chunk of (condition, game) tasks in this process (what a worker or Ray task runs):
    in the game's compiled kernel where it plays the same games (lab/kernels.py), in
    lockstep batches where the learned bot sits in every seat (lab/lockstep.py), else
    through the engine one game at a time."""
    from .kernels import kernel_reason, play_in_kernel
    from .lockstep import lockstep_reason, play_lockstep
    out = []
    for cond, tasks_of_cond in itertools.groupby(tasks, key=lambda t: t[0]):
        series = study.series(cond)
        game = series.load()
        indices = [i for _, i in tasks_of_cond]
        if kernel_reason(study, game) is None:
            played = play_in_kernel(series, game, indices)
        elif lockstep_reason(study, game) is None:
            played = play_lockstep(series, game, indices)
        else:
            played = [series.play(i, game=game) for i in indices]
        for p in played:
            row = _row(study, cond, game, p)
            if p.bot_moves:  # (a search's games: the kernel's and lockstep's have none)
                row[NET] = (p.bot_moves, p.cut_short)
            out.append(row)
    return out


NET = "_net"  # a worker's row: per seat, the moves and those the CPU safety net cut short (`take_cut_short`)


def take_cut_short(rows: Sequence[dict[str, Any]]) -> dict[str, tuple[int, int]]:
    """Take the safety net's counts off the rows `run_chunk` made (the results table is as it was):
    per bot (its text) whose search's CPU safety net cut moves short, (those moves, its moves)."""
    cut: dict[str, list[int]] = {}
    for row in rows:
        net = row.pop(NET, None)
        if net is None:
            continue
        for bot, moves, short in zip(row["bots"], *net):
            tally = cut.setdefault(bot, [0, 0])
            tally[0] += short
            tally[1] += moves
    return {bot: (short, moves) for bot, (short, moves) in cut.items() if short}


def note_cut_short(result: "StudyResult") -> None:
    """The report's note on the moves a search's CPU safety net cut short, one a bot (English, as
    the lab's reports are): their results may not repeat from the seed."""
    from ..bots.runner import cut_short_reasons
    for reason in cut_short_reasons(result.cut_short):
        result.notes.append(f"**CPU safety net**: {reason.render('en')}.")


@dataclass
class StudyResult:
    """The rows of the games that finished (in table order) and whether the run was cut short."""

    study: Study
    rows: list[dict[str, Any]]
    interrupted: bool = False
    seconds: float = 0.0
    backend: str = "serial"
    jobs: int = 1
    notes: list[str] = field(default_factory=list)
    # with --precision: the target half-width, and why the run stopped (the report's header says
    # what was played and why it ended, not what was planned)
    target: float | None = None
    stopped: str = ""
    # a report rendered again from a study saved before study.json (lab/render.py): its run line as that
    # report printed it, the seconds it shows being rounded
    run_text: str = ""
    # a worker process's death that cut the run short, as the runner says it in English ("a worker
    # process died, killed by signal SIGKILL"); empty when none did (Ctrl-C, the precision rule, the end)
    died: str = ""
    # per bot whose search's CPU safety net cut moves short: (those moves, its moves); said in `notes`
    # (`note_cut_short`), where the workers' log lines went through the progress display
    cut_short: dict[str, tuple[int, int]] = field(default_factory=dict)

    def __repr__(self) -> str:
        # the dataclass's repr printed every game's row: screenfuls in a notebook cell
        how = "interrupted" if self.interrupted else "finished"
        if self.died:
            how += f": {self.died}"
        return (f"<StudyResult {self.study.game}: {len(self.rows)} of {self.study.total} games, "
                f"{len(self.study.conditions)} condition(s), {how}>")



def mark_worker_death(result: StudyResult, why: str) -> None:
    """Say in `result` that a worker process's death cut its run short, not Ctrl-C: `why` is the
    runner's reason in English (bots/runner.py `WorkerDied.reason`).  study.json saves it, so
    `lab render` says it again."""
    if not why:
        raise ValueError("a worker's death needs its reason")
    result.interrupted = True
    result.died = why


class NotRepeated(WasserspieleError):
    """A game of the table played again from its seed gave another result, so its record cannot be written."""


def replay_game(study: Study, row: dict[str, Any]) -> State:
    """Play one game of the table again (deterministic) and check it gives the same result."""
    again = play_one(study, row["cond"], row["game"], keep_state=True)
    if again["scores"] != row["scores"] or again["actions"] != row["actions"]:
        # the one cause among the project's bots: a search's CPU safety net (bots/ismcts.py) cut a search
        # short in one of the two plays (the run counts them: `note_cut_short`)
        raise NotRepeated(f"game {row['game']} ({row['condition']}) did not repeat from its seed, so its record "
                          f"cannot be written: a search cut short by its CPU safety net (the run says which bot's "
                          f"after its games and in study.json's notes; give it fewer iterations or a larger "
                          f"cpu_seconds) or a bot that "
                          f"is not deterministic for its seed")
    return again["state"]
