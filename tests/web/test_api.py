"""The JSON API: lobby, tables, moves, records and replays, with every refusal."""

from __future__ import annotations

import json
import sqlite3

import pytest

from wasserspiele.core.records import replay
from wasserspiele import load
from wasserspiele.core.registry import game_class, game_names

from .helpers import assert_same_table, auth, create, humans, move, play_first_legal, table_state


def test_games_lists_every_game_with_every_option_and_default(client):
    body = client.get("/api/games").json()
    assert [g["name"] for g in body["games"]] == game_names()
    assert body["levels"] == ["easy", "medium", "hard", "expert"]
    for g in body["games"]:
        declared = game_class(g["name"]).option_list
        assert [(o["name"], o["default"], o["kind"]) for o in g["options"]] == \
            [(o.name, o.default, o.kind) for o in declared]


def test_pages_and_static_files_are_served(client):
    for path in ("/", "/table/abc", "/replay/abc"):
        r = client.get(path)
        assert r.status_code == 200 and '<script type="module" src="/static/app.js">' in r.text
    for path in ("/static/app.js", "/static/i18n.js", "/static/svg.js", "/static/style.css",
                 *(f"/static/games/{g}.js" for g in game_names())):
        assert client.get(path).status_code == 200, path


@pytest.mark.parametrize("game", game_names())
def test_create_a_table_of_every_game_with_defaults(client, game):
    players = load(game).players  # with its default options
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * (players - 1)
    t = create(client, game, seats=seats)
    assert [s["kind"] for s in t["seats"]] == ["human"] + ["bot"] * (players - 1)
    assert "token" in t["seats"][0] and all("token" not in s for s in t["seats"][1:])
    assert t["seats"][0]["link"] == f"/table/{t['id']}#seat=0&token={t['seats'][0]['token']}"
    assert t["spectator_link"] == f"/table/{t['id']}"
    state = table_state(client, t["id"], t["seats"][0]["token"])
    assert state["game"] == game and state["seat"] == 0 and state["n"] == 0


def test_tokens_are_unguessable_and_stored_only_as_hashes(client, db_url):
    t = create(client, seats=humans(3))
    tokens = [s["token"] for s in t["seats"]]
    assert len(set(tokens)) == 3 and all(len(tok) >= 32 for tok in tokens)
    con = sqlite3.connect(db_url.removeprefix("sqlite:///"))
    dump = "\n".join(con.iterdump())
    con.close()
    assert not any(tok in dump for tok in tokens)


def test_options_are_validated_and_stored(client):
    t = create(client, "watten", options={"target": 5, "raising": True}, seats=humans(4))
    view = table_state(client, t["id"])["view"]
    assert view["target"] == 5 and view["options"]["raising"] is True


@pytest.mark.parametrize("body, code, words", [
    ({"game": "chess"}, "bad_request", "unknown game 'chess'"),
    ({"game": "wasserloch", "options": {"rounds": 0}}, "bad_option", "rounds"),
    ({"game": "wasserloch", "options": {"colour": 1}}, "bad_option", "no option 'colour'"),
    ({"game": "wasserloch", "options": [1]}, "bad_request", "options: must be an object"),
    ({"game": "wasserloch", "seats": [{"kind": "human"}]}, "bad_request", "players of wasserloch is 2 to 4, not 1"),
    ({"game": "wasserloch", "options": {"players": 3}, "seats": [{"kind": "human"}]}, "bad_request", "a list of 3 seats"),
    ({"game": "wasserloch", "seats": [{"kind": "alien"}] * 3}, "bad_request", "seats[0].kind: input should be 'human' or 'bot'"),
    ({"game": "wasserloch", "seats": [{"kind": "bot", "level": "godlike"}] * 3}, "bad_request", "'godlike'"),
    ({"game": "wasserloch", "seats": [{"kind": "human", "level": "easy"}] * 3}, "bad_request", "no level"),
    ({"game": "wasserloch", "seats": [{"kind": "human", "x": 1}] * 3}, "bad_request", "seats[0].x: unknown field 'x' (fields: kind, level)"),
    ({"game": "wasserloch", "turbo": True}, "bad_request", "unknown field 'turbo'"),
    ({}, "bad_request", "game: missing"),
    ([1, 2], "bad_request", "must be a JSON object"),
])
def test_create_refuses_bad_requests_with_a_reason(client, body, code, words):
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400
    assert r.json()["error"] == code and words in r.json()["reason"]


