"""The player-facing rules of each game (`games/<game>/rules.<lang>.md`), one text for
the web's rules pages and the terminal's `rules --lang` (`terminal_rules`: without the
sections about the web table, with how moves are typed in the terminal instead)."""

from __future__ import annotations

import sys
from pathlib import Path

from .errors import WasserspieleError
from .messages import catalogue, render
from .registry import game_class, manifest

LANGUAGES = ("en", "de")
# The sections of every rules text that are about the web table (tap a card, what the page
# shows): the terminal's rules leave them out and say how moves are typed there instead.
TABLE_SECTIONS = {"en": ("Your first turn", "What you see at the table"),
                  "de": ("Dein erster Zug", "Am Tisch")}


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


def terminal_rules(game: str, lang: str) -> str:
    """The rules text for the terminal: the rules and the options as on the web's rules
    page, without the sections about the web table (`TABLE_SECTIONS`), and a last section
    on how moves are typed in the terminal, in the game's notation."""
    out, skipping = [], False
    for line in player_rules(game, lang).splitlines(keepends=True):
        if line.startswith("## "):
            skipping = line[3:].strip() in TABLE_SECTIONS[lang]
        if not skipping:
            out.append(line)
    m = manifest(game)
    notation = catalogue(lang).text(f"{m.name}.ui.notation") or m.notation  # as `games` explains it
    return "".join(out).rstrip() + "\n\n" + render("cli.rules.terminal", {"game": m.name, "notation": notation}, lang) + "\n"
