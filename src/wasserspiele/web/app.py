"""The ASGI app: pages, the JSON API and the WebSocket of each table.

HTTP (JSON; refusals are `{"error": code, "reason": words, "reason_code", "params",
"message": the reason in the client's language (`?lang=` or Accept-Language)}` with a
4xx/5xx status; `reason_code`/`params` name a rule's refusal, core/messages.py):

    GET  /api/games                      games, their declared options (help in every language), bot levels
    GET  /api/messages/LANG              the message catalogue of LANG (en, de) for rendering codes
    GET  /api/games                      games (from their manifests: titles, options, the URL
                                         of the client module), bot levels
    GET  /static/games/NAME.js           a game's client module (its manifest's `plugins.web`)
    GET  /api/tables?status=running|over|all
    POST /api/tables                     {"game", "options", "seats": [{"kind": "human"} |
                                          {"kind": "bot", "level": "easy"}]} -> seat tokens, links
    GET  /api/tables/ID                  the table as a spectator, or as the seat of
                                         `Authorization: Bearer TOKEN`
    POST /api/tables/ID/moves            {"action": notation, "n": move number seen} with the token
    GET  /api/tables/ID/record           the full record, once the game is over
    GET  /api/tables/ID/replay/STEP      the spectator view after STEP actions, once over
    GET  /api/tables/ID/hint             the expert bot's suggestion for the seat of the token
    POST /api/tables/ID/rematch          a new table with the same game, options and seats, once
                                         over; every seat's own token works there too
    GET  /rules/GAME?lang=en|de          the player-facing rules of GAME as a page

WebSocket /ws/tables/ID: first `{"type": "hello", "token": TOKEN or null, "lang": "de"}`; then
`{"type": "move", "action", "n"}`, `{"type": "name", "name"}` (the seat's player name),
`{"type": "sync"}`, `{"type": "ping"}`.  The server
sends `{"type": "state", ...}` (that seat's view, its legal moves, the table) after
every change, then `{"type": "accepted", "n"}` to the mover, and
`{"type": "refused", "code", "reason", "reason_code", "params", "message"}` for a refused message.
A seat opened again (another tab) takes over: the older connection gets
`{"type": "replaced"}` and is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from html import escape
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..bots.base import decision_for
from ..bots.levels import bot_for_level, level_names
from ..core.errors import BadRecord, ReplayError, UnknownGame, WasserspieleError
from ..core.messages import LANGS, catalogue, normalise_lang
from ..core.records import replay
from ..core.rules_text import LANGUAGES, player_rules
from ..core.manifest import GameManifest, PluginMissing
from ..core.registry import manifest, manifests
from .hub import HUMAN, Connection, Hub, Refused
from .storage import Storage

log = logging.getLogger("wasserspiele.web")

STATIC = Path(__file__).parent / "static"
MAX_BODY = 16_384          # bytes of a JSON request body
MAX_MESSAGE = 4_096        # characters of one WebSocket message
HELLO_TIMEOUT = 10.0       # seconds a new WebSocket has to say who it is
RATE = 200.0               # messages per second a connection may send on average (a program
BURST = 400.0              # playing fast stays below), and at once
PAGE_HEADERS = {
    "cache-control": "no-cache",
    # scripts and connections only from this server; the seat token stays in the fragment
    "content-security-policy": "default-src 'self'; script-src 'self'; connect-src 'self'; "
                               "img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                               "frame-ancestors 'none'; base-uri 'none'",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
}


def _refusal(exc: Refused, request: Request | None = None) -> JSONResponse:
    """The refusal as JSON; with the request, its `message` is in the client's language."""
    body = exc.to_json(request_lang(request) if request is not None else "en")
    body.pop("type")
    body["error"] = body.pop("code")
    return JSONResponse(body, status_code=exc.status)


def request_lang(conn) -> str:
    """The client's language: `?lang=de`, else its Accept-Language header; English by default."""
    return normalise_lang(conn.query_params.get("lang") or conn.headers.get("accept-language"))


