"""SW notation: a discard names its cards without declarations (`discard 4S X2`).  The
refusal of `discard JC=3` quoted the token raw, so a German player read the English letters
(`JC=3`) where every other message names the card as `B♣`, and a token that is no card
(`ZZ=3`, `=3`) was blamed on its declaration, where a slide or a river says it is no card."""

from __future__ import annotations

import pytest

from wasserspiele import load
from wasserspiele.core.errors import BadNotation

GAME = load("seven_waters")


def _refusal(text: str):
    with pytest.raises(BadNotation) as err:
        GAME.parse_action(text)
    return err.value.reason


@pytest.mark.parametrize(("typed", "token", "en", "de"), [
    ("discard JC=3", "JC=3", "'discard JC=3': discarded cards carry no declaration ('JC=3')",
     "„discard JC=3“: abgeworfene Karten werden nicht festgelegt („B♣=3“)"),
    ("discard 4S  x2=h", "X2=H", "'discard 4S  x2=h': discarded cards carry no declaration ('X2=H')",
     "„discard 4S  x2=h“: abgeworfene Karten werden nicht festgelegt („Jk2=♥“)"),
    ("discard 10h=t", "TH=T", "'discard 10h=t': discarded cards carry no declaration ('TH=T')",
     "„discard 10h=t“: abgeworfene Karten werden nicht festgelegt („10♥=10“)"),
])
def test_sw_notation_a_declared_discard_names_the_card_in_the_letters_of_the_language(typed, token, en, de):
    reason = _refusal(typed)
    assert reason.code == "seven_waters.notation.discard_declared"
    assert dict(reason.params) == {"text": typed, "token": token}  # the card by its canonical name
    assert reason.render("en") == en
    assert reason.render("de") == de


@pytest.mark.parametrize(("typed", "card"), [("discard ZZ=3", "ZZ"), ("discard =3", ""), ("discard 4S 1S=H", "1S")])
def test_sw_notation_a_declared_discard_of_no_card_is_refused_as_no_card_as_a_slide_is(typed, card):
    reason = _refusal(typed)
    assert reason.code == "seven_waters.notation.not_a_card"
    assert dict(reason.params) == {"where": typed.strip(), "card": card}
    assert _refusal(typed.replace("discard", "slide 2")).code == reason.code


def test_sw_notation_a_declared_plain_card_in_a_slide_names_it_in_the_letters_of_the_language():
    """The same for a plain card given a declaration in a building action (`slide 2 jc=3`):
    German named it by the typed letters (`jc=3`), now as a card."""
    reason = _refusal("slide 2 jc=3 4S")
    assert reason.code == "seven_waters.notation.declared_plain"
    assert reason.params["token"] == "JC=3"
    assert reason.render("de") == "„slide 2 jc=3 4S“: nur ein Joker wird mit = festgelegt („B♣=3“); schreib B♣"
