"""Figures in the player's language: decimals, digit groups and percentages are written
as German writes them (0,1 · 12.345 · 48 %) on a German screen and as English does on an
English one, at the one place where values go into messages (core/messages.py, mirrored
by the browser's web/static/messages.js)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from wasserspiele.core.messages import LANGS, catalogue, render, term
from wasserspiele.web.limits import Limits

SRC = Path(__file__).resolve().parent.parent / "src" / "wasserspiele"

# the refusals that name a rate, with the rate as the server builds it (web/hints.py,
# web/hub.py, web/app.py pass the limit's number); German read "dann 0.2 pro Sekunde"
RATE_REFUSALS = [
    ("server.hint_rate", {"rate": Limits().hint_rate, "burst": Limits().hint_burst}, "0,2", "0.2"),
    ("server.name_rate", {"rate": Limits().name_rate, "burst": Limits().name_burst}, "0,1", "0.1"),
    ("server.message_rate", {"rate": Limits(message_rate=2.5).message_rate}, "2,5", "2.5"),
]


@pytest.mark.parametrize("code, params, german, english", RATE_REFUSALS)
def test_a_rate_in_a_refusal_is_written_with_the_languages_decimal_sign(code, params, german, english):
    de, en = render(code, params, "de"), render(code, params, "en")
    assert f"{german} pro Sekunde" in de, de
    assert english not in de
    assert f"{english} a second" in en, en


# (value, kind or numeric spec, English, German): a figure kind of the catalogue's
# templates, or a Python numeric spec with the language's separators
FIGURES = [
    (0.48, "percent", "48%", "48\u00a0%"),          # a share; German keeps the % with its number
    (0.615, "percent", "62%", "62\u00a0%"),
    (1, "percent", "100%", "100\u00a0%"),
    (0.1, "decimal", "0.1", "0,1"),
    (2.5, "decimal", "2.5", "2,5"),
    (12345.5, "decimal", "12,345.5", "12.345,5"),
    (3600, "decimal", "3,600", "3.600"),
    (10_000_000, "grouped", "10,000,000", "10.000.000"),
    (0.512, ".3f", "0.512", "0,512"),
    (2.25, ".1f", "2.2", "2,2"),                    # half to even, in both languages and both renderers
    (12345.678, ",.2f", "12,345.68", "12.345,68"),
    (7, "d", "7", "7"),
]


def _template_render(value, kind: str, lang: str) -> str:
    """`value` put into the template `{x:KIND}` as the catalogue's messages do."""
    from wasserspiele.core.messages import _Formatter
    return _Formatter(catalogue(lang)).vformat("{x:%s}" % kind, (), {"x": value})


@pytest.mark.parametrize("value, kind, english, german", FIGURES)
def test_a_figure_in_a_message_is_written_as_the_language_writes_it(value, kind, english, german):
    assert _template_render(value, kind, "en") == english
    assert _template_render(value, kind, "de") == german
    if kind[0].isalpha() and kind != "d":
        assert term(value, kind, "de") == german


def test_a_plain_number_is_printed_as_it_is_in_both_languages():
    # seats, seeds and counts are no figures to group: "Startwert 12345", "Platz 2"
    assert _template_render(12345, "", "de") == "12345"
    assert render("web.you_are", {"n": 2}, "de") == "Du spielst Platz 2."


def test_a_share_spec_that_would_read_english_is_refused():
    # Python writes `{x:.0%}` as "48%" whatever the language; the `percent` kind says "48 %"
    with pytest.raises(ValueError, match="use {name:percent}"):
        _template_render(0.48, ".0%", "de")


def test_a_figure_kind_given_no_number_says_so():
    with pytest.raises(ValueError, match="a figure must be a number, not 'fast'"):
        term("fast", "decimal", "de")


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run web/static/messages.js")
def test_the_browser_writes_figures_as_the_server_does(tmp_path):
    """The page renders refusals and its words itself (web/static/messages.js): a figure
    must read there as in the terminal, 0,1 and 48 % on a German page."""
    module = tmp_path / "messages.mjs"  # as an ES module whatever node's default
    module.write_text((SRC / "web" / "static" / "messages.js").read_text(encoding="utf-8"), encoding="utf-8")
    script = ("const { Catalogue } = await import(process.argv[1]);"
              "const fs = (await import('node:fs')).default;"
              "const input = JSON.parse(fs.readFileSync(0, 'utf8'));"
              "const out = {};"
              "for (const [lang, cat] of Object.entries(input.cats)) {"
              "  const c = new Catalogue(cat);"
              "  out[lang] = {"
              "    figures: input.figures.map(([v, kind]) => c.format(`{x:${kind}}`, { x: v })),"
              "    refusals: input.refusals.map(([code, params]) => c.render(code, params)),"
              "  };"
              "}"
              "console.log(JSON.stringify(out));")
    refusals = [[code, params] for code, params, _, _ in RATE_REFUSALS]
    payload = json.dumps({"cats": {lang: catalogue(lang).to_json() for lang in LANGS},
                          "figures": [[v, kind] for v, kind, _, _ in FIGURES], "refusals": refusals})
    done = subprocess.run(["node", "--input-type=module", "-e", script, module.as_uri()], input=payload,
                          capture_output=True, text=True, timeout=60, check=True)
    got = json.loads(done.stdout)
    assert got["en"]["figures"] == [english for _, _, english, _ in FIGURES]
    assert got["de"]["figures"] == [german for _, _, _, german in FIGURES]
    for lang in LANGS:
        assert got[lang]["refusals"] == [render(code, params, lang) for code, params in refusals]
