"""The term `seat` (core/messages.py, web/static/messages.js): a seat a message names,
`{seat:seat}`, in the words of the surface that shows it (`say_seat`: the terminal's
board names, the page's player names), else the catalogue's "seat 2" / „Platz 2"; a list
of seats joined as the language joins a list, each seat named alike."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import wasserspiele
from wasserspiele.core.messages import LANGS, Reason, catalogue, render

NAMES = ["Anna", "Ben", "Cleo"]


def _names(seat: int, lang: str) -> str:
    return NAMES[seat]


def test_a_seat_without_a_surface_s_name_is_the_catalogue_s_seat_word():
    reason = Reason("not_your_turn", seat=1, waiting=[0, 2])
    assert str(reason) == "it is not seat 1's turn (waiting for seat 0 and seat 2)"
    assert reason.render("de") == "Platz 1 ist nicht am Zug (am Zug: Platz 0 und Platz 2)"


def test_a_surface_names_each_seat_and_the_language_joins_them():
    reason = Reason("not_your_turn", seat=1, waiting=[0, 2])
    assert reason.render("en", say_seat=_names) == "it is not Ben's turn (waiting for Anna and Cleo)"
    assert reason.render("de", say_seat=_names) == "Ben ist nicht am Zug (am Zug: Anna und Cleo)"
    # the surface is told the language (Wildwasser's "player B", „Spieler B")
    said = render("not_your_turn", {"seat": 1, "waiting": [0]}, "de", say_seat=lambda s, lang: f"{lang}:{s}")
    assert said == "de:1 ist nicht am Zug (am Zug: de:0)"


def test_a_refusal_inside_another_names_its_seats_as_the_outer_one_does():
    inner = Reason("not_your_turn", seat=1, waiting=[0])
    assert render("replay.error", {"index": 3, "action": "x", "by": "", "reason": inner}, "en",
                  say_seat=_names) == 'action 3 "x": it is not Ben\'s turn (waiting for Anna)'


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run web/static/messages.js")
def test_the_page_names_seats_as_the_server_does_given_the_same_names(tmp_path):
    module = tmp_path / "messages.mjs"
    module.write_text((Path(wasserspiele.__file__).parent / "web" / "static" / "messages.js").read_text(encoding="utf-8"),
                      encoding="utf-8")
    reason = Reason("not_your_turn", seat=1, waiting=[0, 2])
    script = ("const { Catalogue } = await import(process.argv[1]);"
              "const input = JSON.parse((await import('node:fs')).default.readFileSync(0, 'utf8'));"
              "const out = {};"
              "for (const [lang, json] of Object.entries(input.cats)) {"
              "  const plain = new Catalogue(json), named = new Catalogue(json);"
              "  named.seatText = (n) => input.names[n];"
              "  out[lang] = [plain, named].map((c) => c.render(input.reason.code, input.reason.params));"
              "}"
              "console.log(JSON.stringify(out));")
    stdin = json.dumps({"cats": {lang: catalogue(lang).to_json() for lang in LANGS}, "names": NAMES,
                        "reason": reason.to_json()})
    done = subprocess.run(["node", "--input-type=module", "-e", script, module.as_uri()], input=stdin,
                          capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == {lang: [reason.render(lang), reason.render(lang, say_seat=_names)]
                                       for lang in LANGS}
