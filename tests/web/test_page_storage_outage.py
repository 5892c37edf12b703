"""The table's page while the server's database fails (docs/web-server.md, Durability):
a move the server could not save is told as what it is, not as the player's illegal move;
a page whose table cannot be read backs off between its attempts to reconnect, keeps
saying that it reconnects and why, and says the why once.

The faults are SQLite's own, made from outside the server's process: a write lock held by
another connection (`BEGIN IMMEDIATE`: the server's write waits out its busy timeout and
fails with SQLITE_BUSY, reads go on in WAL mode), and the table of tables renamed away
while the server runs, so that opening a table fails with an OperationalError, as a read
of a broken disk fails (the server answers both alike: a refusal "storage", 503)."""

from __future__ import annotations

import sqlite3

import pytest

pytest.importorskip("playwright.sync_api")

from wasserspiele.core.messages import Reason, catalogue

from .browser_support import ANNOUNCEMENTS, TIMEOUT_MS, Server, browser, new_context  # noqa: F401  (fixture)
from .test_browser import BUTTON, current_n
from .test_browser_friends import play_until_waiting_for, two_humans
from .test_stale_tab_and_reconnect import KEEP_SOCKETS, click_one_move

LOCALES = [("en-US", "en"), ("de-DE", "de")]

# every element put in the page with role "alert" (each is read out as it comes), and the
# time of every socket the page opens
WATCH = ANNOUNCEMENTS + KEEP_SOCKETS + """
window.__alerts = [];
window.__opened = [];
const Socket = window.WebSocket;
window.WebSocket = class extends Socket {
  constructor(...args) { super(...args); window.__opened.push(performance.now()); }
};
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) {
    if (n.nodeType !== 1) continue;
    for (const e of [n, ...n.querySelectorAll("[role=alert]")]) {
      if (e.getAttribute("role") === "alert") window.__alerts.push(e.textContent);
    }
  }
}).observe(document, { childList: true, subtree: true });
"""


def reason(lang: str, code: str, **params) -> str:
    """A server reason as the page shows it alone: a sentence."""
    text = Reason(code, **params).render(lang)
    return text[0].upper() + text[1:]


# a move refused behind another program's lock: not saved, and why
UNSAVED = {"code": "server.unsaved", "cause": Reason("server.db_locked")}


def refused_prefix(lang: str) -> str:
    """The words before a rule's refusal ("Refused: ", „Nicht erlaubt: ")."""
    return catalogue(lang).text("web.refused").split("{reason}")[0]


def watched_page(browser, srv: Server, link: str, locale: str, errors: list[str], wait_for: str | None,
                 clock: bool = False):
    """The page of `link`; with `clock`, its timers and clocks are Playwright's fake ones,
    stopped: time moves only by `run_clock`, and the page's waits are the very
    production waits (300 ms doubling to 15 s), without the test waiting them out."""
    ctx = new_context(browser, "phone", locale=locale)
    ctx.add_init_script(WATCH)
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.on("pageerror", lambda e: errors.append(str(e)))
    if clock:  # (the installed clock runs until paused: paused a while ahead, before the page loads)
        page.clock.install(time=1_000_000)
        page.clock.pause_at(1_000_000 + 60_000)
    page.goto(srv.base + link)
    if wait_for:
        page.wait_for_selector(wait_for)
    return page


# The page is quiet: its last socket closed (refused and shut by the server, or never
# opened) or open with a position drawn.  A socket under way is waited for in real time,
# the fake clock standing, so an attempt's round trip adds nothing to the waits measured.
SETTLED = """() => { const s = window.__sockets.at(-1);
  return !s || s.readyState === 3 || (s.readyState === 1 && !!document.querySelector('#turn')); }"""


def run_clock(page, most_ms: int, until: str | None = None, arg=None, step_ms: int = 100) -> int:
    """Moves the page's fake clock on in steps of `step_ms` (its timers fire at their own
    times within a step), letting the page settle after each: for `most_ms`, or until the
    script `until` (given `arg`) is true, failing if that takes longer than `most_ms` of
    fake time.  Returns the fake milliseconds it took."""
    spent = 0
    page.wait_for_function(SETTLED)  # (a socket the test has just closed: its close handled first)
    while not (page.evaluate(until, arg) if until else spent >= most_ms):
        assert spent < most_ms, f"not within {most_ms} ms: {until}"
        page.clock.run_for(step_ms)
        spent += step_ms
        page.wait_for_function(SETTLED)
    return spent


