"""The shared benchmark (`./dev bench`): every speed figure of the project as a ratio to
a baseline measured in the same run.  Prints its figures; not a test.

Rates are per second of CPU time (time.process_time), so a figure taken while other
jobs share the cores still says what one core does.  Each ratio interleaves the two
sides (A B A B A B) and reports the median of the per-pair ratios, so a neighbour's
burst of load hits both sides alike.

Sections (default: all but instructions):
  engines   random games per game and option set, through `apply` (checked) and
            through `apply_legal` (trusted), each against the same path of the engines
            at --baseline REV (a git revision, default c54ea01: the engines before the
            lean rewrite; unpacked with `git archive`); both sides play the same
            seeded games in child processes; then the trusted path against the
            checked one, and clones
  search    ISMCTS µs per iteration per game (default settings), and iterations per
            CPU-second against the package at --baseline REV (its own default settings,
            300 iterations a position, both sides alternately in fresh processes)
  kernels   Wasserloch rounds per CPU-second: the compiled kernel against the Python
            engine, against the kernel at --kernel-baseline and against the kernel's
            pure-Python fallback
  instructions (named only, not in the default run: minutes under valgrind)
            machine instructions per random game of the engines' loop, counted by
            callgrind over --games A:B, this tree against --baseline on both paths,
            with the count 2x needs: figures that do not move with the machine's load
  adapters  PettingZoo AEC steps per CPU-second against connect_four_v3, and the
            batched Wasserloch VectorEnv's agent steps against the same baseline (the
            `bench` extra: pettingzoo, and pygame for connect_four_v3; without pygame
            the figures are given alone, the VectorEnv's needs numpy and gymnasium only)

    ./dev bench                       # everything, 1 s per side of each ratio
    ./dev bench engines -s 3 --baseline HEAD~5
    ./dev bench instructions wasserloch --games 100:1100
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from wasserspiele import game_names, load
from wasserspiele.core.registry import game_class

sys.path.insert(0, str(Path(__file__).parent))  # run as a script: the bench folder's modules
import ismcts  # noqa: E402
from ismcts import baseline_tree  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

# What one "game" means for each figure: Wasserloch is measured per round (rounds=1),
# as its targets are stated in rounds per second.
CONFIGS = {
    "wasserloch": [dict(players=3, rounds=1), dict(players=2, rounds=1), dict(players=4, rounds=1)],
    "wildwasser": [dict(players=2), dict(players=4), dict(players=6)],
}
REPEATS = 3


def configs(name: str) -> list[dict]:
    out = []
    for options in CONFIGS.get(name) or [{}]:
        if game_class(name).fixed_players:
            options = {k: v for k, v in options.items() if k != "players"}
        out.append(options)
    return out


def label(options: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "defaults"


def rate(run, seconds: float) -> float:
    """Units per CPU-second of `run() -> units`, repeated for `seconds` of CPU time."""
    units = 0
    start = time.process_time()
    end = start + seconds
    while time.process_time() < end:
        units += run()
    return units / (time.process_time() - start)


def interleaved(a, b, seconds: float) -> tuple[float, float, float]:
    """(median rate of a, median rate of b, median of the pairwise ratios a/b), each side
    measured REPEATS times for seconds / REPEATS, alternately."""
    ra, rb = [], []
    for _ in range(REPEATS):
        ra.append(a(seconds / REPEATS))
        rb.append(b(seconds / REPEATS))
    return statistics.median(ra), statistics.median(rb), statistics.median(x / y for x, y in zip(ra, rb))


# -- engines ---------------------------------------------------------------------------
# The engines before the lean rewrite of issue 17 (main at that time): the default
# baseline of the engine figures, so `./dev bench` keeps showing what the rewrite bought.
LEAN_BASELINE = "c54ea01"


def playouts(game, checked: bool = True):
    """A run() playing one uniformly random game (seeded) through apply, or through the
    trusted `apply_legal` (no turn and legality checks, as search plays)."""
    rng = random.Random(0)
    seeds = iter(range(10**9))

    def run() -> int:
        state = game.new_game(seed=next(seeds))
        if checked:
            while not state.is_terminal():
                seat = state.current_seat
                state.apply(rng.choice(state.legal_actions(seat)), seat)
        else:
            while not state.is_terminal():
                seat = state.current_seat
                state.apply_legal(rng.choice(state.legal_actions(seat)), seat)
        return 1
    return run


# Both engines of a comparison play in a child process of their own, from this text, so
# the two sides run the same loop on the same seeded games with the same interpreter: for
# CPU seconds (_CHILD) or, counted by callgrind, for a number of games (_COUNT_CHILD).  The
# loop runs at module level, as a script's does.
_LOOP = """
import random, sys{imports}
from wasserspiele import load
game = load(sys.argv[1], **eval(sys.argv[2]))
checked = sys.argv[4] == "checked"
rng = random.Random(0)
seed = games = 0
{before}
while {more}:
    state = game.new_game(seed=seed)
    seed += 1
    if checked:
        while not state.is_terminal():
            seat = state.current_seat
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    else:
        while not state.is_terminal():
            seat = state.current_seat
            state.apply_legal(rng.choice(state.legal_actions(seat)), seat)
    games += 1
{after}
"""
_CHILD = _LOOP.format(imports=", time", before="start = time.process_time()\nend = start + float(sys.argv[3])",
                      more="time.process_time() < end", after="print(games / (time.process_time() - start))")
_COUNT_CHILD = _LOOP.format(imports="", before="stop = int(sys.argv[3])", more="seed < stop", after="")


def child_rate(src: Path, name: str, options: dict, seconds: float, checked: bool = True) -> float:
    """Random games per CPU-second of the engine in `src`, measured in a child process."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run([sys.executable, "-c", _CHILD, name, repr(options), str(seconds),
                          "checked" if checked else "trusted"],
                         env=env, capture_output=True, text=True, check=True)
    return float(out.stdout)


