"""A round-robin of bot specs (the levels) per game, rated with 95 % intervals, with a
95 % interval per pairing and each spec's CPU time per move.

Every pair of specs plays a seat-rotated duplicate arena (bots/runner.py): the first
spec in one seat (one team in Watten) and the second in the others, every rotation on
the same deal; with more than two seats both line-ups are played.  Each game is one
result between the two: the side whose seats took the larger mean share of the win
wins it (equal shares draw).

Ratings: Elo from a Bradley–Terry model fitted to all games at once (`rate`: maximum
a posteriori with a weak prior, scipy's optimiser, Laplace intervals).  Not an online
rating such as openskill or TrueSkill: those depend on the order of the games, and a
board grown run by run (a level that played only its neighbour, and early) came out
below a level it had beaten head to head.

Pairings of neighbours in the given order (easy–medium, medium–hard, ...) decide
whether each step is significant; the others only anchor the ratings, so they may be
given fewer games (`far_games`), which keeps a run with the expert affordable.

CPU per move: each bot's choices are timed with the thread's CPU clock (what the bot
computed, not how busy the machine was), counting only decisions with more than one
legal action.  The saved data (`bots/leaderboard.json`) feeds docs/leaderboard.md and
the web app's rules pages.
"""

from __future__ import annotations

import functools
import json
import math
import shlex
import time
from dataclasses import asdict, dataclass, field, replace
from importlib import resources
from itertools import combinations
from pathlib import Path
from typing import Any, Callable, Sequence

from ..core.chance import derive_seed
from ..core.errors import BadOption
from ..core.messages import Reason, term
from ..core.paths import write_file
from ..core.protocol import Game
from ..core.registry import load
from ..core.stats import Estimate, wilson
from .arena import parse_bots
from .base import Bot, Decision
from .runner import (DuplicateSeating, Series, WorkerDiedError, add_cut_short, cut_short_by_bot, cut_short_reasons,
                     open_backend, run_series, whole_groups)
from .specs import BotSpec, bot_specs_given, parse_bot_spec

DATA_VERSION = 1


@dataclass(frozen=True)
class Rating:
    spec: str
    mu: float
    sigma: float

    @property
    def low(self) -> float:
        return self.mu - 1.96 * self.sigma

    @property
    def high(self) -> float:
        return self.mu + 1.96 * self.sigma


@dataclass(frozen=True)
class Cpu:
    """A spec's CPU time over its decisions with a choice."""

    seconds: float = 0.0
    moves: int = 0

    @property
    def per_move(self) -> float:
        return self.seconds / self.moves if self.moves else 0.0

    def __add__(self, other: "Cpu") -> "Cpu":
        return Cpu(self.seconds + other.seconds, self.moves + other.moves)


OUTCOME = {"1": 1.0, "=": 0.5, "0": 0.0}


