"""A study's settings file, study.json: what its report needs besides its games.

`write_report` saves it beside results.csv (lab/report.py), and `lab render` reads it back
(lab/render.py) to render the report again without playing a game.  Both import this module;
neither imports the other for it.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from ..bots.runner import seating as make_seating
from ..bots.specs import check_spec, parse_bot_spec
from ..core.errors import WasserspieleError
from ..core.registry import game_class
from .analysis import ALPHA, MIN_EFFECT
from .study import Condition, Study, StudyResult

FORMAT = "wasserspiele-study/1"
STUDY_FILE = "study.json"


class RenderRefused(WasserspieleError):
    """The directory does not hold what a report can honestly be rendered from."""


def study_json(result: StudyResult, min_effect: float = MIN_EFFECT, alpha: float = ALPHA,
               command: str | None = None) -> str:
    """What a study's report needs besides its rows: the Study itself (game, conditions, bots, games,
    seed, seating), the report's settings, how the run went (the run line, an interrupt, the precision
    rule's stop) — and the command that ran it, for a reader."""
    s = result.study
    doc = {
        "format": FORMAT,
        "command": command,
        "game": s.game,
        "conditions": [{"label": c.label, "options": dict(c.options)} for c in s.conditions],
        "bots": [b.text for b in s.bots],
        "games": s.games, "asked": s.asked, "seed": s.seed,
        "compare": list(s.compare), "base_options": dict(s.base_options),
        "seating": s.seating.name, "kernels": s.kernels, "group": s.group,
        "min_effect": min_effect, "alpha": alpha,
        "interrupted": result.interrupted, "target": result.target, "stopped": result.stopped,
        "died": result.died, "notes": list(result.notes),
        "run": {"backend": result.backend, "jobs": result.jobs, "seconds": result.seconds,
                "line": result.run_text or None},
    }
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


@dataclasses.dataclass
class Settings:
    """A study's settings as read back: how the study ran — its Study, an interrupt, the precision rule's
    stop, notes and run line, held as a StudyResult without rows (the rows are results.csv's) — and the
    report's settings."""

    run: StudyResult
    min_effect: float
    alpha: float
    command: str | None
    source: str = STUDY_FILE          # where the settings were read from

    @property
    def study(self) -> Study:
        return self.run.study

    def with_rows(self, rows: list[dict[str, Any]]) -> StudyResult:
        """The study's result as it was analysed: these settings and results.csv's rows."""
        return dataclasses.replace(self.run, rows=rows, notes=list(self.run.notes))


def _need(doc: dict, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in doc:
        raise RenderRefused(f"{where}: no {key!r}")
    value = doc[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise RenderRefused(f"{where}: {key!r} is {json.dumps(value)}, not a {_kind_word(kind)}")
    return value


def _kind_word(kind) -> str:
    names = {str: "text", int: "whole number", float: "number", bool: "true or false", list: "list", dict: "mapping"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(dict.fromkeys(names.get(k, k.__name__) for k in kinds if k is not type(None)))


def read_study_json(path: Path) -> Settings:
    """The settings study.json holds, checked: every condition loads, every bot is one its game takes."""
    where = str(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise RenderRefused(f"{where}: not readable as JSON ({exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise RenderRefused(f"{where}: not a study's settings (format {FORMAT} expected)")
    game = _need(doc, "game", str, where)
    try:
        game = game_class(game).name
    except WasserspieleError as exc:
        raise RenderRefused(f"{where}: {exc}") from None
    conds = []
    for c in _need(doc, "conditions", list, where):
        if not isinstance(c, dict):
            raise RenderRefused(f"{where}: a condition is {json.dumps(c)}, not a mapping")
        conds.append(Condition(_need(c, "label", str, where), tuple(_need(c, "options", dict, where).items())))
    if not conds:
        raise RenderRefused(f"{where}: no conditions")
    run = _need(doc, "run", dict, where)
    study = Study(game, tuple(conds), tuple(parse_bot_spec(t) for t in _need(doc, "bots", list, where)),
                  _need(doc, "games", int, where), _need(doc, "seed", int, where),
                  tuple(_need(doc, "compare", list, where)), tuple(_need(doc, "base_options", dict, where).items()),
                  make_seating(_need(doc, "seating", str, where)), _need(doc, "kernels", bool, where),
                  _need(doc, "group", int, where), _need(doc, "asked", (int, type(None)), where))
    target = _need(doc, "target", (int, float, type(None)), where)
    ran = StudyResult(study, [], _need(doc, "interrupted", bool, where),
                      float(_need(run, "seconds", (int, float), where)), _need(run, "backend", str, where),
                      _need(run, "jobs", int, where), [str(n) for n in _need(doc, "notes", list, where)],
                      None if target is None else float(target), _need(doc, "stopped", str, where),
                      _need(run, "line", (str, type(None)), where) or "",
                      # (a study saved before worker deaths were told apart has none)
                      _need(doc, "died", str, where) if "died" in doc else "")
    settings = Settings(ran, float(_need(doc, "min_effect", (int, float), where)),
                        float(_need(doc, "alpha", (int, float), where)),
                        _need(doc, "command", (str, type(None)), where))
    check_study(study, where)
    return settings


def check_study(study: Study, where: str) -> None:
    """Every condition loads and every bot is one its game takes (as `make_study` checked them)."""
    try:
        for cond in study.conditions:
            g = cond.load(study.game)
            for spec in study.bots:
                check_spec(spec, g)
            study.seating.check(g, len(study.bots))
    except WasserspieleError as exc:
        raise RenderRefused(f"{where}: {exc}") from None
    if not study.bots:
        raise RenderRefused(f"{where}: no bots")
