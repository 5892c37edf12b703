"""The deployment in deploy/ as far as it can run without a container engine: the compose
file names what exists and starts the server with flags it accepts, and the reverse
proxy's configuration (deploy/nginx.conf, run by a real nginx) spreads tables over two
app processes on one PostgreSQL database, keeps each table's requests and sockets on one
of them, and carries a whole game over HTTP and WebSocket."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from wasserspiele.web.devdb import free_port

from .test_multiprocess import WAIT, connect, http, start_server, stop

yaml = pytest.importorskip("yaml")

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def test_the_compose_file_names_what_exists_and_starts_the_server_with_flags_it_accepts():
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    assert set(compose["services"]) == {"db", "app", "proxy"}
    app = compose["services"]["app"]
    assert (DEPLOY / app["build"]["context"] / app["build"]["dockerfile"]).is_file()
    assert app["depends_on"]["db"]["condition"] == "service_healthy"
    # the proxy waits for an app container whose /healthz answers (run against live servers below)
    assert compose["services"]["proxy"]["depends_on"]["app"]["condition"] == "service_healthy"
    assert "/healthz" in " ".join(app["healthcheck"]["test"])
    assert app["environment"]["DATABASE_URL"].startswith("postgresql+psycopg://")
    mounts = compose["services"]["proxy"]["volumes"]
    assert any(m.startswith("./nginx.conf:") for m in mounts) and (DEPLOY / "nginx.conf").is_file()
    # the image's command line: every flag it passes is one `serve` knows
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    command = next(line for line in dockerfile.splitlines() if line.startswith("CMD"))
    flags = set(re.findall(r"--[a-z][a-z-]+", command))
    helped = subprocess.run([sys.executable, "-m", "wasserspiele.cli.main", "serve", "--help"],
                            capture_output=True, text=True, check=True).stdout
    assert flags and all(flag in helped for flag in flags), (flags, helped)
    assert 'pip install ".[postgres]"' in dockerfile  # the driver the DATABASE_URL names


def nginx_config(folder: Path, port: int, upstreams: list[str]) -> Path:
    """deploy/nginx.conf as the proxy container would load it, pointed at local processes
    instead of the compose network's `app`, inside a minimal main configuration."""
    site = (DEPLOY / "nginx.conf").read_text()
    assert "server app:8000;" in site and "listen 80;" in site
    site = site.replace("server app:8000;", " ".join(f"server {u};" for u in upstreams))
    site = site.replace("listen 80;", f"listen 127.0.0.1:{port};")
    (folder / "site.conf").write_text(site)
    main = folder / "nginx.conf"
    main.write_text(f"""
{"user root;" if os.geteuid() == 0 else ""}
worker_processes 1;
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 256; }}
http {{
    log_format routed '$uri $upstream_addr';
    access_log {folder}/access.log routed;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/site.conf;
}}
""")
    return main


@pytest.fixture
def proxy(pg_url, tmp_path):
    yield from run_proxy(pg_url, tmp_path)


def shipped_trust() -> str:
    """The image's `--forwarded-allow-ips`, for app processes behind this test's proxy: the
    Dockerfile trusts the proxy's network (here the proxy is 127.0.0.1); '*' stays '*'."""
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    command = next(line for line in dockerfile.splitlines() if line.startswith("CMD"))
    m = re.search(r"--forwarded-allow-ips\s+(\S+)", command)
    assert m, command
    return "*" if "*" in m.group(1) else "127.0.0.1"


