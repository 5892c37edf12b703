"""Seven Waters: two rival water parks built from a card pyramid (shared/spec/seven-waters.md)."""

__all__ = ["SevenWaters", "SevenWatersState"]


def __getattr__(name: str):
    # The rules load on first use: listing the games imports only `manifest`.
    if name in __all__:
        from . import rules
        return getattr(rules, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