def test_create_refuses_malformed_and_oversize_bodies(client):
    r = client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "bad_json"
    r = client.post("/api/tables", content=b" " * 20_000)
    assert r.status_code == 413 and "too large" in r.json()["reason"]
    r = client.post("/api/tables", content=iter([b" " * 10_000, b" " * 10_000]))  # chunked, no length
    assert r.status_code == 413 and "over 16384 bytes" in r.json()["reason"]
    assert client.get("/api/tables?status=all").json()["tables"] == []


def test_open_and_finished_tables_are_listed(client):
    running = create(client, seats=humans(3))
    listed = client.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [running["id"]]
    assert listed[0]["seats"] == [{"seat": i, "kind": "human", "level": None, "name": None, "stand_in": None}
                                  for i in range(3)]
    assert "token" not in json.dumps(listed) and "hash" not in json.dumps(listed)
    assert client.get("/api/tables?status=over").json()["tables"] == []
    r = client.get("/api/tables?status=maybe")
    assert r.status_code == 400 and "status" in r.json()["reason"]


def test_unknown_table_and_bad_tokens_are_refused(client):
    assert client.get("/api/tables/nope").status_code == 404
    t = create(client, seats=humans(3))
    other = create(client, seats=humans(3))
    r = client.get(f"/api/tables/{t['id']}", headers=auth(other["seats"][0]["token"]))
    assert r.status_code == 403 and "no seat at this table has this seat token" in r.json()["reason"]
    r = move(client, t["id"], "guess", "Ax1", 0)
    assert r.status_code == 403


def test_each_seat_sees_only_its_own_hand(client):
    t = create(client, seats=humans(3))
    spectator = table_state(client, t["id"])
    assert spectator["seat"] is None and spectator["view"]["hand"] is None and spectator["legal"] == []
    views = [table_state(client, t["id"], s["token"]) for s in t["seats"]]
    for seat, v in enumerate(views):
        assert v["seat"] == seat and v["view"]["seat"] == seat and v["view"]["hand"] is not None
        assert sum(v["view"]["hand"]) == 5
    assert views[0]["legal"] and not views[1]["legal"] and not views[2]["legal"]


def test_a_move_is_validated_applied_and_counted(client):
    t = create(client, seats=humans(3))
    tok = [s["token"] for s in t["seats"]]
    me = table_state(client, t["id"], tok[0])
    r = move(client, t["id"], tok[0], me["legal"][0], 0)
    assert r.status_code == 200 and r.json() == {"type": "accepted", "n": 1}
    after = table_state(client, t["id"])
    assert after["n"] == 1 and after["to_move"] == [1]


def test_move_refusals_say_why_and_leave_the_game_alone(client):
    t = create(client, seats=humans(3))
    tid, tok = t["id"], [s["token"] for s in t["seats"]]
    me = table_state(client, tid, tok[0])
    held = me["view"]["hand"]
    cases = [
        (tok[1], me["legal"][0], 0, 409, "not_your_turn", "not seat 1's turn"),
        # a move number ahead of the game is no stale view (no page was shown move 3): it
        # was "your move was based on move 3, but the game is at move 0"
        (tok[0], me["legal"][0], 3, 400, "bad_message", "move 3 has not been played: the game is at move 0"),
        (tok[0], me["legal"][0], "0", 400, "bad_message", "move number"),
        (tok[0], "9x1", 0, 400, "bad_notation", "'9' is not a card value"),
        # not a number to `int` (which `str.isdigit` took for one): the game's refusal, not a 500
        (tok[0], "3x²", 0, 400, "bad_notation", "the count must be a number"),
        (tok[0], "3x" + "9" * 150, 0, 400, "bad_notation", "the count must be a number"),
        (tok[0], "", 0, 400, "bad_message", "action (the move in the game's notation): string should have at least 1"),
        (tok[0], "x" * 500, 0, 400, "bad_message", "at most 200 characters"),
        (tok[0], None, 0, 400, "bad_message", "action (the move in the game's notation): must be a string"),
    ]
    values = ["A", "2", "3", "4", "5", "6", "7", "8"]
    absent = [v for v, c in zip(values, held) if c == 0]
    if absent:
        cases.append((tok[0], f"{absent[0]}x1", 0, 422, "illegal", ""))
    for token, action, n, status, code, words in cases:
        r = move(client, tid, token, action, n)
        assert r.status_code == status, (action, r.text)
        assert r.json()["error"] == code and words in r.json()["reason"], r.text
    r = client.post(f"/api/tables/{tid}/moves", content=b"[1]", headers=auth(tok[0]))
    assert r.status_code == 400
    r = client.post(f"/api/tables/{tid}/moves", content=b'{"action": "Ax1", "n": 0}')
    assert r.status_code == 401 and "token" in r.json()["reason"]
    assert_same_table(table_state(client, tid, tok[0]), me)


