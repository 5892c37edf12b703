"""One codec per game: `codec_for(game)` gives its fixed action space and observation encoding."""

from __future__ import annotations

from importlib import import_module

from ...core.protocol import Game
from .base import Codec, EncodingError, NotationCodec, Vec

_CODECS = {
    "wasserloch": "WasserlochCodec",
    "seven_waters": "SevenWatersCodec",
    "watten": "WattenCodec",
    "wildwasser": "WildwasserCodec",
}


def codec_for(game: Game) -> Codec:
    """The codec of a loaded game (its sizes may depend on the options, e.g. `players`)."""
    cls_name = _CODECS.get(game.name)
    if cls_name is None:
        raise EncodingError(f"no codec for game {game.name!r} (codecs: {', '.join(_CODECS)})")
    return getattr(import_module(f"{__package__}.{game.name}"), cls_name)(game)


__all__ = ["Codec", "EncodingError", "NotationCodec", "Vec", "codec_for"]
