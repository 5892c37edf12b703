"""Chance outcomes a replay leaves unread (shared/spec/records.md, Fields: `setup`; the rule
is docs/records.md's).  A finished game's record that holds outcomes the game never read
(a deal after the last hand, a die roll too many) replayed and the outcomes vanished: a
re-save wrote another record.  It is refused, naming the entries (exit 2).  A record that
stops before the end keeps the outcomes still to come: a resume reads them and the record
written back holds them.  No writer leaves outcomes unread: every save of bot games through
the terminal's autosave and every row the web stores replays strictly to itself."""

from __future__ import annotations

import copy
import datetime as dt
import json
import random

import pytest

from wasserspiele import load
from wasserspiele.cli import play
from wasserspiele.cli.console import make_console
from wasserspiele.core.errors import BadRecord
from wasserspiele.core.records import replay

from test_records_schema import _finished_record


# (game, options, stream, an outcome of the stream) for every stream a finished game can
# leave unread: Wasserloch refuses more decks than rounds and Seven Waters' deck has 54 cards
TAILS = [
    ("watten", {}, "deals", lambda doc: doc["setup"]["deals"][0][::-1]),
    ("watten", {"signal_detection_p": 0.5}, "signal_checks", lambda doc: 0.25),
    ("watten", {}, "signal_checks", lambda doc: 0.25),  # p is 0: the game never reads one
    ("wildwasser", {}, "dice", lambda doc: "sun"),
]
TAIL_IDS = ["watten-deal", "watten-check", "watten-check-p0", "wildwasser-die"]


def _with_tail(name: str, options: dict, stream: str, outcome, extra: int) -> tuple[dict, int]:
    """A finished record with `extra` more outcomes in `stream`; and how many it read."""
    doc = copy.deepcopy(_finished_record(name, **options))
    entries = doc["setup"].setdefault(stream, [])
    read = len(entries)
    entries.extend(outcome(doc) for _ in range(extra))
    return doc, read


@pytest.mark.parametrize(("name", "options", "stream", "outcome"), TAILS, ids=TAIL_IDS)
@pytest.mark.parametrize("extra", [1, 3])
@pytest.mark.parametrize("resume", [False, True], ids=["replay", "resume"])
def test_records_setup_a_finished_game_with_outcomes_never_read_is_refused_naming_them(
        name, options, stream, outcome, extra, resume):
    doc, read = _with_tail(name, options, stream, outcome, extra)
    with pytest.raises(BadRecord) as err:
        replay(doc, rng=random.Random(1) if resume else None)
    reason = err.value.reason
    assert reason.code == "record.unread_outcomes"
    assert dict(reason.params) == {"stream": stream, "n": extra, "first": read, "last": read + extra - 1,
                                   "read": read, "total": read + extra}


@pytest.mark.parametrize("name", ["wasserloch", "seven_waters", "watten", "wildwasser"])
def test_records_setup_a_finished_game_reading_every_outcome_still_replays(name):
    doc = _finished_record(name)
    assert replay(doc).is_terminal() and replay(doc).record() == doc


