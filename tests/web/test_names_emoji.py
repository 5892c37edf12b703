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
    "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # Scotland: tag letters after the black flag
    "1\ufe0f\u20e3 Anna",                # a keycap: a digit, its emoji selector, the keycap
    "Ren\u00e9e \u263a\ufe0f",           # an emoji selector after a smiley
]

LOOK_ALIKES = [
    "An\u200dna",          # between two letters: shows as "Anna"
    "\u200dAnna",          # at the start
    "Anna\u200d",          # at the end
    "Anna\u200d👩",        # a letter before it
    "👩\u200dAnna",        # a letter after it
    "👩\u200d\u200d💻",    # two in a row
    "👩 \u200d💻",         # a space before it
    "An\u200cna",          # a zero-width non-joiner between Latin letters
    "\u200cعلی",           # a non-joiner before a Persian name
    "1\ufe0f\u200d👩",     # a variation selector after a digit is no emoji before it
]

# characters Python calls printable that Unicode draws as nothing (Default_Ignorable_Code_Point)
INVISIBLE = [
    "Anna\ufe0f",          # a variation selector after a letter
    "An\u034fna",          # a combining grapheme joiner
    "Anna\U000e0100",      # a variation selector from the supplement
    "\u3164Anna",          # a Hangul filler (a blank letter)
    "Anna\uffa0",          # its halfwidth form
    "\U000e0067Anna",      # a tag letter with no flag before it
]


@pytest.mark.parametrize("name", JOINED)
def test_a_zero_width_joiner_between_two_emoji_is_part_of_the_name(name):
    assert clean_name(name) == name


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_a_zero_width_joiner_anywhere_else_is_refused_as_a_control_character(name):
    with pytest.raises(Refused) as refused:
        clean_name(name)
    assert refused.value.code == "bad_name" and refused.value.reason.code == "server.name_control"


# scripts whose spelling uses the zero-width (non-)joiner: names written with it were refused
SPELLED_WITH_JOINERS = [
    "علی\u200cرضا",        # Persian Alireza: a non-joiner keeps "Ali" and "reza" apart
    "ශ්\u200dරී",          # Sinhala "Sri": the joiner makes the rakaransaya
    "क्\u200dष",           # Devanagari: a half form by the joiner
    "അന്\u200dവര്\u200d",  # Malayalam Anwar in the older chillu spelling: a joiner after a virama ends it
]


def test_a_name_is_kept_in_one_spelling_of_its_letters():
    """'Rene' + a combining acute + 'e' and 'Renée' are the same name on screen: kept composed (NFC)."""
    assert clean_name("Rene\u0301e") == "Ren\u00e9e"


@pytest.mark.parametrize("name", SPELLED_WITH_JOINERS)
def test_a_joiner_between_letters_of_a_script_that_spells_with_it_is_part_of_the_name(name):
    assert clean_name(name) == name


@pytest.mark.parametrize("name", INVISIBLE)
def test_a_character_drawn_as_nothing_is_refused_though_python_calls_it_printable(name):
    """These passed `clean_name` (str.isprintable is true for them): "An" + U+034F + "na" is
    another "Anna" on every screen."""
    with pytest.raises(Refused) as refused:
        clean_name(name)
    assert refused.value.code == "bad_name" and refused.value.reason.code == "server.name_control"


@pytest.mark.parametrize("name", ["\u2800", "\u2800 \u2800", " \U0001d159 "])
def test_a_name_of_blank_glyphs_alone_is_empty(name):
    """The blank Braille cell and the null notehead are printable and no Default_Ignorable:
    a name of them alone was taken, a seat chip with nothing in it."""
    with pytest.raises(Refused) as refused:
        clean_name(name)
    assert refused.value.code == "bad_name" and refused.value.reason.code == "server.name_empty"


def test_a_blank_braille_cell_between_words_is_a_space():
    assert clean_name("\u2801\u2800\u2803") == "\u2801 \u2803"   # Braille "a b"
    assert clean_name("Anna\u2800\u2800Berg\u2800") == "Anna Berg"


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
