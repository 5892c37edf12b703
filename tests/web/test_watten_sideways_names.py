"""Watten's table on a phone held sideways with long names (table.js SIDEWAYS, web.js WIDE).

Measured (German, four names of 23–24 characters, seat 0's page): the right-hand seat's
name has one line of 160 units, between the trick's cards and the table's end, under the
tricks' legend: "Kreszentia Obermoserbau" was squeezed into it at 84 % of its width,
"Kreszentia Obermoserbaue" at 80 % (667 × 375, 740 × 360, 844 × 390); the own seat's name of
40 characters, "… (du)", at 76 % on its line.  A name too long for its
room is shortened with "…" now, at its size and unsqueezed; the whole name is its tooltip
and what a screen reader reads, and no name runs into the trick's cards or another text."""

from __future__ import annotations

import os
import random

import pytest

from .browser_support import CHROMIUM, Server, browser, name_the_seats, open_page, serving  # noqa: F401

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

SIZES = [(667, 375), (740, 360), (844, 390)]
# the brief's 24 characters, and the most a name may have (40; as test_phone_texts_long_names)
NAMES = {
    "24": ["Maximiliane Oberhuberin", "Bartholomäus Wasserfalls", "Donaudampfschiffkapitän", "Kreszentia Obermoserbaue"],
    "40": ["Bartholomäus Maximilian von Oberhuber-K0", "Donaudampfschifffahrtskapitänin Wilhelm",
           "Anna-Katharina Wasserfallhuber-Schmidt", "Kreszentia Aloisia Obermoserbauer-Lang"],
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "watten_sideways", tables_per_client=50)


def trick_on_the_table(server: Server, table: dict, seed: int = 3) -> None:
    """Seeded legal moves over HTTP (never a raise) until two cards of a trick lie on the
    table and seat 0 is still to play to it or has played (its page shows the trick)."""
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    rng = random.Random(seed)
    for _ in range(60):
        spectator = server.get(f"/api/tables/{table['id']}")
        view = spectator["view"]
        if view["phase"] == "play" and len(view.get("trick") or []) >= 2:
            return
        seat = spectator["waiting"][0]
        mine = server.get(f"/api/tables/{table['id']}", tokens[seat])
        legal = [a for a in mine["legal"] if a != "raise"] or mine["legal"]
        server.post(f"/api/tables/{table['id']}/moves", {"action": rng.choice(legal), "n": mine["n"]}, tokens[seat])
    raise RuntimeError("no trick of two cards within 60 moves")


_TABLES: dict = {}


@pytest.fixture(scope="module")
def tables(browser, server):
    for length, names in NAMES.items():
        if length not in _TABLES:
            table = server.post("/api/tables", {"game": "watten", "seats": [{"kind": "human"}] * 4})
            name_the_seats(server, table, names)
            trick_on_the_table(server, table)
            _TABLES[length] = table
    return _TABLES


# each seat's name on the board (the texts of its group's first child), whether it is
# squeezed (textLength against its natural width) or set smaller than 13 units, the whole
# name its group gives (aria-label, title), and every text's and trick card's box
NAMES_ON_BOARD = """() => {
  const box = (el) => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const squeeze = (el) => {
    const tl = el.getAttribute('textLength');
    if (!tl) return 1;
    const copy = el.cloneNode(true); copy.removeAttribute('textLength'); el.parentNode.append(copy);
    const natural = copy.getComputedTextLength(); copy.remove();
    return +tl / natural;
  };
  const seats = [...document.querySelectorAll('#board svg [data-origin^="tseat:"]')].map((g) => {
    // a name's lines are bold, what is said of the seat is not; a shortened name's group holds them
    const texts = [...g.querySelectorAll('text[font-weight="bold"]')];
    const holder = texts[0].parentElement === g ? null : texts[0].parentElement;
    return { seat: +g.dataset.origin.slice(6), lines: texts.map((t) => t.textContent),
             squeeze: Math.min(...texts.map(squeeze)), size: Math.min(...texts.map((t) => +(t.getAttribute('font-size') || 13))),
             label: holder?.getAttribute('aria-label') ?? null, role: holder?.getAttribute('role') ?? null,
             title: holder?.querySelector(':scope > title')?.textContent ?? null, boxes: texts.map(box), texts };
  });
  const names = new Set(seats.flatMap((s) => s.texts));
  const others = [...document.querySelectorAll('#board svg text')].filter((t) => !names.has(t) && t.textContent.trim())
    .map((t) => [t.textContent, box(t)]);
  const cards = [...document.querySelectorAll('#board svg [aria-label] > .card rect, #board svg g[role=img] > g > rect')]
    .map((r) => box(r));
  return { seats: seats.map(({ texts, ...rest }) => rest), others, cards };
}"""


def overlap(a, b) -> bool:
    """Two boxes on the screen that meet: by more than 3 px up and down, as a text's box is its
    line's (the font's ascent and descent), 3 px above the capitals and below the baseline:
    two lines 15 units apart (a name over its second line, the tricks' legend over the
    right-hand seat's name) meet by 2 px where their letters stand apart."""
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 3


@pytest.mark.parametrize("length", list(NAMES))
@pytest.mark.parametrize("size", SIZES)
def test_watten_sideways_a_long_name_ends_in_an_ellipsis_whole_in_its_tooltip(browser, server, tables, size, length):
    names = NAMES[length]
    ctx, page, errors = open_page(browser, server, tables[length]["seats"][0]["link"], size, "de-DE")
    try:
        page.wait_for_function("() => document.querySelectorAll('#board svg [data-origin^=\"tseat:\"]').length === 4")
        assert page.evaluate("() => document.querySelector('#board svg').viewBox.baseVal.width") == 580   # WIDE
        m = page.evaluate(NAMES_ON_BOARD)
        assert len(m["cards"]) >= 2, m["cards"]   # the trick's cards lie on the table
        for seat in m["seats"]:
            label = names[seat["seat"]] + (" (du)" if seat["seat"] == 0 else "")
            shown = " ".join(seat["lines"])
            # at its size and its width (squeezed it read as a smear, set smaller unlike the others)
            assert seat["squeeze"] >= 0.97 and seat["size"] >= 13, (size, seat)
            if shown == label:
                continue
            # shortened: the start of the name, "…", and the own seat's "(du)" kept
            assert "…" in shown, (size, seat)
            kept = shown.replace(" (du)", "").rstrip("…").strip()
            assert len(kept) >= 8 and names[seat["seat"]].startswith(kept.replace("\n", " ")), (size, seat)
            assert seat["seat"] != 0 or shown.endswith(" (du)"), (size, seat)
            assert seat["label"] == label and seat["title"] == label and seat["role"] == "img", (size, seat)
        assert any("…" in " ".join(seat["lines"]) for seat in m["seats"]), m["seats"]   # the case is met
        # no name's line runs into a trick card, another name or any other text of the table
        boxes = [(seat["seat"], b) for seat in m["seats"] for b in seat["boxes"]]
        hits = [(n, b, c) for n, b in boxes for c in m["cards"] if overlap(b, c)]
        hits += [(n, b, o) for n, b in boxes for o in m["others"] if overlap(b, o[1])]
        hits += [(n, k) for i, (n, b) in enumerate(boxes) for k, c in boxes[i + 1:] if n != k and overlap(b, c)]
        assert hits == [], (size, hits)
        assert errors == []
    finally:
        ctx.close()
