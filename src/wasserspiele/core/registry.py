"""The registry of games: `load("wasserloch", players=3, rounds=1)`.

A game is known by its manifest (`core/manifest.py`), found in one of three ways:

* a package under `wasserspiele/games/` with a `manifest` module (`MANIFEST`);
* an entry point in the group `wasserspiele.games` naming a manifest, so that a
  game can live in another installed package::

      [project.entry-points."wasserspiele.games"]
      mygame = "mygame.manifest:MANIFEST"

* `register(manifest)` at run time (tests, notebooks).

Only manifests are imported to list the games; a game's rules load on first use,
so `wasserspiele --help` stays fast, and a broken game cannot stop the others.
"""

from __future__ import annotations

import pkgutil
import warnings
from importlib import import_module
from importlib.metadata import entry_points
from typing import Any

from .errors import UnknownGame
from .messages import Reason
from .manifest import GameManifest, load_ref
from .protocol import Game

ENTRY_POINT_GROUP = "wasserspiele.games"
BUILTIN_PACKAGE = "wasserspiele.games"

_manifests: dict[str, GameManifest] | None = None  # discovered lazily, then extended by register()
_broken: dict[str, str] = {}                         # name -> why it could not be loaded
_loaded: dict[str, type[Game]] = {}


def _key(name: Any) -> Any:
    return name.strip().lower().replace("-", "_") if isinstance(name, str) else name


def _add(found: dict[str, GameManifest], manifest: Any, source: str) -> None:
    if not isinstance(manifest, GameManifest):
        raise TypeError(f"{source} is a {type(manifest).__name__}, not a GameManifest")
    other = found.get(manifest.name)
    if other is not None and other is not manifest:
        raise ValueError(f"{source}: the game name {manifest.name!r} is already taken")
    found[manifest.name] = manifest


def _discover() -> dict[str, GameManifest]:
    found: dict[str, GameManifest] = {}
    package = import_module(BUILTIN_PACKAGE)
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if not info.ispkg:
            continue
        source = f"{BUILTIN_PACKAGE}.{info.name}.manifest"
        try:
            module = import_module(source)
        except ModuleNotFoundError as exc:
            if exc.name == source:
                continue  # a helper package, not a game
            _broken[info.name] = f"{source}: {exc}"
            warnings.warn(f"game {info.name!r} skipped: {_broken[info.name]}", stacklevel=3)
            continue
        except Exception as exc:  # a broken game must not hide the others
            _broken[info.name] = f"{source}: {exc}"
            warnings.warn(f"game {info.name!r} skipped: {_broken[info.name]}", stacklevel=3)
            continue
        _add(found, getattr(module, "MANIFEST", None), source)
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        source = f"entry point {ep.name} = {ep.value}"
        try:
            manifest = ep.load()
            if getattr(manifest, "name", ep.name) != ep.name:
                raise ValueError(f"it names the game {manifest.name!r}, not {ep.name!r}")
            _add(found, manifest, source)
        except Exception as exc:
            _broken[ep.name] = f"{source}: {exc}"
            warnings.warn(f"game {ep.name!r} skipped: {_broken[ep.name]}", stacklevel=3)
    return found


def _all() -> dict[str, GameManifest]:
    global _manifests
    if _manifests is None:
        _manifests = _discover()
    return _manifests


def register(manifest: GameManifest | str) -> GameManifest:
    """Add a game by its manifest (or the manifest's import path); returns the manifest.
    Registering the same manifest again does nothing; another game of that name is refused."""
    if isinstance(manifest, str):
        manifest = load_ref(manifest)
    _add(_all(), manifest, f"register({getattr(manifest, 'name', manifest)!r})")
    _broken.pop(manifest.name, None)
    return manifest


def unregister(name: str) -> None:
    """Forget a game added with `register` (tests that add a game for a while)."""
    key = _key(name)
    _all().pop(key, None)
    _loaded.pop(key, None)


def manifests() -> list[GameManifest]:
    """The manifests of every registered game, in a fixed order."""
    return list(_all().values())


def game_names() -> list[str]:
    """The registered game names, in a fixed order."""
    return list(_all())


def manifest(name: str) -> GameManifest:
    """The manifest of the game registered under `name`."""
    key = _key(name)
    found = _all().get(key)
    if found is None:
        if key in _broken:
            raise UnknownGame(Reason("game_broken", game=name, error=str(_broken[key])))
        raise UnknownGame(Reason("unknown_game", game=name, games=", ".join(_all())))
    return found


def game_class(name: str) -> type[Game]:
    """The Game subclass registered under `name`."""
    m = manifest(name)
    cls = _loaded.get(m.name)
    if cls is None:
        cls = m.game_class()
        if getattr(cls, "manifest", None) is not m:
            raise TypeError(f"{m.game} does not carry the manifest of {m.name!r} (set `manifest = MANIFEST`)")
        _loaded[m.name] = cls
    return cls


def load(name: str, /, **options: Any) -> Game:
    """The game `name` with the given options (unknown options or bad values raise BadOption)."""
    return game_class(name)(**options)
