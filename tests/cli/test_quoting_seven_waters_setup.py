"""A hand-edited Seven Waters record was refused in English with Python's quotes on a
German screen: `setup.deck[5]: None is not a card name (like 'TH' or 'X1')`,
`"it's" is not a card (…)`, and `has 1 cards`.  The setup's refusals are
`seven_waters.setup.*` codes (games/seven_waters/rules.py validate_setup), said in the
reader's language through `replay FILE` and `play --resume FILE`: a value the file holds
is quoted as the language quotes ('x', „x“: the term `quote`) or shown as JSON writes it
(`null`, `{"x": 1}`), and field paths and the card names as a record spells them
(`setup.deck[0]`, `TH`, records.md) are data.  A record's unparsable action names the
typed action quoted in English too (`'slide 2 ZZ=3': …`, not `slide 2 ZZ=3: …`), as
German did and as the game's other notation refusals do."""

from __future__ import annotations

import json

import pytest

from wasserspiele.core.cards import ALL_CARDS
from wasserspiele.core.errors import BadRecord
from wasserspiele.core.registry import load

from .test_quoting_search_setup import said

DECK = [c.name for c in ALL_CARDS]  # the 54 cards in card order: AC 2C … KS X1 X2

SETUPS = [  # (setup, English, German)
    ({"deck": "AC 2C"}, "setup.deck: must be a list of the 54 card names in dealing order",
     "setup.deck: muss eine Liste der 54 Kartennamen in der Reihenfolge des Austeilens sein"),
    # JSON's null and object, not Python's None and dict
    ({"deck": DECK[:5] + [None] + DECK[6:]}, "setup.deck[5]: null is not a card name (like 'TH' or 'X1')",
     "setup.deck[5]: null ist kein Kartenname (wie „TH“ oder „X1“)"),
    ({"deck": DECK[:3] + [{"x": 1}] + DECK[4:]},
     'setup.deck[3]: {"x": 1} is not a card name (like \'TH\' or \'X1\')',
     'setup.deck[3]: {"x": 1} ist kein Kartenname (wie „TH“ oder „X1“)'),
    # text the file holds, quoted as the language quotes (Python wrote "it's")
    ({"deck": DECK[:5] + ["it's"] + DECK[6:]},
     "setup.deck[5]: 'it's' is not a card (rank A 2-9 T J Q K then suit C D H S, or joker X1/X2)",
     "setup.deck[5]: „it's“ ist keine Karte (Wert A 2-9 T J Q K, dann Farbe C D H S; oder Joker X1/X2)"),
    ({"deck": DECK + ["AC"]}, "setup.deck[54]: AC appears twice (also at setup.deck[0])",
     "setup.deck[54]: AC kommt doppelt vor (auch in setup.deck[0])"),
    # a card spelt 10h is the ten of hearts, named as a record writes it
    ({"deck": DECK[:10] + ["10h"] + DECK[11:35] + ["TH"] + DECK[36:]},
     "setup.deck[35]: TH appears twice (also at setup.deck[10])",
     "setup.deck[35]: TH kommt doppelt vor (auch in setup.deck[10])"),
    ({"deck": DECK[:53]}, "setup.deck: has 53 cards but every one of the 54 is dealt (missing: X2)",
     "setup.deck: hat 53 Karten, es werden aber alle 54 ausgeteilt (nicht dabei: X2)"),
    ({"deck": ["AC"]},
     "setup.deck: has 1 card but every one of the 54 is dealt (missing: 2C 3C 4C 5C 6C 7C 8C 9C …)",
     "setup.deck: hat 1 Karte, es werden aber alle 54 ausgeteilt (nicht dabei: 2C 3C 4C 5C 6C 7C 8C 9C …)"),
]


