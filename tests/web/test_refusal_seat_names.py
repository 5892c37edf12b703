"""A refusal the page shows names a seat as the page does: by its player's name (i18n.js
`seatNamer`, the names of the chips and the log), where it said the seat's number, a
number the page shows nowhere for a named player ("Refused: it is not seat 1's turn
(waiting for seat 0)" at a table of Anna and Ben).  A seat nobody named keeps the
catalogue's "seat 0", the words the page's own sentences use for it (`seatInText`).  The
refusal is the server's own (`not_your_turn`, {reason_code, params}), rendered by the
page's i18n.js `refusalText` as app.js renders every refusal."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import wasserspiele
from wasserspiele.core.messages import LANGS, catalogue

from .helpers import create, humans, move, table_state

STATIC = Path(wasserspiele.__file__).resolve().parent / "web" / "static"  # the page of the code under test

# i18n.js in node: the few browser globals it reads at import and on a language switch
SCRIPT = """
const input = JSON.parse((await import('node:fs')).default.readFileSync(0, 'utf8'));
globalThis.location = { search: '' };
globalThis.navigator = { languages: ['en'] };
const kept = {};
globalThis.localStorage = { getItem: (k) => kept[k] ?? null, setItem: (k, v) => { kept[k] = v; } };
globalThis.document = { documentElement: {}, getElementById: () => null };
globalThis.fetch = async (url) => ({ ok: true, json: async () => input.cats[url.split('/').pop()] });
const i18n = await import(process.argv[1]);
const out = {};
for (const lang of Object.keys(input.cats)) {
  await i18n.setLang(lang);
  out[lang] = {};
  for (const [case_, names] of Object.entries(input.names)) {
    i18n.setSeatNamer((n) => names[n] ?? null);
    out[lang][case_] = i18n.refusalNotice(input.body);
  }
}
console.log(JSON.stringify(out));
"""

SAID = {
    "en": {"named": "Refused: it is not Ben's turn (waiting for Anna)",
           "half": "Refused: it is not Ben's turn (waiting for seat 0)",
           "nobody": "Refused: it is not seat 1's turn (waiting for seat 0)"},
    "de": {"named": "Nicht erlaubt: Ben ist nicht am Zug (am Zug: Anna)",
           "half": "Nicht erlaubt: Ben ist nicht am Zug (am Zug: Platz 0)",
           "nobody": "Nicht erlaubt: Platz 1 ist nicht am Zug (am Zug: Platz 0)"},
}


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run web/static/i18n.js")
def test_the_page_names_the_seats_of_a_refused_move_by_their_players_names(client, tmp_path):
    table = create(client, "wasserloch", {"players": 2}, humans(2))
    tok = {s["seat"]: s["token"] for s in table["seats"]}
    mine = table_state(client, table["id"], tok[0])
    refused = move(client, table["id"], tok[1], "Ax1", mine["n"])  # seat 1 moves at seat 0's turn
    body = refused.json()
    assert refused.status_code == 409 and body["reason_code"] == "not_your_turn", body
    for name in ("i18n.js", "messages.js"):
        shutil.copy(STATIC / name, tmp_path / name)
    (tmp_path / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    stdin = json.dumps({"cats": {lang: catalogue(lang).to_json() for lang in LANGS}, "body": body,
                        "names": {"named": ["Anna", "Ben"], "half": [None, "Ben"], "nobody": []}})
    done = subprocess.run(["node", "--input-type=module", "-e", SCRIPT, (tmp_path / "i18n.js").as_uri()],
                          input=stdin, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == SAID
