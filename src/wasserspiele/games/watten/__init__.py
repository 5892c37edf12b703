"""Watten: four players in two teams, trump called by the player on the dealer's right."""

from .rules import Watten, WattenState

__all__ = ["Watten", "WattenState"]
