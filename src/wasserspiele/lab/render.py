"""Re-rendering a finished study's report from its saved data (`wasserspiele lab render DIR`).

A study's games are its data: results.csv (one row per game) and the records of its notable
games.  Everything else in the directory — report.md, report.html, the plots — is rendered
from them and from the study's settings, which `write_report` keeps in study.json
(lab/settings.py).  So a
report can be written again in the lab's current layout without playing a game: the rows are
read back, checked against the settings (every game's seed and line-up follow from the master
seed, so a results.csv of other settings, another game or edited rows is refused, naming the
line; a study that was not interrupted must list every game), analysed as the study analysed
them, and the rendered files replace the old ones only once all of them are made.

Studies written before study.json existed are read through the command their README.md
records (docs/reports/*/README.md begin with it) and their report.md's run line; the render
then saves study.json beside them.  A report rendered again from a study's own directory is
byte for byte the report the study wrote (tests/lab/test_render.py).
"""

from __future__ import annotations

import csv
import json
import math
import re
from pathlib import Path
from typing import Any, Callable

from ..core.errors import WasserspieleError
from ..core.messages import Reason
from ..core.paths import failed
from ..core.protocol import win_shares
from .analysis import ALPHA, analyse, raise_flags
from .report import RUN_LINE, answers, findings, measure_columns, notable_games, rendered_files, replace_all
from .settings import STUDY_FILE, RenderRefused, Settings, read_study_json
from .study import Study, StudyResult

README = "README.md"
RESULTS = "results.csv"
FIXED = ("condition", "game", "seed", "players")            # results.csv's first columns
AFTER = ("winners", "shared_win", "actions", "units", "lead_changes")  # after the seats' columns
RETURN_EXACT = 5e-7  # a win credit written to 6 decimals is 1/k again within this (results.csv rounds 1/3)


# ----------------------------------------------------------------------------- a study without study.json
COMMAND = re.compile(r"`(wasserspiele lab [^`]+)`")
INTERRUPTED = ("**Interrupted**: only the", "Ctrl-C stopped the run after")  # a cut-short report's header
RUN = re.compile(rf"^{re.escape(RUN_LINE)} backend (\S+) with (\d+) job\(s\), (\d+(?:\.\d+)?) s,.*$", re.M)


def legacy_settings(folder: Path, parse_command: Callable[[str], dict[str, Any]]) -> Settings:
    """The settings of a study written before study.json: the command its README.md records (the
    first `wasserspiele lab …` in backquotes), read by `parse_command` as the lab reads a command line
    (its make_study arguments and min_effect), and its report.md's run line.  A study stopped by
    --precision is refused: why it stopped is not in its command."""
    readme = folder / README
    text = readme.read_text(encoding="utf-8") if readme.is_file() else ""
    found = COMMAND.search(text)
    if not found:
        raise RenderRefused(f"{folder}: no {STUDY_FILE} (studies save it since the lab could render) and no "
                            f"`wasserspiele lab …` command in {README} to read the study's settings from; "
                            f"cannot tell which games results.csv holds")
    command = found.group(1)
    try:
        args = parse_command(command)
    except WasserspieleError as exc:
        raise RenderRefused(f"{readme}: its command `{command}` is refused: {exc}") from None
    if args.pop("precision", None) is not None:
        raise RenderRefused(f"{readme}: its command `{command}` uses --precision, and why that run stopped is not "
                            f"recorded without {STUDY_FILE}")
    min_effect = args.pop("min_effect")
    from .study import make_study
    try:
        study = make_study(**args)
    except WasserspieleError as exc:
        raise RenderRefused(f"{readme}: its command `{command}` is refused: {exc}") from None
    report = folder / "report.md"
    printed = report.read_text(encoding="utf-8") if report.is_file() else ""
    run = RUN.search(printed)
    if run is None:
        raise RenderRefused(f"{folder}: no {STUDY_FILE}, and no report.md with a run line (“{RUN_LINE} backend …”) "
                            f"saying how the games were run")
    # the line as it was printed: its seconds are rounded, so the games per second it shows could not be
    # computed again from them.  Whether Ctrl-C cut the run short is what its header said (every layout
    # of the report said so: "**Interrupted**: only the … games", later "Ctrl-C stopped the run after …"),
    # not what the rows suggest: a row deleted from results.csv is no interrupt
    interrupted = any(words in printed for words in INTERRUPTED)
    ran = StudyResult(study, [], interrupted, float(run.group(3)), run.group(1), int(run.group(2)),
                      run_text=run.group(0))
    return Settings(ran, min_effect, ALPHA, command, source=README)


