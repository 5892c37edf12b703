"""WL-4.1: a play in the web log is told in words, the move button's words.

Found by a tester playing in German: the log said "Bot (mittel, Platz 2) legte 1 × 7
(Elefant).", which a screen reader reads "1 mal 7" (the log's list is a Tab stop), while
the move buttons say "eine 7 ausspielen" and the spoken announcement "eine Karte vom Wert
7".  The line now counts in words as the buttons do ("legte eine 7 (Elefant)", "legte drei
7er (Elefanten)"), its animals in the count's number."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from wasserspiele.core.messages import catalogue, render

SRC = Path(__file__).resolve().parents[3] / "src" / "wasserspiele"
VALUES = ["A", "2", "3", "4", "5", "6", "7", "8"]
ANIMALS = ["mouse", "flamingo", "zebra", "cheetah", "giraffe", "rhino", "elephant", "crocodile"]


def _line(n: int, v: str, lang: str, who: str = "Bot") -> str:
    """The log's line for a play of `n` cards of value `v` (wasserloch/web.js logLines:
    `a` is the value's animal, named in the singular)."""
    a = render(f"wasserloch.web.animal.{ANIMALS[VALUES.index(v)]}", {}, lang)
    return render("wasserloch.web.log", {"who": who, "n": n, "v": v, "a": a}, lang)


@pytest.mark.parametrize(("n", "v", "en", "de"), [
    (1, "7", "Bot played one 7 (elephant).", "Bot legte eine 7 (Elefant)."),
    (3, "7", "Bot played three 7s (elephants).", "Bot legte drei 7er (Elefanten)."),
    (1, "A", "Bot played one ace (mouse).", "Bot legte ein Ass (Maus)."),
    (2, "A", "Bot played two aces (mice).", "Bot legte zwei Asse (Mäuse)."),
    (2, "5", "Bot played two 5s (giraffes).", "Bot legte zwei 5er (Giraffen)."),
    (5, "6", "Bot played five 6s (rhinos).", "Bot legte fünf 6er (Nashörner)."),
])
def test_wl_4_1_the_log_tells_a_play_in_words(n, v, en, de):
    assert _line(n, v, "en") == en and _line(n, v, "de") == de


@pytest.mark.parametrize("lang", ["en", "de"])
def test_wl_4_1_every_play_of_the_log_says_the_move_button_s_words_and_no_sign(lang):
    """Every count a hand can play (1–5, WL-3.2) of every value: the button's words
    ("play three 7s" / „drei 7er ausspielen“) without its verb, no "×", no bare digit count."""
    for v in VALUES:
        for n in range(1, 6):
            line = _line(n, v, lang, who="…")
            cards = render("wasserloch.web.cards_of", {"n": n, "v": v}, lang)     # "three 7s", „drei 7er“
            button = render("wasserloch.web.play_button", {"n": n, "v": v}, lang)
            assert cards in button, (cards, button)
            assert cards in line and "×" not in line, line
            if n > 1:  # the animals in the count's number: not "three 7s (elephant)"
                singular = render(f"wasserloch.web.animal.{ANIMALS[VALUES.index(v)]}", {}, lang)
                assert f"({singular})" not in line, line


def test_wl_4_2_the_rules_pages_quote_the_line_the_table_writes():
    """The rules pages' example (two 5s drive off two 3s) is the log's line, in words."""
    for lang, page in (("en", "rules.en.md"), ("de", "rules.de.md")):
        line = " ".join([_line(2, "5", lang, who="…"), render("wasserloch.web.drove", {"v": "3", "n": 2}, lang)])
        text = " ".join((SRC / "games" / "wasserloch" / page).read_text(encoding="utf-8").split())
        assert line in text, (lang, line)
        assert "2 × 5" not in text, lang


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run web/static/messages.js")
def test_wl_4_1_the_browser_words_the_log_line_as_the_server_does(tmp_path):
    """The page renders the line itself (web/static/messages.js): the plural form chosen
    by the count and the animals' plural looked up as a term of the value."""
    module = tmp_path / "messages.mjs"
    module.write_text((SRC / "web" / "static" / "messages.js").read_text(encoding="utf-8"), encoding="utf-8")
    cases = [{"who": "Bot", "n": n, "v": v, "a": "x"} for v in VALUES for n in (1, 2, 5)]
    script = ("const { Catalogue } = await import(process.argv[1]);"
              "const input = JSON.parse((await import('node:fs')).default.readFileSync(0, 'utf8'));"
              "const out = {};"
              "for (const [lang, cat] of Object.entries(input.cats)) {"
              "  const c = new Catalogue(cat);"
              "  out[lang] = input.cases.map((p) => c.render('wasserloch.web.log', p));"
              "}"
              "console.log(JSON.stringify(out));")
    payload = json.dumps({"cats": {lang: catalogue(lang).to_json() for lang in ("en", "de")}, "cases": cases})
    done = subprocess.run(["node", "--input-type=module", "-e", script, module.as_uri()], input=payload,
                          capture_output=True, text=True, timeout=60, check=True)
    got = json.loads(done.stdout)
    for lang in ("en", "de"):
        assert got[lang] == [render("wasserloch.web.log", p, lang) for p in cases]
    assert got["de"][cases.index({"who": "Bot", "n": 2, "v": "7", "a": "x"})] == "Bot legte zwei 7er (Elefanten)."