def clones_per_second(game, seconds: float) -> float:
    rng = random.Random(1)
    positions = []
    for seed in range(20):
        state = game.new_game(seed=seed)
        for _ in range(rng.randrange(1, 30)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions(state.current_seat)), state.current_seat)
        positions.append(state)

    def run() -> int:
        for p in positions:
            p.clone()
        return len(positions)
    return rate(run, seconds)


def engines(names, seconds: float, rev: str) -> None:
    """Per game and option set: random games per CPU-second through `apply` (checked)
    and through `apply_legal` (trusted), each against the engine at `rev` on the same
    path, then the trusted path against the checked one and clones per CPU-second."""
    src = baseline_tree(rev) if rev else None
    mine = ROOT / "src"
    print(f"\n## engines: random games per CPU-second, this tree against {rev or 'nothing'} "
          f"(each in a child process, the same seeded games)")
    print(f"{'game':<14}{'options':<20}{'checked':>9}{'at ' + (rev or '-'):>12}{'ratio':>8}"
          f"{'trusted':>10}{'at ' + (rev or '-'):>12}{'ratio':>8}{'trust/chk':>11}{'clones/s':>11}")
    for name in names:
        for options in configs(name):
            row = f"{name:<14}{label(options):<20}"
            side = {}
            for path in ("checked", "trusted"):
                now = lambda s, p=path: child_rate(mine, name, options, s, p == "checked")  # noqa: E731
                if src is not None:
                    then = lambda s, p=path: child_rate(src, name, options, s, p == "checked")  # noqa: E731
                    side[path], old, ratio = interleaved(now, then, seconds)
                    row += f"{side[path]:>9,.0f}{old:>12,.0f}{ratio:>7.2f}×" if path == "checked" else \
                        f"{side[path]:>10,.0f}{old:>12,.0f}{ratio:>7.2f}×"
                else:
                    side[path] = now(seconds)
                    row += f"{side[path]:>9,.0f}{'':>20}" if path == "checked" else f"{side[path]:>10,.0f}{'':>20}"
            row += f"{side['trusted'] / side['checked']:>10.2f}×"
            row += f"{clones_per_second(load(name, **options), seconds / 2):>11,.0f}"
            print(row, flush=True)


# -- instructions --------------------------------------------------------------------------
# The games counted by default (`--games A:B`): the first 100 are left out (the counts are
# differences of two runs, so start-up cancels; these games warm the interpreter's caches).
COUNT_GAMES = (100, 400)


