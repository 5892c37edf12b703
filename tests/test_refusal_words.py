"""Refusals said to whoever reads them, in every game (WL-4.1, SW-4, WA-3, WW-3).

A refusal is shown beside the tapped card on the player's own screen, on the terminal,
and inside a replay error, which names the seat itself ('action 4 "pick zebra" by seat 0:
…'): words that speak to the acting player ("you do not hold A♥", "dein Tier Zebra …",
"play a card") were wrong there.  So no refusal code a game's rules name says "you" or
gives an order, in either language; notation errors (actions.py) may, since they speak to
whoever typed the move or wrote the record.  Events are excluded: their `.you` forms are
said to the acting player only, by design.  The games' own files test the exact words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wasserspiele.core.messages import catalogue
from wasserspiele.core.registry import game_class

GAMES = ("wasserloch", "seven_waters", "watten", "wildwasser")
YOU = {"en": re.compile(r"\b(you|your|yours)\b", re.I), "de": re.compile(r"\b(du|dein\w*|dich|dir)\b", re.I)}
# the imperatives old refusals used ("answer with …", "resolve your …", "choose …", "say which",
# "write just 'move'"; "antworte", "spiel eine Karte", "führe … aus", "wähle", "sag", "schreib", "zieh", "gib");
# German verbs in lower case only: "Spiel" is the game
ORDER = {"en": re.compile(r"\b(answer with|play a card|resolve|choose|say|write|move (it|your))\b", re.I),
         "de": re.compile(r"\b(antworte|spiel|führe|wähle|sag|schreib|zieh|gib)\b")}


def refusal_codes(game: str) -> list[str]:
    """Every message code `game`'s rules name, those built in an f-string (`no_{kind}_choice`)
    included, setup checks too, events left out."""
    rules = Path(__import__(game_class(game).__module__, fromlist=["_"]).__file__)
    named = set(re.findall(rf'f?"({game}\.[a-z_.{{}}]+)"', rules.read_text(encoding="utf-8")))
    keys = catalogue("en").entries
    codes = set()
    for code in named:
        pattern = re.compile(re.sub(r"\\\{[a-z_]+\\\}", "[a-z_]+", re.escape(code)))
        found = {k for k in keys if pattern.fullmatch(k)}
        assert found, code  # a code the rules name that no catalogue entry answers
        codes |= found
    return sorted(c for c in codes if ".event." not in c)


def test_every_game_names_its_refusals_where_this_test_finds_them():
    counts = {game: len(refusal_codes(game)) for game in GAMES}
    assert all(n >= 5 for n in counts.values()), counts
    assert {"wildwasser.no_sun_choice", "wildwasser.no_marker_choice"} <= set(refusal_codes("wildwasser"))


@pytest.mark.parametrize("code", [code for game in GAMES for code in refusal_codes(game)])
def test_no_refusal_says_you_or_gives_an_order_in_either_language(code):
    for lang in ("en", "de"):
        entry = catalogue(lang).entries[code]
        for form in entry if isinstance(entry, tuple) else (entry,):
            assert not YOU[lang].search(form), (lang, code, form)
            assert not ORDER[lang].search(form), (lang, code, form)
