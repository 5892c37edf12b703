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
