"""A page loads a game's client module (`/static/games/NAME.js`) only when it needs it: a
table or a replay its own game's, the lobby none (its titles and words come from
/api/games and the catalogue).  Every page used to import all four games' modules before
drawing anything, 69 kB of scripts a table never ran.  A module that cannot be loaded
(the network, a plugin's script missing) is said in the page's language, not a blank
page.  A plugin game that ships no catalogue (the test-only fifth game, served here
through an entry point as a package would install it) still gets its words in the lobby:
its module is loaded when it is chosen, once."""

from __future__ import annotations

import os

import pytest

from .browser_support import CHROMIUM, TIMEOUT_MS, Server, browser, finished_table, new_context, players_of  # noqa: F401

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from .test_browser import server  # noqa: E402,F401 (fixture)

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULE_PREFIX = "/static/games/"


def watched_page(browser, server, locale="en-US"):
    """A new phone page whose requests for game modules are listed (in order, as asked)."""
    ctx = new_context(browser, "phone", locale)
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    asked: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: asked.append(r.url.split(server.base, 1)[-1])
            if r.url.split(server.base, 1)[-1].startswith(MODULE_PREFIX) else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, page, asked, errors


def human_table(server, game, players=None):
    return server.post("/api/tables", {"game": game, "seats": [{"kind": "human"}] * (players or players_of(game))})


@pytest.mark.parametrize("game", ["wasserloch", "watten"])
def test_a_table_page_loads_its_own_games_module_only(browser, server, game):
    table = human_table(server, game)
    ctx, page, asked, errors = watched_page(browser, server)
    try:
        page.goto(server.base + table["seats"][0]["link"])
        page.wait_for_selector("#turn")
        page.wait_for_load_state("networkidle")
        assert asked == [f"/static/games/{game}.js"]
        assert page.locator("#board, #play").count() > 0 and not errors
    finally:
        ctx.close()


def test_the_lobby_loads_no_games_module_and_names_every_game(browser, server):
    ctx, page, asked, errors = watched_page(browser, server)
    try:
        page.goto(server.base + "/")
        page.wait_for_selector("body[data-lobby=ready]")
        page.wait_for_load_state("networkidle")
        assert asked == []
        # the titles come from the catalogue: every game named, not by its code name
        titles = page.eval_on_selector_all("#game option", "os => os.map((o) => o.textContent)")
        assert {"Wasserloch", "Watten"} <= set(titles) and "seven_waters" not in titles
        page.select_option("#game", "watten")   # choosing another game needs no module either
        page.wait_for_selector("#lobby-rules:has-text('Watten')")
        page.wait_for_load_state("networkidle")
        assert asked == [] and not errors
    finally:
        ctx.close()


def test_a_replay_page_loads_its_own_games_module_only(browser, server):
    table = finished_table(server, "wasserloch")
    ctx, page, asked, errors = watched_page(browser, server)
    try:
        page.goto(server.base + f"/replay/{table['id']}")
        page.wait_for_selector("#replay-bar")
        page.click("#next")
        page.wait_for_selector("#step:has-text('1')")
        page.wait_for_load_state("networkidle")
        assert asked == ["/static/games/wasserloch.js"] and not errors
    finally:
        ctx.close()


@pytest.mark.parametrize("locale,words,how", [
    ("en-US", "The game Wasserloch could not be loaded.", "abort"),
    ("de-DE", "Das Spiel Wasserloch konnte nicht geladen werden.", "404"),
])
def test_a_games_module_that_fails_to_load_is_said_on_the_table_page(browser, server, locale, words, how):
    table = human_table(server, "wasserloch")
    ctx, page, asked, errors = watched_page(browser, server, locale)
    try:
        page.route("**/static/games/*.js", (lambda r: r.abort()) if how == "abort"
                   else (lambda r: r.fulfill(status=404, body="not found")))
        page.goto(server.base + table["seats"][0]["link"])
        notice = page.wait_for_selector(f"#notice:has-text('{words}')")
        assert "refused" in notice.get_attribute("class")
        assert page.locator("#to-lobby").count() == 1   # a way on, not a dead end
        # it stays: no reconnecting loop drawing "Connecting …" over it
        page.wait_for_timeout(1500)
        assert words in page.inner_text("#notice")
    finally:
        ctx.close()


