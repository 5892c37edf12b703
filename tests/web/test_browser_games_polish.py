"""What a playtest found in the games' own drawing (their web.js): Wasserloch's log told
the last plays in seat order, not in the order they were made; Seven Waters' park on a
phone had row labels of about 6 px; Wasserloch's hand stood off-centre under the board;
Wildwasser's seat chips said "wartend: GZNES", the initials of the waiting animals."""

from __future__ import annotations

import os
import random
import re

import pytest

from .browser_support import (CHROMIUM, MID_GAME, SIZES, Server, browser,  # noqa: F401
                              cut_chip_parts, mid_game_table, play_wasserloch, tabs)

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("games_polish")
    srv = Server(f"sqlite:///{tmp / 'games_polish.sqlite3'}", log_path=str(tmp / "server.log"))
    with pytest.MonkeyPatch.context() as mp:   # some tests deal until a hand or an ending suits them
        mp.setenv("WASSERSPIELE_TABLES_PER_CLIENT", "100")
        srv.start()
    try:
        yield srv
    finally:
        srv.stop()


# ---------------------------------------------------------------- Wasserloch's log
def log_of(page) -> list[tuple[str, bool]]:
    """The log's lines newest first, each with whether it is marked the newest."""
    return page.eval_on_selector_all("#log li", "lis => lis.map(li => [li.textContent, li.classList.contains('newest')])")


def line_for(page, seat: int, action: str, round_: int) -> str:
    """The log's line of a play up to its animals, in the catalogue's words ("played two 3s")."""
    from wasserspiele.core.messages import render
    value, count = action.upper().split("X")
    who = page.inner_text(f"#seats .seat-chip[data-seat='{seat}'] .who").removesuffix(" (you)")
    play = render("wasserloch.web.log", {"who": who, "n": int(count), "v": value, "a": ""}, "en")
    return f"Round {round_}: {play.split(' (')[0]}"


@pytest.mark.parametrize("when", ["mid-round", "round-start"])
def test_wl_3_3_the_wasserloch_log_tells_the_plays_in_the_order_they_were_made(tabs, server, when):
    """The log listed each seat's last play in seat order (seat 0, 1, 2) and marked the
    last of those the newest: wrong whenever seat 0 did not begin (here seat 1 begins the
    first round, seat 2 the second).  Now the plays come in the order they were made, the
    newest marked; at a new round's start, before its first play, the plays that ended
    the last round."""
    rng = random.Random(11)
    for _ in range(4):
        table = server.post("/api/tables", {"game": "wasserloch",
                                            "options": {"players": 3, "rounds": 2, "first_player": 1},
                                            "seats": [{"kind": "human"}] * 3})
        if when == "mid-round":   # seats 1, 2, 0, 1 have played: the newest is seat 1's, seat 2's the oldest
            made = play_wasserloch(server, table, rng, lambda view, made: len(made) == 4)
            break
        made = play_wasserloch(server, table, rng, lambda view, made: view["round"] == 2)
        if made[-1][0] != 2:   # a round that seat 2 ended tells its plays in seat order: another deal
            break
    # each seat's last play, in the order they were made
    last = {seat: (i, action, r) for i, (seat, action, r) in enumerate(made)}
    true_order = sorted(last, key=lambda seat: last[seat][0])
    assert true_order[0] != 0 or when != "mid-round"
    tab = tabs()
    page = tab.open(server, table["spectator_link"], "desktop")
    log = log_of(page)
    expected = [line_for(page, seat, last[seat][1], last[seat][2]) for seat in reversed(true_order)]
    assert [text.split(" (")[0] for text, _ in log] == expected, log
    assert [newest for _, newest in log] == [True] + [False] * (len(log) - 1), log
    assert tab.errors == []


# ---------------------------------------------------------------- Seven Waters on a phone
PARK_LABELS = r"^(Leine \d|Σ -?\d+|Kanal|Becken.*|Motto)$"
LABEL_SIZES = """(pattern) => {
  const re = new RegExp(pattern);
  return [...document.querySelectorAll('#board svg text')].filter((el) => re.test(el.textContent.trim())).map((el) => {
    const b = el.getBoundingClientRect();
    return [el.textContent.trim(), +(parseFloat(el.getAttribute('font-size')) * el.getScreenCTM().a).toFixed(1),
            Math.round(b.left), Math.round(b.right), Math.round(b.top), Math.round(b.bottom)];
  });
}"""


@pytest.fixture(scope="module")
def seven_waters(server):
    return mid_game_table(server, "seven_waters")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_seven_waters_park_s_row_labels_are_readable(tabs, server, seven_waters, size):
    """On a phone (390 × 844) the park's row labels ("Leine 1", "Σ 10", Kanal, Becken,
    Motto) came out at about 6 px: the board, a pyramid above a park, is scaled down to
    the height left for it.  They are at least 10 px now, and on the screen."""
    tab = tabs("de-DE")
    page = tab.open(server, seven_waters["seats"][0]["link"], size)
    labels = page.evaluate(LABEL_SIZES, PARK_LABELS)
    assert len(labels) == 4 * 2 + 3, labels
    width, height = SIZES[size]
    small = [x for x in labels if x[1] < 10]
    assert small == [], small
    outside = [x for x in labels if x[2] < 0 or x[3] > width or x[4] < 0 or x[5] > height]
    assert outside == [], outside
    assert tab.errors == []


# ---------------------------------------------------------------- Wasserloch's hand
HAND_BOXES = """() => {
  const area = document.querySelector('#hand').getBoundingClientRect();
  const cards = [...document.querySelectorAll('#hand [data-key]')].map((c) => c.getBoundingClientRect());
  return { area: [area.left, area.right], cards: [Math.min(...cards.map((b) => b.left)), Math.max(...cards.map((b) => b.right))],
           n: cards.length };
}"""


