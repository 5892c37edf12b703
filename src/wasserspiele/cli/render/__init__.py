"""Text renderers of views, one module per game: `cli.render.<game>`.

Each module defines
  render_view(view: dict, lang: str = "en") -> str    the position as one seat (or a spectator) sees it
  render_result(view: dict, lang: str = "en") -> str  the end-of-game score table (from a terminal view)
  describe_last(view: dict, lang: str = "en") -> str  what happened since that seat last acted ("" if nothing)
Text may carry rich markup ([bold], [red] …).  Renderers read views only.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType


def renderer(game_name: str) -> ModuleType:
    """The renderer module of a game."""
    return import_module(f"{__package__}.{game_name}")
