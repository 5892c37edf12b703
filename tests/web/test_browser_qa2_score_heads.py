"""A score table's heads on a phone (QA, 2026-12-07): at the end of a four-seat Wasserloch
at 390 × 844 in German the last column's head read "Bot", "(schwer", ")" — broken inside a
word, its parenthesis alone on a line, where the table had room for "(schwer)" whole."""

from __future__ import annotations

import os
import random
import time

import pytest

from .browser_support import CHROMIUM, browser, name_the_seats, serving, tabs  # noqa: F401

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "qa2_score_heads")


def finished(server, seats: list[dict], seed: int = 1) -> dict:
    """A one-round Wasserloch of `seats`, its human seats played over HTTP (a seeded choice
    among their legal moves), the bots on their own, until it is over."""
    table = server.post("/api/tables", {"game": "wasserloch", "options": {"players": len(seats), "rounds": 1},
                                        "seats": seats})
    tokens = [s.get("token") for s in table["seats"]]
    rng = random.Random(seed)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        spectator = server.get(f"/api/tables/{table['id']}")
        if spectator["terminal"]:
            return table
        humans = [s for s in spectator["waiting"] if tokens[s]]
        if not humans:
            time.sleep(0.05)    # a bot is thinking (threads of the server): polled under a deadline
            continue
        mine = server.get(f"/api/tables/{table['id']}", tokens[humans[0]])
        if mine["legal"]:
            server.post(f"/api/tables/{table['id']}/moves", {"action": rng.choice(mine["legal"]), "n": mine["n"]},
                        tokens[humans[0]])
    raise AssertionError("the game did not end")


# each shown score table: its width and its box's, and the words of its heads drawn on more
# than one line
HEADS = """() => [...document.querySelectorAll('table.score')].filter((t) => t.getClientRects().length).map((table) => {
  const box = table.parentElement, s = getComputedStyle(box);
  const broken = [];
  for (const th of table.querySelectorAll('th')) {
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    let n;
    while ((n = walker.nextNode())) {
      for (const m of n.data.matchAll(/\\S+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
        if (new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1) broken.push([th.textContent, m[0]]);
      }
    }
  }
  return { width: table.getBoundingClientRect().width,
           room: box.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight), broken };
})"""


def test_wl_score_heads_on_a_phone_break_between_words_where_the_table_has_room(tabs, server):
    table = finished(server, [{"kind": "human"}, {"kind": "bot", "level": "easy"},
                              {"kind": "bot", "level": "medium"}, {"kind": "bot", "level": "hard"}])
    tab = tabs("de-DE")
    page = tab.open(server, table["seats"][0]["link"], "phone", "#result table.score")
    shown = page.evaluate(HEADS)
    assert shown, "no score table shown"
    for t in shown:
        assert t["broken"] == [], t
        assert t["width"] <= t["room"] + 0.5, t
    assert tab.errors == []


def test_score_heads_of_long_one_word_names_still_break_inside_rather_than_leave_the_box(tabs, server):
    """Names of one word of 40 letters cannot be kept whole on a phone: the heads break inside
    them, as before, and the table stays within its box."""
    table = finished(server, [{"kind": "human"}] * 4, seed=2)
    name_the_seats(server, table, [f"{c * 39}{k}" for k, c in enumerate("WMQX")])
    tab = tabs("de-DE")
    page = tab.open(server, table["seats"][0]["link"], "phone", "#result table.score")
    page.wait_for_function("() => document.querySelector('#result table.score th.name').textContent.startsWith('WWW')")
    shown = page.evaluate(HEADS)
    assert shown, "no score table shown"
    for t in shown:
        assert t["width"] <= t["room"] + 0.5, t
    assert tab.errors == []
