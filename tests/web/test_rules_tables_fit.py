"""The rules pages' tables at 320, 390 and 1280 px, in English and German.

render_rules decides which tables show their rows as cards on a phone by the longest words
of their columns against a 390 px phone; a table judged to fit side by side that is still
too wide scrolls in its own box (style.css), so the page never scrolls sideways.  At
320 px (a small phone, 400 % zoom) two of Wildwasser's tables did scroll in their box, the
end of their rows hidden until scrolled: the German fields ("29: Baumstammtafel,") by
29 px, the English animals by 6 px.  The page's side padding and the cells' are halved on
a screen of 400 px or less; every table fits."""

from __future__ import annotations

import os

import pytest

from .browser_support import CHROMIUM, GAMES, browser, new_context, serving  # noqa: F401

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "rules_tables")


# how far the page scrolls sideways; each table that scrolls in its own box or runs past the
# screen, and each cell whose words run out of it (cut by its box or the table's)
MEASURE = """() => {
  const tables = [...document.querySelectorAll('main.rules table')];
  const head = (t) => (t.querySelector('th')?.textContent || '').slice(0, 20);
  return {
    count: tables.length,
    sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    scrolled: tables.filter((t) => t.scrollWidth > t.clientWidth + 1 || t.getBoundingClientRect().right > innerWidth + 0.5)
                    .map((t) => `${head(t)}: ${t.scrollWidth - t.clientWidth} px`),
    cut: [...document.querySelectorAll('main.rules td, main.rules th')]
      .filter((c) => c.getClientRects().length && c.scrollWidth > c.clientWidth + 1)
      .map((c) => c.textContent.slice(0, 30)),
  };
}"""


def test_no_rules_table_is_wider_than_the_screen_or_cuts_its_words(browser, server):
    found = []
    for width in (320, 390, 1280):
        ctx = new_context(browser, (width, 800))
        try:
            page = ctx.new_page()
            for lang in ("en", "de"):
                for game in GAMES:
                    page.goto(f"{server.base}/rules/{game}?lang={lang}")
                    m = page.evaluate(MEASURE)
                    assert m["count"] >= 2, (game, lang)   # every game's rules hold tables
                    if m["sideways"] > 0 or m["scrolled"] or m["cut"]:
                        found.append((width, lang, game, m))
        finally:
            ctx.close()
    assert found == []
