"""The web API speaks the client's language (issue 14): refusals carry the rule's code,
parameters and a localised message; the catalogue is served for the browser client."""

from __future__ import annotations

import json

from .helpers import auth, create, humans, move, play_first_legal, table_state

SHIPPED = ("wasserloch", "seven_waters", "watten", "wildwasser")  # games with catalogue entries


def _illegal_wasserloch_move(client):
    table = create(client, "wasserloch", {"players": 2}, humans(2))
    tok = {s["seat"]: s["token"] for s in table["seats"]}
    mine = table_state(client, table["id"], tok[0])
    absent = next(v for v, n in zip("A2345678", mine["view"]["hand"]) if n == 0)
    return table, tok, mine, f"{absent}x1"


def test_refusal_payload_has_code_params_and_german_message(client):
    table, tok, mine, action = _illegal_wasserloch_move(client)
    r = client.post(f"/api/tables/{table['id']}/moves?lang=de", headers=auth(tok[0]),
                    content=json.dumps({"action": action, "n": mine["n"]}))
    assert r.status_code == 422
    body = r.json()
    assert body["error"] == "illegal" and body["reason_code"] == "wasserloch.holds_none"
    assert body["params"] == {"seat": 0, "value": action[0]}
    assert body["message"].startswith("keine ") and body["message"].endswith(" auf der Hand")
    assert body["reason"].startswith("no ") and body["reason"].endswith(" in hand")  # the English words stay


def test_accept_language_picks_the_message_language(client):
    table, tok, mine, action = _illegal_wasserloch_move(client)
    r = client.post(f"/api/tables/{table['id']}/moves", headers={**auth(tok[0]), "Accept-Language": "de-AT,de;q=0.9"},
                    content=json.dumps({"action": action, "n": mine["n"]}))
    assert r.json()["message"].endswith(" auf der Hand")
    r = move(client, table["id"], tok[1], "Ax1", mine["n"])  # not seat 1's turn; no language asked: English
    body = r.json()
    assert body["reason_code"] == "not_your_turn" and body["message"].startswith("it is not seat 1's turn")


def test_websocket_refusals_in_the_language_of_the_hello(client):
    table, tok, mine, action = _illegal_wasserloch_move(client)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": tok[0], "lang": "de"}))
        ws.receive_json()  # the state
        ws.send_text(json.dumps({"type": "move", "action": action, "n": mine["n"]}))
        msg = ws.receive_json()
        while msg["type"] != "refused":
            msg = ws.receive_json()
    assert msg["code"] == "illegal" and msg["reason_code"] == "wasserloch.holds_none"
    assert msg["message"].startswith("keine ") and msg["message"].endswith(" auf der Hand")


def test_a_watten_card_not_in_hand_is_refused_naming_the_hand_not_a_you(client):
    """WA-3: the words beside a tapped card are the refusal a replay error also shows, so
    they speak of "the hand", not "you" ("du hast A♥ nicht (deine Karten: …)" before)."""
    from wasserspiele.games.watten.actions import CARD_NAMES

    table = create(client, "watten", {"signals": "off"}, humans(4))
    tok = {s["seat"]: s["token"] for s in table["seats"]}
    play_first_legal(client, table, 1)  # trump is named: the caller leads
    seat = table_state(client, table["id"])["to_move"][0]
    mine = table_state(client, table["id"], tok[seat])
    absent = next(c for c in CARD_NAMES if c not in mine["view"]["hand"])
    r = client.post(f"/api/tables/{table['id']}/moves?lang=de", headers=auth(tok[seat]),
                    content=json.dumps({"action": absent, "n": mine["n"]}))
    body = r.json()
    assert r.status_code == 422 and body["reason_code"] == "watten.not_held"
    assert body["params"]["card"] == absent and sorted(body["params"]["hand"]) == sorted(mine["view"]["hand"])
    assert " ist nicht auf der Hand, nur " in body["message"] and " und " in body["message"]
    assert " is not in hand, only " in body["reason"]


def test_a_wildwasser_revealed_card_is_refused_naming_the_card_not_a_you(client):
    """WW-3.4: the words beside a tapped revealed card are the refusal a replay error also
    shows ("deine Karte Zebra ist nicht auf deiner Hand (sie liegt aufgedeckt vor dir)"
    before); they speak of the card and the hand."""
    table = create(client, "wildwasser", {"players": 2}, humans(2))
    tok = {s["seat"]: s["token"] for s in table["seats"]}
    for _ in range(40):  # round 1: both pick and resolve, until seat 0 picks again with a card revealed
        mine = table_state(client, table["id"], tok[0])
        if mine["view"]["seats"][0]["revealed"] and any(a.startswith("pick ") for a in mine["legal"]):
            break
        play_first_legal(client, table, 1)
    else:
        raise AssertionError("no second round")
    card = mine["view"]["seats"][0]["revealed"][0]
    r = client.post(f"/api/tables/{table['id']}/moves?lang=de", headers=auth(tok[0]),
                    content=json.dumps({"action": f"pick {card}", "n": mine["n"]}))
    body = r.json()
    assert r.status_code == 422 and body["reason_code"] == "wildwasser.card_not_in_hand"
    assert body["params"] == {"animal": card}
    assert body["message"].startswith("die Karte ") and " ist nicht auf der Hand (sie wurde schon gespielt" in body["message"]
    assert body["reason"] == f"the {card} card is not in hand (it was played and lies revealed)"


