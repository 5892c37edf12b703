"""What a phone downloads: answers gzipped when the browser accepts it, unchanged scripts
answered 304 on a reload (security headers kept), WebSocket messages compressed by
`serve` (docs/performance.md, Web: what a phone downloads)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

import wasserspiele.web
from wasserspiele.core.manifest import GameManifest
from wasserspiele.core.registry import manifest
from wasserspiele.web.app import PAGE_HEADERS

from .browser_support import free_port
from .helpers import create, hello, humans

STATIC = Path(wasserspiele.web.__file__).parent / "static"
GZIP = {"accept-encoding": "gzip, deflate, br"}  # what a browser offers
# each answer a page load reads that does not change while the server runs
UNCHANGING = ["/", "/table/abc", "/static/app.js", "/static/style.css", "/static/games/wasserloch.js",
              "/api/messages/en", "/api/messages/de", "/api/games"]


def source_of(path: str) -> str:
    if path.startswith("/static/games/"):
        return manifest(path.rsplit("/", 1)[1].removesuffix(".js")).web_source()
    return (STATIC / path.removeprefix("/static/")).read_text(encoding="utf-8")


@pytest.mark.parametrize("path", ["/static/app.js", "/static/style.css", "/static/table.js",
                                  "/static/games/watten.js", "/static/games/wildwasser.js"])
def test_scripts_and_style_are_gzipped_when_the_browser_accepts_it(client, path):
    r = client.get(path, headers=GZIP)
    assert r.status_code == 200
    assert r.headers.get("content-encoding") == "gzip"
    assert "accept-encoding" in r.headers.get("vary", "").lower()
    assert r.text == source_of(path)  # decoded by the client: the very file
    assert r.num_bytes_downloaded < 0.6 * len(r.content)


def test_the_catalogue_and_the_page_are_gzipped_too(client):
    for path in ("/api/messages/de", "/api/games", "/"):
        r = client.get(path, headers=GZIP)
        assert r.status_code == 200 and r.headers.get("content-encoding") == "gzip", path
    assert client.get("/api/messages/de", headers=GZIP).json()["lang"] == "de"


def test_nothing_is_compressed_for_a_client_that_does_not_accept_it(client):
    r = client.get("/static/app.js", headers={"accept-encoding": "identity"})
    assert r.status_code == 200 and "content-encoding" not in r.headers
    assert r.text == source_of("/static/app.js")


def test_small_answers_are_sent_as_they_are(client):
    """Below a packet's size compressing saves no round trip: a refusal, the health check."""
    for path in ("/healthz", "/api/tables/nope", "/static/nope.js"):
        r = client.get(path, headers=GZIP)
        assert "content-encoding" not in r.headers, path
        assert len(r.content) < 1_000


def test_a_websocket_is_not_touched_by_the_http_compression(client):
    """The socket's upgrade carries the browser's Accept-Encoding: its messages stay text."""
    table = create(client, seats=humans(3))
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=GZIP) as ws:
        message = hello(ws, table["seats"][0]["token"])  # text, read as JSON
        assert message["type"] == "state" and message["n"] == 0


@pytest.mark.parametrize("path", UNCHANGING)
def test_a_reload_is_answered_304_while_unchanged(client, path):
    first = client.get(path, headers=GZIP)
    assert first.status_code == 200
    assert first.headers.get("cache-control") == "no-cache"  # asked again each load: an upgrade shows
    etag = first.headers["etag"]
    again = client.get(path, headers={**GZIP, "if-none-match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == etag
    assert again.headers.get("cache-control") == "no-cache"
    assert again.headers.get("x-content-type-options") == "nosniff"
    assert "content-encoding" not in again.headers


@pytest.mark.parametrize("path", ["/", "/table/abc", "/replay/abc"])
def test_a_pages_304_keeps_its_security_headers(client, path):
    first = client.get(path)
    for validator in ({"if-none-match": first.headers["etag"]},
                      {"if-modified-since": first.headers["last-modified"]}):
        again = client.get(path, headers=validator)
        assert again.status_code == 304, validator
        for name, value in PAGE_HEADERS.items():
            assert again.headers.get(name) == value, name


def test_an_older_copy_is_sent_again_in_full(client):
    r = client.get("/static/games/watten.js", headers={"if-none-match": 'W/"0123", "4567"'})
    assert r.status_code == 200 and r.text == source_of("/static/games/watten.js")
    r = client.get("/", headers={"if-modified-since": "Thu, 01 Jan 1970 00:00:00 GMT"})
    assert r.status_code == 200
    r = client.get("/", headers={"if-modified-since": "not a date"})
    assert r.status_code == 200


def test_a_game_script_changed_by_an_upgrade_is_sent_again(client, monkeypatch):
    """The ETag follows the script's text: the copy a browser kept is not reused."""
    old = client.get("/static/games/wasserloch.js")
    source = old.text
    monkeypatch.setattr(GameManifest, "web_source",
                        lambda self: source + "\n// upgraded\n" if self.name == "wasserloch" else source)
    new = client.get("/static/games/wasserloch.js", headers={"if-none-match": old.headers["etag"]})
    assert new.status_code == 200 and new.text.endswith("// upgraded\n")
    assert new.headers["etag"] != old.headers["etag"]


def test_each_game_script_has_its_own_etag(client):
    tags = {client.get(f"/static/games/{g}.js").headers["etag"]
            for g in ("wasserloch", "seven_waters", "watten", "wildwasser")}
    assert len(tags) == 4


# -- the WebSocket's compression is negotiated by `serve` (uvicorn), not by the app --------

def serve(tmp_path, *flags: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "wasserspiele.cli.main", "serve", "--port", str(port),
                             "--db", f"sqlite:///{tmp_path / 'serve.sqlite3'}", *flags],
                            stdout=subprocess.DEVNULL, stderr=open(tmp_path / "serve.log", "ab"),
                            env={**os.environ, "WASSERSPIELE_BOT_POOL": "thread"})
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1).read()
            return proc, base
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError((tmp_path / "serve.log").read_text())
            time.sleep(0.1)  # a subprocess without a readiness signal, under a deadline


def extensions(base: str) -> str | None:
    """The extensions `serve` agrees to when a client offers permessage-deflate, as browsers do."""
    import websockets

    async def ask():
        async with websockets.connect(base.replace("http:", "ws:") + "/ws/tables/none", compression="deflate") as ws:
            return ws.response.headers.get("Sec-WebSocket-Extensions")
    return asyncio.run(ask())


@pytest.mark.parametrize("flags, compressed", [((), True), (("--no-ws-compression",), False)])
def test_serve_compresses_websocket_messages_for_a_browser_that_offers_it(tmp_path, flags, compressed):
    proc, base = serve(tmp_path, *flags)
    try:
        agreed = extensions(base)
    finally:
        proc.terminate()
        proc.wait(10)
    assert (agreed is not None and agreed.startswith("permessage-deflate")) is compressed
