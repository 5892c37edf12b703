"""Nothing but a seat's own view reaches it: every message of random games of every game
is checked against the engine's `view(seat)` and legal moves."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from wasserspiele import load
from wasserspiele.core.registry import game_names
from wasserspiele.web.hub import Connection, Hub
from wasserspiele.web.storage import Storage

TABLE_KEYS = {"type", "table", "game", "title", "players", "teams", "n", "to_move", "waiting", "chosen",
              "terminal", "scores", "winners", "seats", "seat", "view", "my_choice", "legal"}


@pytest.mark.parametrize("game", game_names())
def test_every_message_is_the_seats_own_view_and_nothing_more(db_url, game):
    players = load(game).players  # with its default options

    async def scenario():
        storage = Storage(db_url)
        hub = Hub(storage, bot_delay=30)
        table, _ = await hub.create({"game": game, "seats": [{"kind": "human"}] * players})
        inbox: dict[int | None, list[dict]] = {}

        def sink(seat):
            async def send(text):
                inbox.setdefault(seat, []).append(json.loads(text))
            return send
        for seat in [None, *range(players)]:
            table.attach(Connection(sink(seat), seat))
        rng = random.Random(7)
        checked = 0
        for _ in range(60):
            st = table.state
            if st.is_terminal():
                break
            seat = rng.choice(st.to_move())   # simultaneous choices in a random order
            await table.submit(seat, str(rng.choice(list(st.legal_actions(seat)))), table.n)
            await asyncio.sleep(0)       # let the connections send
            for s, msgs in inbox.items():
                msg = msgs[-1]
                assert set(msg) == TABLE_KEYS
                assert msg["seat"] == s and msg["view"] == json.loads(json.dumps(st.view(s)))
                assert msg["scores"] == st.scores_seen_by(s)  # not scores(): a running score may count a hidden card
                committed = {k: str(v) for k, v in st.committed().items()}
                assert msg["my_choice"] == committed.get(s)
                expected = ([str(a) for a in st.legal_actions(s)]
                            if s is not None and s in msg["to_move"] else [])
                assert msg["legal"] == expected
                others = {k: v for k, v in committed.items() if k != s}
                public = json.dumps({k: m for k, m in msg.items() if k not in ("legal", "view", "my_choice")})
                for v in others.values():
                    assert v not in public, (s, v, public)
                checked += 1
            inbox.clear()
        await hub.shutdown()
        storage.close()
        return checked

    assert asyncio.run(scenario()) > 0


def test_a_bots_thinking_time_below_the_delay_is_not_shown(db_url, monkeypatch):
    """A search bot answers a forced move at once and thinks otherwise, and its move was
    shown `bot_delay` after its thinking ended: in Watten a quick follow told the table
    "one card of that suit left".  Bots now think during the delay, and every move is
    shown when the delay ends (the clock and the waits are the test's: nothing is timed)."""
    from wasserspiele.web import hub as hub_module

    clock = [100.0]
    waits: list[float] = []
    thinking = iter([0.05, 0.4, 1.5])  # seconds of thought of the first bot decisions

    async def pause(seconds):
        waits.append(seconds)
        clock[0] += seconds

    monkeypatch.setattr(hub_module, "_now", lambda: clock[0])
    monkeypatch.setattr(hub_module, "_pause", pause)

    async def scenario():
        storage = Storage(db_url)
        hub = Hub(storage, bot_delay=0.7)

        class Bots:  # thinks for a given time, then plays the first legal move
            async def choose(self, record, seat, level, bot_seed, key):
                clock[0] += next(thinking)
                return str(table.state.legal_actions(seat)[0])

        hub.bots = Bots()
        # Watten: seat 3 calls trump and signals first (dealer 0); seat 0 is a human
        table, _ = await hub.create({"game": "watten", "options": {"first_dealer": 0},
                                     "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"},
                                               {"kind": "bot", "level": "expert"}]})
        start = clock[0]
        await table._run_bots()
        assert len(table.state.history) == 2  # trump, then the signal; seat 0 is to move
        storage.close()
        return start

    start = asyncio.run(scenario())
    # each move is shown a whole delay after its decision began: 0.05 s and 0.4 s of thought
    # alike (only a search longer than the delay would show, and none of these was)
    assert waits == pytest.approx([0.65, 0.3])
    assert clock[0] == pytest.approx(start + 0.05 + 0.65 + 0.4 + 0.3)
