"""What a game declares about itself: one `GameManifest` per game package.

Generic code (the registry, bots, CLI, web app, lab and adapters) learns everything
game-specific from the manifest and never from a game's name.  The manifest module
imports only `core`, so listing games stays cheap; the game itself and its plug-ins
(heuristic bot, codec, renderer, lab measures, web client) are named by import paths
and loaded on first use, so a game's rules import only `core` while its plug-ins may
build on `bots/`, `adapters/`, `lab/`.

An import path is `"package.module:attribute"` (or `"package.module"` for a whole
module); a web client is `"package:file.js"`, a file shipped inside a package.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module, resources
from types import MappingProxyType
from typing import Any, Callable, Mapping

from .errors import WasserspieleError
from .options import Option

Limit = int | Callable[[Mapping[str, Any]], int]  # a number, or one computed from the resolved options

def _frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    """A read-only copy, nested mappings included (a manifest is shared by every caller)."""
    return MappingProxyType({k: _frozen(v) if isinstance(v, Mapping) else v for k, v in mapping.items()})


class PluginMissing(WasserspieleError, LookupError):
    """A game declares no plug-in of that kind (e.g. no heuristic bot yet)."""


@dataclass(frozen=True)
class Limits:
    """Sizes of the game, as OpenSpiel's GameInfo states them (chance included)."""

    max_game_length: Limit          # most actions (decisions and chance outcomes) in one game
    max_chance_outcomes: int        # the most outcomes one chance node can have (cards in a deck, die faces)
    num_distinct_actions: Limit     # size of the fixed action space of the game's codec

    def game_length(self, options: Mapping[str, Any]) -> int:
        return self.max_game_length(options) if callable(self.max_game_length) else self.max_game_length

    def distinct_actions(self, options: Mapping[str, Any]) -> int:
        return self.num_distinct_actions(options) if callable(self.num_distinct_actions) else self.num_distinct_actions


@dataclass(frozen=True)
class SearchHints:
    """How the generic search (bots/ismcts.py) and the difficulty levels treat this game."""

    # A score difference of about this size decides a game: turns the scores of a
    # position cut off mid-game into a win estimate.
    score_scale: float = 5.0
    # ISMCTS keyword arguments tuned for this game (rollout depth and policy, …).
    ismcts: Mapping[str, Any] = field(default_factory=dict)
    # Per level (bots/levels.py), bot keyword arguments replacing the level's defaults,
    # e.g. {"expert": {"iterations": 3000}}: what an idle machine searches in the level's time.
    levels: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # The same per level, applied over `levels` where the compiled kernels are absent (no
    # numba): a game whose search rolls out in its kernel buys fewer iterations with the
    # level's time when the rollouts run in Python.
    python_levels: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # Per level, another bot than the level's own kind, as a bot spec's kind and keyword
    # arguments, e.g. {"expert": ("learned", {"search": 750, "value": "rollout"})}: where a
    # game's step to that level was measured larger with it.  It plays only where it was
    # measured: a searching bot with the compiled kernels, and any bot where it can play
    # these options (the learned bot's weights are made for one set); elsewhere the level
    # stays its own kind with `levels` and `python_levels` (bots/levels.py).
    level_bots: Mapping[str, tuple[str, Mapping[str, Any]]] = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "ismcts", _frozen(self.ismcts))
        object.__setattr__(self, "levels", _frozen(self.levels))
        object.__setattr__(self, "python_levels", _frozen(self.python_levels))
        object.__setattr__(self, "level_bots", MappingProxyType(
            {level: (kind, _frozen(kwargs)) for level, (kind, kwargs) in self.level_bots.items()}))


@dataclass(frozen=True)
class Plugins:
    """Import paths of the game's parts above the rules; None where the game has none."""

    heuristic: str | None = None  # a `bots.base.Bot` subclass; its module may offer search hooks
    codec: str | None = None      # an `adapters.codecs.Codec` subclass (fixed action space, tensors)
    render: str | None = None     # a module with render_view, render_result, describe_last (terminal)
    measures: str | None = None   # a `lab.measures.Measures` subclass
    web: str | None = None        # "package:file.js": the browser module drawing a view


@dataclass(frozen=True)
class GameManifest:
    """Everything a game declares about itself (see docs/adding-a-game.md)."""

    name: str                        # the registry key: lower case, words joined by "_"
    title: Mapping[str, str]         # per language: {"en": …, "de": …}
    game: str                        # import path of the `core.protocol.Game` subclass
    players: tuple[int, int]         # fewest and most seats
    options: tuple[Option, ...]      # the declared options, with the spec's defaults
    notation: str                    # a summary of the move notation, for help texts
    limits: Limits
    search: SearchHints = field(default_factory=SearchHints)
    plugins: Plugins = field(default_factory=Plugins)

    def __post_init__(self):
        if not self.name or self.name != self.name.lower() or not self.name.replace("_", "").isalnum():
            raise ValueError(f"manifest name {self.name!r}: lower-case letters, digits and '_' only")
        if "en" not in self.title:
            raise ValueError(f"manifest {self.name}: title needs an English entry")
        object.__setattr__(self, "title", _frozen(self.title))
        lo, hi = self.players
        if not 1 <= lo <= hi:
            raise ValueError(f"manifest {self.name}: players {self.players} is not a range of seat counts")
        declared = next((o for o in self.options if o.name == "players"), None)
        if lo == hi and declared is not None:
            raise ValueError(f"manifest {self.name}: a game for exactly {lo} players has no players option")
        if lo < hi and (declared is None or (declared.minimum, declared.maximum) != (lo, hi)):
            raise ValueError(f"manifest {self.name}: players {self.players} needs a players option "
                             f"with minimum {lo} and maximum {hi}")

    @property
    def fixed_players(self) -> int | None:
        lo, hi = self.players
        return lo if lo == hi else None

    def title_in(self, lang: str) -> str:
        return self.title.get(lang, self.title["en"])

    @property
    def class_name(self) -> str:
        """The name in CamelCase (environment ids: `wasserspiele/SevenWaters-v0`)."""
        return "".join(word.capitalize() for word in self.name.split("_"))

    # -- loading what the manifest names ---------------------------------------
    def game_class(self) -> type:
        return load_ref(self.game)

    def plugin(self, kind: str) -> Any:
        """The plug-in of that kind (`heuristic`, `codec`, `render`, `measures`), imported now."""
        ref = getattr(self.plugins, kind)
        if ref is None:
            raise PluginMissing(f"{self.name} has no {kind} plug-in")
        return load_ref(ref)

    def plugin_module(self, kind: str) -> Any:
        """The module a plug-in lives in (hooks next to it, e.g. the heuristic's `plausibility`)."""
        ref = getattr(self.plugins, kind)
        if ref is None:
            raise PluginMissing(f"{self.name} has no {kind} plug-in")
        return import_module(ref.partition(":")[0])

    def web_source(self) -> str:
        """The text of the web client module."""
        if self.plugins.web is None:
            raise PluginMissing(f"{self.name} has no web plug-in")
        return read_resource(self.plugins.web)


def load_ref(ref: str) -> Any:
    """Import `"module:attribute"` (a dotted attribute path is allowed) or a whole `"module"`."""
    module_name, _, attr = ref.partition(":")
    obj = import_module(module_name)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


def read_resource(ref: str) -> str:
    """The text of `"package:file"`, a file shipped inside an importable package."""
    package, _, name = ref.partition(":")
    if not name:
        raise ValueError(f"resource {ref!r}: expected 'package:file'")
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


__all__ = ["GameManifest", "Limits", "Plugins", "PluginMissing", "SearchHints", "load_ref", "read_resource"]
