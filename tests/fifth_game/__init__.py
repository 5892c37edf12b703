"""Pebbles, a test-only fifth game: it lives outside the package and is registered from
the tests (tests/conftest.py), so that the tests prove generic code needs no game name."""


def register():
    """Add Pebbles to the registry of this process (what an entry point does for a package)."""
    from wasserspiele.core.registry import register as add

    from .manifest import MANIFEST
    return add(MANIFEST)