def run_proxy(pg_url, tmp_path, *extra: str):
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if nginx is None:
        pytest.skip("nginx is not installed (.ci/run installs Debian's)")
    servers = [start_server(pg_url, *extra), start_server(pg_url, *extra)]
    port = free_port()
    conf = nginx_config(tmp_path, port, [base.removeprefix("http://") for _, base in servers])
    check = subprocess.run([nginx, "-t", "-c", str(conf)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    proc = subprocess.Popen([nginx, "-c", str(conf)], stderr=subprocess.PIPE, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + WAIT
    while True:
        try:
            urllib.request.urlopen(base + "/api/games", timeout=2).read()
            break
        except OSError:
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "nginx did not start in time"
            time.sleep(0.1)  # polling a port that is not open yet
    yield base, tmp_path / "access.log", [b.removeprefix("http://") for _, b in servers]
    stop(proc)
    for p, _ in servers:
        stop(p)


async def play_through(base: str, seed: int) -> tuple[str, dict, int]:
    """One one-round Wasserloch game, three human seats, each seat's tab connected through
    the proxy; random legal moves until the end.  Returns the table, its record and the
    number of acknowledged moves."""
    rng = random.Random(seed)
    table = await asyncio.to_thread(http, base, "/api/tables", {"game": "wasserloch", "options": {"rounds": 1},
                                                                "seats": [{"kind": "human"}] * 3})
    tid = table["id"]
    tabs = {s["seat"]: await connect(base, tid, s["token"], s["seat"]) for s in table["seats"]}
    acked = 0
    while True:
        newest = max((c.state for c in tabs.values() if c.state), key=lambda m: m["n"], default=None)
        if newest is None:
            await tabs[0].until(lambda m: True)
            continue
        if newest["terminal"]:
            break
        tab = tabs[newest["to_move"][0]]
        state = await tab.until(lambda m, n=newest["n"]: m["n"] >= n)
        await tab.ws.send(json.dumps({"type": "move", "action": rng.choice(state["legal"]), "n": state["n"]}))
        answer = await asyncio.wait_for(tab.answers.get(), WAIT)
        assert answer["type"] == "accepted", answer
        acked += 1
    record = await asyncio.to_thread(http, base, f"/api/tables/{tid}/record")
    for tab in tabs.values():
        await tab.until(lambda m: m["terminal"] and m["n"] == len(record["actions"]))
        await tab.ws.close()
        await tab.reader
    return tid, record, acked


def test_the_proxy_spreads_tables_over_two_processes_and_carries_a_whole_game(proxy):
    base, log, upstreams = proxy
    # the app container's health check, as compose runs it, against each app process
    kind, *command = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]["app"]["healthcheck"]["test"]
    assert kind == "CMD" and command[0] == "python" and "127.0.0.1:8000" in command[-1]
    for upstream in upstreams:
        subprocess.run([sys.executable, *command[1:-1], command[-1].replace("127.0.0.1:8000", upstream)],
                       check=True, timeout=WAIT)
    tid, record, acked = asyncio.run(play_through(base, seed=3))
    assert acked == len(record["actions"]) > 0
    # more tables: consistent hashing by table id spreads them over both processes
    others = [http(base, "/api/tables", {"game": "watten", "seats": [{"kind": "human"}] * 4})["id"]
              for _ in range(15)]
    for other in others:
        http(base, f"/api/tables/{other}")
    routes: dict[str, set[str]] = {}
    for line in log.read_text().splitlines():
        uri, upstream = line.split(" ", 1)
        m = re.match(r"^/(?:api/tables|ws/tables)/([^/]+)", uri)
        if m:
            routes.setdefault(m.group(1), set()).add(upstream)
    assert routes[tid] and all(len(r) == 1 for r in routes.values()), routes  # a table stays on one process
    used = set().union(*routes.values())
    assert used == set(upstreams), (used, upstreams)


def test_a_forged_x_forwarded_for_does_not_escape_the_per_client_limits(pg_url, tmp_path, monkeypatch):
    """Through the shipped nginx.conf to app processes that trust forwarded headers as the
    image does: a client naming another address in X-Forwarded-For is still itself."""
    monkeypatch.setenv("WASSERSPIELE_TABLES_PER_CLIENT", "2")  # reached by the third table at most
    proxied = run_proxy(pg_url, tmp_path, "--forwarded-allow-ips", shipped_trust())
    base, _, _ = next(proxied)
    try:
        body = json.dumps({"game": "watten", "seats": [{"kind": "human"}] * 4}).encode()

        def create(forged: str | None) -> int:
            headers = {"content-type": "application/json"}
            if forged:
                headers["x-forwarded-for"] = forged
            request = urllib.request.Request(base + "/api/tables", body, method="POST", headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=WAIT) as r:
                    return r.status
            except urllib.error.HTTPError as e:
                return e.code

        plain = [create(None) for _ in range(3)]  # the database may hold this client's tables already
        assert plain[-1] == 429, plain
        forged = [create(f"203.0.113.{i}") for i in range(1, 4)] + [create("203.0.113.9, 198.51.100.7")]
        assert forged == [429] * 4, forged
    finally:
        next(proxied, None)