def test_messages_endpoint_serves_each_catalogue(client):
    de = client.get("/api/messages/de").json()
    en = client.get("/api/messages/en").json()
    assert de["lang"] == "de" and de["plural"] == "(n != 1)"
    assert de["messages"]["watten.must_follow"] == "{suit:suit} muss bedient werden ({held:card} auf der Hand)"
    assert de["messages"]["wasserloch.ui.cards"] == ["1 Karte", "{n} Karten"]
    assert set(de["messages"]) == set(en["messages"])
    assert client.get("/api/messages/fr").status_code == 404


def test_lobby_option_help_in_both_languages(client):
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    target = next(o for o in games["watten"]["options"] if o["name"] == "target")
    assert target["help_text"]["en"] == target["help"]
    assert target["help_text"]["de"] == "Punkte, mit denen ein Team gewinnt (WA-4.2)"
    for g in games.values():
        for o in g["options"]:  # a game without catalogue entries shows its own words
            assert o["help_text"]["de"] and (o["help_text"]["de"] != o["help"] or g["name"] not in SHIPPED)


def test_unparsable_move_is_refused_in_german_words(client):
    table, tok, mine, _ = _illegal_wasserloch_move(client)
    r = client.post(f"/api/tables/{table['id']}/moves?lang=de", headers=auth(tok[0]),
                    content=json.dumps({"action": "zebra", "n": mine["n"]}))
    body = r.json()
    # the game's own reason, which says how a move is written, in the page's language
    assert body["error"] == "bad_notation" and body["reason_code"] == "wasserloch.notation.form"
    assert body["params"] == {"text": "zebra"}
    assert body["message"] == "„zebra“ ist kein Zug: schreib Wert x Anzahl, z. B. 7x2 oder Ax1"
    assert "zebra" in body["reason"]  # the English words say what was wrong


def test_the_servers_own_refusals_are_worded_in_german(client):
    """The CI run that showed 'Nicht erlaubt: your move was based on move 151, …' on a
    German page: a move based on another position, a foreign seat token, an unknown
    table, a wrong path and a name too long are each refused with a `server.` code, its
    parameters and German words; the English words stay in `reason`."""
    table, tok, mine, _ = _illegal_wasserloch_move(client)
    tid = table["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": tok[0], "lang": "de"}))
        ws.receive_json()  # the state
        ws.send_text(json.dumps({"type": "move", "action": "A", "n": mine["n"] + 5}))
        stale = ws.receive_json()
        while stale["type"] != "refused":
            stale = ws.receive_json()
        ws.send_text(json.dumps({"type": "name", "name": "x" * 41}))
        named = ws.receive_json()
        while named["type"] != "refused":
            named = ws.receive_json()
    # (a move number ahead of the game: said as such, no longer as a stale view of it)
    assert stale["code"] == "bad_message" and stale["reason_code"] == "server.move_number_ahead"
    assert stale["params"] == {"n": mine["n"] + 5, "now": mine["n"]}
    assert stale["message"] == f"Zug {mine['n'] + 5} wurde noch nicht gespielt: das Spiel ist bei Zug {mine['n']}"
    assert stale["reason"] == f"move {mine['n'] + 5} has not been played: the game is at move {mine['n']}"
    assert named["code"] == "bad_name" and named["message"] == "ein Name darf höchstens 40 Zeichen haben (41 angegeben)"
    de = {"accept-language": "de-DE,de;q=0.9"}
    foreign = client.post(f"/api/tables/{tid}/moves", headers={**de, "authorization": "Bearer nope"},
                          content=json.dumps({"action": "A", "n": mine["n"]})).json()
    assert foreign["error"] == "bad_token"
    assert foreign["message"] == ("kein Platz an diesem Tisch hat diesen Platzschlüssel: der Link ist vielleicht "
                                  "unvollständig, vertippt oder von einem anderen Tisch")
    missing = client.get("/api/tables/no-such-table", headers=de).json()
    assert missing["error"] == "no_table" and missing["message"] == "diesen Tisch gibt es nicht"
    lost = client.get("/api/nowhere", headers=de)
    assert lost.status_code == 404
    assert lost.json()["message"] == "unter /api/nowhere gibt es keine Seite und keinen Endpunkt"