@pytest.mark.parametrize("name", ["wasserloch", "watten", "wildwasser"])
def test_records_setup_a_record_cut_short_keeps_the_outcomes_still_to_come(name):
    """The spec's setup holds every chance outcome of the whole game, and a record whose
    actions stop early replays to that position: the outcomes ahead are no tail.  Written
    back, they were dropped, and a resume of the re-save dealt other cards."""
    full = _finished_record(name)
    cut = dict(full, actions=full["actions"][: len(full["actions"]) // 3])
    state = replay(cut)
    assert not state.is_terminal()
    assert state.record() == cut
    resumed = replay(cut, rng=random.Random(1))
    for text in full["actions"][len(cut["actions"]):]:  # the resumed game reads the record's outcomes
        seat, action = resumed.game.parse_decision(text)
        resumed.apply(action, resumed.current_seat if seat is None else seat)
    assert resumed.record() == full


def test_records_replay_and_resume_of_a_record_with_unread_dice_exit_2_naming_them(run, tmp_path):
    doc, read = _with_tail("wildwasser", {}, "dice", lambda doc: "sun", 2)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    en = (f"setup.dice[{read}] to [{read + 1}]: the game is over and never read these 2 entries "
          f"({read} of the {read + 2} entries in setup.dice were read); a record holds only the chance "
          f"outcomes its game reads")
    de = (f"setup.dice[{read}] bis [{read + 1}]: das Spiel ist zu Ende und hat diese 2 Einträge nie gelesen "
          f"(von den {read + 2} Einträgen in setup.dice wurden {read} gelesen); ein Spielprotokoll enthält "
          f"nur die Zufallsergebnisse, die sein Spiel liest")
    out = run("replay", str(path), "--json")
    assert out.exit_code == 2 and en in out.output, out.output
    out = run("replay", str(path), "--lang", "de")
    assert out.exit_code == 2 and de in out.output, out.output
    out = run("play", "--resume", str(path), "--seats", "random,random,random")
    assert out.exit_code == 2 and en in out.output, out.output
    one, read = _with_tail("watten", {}, "deals", lambda doc: doc["setup"]["deals"][0][::-1], 1)
    path.write_text(json.dumps(one), encoding="utf-8")
    out = run("replay", str(path))
    assert out.exit_code == 2 and (
        f"setup.deals[{read}]: the game is over and never read this entry ({read} of the {read + 1} "
        f"entries in setup.deals were read)") in out.output, out.output


# -- no writer leaves outcomes unread -------------------------------------------------------
SAVED_GAMES = [
    ("wasserloch", 3, "random,heuristic,random", ["rounds=2"]),
    ("seven_waters", None, "random,heuristic", []),
    ("watten", None, "random,heuristic,random,random", []),
    ("watten", None, "random,random,random,random", ["signal_detection_p=0.5"]),
    ("wildwasser", 3, "random,heuristic,random", []),
]


@pytest.mark.parametrize(("name", "players", "seats", "options"), SAVED_GAMES,
                         ids=[f"{n}-{'-'.join(o) or 'default'}" for n, _, _, o in SAVED_GAMES])
def test_records_every_save_of_the_terminal_replays_strictly_to_itself(monkeypatch, tmp_path, name, players,
                                                                        seats, options):
    """`play --save` writes after every move (PlaySession.autosave): a deal drawn at the end
    of a hand, a die rolled within a move, a pick phase half taken.  Each save replays with
    no generator, reads every outcome it holds and is written back as it was."""
    saves = []
    write_record = play.write_record

    def capture(state, path, session=None):
        write_record(state, path, session)
        with open(path, encoding="utf-8") as f:
            saves.append(json.load(f))

    monkeypatch.setattr(play, "write_record", capture)
    session = play.PlaySession.create(name, players, seats, 2, options, str(tmp_path / "g.json"), None, "en")
    session.console = make_console(quiet=True)
    assert session.run() == 0
    assert saves[-1]["actions"] and replay(saves[-1]).is_terminal()
    for doc in saves:
        del doc["session"]
        state = replay(doc)
        assert state.chance.unread() == {}
        assert state.record() == doc


@pytest.mark.parametrize(("name", "options"), [("wasserloch", {}), ("seven_waters", {}),
                                             ("watten", {"target": 5, "signal_detection_p": 0.5}),
                                             ("wildwasser", {})],
                         ids=["wasserloch", "seven_waters", "watten-signal_detection_p=0.5", "wildwasser"])
def test_records_every_row_the_web_stores_replays_strictly(name, options):
    """The web draws each move's chance from `chance_rng(seed, n)` and stores the outcomes
    drawn so far with the moves; a table is rebuilt by a strict replay of that row."""
    from wasserspiele.web.hub import LiveTable, chance_rng
    from wasserspiele.web.storage import TableRow

    game, seed, rng = load(name, **options), 7, random.Random(7)
    state = game.new_game(rng=chance_rng(seed, 0))
    while not state.is_terminal():
        seat = rng.choice(state.to_move())
        state.chance.rng = chance_rng(seed, len(state.history) + 1)  # as LiveTable._apply
        state.apply(rng.choice(list(state.legal_actions(seat))), seat)
        row = TableRow(id="t", game=name, options=game.non_default_options(), players=game.players, seed=seed,
                       setup=json.loads(json.dumps(state.chance.used_setup())), status="running",
                       created=dt.datetime.now(dt.timezone.utc), actions=state.record_actions())
        doc = {"game": name, "players": row.players, "options": row.options, "setup": row.setup,
               "actions": row.actions}
        assert replay(doc).chance.unread() == {}  # strict: LiveTable.state_of's first try
        assert LiveTable.state_of(row).state_json() == state.state_json()


@pytest.mark.parametrize("lang, said", [
    ("en", 'action 0 "9: pick zebra": there is no seat 9 at a table of 4 (seats 0 to 3)'),
    ("de", "Aktion 0 „9: pick zebra“: einen Platz 9 gibt es an einem Tisch für 4 Spieler nicht (Plätze 0 bis 3)"),
])
def test_a_seat_prefix_beyond_the_table_is_refused_as_no_seat_not_as_an_absent_players_turn(lang, said):
    """A four-player Wildwasser record's "9: pick zebra" was refused as "by player J: it is not
    player J's turn", naming a seat the table does not have."""
    from wasserspiele import load
    from wasserspiele.core.errors import ReplayError
    from wasserspiele.core.records import replay
    record = load("wildwasser", players=4).new_game(seed=1).record()
    record["actions"] = ["9: pick zebra"]
    with pytest.raises(ReplayError) as refused:
        replay(record)
    assert refused.value.seat is None and refused.value.render(lang) == said
