"""The German a player reads uses one word per thing, the word the game's glossary
(games/<game>/RULES.md) gives, and the rules pages quote the table as it really speaks.

A newcomer learns the words from the rules page and meets them again at the table and in
the refusals; a second word for the same thing (a river slot called „Position“ on the board
and „Stelle“ in a message), or a quoted log line the table never writes, reads as a
different thing."""

from __future__ import annotations

import re

import pytest

from wasserspiele.core.messages import catalogue, render
from wasserspiele.core.rules_text import player_rules


def flat(text: str) -> str:
    """A page as a reader sees it: one space between words."""
    return " ".join(text.split())


def test_wl_4_2_the_german_wasserloch_page_quotes_the_log_line_the_table_writes():
    # „Letzte Züge“ after two 5s drove off two 3s (wasserloch/web.js logLines): the page's
    # example must be that line, not a verb the table does not use („spielte“ for „legte“)
    line = " ".join([render("wasserloch.web.log", {"who": "…", "n": 2, "v": 5, "a": "Giraffe"}, "de"),
                     render("wasserloch.web.drove", {"v": 3, "n": 2}, "de")])
    assert line == "… legte zwei 5er (Giraffen). Das vertrieb die 3er; 2 Punkte."
    assert f"„{line}“" in flat(player_rules("wasserloch", "de"))


@pytest.mark.parametrize("game, english, german, other", [
    # WW-2: the five places of the river; the glossary's „Position“, as the board's
    # „Überquerung 1 · Position 1“ and the rules page say
    ("wildwasser", r"\bslots?\b", "Position", r"\bStellen?\b"),
])
def test_one_german_word_for_a_thing_in_a_game_s_catalogue(game, english, german, other):
    en, de = catalogue("en").entries, catalogue("de").entries
    texts = {key: (en[key], de[key]) for key in en if key.startswith(f"{game}.") or key.startswith(f"option.{game}.")}
    named = {key: d for key, (e, d) in texts.items()
             if re.search(english, e[-1] if isinstance(e, tuple) else e)}
    assert named, "the English never names it: the check reads nothing"
    wrong = {key: d for key, d in named.items()
             if german not in str(d) or re.search(other, str(d))}
    assert not wrong, wrong
