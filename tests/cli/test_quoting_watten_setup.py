"""A hand-edited Watten record's setup was refused in English with Python's quotes on a
German screen (`setup.deals[0][31]: 7 is not a card name`, `'x' is not a number`).  The
setup's refusals are `watten.setup.*` codes (games/watten/rules.py validate_setup, WA-1.2
deals, WA-5.1 signal checks), said in the reader's language through `replay FILE` and
`play --resume FILE`; the field paths and card names are the record's own."""

from __future__ import annotations

import pytest

from wasserspiele.games.watten.actions import CARD_NAMES

from .test_quoting_seven_waters_setup import _refused_in_both

DEAL = list(CARD_NAMES)  # the 32 cards in card order: a deal

SETUPS = [  # (setup, English, German)
    ({"deals": "x"}, "setup.deals: must be a list of 32-card lists",
     "setup.deals: muss eine Liste von Kartenfolgen zu je 32 Karten sein"),
    ({"deals": [5]}, "setup.deals[0]: must be a list of 32 cards", "setup.deals[0]: muss eine Liste von 32 Karten sein"),
    ({"deals": [DEAL[:31]]}, f"setup.deals[0]: has 31 cards, a deal has exactly 32 (missing: {DEAL[31]})",
     f"setup.deals[0]: hat 31 Karten, ein Austeilen braucht genau 32 (es fehlen: {DEAL[31]})"),
    ({"deals": [DEAL[:1]]}, "setup.deals[0]: has 1 card, a deal has exactly 32 (missing: ",
     "setup.deals[0]: hat 1 Karte, ein Austeilen braucht genau 32 (es fehlen: "),
    ({"deals": [DEAL + ["7C"]]}, "setup.deals[0]: has 33 cards, a deal has exactly 32",
     "setup.deals[0]: hat 33 Karten, ein Austeilen braucht genau 32"),
    # JSON's null, not Python's None
    ({"deals": [DEAL[:31] + [None]]}, "setup.deals[0][31]: null is not a card name",
     "setup.deals[0][31]: null ist kein Kartenname"),
    # the card's own refusal, in the same language (was English inside German)
    ({"deals": [DEAL[:31] + ["2H"]]}, "setup.deals[0][31]: '2H' is not in the Watten deck",
     "setup.deals[0][31]: „2H“ gehört nicht zum Watten-Blatt"),
    ({"deals": [DEAL[:31] + [DEAL[0]]]},
     f"setup.deals[0]: {DEAL[0]} appears twice (positions 0 and 31)",
     f"setup.deals[0]: {DEAL[0]} kommt doppelt vor (an den Stellen 0 und 31)"),
    ({"deals": [DEAL], "signal_checks": "x"}, "setup.signal_checks: must be a list of numbers in [0, 1)",
     "setup.signal_checks: muss eine Liste von Zahlen in [0, 1) sein"),
    ({"deals": [DEAL], "signal_checks": ["x"]}, "setup.signal_checks[0]: 'x' is not a number",
     "setup.signal_checks[0]: „x“ ist keine Zahl"),
    ({"deals": [DEAL], "signal_checks": [True]}, "setup.signal_checks[0]: true is not a number",
     "setup.signal_checks[0]: true ist keine Zahl"),
    ({"deals": [DEAL], "signal_checks": [0.5, 1.0]}, "setup.signal_checks[1]: 1.0 is not in [0, 1)",
     "setup.signal_checks[1]: 1.0 liegt nicht in [0, 1)"),
]


@pytest.mark.parametrize("setup, english, german", SETUPS, ids=[e for _, e, _ in SETUPS])
def test_wa_1_2_a_malformed_watten_setup_is_refused_in_the_readers_language(run, tmp_path, setup, english, german):
    _refused_in_both(run, tmp_path, {"game": "watten", "setup": setup, "actions": []}, 2, english, german)
