"""The HTTP API as an attacker or a buggy client uses it: arbitrary path segments, headers
and bodies on every endpoint.  Whatever is sent, the answer is never a 500: a refusal is a
4xx JSON `{error, reason, reason_code, params, message}` that says what was wrong (in the
client's language where the server words it), and the lobby and the tables stay as they
were (docs/web-server.md, "Every input checked, every error JSON")."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from wasserspiele.core.messages import catalogue
from wasserspiele.core.records import replay
from wasserspiele.web.limits import Limits

from .helpers import auth, create, humans, play_first_legal, table_state

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
ROOMY = Limits(tables_per_client=10**6, tables_per_server=10**6, bot_seats_per_client=10**6,
               bot_seats_per_server=10**6, hint_burst=10**6)

# text with the awkward parts over-represented: control characters, unpaired surrogates,
# digits of other scripts, signs, percent signs, slashes and dots
AWKWARD = st.one_of(st.characters(codec=None), st.sampled_from(list("\x00\x1f\x7f\u202e\u200b²٣-+%/.?#\\ \t\n")),
                    st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF))
TEXT = st.text(AWKWARD, max_size=12)
JSON_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(), TEXT)
JSON_VALUES = st.recursive(JSON_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)), max_leaves=10)


def refusal(r, lang: str = "en") -> dict:
    """A JSON refusal with a 4xx status that says what is wrong, in `lang` where the server
    words it (a `text` reason is a lower layer's English words, passed on)."""
    assert 400 <= r.status_code < 500, (r.status_code, r.text)
    body = r.json()
    assert set(body) == {"error", "reason", "reason_code", "params", "message"}, body
    assert body["error"] and body["reason"] and body["message"], body
    code = body["reason_code"]
    if code != "text":
        assert catalogue(lang).has(code), code
        if lang != "en" and catalogue(lang).text(code) != catalogue("en").text(code):
            assert body["message"] != body["reason"], body  # said in the asked language, not English
    return body


@pytest.fixture
def tables(make_client):
    """A client, a running and a finished table (the finished one's record kept to compare)."""
    client = make_client(limits=ROOMY)
    running = create(client, "wildwasser", {"players": 3}, humans(3))
    over = create(client, "wasserloch", {"players": 2, "rounds": 1}, humans(2))
    play_first_legal(client, over, 1000)
    record = client.get(f"/api/tables/{over['id']}/record").json()
    return client, running, over, record


def unchanged(client, running, over, record) -> None:
    """The lobby lists both tables, the running one is where it was with every seat, and
    the finished one still replays its record exactly."""
    r = client.get("/api/tables?status=all")
    assert r.status_code == 200, r.text
    listed = {t["id"]: t for t in r.json()["tables"]}   # the newest 50: the fuzz may have made more
    if running["id"] in listed:
        assert listed[running["id"]]["moves"] == 0 and len(listed[running["id"]]["seats"]) == 3
    assert table_state(client, running["id"])["n"] == 0
    for s in running["seats"]:
        assert table_state(client, running["id"], s["token"])["seat"] == s["seat"]
    assert client.get(f"/api/tables/{over['id']}/record").json() == record
    last = client.get(f"/api/tables/{over['id']}/replay/{len(record['actions'])}").json()
    assert last["view"] == json.loads(json.dumps(replay(record).view(None)))


@FUZZ
@given(segment=TEXT, lang=st.sampled_from(["en", "de"]))
@example(segment="²", lang="en")          # str.isdigit() took it, int() did not: a 500
@example(segment="٣", lang="de")          # int() read it as 3: a step the URL does not show
@example(segment="\x00", lang="en")
def test_fuzz_any_path_segment_on_every_get_endpoint_is_answered_4xx_json_or_served(tables, segment, lang):
    client, running, over, record = tables
    part = quote(segment, safe="", errors="surrogatepass")   # a surrogate as the bytes a client could send
    if not part or part in (".", ".."):   # the URL would name another route
        return
    paths = [f"/api/tables/{part}", f"/api/tables/{part}/record", f"/api/tables/{part}/replay/0",
             f"/api/tables/{part}/hint", f"/api/tables/{over['id']}/replay/{part}",
             f"/api/tables/{running['id']}/replay/{part}", f"/api/messages/{part}",
             f"/static/games/{part}.js", f"/api/tables?status={part}", f"/api/{part}"]
    for path in paths:
        r = client.get(path + ("&" if "?" in path else "?") + f"lang={lang}")
        if r.status_code == 200:   # a step that is a whole number in range, a language, a game
            assert path.endswith(".js") or r.json()
        else:
            refusal(r, lang)
    for path in (f"/rules/{part}", f"/rules/wasserloch?lang={part}"):   # pages: HTML, found or not
        r = client.get(path)
        if r.headers["content-type"].startswith("application/json"):   # a "/" in it: no such route
            refusal(r)
        else:
            assert r.status_code in (200, 404) and r.headers["content-type"].startswith("text/html"), r.text
    if segment.isascii() and segment.isdigit() and int(segment) > len(record["actions"]):
        refusal(client.get(f"/api/tables/{over['id']}/replay/{part}"))
    for step in ("²", "٣", "-٣", "1²"):   # digits of other scripts are not a step
        body = refusal(client.get(f"/api/tables/{over['id']}/replay/{quote(step)}"))
        assert body["reason_code"] == "server.step_not_whole"
    unchanged(client, running, over, record)


def _create_bodies():
    valid = {"game": "wasserloch", "options": {"rounds": 1, "players": 2}, "seats": [{"kind": "human"}] * 2}
    keys = st.sampled_from(sorted(valid))
    return st.one_of(
        st.builds(lambda k, v: {**valid, k: v}, keys, JSON_VALUES),
        st.builds(lambda k, v: {**valid, "options": {**valid["options"], k: v}},
                  st.sampled_from(["rounds", "players", "first_player", "chase"]) | TEXT, JSON_VALUES),
        st.builds(lambda v: {**valid, "seats": v}, st.lists(st.dictionaries(
            st.sampled_from(["kind", "level"]) | TEXT, JSON_VALUES, max_size=3), max_size=5)),
        JSON_VALUES)


@FUZZ
@given(body=_create_bodies(), lang=st.sampled_from(["en", "de"]))
@example(body={"game": "wasserloch", "options": {"\ud800": 1}}, lang="en")        # echoed in the refusal: a 500
@example(body={"game": "wasserloch", "options": {"rounds": "\udfff"}}, lang="de")  # the value shown: a 500
@example(body={"game": "wasserloch", "seats": [{"kind": "bot", "level": "a\udc80"}] * 3}, lang="en")
@example(body={"game": "watten", "options": {"signals": ["\ud83d"]}}, lang="en")
def test_fuzz_create_bodies_are_created_or_refused_in_json_saying_why(tables, body, lang):
    client, running, over, record = tables
    r = client.post("/api/tables", content=json.dumps(body), headers={"accept-language": lang})
    if r.status_code == 201:
        made = r.json()
        assert table_state(client, made["id"])["n"] == 0
    else:
        refusal(r, lang)
    unchanged(client, running, over, record)


@pytest.mark.parametrize("text", ["\ud800", "x\udc00y", "\udbff"])
def test_an_unpaired_surrogate_in_a_body_is_bad_json_naming_the_escape(tables, text):
    """`json.loads` takes `"\\ud800"`, but it is half a character: quoted back in a refusal
    (an unknown option, a refused value) it could not be encoded and the answer was a 500."""
    client, running, over, record = tables
    escape = next(f"\\u{ord(c):04x}" for c in text if 0xD800 <= ord(c) <= 0xDFFF)
    for body in ({"game": "wasserloch", "options": {text: 1}}, {"game": "wasserloch", "options": {"rounds": text}},
                 {"game": text}):
        r = client.post("/api/tables", content=json.dumps(body))
        assert refusal(r)["error"] == "bad_json"
        assert f"the escape {escape}, half of a surrogate pair" in r.json()["reason"]
    seat = running["seats"][0]
    r = client.post(f"/api/tables/{running['id']}/moves", headers=auth(seat["token"]),
                    content=json.dumps({"action": text, "n": 0}))
    assert refusal(r)["error"] == "bad_json"
    assert client.post("/api/tables", content=json.dumps({"game": "wasserloch", "options": {"é😀": 1}})) \
        .json()["error"] == "bad_option"   # a character outside ASCII, or a pair, is text like any other
    unchanged(client, running, over, record)


AUTH = st.one_of(st.none(), st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF), max_size=20),
                 st.builds(lambda t: f"Bearer {t}", st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E),
                                                           max_size=250)))


