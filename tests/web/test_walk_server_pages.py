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


@pytest.mark.parametrize("lang, said", [("en", "No page or endpoint at /nothing"),
                                        ("de", "Unter /nothing gibt es keine Seite und keinen Endpunkt")])
def test_a_mistyped_address_in_a_browser_is_a_page_with_the_way_back_not_json(client, lang, said):
    """/nothing in a browser showed the refusal's JSON over the whole page (its English
    `reason` on a German screen), with no header and no link on; a program asking the API
    still gets JSON."""
    r = client.get("/nothing", headers={"accept": "text/html,application/xhtml+xml,*/*;q=0.8", "accept-language": lang})
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert f"<p>{said}</p>" in r.text and f'<a href="/">{catalogue(lang).text("web.back_to_lobby")}</a>' in r.text
    api = client.get("/api/nothing", headers={"accept": "text/html,*/*", "accept-language": lang})
    assert api.status_code == 404 and api.json()["error"] == "not_found"
    plain = client.get("/nothing", headers={"accept-language": lang})   # no HTML asked for
    assert plain.json()["error"] == "not_found"
