"""The lobby reaches bots by level only (web/hub.py checks the level before a bot is
made) and games by name: those refusals quote what the request named as the page's
language quotes ('x', „x“), in the message the client shows (the same catalogue term
`quote` that web/static/messages.js renders)."""

from __future__ import annotations

import pytest

SEATS = [{"kind": "human"}, {"kind": "bot", "level": "grand'master"}, {"kind": "bot", "level": "easy"}]


@pytest.mark.parametrize("body, english, german", [
    ({"game": "wasserloch", "seats": SEATS},
     "seats[1].level: 'grand'master' is not one of easy, medium, hard, expert",
     "seats[1].level: „grand'master“ ist keine der Spielstärken easy, medium, hard, expert"),
    ({"game": "no'game"}, "unknown game 'no'game' (games: ", "es gibt kein Spiel namens „no'game“ (Spiele: "),
])
def test_a_lobby_refusal_quotes_what_was_named_in_the_pages_language(client, body, english, german):
    for lang, words in (("en", english), ("de", german)):
        r = client.post("/api/tables", json=body, headers={"Accept-Language": lang})
        assert r.status_code == 400, r.text
        payload = r.json()
        assert payload["message"].startswith(words), payload
        assert payload["reason"].startswith(english)  # the English words, for a client without a catalogue
