"""The ASGI app: pages, the JSON API and the WebSocket of each table.

HTTP (JSON; refusals are `{"error": code, "reason": words, "reason_code", "params",
"message": the reason in the client's language (`?lang=` or Accept-Language)}` with a
4xx/5xx status, for every failure: bad input, unknown route, database outage, unexpected
error — see the exception handlers below; `reason_code`/`params` name a rule's refusal,
core/messages.py, a param that is itself a refusal as `{code, params}` (Reason.to_json);
bodies and messages are checked by `schemas.py`, use is limited by `limits.py`;
docs/web-server.md):

    GET  /api/games                      games (from their manifests: titles, options with their
                                         help in every language, the URL of the client module),
                                         bot levels
    GET  /api/messages/LANG              the message catalogue of LANG (en, de) for rendering codes
    GET  /static/games/NAME.js           a game's client module (its manifest's `plugins.web`)
    GET  /api/tables?status=running|over|all
    POST /api/tables                     {"game", "options", "seats": [{"kind": "human"} |
                                          {"kind": "bot", "level": "easy"}]} -> seat tokens, links
                                         (without a `players` option, as many players as seats listed)
    GET  /api/tables/ID                  the table as a spectator, or as the seat of
                                         `Authorization: Bearer TOKEN`
    POST /api/tables/ID/moves            {"action": notation, "n": move number seen} with the token
    GET  /api/tables/ID/record           the full record, once the game is over
    GET  /api/tables/ID/replay/STEP      the spectator view after STEP actions, once over
    GET  /api/tables/ID/hint             the expert bot's suggestion for the seat of the token
    POST /api/tables/ID/rematch          a new table with the same game, options and seats, once
                                         over (no fields): the first seat to ask makes it, every
                                         seat after that joins it, each with its own new token
    POST /api/tables/ID/stand-in         {"seat", "level"} with the token of another seat: a bot of
                                         that level plays the absent player's seat (see below)
    GET  /rules/GAME?lang=en|de          the player-facing rules of GAME as a page

WebSocket /ws/tables/ID: first `{"type": "hello", "token": TOKEN or null, "lang": "de"}` (and,
from the page, `"tab"`, its id, and `"resume": true` when it reconnects on its own: then the
seat stays with another tab that has it live, and this one is told "replaced"); then
`{"type": "move", "action", "n"}`, `{"type": "name", "name"}` (the seat's player name; a
seat's changes are limited, `name_rate`/`name_burst` in limits.py, and one that changes
nothing is ignored), `{"type": "stand_in", "seat", "level"}`, `{"type": "sync"}`,
`{"type": "ping"}`.

A bot for an absent player (`stand_in`, hub.LiveTable.stand_in): a human seat that has had
no connection in any server process for `stand_in_seconds` (limits.py, 60 s) while the game
runs may be handed by another seated player to a bot of a level of /api/games; the state's
seats say `stand_in` (that bot's level) and `stand_in_after` (seconds until it may be asked,
0: now, null: not possible).  The bot plays the seat until the seat's token says hello
again: the seat is its player's once more, and that connection gets `{"type": "seat_back"}`
after its state.  A move with the seat's token (over HTTP too) takes the seat back the same
way before it is checked, and its `accepted` says `"seat_back": true`; should the bot have
played for the seat first, its move stands and the player's, based on the position before
it, is refused as stale, the seat theirs all the same (hub.LiveTable._back_to_move).  A
player's move also starts the wait again: a seat that moves over HTTP is not absent.  The
lobby's list (`GET /api/tables`) names each seat's `stand_in` too.  A spectator, the absent seat itself, a seat online, a bot's seat, a seat
a bot plays already, a finished game, too early, an unknown level: each is refused.

The server
sends `{"type": "state", ...}` (that seat's view, its legal moves, the table) after
every change, then `{"type": "accepted", "n"}` to the mover (with `"late": true` for a move
refused for no answer in time that was stored after all: hub.LiveTable.stored_late), and
`{"type": "refused", "code", "reason", "reason_code", "params", "message"}` for a refused message.

A move's write that the database refused (a full disk, a read-only file, a lock) is refused
`storage` (503 over HTTP, with `retry-after`) as `server.unsaved` with its `cause`: it is not
stored.  One that had no answer within `storage_seconds` is refused `storage` as
`server.unsaved_in_doubt` (no cause): its transaction goes on and may still commit, and if
it does every page is shown the move and the mover's sockets get `accepted` with `late`.  The
same move sent again by the same seat with the same `n` once it has been stored is refused
`stale` (409) as `server.stored_after_all`, `{"n"}` the move number after it, rather than
as `server.stale` (hub.LiveTable._stored_after_all).  A move queued behind a move in doubt,
never written, is refused `storage` as `server.earlier_in_doubt`; a name, a rematch or a stand-in
whose write had no answer in time as `server.name_in_doubt`, `server.rematch_in_doubt`,
`server.stand_in_in_doubt` (hub.IN_DOUBT):
each may still be stored, and is then shown (asking again is safe).  Should its transaction
then fail, the sockets of the seat that was told so get a `refused` with `"late": true`
(`storage`, as `server.unsaved_after_all`, `server.name_unsaved_after_all`,
`server.rematch_unsaved_after_all` or `server.stand_in_unsaved_after_all` with its `cause`;
hub.AFTER_ALL): it was not stored, and the table shows it is not.  A move in doubt that
failed so is forgotten: sent again, it is taken as any move.  A move queued behind it is
told so too (`server.earlier_unsaved_after_all`, unless its seat has moved since).
A seat opened again (another tab) takes over: the older connection gets
`{"type": "replaced"}` and is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from email.utils import parsedate_to_datetime
from html import escape
from pathlib import Path
from urllib.parse import urlsplit
from typing import Any, Mapping

import sqlalchemy.exc
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..bots.leaderboard import levels_section
from ..bots.levels import level_names
from ..core.errors import BadRecord, ReplayError, UnknownGame, WasserspieleError
from ..core.messages import LANGS, Reason, catalogue, normalise_lang, shown, supported_lang
from ..core.records import replay
from ..core.rules_text import LANGUAGES, player_rules
from ..core.manifest import GameManifest, PluginMissing
from ..core.registry import game_class, manifest, manifests
from . import schemas
from .botpool import BotPool
from .hints import Hints
from .hub import HUMAN, OUTBOX_LIMIT, Connection, Hub, Refused, encode, storage_refusal
from .limits import Limits, RateLimit
from .notify import Listener
from .storage import Storage, failure_text, whole_database

log = logging.getLogger("wasserspiele.web")

STATIC = Path(__file__).parent / "static"
MAX_BODY = 16_384          # bytes of a JSON request body
MAX_MESSAGE = 4_096        # characters of one WebSocket message
HELLO_TIMEOUT = 10.0       # seconds a new WebSocket has to say who it is
PAGE_HEADERS = {
    "cache-control": "no-cache",
    # scripts and connections only from this server; the seat token stays in the fragment
    "content-security-policy": "default-src 'self'; script-src 'self'; connect-src 'self'; "
                               "img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                               "frame-ancestors 'none'; base-uri 'none'",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
}
# HTTP answers are gzipped for a client that accepts it (scripts, style sheet, the message
# catalogue: 416 kB shrink to 126 kB); not below GZIP_MINIMUM bytes, where the answer and
# its headers fit one packet either way; level 6 makes them 0.2 % larger than 9 for 40 %
# less CPU (docs/performance.md, Web: what a phone downloads).  WebSocket frames do not
# pass through it (see `serve`'s ws_per_message_deflate).
GZIP_MINIMUM = 1_000
GZIP_LEVEL = 6
# what a browser may keep and must ask again about (a conditional request, answered 304
# while unchanged), so that a server upgrade shows at the next load
REVALIDATE = {"cache-control": "no-cache"}


def _refusal(exc: Refused | schemas.Invalid, request: Request | None = None) -> JSONResponse:
    """The refusal as JSON; with the request, its `message` is in the client's language."""
    body = _refused(exc).to_json(request_lang(request) if request is not None else "en")
    body.pop("type")
    body["error"] = body.pop("code")
    return JSONResponse(body, status_code=exc.status)


