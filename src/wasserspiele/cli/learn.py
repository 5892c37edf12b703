"""`wasserspiele train` (the learned bot's weights) and `wasserspiele corpus` (expert games
with the search's visit counts, for offline learning)."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import click

from ..core.errors import WasserspieleError
from ..core.registry import game_class, load
from .paths import writable


def _game(game: str, options: tuple[str, ...]):
    from .main import parse_options_for
    opts = parse_options_for(game, list(options))
    return load(game_class(game).name, **opts)


def _budget_options(f):
    for opt in reversed([
        click.option("--games", type=int, default=None, help="self-play games per generation"),
        click.option("--generations", type=int, default=None, help="1: imitate the expert; more: expert iteration"),
        click.option("--iterations", type=int, default=None, help="search iterations per decision"),
        click.option("--epochs", type=int, default=None, help="training passes per generation"),
        click.option("--hidden", default=None, help="hidden layer sizes, e.g. 128,64"),
        click.option("--sharpen", type=float, default=None,
                     help="policy target: the search's visit shares to this power (1: as they are)"),
        click.option("--dagger", type=int, default=None,
                     help="DAgger: from the second generation on, N games a generation played by the network "
                          "itself (the learned bot, greedy), the decisions it reaches searched by the expert "
                          "(--iterations; at most 400 a game, spread over it) as its targets, instead of "
                          "guided self-play"),
        click.option("--rollout-depth", "rollout_depth", type=int, default=None,
                     help="the expert's rollouts (generation 0, DAgger's labels, guided leaves with "
                          "--guide-value rollout) play at most this many actions (default: the game's tuned "
                          "setting); e.g. 1000 plays them to the end"),
        click.option("--guide-value", "guide_value", type=click.Choice(["network", "rollout"]), default=None,
                     help="guided generations: value the search's leaves by the value head (the default) or "
                          "by the expert's rollouts"),
        click.option("--guide-exploration", "guide_exploration", type=float, default=None,
                     help="guided generations: PUCT's exploration constant (default 1.5)"),
        click.option("--guided-games", "guided_games", type=int, default=None,
                     help="self-play games of each guided generation (default: --games)"),
        click.option("--teacher", type=click.Choice(["search", "heuristic"]), default=None,
                     help="generation 0 imitates the expert's search (the default: its visit shares) or the "
                          "game's heuristic (its choices, no search: many games cheaply, for the later "
                          "DAgger generations to correct toward the search)"),
        click.option("--window", type=int, default=None,
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
@click.option("--seed", type=int, default=1, show_default=True)
@_budget_options
@click.option("--out", type=click.Path(dir_okay=False), default=None, callback=writable,
              help="weights file (default: the package's bots/weights/GAME.npz)")
@click.option("--positions", type=click.Path(dir_okay=False), default=None, callback=writable,
              help="keep the expert's searched positions (generation 0) in this .npz after every game, and "
                   "a guided generation G's in FILE.genG.npz beside it, and reuse those they hold: a stopped "
                   "run resumes, a refit skips the search")
@click.option("--jobs", type=int, default=None,
              help="self-play in this many processes (default: all cores); the weights are the same for any number")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="a game option; repeatable")
def train_cmd(game, seed, games, generations, iterations, epochs, hidden, sharpen, dagger, rollout_depth,
              guide_value, guide_exploration, guided_games, teacher, window, fresh, out, positions, jobs, options) -> None:
    """Train the learned bot for GAME by expert iteration and write its weights (.npz + .json).

    Matrices this small gain nothing from threaded BLAS; run with OPENBLAS_NUM_THREADS=1
    on a shared machine (set here when numpy is not loaded yet)."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from dataclasses import replace

    from ..bots.learned import shipped_weights
    from ..bots.learned_train import Budget, train
    from ..bots.runner import default_jobs
    from .main import UsageFailure
    if jobs is not None and jobs < 1:
        raise click.BadParameter("must be at least 1", param_hint="--jobs")
    try:
        g = _game(game, options)
        budget = Budget()
        changes = {k: v for k, v in (("games", games), ("generations", generations), ("iterations", iterations),
                                     ("epochs", epochs), ("dagger", dagger), ("rollout_depth", rollout_depth),
                                     ("guided_games", guided_games), ("window", window))
                   if v is not None}
        if hidden:
            try:
                changes["hidden"] = tuple(int(x) for x in hidden.split(","))
            except ValueError:
                raise click.BadParameter(f"{hidden!r} is not sizes like 128,64", param_hint="--hidden") from None
        for k, v in changes.items():
            if k != "hidden" and v < 1:
                raise click.BadParameter("must be at least 1", param_hint=f"--{k.replace('_', '-')}")
        if dagger is not None and changes.get("generations", budget.generations) < 2:
            raise click.BadParameter("DAgger's games come after the first generation: give --generations 2 "
                                     "or more", param_hint="--dagger")
        guided = [flag for flag, value in (("--guide-value", guide_value), ("--guide-exploration", guide_exploration),
                                           ("--guided-games", guided_games)) if value is not None]
        if guided and (dagger is not None or changes.get("generations", budget.generations) < 2):
            raise click.BadParameter("a setting of the guided generations, which come after the first and "
                                     "instead of DAgger's: give --generations 2 or more, without --dagger",
                                     param_hint=guided[0])
        if guide_exploration is not None:
            if not guide_exploration > 0:
                raise click.BadParameter("must be above 0", param_hint="--guide-exploration")
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
        if sharpen is not None:
            if not sharpen > 0:
                raise click.BadParameter("must be above 0", param_hint="--sharpen")
            changes["sharpen"] = sharpen
        budget = replace(budget, **changes)
        path = Path(out) if out else shipped_weights(g)
        # the command that remakes these weights where they ship
        words = ["wasserspiele", "train", g.name, "--seed", str(seed)]
        for name, value in (("games", games), ("generations", generations), ("iterations", iterations),
                            ("epochs", epochs), ("hidden", hidden), ("sharpen", sharpen), ("dagger", dagger),
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

        def checkpoint(t) -> None:  # after every generation: a stopped run keeps its last one
            t.network.save(path, t.metadata(command))
            click.echo(f"wrote {path} (generation {len(t.history) - 1}, {len(t.positions)} positions)", err=True)

        trainer = train(g, seed, budget, log=lambda m: click.echo(m, err=True), on_generation=checkpoint,
                        positions=positions, jobs=default_jobs() if jobs is None else jobs)
    except WasserspieleError as exc:
        raise UsageFailure(str(exc)) from None
    click.echo(f"wrote {path} ({len(trainer.positions)} positions)")


@click.command("corpus")
@click.argument("game")
@click.option("--games", type=int, default=10, show_default=True)
@click.option("--iterations", type=int, default=200, show_default=True, help="search iterations per decision")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--out", type=click.Path(file_okay=False), required=True, callback=writable,
              help="directory for the records")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="a game option; repeatable")
def corpus_cmd(game, games, iterations, seed, out, options) -> None:
    """Write expert self-play games of GAME as records (game-NNNN.json, replayable) and the
    search's visit counts per decision (visits.jsonl: one line per game, one entry per
    searched decision: its index in the record, the seat and {action: visits})."""
    from ..bots.learned_train import corpus_games
    from ..core.records import write_record
    from .main import UsageFailure
    if games < 1:
        raise click.BadParameter("must be at least 1", param_hint="--games")
    if iterations < 1:
        raise click.BadParameter("must be at least 1", param_hint="--iterations")
    try:
        g = _game(game, options)
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / "visits.jsonl", "w") as lines:
            for i, (state, decided) in enumerate(corpus_games(g, seed, games, iterations)):
                name = f"game-{i:04d}.json"
                write_record(state, folder / name)
                entries = [{"index": d.index, "seat": d.seat, "played": str(d.played),
                            "visits": {str(a): n for a, n in d.visits.items()}} for d in decided]
                lines.write(json.dumps({"record": name, "decisions": entries}) + "\n")
    except WasserspieleError as exc:
        raise UsageFailure(str(exc)) from None
    click.echo(f"wrote {games} games to {folder}")
