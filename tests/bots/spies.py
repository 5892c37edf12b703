"""A spy on the true state, for the tests that bots read views only."""

from __future__ import annotations

# what a bot would call to read or change the true state
STATE_METHODS = ("apply", "legal_actions", "to_move", "view", "scores", "state_json", "is_terminal")


def spy_on(state, monkeypatch) -> list[str]:
    """The names of the methods anything calls on `state` itself from now on (the class's,
    so the worlds a bot samples still work), in a list that grows as they are called."""
    touched: list[str] = []
    cls = type(state)
    for method in STATE_METHODS:
        original = getattr(cls, method)

        # bound as the instance finds it: Wildwasser's `is_terminal` is a slot's descriptor
        # holding a C callable, not a function (games/wildwasser/state.py)
        def spy(self, *args, _original=original, _name=method, **kwargs):
            if self is state:
                touched.append(_name)
            return _original.__get__(self, type(self))(*args, **kwargs)

        monkeypatch.setattr(cls, method, spy)
    return touched