@dataclass(frozen=True)
class Pairing:
    first: str
    second: str
    outcomes: str         # per game, in play order: 1 the first spec won, 0 it lost, = even
    first_cpu: Cpu = Cpu()
    second_cpu: Cpu = Cpu()
    # the seeds of the deals these games were played on (`play_pairing`'s, derived from
    # the run's --seed and the two specs), in order; empty where not known (data saved
    # before they were recorded)
    seeds: tuple[int, ...] = ()

    @property
    def games(self) -> int:
        return len(self.outcomes)

    @property
    def wins(self) -> float:
        """The first spec's games won (½ for a draw)."""
        return sum(OUTCOME[c] for c in self.outcomes)

    @property
    def share(self) -> Estimate:
        """The first spec's per-game win share with its 95 % Wilson interval."""
        return wilson(self.wins, self.games)

    @property
    def significant(self) -> bool:
        """The first spec's share differs from ½ at 95 %."""
        return self.share.excludes(0.5)

    def flipped(self) -> "Pairing":
        return Pairing(self.second, self.first, self.outcomes.translate(str.maketrans("10", "01")),
                       self.second_cpu, self.first_cpu, self.seeds)

    def joined(self, other: "Pairing") -> "Pairing":
        """This pairing and `other` (the same two specs, either way round) as one.  Only
        `other` played on deals of other seeds adds its games; a run on any seed these
        games already hold (or on unknown seeds) replayed the same deals, so its games
        replace these."""
        if {other.first, other.second} != {self.first, self.second}:
            raise ValueError(f"{other.first}–{other.second} is not the pairing {self.first}–{self.second}")
        if (other.first, other.second) != (self.first, self.second):
            other = other.flipped()
        if other.replays(self):
            return other
        return Pairing(self.first, self.second, self.outcomes + other.outcomes, self.first_cpu + other.first_cpu,
                       self.second_cpu + other.second_cpu, self.seeds + other.seeds)

    def replays(self, before: "Pairing") -> bool:
        """This run's games replace `before`'s rather than add to them (`joined`): it played
        deals of a seed they hold, or the seeds of either are unknown."""
        return not before.seeds or not self.seeds or bool(set(before.seeds) & set(self.seeds))

    def to_json(self) -> dict[str, Any]:
        return {"first": self.first, "second": self.second, "outcomes": self.outcomes,
                "first_cpu": asdict(self.first_cpu), "second_cpu": asdict(self.second_cpu),
                "seeds": list(self.seeds)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "Pairing":
        if set(d["outcomes"]) - set(OUTCOME):
            raise ValueError(f"outcomes of {d['first']}–{d['second']} may hold only 1, 0 and =")
        seeds = d.get("seeds", [])
        if not isinstance(seeds, list) or not all(type(x) is int for x in seeds):
            raise ValueError(f"seeds of {d['first']}–{d['second']} must be a list of whole numbers")
        return cls(d["first"], d["second"], d["outcomes"], Cpu(**d["first_cpu"]), Cpu(**d["second_cpu"]),
                   tuple(seeds))


@dataclass(frozen=True)
class Leaderboard:
    game: str
    options: dict[str, Any]
    ratings: list[Rating]      # best first
    pairings: list[Pairing]
    cpu: dict[str, Cpu]
    commands: list[str] = field(default_factory=list)   # what played these pairings

    @classmethod
    def build(cls, game: str, options: dict[str, Any], pairings: list[Pairing],
              commands: list[str] = (), rated: bool = True) -> "Leaderboard":
        """The board of these pairings: rated (unless not `rated`), each spec's CPU summed."""
        cpu: dict[str, Cpu] = {}
        for p in pairings:
            cpu[p.first] = cpu.get(p.first, Cpu()) + p.first_cpu
            cpu[p.second] = cpu.get(p.second, Cpu()) + p.second_cpu
        return cls(game, dict(options), rate(pairings) if rated else [], list(pairings), cpu, list(commands))

    def rating(self, spec: str) -> Rating | None:
        return next((r for r in self.ratings if r.spec == spec), None)

    def pairing(self, a: str, b: str) -> Pairing | None:
        """The pairing of `a` and `b` as seen from `a`."""
        for p in self.pairings:
            if (p.first, p.second) == (a, b):
                return p
            if (p.first, p.second) == (b, a):
                return p.flipped()
        return None

    def merged(self, other: "Leaderboard") -> "Leaderboard":
        """This board with `other`'s pairings added and re-rated: a pair played again on
        new deals (another run seed) gains the new games, a pair replayed on the same
        deals is replaced (`Pairing.joined`)."""
        if other.options != self.options:
            return other
        saved = {frozenset((p.first, p.second)): p for p in self.pairings}
        pairings = list(self.pairings)
        for p in other.pairings:
            old = saved.get(frozenset((p.first, p.second)))
            if old is None:
                pairings.append(p)
            else:
                pairings[pairings.index(old)] = old.joined(p)
        # replayed in the order they ran, a command run again at both places: moved to the end
        # first, the replay no longer matched the pairs' seeds (a run of seed 2, one of seed 3,
        # seed 2 again held seed 2's games alone but listed both), and every command was kept
        return Leaderboard.build(self.game, self.options, pairings,
                                 live_commands(list(self.commands) + other.commands, pairings))

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "options": self.options, "commands": self.commands,
                "ratings": [asdict(r) for r in self.ratings],
                "pairings": [p.to_json() for p in self.pairings]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Leaderboard":
        """A saved board with its saved ratings (the rules pages need no optimiser)."""
        pairings = [Pairing.from_json(p) for p in data["pairings"]]
        # the runs whose games the board holds, as a merge lists them (boards saved before a
        # merge did so still named runs a replay had since replaced)
        commands = live_commands(data.get("commands", []), pairings)
        board = cls.build(data["game"], data.get("options", {}), pairings, commands, rated=False)
        return replace(board, ratings=[Rating(**r) for r in data["ratings"]])


def _merges_of(command: str) -> list[tuple[frozenset[str], tuple[int, ...]]] | None:
    """What a recorded command merged into its game's board, merge by merge in order: each
    pair it played with the deal seeds of those games (`play_pairing`'s).  The two forms the
    boards record: the leaderboard's own line (cli/leaderboard.py: one board, a seed per pair
    from the run's --seed) and `python bench/pairing.py ... --data` (chunk k on seed SEED + k,
    each merged as played).  None for any other text: what it played is not known."""
    try:
        words = shlex.split(command)
        if words[:2] == ["wasserspiele", "leaderboard"] and len(words) % 2 == 1:
            flags = dict(zip(words[3::2], words[4::2]))  # the game, then --flag value
            if not set(flags) <= {"--bots", "--games", "--far-games", "--seed"}:
                return None
            specs = [s.text for s in bot_specs_given(flags["--bots"])]
            games = int(flags["--games"])
            far = int(flags.get("--far-games", games))
            seed = int(flags["--seed"])
            # round_robin's pairings: neighbours play --games, the others --far-games (0: none)
            return [(frozenset((a, b)), (derive_seed(seed, "pairing", a, b),))
                    for i, a in enumerate(specs) for j, b in enumerate(specs)
                    if i < j and (games if j == i + 1 else far) >= 1]
        if words[:2] == ["python", "bench/pairing.py"] and len(words) >= 9:
            if "--data" not in words[9:]:
                return []  # without --data it merged nothing into a board
            a, b = parse_bot_spec(words[3]).text, parse_bot_spec(words[4]).text
            chunks, seed = int(words[5]), int(words[7])
            return [(frozenset((a, b)), (seed + k,)) for k in range(chunks)]
    except (ValueError, KeyError):  # BadOption is a ValueError: a spec this code no longer reads
        return None
    return None


def live_commands(commands: Sequence[str], pairings: Sequence[Pairing]) -> list[str]:
    """`commands` (in the order they ran) less those none of whose games `pairings` hold any
    more: a run whose every pair was since replayed on a deal it held (`Pairing.joined`
    replaced the whole pair) no longer plays any of the board, and listing it under the game
    claimed games that are not there.  The merges are replayed in order as `joined` makes
    them; the commands are kept as they are when one of them is not of a form the boards
    record (`_merges_of`), or when the replay does not end with exactly the pairs' deal seeds
    (data merged by other means).  A command run more than once is listed once, where it last
    ran."""
    def once(kept: Sequence[str]) -> list[str]:
        return [c for i, c in enumerate(kept) if c not in kept[i + 1:]]

    held: dict[frozenset[str], list[tuple[str, tuple[int, ...]]]] = {}
    for command in commands:
        merges = _merges_of(command)
        if merges is None:
            return once(commands)
        for pair, seeds in merges:
            runs = held.setdefault(pair, [])
            if set(seeds) & {s for _, played in runs for s in played}:
                runs.clear()  # a replay of a deal the pair holds replaces the pair's games
            runs.append((command, seeds))
    actual = {frozenset((p.first, p.second)): p.seeds for p in pairings}
    replayed = {pair: tuple(s for _, seeds in runs for s in seeds) for pair, runs in held.items()}
    if actual != replayed:
        return once(commands)
    live = {command for runs in held.values() for command, _ in runs}
    return once([c for c in commands if c in live])

ELO = 400 / math.log(10)   # Elo points per unit of log-odds
PRIOR_SD = 3.0             # log-odds: keeps a spec that won (or lost) every game finite


def rate(pairings: list[Pairing]) -> list[Rating]:
    """Elo ratings of the specs from all games of the pairings, best first.

    A Bradley–Terry model (P(a beats b) = 1 / (1 + exp(θb − θa)), a draw half a win)
    fitted by maximum a posteriori with a weak normal prior on each θ (sd `PRIOR_SD`),
    minimised by scipy; ratings are relative to the board's mean (1500), and the
    interval is the posterior's normal (Laplace) approximation from the Hessian.  Unlike an online rating (Elo or TrueSkill updated game by game)
    the fit does not depend on the order of the games, so a spec that beat another
    head to head cannot end below it for having played its games early; unlike a
    bootstrap, the interval stays honest when one side won every game."""
    import numpy as np
    from scipy.optimize import minimize
    specs = list(dict.fromkeys(x for p in pairings for x in (p.first, p.second)))
    if not specs:
        return []
    index = {x: i for i, x in enumerate(specs)}
    pairs = [(index[p.first], index[p.second], p.wins, p.games) for p in pairings if p.games]
    n = len(specs)

    def objective(theta):
        value = float(theta @ theta) / (2 * PRIOR_SD ** 2)
        grad = theta / PRIOR_SD ** 2
        for a, b, wins, games in pairs:
            d = theta[a] - theta[b]
            # −log-likelihood: wins·log(1+e^−d) + losses·log(1+e^d)
            value += wins * np.logaddexp(0.0, -d) + (games - wins) * np.logaddexp(0.0, d)
            g = games / (1 + np.exp(-d)) - wins
            grad[a] += g
            grad[b] -= g
        return value, grad

    def hessian(theta):
        h = np.eye(n) / PRIOR_SD ** 2
        for a, b, _, games in pairs:
            p = 1 / (1 + np.exp(-(theta[a] - theta[b])))
            w = games * p * (1 - p)
            h[a, a] += w
            h[b, b] += w
            h[a, b] -= w
            h[b, a] -= w
        return h

    fit = minimize(objective, np.zeros(n), jac=True, hess=hessian, method="trust-exact")
    # ratings relative to the board's mean (1500): the games say nothing about where the
    # whole board sits, so that uncertainty (the prior's) is left out of the intervals
    centre = np.eye(n) - 1.0 / n
    theta = centre @ fit.x
    sd = np.sqrt(np.clip(np.diag(centre @ np.linalg.inv(hessian(fit.x)) @ centre.T), 0.0, None))
    table = [Rating(x, 1500 + ELO * float(theta[i]), ELO * float(sd[i])) for x, i in index.items()]
    return sorted(table, key=lambda r: -r.mu)


# ----------------------------------------------------------------------------- timing the bots
# The CPU time of the game being played, per bot index, in this process.  A game is
# played start to finish in one process (whatever the backend), its bots are made
# before its observer, and the observer's `finish` hands the tally back with the
# game's result — the one channel from a worker process to the caller.
_tally: dict[int, list[float]] = {}


class _TimedBot:
    def __init__(self, bot: Bot, index: int):
        self.bot = bot
        self.index = index

    def choose(self, decision: Decision):
        if len(decision.legal) < 2:
            return self.bot.choose(decision)
        start = time.thread_time()
        action = self.bot.choose(decision)
        seconds = time.thread_time() - start
        spent = _tally.setdefault(self.index, [0.0, 0])
        spent[0] += seconds
        spent[1] += 1
        return action


@dataclass(frozen=True)
class _Timed:
    """A bot maker whose bots add their CPU time to this process's tally."""

    spec: BotSpec
    index: int

    @property
    def text(self) -> str:
        return self.spec.text

    def make(self, game: Game, seed: int | None) -> _TimedBot:
        return _TimedBot(self.spec.make(game, seed), self.index)


class _CpuObserver:
    """Starts the tally for a game and returns it as the game's measures."""

    per_step = False

    def __init__(self, game: Game):
        _tally.clear()

    def step(self, state, action, seat) -> None:  # pragma: no cover - per_step is False
        pass

    def finish(self, state) -> dict[str, float]:
        out = {}
        for index, (seconds, moves) in _tally.items():
            out[f"cpu{index}"] = seconds
            out[f"moves{index}"] = float(moves)
        _tally.clear()
        return out


# ----------------------------------------------------------------------------- the round-robin
def pairing_group(game: Game) -> int:
    """The games of a pairing come in whole groups of this many: every rotation of the
    line-up over the seats (teams) on one deal, so no seat's advantage or deal's luck
    favours either bot, and with more than two seats (teams) both line-ups (`play_pairing`)."""
    teams = len(game.teams)
    return teams * (2 if teams > 2 else 1)


def pairing_games(game: Game, games: int) -> int:
    """How many games `play_pairing` plays when asked for `games`: rounded up to whole
    groups (`pairing_group`; Wasserloch's three seats: 6, Watten: 2)."""
    return whole_groups(games, pairing_group(game))


def play_pairing(name: str, options: dict[str, Any], a: BotSpec, b: BotSpec, games: int, seed: int,
                 jobs: int = 1, on_progress: Callable[[int], None] | None = None,
                 on_cut_short: Callable[[list[Reason]], None] | None = None) -> Pairing:
    """`games` games of `a` against `b`, rounded up to whole groups (`pairing_games`).

    With more than two seats (teams) the first spec of a line-up sits in one and the
    second in all the others, so an equal bot would win only one game in `players`:
    the pairing plays both line-ups, half the games each, on the same deals.

    `on_cut_short`: told, once the pairing is played, the moves a search's CPU safety net
    cut short per bot (`bots.runner.cut_short_reasons`; nothing when none was), which the
    workers then do not log (a line a bot and game on stderr)."""
    game = load(name, **options)
    orders = [(a, b), (b, a)] if len(game.teams) > 2 else [(a, b)]
    per_order = -(-games // len(orders))
    outcomes = []
    cpu = {a.text: Cpu(), b.text: Cpu()}
    cut: dict[str, tuple[int, int]] = {}  # per bot: the moves the safety net cut short, and its moves
    for first, second in orders:
        series = Series(name, tuple(options.items()), (_Timed(first, 0), _Timed(second, 1)), seed,
                        DuplicateSeating(), observer=_CpuObserver, net_reported=on_cut_short is not None)
        with open_backend("process", jobs) as runner:
            played, interrupted = run_series(series, per_order, progress=on_progress, runner=runner)
        if interrupted:
            # a pairing cut short is no pairing: the leaderboard keeps the boards played whole
            # (cli/leaderboard.py), whether Ctrl-C or a worker process's death stopped it
            raise KeyboardInterrupt if runner.failure is None else WorkerDiedError(runner.failure)
        add_cut_short(cut, cut_short_by_bot(played, [first.text, second.text]))
        for g in played:
            mine = [g.returns[s] for s, k in enumerate(g.lineup) if k == 0]
            theirs = [g.returns[s] for s, k in enumerate(g.lineup) if k == 1]
            edge = sum(mine) / len(mine) - sum(theirs) / len(theirs)
            if first is b:
                edge = -edge
            # per game: a's side did better per seat (1), worse (0) or even (=)
            outcomes.append("1" if edge > 0 else "0" if edge < 0 else "=")
            for k, spec in enumerate((first.text, second.text)):
                cpu[spec] += Cpu(g.measures.get(f"cpu{k}", 0.0), int(g.measures.get(f"moves{k}", 0)))
    if on_cut_short is not None and cut:
        on_cut_short(cut_short_reasons(cut))
    return Pairing(a.text, b.text, "".join(outcomes), cpu[a.text], cpu[b.text], (seed,))


def check_bot_count(specs: Sequence[str]) -> None:
    """A leaderboard ranks two bots or more (one bot has no pairing to play)."""
    if len(specs) < 2:
        raise BadOption(f"--bots: a leaderboard ranks two bots or more, got {len(specs)} ({', '.join(specs) or 'none'})")


def checked_specs(game, specs: list[str]) -> list:
    """The bots of a round-robin of `game`, parsed; refused (BadOption) as a leaderboard
    cannot rank them: fewer than two, or one named twice.  The command checks every game's
    before it plays the first (a spec only a later game refuses lost the earlier boards)."""
    parsed = parse_bots(specs, game)
    texts = [s.text for s in parsed]
    check_bot_count(texts)
    if len(set(texts)) != len(texts):
        raise BadOption(f"--bots: a spec is named twice ({', '.join(texts)})")
    return parsed


def round_robin(name: str, options: dict[str, Any], specs: list[str], games: int, seed: int = 0,
                jobs: int = 1, on_progress: Callable[[int], None] | None = None,
                far_games: int | None = None, command: str = "",
                on_cut_short: Callable[[list[Reason]], None] | None = None) -> Leaderboard:
    """Play every pairing of `specs` (`games` games for neighbours in the list,
    `far_games` for the others; 0 skips them) and rate them (`on_cut_short`: as
    `play_pairing`'s)."""
    game = load(name, **options)
    parsed = checked_specs(game, specs)
    far = games if far_games is None else far_games
    pairings = []
    for i, (ia, ib) in enumerate(combinations(range(len(parsed)), 2)):
        count = games if ib == ia + 1 else far
        if count >= 1:
            pair_seed = derive_seed(seed, "pairing", parsed[ia].text, parsed[ib].text)
            pairings.append(play_pairing(name, options, parsed[ia], parsed[ib], count, pair_seed, jobs, on_progress,
                                         on_cut_short))
    return Leaderboard.build(name, options, pairings, [command] if command else [])


# ----------------------------------------------------------------------------- saved boards
def packaged_data() -> Path:
    """The leaderboard data shipped with the package (read by the rules pages)."""
    return Path(str(resources.files(__package__).joinpath("leaderboard.json")))


def read_boards(path: Path | None = None) -> dict[str, Leaderboard]:
    """The saved boards by game ({} when there is no file)."""
    path = path or packaged_data()
    if not path.is_file():
        return {}
    stat = path.stat()
    return dict(_read_cached(path, stat.st_mtime_ns, stat.st_size))


@functools.lru_cache(maxsize=4)
def _read_cached(path: Path, mtime: int, size: int) -> dict[str, Leaderboard]:
    # keyed by the file's modification time and size: the rules pages read the boards
    # on every request
    return _load(path)


_JSON_KIND = {dict: "an object", list: "a list", str: "a text", bool: "true or false", type(None): "null",
              int: "a number", float: "a number"}


def _kind(value: Any) -> str:
    """What a JSON value is, in words (not Python's type name)."""
    return _JSON_KIND.get(type(value), "a value")


def board_problem(name: Any, board: Any) -> str | None:
    """What is missing or wrong in the saved board `name` (one entry of the data's "boards"), in plain
    words naming the board and the field, or None: a malformed file was refused with Python's own
    words ("('list' object has no attribute 'get')", "Rating.__init__() missing 2 required positional
    arguments"), and a board of a game this code does not have was rendered as if it were one."""
    from ..core.registry import game_names

    if name not in game_names():
        return f"board {name!r} is not a game (games: {', '.join(game_names())})"
    where = f"board {name!r}"
    if not isinstance(board, dict):
        return f"{where} is {_kind(board)}, not an object"

    def field_problem(where: str, obj: dict, key: str, kinds: tuple[type, ...], what: str,
                      required: bool = True) -> str | None:
        if key not in obj:
            return f"{where} has no {key!r} ({what})" if required else None
        value = obj[key]
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            return f"{where}: {key!r} is {_kind(value)}, expected {what}"
        return None

    def unknown_fields(where: str, obj: dict, known: set[str]) -> str | None:
        extra = sorted(set(obj) - known)
        return f"{where}: {', '.join(map(repr, extra))} is not a field" if extra else None

    number = (int, float)
    problem = (field_problem(where, board, "game", (str,), "the game's name")
               or field_problem(where, board, "options", (dict,), "an object of game options", required=False)
               or field_problem(where, board, "commands", (list,), "a list of command lines", required=False)
               or field_problem(where, board, "ratings", (list,), "a list of ratings")
               or field_problem(where, board, "pairings", (list,), "a list of pairings"))
    if problem:
        return problem
    if board["game"] != name:
        return f"{where} says it is of the game {board['game']!r}"
    for i, r in enumerate(board["ratings"], 1):
        at = f"{where}, rating {i}"
        if not isinstance(r, dict):
            return f"{at} is {_kind(r)}, not an object"
        problem = (field_problem(at, r, "spec", (str,), "a bot spec")
                   or field_problem(at, r, "mu", number, "a number, the rating")
                   or field_problem(at, r, "sigma", number, "a number, the rating's standard error")
                   or unknown_fields(at, r, {"spec", "mu", "sigma"}))
        if problem:
            return problem
    for i, q in enumerate(board["pairings"], 1):
        at = f"{where}, pairing {i}"
        if not isinstance(q, dict):
            return f"{at} is {_kind(q)}, not an object"
        problem = (field_problem(at, q, "first", (str,), "a bot spec")
                   or field_problem(at, q, "second", (str,), "a bot spec")
                   or field_problem(at, q, "outcomes", (str,), "a text of 1, 0 and =")
                   or field_problem(at, q, "first_cpu", (dict,), "an object of seconds and moves")
                   or field_problem(at, q, "second_cpu", (dict,), "an object of seconds and moves")
                   or field_problem(at, q, "seeds", (list,), "a list of whole numbers", required=False))
        if problem:
            return problem
        for key in ("first_cpu", "second_cpu"):
            # either may be left out (none measured): `Cpu`'s defaults
            problem = (field_problem(f"{at}, {key}", q[key], "seconds", number, "a number", required=False)
                       or field_problem(f"{at}, {key}", q[key], "moves", (int,), "a whole number", required=False)
                       or unknown_fields(f"{at}, {key}", q[key], {"seconds", "moves"}))
            if problem:
                return problem
    return None


def _load(path: Path) -> dict[str, Leaderboard]:
    try:
        data = json.loads(path.read_text())
    except ValueError as exc:
        raise BadOption(f"{path}: not leaderboard data ({exc})") from None
    if not isinstance(data, dict):
        raise BadOption(f"{path}: not leaderboard data: {_kind(data)}, not an object with \"version\" and \"boards\"")
    version = data.get("version")
    if version != DATA_VERSION:
        # outside the try: a BadOption is a ValueError, which the handler below would wrap
        # again ("not leaderboard data (<path>: …)"); the version as JSON writes it
        # (`'2'` was text, `2` a number), not as Python's repr
        raise BadOption(f"{path}: leaderboard data version {term(version, 'shown', 'en')}, expected {DATA_VERSION}")
    boards = data.get("boards")
    if not isinstance(boards, dict):
        said = "no \"boards\"" if "boards" not in data else f"\"boards\" is {_kind(boards)}, not an object"
        raise BadOption(f"{path}: not leaderboard data: {said} (one board by game)")
    for name, board in boards.items():
        problem = board_problem(name, board)
        if problem:
            raise BadOption(f"{path}: not leaderboard data: {problem}")
    try:
        return {name: Leaderboard.from_json(b) for name, b in boards.items()}
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise BadOption(f"{path}: not leaderboard data ({exc})") from None


def replaced_games(before: Leaderboard | None, board: Leaderboard) -> list[str]:
    """What merging `board` into `before` replaces rather than adds to (`Pairing.joined`), in
    words: a run on a seed the saved games hold dropped them without a word (12 games of
    seeds 1 and 2 became the 6 of seed 1 played again)."""
    if before is None or before.options != board.options:
        return []
    saved = {frozenset((p.first, p.second)): p for p in before.pairings}
    said = []
    for p in board.pairings:
        old = saved.get(frozenset((p.first, p.second)))
        if old is not None and p.replays(old):
            said.append(f"{old.first}–{old.second}: the {len(old.outcomes)} games saved before are replaced by this "
                        f"run's {len(p.outcomes)}: it replayed deals they hold (a --seed played before); "
                        f"another --seed adds its games")
    return said


def save_boards(boards: list[Leaderboard], path: Path) -> dict[str, Leaderboard]:
    """Merge `boards` into the data at `path` (their pairings replace the same pairs of
    the saved board of that game, which is re-rated; a board with other game options
    replaces the saved one); all boards."""
    merged = _load(path) if path.is_file() else {}
    for b in boards:
        merged[b.game] = merged[b.game].merged(b) if b.game in merged else b
    # every board rated afresh by this code, so the saved ratings never lag behind it
    merged = {k: Leaderboard.build(b.game, b.options, b.pairings, b.commands) for k, b in merged.items()}
    ordered = dict(sorted(merged.items()))
    # beside it and renamed (core/paths.py WriteFailed if that fails): a full disk cut the file
    # short in place, and every board saved in it before was lost with the run's
    write_file(path, json.dumps({"version": DATA_VERSION, "boards": {k: b.to_json() for k, b in ordered.items()}},
                                indent=1, ensure_ascii=False) + "\n")
    return ordered


# ----------------------------------------------------------------------------- pages
def _ms(seconds: float) -> str:
    ms = 1000 * seconds
    return "< 1 ms" if ms < 1 else f"{ms:.0f} ms"


def _verdict(step: Pairing) -> str:
    if step.share.low > 0.5:
        return "significant"
    return "**reversed**" if step.share.high < 0.5 else "**not significant**"


def markdown(boards: list[Leaderboard], note: str = "") -> str:
    """The leaderboards as a Markdown page (docs/leaderboard.md)."""
    out = ["# Leaderboard", "",
           "A round-robin of the levels per game. `wasserspiele leaderboard --data "
           "src/wasserspiele/bots/leaderboard.json --out docs/leaderboard.md` replays every board at "
           "once (every level, 40 games a pairing: hours of CPU with the expert); the commands under each "
           "game replay what is shown, run by run, each run merged into the saved data (the web app's "
           "rules pages read it): a pairing played again with another `--seed` gains those games "
           "(new deals), one replayed with a seed it was played with is replaced, and a run none of "
           "whose games are left is dropped from the list. Every pairing "
           "plays seat-rotated on duplicate deals: with more than two seats both line-ups (one bot against the other in every "
           "other seat, then the other way round) on the same deals; Watten team against team. "
           "So a pairing's games come in whole groups, every line-up in every seat (team) on one deal "
           "(Wasserloch's three seats: 6 games, two seats or teams: 2), and `--games` is rounded up to "
           "whole groups (the command's progress line says how many each pairing plays). "
           "Neighbours in the strength order play the most games: they decide whether each step "
           "is significant. Ratings: Elo from a Bradley–Terry model fitted to all games of the board "
           "at once (maximum a posteriori with a weak prior, so a bot that won every game stays "
           "finite), ± 1.96 posterior sd. Pairings: the "
           "first bot's per-game win share against the second (½ for a draw) with its 95 % Wilson "
           "interval; **bold** where it differs from ½ at 95 %. The games of one deal are "
           "correlated, so the Wilson intervals are if anything a little narrow. CPU: the bot's "
           "thread CPU time per decision with a choice, measured during these games (on a busy "
           "shared machine CPU time runs somewhat above an idle core's).", ""]
    if note:
        out += [note, ""]
    for board in boards:
        opts = ", ".join(f"{k}={v}" for k, v in board.options.items())
        out += [f"## {board.game}" + (f" ({opts})" if opts else ""), ""]
        if board.commands:
            out += ["Played by " + "; ".join(f"`{c}`" for c in board.commands) + ".", ""]
        out += ["| rank | bot | rating | 95 % interval | CPU per move | moves timed |", "|---|---|---|---|---|---|"]
        for i, r in enumerate(board.ratings, 1):
            c = board.cpu.get(r.spec, Cpu())
            out.append(f"| {i} | {r.spec} | {r.mu:.1f} | {r.low:.1f} … {r.high:.1f} | {_ms(c.per_move)} | {c.moves} |")
        steps = level_steps(board)
        if steps:
            out += ["", "Steps between the levels: " + "; ".join(
                f"{p.first} over {p.second} {p.share.value:.2f} [{p.share.low:.2f}, {p.share.high:.2f}] "
                f"of {p.games} ({_verdict(p)})" for p in steps) + "."]
        out += ["", "| first | second | games | first's share | 95 % CI |", "|---|---|---|---|---|"]
        for p in board.pairings:
            share = f"{p.share.value:.2f}"
            if p.significant:
                share = f"**{share}**"
            out.append(f"| {p.first} | {p.second} | {p.games} | {share} | {p.share.low:.2f} … {p.share.high:.2f} |")
        out.append("")
    return "\n".join(out)


LEVEL_ORDER = ("easy", "medium", "hard", "expert")


def level_steps(board: Leaderboard) -> list[Pairing]:
    """Each level against the level below it (as far as the board has both), seen from the upper."""
    levels = [lv for lv in LEVEL_ORDER if board.rating(lv) is not None]
    return [p for lower, upper in zip(levels, levels[1:]) if (p := board.pairing(upper, lower)) is not None]


def levels_section(game: str, lang: str, path: Path | None = None) -> str:
    """"What the levels mean" for a rules page, in Markdown: each level's rating interval,
    CPU per move and win share against the level below, from the saved leaderboard
    ('' when the game has no saved board)."""
    from ..core.messages import text
    board = read_boards(path).get(game)
    if board is None:
        return ""
    out = [f"## {text('rules.levels.title', lang)}", "", text("rules.levels.intro", lang), "",
           f"| {text('rules.levels.level', lang)} | {text('rules.levels.about', lang)} "
           f"| {text('rules.levels.rating', lang)} | {text('rules.levels.cpu', lang)} "
           f"| {text('rules.levels.step', lang)} |", "|---|---|---|---|---|"]
    steps = {p.first: p for p in level_steps(board)}
    played = load(game)
    for level in LEVEL_ORDER:
        r = board.rating(level)
        if r is None:
            continue
        c = board.cpu.get(level, Cpu())
        step = "–"
        if level in steps:
            p = steps[level]
            s = p.share
            step = text("rules.levels.share", lang, value=round(100 * s.value), low=round(100 * s.low),
                        high=round(100 * s.high), n=p.games, below=text(f"web.level_{p.second}", lang))
        out.append(f"| {text(f'web.level_{level}', lang)} | {_about(level, played, lang)} "
                   f"| {r.mu:.0f} ({r.low:.0f} … {r.high:.0f}) | {_ms(c.per_move)} | {step} |")
    out += ["", text("rules.levels.source", lang), ""]
    return "\n".join(out)


def _about(level: str, game: Game, lang: str) -> str:
    """How the bot of `level` plays `game`, for the levels table: a level a game gives to
    another level's kind of bot (Watten's `hard` is the heuristic) reads as that level's
    bot, and a bot with slips (`blunder`) says how often it plays at random."""
    from ..core.messages import text
    from .levels import LEVELS, level_settings
    kind, kwargs = level_settings(level, game)
    if kwargs.get("blunder"):
        return text("rules.levels.about_slips", lang, percent=round(100 * kwargs["blunder"]))
    if LEVELS[level][0] != kind:
        level = next((lv for lv, (k, _) in LEVELS.items() if k == kind), level)
    return text(f"rules.levels.about_{level}", lang)