@FUZZ
@given(header=AUTH, which=st.sampled_from(["running", "over"]), body=JSON_VALUES,
       lang=st.sampled_from(["en", "de", "de-AT;q=0.5", "xx", ""]))
@example(header="Bearer", which="running", body=None, lang="de")
@example(header="Bearer " + "x" * 201, which="over", body={}, lang="de")
def test_fuzz_wrong_tokens_and_bodies_on_the_seat_endpoints(tables, header, which, body, lang):
    """A token of no seat, of another table, of the wrong shape; any body: refused in JSON
    and nothing moves; a rematch of the finished table is made only with a seat's token."""
    client, running, over, record = tables
    table = running if which == "running" else over
    headers = {"accept-language": lang}
    if header is not None:
        headers["authorization"] = header.encode("latin-1")   # as a server decodes header bytes
    asked = "de" if lang.startswith("de") else "en"
    for method, path, content in (("GET", "", None), ("POST", "/moves", json.dumps(body)),
                                  ("GET", "/hint", None), ("POST", "/rematch", json.dumps(body))):
        r = client.request(method, f"/api/tables/{table['id']}{path}", headers=headers, content=content)
        if r.status_code == 200:
            assert method == "GET" and path == "" and r.json()["seat"] is None  # a spectator's view
        else:
            refusal(r, asked)
    for seat in running["seats"]:   # another table's token is no token here
        refusal(client.get(f"/api/tables/{over['id']}", headers={**auth(seat["token"]), "accept-language": lang}),
                asked)
    unchanged(client, running, over, record)


