"""The player-facing rules of each game (`games/<game>/rules.<lang>.md`), one text for
the web's rules pages and the terminal's `rules --lang`."""

from __future__ import annotations

import sys
from pathlib import Path

from .errors import WasserspieleError
from .registry import game_class

LANGUAGES = ("en", "de")


def player_rules_path(game: str, lang: str) -> Path:
    """The rules file of `game` in `lang`; a clear error for an unknown game or language."""
    if lang not in LANGUAGES:
        raise WasserspieleError(f"no rules in language {lang!r} (languages: {', '.join(LANGUAGES)})")
    cls = game_class(game)
    path = Path(sys.modules[cls.__module__].__file__).parent / f"rules.{lang}.md"
    if not path.exists():
        raise WasserspieleError(f"no {lang} rules text for {cls.name} (expected {path.name})")
    return path


def player_rules(game: str, lang: str) -> str:
    return player_rules_path(game, lang).read_text(encoding="utf-8")