def _callgrind(src: Path, name: str, options: dict, games: int, path: str) -> subprocess.Popen:
    """valgrind's callgrind running the engines' loop of the package in `src` for `games` games."""
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.Popen(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                             "-c", _COUNT_CHILD, name, repr(options), str(games), path],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def _collected(run: subprocess.Popen) -> int:
    _, err = run.communicate()
    found = re.search(r"Collected : (\d+)", err)
    if run.returncode != 0 or found is None:
        raise RuntimeError(f"callgrind failed (exit {run.returncode}): {err.strip()[-500:]}")
    return int(found.group(1))


def instructions_per_game(src: Path, name: str, options: dict, path: str, games: tuple[int, int]) -> float:
    """Instructions per random game of the engines' loop (`apply` or `apply_legal`) of the
    package in `src`: the count of games 0 … B-1 less the count of games 0 … A-1, over B - A
    (the two runs at once, one on each core)."""
    first, last = games
    runs = [_callgrind(src, name, options, n, path) for n in (last, first)]
    more, fewer = (_collected(r) for r in runs)
    return (more - fewer) / (last - first)


def instructions(names, rev: str, games: tuple[int, int] = COUNT_GAMES) -> None:
    """Per game, option set and path: machine instructions per random game (callgrind), this
    tree against the same path at `rev`, and the count that would be twice as fast.  Unlike
    the rates these do not move with the machine's load: issue 17's lean passes were decided
    on them (docs/performance.md).  Needs valgrind; each game takes minutes under it."""
    if shutil.which("valgrind") is None:
        print("\n## instructions: skipped (valgrind is not installed: apt-get install valgrind)")
        return
    src = baseline_tree(rev) if rev else None
    print(f"\n## instructions per random game (callgrind, games {games[0]}–{games[1] - 1}), this tree against "
          f"{rev or 'nothing'}")
    print(f"{'game':<14}{'options':<20}{'path':<9}{'this tree':>12}{'at ' + (rev or '-'):>14}{'ratio':>8}"
          f"{'2× needs':>12}")
    for name in names:
        for options in configs(name):
            for path in ("checked", "trusted"):
                mine = instructions_per_game(ROOT / "src", name, options, path, games)
                row = f"{name:<14}{label(options):<20}{path:<9}{mine:>12,.0f}"
                if src is not None:
                    theirs = instructions_per_game(src, name, options, path, games)
                    row += f"{theirs:>14,.0f}{theirs / mine:>7.3f}×{theirs / 2:>12,.0f}"
                print(row, flush=True)


# -- search ----------------------------------------------------------------------------
# The budget both trees search each position for in the comparison: the figures
# are per iteration, and an equal budget keeps the two trees' work alike.
SEARCH_ITERATIONS = 300


def search(names, seconds: float, rev: str = "") -> None:
    """ISMCTS iterations per CPU-second per game (default settings, `seconds` of search);
    with `rev`, the same positions searched for the same iterations by the package at
    `rev` (its own default settings), alternately in fresh processes."""
    src = baseline_tree(rev) if rev else None
    print(f"\n## search: ISMCTS per CPU-second at five mid-game decisions (default settings)"
          + (f"; against {rev} at {SEARCH_ITERATIONS} iterations a position" if src else ""))
    print(f"{'game':<14}{'iterations/s':>14}{'µs/iteration':>14}"
          + (f"{'it/s':>10}{'at ' + rev:>12}{'ratio':>8}" if src else ""))
    for name in names:
        r = ismcts.rate(name, seconds=seconds / ismcts.POSITIONS)  # `seconds` in all, over the positions
        row = f"{name:<14}{r:>14,.0f}{1e6 / r:>14,.0f}"
        if src is not None:
            mine, theirs, ratio = ismcts.compare(src, name, SEARCH_ITERATIONS)
            row += f"{mine:>10,.0f}{theirs:>12,.0f}{ratio:>7.2f}×"
        print(row, flush=True)


# -- kernels ---------------------------------------------------------------------------
# Rounds per CPU-second of the kernel in a package tree, in a child process (after a
# warm-up that compiles or loads the compiled code): argv = seconds, policy, batch.
_KERNEL_CHILD = """
import sys, time
from wasserspiele.games.wasserloch import kernel as K
seconds, policy, batch = float(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
K.play_rounds(10, players=3, policies=policy)
n, t0 = 0, time.process_time()
while time.process_time() - t0 < seconds:
    K.play_rounds(batch, players=3, seed=n, policies=policy)
    n += batch
print(n / (time.process_time() - t0))
"""