def test_a_games_module_that_fails_to_load_is_said_on_the_replay_page(browser, server):
    table = finished_table(server, "wasserloch", seed=4)
    ctx, page, asked, errors = watched_page(browser, server, "de-DE")
    try:
        page.route("**/static/games/*.js", lambda r: r.fulfill(status=404, body="not found"))
        page.goto(server.base + f"/replay/{table['id']}")
        page.wait_for_selector("#notice:has-text('Das Spiel Wasserloch konnte nicht geladen werden.')")
    finally:
        ctx.close()


# ----------------------------------------------------------------------------- a plugin game
@pytest.fixture(scope="module")
def plugin_server(tmp_path_factory):
    """A server with Pebbles installed as a plugin package would be (an entry point)."""
    tmp = tmp_path_factory.mktemp("plugin")
    info = tmp / "pebbles_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: pebbles-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[wasserspiele.games]\npebbles = fifth_game.manifest:MANIFEST\n")
    path = os.pathsep.join([str(tmp), TESTS, os.environ.get("PYTHONPATH", "")])
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PYTHONPATH", path)
        srv = Server(f"sqlite:///{tmp / 'plugin.sqlite3'}", log_path=str(tmp / "server.log")).start()
    yield srv
    srv.stop()


def test_a_plugin_games_words_are_loaded_in_the_lobby_when_it_is_chosen_once(browser, plugin_server):
    server = plugin_server
    assert "pebbles" in {g["name"] for g in server.get("/api/games")["games"]}
    ctx, page, asked, errors = watched_page(browser, server, "de-DE")
    try:
        page.goto(server.base + "/")
        page.wait_for_selector("body[data-lobby=ready]")
        page.wait_for_load_state("networkidle")
        assert asked == []
        # its title in the lobby's language, from its manifest (/api/games), unloaded
        assert "Kiesel" in page.eval_on_selector_all("#game option", "os => os.map((o) => o.textContent)")
        page.select_option("#game", "pebbles")
        # the option's name is the module's word, "Startspieler", not the code name
        page.wait_for_selector("label[for=opt-first_player]:has-text('Startspieler')")
        page.select_option("#game", "watten")
        page.select_option("#game", "pebbles")
        page.wait_for_selector("label[for=opt-first_player]:has-text('Startspieler')")
        page.wait_for_load_state("networkidle")
        assert asked == ["/static/games/pebbles.js"] and not errors   # loaded once, kept
    finally:
        ctx.close()


def test_a_plugin_games_table_loads_its_module_only(browser, plugin_server):
    table = human_table(plugin_server, "pebbles", players=2)
    ctx, page, asked, errors = watched_page(browser, plugin_server)
    try:
        page.goto(plugin_server.base + table["seats"][0]["link"])
        page.wait_for_selector("#turn")
        page.wait_for_selector("text=Your pebbles")
        page.wait_for_load_state("networkidle")
        assert asked == ["/static/games/pebbles.js"] and not errors
    finally:
        ctx.close()


def test_a_plugin_games_module_that_fails_to_load_is_said_in_the_lobby(browser, plugin_server):
    ctx, page, asked, errors = watched_page(browser, plugin_server, "de-DE")
    try:
        page.route("**/static/games/pebbles.js", lambda r: r.fulfill(status=404, body="not found"))
        page.goto(plugin_server.base + "/")
        page.wait_for_selector("body[data-lobby=ready]")
        page.select_option("#game", "pebbles")
        page.wait_for_selector("#game-error:has-text('Das Spiel Kiesel konnte nicht geladen werden.')")
        # the form stays usable: another game is chosen and the notice goes with it
        page.select_option("#game", "watten")
        page.wait_for_selector("#lobby-rules:has-text('Watten')")
        assert page.locator("#game-error").count() == 0
    finally:
        ctx.close()
