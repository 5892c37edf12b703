"""One codec per game: `codec_for(game)` gives its fixed action space and observation encoding.

A game names its codec class in its manifest (`plugins.codec`, e.g. `games/<game>/codec.py`)."""

from __future__ import annotations

from ...core.manifest import PluginMissing
from ...core.protocol import Game
from .base import Codec, EncodingError, NotationCodec, Vec


def codec_for(game: Game) -> Codec:
    """The codec of a loaded game (its sizes may depend on the options, e.g. `players`)."""
    try:
        cls = game.manifest.plugin("codec")
    except PluginMissing:
        raise EncodingError(f"no codec for game {game.name!r}: its manifest declares none") from None
    return cls(game)


__all__ = ["Codec", "EncodingError", "NotationCodec", "Vec", "codec_for"]