def test_record_and_replay_only_once_the_game_is_over(client):
    t = create(client, options={"rounds": 1, "players": 2}, seats=humans(2))
    tid = t["id"]
    for path in (f"/api/tables/{tid}/record", f"/api/tables/{tid}/replay/0"):
        r = client.get(path)
        assert r.status_code == 409 and "once the game is over" in r.json()["reason"]
    play_first_legal(client, t, 500)
    final = table_state(client, tid)
    assert final["terminal"] and final["winners"]
    record = client.get(f"/api/tables/{tid}/record").json()
    assert len(record["actions"]) == final["n"]
    assert replay(record).scores() == final["scores"]
    r = move(client, tid, t["seats"][0]["token"], "Ax1", final["n"])
    assert r.status_code == 409 and r.json()["error"] == "game_over"
    # replay steps are spectator views of the record's prefixes
    for step in (0, 1, final["n"] // 2, final["n"]):
        body = client.get(f"/api/tables/{tid}/replay/{step}").json()
        assert body["step"] == step and body["total"] == final["n"]
        assert body["view"] == replay(record, stop_at=step).view(None)
        assert body["action"] == (record["actions"][step - 1] if step else None)
    # a hint on a finished game is refused as a move on it is (it said "not your turn")
    r = client.get(f"/api/tables/{tid}/hint", headers=auth(t["seats"][0]["token"]))
    assert (r.status_code, r.json()["error"]) == (409, "game_over"), r.text
    # whole numbers outside the game: no such step (one of 21 digits was "no whole number")
    for step in (final["n"] + 1, -1, 10**20):
        r = client.get(f"/api/tables/{tid}/replay/{step}")
        assert (r.status_code, r.json()["error"]) == (404, "not_found")
        assert r.json()["reason"] == f"step: must be between 0 and {final['n']}"
    for step in ("x", "1.5", "--1", "1e3"):
        assert client.get(f"/api/tables/{tid}/replay/{step}").json()["reason_code"] == "server.step_not_whole"
    listed = client.get("/api/tables?status=over").json()["tables"]
    assert [x["id"] for x in listed] == [tid] and listed[0]["moves"] == final["n"]


def test_bots_play_a_whole_game_by_themselves(make_client):
    client = make_client(bot_delay=0.0)
    t = create(client, options={"rounds": 1, "players": 2},
               seats=[{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "medium"}])
    import time
    deadline = time.monotonic() + 30
    while not table_state(client, t["id"])["terminal"]:
        assert time.monotonic() < deadline, "bots did not finish"
        time.sleep(0.05)
    record = client.get(f"/api/tables/{t['id']}/record").json()
    assert replay(record).is_terminal()


def test_a_human_plays_against_bots_which_answer(make_client):
    client = make_client(bot_delay=0.0)
    t = create(client, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "hard"}])
    tok = t["seats"][0]["token"]
    me = table_state(client, t["id"], tok)
    assert move(client, t["id"], tok, me["legal"][0], 0).status_code == 200
    import time
    deadline = time.monotonic() + 10
    while table_state(client, t["id"])["to_move"] != [0]:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert table_state(client, t["id"])["n"] == 3


def test_a_broken_bot_does_not_stall_the_table(make_client, monkeypatch):
    from wasserspiele.bots.random_bot import RandomBot

    def broken(self, decision):
        raise RuntimeError("bug in a bot")
    monkeypatch.setattr(RandomBot, "choose", broken)
    client = make_client(bot_delay=0.0)
    t = create(client, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}])
    tok = t["seats"][0]["token"]
    assert move(client, t["id"], tok, table_state(client, t["id"], tok)["legal"][0], 0).status_code == 200
    import time
    deadline = time.monotonic() + 10
    while table_state(client, t["id"])["to_move"] != [0]:
        assert time.monotonic() < deadline, "the bots stalled"
        time.sleep(0.02)
    assert table_state(client, t["id"])["n"] == 3