# The Wasserloch kernel before its lean turn loop (issue 17 item 3): the default
# baseline of the kernel figures.
KERNEL_BASELINE = "9503715"


def kernel_child_rate(src: Path, seconds: float, policy: int, batch: int, fallback: bool = False) -> float:
    env = {**os.environ, "PYTHONPATH": str(src)}
    if fallback:
        env["NUMBA_DISABLE_JIT"] = "1"
    out = subprocess.run([sys.executable, "-c", _KERNEL_CHILD, str(seconds), str(policy), str(batch)], env=env,
                         capture_output=True, text=True, check=True)
    return float(out.stdout)


def kernels(names, seconds: float, rev: str = KERNEL_BASELINE) -> None:
    """Wasserloch rounds per CPU-second: the kernel against the Python engine (in this
    process), against the kernel at `rev` (both in child processes) and, with numba,
    against its own pure-Python fallback."""
    if "wasserloch" not in names:
        return
    from wasserspiele.fast import COMPILED
    from wasserspiele.games.wasserloch import kernel as K
    print(f"\n## kernels: Wasserloch one-round games per CPU-second, 3 players "
          f"({'numba' if COMPILED else 'pure Python: numba is not installed'})")
    K.play_rounds(10, 3)  # compile (or load the compiled code) before timing
    seeds = iter(range(10**9))
    batch = 10_000 if COMPILED else 100

    def kernel_rounds(policy):
        return lambda: len(K.play_rounds(batch, players=3, seed=next(seeds), policies=policy))

    engine = playouts(load("wasserloch", players=3, rounds=1))
    random_now, then, ratio = interleaved(lambda s: rate(kernel_rounds(K.RANDOM), s), lambda s: rate(engine, s),
                                          seconds)
    print(f"random seats   kernel {random_now:>12,.0f}   Python engine {then:>9,.0f}   {ratio:>6.1f}×  (target ≥ 300,000)")
    greedy = rate(kernel_rounds(K.GREEDY), seconds)
    print(f"greedy seats   kernel {greedy:>12,.0f}")
    src = baseline_tree(rev) if rev and COMPILED else None
    if src is not None:
        mine = ROOT / "src"
        for name, policy in (("random", K.RANDOM), ("greedy", K.GREEDY)):
            now, then, ratio = interleaved(lambda s, p=policy: kernel_child_rate(mine, s, p, batch),
                                           lambda s, p=policy: kernel_child_rate(src, s, p, batch), seconds)
            print(f"{name} seats   this tree {now:>12,.0f}   kernel at {rev} {then:>10,.0f}   {ratio:>5.2f}×  "
                  f"(child processes)", flush=True)
    if COMPILED:
        slow = kernel_child_rate(ROOT / "src", seconds, K.RANDOM, 200, fallback=True)
        print(f"pure-Python fallback {slow:>10,.0f}   compiled/fallback {random_now / slow:,.0f}×")


# -- adapters --------------------------------------------------------------------------
def aec_steps(make_env):
    """A run() playing one AEC episode with random legal actions; its agent steps."""
    import numpy as np
    env = make_env()
    rng = np.random.default_rng(0)
    seeds = iter(range(10**9))

    def run() -> int:
        env.reset(seed=next(seeds))
        n = 0
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
        return n
    return run


# What a figure that needs an optional package says without it (here and in bench/adapters.py).
EXTRAS_HINT = "install the bench extra: pip install -e '.[bench]', as `./dev bench` does"


def missing(exc: ImportError) -> str:
    return f"{exc}; {EXTRAS_HINT}"