def a_wasserloch_hand_of(server: Server, kinds: int, seed: int) -> dict:
    """A two-seat table of three rounds played (a seeded choice among the legal moves)
    until seat 0 is to move holding `kinds` different values; another table if the game
    ends first (the server allows a client only so many: not a new table per deal)."""
    rng = random.Random(seed)
    for _ in range(3):
        table = server.post("/api/tables", {"game": "wasserloch", "options": {"players": 2, "rounds": 3},
                                            "seats": [{"kind": "human"}] * 2})
        tokens = {s["seat"]: s["token"] for s in table["seats"]}
        while not (spectator := server.get(f"/api/tables/{table['id']}"))["terminal"]:
            mine = server.get(f"/api/tables/{table['id']}", tokens[0])
            if mine["legal"] and sum(1 for n in mine["view"]["hand"] if n) == kinds:
                return table
            seat = spectator["waiting"][0]
            theirs = mine if seat == 0 else server.get(f"/api/tables/{table['id']}", tokens[seat])
            server.post(f"/api/tables/{table['id']}/moves", {"action": rng.choice(theirs["legal"]), "n": theirs["n"]},
                        tokens[seat])
    raise RuntimeError(f"no hand of {kinds} values on seat 0's turn in three games")


@pytest.fixture(scope="module")
def hands(server):
    made: dict[int, dict] = {}

    def of(kinds: int) -> dict:
        if kinds not in made:
            made[kinds] = a_wasserloch_hand_of(server, kinds, seed=kinds)
        return made[kinds]
    return of


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("kinds", [1, 2, 5])
def test_the_wasserloch_hand_is_centred_under_the_board(tabs, server, hands, size, kinds):
    """The hand's cards were drawn from the left of a picture at least 340 wide: a hand of
    a few values (one late in a round) stood left of the middle.  Its cards are centred in
    the hand's room now."""
    tab = tabs()
    page = tab.open(server, hands(kinds)["seats"][0]["link"], size)
    page.wait_for_selector("#hand [data-key]")
    boxes = page.evaluate(HAND_BOXES)
    assert boxes["n"] == kinds
    area_mid = (boxes["area"][0] + boxes["area"][1]) / 2
    cards_mid = (boxes["cards"][0] + boxes["cards"][1]) / 2
    assert abs(cards_mid - area_mid) <= 4, boxes
    assert tab.errors == []


def hand_of(view: dict, game: str) -> list:
    if game == "seven_waters":
        return view["players"][0]["hand"] or []
    if game == "wildwasser":
        return view["seats"][0]["hand"] or []
    return view["hand"] or []


# the most cards that leave room beside them in the hand's picture (300 wide at least)
FEWER_THAN_FULL = {"seven_waters": 5, "watten": 4, "wildwasser": 4}


def a_table_with_a_short_hand(server: Server, game: str) -> dict:
    """A mid-game table where seat 0, to move, holds some cards but too few to fill the
    hand's picture (a Seven Waters seat may hold none): later positions until one does."""
    for moves in range(MID_GAME[game], MID_GAME[game] + 10):
        table = mid_game_table(server, game, moves)
        hand = hand_of(server.get(f"/api/tables/{table['id']}", table["seats"][0]["token"])["view"], game)
        if 1 <= len(hand) <= FEWER_THAN_FULL[game]:
            return table
    raise RuntimeError(f"{game}: no position with a short hand for seat 0")


@pytest.fixture(scope="module")
def mid_games(server):
    return {game: a_table_with_a_short_hand(server, game) for game in ("seven_waters", "watten", "wildwasser")}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", ["seven_waters", "watten", "wildwasser"])
def test_the_other_games_hands_are_centred_too(tabs, server, mid_games, game, size):
    """The other games drew their hands from the left edge of a picture at least 300
    wide in the same way: a hand of fewer cards than fill it stood left of the middle."""
    tab = tabs()
    page = tab.open(server, mid_games[game]["seats"][0]["link"], size)
    page.wait_for_selector("#hand [data-key]")
    boxes = page.evaluate(HAND_BOXES)
    area_mid = (boxes["area"][0] + boxes["area"][1]) / 2
    cards_mid = (boxes["cards"][0] + boxes["cards"][1]) / 2
    assert abs(cards_mid - area_mid) <= 4, boxes
    assert tab.errors == []


# ---------------------------------------------------------------- Wildwasser's chips
@pytest.fixture(scope="module")
def wildwasser(server):
    return server.post("/api/tables", {"game": "wildwasser", "options": {"players": 3},
                                       "seats": [{"kind": "human"}] * 3})


@pytest.mark.parametrize("locale, words", [("de-DE", r"^(?:⚑ )?(?:✓ )?[1-5] noch am Start$"),
                                           ("en-US", r"^(?:⚑ )?(?:✓ )?[1-5] yet to start$")])
@pytest.mark.parametrize("size", list(SIZES))
def test_wildwasser_chips_say_in_words_how_many_animals_wait_on_the_team_card(tabs, server, wildwasser,
                                                                              locale, words, size):
    """A seat's chip said "wartend: GZNES": the initials of the animals still on its team
    card, a code to a player.  It says in words how many are yet to start, and fits the
    chip whole."""
    table = wildwasser
    tab = tabs(locale)
    page = tab.open(server, table["seats"][0]["link"], size)
    extras = page.eval_on_selector_all("#seats .seat-chip .extra", "els => els.map(e => e.textContent)")
    assert len(extras) == 3 and all(re.match(words, x) for x in extras), extras
    assert cut_chip_parts(page) == []
    assert tab.errors == []
