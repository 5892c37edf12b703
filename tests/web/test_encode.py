"""Messages encoded together (the public parts of views built together encoded once) are
exactly the text each message gives on its own, for random games of every game."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from wasserspiele import load
from wasserspiele.core.registry import game_names
import wasserspiele.web.hub as hub_module
from wasserspiele.web.hub import Hub, encode, encode_each
from wasserspiele.web.storage import Storage


@pytest.mark.parametrize("game", game_names())
def test_messages_encoded_together_are_each_seats_own_message(db_url, game, monkeypatch):
    players = load(game).players  # with its default options
    # the clock stands still: a seat's `stand_in_after` (seconds until a bot may be asked to
    # play it) is counted down between the messages compared, a tenth of a second apart at times
    monkeypatch.setattr(hub_module, "_now", lambda: 1000.0)

    async def scenario():
        storage = Storage(db_url)
        hub = Hub(storage, bot_delay=30)
        table, _ = await hub.create({"game": game, "seats": [{"kind": "human"}] * players})
        rng = random.Random(11)
        seats = [None, *range(players)]
        checked = 0
        while not table.state.is_terminal() and checked < 80:
            st = table.state
            texts = table.messages(seats)
            for seat in seats:
                alone = table.message_for(seat)
                assert texts[seat] == encode(alone)
                assert json.loads(texts[seat])["view"] == json.loads(json.dumps(st.view(seat)))
            subset = rng.sample(seats, rng.randint(1, len(seats)))
            assert table.messages(subset) == {s: texts[s] for s in subset}
            seat = rng.choice(st.to_move())
            await table.submit(seat, str(rng.choice(list(st.legal_actions(seat)))), table.n)
            checked += 1
        await hub.shutdown()
        storage.close()
        return checked

    assert asyncio.run(scenario()) > 5


def test_encode_each_writes_shared_parts_and_other_keys_as_encode_does():
    shared = {"track": [{"field": 1}], 3: "int keys are written as strings"}
    messages = {s: {"type": "state", "seat": s, "view": {"seat": s, "public": shared, "own": [s]}} for s in range(3)}
    texts = encode_each(messages)
    assert texts == {s: encode(m) for s, m in messages.items()}
    assert json.loads(texts[2])["view"] == {"seat": 2, "public": {"track": [{"field": 1}],
                                                                   "3": "int keys are written as strings"}, "own": [2]}