def adapters(names, seconds: float) -> None:
    """Each game's PettingZoo AEC env (needs pettingzoo) and the WasserlochVectorEnv
    (numpy and gymnasium only) against connect_four_v3 (pettingzoo and pygame); a figure
    whose baseline is missing is given alone, one whose own package is missing is skipped."""
    try:
        from pettingzoo.classic import connect_four_v3
        four = aec_steps(connect_four_v3.env)
        four()  # warmed up as each figure is
        print("\n## adapters: agent steps per CPU-second against PettingZoo's connect_four_v3")
    except ImportError as exc:
        four = None
        print(f"\n## adapters: agent steps per CPU-second (no connect_four_v3 baseline: {missing(exc)})")

    def figure(what: str, run, ratio_format: str = "5.2f") -> None:
        run()  # one episode first: the codec's tables and the env's first reset are start-up, not steps
        if four is None:
            print(f"{what}{rate(run, seconds):>12,.0f} steps/s", flush=True)
            return
        now, then, ratio = interleaved(lambda s: rate(run, s), lambda s: rate(four, s), seconds)
        print(f"{what}{now:>12,.0f} steps/s   connect_four_v3 {then:>9,.0f}   {ratio:>{ratio_format}}×", flush=True)

    try:
        from wasserspiele.adapters.pettingzoo import env as make_env
    except ImportError as exc:
        print(f"PettingZoo AEC envs skipped ({missing(exc)})")
    else:
        for name in names:
            figure(f"{name + ' (AEC)':<36}", aec_steps(lambda n=name: make_env(n)))
    if "wasserloch" in names:
        try:
            vector = vector_steps()
        except ImportError as exc:
            print(f"WasserlochVectorEnv skipped ({missing(exc)})")
        else:
            figure(f"{'wasserloch (VectorEnv, 1,024 tables)':<36}", vector, "5.0f")


def vector_steps(envs=None):
    """A run() stepping a batched env (default: 1,024 Wasserloch tables) once with random legal actions."""
    import numpy as np
    if envs is None:
        from wasserspiele.games.wasserloch.vector import WasserlochVectorEnv
        envs = WasserlochVectorEnv(1024, players=3, seed=0, rounds=1)
    rng = np.random.default_rng(0)
    _obs, info = envs.reset()
    state = {"mask": info["action_mask"]}

    def run() -> int:
        noise = rng.random(state["mask"].shape) * state["mask"]
        _obs, _r, _t, _tr, info = envs.step(noise.argmax(axis=1))
        state["mask"] = info["action_mask"]
        return envs.num_envs
    return run


SECTIONS = {"engines": engines, "search": search, "kernels": kernels, "adapters": adapters,
            "instructions": instructions}
# what `./dev bench` runs when no section is named (instructions take minutes under valgrind)
DEFAULT_SECTIONS = ["engines", "search", "kernels", "adapters"]


def _game_range(text: str) -> tuple[int, int]:
    first, sep, last = text.partition(":")
    try:
        games = (int(first), int(last))
    except ValueError:
        games = None
    if not sep or games is None or not 0 <= games[0] < games[1]:
        raise argparse.ArgumentTypeError(f"{text!r} is not a range of games A:B with 0 <= A < B (e.g. 100:400)")
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", nargs="*", help=f"sections ({', '.join(SECTIONS)}) and/or games")
    parser.add_argument("-s", "--seconds", type=float, default=1.0, help="CPU seconds per side of each figure")
    parser.add_argument("--baseline", default=LEAN_BASELINE,
                        help=f"git revision of the baseline engines and search (default {LEAN_BASELINE}, "
                             "before issue 17's lean rewrite; '' for none)")
    parser.add_argument("--kernel-baseline", default=KERNEL_BASELINE,
                        help=f"git revision of the baseline Wasserloch kernel (default {KERNEL_BASELINE}, before "
                             "its lean turn loop; '' for none)")
    parser.add_argument("--games", type=_game_range, default=COUNT_GAMES, metavar="A:B",
                        help="instructions: the games counted, A to B-1 (default %d:%d)" % COUNT_GAMES)
    args = parser.parse_args()
    sections = [w for w in args.what if w in SECTIONS] or DEFAULT_SECTIONS
    names = [w for w in args.what if w not in SECTIONS] or game_names()
    unknown = [n for n in names if n not in game_names()]
    if unknown:
        parser.error(f"unknown section or game {unknown[0]!r} (sections: {', '.join(SECTIONS)}; "
                     f"games: {', '.join(game_names())})")
    for section in sections:
        if section == "engines":
            engines(names, args.seconds, args.baseline)
        elif section == "search":
            search(names, args.seconds, args.baseline)
        elif section == "kernels":
            kernels(names, args.seconds, args.kernel_baseline)
        elif section == "instructions":
            instructions(names, args.baseline, args.games)
        else:
            SECTIONS[section](names, args.seconds)


if __name__ == "__main__":
    main()