def _refused(exc: Refused | schemas.Invalid) -> Refused:
    """Input of the wrong shape is refused like anything else (one payload for clients)."""
    return exc if isinstance(exc, Refused) else Refused(exc.code, exc.reason, exc.status)


def request_lang(conn) -> str:
    """The client's language: `?lang=de`, else its Accept-Language header; English by default."""
    return normalise_lang(conn.query_params.get("lang") or conn.headers.get("accept-language"))


async def _on_refused(request: Request, exc: Refused | schemas.Invalid) -> Response:
    response = _refusal(exc, request)
    if exc.code == "storage":  # a write the database refused (Hub.store): as _on_storage_error
        response.headers["retry-after"] = "5"
    return response


def _wants_page(request: Request) -> bool:
    """A browser asking for a page (an address typed or followed), not a program for data:
    a GET outside the API, the static files and the sockets that accepts HTML."""
    path = request.url.path
    return (request.method in ("GET", "HEAD") and "text/html" in request.headers.get("accept", "")
            and not path.startswith(("/api/", "/static/", "/ws/")))


async def _on_http_error(request: Request, exc: HTTPException) -> Response:
    if exc.status_code == 404:
        reason = Reason("server.no_page", path=request.url.path)
        # a mistyped address in a browser showed the refusal's JSON, with no way on: the
        # page a missing rules page gets, in the browser's language, with the way to the lobby
        if _wants_page(request):
            return _not_found_page(request_lang(request), reason)
        refused = Refused("not_found", reason, 404)
    elif exc.status_code == 405:
        refused = Refused("bad_method", Reason("server.bad_method", method=request.method), 405)
    else:
        refused = Refused("bad_request", exc.detail, exc.status_code)
    response = _refusal(refused, request)
    response.headers.update(exc.headers or {})
    return response


def _log_storage_failure(hub: Hub | None, exc: Exception, during: str) -> None:
    """One line per failure, the driver's words only (SQLAlchemy's own text adds the
    statement and a link on lines of their own); none while the outage it belongs to is
    already said (`Hub.writes`: a full disk, a read-only file, a lock), and a failure of
    the database as a whole once per outage, with its cause (`Hub.reads`: before, a line
    per request, a load balancer's /healthz every few seconds, while the database was gone)."""
    if hub is not None and whole_database(exc):
        if not hub.writes.failing:
            hub.reads.failed(exc, "no answer in time" if isinstance(exc, TimeoutError) else None)
        return
    reason = "no answer in time" if isinstance(exc, TimeoutError) else failure_text(exc)
    log.error("storage failed during %s: %s", during, reason)


async def _on_storage_error(request: Request, exc: Exception) -> Response:
    """The database is down, stalled or refused a read (a write's refusal says its cause,
    Hub.store): the request can be tried again later."""
    _log_storage_failure(getattr(request.app.state, "hub", None), exc, f"{request.method} {request.url.path}")
    response = _refusal(storage_refusal(exc), request)
    response.headers["retry-after"] = "5"
    return response


async def _on_hung_up(request: Request, exc: ClientDisconnect) -> Response:
    """A client that hung up while sending its body is gone, and no answer reaches it:
    nothing is logged, as of a socket that hangs up.  It went to `_on_crash`, and each
    such request (no token needed) wrote two tracebacks to the log."""
    return Response(status_code=400)


