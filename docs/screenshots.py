"""Screenshots of each game mid-game at 1280×800 and 390×844, for the README.

    python docs/screenshots.py [OUT_DIR]      (default: docs/screenshots)

Starts `wasserspiele serve` on a temporary database, brings a table of each game to its
middle over HTTP and photographs seat 0's page in Debian's Chromium (Playwright)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

from web.browser_support import ARGS, CHROMIUM, GAMES, SIZES, TIMEOUT_MS, Server, mid_game_table, new_context  # noqa: E402


def main(out: Path) -> None:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(f"sqlite:///{tmp}/shots.sqlite3", log_path=f"{tmp}/server.log").start()
        try:
            tables = {g: mid_game_table(server, g) for g in GAMES}
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                for game, table in tables.items():
                    for size in SIZES:
                        ctx = new_context(browser, size)
                        ctx.add_init_script("localStorage.setItem('player_name', 'Anna')")  # a named seat
                        page = ctx.new_page()
                        page.on("pageerror", lambda e: print(f"page error: {e}", file=sys.stderr))
                        page.set_default_timeout(TIMEOUT_MS)
                        page.goto(server.base + table["seats"][0]["link"])
                        page.wait_for_selector("#turn[data-mine='1']")
                        page.wait_for_selector("#seats [data-seat='0']:has-text('Anna')")
                        path = out / f"{game}-{size}.png"
                        page.screenshot(path=str(path))
                        print(path)
                        ctx.close()
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots")
