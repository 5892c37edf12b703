"""`wasserspiele train` (the learned bot's weights) and `wasserspiele corpus` (expert games
with the search's visit counts, for offline learning)."""

from __future__ import annotations

import json
import math
import os
import re
import shlex
import sys
from pathlib import Path

import click

from ..core.errors import WasserspieleError
from ..core.options import number_text
from ..core.paths import write_problem
from ..core.registry import game_class, load
from .language import quoted
from .entry import say, uninterrupted
from .flags import DECIMAL, WHOLE, writable


def _games(n: int) -> str:
    """`n` games in the corpus command's English ("1 game", "2 games"): its lines are plain
    text, not catalogue entries with plural forms."""
    return f"{n} game{'' if n == 1 else 's'}"


def _game(game: str, options: tuple[str, ...]):
    from .main import parse_options_for
    opts = parse_options_for(game, list(options))
    return load(game_class(game).name, **opts)


def _at_least_1(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """A count (games, generations, iterations, ...) checked when the command line is
    read: 0 or less would fail deep in the training (numpy's "negative dimensions") or
    silently do nothing, after the game was loaded and maybe hours were spent."""
    if value is not None and value < 1:
        raise click.BadParameter(f"must be at least 1, not {value}", ctx=ctx, param=param)
    return value


def _search_count(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """--iterations and --rollout-depth of the expert's search, from 1 to the most a bot
    spec takes (bots/ismcts.py MAX_ITERATIONS, MAX_COUNT), checked when the command line
    is read: the search's own refusal came once the game was loaded, not naming the flag,
    and for `corpus` after an earlier corpus in --out was deleted."""
    from ..bots.ismcts import MAX_COUNT, MAX_ITERATIONS
    _at_least_1(ctx, param, value)
    most = MAX_ITERATIONS if param.name == "iterations" else MAX_COUNT
    if value is not None and value > most:
        raise click.BadParameter(f"must be at most {most}, not {value}", ctx=ctx, param=param)
    return value


def _above_0(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """A power or constant that only makes sense above 0 (--sharpen, --guide-exploration);
    nan and infinity are refused too (visit shares to the power inf are 0/0)."""
    if value is not None and not (value > 0 and math.isfinite(value)):
        raise click.BadParameter(f"must be above 0 and finite, not {value:g}", ctx=ctx, param=param)
    return value


def _hidden_sizes(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[int, ...] | None:
    """--hidden 128,64 as (128, 64): every layer at least one unit wide.  A size of 0
    used to train a network that could learn nothing, a negative one ended in numpy's
    traceback "negative dimensions are not allowed"."""
    if value is None:
        return None
    try:
        sizes = tuple(number_text(x, int) for x in value.split(","))
    except ValueError:
        raise click.BadParameter(f"{quoted(value)} is not sizes like 128,64", ctx=ctx, param=param) from None
    if any(n < 1 for n in sizes):
        raise click.BadParameter(f"{quoted(value)}: every layer needs at least 1 unit (sizes like 128,64)",
                                 ctx=ctx, param=param)
    return sizes


def _weights_out(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """--out as the weights file it names (`bots.learned.weights_file`: FILE.npz, or FILE
    meaning FILE.npz, the sidecar FILE.json), so the name printed and the name
    `learned:weights=` takes are the files written; another suffix is refused here, before
    any training (numpy used to write w.txt.npz and the sidecar w.json for `--out w.txt`)."""
    if value is None:
        return None
    from ..bots.learned import weights_file
    try:
        path = weights_file(value, writing=True)
    except WasserspieleError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
    return writable(ctx, param, str(path))


def _budget_options(f):
    for opt in reversed([
        click.option("--games", type=WHOLE, default=None, callback=_at_least_1,
                     help="self-play games per generation"),
        click.option("--generations", type=WHOLE, default=None, callback=_at_least_1,
                     help="1: imitate the expert; more: expert iteration"),
        click.option("--iterations", type=WHOLE, default=None, callback=_search_count,
                     help="search iterations per decision"),
        click.option("--epochs", type=WHOLE, default=None, callback=_at_least_1,
                     help="training passes per generation"),
        click.option("--hidden", default=None, callback=_hidden_sizes,
                     help="hidden layer sizes, e.g. 128,64"),
        click.option("--sharpen", type=DECIMAL, default=None, callback=_above_0,
                     help="policy target: the search's visit shares to this power (1: as they are)"),
        click.option("--dagger", type=WHOLE, default=None, callback=_at_least_1,
                     help="DAgger: from the second generation on, N games a generation played by the network "
                          "itself (the learned bot, greedy), the decisions it reaches searched by the expert "
                          "(--iterations; at most 400 a game, spread over it) as its targets, instead of "
                          "guided self-play"),
        click.option("--rollout-depth", "rollout_depth", type=WHOLE, default=None, callback=_search_count,
                     help="the expert's rollouts (generation 0, DAgger's labels, guided leaves with "
                          "--guide-value rollout) play at most this many actions (default: the game's tuned "
                          "setting); e.g. 1000 plays them to the end"),
        click.option("--guide-value", "guide_value", type=click.Choice(["network", "rollout"]), default=None,
                     help="guided generations: value the search's leaves by the value head (the default) or "
                          "by the expert's rollouts"),
        click.option("--guide-exploration", "guide_exploration", type=DECIMAL, default=None, callback=_above_0,
                     help="guided generations: PUCT's exploration constant (default 1.5)"),
        click.option("--guided-games", "guided_games", type=WHOLE, default=None, callback=_at_least_1,
                     help="self-play games of each guided generation (default: --games)"),
        click.option("--teacher", type=click.Choice(["search", "heuristic"]), default=None,
                     help="generation 0 imitates the expert's search (the default: its visit shares) or the "
                          "game's heuristic (its choices, no search: many games cheaply, for the later "
                          "DAgger generations to correct toward the search)"),
        click.option("--window", type=WHOLE, default=None, callback=_at_least_1,
                     help="fit each generation on the positions of the last N generations only (default: all "
                          "gathered so far); 1: a guided generation learns from its own searches alone"),
        click.option("--fresh", is_flag=True, default=False,
                     help="fit each later generation from fresh weights instead of going on from the "
                          "previous generation's (Expert Iteration's apprentice, retrained from scratch)"),
    ]):
        f = opt(f)
    return f


@click.command("train")
@click.argument("game")
@click.option("--seed", type=WHOLE, default=1, show_default=True)
@_budget_options
@click.option("--out", type=click.Path(dir_okay=False), default=None, callback=_weights_out,
              help="weights file FILE.npz, or FILE meaning FILE.npz, with the sidecar FILE.json beside it, "
                   "replaced if there (default: GAME-learned.npz in the current directory, never replaced: "
                   "name it with --out to replace it); play it with learned:weights=FILE.npz")
@click.option("--positions", type=click.Path(dir_okay=False), default=None, callback=writable,
              help="keep the expert's searched positions (generation 0) in this .npz after every game, and "
                   "a guided generation G's in FILE.genG.npz beside it, and reuse those they hold: a stopped "
                   "run resumes, a refit skips the search")
@click.option("--jobs", type=WHOLE, default=None, callback=_at_least_1,
              help="self-play in this many processes (default: all cores); the weights are the same for any number")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="a game option; repeatable")
def train_cmd(game, seed, games, generations, iterations, epochs, hidden, sharpen, dagger, rollout_depth,
              guide_value, guide_exploration, guided_games, teacher, window, fresh, out, positions, jobs, options) -> None:
    """Train the learned bot for GAME by expert iteration and write its weights (.npz + .json).

    Matrices this small gain nothing from threaded BLAS; run with OPENBLAS_NUM_THREADS=1
    on a shared machine (set here when numpy is not loaded yet)."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from dataclasses import replace

    from ..bots.learned_train import Budget, train
    from ..bots.runner import default_jobs
    from ..core.paths import WriteFailed
    from .main import UsageFailure, WriteFailure
    try:
        g = _game(game, options)
        budget = Budget()
        changes = {k: v for k, v in (("games", games), ("generations", generations), ("iterations", iterations),
                                     ("epochs", epochs), ("dagger", dagger), ("rollout_depth", rollout_depth),
                                     ("guided_games", guided_games), ("window", window))
                   if v is not None}
        if hidden is not None:  # sizes checked by `_hidden_sizes`, the counts by `_at_least_1`
            changes["hidden"] = hidden
        if dagger is not None and changes.get("generations", budget.generations) < 2:
            raise click.BadParameter("DAgger's games come after the first generation: give --generations 2 "
                                     "or more", param_hint="--dagger")
        guided = [flag for flag, value in (("--guide-value", guide_value), ("--guide-exploration", guide_exploration),
                                           ("--guided-games", guided_games)) if value is not None]
        if guided and (dagger is not None or changes.get("generations", budget.generations) < 2):
            raise click.BadParameter("a setting of the guided generations, which come after the first and "
                                     "instead of DAgger's: give --generations 2 or more, without --dagger",
                                     param_hint=guided[0])
        if guide_exploration is not None:  # above 0: `_above_0`
            changes["guide_exploration"] = guide_exploration
        if guide_value is not None:
            changes["guide_value"] = guide_value
        if teacher is not None:
            changes["teacher"] = teacher
        if fresh:
            if changes.get("generations", budget.generations) < 2:
                raise click.BadParameter("only later generations start afresh (the first always does): "
                                         "give --generations 2 or more", param_hint="--fresh")
            changes["fresh"] = True
        if sharpen is not None:  # above 0: `_above_0`
            changes["sharpen"] = sharpen
        budget = replace(budget, **changes)
        path = Path(out) if out else default_weights(g.name)
        earlier = existing_weights(path)
        if earlier:  # named by --out (the default refused them): said before hours of training
            say(f"replacing {' and '.join(map(str, earlier))} (--out names them)", err=True)
        # the command that remakes these weights into the same files: with its --out, since
        # without one train writes GAME-learned.npz here (the shipped sidecars' commands name
        # src/wasserspiele/bots/weights/GAME.npz, run from the repository's top folder)
        words = ["wasserspiele", "train", g.name, "--seed", str(seed), "--out", str(path)]
        for name, value in (("games", games), ("generations", generations), ("iterations", iterations),
                            ("epochs", epochs), ("hidden", hidden and ",".join(map(str, hidden))),
                            ("sharpen", sharpen), ("dagger", dagger),
                            ("rollout-depth", rollout_depth), ("guide-value", guide_value),
                            ("guide-exploration", guide_exploration), ("guided-games", guided_games),
                            ("teacher", teacher), ("window", window)):
            if value is not None:
                words += [f"--{name}", str(value)]
        if fresh:
            words.append("--fresh")
        for text in options:
            words += ["--option", text]
        command = " ".join(shlex.quote(w) for w in words)

        written: list[Path] = []
        generation: list[int] = []

        def checkpoint(t) -> None:  # after every generation: a stopped run keeps its last one
            # the weights and their sidecar are written with Ctrl-C and SIGTERM held off: an
            # interrupt between them left a half-written .npz, or weights beside another's sidecar;
            # what was written is noted inside, before a hangup held off meanwhile is taken
            def save() -> None:
                written[:] = save_weights(t.network, path, t.metadata(command))
                generation[:] = [len(t.history) - 1]

            uninterrupted(save)
            say(f"wrote {written[0]} and {written[1].name} (generation {generation[0]}, "
                f"{len(t.positions)} positions)", err=True)

        try:
            trainer = train(g, seed, budget, log=lambda m: say(m, err=True), on_generation=checkpoint,
                            positions=positions, jobs=default_jobs() if jobs is None else jobs)
        except WriteFailed as exc:
            # a full disk, a folder made read-only: what the run kept, as an interrupt says it; the
            # weights (and a positions file) are written beside themselves and renamed, so never half
            kept = (f"{written[0]} and {written[1].name} hold generation {generation[0]}, the last saved"
                    if written else "no generation's weights were written")
            if positions and Path(positions).is_file():
                kept += f"; the same command resumes from the positions {positions} holds, once there is room"
            raise WriteFailure(f"{exc}; {kept}") from None
        except KeyboardInterrupt:
            # what the stopped run kept, and how to go on (Click said only "Aborted!")
            kept = (f"{written[0]} and {written[1].name} hold generation {generation[0]}, the last that finished"
                    if written else "no generation finished: no weights written")
            go_on = (f"`{command} --positions {shlex.quote(str(positions))}` resumes from the positions saved "
                     f"so far" if positions else
                     "give --positions FILE to keep the searched positions: a run stopped then resumes from them")
            say(f"\ninterrupted: {kept}; {go_on}", err=True)
            sys.exit(130)
    except WasserspieleError as exc:
        raise UsageFailure(str(exc)) from None
    where = "" if out else " (no --out: in the current directory; the shipped weights are unchanged)"
    say(f"wrote {written[0]} (weights) and {written[1]} (how they were made){where}, "
        f"{len(trainer.positions)} positions; play them with learned:weights={written[0]}")


def save_weights(network, path: Path, meta) -> tuple[Path, Path]:
    """`network.save` into STEM.tmp.npz and STEM.tmp.json beside `path`, both renamed over the weights and
    their sidecar once both are whole: saved in place, a full disk left half an .npz (or new weights beside
    the last generation's sidecar) where the last generation's were.  Raises WriteFailed."""
    from ..core.paths import PART, WriteFailed
    part = path.with_name(path.stem + PART + ".npz")
    made: tuple[Path, Path] = (part, part.with_suffix(".json"))
    try:
        made = network.save(part, meta)  # numpy's file and our sidecar
        os.replace(made[0], path)
        os.replace(made[1], path.with_suffix(".json"))
    except BaseException as exc:
        for p in made:
            try:
                p.unlink(missing_ok=True)
            except OSError:  # the folder made read-only: the error that stopped the save is said
                pass
        if isinstance(exc, OSError):  # named as the weights, not the part written
            raise WriteFailed(path, exc) from None
        raise
    return path, path.with_suffix(".json")


def existing_weights(path: Path) -> list[Path]:
    """The files of a weights file `path` that exist already: it and its sidecar (.json)."""
    return [p for p in (path, path.with_suffix(".json")) if p.exists()]


def default_weights(game: str) -> Path:
    """Where `train GAME` without --out writes: GAME-learned.npz in the current directory.
    It wrote the package's shipped weights (bots/weights/GAME.npz, in site-packages once
    installed), so an experiment replaced what ships; remaking those takes an explicit
    `--out` (their sidecar's command).  An earlier run's file there is refused, not
    replaced, before any training: the user named no file, so none of theirs is overwritten."""
    path = Path(f"{game}-learned.npz")
    earlier = existing_weights(path)
    if earlier:
        raise click.BadParameter(f"{' and '.join(map(str, earlier))} already in the current directory (an "
                                 f"earlier run's weights), not replaced without --out: give --out {path} to "
                                 f"replace them, or --out another file", param_hint="--out")
    problem = write_problem(path)
    if problem:
        raise click.BadParameter(f"cannot write the default {path} here: {problem}", param_hint="--out")
    return path


# a corpus's own files: what `corpus` writes, and so what a later run into the folder replaces
CORPUS_RECORD = re.compile(r"game-\d{4,}\.json")
CORPUS_VISITS = "visits.jsonl"


def corpus_files(folder: Path) -> list[Path]:
    """The files of an earlier corpus in `folder` (game-NNNN.json, visits.jsonl), to be
    replaced: left beside a smaller new corpus, its records would pass for the new run's
    (the stale game-0001.json beside a one-game visits.jsonl).  Like `lab --out`
    (lab/report.py `lab_files`), any other file makes the command refuse: it never
    deletes what it did not write."""
    if not folder.exists():
        return []
    mine, others = [], []
    for entry in sorted(folder.iterdir()):
        own = entry.is_file() and (entry.name == CORPUS_VISITS or CORPUS_RECORD.fullmatch(entry.name))
        (mine if own else others).append(entry)
    if others:
        shown = ", ".join(e.name for e in others[:5]) + (f" and {len(others) - 5} more" if len(others) > 5 else "")
        raise click.BadParameter(f"{folder} holds files the corpus did not write ({shown}); choose an empty "
                                 f"or new directory", param_hint="--out")
    return mine


def write_game(state, path: Path, line: bytes, lines) -> None:
    """A corpus game's record and its line in visits.jsonl (`lines`, unbuffered), together or neither:
    on a failure the record (and its .tmp) is removed, the line cut back.  Raises WriteFailed."""
    from ..core.paths import failed
    from ..core.records import write_record
    mark = lines.tell()
    at = path  # the file being written, named when it fails
    try:
        write_record(state, path)
        at = path.parent / CORPUS_VISITS
        view = memoryview(line)
        while view:  # an unbuffered write may take part of the line
            view = view[lines.write(view):]
    except OSError as exc:
        try:  # the record, whole, when the line failed (write_record leaves nothing half-written)
            path.unlink(missing_ok=True)
        except OSError:
            pass
        try:
            lines.truncate(mark)
            lines.seek(mark)
        except OSError:
            pass
        raise failed(at, exc) from None


@click.command("corpus")
@click.argument("game")
@click.option("--games", type=WHOLE, default=10, show_default=True, callback=_at_least_1)
@click.option("--iterations", type=WHOLE, default=200, show_default=True, callback=_search_count,
              help="search iterations per decision")
@click.option("--seed", type=WHOLE, default=0, show_default=True)
@click.option("--out", type=click.Path(file_okay=False), required=True, callback=writable,
              help="directory for the records; an earlier corpus there is replaced, other files make the "
                   "command refuse")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="a game option; repeatable")
def corpus_cmd(game, games, iterations, seed, out, options) -> None:
    """Write expert self-play games of GAME as records (game-NNNN.json, replayable) and the
    search's visit counts per decision (visits.jsonl: one line per game, one entry per
    searched decision: index (in the record), seat, played (the action played) and visits
    ({action: visits})).  An earlier corpus in --out is replaced as a whole."""
    from ..bots.learned_train import corpus_games
    from ..core.paths import WriteFailed, failed
    from .main import UsageFailure, WriteFailure
    done = 0  # games written, record and line
    try:
        g = _game(game, options)
        folder = Path(out)
        earlier = corpus_files(folder)  # refuses a folder with other files before any game is played
        if earlier:
            records = sum(1 for f in earlier if f.name != CORPUS_VISITS)
            say(f"replacing the earlier corpus in {folder} ({_games(records)})", err=True)
            for f in earlier:
                f.unlink()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            lines = open(folder / CORPUS_VISITS, "wb", buffering=0)  # a line is written whole or cut back
        except OSError as exc:
            raise failed(folder / CORPUS_VISITS, exc) from None
        with lines:
            for i, (state, decided) in enumerate(corpus_games(g, seed, games, iterations)):
                name = f"game-{i:04d}.json"
                entries = [{"index": d.index, "seat": d.seat, "played": str(d.played),
                            "visits": {str(a): n for a, n in d.visits.items()}} for d in decided]
                line = (json.dumps({"record": name, "decisions": entries}) + "\n").encode("utf-8")

                def write(state=state, name=name, line=line, count=i + 1) -> None:
                    nonlocal done
                    write_game(state, folder / name, line, lines)
                    done = count  # counted inside: a hangup held off meanwhile is taken as it returns

                uninterrupted(write)
    except WriteFailed as exc:
        # a full disk, the folder made read-only: said with what is kept (a traceback, and the half
        # record and half line it left, passed for a game of the corpus)
        raise WriteFailure(f"{exc}; {out} holds the {_games(done)} written before, each "
                           f"with its line in {CORPUS_VISITS}") from None
    except KeyboardInterrupt:
        say(f"\ninterrupted: {out} holds the {_games(done)} written so far, each "
            f"with its line in {CORPUS_VISITS}; running the command again replaces them", err=True)
        sys.exit(130)
    except WasserspieleError as exc:
        raise UsageFailure(str(exc)) from None
    say(f"wrote {_games(games)} to {folder}")