def test_a_rematch_body_refusal_says_it_takes_no_fields(tables):
    """It said 'unknown field 'a' (fields: )' and 'must be a JSON object with the fields '."""
    client, running, over, record = tables
    tok = over["seats"][0]["token"]
    r = client.post(f"/api/tables/{over['id']}/rematch", headers=auth(tok), json={"a": 1})
    assert refusal(r)["reason"] == "a: unknown field 'a' (it takes no fields: send {} or no body)"
    r = client.post(f"/api/tables/{over['id']}/rematch", headers=auth(tok), json=[])
    assert refusal(r)["reason"] == "the body must be a JSON object (it takes no fields: send {} or no body)"
    r = client.post(f"/api/tables/{running['id']}/moves", headers=auth(running["seats"][0]["token"]), json=[1])
    assert refusal(r)["reason"] == "the body must be a JSON object (fields: action, n)"


def test_a_table_id_outside_the_id_alphabet_never_reaches_the_database(tables, monkeypatch):
    """PostgreSQL refuses a NUL in a string: `/api/tables/%00` was a 503 'database down'
    there (and a storage error in the log); an id `new_table_id` cannot make is no table."""
    client, running, over, record = tables
    storage = client.app.state.hub.storage
    asked = []
    real = storage.load_table
    monkeypatch.setattr(storage, "load_table", lambda table_id: asked.append(table_id) or real(table_id))
    for bad in ("%00", "a%00b", "%C3%A9", "a.b", "x" * 33, "%20"):
        assert refusal(client.get(f"/api/tables/{bad}"))["error"] == "no_table"
        with client.websocket_connect(f"/ws/tables/{bad}") as ws:
            assert ws.receive_json()["code"] == "no_table"
    assert asked == []
    refusal(client.get("/api/tables/" + "x" * 32))   # the alphabet itself is still looked up
    assert asked == ["x" * 32]


def test_a_nul_table_id_on_postgresql_is_no_table_not_a_storage_outage(make_client, pg_url):
    client = make_client(pg_url)
    r = client.get("/api/tables/%00")
    assert refusal(r)["error"] == "no_table"
    with client.websocket_connect("/ws/tables/a%00") as ws:
        assert ws.receive_json()["code"] == "no_table"
    assert client.get("/api/tables").status_code == 200


def test_the_workers_read_the_limits_once_and_are_built_with_them(monkeypatch):
    """`env_settings` checked the limits and `create_app` read the environment again; the
    app is now built with the very Limits that were checked."""
    import wasserspiele.web.app as app_module

    made = []
    real = Limits.from_env.__func__

    def counting(cls, *args, **kwargs):
        made.append(real(cls, *args, **kwargs))
        return made[-1]
    monkeypatch.setattr(Limits, "from_env", classmethod(counting))
    monkeypatch.setenv("WASSERSPIELE_TABLES_PER_CLIENT", "7")
    monkeypatch.setenv("WASSERSPIELE_BOT_POOL", "thread")
    built = {}
    monkeypatch.setattr(app_module, "create_app", lambda **kw: built.update(kw))
    app_module.app_from_env()
    assert len(made) == 1 and built["limits"] is made[0] and built["limits"].tables_per_client == 7