async def _on_crash(request: Request, exc: Exception) -> Response:
    log.exception("unexpected error during %s %s", request.method, request.url.path, exc_info=exc)
    return _refusal(Refused("internal", Reason("server.crashed"), 500), request)


EXCEPTION_HANDLERS = {
    Refused: _on_refused,
    schemas.Invalid: _on_refused,
    HTTPException: _on_http_error,
    sqlalchemy.exc.SQLAlchemyError: _on_storage_error,
    TimeoutError: _on_storage_error,
    ClientDisconnect: _on_hung_up,
    Exception: _on_crash,
}


def _foreign_origin(conn: Request | WebSocket) -> bool:
    """A browser names the page a request comes from (`Origin`); one that is not this
    server's own host is another site's (no Origin: not a browser's cross-site request)."""
    origin = conn.headers.get("origin")
    if origin is None:
        return False
    try:
        parts = urlsplit(origin)
    except ValueError:  # `http://[::1` (no browser sends it): no page of this server either; was a 500
        return True
    return not parts.netloc or _host(parts.netloc, parts.scheme) != _host(conn.headers.get("host", ""), parts.scheme)


def _host(netloc: str, scheme: str) -> str:
    netloc = netloc.lower()
    default = {"http": ":80", "https": ":443", "ws": ":80", "wss": ":443"}.get(scheme)
    return netloc[:-len(default)] if default and netloc.endswith(default) else netloc


