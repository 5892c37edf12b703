"""Figures a German player reads in the browser: a refusal that names a rate ("too many
name changes … then 0.1 a second") is worded with the German decimal comma, both in the
server's `message` and as the page renders it itself from its code and parameters."""

from __future__ import annotations

from wasserspiele.core.messages import render
from wasserspiele.web.limits import Limits

from .browser_support import TIMEOUT_MS, new_context
from .helpers import create, humans
from .test_browser import browser, server  # noqa: F401 (fixtures)


def _name_flood_refusal(client, lang: str) -> dict:
    """The refusal a seat gets for renaming itself faster than the server allows (hub.py
    `name_rate`), over the socket the page uses, the hello naming `lang`."""
    t = create(client, seats=humans(3))
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        ws.send_json({"type": "hello", "token": t["seats"][0]["token"], "lang": lang})
        assert ws.receive_json()["type"] == "state"
        for i in range(Limits().name_burst + 1):
            ws.send_json({"type": "name", "name": f"Anna {i}"})
        ws.send_json({"type": "ping"})
        answers = []
        while (a := ws.receive_json())["type"] != "pong":
            answers.append(a)
    refusals = [a for a in answers if a["type"] == "refused"]
    assert [a["reason_code"] for a in refusals] == ["server.name_rate"]
    return refusals[0]


def test_the_servers_rate_refusal_writes_the_rate_with_a_decimal_comma_in_german(client):
    german = _name_flood_refusal(client, "de")["message"]
    assert "dann 0,1 pro Sekunde" in german, german          # was "dann 0.1 pro Sekunde"
    english = _name_flood_refusal(client, "en")["message"]
    assert "then 0.1 a second" in english, english


def test_the_page_words_a_rate_refusal_with_a_decimal_comma_in_german(browser, server, client):  # noqa: F811
    refusal = _name_flood_refusal(client, "en")     # the page words it in its own language
    ctx = new_context(browser, "desktop", "de-DE")
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server.base + "/?lang=de")
    page.wait_for_selector("#create")
    ask = """async (data) => (await import('/static/i18n.js')).refusalText(data)"""
    german = page.evaluate(ask, refusal)
    assert "dann 0,1 pro Sekunde" in german, german
    assert german == render(refusal["reason_code"], refusal["params"], "de")
    page.select_option("#lang", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert "then 0.1 a second" in page.evaluate(ask, refusal)
    ctx.close()

