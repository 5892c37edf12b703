"""Watten: four players in two teams, trump called by the player on the dealer's right."""

__all__ = ["Watten", "WattenState"]


def __getattr__(name: str):
    # The rules load on first use: listing the games imports only `manifest`.
    if name in __all__:
        from . import rules
        return getattr(rules, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
