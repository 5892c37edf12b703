"""Seven Waters: two rival water parks built from a card pyramid (shared/spec/seven-waters.md)."""

from .rules import SevenWaters, SevenWatersState

__all__ = ["SevenWaters", "SevenWatersState"]
