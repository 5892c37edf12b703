"""Player names with emoji: a zero-width joiner (U+200D) is taken where it joins two emoji
into one (the woman technologist), and refused anywhere else, where it is invisible and makes a look-alike
of another name ("An\u200dna" shows as "Anna")."""

from __future__ import annotations

import json

import pytest

from wasserspiele.web.hub import Refused, clean_name

from .helpers import create, hello, table_state

JOINED = [
    "👩\u200d💻",                          # woman technologist
    "👨\u200d👩\u200d👧",                  # family: man, woman, girl
    "❤\ufe0f\u200d🔥",                     # heart on fire: after a variation selector
    "🧑🏽\u200d🤝\u200d🧑🏻",              # people holding hands: after skin-tone modifiers
    "🏳\ufe0f\u200d🌈",                    # rainbow flag
    "🐻\u200d❄\ufe0f",                     # polar bear
    "Anna 👩🏾\u200d💻",                   # a name beside one
]

LOOK_ALIKES = [
    "An\u200dna",          # between two letters: shows as "Anna"
    "\u200dAnna",          # at the start
    "Anna\u200d",          # at the end
    "Anna\u200d👩",        # a letter before it
    "👩\u200dAnna",        # a letter after it
    "👩\u200d\u200d💻",    # two in a row
    "👩 \u200d💻",         # a space before it
    "1\ufe0f\u200d👩",     # a variation selector after a digit is no emoji before it
]


@pytest.mark.parametrize("name", JOINED)
def test_a_zero_width_joiner_between_two_emoji_is_part_of_the_name(name):
    assert clean_name(name) == name


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_a_zero_width_joiner_anywhere_else_is_refused_as_a_control_character(name):
    with pytest.raises(Refused) as refused:
        clean_name(name)
    assert refused.value.code == "bad_name" and refused.value.reason.code == "server.name_control"


def test_an_emoji_name_is_taken_by_the_table_and_a_look_alike_refused(client):
    t = create(client, options={"players": 2}, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        hello(ws, t["seats"][0]["token"])
        ws.send_text(json.dumps({"type": "name", "name": "An\u200dna"}))
        msg = ws.receive_json()
        while msg.get("type") != "refused":
            msg = ws.receive_json()
        assert msg["code"] == "bad_name" and msg["reason_code"] == "server.name_control"
        ws.send_text(json.dumps({"type": "name", "name": "👩\u200d💻"}))
        msg = ws.receive_json()
        while msg.get("type") == "state" and msg["seats"][0]["name"] is None:
            msg = ws.receive_json()
        assert msg.get("type") == "state" and msg["seats"][0]["name"] == "👩\u200d💻", msg
    client.app.state.hub.forget(t["id"])
    assert table_state(client, t["id"])["seats"][0]["name"] == "👩\u200d💻"  # stored as given
