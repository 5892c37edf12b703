"""Wildwasser: an animal race over a drifting river (shared/spec/wildwasser.md)."""

from .rules import Wildwasser, WildwasserState

__all__ = ["Wildwasser", "WildwasserState"]
