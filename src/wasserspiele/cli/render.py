"""Text renderers of views: each game names one in its manifest (`plugins.render`,
e.g. `games/<game>/render.py`).

A renderer module defines
  render_view(view: dict, lang: str = "en") -> str    the position as one seat (or a spectator) sees it
  render_result(view: dict, lang: str = "en") -> str  the end-of-game score table (from a terminal view)
  describe_last(view: dict, lang: str = "en") -> str  what happened since that seat last acted ("" if nothing)
Text may carry rich markup ([bold], [red] …).  Renderers read views only; every word
comes from the message catalogue (core/messages.py: `<game>.ui.*` labels, `<game>.event.*`
event texts — an event's kind is its code).

render_view and render_result may take a keyword `width` (the terminal's columns, `drawn`):
a board whose rows rich would wrap mid-cell (Wildwasser's track) lays them out to fit.
render_view and render_result may take a keyword `plain` (`play --plain`, for a screen
reader that reads the terminal line by line): True asks for each row as a line of words,
without the signs that only line things up (Wildwasser's bracketed fields, Seven Waters'
`##`, Wasserloch's `·`) and without figures in columns under heads (the result tables);
the parts of a line separated by semicolons or commas, not by `·` or `|` (read "middle
dot", "vertical line").  describe_last and describe_own may take `plain` too (Watten's hand
ends, Seven Waters' extra actions).

Optional, for the terminal's input and move lists in the player's language:
  seat_name(seat, lang) -> str          how the board names a seat ("seat 2", "player C")
  show_action(text, lang) -> str        an action's notation as the board shows it
  read_action(text, lang) -> str        typed text (German words, the board's names) → notation
  say_action(text, lang) -> str | None  an action in words, for plain output's hint (Wasserloch:
                                        `3x2` → "play two 3s", its move button's words); None: the
                                        notation says it
  say_card(name, lang) -> str           a card in words for plain output ("8 of spades"): the cards
                                        of a refusal (`{held:card}`) are said with it
                                        (core.messages.render's `say_card`)
  legend(view, lang) -> str             extra lines for `help` (card ranks, suits, as the options say)
"""

from __future__ import annotations

import functools
import inspect
from types import ModuleType
from typing import Callable

from ..core.errors import WasserspieleError
from ..core.manifest import PluginMissing
from ..core.registry import manifest


def renderer(game_name: str) -> ModuleType:
    """The renderer module of a game."""
    try:
        return manifest(game_name).plugin("render")
    except PluginMissing:
        raise WasserspieleError(f"{game_name} has no terminal renderer (its manifest declares none)") from None


def drawn(draw: Callable[..., str], view: dict, lang: str, width: int | None, plain: bool = False) -> str:
    """`draw(view, lang)` (a renderer's render_view or render_result), told the terminal's
    `width` when it takes one, and `plain` when it is asked and the renderer has a plain form."""
    kwargs: dict = {}
    if width is not None and _takes(draw, "width"):
        kwargs["width"] = width
    if plain and _takes(draw, "plain"):
        kwargs["plain"] = True
    return draw(view, lang, **kwargs)


@functools.cache
def _takes(draw: Callable[..., str], keyword: str) -> bool:
    """Whether a renderer's function has `keyword` (read once: it is asked at every turn)."""
    return keyword in inspect.signature(draw).parameters