async def _json_body(request: Request) -> Any:
    """The request's JSON, read only up to MAX_BODY bytes (a larger body is refused unread)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise Refused("too_large", f"the request body is too large ({declared} bytes, at most {MAX_BODY})", 413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise Refused("too_large", f"the request body is too large (over {MAX_BODY} bytes)", 413)
        chunks.append(chunk)
    body = b"".join(chunks)
    try:
        return json.loads(body or b"null")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise Refused("bad_json", f"the request body is not valid JSON ({exc})") from None


def _bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return None


def option_json(o, game: str | None = None) -> dict[str, Any]:
    """An option for the lobby; `help_text` has its help in every language (catalogue
    entry `option.GAME.NAME`)."""
    out = {"name": o.name, "default": o.default, "kind": o.kind, "help": o.help,
           "choices": list(o.choices), "minimum": o.minimum, "maximum": o.maximum,
           "nullable": o.nullable}
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


def create_app(db_url: str | None = None, *, bot_delay: float = 0.7, bot_threads: bool = True,
               resume: bool = True) -> Starlette:
    """The web app over the database at `db_url` (default: SQLite in the user's data dir)."""
    from .storage import default_db_url

    @contextlib.asynccontextmanager
    async def lifespan(app):
        storage = Storage(db_url or default_db_url())
        hub = Hub(storage, bot_delay=bot_delay, bot_threads=bot_threads)
        app.state.hub = hub
        if resume:
            hub.resume_all()
        try:
            yield
        finally:
            await hub.shutdown()
            storage.close()

    def hub_of(request) -> Hub:
        return request.app.state.hub

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=PAGE_HEADERS)

    async def rules_page(request: Request) -> Response:
        name = request.path_params["game"]
        lang = request.query_params.get("lang") or _accepted_language(request)
        try:
            html = render_rules(name, lang)
        except WasserspieleError as exc:      # an unknown game or language: say which exist
            return HTMLResponse(_page_html("en", "Wasserspiele", f"<h1>Not found</h1><p>{escape(str(exc))}</p>"),
                                404, headers=PAGE_HEADERS)
        return HTMLResponse(html, headers=PAGE_HEADERS)

    async def api_hint(request: Request) -> Response:
        hub = hub_of(request)
        try:
            table = hub.get(request.path_params["table_id"])
            token = _bearer(request)
            if token is None:
                raise Refused("bad_token", "a hint needs a seat token (Authorization: Bearer TOKEN)", 401)
            seat = table.seat_for_token(token)
            st = table.state
            if st.is_terminal() or seat not in st.to_move():
                raise Refused("not_your_turn", "a hint is given when it is your turn", 409)
            n = table.n
            decision = decision_for(st, seat)        # a snapshot of this seat's view and moves
        except Refused as exc:
            return _refusal(exc)
        # the expert searches for a while: off the event loop, on the snapshot
        bot = bot_for_level("expert", table.game, seed=n)
        action = await asyncio.to_thread(bot.choose, decision)
        return JSONResponse({"action": str(action), "n": n})

    async def api_rematch(request: Request) -> Response:
        hub = hub_of(request)
        try:
            table = hub.get(request.path_params["table_id"])
            token = _bearer(request)
            if token is None:
                raise Refused("bad_token", "a rematch needs a seat token (Authorization: Bearer TOKEN)", 401)
            seat = table.seat_for_token(token)
            if not table.state.is_terminal():
                raise Refused("running", "a rematch can start once the game is over", 409)
            if table.rematch is None:
                options = table.game.non_default_options()
                if any(o.name == "players" for o in table.game.option_list):
                    options["players"] = table.game.players
                body = {"game": table.game.name, "options": options,
                        "seats": [{"kind": s.kind, "level": s.level} if s.kind != HUMAN else {"kind": HUMAN}
                                  for s in table.seats]}
                new, tokens = hub.create(body)
                for old_seat in table.seats:           # the same people: their names come along
                    if old_seat.name:
                        new.set_name(old_seat.seat, old_seat.name)
                table.rematch = (new.id, tokens)
                table.broadcast()                     # the other seats see that it exists
        except Refused as exc:
            return _refusal(exc)
        new_id, tokens = table.rematch
        link = f"/table/{new_id}#seat={seat}&token={tokens[seat]}" if seat in tokens else f"/table/{new_id}"
        return JSONResponse({"id": new_id, "link": link})

    async def api_games(request: Request) -> Response:
        return JSONResponse({"games": games_json(), "levels": level_names()})

    async def api_messages(request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang not in LANGS:
            return _refusal(Refused("bad_request", f"lang: one of {', '.join(LANGS)}", 404))
        return JSONResponse(catalogue(lang).to_json())

    async def game_client(request: Request) -> Response:
        name = request.path_params["name"]
        try:
            source = manifest(name).web_source()
        except (UnknownGame, PluginMissing):
            return _refusal(Refused("not_found", f"no client module for game {name!r}", 404))
        return Response(source, media_type="text/javascript", headers={"cache-control": "no-cache"})

    async def api_tables(request: Request) -> Response:
        hub = hub_of(request)
        if request.method == "GET":
            status = request.query_params.get("status", "running")
            if status not in ("running", "over", "all"):
                return _refusal(Refused("bad_request", "status: one of running, over, all"))
            return JSONResponse({"tables": hub.storage.list_tables(None if status == "all" else status)})
        try:
            body = await _json_body(request)
            table, tokens = hub.create(body)
        except Refused as exc:
            return _refusal(exc)
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
        hub = hub_of(request)
        try:
            table = hub.get(request.path_params["table_id"])
            seat = table.seat_for_token(_bearer(request))
        except Refused as exc:
            return _refusal(exc)
        return JSONResponse(table.message_for(seat))

    async def api_move(request: Request) -> Response:
        hub = hub_of(request)
        try:
            table = hub.get(request.path_params["table_id"])
            token = _bearer(request)
            if token is None:
                raise Refused("bad_token", "moving needs a seat token (Authorization: Bearer TOKEN)", 401)
            seat = table.seat_for_token(token)
            body = await _json_body(request)
            if not isinstance(body, dict):
                raise Refused("bad_message", "the body must be a JSON object {\"action\": ..., \"n\": ...}")
            result = await table.submit(seat, body.get("action"), body.get("n"))
        except Refused as exc:
            return _refusal(exc, request)
        return JSONResponse(result)

    async def api_record(request: Request) -> Response:
        hub = hub_of(request)
        try:
            table = hub.get(request.path_params["table_id"])
            if not table.state.is_terminal():
                raise Refused("running", "the record is available once the game is over", 409)
        except Refused as exc:
            return _refusal(exc)
        return JSONResponse(table.state.record())

    async def api_replay(request: Request) -> Response:
        hub = hub_of(request)
        try:
            table = hub.get(request.path_params["table_id"])
            if not table.state.is_terminal():
                raise Refused("running", "a replay is available once the game is over", 409)
            try:
                step = int(request.path_params["step"])
            except ValueError:
                raise Refused("bad_request", "step: must be an integer") from None
            record = table.state.record()
            total = len(record["actions"])
            if not 0 <= step <= total:
                raise Refused("bad_request", f"step: must be between 0 and {total}", 404)
            try:
                st = replay(record, stop_at=step)
            except (BadRecord, ReplayError) as exc:  # pragma: no cover - records of finished games replay
                raise Refused("broken_table", str(exc), 500) from None
        except Refused as exc:
            return _refusal(exc)
        return JSONResponse({"table": table.id, "game": table.game.name, "step": step, "total": total,
                             "players": table.game.players, "teams": [list(t) for t in table.game.teams],
                             "action": record["actions"][step - 1] if step else None,
                             "view": st.view(None), "terminal": st.is_terminal(),
                             "scores": st.scores(), "winners": st.winners() if st.is_terminal() else []})

    async def ws_table(websocket: WebSocket) -> None:
        hub: Hub = websocket.app.state.hub
        await websocket.accept()
        try:
            table = hub.get(websocket.path_params["table_id"])
            try:
                first = await asyncio.wait_for(_receive(websocket), HELLO_TIMEOUT)
            except asyncio.TimeoutError:
                raise Refused("bad_message", "say hello first: {\"type\": \"hello\", \"token\": ...}") from None
            hello = _parse_message(first)
            if hello.get("type") != "hello":
                raise Refused("bad_message", "the first message must be {\"type\": \"hello\", \"token\": TOKEN or null}")
            seat = table.seat_for_token(hello.get("token"))
            asked = hello.get("lang")
            lang = normalise_lang(asked) if isinstance(asked, str) and asked else request_lang(websocket)
        except Refused as exc:
            await websocket.send_text(json.dumps(exc.to_json(request_lang(websocket))))
            await websocket.close(code=4000 + exc.status if 400 <= exc.status < 1000 else 4000)
            return
        except WebSocketDisconnect:
            return
        conn = Connection(websocket.send_text, seat, lambda: websocket.close(code=1012))
        table.attach(conn)
        allowance, last = BURST, asyncio.get_running_loop().time()
        try:
            while True:
                text = await _receive(websocket)
                now = asyncio.get_running_loop().time()
                allowance = min(BURST, allowance + (now - last) * RATE)
                last = now
                try:
                    if allowance < 1.0:
                        raise Refused("too_many", f"too many messages (at most {RATE:g} a second); "
                                                  "this one was ignored")
                    allowance -= 1.0
                    msg = _parse_message(text)
                    kind = msg.get("type")
                    if kind == "move":
                        result = await table.submit(seat, msg.get("action"), msg.get("n"))
                        conn.push(json.dumps(result))  # after the new state: "your move is in"
                    elif kind == "name":
                        table.set_name(seat, msg.get("name"))
                    elif kind == "ping":
                        conn.push(json.dumps({"type": "pong"}))
                    elif kind == "sync":
                        conn.push(json.dumps(table.message_for(seat), separators=(",", ":")))
                    else:
                        raise Refused("bad_message", f"unknown message type {kind!r} (types: move, name, sync, ping)")
                except Refused as exc:
                    conn.push(json.dumps(exc.to_json(lang)))
                if conn.closed:
                    break
        except WebSocketDisconnect:
            pass
        finally:
            table.detach(conn)
            await conn.drain()

    routes = [
        Route("/", page),
        Route("/table/{table_id}", page),
        Route("/replay/{table_id}", page),
        Route("/api/games", api_games),
        Route("/api/messages/{lang}", api_messages),
        Route("/api/tables", api_tables, methods=["GET", "POST"]),
        Route("/api/tables/{table_id}", api_table),
        Route("/api/tables/{table_id}/moves", api_move, methods=["POST"]),
        Route("/api/tables/{table_id}/record", api_record),
        Route("/api/tables/{table_id}/replay/{step}", api_replay),
        Route("/api/tables/{table_id}/hint", api_hint),
        Route("/api/tables/{table_id}/rematch", api_rematch, methods=["POST"]),
        Route("/rules/{game}", rules_page),
        WebSocketRoute("/ws/tables/{table_id}", ws_table),
        Route("/static/games/{name}.js", game_client),  # before the mount, which would not find it
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


def _accepted_language(request: Request) -> str:
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip()[:2].lower()
        if code in LANGUAGES:
            return code
    return "en"


RULES_TITLE = {"en": "Rules", "de": "Regeln"}
BACK = {"en": "Back to the lobby", "de": "Zurück zur Lobby"}
OTHER_LANG = {"en": ("de", "Deutsch"), "de": ("en", "English")}


def _page_html(lang: str, title: str, main: str, header_extra: str = "") -> str:
    """A server-rendered page in the client's frame (same header and style sheet, no script)."""
    return (f'<!doctype html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>{escape(title)}</title>\n'
            f'<link rel="stylesheet" href="/static/style.css">\n<link rel="icon" href="data:,">\n</head>\n<body>\n'
            f'<header><a href="/" id="home">Wasserspiele</a><span class="spacer"></span>{header_extra}</header>\n'
            f'<main class="rules">\n{main}\n</main>\n</body>\n</html>\n')


def render_rules(game: str, lang: str) -> str:
    """The rules page of `game` in `lang` (the Markdown file rendered, with a language switch)."""
    from markdown_it import MarkdownIt

    text = player_rules(game, lang)
    html = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
    other, other_name = OTHER_LANG[lang]
    head = f'<a href="/rules/{escape(game)}?lang={other}" lang="{other}" hreflang="{other}" id="other-lang">{other_name}</a>'
    title = f"{RULES_TITLE[lang]}: {manifest(game).title_in(lang)}"
    return _page_html(lang, title, f'<p><a href="/">{BACK[lang]}</a></p>\n{html}', head)


async def _receive(websocket: WebSocket) -> str | bytes:
    """The next message, text or bytes (bytes are refused by _parse_message)."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    return text if text is not None else (message.get("bytes") or b"")


def _parse_message(text: Any) -> dict[str, Any]:
    """One client message: a small JSON object, or Refused saying what is wrong."""
    if not isinstance(text, str):
        raise Refused("bad_message", "messages must be JSON text, not binary")
    if len(text) > MAX_MESSAGE:
        raise Refused("too_large", f"the message is too large ({len(text)} characters, at most {MAX_MESSAGE})")
    try:
        msg = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Refused("bad_json", f"the message is not valid JSON ({exc.msg})") from None
    if not isinstance(msg, dict):
        raise Refused("bad_message", "a message must be a JSON object with a \"type\"")
    return msg