OPENED_MORE = "(k) => window.__opened.length > k"
NO_NOTICE = "() => !document.querySelector('#notice')"


def _db_path(srv: Server) -> str:
    return srv.db_url.removeprefix("sqlite:///")


def _rename(srv: Server, old: str, new: str) -> None:
    con = sqlite3.connect(_db_path(srv), isolation_level=None)
    try:
        con.execute(f"ALTER TABLE {old} RENAME TO {new}")
    finally:
        con.close()


@pytest.fixture
def fresh_server(tmp_path):
    """A server of this test's own (tests here break its database)."""
    srvs = []

    def start(port: int | None = None) -> Server:
        srv = Server(f"sqlite:///{tmp_path / 'outage.sqlite3'}", port=port, log_path=str(tmp_path / "server.log"))
        srvs.append(srv.start())
        return srv

    yield start
    for s in srvs:
        s.stop()


@pytest.mark.parametrize("locale,lang", LOCALES)
def test_a_move_the_database_could_not_save_is_told_as_not_saved_not_as_a_rule_refusal(browser, fresh_server,
                                                                                         locale, lang):
    """The page said "Refused: the move could not be saved; please try again" („Nicht
    erlaubt: der Zug konnte …") and marked the clicked card as refused: a full disk or a
    lock told as the player's illegal move.  Now it says the move was not saved, and why
    (the lock).  Once the lock is gone the same move is played."""
    srv = fresh_server()
    table = two_humans(srv)
    play_until_waiting_for(srv, table, 0)
    errors: list[str] = []
    page = watched_page(browser, srv, table["seats"][0]["link"], locale, errors, "#turn[data-mine='1']")
    n = current_n(page)
    holder = sqlite3.connect(_db_path(srv), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")        # another program holds the write lock
    try:
        click_one_move(page, "#notice.refused")   # refused after the server's busy wait (5 s)
        page.wait_for_selector(f"#notice:has-text({reason(lang, **UNSAVED)!r})")
        notice = page.inner_text("#notice")
        assert refused_prefix(lang) not in notice, notice
        assert Reason("server.db_locked").render(lang) in notice, notice   # why: the lock
        assert page.locator(".refused-here").count() == 0          # no piece marked as the wrong one
        assert current_n(page) == n and page.get_attribute("#turn", "data-mine") == "1"
        page.wait_for_timeout(500)                                  # (a redraw or two later)
        alerts = page.evaluate("() => window.__alerts")
        assert sum(reason(lang, **UNSAVED) in a for a in alerts) == 1, alerts   # said once
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    # the lock gone: the move is played (its card still chosen, its button offered, if it has one)
    if page.locator(BUTTON).count():
        page.locator(BUTTON).first.click()
    else:
        click_one_move(page, "#turn[data-mine='0']")
    page.wait_for_selector("#turn[data-mine='0']")
    assert srv.get(f"/api/tables/{table['id']}")["n"] == n + 1
    assert errors == []


def _gaps(page) -> list[float]:
    opened = page.evaluate("() => window.__opened")
    return [b - a for a, b in zip(opened, opened[1:])]


@pytest.mark.parametrize("locale,lang", LOCALES)
def test_a_page_whose_table_cannot_be_read_backs_off_says_why_once_and_comes_back(browser, fresh_server, locale, lang):
    """Each hello was refused ("storage": the table cannot be read) and its socket closed;
    the retry counter began again at every socket that opened, so the page asked every
    300 ms for as long as the database was down (about 25 attempts in 8 s), and showed only
    "reconnecting", the reason never said.  Now the waits grow (to 15 s at most), the page
    says it reconnects and why, and its live region says the why once."""
    srv = fresh_server()
    table = two_humans(srv)
    srv.stop()
    srv = fresh_server(srv.port)         # the table is in the database only, not in memory
    _rename(srv, "tables", "tables_away")    # and cannot be read
    errors: list[str] = []
    page = watched_page(browser, srv, table["seats"][0]["link"], locale, errors, None, clock=True)
    why = reason(lang, "server.db_down")
    reconnecting = catalogue(lang).text("web.reconnecting")
    page.wait_for_selector(f"#notice:has-text({why!r})")   # the first attempt, made at once
    run_clock(page, 8_000)                                 # the page's own 8 s, in fake time
    gaps = _gaps(page)
    assert 3 <= len(gaps) + 1 <= 8, gaps                   # was about 25
    assert gaps[-1] >= 1_000 and gaps[-1] > gaps[0], gaps  # growing waits
    notice = page.inner_text("#notice")
    assert reconnecting in notice and why in notice and refused_prefix(lang) not in notice, notice
    said = page.evaluate("() => window.__said")
    assert sum(why in s for s in said) == 1, said           # the reason said once, not at each attempt

    _rename(srv, "tables_away", "tables")                  # the database can be read again
    run_clock(page, 15_000, "() => !!document.querySelector('#turn')")   # within the longest wait
    assert page.locator("#notice").count() == 0 or why not in page.inner_text("#notice")
    # the connection has worked: a loss now is reconnected at once (the first wait, 300 ms
    # at most, and a step of the clock), not after the long wait
    before = len(page.evaluate("() => window.__opened"))
    page.evaluate("() => window.__sockets.forEach((s) => s.close())")
    run_clock(page, 400, OPENED_MORE, before)
    run_clock(page, 1_000, NO_NOTICE)
    assert errors == []


@pytest.mark.parametrize("locale,lang", LOCALES)
def test_a_drawn_table_reconnecting_to_a_database_down_says_why_once(browser, fresh_server, locale, lang):
    """At a table drawn, each refused hello was a new notice, an alert: a screen reader
    heard "Refused: the database is not available; please try again" at every attempt
    (every 300 ms, as long as the database was down)."""
    srv = fresh_server()
    table = two_humans(srv)
    errors: list[str] = []
    page = watched_page(browser, srv, table["seats"][0]["link"], locale, errors, "#turn", clock=True)
    page.context.set_offline(True)                         # the connection drops ...
    page.evaluate("() => window.__sockets.forEach((s) => s.close())")
    srv.stop()
    srv = fresh_server(srv.port)                           # ... the server restarts ...
    _rename(srv, "tables", "tables_away")                  # ... and cannot read the table
    page.context.set_offline(False)
    why = reason(lang, "server.db_down")
    run_clock(page, 1_000, "(why) => (document.querySelector('#notice-more')?.textContent ?? '').includes(why)", why)
    opened = len(page.evaluate("() => window.__opened"))
    page.evaluate("() => { document.querySelector('#hand [data-key]').__kept = true; }")
    # two more attempts, refused as well (each after the page's own, growing wait)
    run_clock(page, 15_000, OPENED_MORE, opened + 1)
    alerts = page.evaluate("() => window.__alerts")
    assert sum(why.lower() in a.lower() for a in alerts) == 1, alerts
    # nor is the table drawn anew at each: a tap pressed before a drawing and released
    # after it is no click, and a move tapped meanwhile was lost
    assert page.evaluate("() => document.querySelector('#hand [data-key]').__kept === true")
    notice = page.inner_text("#notice")
    assert catalogue(lang).text("web.reconnecting") in notice and refused_prefix(lang) not in notice, notice
    _rename(srv, "tables_away", "tables")
    run_clock(page, 20_000, NO_NOTICE)
    assert errors == []


@pytest.mark.parametrize("locale,lang", LOCALES)
def test_a_replay_the_database_cannot_read_says_so_not_refused(browser, fresh_server, locale, lang):
    """The replay page, its table unreadable, said "Refused: the database is not
    available; please try again" („Nicht erlaubt: …")."""
    srv = fresh_server()
    table = two_humans(srv)
    srv.stop()
    srv = fresh_server(srv.port)
    _rename(srv, "tables", "tables_away")
    errors: list[str] = []
    page = watched_page(browser, srv, f"/replay/{table['id']}", locale, errors, "#notice")
    notice = page.inner_text("#notice")
    assert notice == reason(lang, "server.db_down"), notice
    assert errors == []
