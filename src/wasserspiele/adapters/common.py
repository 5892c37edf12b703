"""What the three environments share: loading a game with its codec, zero-sum rewards,
text rendering and seeding."""

from __future__ import annotations

import json
from typing import Any

from ..core.protocol import Game, State
from ..core.registry import load
from .codecs import Codec, codec_for



def load_with_codec(game: str | Game, options: dict[str, Any]) -> tuple[Game, Codec]:
    if isinstance(game, Game):
        if options:
            raise ValueError("pass options either to wasserspiele.load or here, not both")
        g = game
    else:
        g = load(game, **options)
    return g, codec_for(g)


def zero_sum(state: State) -> list[float]:
    """Each seat's return minus the mean return: 0 for everybody while the game runs,
    and a sum of 0 at the end (a 3-player win: +2/3, -1/3, -1/3; Watten: ±0.5 per partner)."""
    r = state.returns()
    mean = sum(r) / len(r)
    return [x - mean for x in r]


def agent_info(state: State, seat: int, acting: bool, view: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the environments put in a seat's `info`: the notation of its legal actions
    (empty while it waits) and the raw view its observation encodes (`view` if the
    caller has it already)."""
    legal = [str(a) for a in state.legal_actions(seat)] if acting else []
    return {"legal_actions": legal, "view": state.view(seat) if view is None else view}


def render_text(state: State, seat: int | None) -> str:
    """The position as `seat` sees it, via the game's terminal renderer (markup stripped), or JSON."""
    view = state.view(seat)
    try:
        text = state.game.manifest.plugin("render").render_view(view)
    except Exception:  # a renderer that is missing or broken must not break training loops
        return json.dumps(view, indent=1)
    try:
        from rich.text import Text
        return Text.from_markup(text).plain
    except Exception:
        return text
