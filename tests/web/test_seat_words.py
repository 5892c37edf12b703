"""How the page names a seat nobody named inside its sentences: "seat 3" inside a log
line, an announcement or the turn line ("Waiting for seat 1."), "Seat 3" where the line
begins with it or where the seat stands alone (its chip).  The log read "Seat 0 deals;
Seat 3 names trump." — a capital in mid-sentence.  German "Platz 3" is a capital word
anyway; a player's name is as it was typed, also where a line begins with it (only the
seat's own word is capitalised there: i18n.js `sentence`)."""

from __future__ import annotations

import os

import pytest

from .browser_support import CHROMIUM, TIMEOUT_MS, Server, browser, new_context, serving  # noqa: F401

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

LOCALES = {"en": "en-US", "de": "de-DE"}
DEAL = {"en": "{S} {d} dealt; {s} {c} calls trump.", "de": "{S} {d} hat gegeben; {s} {c} sagt Trumpf an."}
# the deal line heard by the dealer or the caller itself (i18n.js say: its "you" form)
DEAL_HEARD = {"en": {"d": "You dealt; {s} {c} calls trump.", "c": "{S} {d} dealt; you call trump."},
              "de": {"d": "Du hast gegeben; {s} {c} sagt Trumpf an.", "c": "{S} {d} hat gegeben; du sagst Trumpf an."}}
SEAT = {"en": ("Seat", "seat"), "de": ("Platz", "Platz")}
# the seat to move has no page open: "(offline)" follows its name (web.seat_offline)
WAITING = {"en": "Waiting for seat {w} (offline).", "de": "Warte auf Platz {w} (offline)."}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "seat_words", tables_per_client=10)


def _new_table(server: Server) -> dict:
    return server.post("/api/tables", {"game": "watten", "seats": [{"kind": "human"}] * 4})


def _move(server: Server, table: dict, tokens: dict) -> dict:
    """The seat to move makes a plain move: hearts as trump, no signal, its first card, no raise."""
    seat = server.get(f"/api/tables/{table['id']}")["waiting"][0]
    mine = server.get(f"/api/tables/{table['id']}", tokens[seat])
    legal = [a for a in mine["legal"] if a not in ("raise", "concede")]
    action = "trump H" if "trump H" in legal else "signal none" if "signal none" in legal else legal[0]
    server.post(f"/api/tables/{table['id']}/moves", {"action": action, "n": mine["n"]}, tokens[seat])
    return server.get(f"/api/tables/{table['id']}")


def _page(browser, server, link, lang):
    ctx = new_context(browser, "desktop", LOCALES[lang])
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + link)
    page.wait_for_selector("#log li")
    return ctx, page, errors


def _deal_line(lang, deal):
    big, small = SEAT[lang]
    return DEAL[lang].format(S=big, s=small, d=deal["dealer"], c=deal["caller"])


def test_a_seat_inside_a_log_line_or_the_turn_line_is_lower_case_and_its_chip_says_seat_n(browser, server):
    table = _new_table(server)
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    spectator = _move(server, table, tokens)  # trump called: a seat signals next
    deal = next(e for e in spectator["view"]["log"] if e["event"] == "deal")
    waiting = spectator["waiting"][0]
    mine = (waiting + 1) % 4
    for lang in ("en", "de"):  # German says "Platz 3" inside a sentence too: unchanged
        ctx, page, errors = _page(browser, server, table["seats"][mine]["link"], lang)
        log = page.locator("#log li").all_inner_texts()
        assert _deal_line(lang, deal) in log, log
        big, _ = SEAT[lang]
        assert any(line.startswith(f"{big} {deal['caller']} ") for line in log if line != _deal_line(lang, deal)), log
        assert page.inner_text("#turn") == WAITING[lang].format(w=waiting)
        chips = page.locator("#seats .seat-chip .who").all_inner_texts()
        assert [c.split(" (")[0] for c in chips] == [f"{big} {n}" for n in range(4)], chips
        assert errors == []
        ctx.close()


def test_a_new_hand_is_announced_with_the_seats_inside_its_sentences_lower_case(browser, server):
    """The screen reader hears the hand's end and the next deal as the log shows them:
    "The hand goes to team seat 1 + seat 3: …", "Seat 1 deals; seat 0 names trump."."""
    table = _new_table(server)
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    pages = {lang: _page(browser, server, table["seats"][seat]["link"], lang) for seat, lang in enumerate(("en", "de"))}
    view = server.get(f"/api/tables/{table['id']}")["view"]
    for _ in range(40):
        view = _move(server, table, tokens)["view"]
        if view["results"]:
            break
    assert view["results"], "the first hand did not end"
    deal = [e for e in view["log"] if e["event"] == "deal"][-1]
    for seat, (lang, (ctx, page, errors)) in enumerate(pages.items()):
        said = _deal_line(lang, deal)
        for role in ("d", "c"):
            if seat == deal["dealer" if role == "d" else "caller"]:
                said = DEAL_HEARD[lang][role].format(S=SEAT[lang][0], s=SEAT[lang][1], d=deal["dealer"], c=deal["caller"])
        page.wait_for_function("(said) => [...document.querySelectorAll('#announce p')].some((p) => p.textContent === said)",
                               arg=said)
        heard = page.locator("#announce p").all_inner_texts()
        _, small = SEAT[lang]
        # the other team in its seats' words (the page's own team is "your team": test_own_seat_words.py)
        other = 1 - seat % 2
        pair = f"{small} {other} + {small} {other + 2}"
        assert any(pair in line for line in heard), heard
        assert errors == []
        ctx.close()


@pytest.mark.parametrize("lang, lines", [
    ("en", ["anna dealt; seat 0 calls trump.", "Seat 0 dealt; anna calls trump."]),
    ("de", ["anna hat gegeben; Platz 0 sagt Trumpf an.", "Platz 0 hat gegeben; anna sagt Trumpf an."]),
])
def test_a_player_s_name_is_shown_as_typed_also_where_a_line_begins(browser, server, lang, lines):
    table = _new_table(server)
    ctx, page, errors = _page(browser, server, table["seats"][0]["link"], lang)
    said, label = page.evaluate("""async () => {
        const i18n = await import('/static/i18n.js');
        const game = (await import('/static/games/watten.js')).default;
        i18n.setSeatNamer((n) => (n === 1 ? "anna" : null));
        const log = [{ event: "deal", dealer: 1, caller: 0 }, { event: "deal", dealer: 0, caller: 1 },
                     { event: "trump", seat: 1, suit: "H" }];
        return [game.logLines({ log }), [i18n.seatLabel(1), i18n.seatLabel(2)]];
      }""")
    assert said[:2] == lines, said
    assert said[2].startswith("anna "), said  # "{who} named … trump.": a typed name as typed ("iPhone", not "IPhone")
    assert label == ["anna", {"en": "Seat 2", "de": "Platz 2"}[lang]]  # a chip shows the name as typed
    assert errors == []
    ctx.close()