def read_settings(folder: Path, parse_command: Callable[[str], dict[str, Any]] | None = None) -> Settings:
    if (folder / STUDY_FILE).is_file():
        return read_study_json(folder / STUDY_FILE)
    if parse_command is None:
        raise RenderRefused(f"{folder}: no {STUDY_FILE}")
    return legacy_settings(folder, parse_command)


# ----------------------------------------------------------------------------- results.csv
def _number(text: str, where: str, column: str) -> int | float:
    """A number as results.csv writes it (whole numbers without a point)."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise RenderRefused(f"{where}: {column} is {text!r}, not a number")
    return value


def _whole(text: str, where: str, column: str, low: int = 0) -> int:
    value = _number(text, where, column)
    if not isinstance(value, int) or value < low:
        raise RenderRefused(f"{where}: {column} is {text!r}, not a whole number"
                            + (f" of at least {low}" if low else ""))
    return value


def _credit(x: int | float, players: int) -> float:
    """A win credit as the game gave it: 1/k for a k-way shared win, which results.csv rounds to 6 decimals
    (0.333333); read back as the very float the study analysed, so the report repeats to the last digit."""
    for k in range(1, players + 1):
        if abs(x - 1.0 / k) <= RETURN_EXACT:
            return 1.0 / k
    return float(x)


def read_results(path: Path, study: Study) -> list[dict[str, Any]]:
    """results.csv's rows as the study's rows (what `analyse` reads), every field checked against the
    study: its columns, each condition's label, player count, each game's seed and line-up as the
    master seed derives them, numbers where numbers belong, table order and no game twice."""
    try:
        with path.open(encoding="utf-8", newline="") as f:
            table = list(csv.reader(f))
    except FileNotFoundError:
        raise RenderRefused(f"{path}: missing; it holds the study's games, the report is rendered from it") from None
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise RenderRefused(f"{path}: not readable as a table ({exc})") from None
    if not table:
        raise RenderRefused(f"{path}: empty")
    header, body = table[0], table[1:]
    games = [c.load(study.game) for c in study.conditions]
    most = max(g.players for g in games)
    seats = [f"{kind}_{s}" for kind in ("bot", "score", "return") for s in range(most)]
    fixed = [*FIXED, *seats, *AFTER]
    for i, name in enumerate(header):
        expected = fixed[i] if i < len(fixed) else None
        if name != expected and not (expected is None and name.startswith("m_") and len(name) > 2):
            raise RenderRefused(f"{path}: column {i + 1} is {name!r}, where a {study.game} study with "
                                f"{most} seats has " + (f"{expected!r}" if expected else "only m_… measure columns")
                                + " (unknown column, or results.csv of other settings)")
    if len(header) < len(fixed):
        raise RenderRefused(f"{path}: the header ends before {fixed[len(header)]!r}")
    if len(set(header)) != len(header):
        raise RenderRefused(f"{path}: a column is named twice")
    mcols = [h[2:] for h in header[len(fixed):]]
    needed = {}
    from .measures import measures_class
    for g in games:
        for m in measures_class(g).describe:
            for name in (m.name, m.denominator):
                if name and name != "units":
                    needed.setdefault(name, m.label)
    missing = [n for n in needed if n not in mcols]
    if missing:
        raise RenderRefused(f"{path}: no column m_{missing[0]} ({needed[missing[0]]!r}), which every {study.game} "
                            f"study writes: results.csv of another game, or damaged")
    labels = {c.label: k for k, c in enumerate(study.conditions)}
    rows: list[dict[str, Any]] = []
    seen = set()
    for line, cells in enumerate(body, start=2):
        where = f"{path}, line {line}"
        if len(cells) != len(header):
            raise RenderRefused(f"{where}: {len(cells)} fields, the header has {len(header)}")
        cell = dict(zip(header, cells))
        label = cell["condition"]
        if label not in labels:
            raise RenderRefused(f"{where}: condition {label!r} is not one of this study's "
                                f"({', '.join(labels)})")
        cond = labels[label]
        game = games[cond]
        p = game.players
        index = _whole(cell["game"], where, "game")
        if index >= study.games:
            raise RenderRefused(f"{where}: game {index}, but the study played at most {study.games} per condition")
        if (cond, index) in seen:
            raise RenderRefused(f"{where}: game {index} of {label} is listed twice")
        if rows and (cond, index) < (rows[-1]["cond"], rows[-1]["game"]):
            raise RenderRefused(f"{where}: out of order (results.csv lists the games by condition, then number)")
        seen.add((cond, index))
        seed = _whole(cell["seed"], where, "seed")
        if seed != study.seating.game_seed(study.seed, index, game, len(study.bots)):
            raise RenderRefused(f"{where}: seed {seed} is not game {index}'s under master seed {study.seed}: "
                                f"results.csv and the study's settings do not belong together")
        if _whole(cell["players"], where, "players") != p:
            raise RenderRefused(f"{where}: players is {cell['players']}, where {label} seats {p}")
        lineup = study.seating.lineup(game, len(study.bots), index, study.seed)
        bots = [cell[f"bot_{s}"] for s in range(p)]
        if bots != [study.bots[b].text for b in lineup]:
            raise RenderRefused(f"{where}: bots {', '.join(bots)}, where the study seated "
                                f"{', '.join(study.bots[b].text for b in lineup)} in game {index}")
        for kind in ("bot", "score", "return"):
            if any(cell[f"{kind}_{s}"] for s in range(p, most)):
                raise RenderRefused(f"{where}: a {kind} for a seat beyond the {p} of {label}")
        scores = [_number(cell[f"score_{s}"], where, f"score_{s}") for s in range(p)]
        returns = [_credit(_number(cell[f"return_{s}"], where, f"return_{s}"), p) for s in range(p)]
        try:
            winners = [int(w) for w in cell["winners"].split()]
        except ValueError:
            winners = [-1]
        if any(not 0 <= w < p for w in winners) or len(set(winners)) != len(winners):
            raise RenderRefused(f"{where}: winners {cell['winners']!r} are not seats of a {p}-player game")
        shared = _whole(cell["shared_win"], where, "shared_win")
        if shared != int(len({game.team_of(s) for s in winners}) > 1):
            raise RenderRefused(f"{where}: shared_win {shared} does not fit the winners {cell['winners']!r}")
        if returns != win_shares(game, winners):  # the win credit every rate is counted from
            raise RenderRefused(f"{where}: returns {', '.join(cell[f'return_{s}'] for s in range(p))} do not fit "
                                f"the winners {cell['winners']!r} (each seat's return is its share of the win)")
        measures = {c: _number(cell[f"m_{c}"], where, f"m_{c}") for c in mcols if cell[f"m_{c}"] != ""}
        rows.append({"condition": label, "cond": cond, "game": index, "seed": seed, "players": p, "bots": bots,
                     "bot_index": list(lineup), "scores": scores, "winners": winners, "returns": returns,
                     "shared": shared, "actions": _whole(cell["actions"], where, "actions"),
                     "units": _number(cell["units"], where, "units"),
                     "lead_changes": _whole(cell["lead_changes"], where, "lead_changes"), "measures": measures})
    if not rows:
        raise RenderRefused(f"{path}: no games")
    empty = [c for c in mcols if c not in measure_columns(rows)]
    if empty:  # the lab writes a measure's column only for a measure some game has
        raise RenderRefused(f"{path}: column m_{empty[0]} is empty in every row")
    return rows


def check_complete(rows: list[dict[str, Any]], settings: Settings, path: Path) -> None:
    """A study that ran to its end played games 0 … games − 1 of every condition, so each of them must be in
    results.csv (`read_results` refused a number too high and a game twice).  A study stopped by the
    precision rule saved the games per condition it had played when it stopped (lab/precision.py
    `run_until`), so the same holds for it.  A study cut short by Ctrl-C keeps the chunks of games that had
    finished, which the process and Ray backends finish in no set order: any of its games may be missing,
    a whole condition too, and its report says so."""
    if settings.run.interrupted:
        return
    study = settings.study
    for c, cond in enumerate(study.conditions):
        missing = sorted(set(range(study.games)) - {r["game"] for r in rows if r["cond"] == c})
        if missing:
            said = (f"{STUDY_FILE} says {study.games} games per condition, not interrupted"
                    if settings.source == STUDY_FILE else
                    f"the command in {settings.source} says {study.games} games per condition, and report.md "
                    f"no interruption")
            more = f" ({len(missing)} of its {study.games} games are)" if len(missing) > 1 else ""
            raise RenderRefused(f"{path}: game {missing[0]} of {cond.label} is missing{more}; {said}")


# ----------------------------------------------------------------------------- rendering
def render_study(folder: str | Path, parse_command: Callable[[str], dict[str, Any]] | None = None) -> dict[str, Any]:
    """Render `folder`'s report.md, report.html and plots again from its results.csv and settings, without
    playing a game; the records of its notable games must be there already.  Every file is made in memory
    and written beside its target (`NAME.tmp`) before any target is replaced, so a refusal or a failure
    leaves the earlier report as it was.  Returns what `write_report` returns."""
    folder = Path(folder)
    if not folder.is_dir():
        raise RenderRefused(f"{folder}: not a directory")
    settings = read_settings(folder, parse_command)
    study = settings.study
    rows = read_results(folder / RESULTS, study)
    check_complete(rows, settings, folder / RESULTS)
    result = settings.with_rows(rows)
    summaries, comparisons = analyse(result)
    raise_flags(summaries, comparisons, settings.alpha, settings.min_effect)
    notable = []
    for entry, row in notable_games(summaries):
        record = folder / entry["file"]
        try:
            doc = json.loads(record.read_text(encoding="utf-8"))
        except FileNotFoundError:
            kind = entry["kind"].replace("_", " ")
            # the record of another game of this kind: results.csv no longer makes the same game notable
            others = sorted(p.name for p in record.parent.glob(re.sub(r"game\d+\.json$", "game*.json", record.name)))
            if others:
                raise RenderRefused(
                    f"{record}: missing: results.csv makes game {entry['game']} the {kind} game of "
                    f"{entry['condition']}, where the study recorded {', '.join(others)}; results.csv was "
                    f"changed since the study ran, or records/ is another study's") from None
            raise RenderRefused(f"{record}: missing; the report links the record of {kind} "
                                f"game {entry['game']} ({entry['condition']}), and rendering plays no game") from None
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise RenderRefused(f"{record}: not a record ({exc})") from None
        if not isinstance(doc, dict) or doc.get("game") != study.game or doc.get("players") != row["players"]:
            raise RenderRefused(f"{record}: not the record of a {row['players']}-player {study.game} game")
        if len(doc.get("actions", ())) != row["actions"]:
            raise RenderRefused(f"{record}: {len(doc.get('actions', ()))} actions, where results.csv has "
                                f"{row['actions']} for game {row['game']} ({row['condition']})")
        notable.append(entry)
    files = rendered_files(result, summaries, comparisons, notable, settings.min_effect, settings.alpha,
                           settings.command)
    try:
        replace_all(folder, files)
    except OSError as exc:  # a full disk, a read-only folder: said as one line (cli/lab.py), not a traceback
        raise failed(folder, exc).keeping(Reason("text", text=(
            f"the report's earlier files in {folder} are as they were; results.csv and records/ are only "
            f"read"))) from None
    return {"dir": folder, "summaries": summaries, "comparisons": comparisons, "notable": notable,
            "findings": findings(summaries, comparisons, settings.alpha, settings.min_effect),
            "answers": answers(summaries, comparisons, settings.min_effect), "settings": settings}