def _refused_in_both(run, tmp_path, doc, status, english, german):
    """`replay` and `play --resume` both exit with `status` (records.md, Exit status: 1 an
    action refused where it stands, 2 a refused document)."""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc, ensure_ascii=False))
    for command in (("replay", str(path)), ("play", "--resume", str(path))):
        result = run(*command, input="quit\n")
        assert result.exit_code == status and said(result).startswith(f"Error: {english}"), result.output
        result = run(*command, "--lang", "de", input="ende\n")
        assert result.exit_code == status and said(result).startswith(f"Fehler: {german}"), result.output


@pytest.mark.parametrize("setup, english, german", SETUPS, ids=[e for _, e, _ in SETUPS])
def test_sw_record_setup_a_malformed_deck_is_refused_in_the_readers_language(run, tmp_path, setup, english,
                                                                            german):
    """records.md: setup of the wrong size or with duplicate or missing cards is refused
    with exit status 2, saying which field is wrong — in the reader's language."""
    _refused_in_both(run, tmp_path, {"game": "seven_waters", "setup": setup, "actions": []}, 2, english, german)


NOTATION = [  # (action, English, German): the typed action quoted in both languages
    ("slide 2 ZZ=3",
     "'slide 2 ZZ=3': 'ZZ' is not a card (rank A 2-9 T J Q K then suit C D H S, or joker X1/X2)",
     "„slide 2 ZZ=3“: „ZZ“ ist keine Karte (Wert A 2-9 10 B D K, dann Farbe Kr Ka H P oder ♣ ♦ ♥ ♠; oder Joker "
     "Jk1/Jk2)"),
    ("pool X1=it's", "'pool X1=it's': a joker in the pool stands for a suit C D H S, not 'it's'",
     "„pool X1=it's“: ein Joker im Wellenbecken steht für eine Farbe (Kr Ka H P), nicht für „it's“"),
    ("river 8S X1=Z", "'river 8S X1=Z': a joker in the river stands for a rank A 2-9 T J Q K, not 'Z'",
     "„river 8S X1=Z“: ein Joker im Strömungskanal steht für einen Rang A 2-9 10 B D K, nicht für „Z“"),
    ("slide 1 X1=11", "'slide 1 X1=11': a joker in a slide stands for a value 1-10, not '11'",
     "„slide 1 X1=11“: ein Joker in einer Rutsche steht für einen Wert 1-10, nicht für „11“"),
    ("slide 2 KD X1", "'slide 2 KD X1': a joker being placed must say what it stands for, e.g. X1=7",
     "„slide 2 KD X1“: ein Joker, den du auslegst, muss sagen, wofür er steht, z. B. Jk1=7"),
    ("river 2C=3 3C", "'river 2C=3 3C': only a joker carries a declaration ('2C=3'); write 2C",
     "„river 2C=3 3C“: nur ein Joker wird mit = festgelegt („2♣=3“); schreib 2♣"),
]


@pytest.mark.parametrize("action, english, german", NOTATION, ids=[a for a, _, _ in NOTATION])
def test_records_an_unparsable_seven_waters_action_names_it_quoted_in_both_languages(run, tmp_path, action,
                                                                                    english, german):
    """records.md: an unparsable action stops the replay with exit status 1, naming the
    action, the seat and why."""
    doc = {"game": "seven_waters", "seed": 1, "actions": [action]}
    _refused_in_both(run, tmp_path, doc, 1, f'action 0 "{action}" by seat 0: {english}',
                     f"Aktion 0 „{action}“ von Platz 0: {german}")


def test_sw_record_setup_a_refusal_is_a_code_with_the_field_path_as_data():
    with pytest.raises(BadRecord) as err:
        load("seven_waters").new_game(setup={"deck": DECK + ["AC"]})
    reason = err.value.reason
    assert reason.code == "seven_waters.setup.card_twice", reason
    assert dict(reason.params) == {"field": "setup.deck[54]", "card": "AC", "first": "setup.deck[0]"}
    with pytest.raises(BadRecord) as err:
        load("seven_waters").new_game(setup={"deck": DECK[:5] + [True] + DECK[6:]})
    assert err.value.reason.code == "seven_waters.setup.not_card_name"
    assert err.value.reason.render("de").startswith("setup.deck[5]: true ist kein Kartenname")