@pytest.mark.parametrize("delay", ["nan", "inf", "-1", "-inf"])
def test_a_bot_delay_that_is_no_finite_wait_is_refused_naming_the_variable(delay):
    """NaN was taken (`max(0, nan)` is no wait at all) and `inf` stopped every bot."""
    from wasserspiele.web.app import env_settings
    with pytest.raises(ValueError, match=rf"^WASSERSPIELE_BOT_DELAY='{delay}': must be a finite number"):
        env_settings({"WASSERSPIELE_BOT_DELAY": delay})


ORIGINS = st.one_of(st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=30),
                    st.builds(lambda scheme, rest: f"{scheme}://{rest}", st.sampled_from(["http", "https", "ws", "x"]),
                              st.text(st.sampled_from(list("[]:@/?#%.testrv0189")), max_size=16)))


@FUZZ
@given(origin=ORIGINS)
@example(origin="http://[::1")   # urlsplit raised ValueError: a 500, and an `internal` socket refusal
@example(origin="http://[")
@example(origin="http://testserver")
def test_fuzz_any_origin_header_is_this_server_or_refused_403(tables, origin):
    client, running, over, record = tables
    r = client.post("/api/tables", json={"game": "wasserloch", "options": {"players": 2}},
                    headers={"origin": origin, "accept-language": "de"})
    if r.status_code != 201:
        body = refusal(r, "de")
        assert r.status_code == 403 and body["reason_code"] == "server.origin"
    with client.websocket_connect(f"/ws/tables/{running['id']}", headers={"origin": origin}) as ws:
        ws.send_text(json.dumps({"type": "hello", "token": None}))
        msg = ws.receive_json()
        assert msg["type"] == ("state" if r.status_code == 201 else "refused"), msg
        if msg["type"] == "refused":
            assert msg["reason_code"] == "server.origin"


@pytest.mark.parametrize("hours", [float("inf"), 1e8, 1e12])
def test_an_open_window_reaching_before_the_calendar_counts_every_table_instead_of_a_500(make_client, hours):
    """`WASSERSPIELE_OPEN_HOURS=inf` (or 1e8) was taken, and then every table's creation
    failed: `now - timedelta(hours=...)` overflowed, a 500."""
    client = make_client(limits=Limits(open_hours=hours, tables_per_client=1))
    assert Limits.from_env({"WASSERSPIELE_OPEN_HOURS": str(hours)}).open_hours == hours
    create(client, "wasserloch", {"players": 2}, humans(2))
    body = refusal(client.post("/api/tables", json={"game": "wasserloch"}))
    # (no wait to offer: the tables count for ever, or for more than a year)
    assert body["error"] == "too_many" and body["reason_code"] == "server.client_tables_kept"


@pytest.mark.parametrize("lang, wait", [("en", "without a move for 24 hours"), ("de", "ohne Zug seit 24 Stunden")])
def test_a_client_with_too_many_tables_is_told_what_frees_room(make_client, lang, wait):
    """There is no leaving a table, so "finish or leave some first" gave advice nobody could
    follow: finishing one, or a table left without a move for `open_hours`, frees room."""
    client = make_client(limits=Limits(tables_per_client=1))
    create(client, "wasserloch", {"players": 2}, humans(2))
    body = refusal(client.post("/api/tables", json={"game": "wasserloch"}, headers={"accept-language": lang}), lang)
    assert body["error"] == "too_many" and body["reason_code"] == "server.client_tables"
    said = body["message"]  # (`reason` is English, `message` the asked language)
    assert wait in said and "leave" not in said and "verlasse" not in said


@settings(max_examples=200, deadline=None, derandomize=True)
@given(name=st.sampled_from([f.upper() for f in Limits.__dataclass_fields__]),
       value=st.one_of(st.text(max_size=12), st.sampled_from(["inf", "-inf", "nan", "1e999", "-1", "0", "1_000",
                                                              " 5 ", "9" * 5000, "0x10", "1.5"])))
def test_fuzz_a_limit_from_the_environment_is_taken_or_refused_naming_its_variable(name, value):
    try:
        limits = Limits.from_env({f"WASSERSPIELE_{name}": value})
    except ValueError as exc:
        assert str(exc).startswith(f"WASSERSPIELE_{name}=") or str(exc).startswith(f"limit {name.lower()}:"), exc
        return
    got = getattr(limits, name.lower())
    assert got >= 0   # (NaN and negatives are refused)
