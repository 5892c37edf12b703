"""The server-rendered pages (the rules, a page not found) say their own words — the
title, "Back to the lobby", "Not found" — from the message catalogues, as the browser
client does: they were dictionaries in app.py, out of the catalogues' reach (a corrected
catalogue entry left these pages saying the old words)."""

from __future__ import annotations

import re

import pytest

from wasserspiele.core.messages import catalogue

# an entry as a translator might correct it: the pages must show it as it now reads
CHANGED = {"web.back_to_lobby": {"en": "Back to all tables", "de": "Zurück zu allen Tischen"},
           "web.not_found": {"en": "Nothing here", "de": "Hier ist nichts"},
           "web.rules": {"en": "How to play", "de": "Spielregeln"}}


@pytest.fixture
def changed(monkeypatch):
    for code, words in CHANGED.items():
        for lang, text in words.items():
            monkeypatch.setitem(catalogue(lang).entries, code, text)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_rules_page_says_its_title_and_the_way_back_in_the_catalogues_words(client, changed, lang):
    r = client.get(f"/rules/watten?lang={lang}")
    assert r.status_code == 200
    assert f'<a href="/">{CHANGED["web.back_to_lobby"][lang]}</a>' in r.text
    assert re.search(r"<title>(.*?)</title>", r.text).group(1).startswith(f'{CHANGED["web.rules"][lang]}: ')


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_page_not_found_says_so_in_the_catalogues_words(client, changed, lang):
    r = client.get("/rules/chess", headers={"accept-language": lang})
    assert r.status_code == 404
    assert f'<h1>{CHANGED["web.not_found"][lang]}</h1>' in r.text
    assert f'<a href="/">{CHANGED["web.back_to_lobby"][lang]}</a>' in r.text
    assert re.search(r"<title>(.*?)</title>", r.text).group(1) == f'{CHANGED["web.not_found"][lang]} · Wasserspiele'


@pytest.mark.parametrize("lang, back, missing", [("en", "Back to the lobby", "Not found"),
                                                 ("de", "Zurück zur Lobby", "Nicht gefunden")])
def test_the_catalogues_hold_the_pages_words_in_both_languages(lang, back, missing):
    assert catalogue(lang).text("web.back_to_lobby") == back and catalogue(lang).text("web.not_found") == missing
