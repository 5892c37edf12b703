"""Wasserloch: a Kariba-like game for 2–4 players (shared/spec/wasserloch.md)."""

from .rules import Wasserloch, WasserlochState

__all__ = ["Wasserloch", "WasserlochState"]
