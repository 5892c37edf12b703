"""Research interfaces (install with the `[rl]` extra): fixed action spaces and vector
observations per game (`codecs`), PettingZoo (`pettingzoo.env`), Gymnasium
(`wasserspiele/<Game>-v0`) and OpenSpiel (`openspiel.register`).  Adapters use only the
public protocol: views, legal actions and their notation, records.  See docs/encodings.md."""

from .codecs import codec_for

__all__ = ["codec_for"]
