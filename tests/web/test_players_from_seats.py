"""POST /api/tables: a game for a varying number of players is played by as many as the
seats listed when no `players` option says otherwise, as the terminal's `--seats` sets
it; a Wildwasser request with three seats was refused "give a list of 4 seats"."""

import pytest

from tests.web.helpers import humans, table_state


@pytest.mark.parametrize("game, n", [("wildwasser", 3), ("wildwasser", 6), ("wasserloch", 2), ("wasserloch", 4)])
def test_the_seats_listed_set_the_player_count(client, game, n):
    r = client.post("/api/tables", json={"game": game, "seats": humans(n)})
    assert r.status_code == 201, r.text
    t = r.json()
    assert len(t["seats"]) == n
    state = table_state(client, t["id"], t["seats"][0]["token"])
    assert state["players"] == n and len(state["seats"]) == n


@pytest.mark.parametrize("lang, said", [("en", "seats: the number of players of wildwasser is 2 to 6, not 7"),
                                        ("de", "seats: die Spielerzahl von wildwasser ist 2 bis 6, nicht 7")])
def test_more_seats_than_the_game_takes_are_refused_with_its_range(client, lang, said):
    r = client.post("/api/tables", json={"game": "wildwasser", "seats": humans(7)}, headers={"accept-language": lang})
    assert r.status_code == 400 and r.json()["reason_code"] == "server.seat_range"
    assert r.json()["message"].startswith(said)


def test_a_players_option_still_decides_and_the_seats_must_match_it(client):
    r = client.post("/api/tables", json={"game": "wildwasser", "options": {"players": 4}, "seats": humans(3)})
    assert r.status_code == 400 and r.json()["reason_code"] == "server.seat_count"
    r = client.post("/api/tables", json={"game": "watten", "seats": humans(3)})  # four players, always
    assert r.status_code == 400 and r.json()["reason_code"] == "server.seat_count"