async def _json_body(request: Request) -> Any:
    """The request's JSON, read only up to MAX_BODY bytes (a larger body is refused unread).
    Another site's page may not post (its `Origin` is foreign), and a body must be sent as
    `application/json`: a form or a `text/plain` fetch, which a browser sends cross-site
    without asking first, is refused.

    A body without any Content-Type is read as JSON, on purpose: scripts post that way
    (`requests`/`httpx` with `data=`), and FastAPI kept the same when it closed this hole
    (CVE-2021-32677).  A browser does send an untyped body cross-site without asking (a
    fetch or `sendBeacon` of bytes), but with its Origin (`null` under a no-referrer
    policy), refused above; a seat's moves need its Bearer token, which no cross-site page
    can send without a preflight, so such a post could only create tables from the
    visitor's address.  Refusing it would break those scripts to guard only against
    browsers too old to send Origin on a POST."""
    if _foreign_origin(request):
        raise Refused("bad_request", Reason("server.origin"), 403)
    kind = request.headers.get("content-type")
    if kind is not None and kind.split(";")[0].strip().lower() != "application/json":
        raise Refused("bad_request", Reason("server.content_type"), 415)
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and (len(declared) > 9 or int(declared) > MAX_BODY):
        raise Refused("too_large", Reason("server.body_too_large", size=int(declared), most=MAX_BODY), 413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise Refused("too_large", Reason("server.body_over", most=MAX_BODY), 413)
        chunks.append(chunk)
    return schemas.parse_json(b"".join(chunks))


def _bearer(request: Request) -> str | None:
    """The seat token of `Authorization: Bearer TOKEN`; None without the header (a
    spectator).  A header of another shape is refused: taken as none, a client's typo
    would have shown it the spectator's view without a word."""
    auth = request.headers.get("authorization")
    if auth is None:
        return None
    scheme, _, token = auth.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Refused("bad_token", Reason("server.auth_header"), 401)
    return token.strip()


def option_json(o, game: str | None = None) -> dict[str, Any]:
    """An option for the lobby; `help_text` has its help in every language (catalogue
    entry `option.GAME.NAME`)."""
    out = {"name": o.name, "default": o.default, "kind": o.kind, "help": o.help,
           "choices": list(o.choices), "minimum": o.minimum, "maximum": o.maximum,
           "nullable": o.nullable, "seat": o.seat}
    if game is not None:
        out["help_text"] = {lang: catalogue(lang).text(f"option.{game}.{o.name}") or o.help for lang in LANGS}
    return out


def client_url(m: GameManifest) -> str | None:
    """Where the browser loads the game's client module (beside the shared modules it imports)."""
    return f"/static/games/{m.name}.js" if m.plugins.web is not None else None


def games_json() -> list[dict[str, Any]]:
    return [{"name": m.name, "title": m.title["en"], "titles": dict(m.title),
             "fixed_players": m.fixed_players, "players": list(m.players), "notation": m.notation,
             "options": [option_json(o, m.name) for o in m.options], "client": client_url(m)}
            for m in manifests()]


def create_app(db_url: str | None = None, *, bot_delay: float = 0.7, bot_pool: str = "process",
               resume: bool = True, limits: Limits | None = None, freeze_heap: bool = False,
               presence_heartbeat: float = 10.0, presence_expiry: float = 30.0,
               deal_seed: int | None = None) -> Starlette:
    """The web app over the database at `db_url` (default: SQLite in the user's data dir).
    `bot_pool`: where bots think ("process"; "thread" or "inline" for tests).
    `deal_seed`: new tables dealt from this seed's sequence (`serve --seed`), not at random.
    `freeze_heap`: for a process that serves only this app (see `freeze_startup_heap`).
    `presence_heartbeat`, `presence_expiry`: on PostgreSQL, how often this process renews
    the seats it has online for the others, and how long theirs count unrenewed (hub.Presence)."""
    from .storage import default_db_url

    lim = limits or Limits.from_env()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        storage = Storage(db_url or default_db_url(), exclusive=True)
        hub = Hub(storage, bot_delay=bot_delay, bots=BotPool(lim.workers(), bot_pool), limits=lim,
                  presence_heartbeat=presence_heartbeat, presence_expiry=presence_expiry, deal_seed=deal_seed)
        app.state.hub = hub
        app.state.hints = Hints(hub.bots, lim)
        if freeze_heap:
            freeze_startup_heap()
        background = [asyncio.create_task(hub.sweeper())]
        if storage.postgresql:
            listener = Listener(storage.url, storage.origin, hub.on_notice, hub.catch_up_all,
                                hub.presence.heard)
            app.state.listener = listener
            background.append(asyncio.create_task(listener.run()))
            await asyncio.wait_for(listener.ready.wait(), lim.storage_seconds)
            hub.presence.start(storage.origin)  # who is online, shared with the other processes
        if resume:
            await hub.resume_all()
        hub.bots.warm()
        try:
            yield
        finally:
            for task in background:
                task.cancel()
            await hub.shutdown()
            storage.close()

    def hub_of(request) -> Hub:
        return request.app.state.hub

    async def page(request: Request) -> Response:
        index = STATIC / "index.html"
        return not_modified(request, FileResponse(index, headers=PAGE_HEADERS, stat_result=index.stat()))

    async def rules_page(request: Request) -> Response:
        name = request.path_params["game"]
        asked = request.query_params.get("lang")
        if asked and supported_lang(asked) is None:  # said in the browser's language
            return _not_found_page(normalise_lang(request.headers.get("accept-language")),
                                   Reason("server.rules_lang", lang=asked, langs=", ".join(LANGUAGES)))
        lang = request_lang(request)
        try:
            html = render_rules(name, lang)
        except UnknownGame as exc:
            return _not_found_page(lang, exc.reason)
        except WasserspieleError as exc:  # a game without rules in this language: its loader's words
            return _not_found_page(lang, Reason("text", text=str(exc)))
        return HTMLResponse(html, headers=PAGE_HEADERS)

    async def api_hint(request: Request) -> Response:
        hub = hub_of(request)
        table = await hub.open(request.path_params["table_id"])
        token = _bearer(request)
        if token is None:
            raise Refused("bad_token", Reason("server.hint_token"), 401)
        seat = await table.seat_of(token)
        st = table.state
        if st.is_terminal():  # (said as a move or a stand-in on it is: "not your turn" misled)
            raise Refused("game_over", Reason("game_over"), 409)
        if seat not in st.to_move():
            raise Refused("not_your_turn", Reason("server.hint_not_your_turn"), 409)
        # one search per seat and move, in the bots' pool, limited per client and server-wide
        # (hints.py); a client that leaves stops waiting, and a search nobody waits for any
        # more leaves the pool's queue
        asked = asyncio.ensure_future(request.app.state.hints.ask(table, seat, client_of(request)))
        gone = asyncio.ensure_future(_disconnected(request))
        try:
            await asyncio.wait({asked, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
            if not asked.done():
                asked.cancel()
        if not asked.done() or asked.cancelled():
            return Response(status_code=204)  # the client has gone: nobody reads this
        action, n = asked.result()
        return JSONResponse({"action": action, "n": n})

    async def api_rematch(request: Request) -> Response:
        hub = hub_of(request)
        table = await hub.open(request.path_params["table_id"])
        body = await _json_body(request)
        if body is not None:  # no body at all is fine; fields are not
            schemas.load(schemas.Rematch, body)
        token = _bearer(request)
        if token is None:
            raise Refused("bad_token", Reason("server.rematch_token"), 401)
        seat = await table.seat_of(token)
        table = await hub.current(table)  # (it may have left memory meanwhile: the copy its clients watch)
        new_id, new_token = await hub.rematch(table, seat, token, client_of(request))
        return JSONResponse({"id": new_id, "link": f"/table/{new_id}#seat={seat}&token={new_token}"})

    async def api_stand_in(request: Request) -> Response:
        table = await hub_of(request).open(request.path_params["table_id"])
        token = _bearer(request)
        if token is None:
            raise Refused("bad_token", Reason("server.stand_in_token"), 401)
        seat = await table.seat_of(token)
        body = schemas.load(schemas.StandInBody, await _json_body(request))
        table = await hub_of(request).current(table)  # (it may have left memory meanwhile)
        await table.stand_in(seat, body.seat, body.level)
        return JSONResponse(table.message_for(seat))

    async def healthz(request: Request) -> Response:
        """For a load balancer, a container's health check or a monitoring probe: 200 once
        the app is up and its database answers; 503 `storage` (the usual handler) when the
        database is down or does not answer within `storage_seconds`, and while it refuses
        writes (`server.db_unwritable`; Hub.writes tries one again every few seconds)."""
        hub = hub_of(request)
        await hub.db(hub.storage.ping)
        if not await hub.writes.check():  # it reads, but refuses every move (a full disk, a lock)
            response = _refusal(Refused("storage", Reason("server.db_unwritable"), 503), request)
            response.headers.update({"retry-after": "5", "cache-control": "no-store"})
            return response
        return JSONResponse({"status": "ok"}, headers={"cache-control": "no-store"})

    async def api_games(request: Request) -> Response:
        return validated(request, JSONResponse({"games": games_json(), "levels": level_names()}))

    async def api_messages(request: Request) -> Response:
        # a language tag as `?lang=` and Accept-Language take it (`DE`, `de-AT`: German);
        # any other is no such catalogue, refused as every missing thing is (`not_found`)
        primary, dash, region = request.path_params["lang"].partition("-")
        lang = primary.lower()
        if lang not in LANGS or (dash and not (region.isascii() and region.isalnum())):
            raise Refused("not_found", Reason("server.lang", langs=", ".join(LANGS)), 404)
        return validated(request, JSONResponse(catalogue(lang).to_json()))  # read by every page load

    async def game_client(request: Request) -> Response:
        name = request.path_params["name"]
        try:
            source = manifest(name).web_source()
        except (UnknownGame, PluginMissing):
            raise Refused("not_found", Reason("server.no_client_module", game=name), 404) from None
        return validated(request, Response(source, media_type="text/javascript"))

    async def api_tables(request: Request) -> Response:
        hub = hub_of(request)
        # (HEAD is a GET without its body, which Starlette adds to a GET route: taken as a
        # POST, a HEAD with a body made a table whose tokens nobody received)
        if request.method in ("GET", "HEAD"):
            status = request.query_params.get("status", "running")
            if status not in ("running", "over", "all"):
                raise Refused("bad_request", Reason("server.status_filter"))
            return JSONResponse({"tables": await hub.db(hub.storage.list_tables,
                                                        None if status == "all" else status)})
        body = await _json_body(request)
        table, tokens = await hub.create(body, client_of(request))
        base = f"/table/{table.id}"
        seats = []
        for s in table.seats:
            entry = {"seat": s.seat, "kind": s.kind, "level": s.level}
            if s.kind == HUMAN:
                entry["token"] = tokens[s.seat]
                entry["link"] = f"{base}#seat={s.seat}&token={tokens[s.seat]}"
            seats.append(entry)
        return JSONResponse({"id": table.id, "game": table.game.name, "seats": seats,
                             "spectator_link": base}, status_code=201)

    async def api_table(request: Request) -> Response:
        table = await hub_of(request).open(request.path_params["table_id"])
        seat = await table.seat_of(_bearer(request))
        await table.until_saved()  # a move applied but not yet stored is not shown
        return JSONResponse(table.message_for(seat))

    async def api_move(request: Request) -> Response:
        hub = hub_of(request)
        table = await hub.open(request.path_params["table_id"])
        token = _bearer(request)
        if token is None:
            raise Refused("bad_token", Reason("server.move_token"), 401)
        seat = await table.seat_of(token)
        body = schemas.load(schemas.MoveBody, await _json_body(request))
        # a table nobody watches may have left memory while the body was read (the cache's
        # bound, the idle sweep): the move goes to the copy in memory now, not answered 503
        table = await hub.current(table)
        return JSONResponse(await table.submit(seat, body.action, body.n))

    async def finished(request: Request, running: Reason):
        table = await hub_of(request).open(request.path_params["table_id"])
        if not table.state.is_terminal():
            raise Refused("running", running, 409)
        return table

    async def api_record(request: Request) -> Response:
        table = await finished(request, Reason("server.record_running"))
        return JSONResponse(table.state.record())

    async def api_replay(request: Request) -> Response:
        table = await finished(request, Reason("server.replay_running"))
        text = request.path_params["step"]
        digits = text[1:] if text.startswith("-") else text  # -1 is whole, and out of range
        # ASCII digits only: str.isdigit() also takes "²" (which int() refuses: a 500) and
        # "٣" (which int() reads as 3: a step the URL does not show)
        if not (digits.isascii() and digits.isdigit()):
            raise Refused("bad_request", Reason("server.step_not_whole"))
        record = table.state.record()
        total = len(record["actions"])
        # a whole number too long to be a step is out of range, not "no whole number"; its
        # digits are not read (thousands of them would be a long int() for nothing)
        step = int(text) if len(digits) < 7 else -1
        if not 0 <= step <= total:
            raise Refused("not_found", Reason("server.step_range", total=total), 404)
        try:
            st = replay(record, stop_at=step)
        except (BadRecord, ReplayError) as exc:  # pragma: no cover - records of finished games replay
            log.error("table %s cannot be replayed: %s", table.id, exc)
            raise Refused("broken_table", Reason("server.broken_table", table=table.id), 500) from None
        return JSONResponse({"table": table.id, "game": table.game.name, "step": step, "total": total,
                             "players": table.game.players, "teams": [list(t) for t in table.game.teams],
                             "action": record["actions"][step - 1] if step else None,
                             "view": st.view(None), "terminal": st.is_terminal(),
                             "scores": st.scores_seen_by(None), "winners": st.winners() if st.is_terminal() else []})

    async def ws_table(websocket: WebSocket) -> None:
        hub: Hub = websocket.app.state.hub
        client = client_of(websocket)
        await websocket.accept()
        # counted from the upgrade on, so sockets that never say hello count too
        too_many = hub.sockets.open(client)
        if too_many:
            await _refuse_socket(websocket, Refused("too_many", too_many, 429), request_lang(websocket))
            return
        lang = request_lang(websocket)  # until the hello names one
        try:  # the socket stays counted until it closes, whichever way it goes
            try:
                if _foreign_origin(websocket):  # another site's page: its visitor's address is not its own to use
                    raise Refused("bad_request", Reason("server.origin"), 403)
                table = await hub.open(websocket.path_params["table_id"])
                try:
                    first = await asyncio.wait_for(_receive(websocket), HELLO_TIMEOUT)
                except asyncio.TimeoutError:
                    raise Refused("bad_message", Reason("server.hello_first")) from None
                data = schemas.parse_json(_text(first), "the message")
                if isinstance(data, dict) and isinstance(data.get("lang"), str) and data["lang"]:
                    # a hello refused (a wrong token, a field too many) is said in its language too
                    lang = normalise_lang(data["lang"])
                if not isinstance(data, dict) or data.get("type") != "hello":
                    raise Refused("bad_message", Reason("server.hello_shape"))
                hello = schemas.load(schemas.Hello, data)
                seat = await table.seat_of(hello.token)
                # the table may have left memory while the hello was awaited (a finished one
                # whose last socket closed, an idle one swept): a socket attached to that copy
                # would never see what happens at the table (a rematch, a name, a move)
                while hub.tables.get(table.id) is not table:
                    table = await hub.open(table.id)
                spectators = sum(1 for c in table.conns if c.seat is None)
                full = hub.sockets.table_full(spectators, seat, table.game.players)
                if full:
                    raise Refused("too_many", full, 429)
            except (Refused, schemas.Invalid) as exc:
                await _refuse_socket(websocket, exc, lang)
                return
            except (sqlalchemy.exc.SQLAlchemyError, TimeoutError) as exc:  # a read: the table, its tokens
                await _refuse_socket(websocket, storage_refusal(exc), lang)
                return
            except WebSocketDisconnect:
                return
            except Exception:  # said and closed 4500, as HTTP answers 500 (the handlers cannot answer a socket)
                log.exception("unexpected error during the hello at %s", websocket.url.path)
                await _refuse_socket(websocket, Refused("internal", Reason("server.crashed"), 500), lang)
                return
            conn = Connection(websocket.send_text, seat, lambda: websocket.close(code=1012))
            conn.lang = lang  # (what it is told unasked: a write in doubt that failed after all)
            # a page reconnecting on its own while another tab has its seat is told it is
            # replaced (its socket then closes, ending the loop below)
            if table.attach(conn, resume=hello.resume, tab=hello.tab) and seat is not None:
                try:  # its player is back: a bot standing in for them stops (told `seat_back`)
                    await table.seat_back(seat)
                except Refused as exc:  # (the database: the next hello tries again)
                    conn.push(json.dumps(exc.to_json(lang)))
                except (sqlalchemy.exc.SQLAlchemyError, TimeoutError) as exc:  # (reading the table back)
                    conn.push(json.dumps(storage_refusal(exc).to_json(lang)))
            bucket = RateLimit(hub.limits.message_rate, hub.limits.message_burst)
            try:
                while True:
                    text = await _receive(websocket)
                    if conn.closed:  # replaced by a newer tab (or dropped): its last message is not its seat's any more
                        break
                    try:
                        if not bucket.take():
                            # answered while the outbox has room, then dropped unanswered: a flood
                            # gets its refusals and never fills the outbox to its cap
                            if conn.outbox.qsize() < OUTBOX_LIMIT // 2:
                                raise Refused("too_many",
                                              Reason("server.message_rate", rate=hub.limits.message_rate))
                            continue
                        msg = schemas.load_message(schemas.parse_json(_text(text), "the message"))
                        if isinstance(msg, schemas.MoveMessage):
                            result = await table.submit(seat, msg.action, msg.n)
                            conn.push(json.dumps(result))  # after the new state: "your move is in"
                        elif isinstance(msg, schemas.NameMessage):
                            await table.set_name(seat, msg.name)
                        elif isinstance(msg, schemas.StandInMessage):
                            await table.stand_in(seat, msg.seat, msg.level)
                        elif isinstance(msg, schemas.Ping):
                            conn.push(json.dumps({"type": "pong"}))
                        else:
                            await table.until_saved()  # a sync shows only stored moves
                            conn.push(encode(table.message_for(seat)))
                    except (Refused, schemas.Invalid) as exc:
                        conn.push(json.dumps(_refused(exc).to_json(lang)))
                    except (sqlalchemy.exc.SQLAlchemyError, TimeoutError) as exc:
                        # as HTTP answers 503: the message is refused with its reason and the
                        # socket stays (before, a name change during an outage closed it unexplained)
                        _log_storage_failure(hub, exc, f"a message at table {table.id}")
                        conn.push(json.dumps(storage_refusal(exc).to_json(lang)))
                    except Exception:
                        log.exception("unexpected error during a message at table %s", table.id)
                        conn.push(json.dumps(Refused("internal", Reason("server.crashed"), 500).to_json(lang)))
                    if conn.closed:
                        break
            except WebSocketDisconnect:
                pass
            finally:
                table.detach(conn)
                await conn.drain()
        finally:
            hub.sockets.close(client)

    routes = [
        Route("/", page),
        Route("/table/{table_id}", page),
        Route("/replay/{table_id}", page),
        Route("/healthz", healthz),
        Route("/api/games", api_games),
        Route("/api/messages/{lang}", api_messages),
        Route("/api/tables", api_tables, methods=["GET", "POST"]),
        Route("/api/tables/{table_id}", api_table),
        Route("/api/tables/{table_id}/moves", api_move, methods=["POST"]),
        Route("/api/tables/{table_id}/record", api_record),
        Route("/api/tables/{table_id}/replay/{step}", api_replay),
        Route("/api/tables/{table_id}/hint", api_hint),
        Route("/api/tables/{table_id}/rematch", api_rematch, methods=["POST"]),
        Route("/api/tables/{table_id}/stand-in", api_stand_in, methods=["POST"]),
        Route("/rules/{game}", rules_page),
        WebSocketRoute("/ws/tables/{table_id}", ws_table),
        Route("/static/games/{name}.js", game_client),  # before the mount, which would not find it
        Mount("/static", RevalidatedFiles(directory=STATIC), name="static"),
    ]
    return App(routes=routes, lifespan=lifespan, exception_handlers=EXCEPTION_HANDLERS,
               middleware=[Middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM, compresslevel=GZIP_LEVEL)])


class RevalidatedFiles(StaticFiles):
    """StaticFiles whose answers, 304s included, say `cache-control: no-cache`.  Without
    it a browser kept the scripts by its own guess (a tenth of their age since
    Last-Modified) and, after a server upgrade, ran stale shared modules beside the
    games' new ones (those were always no-cache)."""

    def file_response(self, *args, **kwargs) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers.update(REVALIDATE)
        return response


def validated(request: Request, response: Response) -> Response:
    """A generated answer that does not change while the server runs (a game's script,
    the catalogue), with an ETag of its body and `no-cache`: a reload asks, and gets
    304 while the body is unchanged (the ETag is weak: the body may be sent gzipped)."""
    response.headers.update(REVALIDATE)
    response.headers["etag"] = f'W/"{hashlib.blake2b(response.body, digest_size=16).hexdigest()}"'
    return not_modified(request, response)


def not_modified(request: Request, response: Response) -> Response:
    """A 304 in place of `response` when the client holds the same version (If-None-Match
    names its ETag; without that header, If-Modified-Since is not older than its
    Last-Modified), with every header of the full answer but those of the body: a page's
    security headers stay on it."""
    if request.method not in ("GET", "HEAD"):
        return response
    asked = request.headers.get("if-none-match")
    if asked is not None:
        etag = response.headers.get("etag", "").removeprefix("W/")
        same = bool(etag) and any(tag.strip().removeprefix("W/") in (etag, "*") for tag in asked.split(","))
    else:
        same = _unchanged_since(request.headers.get("if-modified-since"), response.headers.get("last-modified"))
    if not same:
        return response
    body_headers = ("content-length", "content-type", "content-encoding", "transfer-encoding")
    return Response(status_code=304, headers={k: v for k, v in response.headers.items() if k not in body_headers})


def _unchanged_since(since: str | None, modified: str | None) -> bool:
    if not since or not modified:
        return False
    try:
        return parsedate_to_datetime(modified) <= parsedate_to_datetime(since)
    except (TypeError, ValueError):  # not a date: answered in full
        return False


class App(Starlette):
    """Starlette with `NoSniff` around its whole stack.  A crash's 500 (`_on_crash`) is sent
    by Starlette's ServerErrorMiddleware, which sits outside every middleware passed as
    `middleware=`: there NoSniff would miss exactly that response."""

    def build_middleware_stack(self):
        return NoSniff(super().build_middleware_stack())


class NoSniff:
    """`X-Content-Type-Options: nosniff` on every HTTP response (JSON, scripts, errors, a
    crash's 500), not only on pages: a browser never reads one as another type than it is
    sent as."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def sending(message):
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"x-content-type-options"]
                message = {**message, "headers": headers + [(b"x-content-type-options", b"nosniff")]}
            await send(message)

        await self.app(scope, receive, sending)


def freeze_startup_heap() -> None:
    """Take what start-up made (modules, every game's classes, the app) out of the cyclic
    garbage collector's scans (`gc.freeze`).  A full collection walks every tracked
    object: with the start-up heap it took 66 ms of CPU after 3,000 Wildwasser moves at
    20 tables, frozen 11-14 ms (in-process, /tmp-free figures in docs/performance.md),
    and while it runs no table moves, so one such pause landed on every move in flight
    and set the load test's p99.  Tables are loaded after this, so a table that later
    leaves memory is still collected; only objects that live for the process are frozen."""
    import gc
    for m in manifests():  # games are imported on first use: import them before freezing
        game_class(m.name)
    gc.collect()
    gc.freeze()


def env_settings(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """`create_app`'s settings as the worker processes read them: WASSERSPIELE_DB,
    WASSERSPIELE_BOT_DELAY, WASSERSPIELE_BOT_POOL (process; thread to compare),
    WASSERSPIELE_DEAL_SEED (`serve --seed`), each checked, and the limits' variables
    checked too (`env_config`).  A bad value is a ValueError naming the variable, so that
    `serve` can refuse it before uvicorn starts, where it would be a traceback after the
    banner."""
    return env_config(environ)[0]


def env_config(environ: Mapping[str, str] | None = None) -> tuple[dict[str, Any], Limits]:
    """`env_settings` and the limits (`Limits.from_env`) they were checked with: the app
    is built with these very limits, not with a second reading of the environment."""
    import os
    env = os.environ if environ is None else environ
    delay = env.get("WASSERSPIELE_BOT_DELAY", "0.7")
    try:
        bot_delay = float(delay)
    except ValueError:
        raise ValueError(f"WASSERSPIELE_BOT_DELAY={shown(delay)}: not a number of seconds") from None
    if not 0 <= bot_delay < float("inf"):  # NaN slipped through max(0, ...) as no delay, inf stopped every bot
        raise ValueError(f"WASSERSPIELE_BOT_DELAY={shown(delay)}: must be a finite number of seconds ≥ 0")
    pool = env.get("WASSERSPIELE_BOT_POOL", "process")
    if pool not in BotPool.KINDS:
        raise ValueError(f"WASSERSPIELE_BOT_POOL={shown(pool)}: one of {', '.join(BotPool.KINDS)}")
    seed = env.get("WASSERSPIELE_DEAL_SEED")
    if seed is not None:
        try:
            seed = int(seed)
        except ValueError:
            raise ValueError(f"WASSERSPIELE_DEAL_SEED={shown(seed)}: not a whole number") from None
    limits = Limits.from_env(env)
    return {"db_url": env.get("WASSERSPIELE_DB"), "bot_delay": bot_delay, "bot_pool": pool,
            "deal_seed": seed}, limits


class _ClientsBadFrames(logging.Filter):
    """uvicorn logs a WebSocket text frame that is not UTF-8 with a traceback, one per
    connection, before it closes the socket with 1007: a client could flood the log with
    them (as with the hang-ups `_on_hung_up` keeps out).  The close code tells the client;
    the log says nothing, as of any other frame a client gets wrong."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != "Invalid UTF-8 sequence received from client."


def app_from_env() -> Starlette:
    """The app for `uvicorn --factory` worker processes (`wasserspiele serve --workers N`),
    configured by the environment (`env_config`)."""
    settings, limits = env_config()
    uvicorn_log = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _ClientsBadFrames) for f in uvicorn_log.filters):
        uvicorn_log.addFilter(_ClientsBadFrames())
    return create_app(**settings, limits=limits, freeze_heap=True)


def client_of(conn: Request | WebSocket) -> str:
    """Who a request comes from, for the limits: the peer's address (the player's, when
    uvicorn trusts the reverse proxy's X-Forwarded-For)."""
    return conn.client.host if conn.client else "unknown"


async def _disconnected(request: Request) -> None:
    """Returns once the client of a request whose body has been read hangs up."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def _refuse_socket(websocket: WebSocket, exc: Refused | schemas.Invalid, lang: str) -> None:
    """Says why and closes; a client that has already gone is not an error (no traceback
    per connection to flood the log with)."""
    try:
        await websocket.send_text(json.dumps(_refused(exc).to_json(lang)))
        await websocket.close(code=4000 + exc.status if 400 <= exc.status < 1000 else 4000)
    except (WebSocketDisconnect, OSError, RuntimeError):
        pass


# the server-rendered pages' own words come from the catalogue, as the client's do
# (they were dicts here, out of reach of the catalogues and their checks)
def _page_text(key: str, lang: str) -> str:
    return catalogue(lang).text(f"web.{key}") or catalogue("en").text(f"web.{key}") or key


def _word(key: str, lang: str) -> str:
    """`_page_text` for an HTML page's body."""
    return escape(_page_text(key, lang))


# a language names itself in the menu (an endonym, the same in every language)
OTHER_LANG = {"en": ("de", "Deutsch"), "de": ("en", "English")}


def _page_html(lang: str, title: str, main: str, header_extra: str = "") -> str:
    """A server-rendered page in the client's frame (same header and style sheet, no script)."""
    return (f'<!doctype html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>{escape(title)}</title>\n'
            f'<link rel="stylesheet" href="/static/style.css">\n<link rel="icon" href="data:,">\n</head>\n<body>\n'
            f'<header><a href="/" id="home">Wasserspiele</a><span class="spacer"></span>{header_extra}</header>\n'
            f'<main class="rules">\n{main}\n</main>\n</body>\n</html>\n')


def _not_found_page(lang: str, reason: Reason) -> HTMLResponse:
    """A server-rendered page that is not there (a rules page, a mistyped address), said in
    `lang`: the reason as a sentence of its own (the catalogue words it for inside a line)."""
    said = reason.render(lang)
    main = (f'<h1>{_word("not_found", lang)}</h1>\n<p>{escape(said[:1].upper() + said[1:])}</p>\n'
            f'<p><a href="/">{_word("back_to_lobby", lang)}</a></p>')
    return HTMLResponse(_page_html(lang, f"{_page_text('not_found', lang)} · Wasserspiele", main), 404,
                        headers=PAGE_HEADERS)


# A phone line holds about this many characters of a rules table (390 px at .85 rem),
# and a column's padding and border take about CELL_EXTRA more: the English levels table,
# 35 characters of longest words in 5 columns, came out 26 px wider than the phone with 2
PHONE_LINE = 45
CELL_EXTRA = 3


# the roles a table's parts keep when the style sheet lays them out as cards
_TABLE_ROLES = {"table_open": "table", "thead_open": "rowgroup", "tbody_open": "rowgroup", "tr_open": "row",
                "th_open": "columnheader", "td_open": "cell"}


def _mark_stacking_tables(tokens: list) -> None:
    """Mark the tables of a parsed rules text that cannot fit a phone's width without
    breaking words (`_mark_if_too_wide`)."""
    start = None
    for i, tok in enumerate(tokens):
        if tok.type == "table_open":
            start = i
        elif tok.type == "table_close" and start is not None:
            _mark_if_too_wide(tokens[start:i + 1])
            start = None


def _mark_if_too_wide(table: list) -> None:
    """A table (its tokens) whose columns' longest words, plus each cell's padding, add up to
    more than a phone line: its cells get their column's name (`data-label`) and the style
    sheet shows each of its rows as a card on narrow screens; the ARIA roles keep it a
    table for screen readers once the cards no longer lay out as one."""
    rows: list[list[tuple[Any, str]]] = []  # per row: each cell's opening token and text
    for k, tok in enumerate(table):
        if tok.type == "tr_open":
            rows.append([])
        elif tok.type in ("th_open", "td_open"):
            rows[-1].append((tok, _plain(table[k + 1])))
    widest = [max((len(word) for row in rows for word in row[c][1].split()), default=0)
              for c in range(len(rows[0]))]
    if sum(widest) + CELL_EXTRA * len(widest) <= PHONE_LINE:
        return
    table[0].attrJoin("class", "stacks")
    for tok in table:
        if tok.type in _TABLE_ROLES:
            tok.attrSet("role", _TABLE_ROLES[tok.type])
    header = [text for _, text in rows[0]]
    for row in rows[1:]:
        for (tok, _), name in zip(row, header):
            tok.attrSet("data-label", name)


def _plain(inline) -> str:
    """A cell's text without its Markdown markup."""
    return "".join(c.content for c in (inline.children or []) if c.type in ("text", "code_inline"))


def render_rules(game: str, lang: str) -> str:
    """The rules page of `game` in `lang` (the Markdown file rendered, with a language switch),
    ending with what the levels mean, from the saved leaderboard."""
    from markdown_it import MarkdownIt

    text = player_rules(game, lang) + "\n" + levels_section(manifest(game).name, lang)
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(text)
    _mark_stacking_tables(tokens)
    html = md.renderer.render(tokens, md.options, {})
    other, other_name = OTHER_LANG[lang]
    head = f'<a href="/rules/{escape(game)}?lang={other}" lang="{other}" hreflang="{other}" id="other-lang">{other_name}</a>'
    title = f"{_page_text('rules', lang)}: {manifest(game).title_in(lang)}"
    return _page_html(lang, title, f'<p><a href="/">{_word("back_to_lobby", lang)}</a></p>\n{html}', head)


async def _receive(websocket: WebSocket) -> str | bytes:
    """The next message, text or bytes (bytes are refused by _text)."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    return text if text is not None else (message.get("bytes") or b"")


def _text(text: Any) -> str:
    """One client message's text, or Refused saying what is wrong."""
    if not isinstance(text, str):
        raise Refused("bad_message", Reason("server.binary"))
    if len(text) > MAX_MESSAGE:
        raise Refused("too_large", Reason("server.message_too_large", length=len(text), most=MAX_MESSAGE))
    return text
