"""The command line: all-bot games, a scripted human, save/resume, replay, bad input."""

from __future__ import annotations

import re

import json

import pytest
from click.testing import CliRunner

from wasserspiele.cli.main import main
from wasserspiele.core.records import read_record, replay


def test_all_bot_game_plays_to_the_end_without_input(run):
    result = run("play", "wasserloch", "--seats", "heuristic,random,random", "--seed", "4")
    assert result.exit_code == 0, result.output
    assert "Result" in result.output and "Total" in result.output
    assert "Winner" in result.output or "Shared win" in result.output


def test_seats_take_levels_and_bot_specs(run):
    result = run("play", "wasserloch", "--seats", "hard,medium,ismcts:iterations=20,exploration=0.5",
                 "--option", "rounds=1", "--seed", "4", "--verbose")
    assert result.exit_code == 0, result.output
    assert "Result" in result.output
    assert "hard" in result.output and "ismcts:iterations=20,exploration=0.5" in result.output


def test_all_bot_game_in_german(run):
    result = run("play", "wasserloch", "--seats", "random,random", "--players", "2", "--seed", "4", "--lang", "de")
    assert result.exit_code == 0
    assert "Ergebnis" in result.output and "Summe" in result.output


def test_scripted_human_game_explains_refusals_and_saves_on_quit(run, tmp_path):
    save = tmp_path / "game.json"
    result = run("play", "wasserloch", "--seed", "3", "--save", str(save), input="7x9\n8x1\nmoves\nhelp\nquit\n")
    assert result.exit_code == 0
    out = result.output
    assert "the count must be a number from 1 to 8" in out
    assert "refused: no 8s in hand" in out
    assert "legal moves: Ax1, Ax2, 3x1, 3x2, 4x1" in out
    assert "Commands:" in out
    assert "game saved to" in out
    doc = json.loads(save.read_text())
    assert doc["actions"] == [] and len(doc["setup"]["decks"]) == 1


def test_a_move_named_by_its_object_alone_is_taken_when_one_move_fits(run, tmp_path):
    """`gepard` while picking is `pick cheetah`; `TC`, which four Seven Waters moves end
    with, is asked back with the four, and nothing is played."""
    save = tmp_path / "game.json"
    result = run("play", "wildwasser", "--players", "2", "--seats", "human,random", "--seed", "3", "--lang", "de",
                 "--save", str(save), input="gepard\nquit\n")
    assert result.exit_code == 0, result.output
    doc = json.loads(save.read_text())
    assert doc["actions"][0] == "0: pick cheetah"  # a pick made together with the bot's (records.md)
    save = tmp_path / "game2.json"  # a new game does not replace another's save (test_play_defects.py)
    result = run("play", "seven_waters", "--seed", "3", "--save", str(save), input="tc\nquit\n")
    assert result.exit_code == 0, result.output
    assert ("'tc' fits several moves: river TC, pool TC, theme TC, discard TC; type one of them"
            in " ".join(result.output.split()))  # the console wraps at 80 columns
    assert json.loads(save.read_text())["actions"] == []


def test_watten_lists_the_moves_in_the_order_of_the_hand_shown(run, tmp_path):
    """The engine keeps a hand in deal order; `züge` lists the cards as the hand line
    shows them (trump first, strongest first), so a player finds a card where it was."""
    save = tmp_path / "game.json"
    result = run("play", "watten", "--seed", "3", "--lang", "de", "--save", str(save),
                 input="keins\nzüge\nende\n")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    hand = [line for line in lines if line.startswith("Deine Karten:")][-1].split(":", 1)[1].split()
    listed = [m.strip() for m in [line for line in lines if "erlaubte Züge:" in line][-1].split("erlaubte Züge:")[1].split(",")]
    assert listed == hand and len(hand) == 5
    from wasserspiele.games.watten.render import show_action
    state = replay(json.loads(save.read_text()))  # the premise: the engine's order is another
    assert [show_action(str(a), "de") for a in state.legal_actions(0)] != hand


@pytest.mark.parametrize("game", ["wasserloch", "seven_waters", "watten", "wildwasser"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_move_as_the_terminal_shows_it_can_be_typed_back(game, lang):
    """A German Seven Waters player typed the moves `züge` listed (`nehmen 7-3`, `kanal 5♣`)
    and each was "nicht verstanden": the game showed German words but read only English."""
    import random
    from wasserspiele import load
    from wasserspiele.cli.play import read_move, show_move
    rng = random.Random(5)
    seen = 0
    for seed in range(3):
        state = load(game).new_game(seed=seed)
        while not state.is_terminal() and seen < 400 * (seed + 1):
            for seat in state.to_move():
                for action in state.legal_actions(seat):
                    shown = show_move(game, action, lang)
                    assert state.game.parse_action(read_move(game, shown, lang)) == action, (shown, str(action))
                    seen += 1
            seat = rng.choice(state.to_move())
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert seen > 300


def test_a_german_seven_waters_move_is_typed_as_the_moves_list_shows_it(run, tmp_path):
    save = tmp_path / "game.json"
    result = run("play", "seven_waters", "--seed", "12", "--lang", "de", "--save", str(save),
                 input="nehmen 7-3\nende\n")
    assert result.exit_code == 0, result.output
    assert json.loads(save.read_text())["actions"][0] == "take 7-3"


def test_a_letter_that_names_a_move_is_the_move_not_a_command(run, tmp_path):
    """`h` is the hint's short form and, while trump is named, hearts (the help says H = Herz)."""
    save = tmp_path / "game.json"
    result = run("play", "watten", "--option", "first_dealer=1", "--seed", "2", "--lang", "de",
                 "--save", str(save), input="h\nende\n")
    assert result.exit_code == 0, result.output
    assert json.loads(save.read_text())["actions"][0] == "trump H"
    result = run("play", "watten", "--option", "first_dealer=1", "--seed", "2", "--save", str(tmp_path / "game2.json"),
                 input="trump S\nsignal none\nh\nquit\n")  # no card is named h: the hint
    assert "hint:" in result.output


def test_a_save_that_fails_is_said_and_the_game_goes_on(run, tmp_path, monkeypatch):
    """A save that failed mid-game (a full disk) ended the game with a traceback.  The
    cause is said in the catalogue's words (tests/cli/test_saves.py has the other causes)."""
    import wasserspiele.core.paths as paths

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(paths, "open", full_disk, raising=False)
    result = run("play", "wasserloch", "--seed", "2", "--save", str(tmp_path / "game.json"), input="Ax1\nAx1\nquit\n")
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert out.count("could not save the game to") == 1 and "(the disk is full)" in out
    assert "You played Ax1" in out and "game not saved:" in out and "continue with" not in out


def test_resume_names_the_save_when_its_seats_are_bad(run, tmp_path):
    save = tmp_path / "game.json"
    assert run("play", "wasserloch", "--seed", "2", "--save", str(save), input="quit\n").exit_code == 0
    doc = json.loads(save.read_text())
    doc["session"]["seats"][1] = "bogus"
    save.write_text(json.dumps(doc))
    result = runner_result = CliRunner().invoke(main, ["play", "--resume", str(save)], input="quit\n")
    assert runner_result.exit_code == 2
    assert f"{save}: session.seats: unknown seat kind 'bogus'" in " ".join(result.output.split())


def test_scripted_human_moves_and_resume_continues_the_same_game(run, tmp_path):
    save = tmp_path / "game.json"
    result = run("play", "wasserloch", "--seed", "3", "--option", "rounds=1", "--save", str(save),
                 input="Ax2\nquit\n")
    assert result.exit_code == 0
    doc = json.loads(save.read_text())
    assert doc["actions"][0] == "Ax2" and len(doc["actions"]) == 3  # then both bots moved
    assert doc["options"] == {"rounds": 1}
    before = replay(doc)
    result = run("play", "--resume", str(save), "--seats", "random,random,random", "--seed", "1")
    assert result.exit_code == 0, result.output
    done = replay(json.loads(save.read_text()))
    assert done.is_terminal()
    assert done.record()["actions"][:3] == before.record()["actions"]
    assert done.record()["setup"]["decks"][0] == doc["setup"]["decks"][0]


def test_eof_on_input_saves_and_stops(run, tmp_path):
    save = tmp_path / "g.json"
    result = run("play", "wasserloch", "--seed", "3", "--save", str(save), input="")
    assert result.exit_code == 130
    assert save.exists()


@pytest.mark.parametrize(("args", "message"), [
    (["play", "chess"], "unknown game 'chess'"),
    (["play", "wasserloch", "--option", "chase=far"], "option chase"),
    (["play", "wasserloch", "--option", "speed=3"], "no option 'speed'"),
    (["play", "wasserloch", "--option", "rounds"], "expected key=value"),
    (["play", "wasserloch", "--players", "7"], "option players"),
    (["play", "wasserloch", "--seats", "human,robot,random"], "unknown seat kind 'robot'"),
    (["play", "wasserloch", "--players", "3", "--seats", "human,random"], "--seats: the game has 3 players, not 2"),
    (["play", "watten", "--seats", "human,random"], "--seats: the game has 4 players, not 2"),
    (["play", "wasserloch", "--seats", "human,easy,easy,easy,easy"], "--seats: wasserloch is for 2 to 4 players, not 5"),
    (["play", "watten", "--players", "3"], "watten is for exactly 4 players"),
    (["play", "wasserloch", "--seats", "human,hard:iterations=0,random"], "bot spec 'hard:iterations=0'"),
    (["play", "wasserloch", "--seats", "human,ismcts:depth=3,random"], "the ismcts bot has no setting 'depth' (its settings: iterations,"),
    (["play"], "name a game"),
    (["rules", "chess"], "unknown game"),
])
def test_bad_input_exits_2_with_a_message(run, args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["play", "chess"], "Fehler: es gibt kein Spiel namens „chess“ (Spiele: "),
    (["rules", "chess"], "Fehler: es gibt kein Spiel namens „chess“"),
    (["play", "wildwasser", "--players", "9"], "Fehler: Option „Spieler“ (players): 9 liegt über dem Höchstwert 6"),
    (["play", "watten", "--seats", "human,robot,easy,easy"], "Fehler: --seats: unbekannte Platzart „robot“ (human, Bots: "),
    (["play", "watten", "--seats", "human,easy"], "Fehler: --seats: das Spiel hat 4 Spieler, nicht 2"),
    (["play", "wildwasser", "--seats", "human,easy,easy,easy,easy,easy,easy"],
     "Fehler: --seats: wildwasser ist für 2 bis 6 Spieler, nicht 7"),
    (["play", "watten", "--players", "3"], "Fehler: watten ist für genau 4 Spieler"),
    (["play"], "Fehler: nenne ein Spiel, z. B. "),  # the command as typed: ./dev or wasserspiele
    (["play", "--resume", "x.json", "--players", "3"], "Fehler: --resume setzt ein gespeichertes Spiel fort"),
])
def test_a_refused_command_line_is_said_in_german_under_lang_de(run, args, message):
    """`--lang de` played the game in German but refused its command line in English
    ("Error: unknown game 'chess'", "names 2 seat(s) but the game has 4 players")."""
    result = run(*args, "--lang", "de")
    assert result.exit_code == 2
    assert message in " ".join(result.output.split()), result.output


def test_a_game_for_several_player_counts_is_played_by_as_many_as_seats_names(run, tmp_path):
    """`--seats human,human,easy` for Wildwasser (2-6 players, default 4) was refused
    ("names 3 seat(s) but the game has 4 players") unless --players 3 was given too."""
    save = tmp_path / "g.json"
    result = run("play", "wildwasser", "--seats", "human,human,easy", "--seed", "2", "--save", str(save),
                 input="\nquit\n")
    assert result.exit_code == 0, result.output
    doc = json.loads(save.read_text())
    assert doc["players"] == 3 and doc["session"]["seats"] == ["human", "human", "easy"]
    result = run("play", "wasserloch", "--option", "players=3", "--seats", "human,easy")  # said twice: one wins
    assert result.exit_code == 2 and "the game has 3 players, not 2" in result.output


@pytest.mark.parametrize("args", [
    ["play", "wasserloch", "--seats", "human,easy,easy", "--save", "{f}/game.json"],
    ["lab", "wasserloch", "--games", "3", "--out", "{f}/report"],
    ["lab", "tune", "wasserloch", "--vary", "rounds=1,2", "--goal", "shorter", "--out", "{f}/tune"],
    ["leaderboard", "wasserloch", "--bots", "easy,medium", "--out", "{f}/page.md"],
    ["leaderboard", "wasserloch", "--bots", "easy,medium", "--data", "{f}/boards.json"],
    ["train", "wasserloch", "--out", "{f}/weights.npz"],
    ["train", "wasserloch", "--out", "w.npz", "--positions", "{f}/positions.npz"],
    ["corpus", "wasserloch", "--out", "{f}/corpus"],
])
def test_a_file_or_folder_that_cannot_be_written_is_refused_before_any_game(run, tmp_path, monkeypatch, args):
    """A path below a file (a typo, a name taken) used to end the command with a traceback
    once its games were played or its network trained, and the work was lost."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "taken").write_text("")
    result = run(*[a.format(f="taken") for a in args], input="quit\n")
    assert result.exit_code == 2, result.output
    assert "nothing can be written there: taken is a file, not a folder" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]  # nothing played, nothing written


def test_a_game_saved_into_a_new_folder_makes_the_folder(run, tmp_path):
    result = run("play", "wasserloch", "--players", "2", "--seats", "human,easy", "--seed", "1",
                 "--save", str(tmp_path / "games" / "mine.json"), input="quit\n")
    assert result.exit_code == 0, result.output
    assert read_record(tmp_path / "games" / "mine.json")["game"] == "wasserloch"


def _finished_record(tmp_path):
    from wasserspiele.bots.match import play_game
    from wasserspiele.bots.random_bot import RandomBot
    from wasserspiele import load
    game = load("wasserloch", rounds=1)
    result = play_game(game, [RandomBot(1), RandomBot(2), RandomBot(3)], seed=5)
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(result.state.record()))
    return path, result


def test_replay_json_matches_the_spec_shape(run, tmp_path):
    path, result = _finished_record(tmp_path)
    out = run("replay", str(path), "--json")
    assert out.exit_code == 0
    data = json.loads(out.output)
    assert set(data) == {"game", "terminal", "to_move", "scores", "winners", "actions_applied", "state"}
    assert data["terminal"] is True and data["to_move"] == []
    assert data["scores"] == result.scores and data["winners"] == result.winners


def test_replay_text_shows_the_result(run, tmp_path):
    path, _ = _finished_record(tmp_path)
    out = run("replay", str(path))
    assert out.exit_code == 0 and "Result" in out.output


def test_replay_of_an_unfinished_record_resumes_position(run, tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"format": "wasserspiele-record/1", "game": "wasserloch", "seed": 1, "actions": []}))
    data = json.loads(run("replay", str(path), "--json").output)
    assert data["terminal"] is False and data["to_move"] == [0] and data["winners"] == []
    assert "waiting for seat 0" in run("replay", str(path)).output
    # a Wildwasser board names its players by letter, and so does the line under it
    path.write_text(json.dumps({"format": "wasserspiele-record/1", "game": "wildwasser", "players": 2, "seed": 1}))
    assert "am Zug: Spieler A, Spieler B" in " ".join(run("replay", str(path), "--lang", "de").output.split())
    path.write_text("{}")
    assert run("replay", str(path), "--lang", "de").output.startswith("Fehler: game: fehlt")


def test_replay_illegal_action_exits_1_naming_index_action_seat_and_reason(run, tmp_path):
    path, result = _finished_record(tmp_path)
    doc = json.loads(path.read_text())
    state = replay({**doc, "actions": doc["actions"][:5]})
    seat = state.current_seat
    held = state.hands[seat]
    value = next(v for v in range(8) if held[v] < 3)
    bad = f"{'A2345678'[value]}x{held[value] + 1}"
    doc["actions"][5] = bad
    path.write_text(json.dumps(doc))
    out = run("replay", str(path), "--json")
    assert out.exit_code == 1
    assert f'action 5 "{bad}" by seat {seat}: ' in out.output and " in hand" in out.output
    assert "{" not in out.output  # nothing printed as a final position
    # in German the whole line is German (it said "error: action 5 … seat 0 holds only …")
    out = " ".join(run("replay", str(path), "--lang", "de").output.split())
    assert out.startswith(f"Fehler: Aktion 5 „{bad}“ von Platz {seat}: ") and "in hand" not in out, out
    doc["actions"][5] = "zebra"  # and a move that is no move
    path.write_text(json.dumps(doc))
    out = " ".join(run("replay", str(path), "--lang", "de").output.split())
    assert out.startswith("Fehler: Aktion 5 „zebra“ von Platz") and "ist kein Zug" in out, out


@pytest.mark.parametrize(("doc", "field"), [
    ("not json", "not valid JSON"),
    ('["a"]', "must be a JSON object"),
    ('{"game": "chess", "seed": 1, "actions": []}', "game: unknown game"),
    ('{"game": "wasserloch", "seed": 1, "actions": "7x2"}', "actions: must be a list"),
    ('{"game": "wasserloch", "actions": []}', "setup: give exactly one of setup or seed"),
    ('{"game": "wasserloch", "setup": {"decks": [["A"]]}, "actions": []}', "setup.decks[0]"),
    ('{"game": "wasserloch", "players": "3", "seed": 1, "actions": []}', "players: must be an integer"),
    ('{"game": "wasserloch", "options": {"rounds": 0}, "seed": 1, "actions": []}', "options: option rounds"),
    ('{"game": "wasserloch", "seed": 1, "actions": [], "extra": 1}', "extra: unknown field"),
])
def test_replay_malformed_record_exits_2_naming_the_field(run, tmp_path, doc, field):
    path = tmp_path / "bad.json"
    path.write_text(doc)
    out = run("replay", str(path), "--json")
    assert out.exit_code == 2
    assert field in out.output


def test_replay_missing_file_exits_2(run, tmp_path):
    out = run("replay", str(tmp_path / "nope.json"))
    assert out.exit_code == 2 and "cannot read" in out.output


def test_a_record_file_that_cannot_be_read_is_said_in_german_under_lang_de(run, tmp_path):
    """`replay --lang de` and `play --resume` in German said "cannot read (No such file or
    directory)" and "not valid JSON" in English."""
    missing = str(tmp_path / "nope.json")
    out = run("replay", missing, "--lang", "de")
    assert out.exit_code == 2 and out.output.strip() == f"Fehler: {missing}: diese Datei gibt es nicht", out.output
    out = run("play", "--resume", missing, "--lang", "de")
    assert out.exit_code == 2 and f"Fehler: {missing}: diese Datei gibt es nicht" in out.output
    bad = tmp_path / "bad.json"
    bad.write_text("{bad")
    out = " ".join(run("replay", str(bad), "--lang", "de").output.split())
    assert out.startswith(f"Fehler: {bad}: kein gültiges JSON in Zeile 1, Spalte 2 ("), out


@pytest.mark.parametrize("lang", ["en", "de"])
def test_rules_in_both_languages(run, lang):
    from wasserspiele.core.rules_text import player_rules
    out = run("rules", "wasserloch", "--lang", lang)
    assert out.exit_code == 0
    rules = player_rules("wasserloch", lang)  # the web's rules pages
    assert out.output.startswith(rules[:rules.index("\n## ")])  # the same text, up to its sections
    assert ("Driving off" in out.output) if lang == "en" else ("Vertreiben" in out.output)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", ["wasserloch", "seven_waters", "watten", "wildwasser"])
def test_rules_in_the_terminal_say_how_moves_are_typed_not_tapped(run, game, lang):
    """The rules pages' sections about the web table (tap a card, what the page shows) are
    left out in the terminal, which says instead how moves are typed there; every other
    section, the options included, is the rules page's."""
    from wasserspiele.core.rules_text import TABLE_SECTIONS, player_rules
    out = run("rules", game, "--lang", lang).output
    page = player_rules(game, lang)
    headings = [line for line in page.splitlines() if line.startswith("## ")]
    table = [h for h in headings if h[3:] in TABLE_SECTIONS[lang]]
    assert len(table) == 2, headings  # every rules page has both: their titles are as TABLE_SECTIONS says
    for h in headings:
        assert (h in out) is (h not in table), h
    tapped = ("Tap ", "tap ", "Tippe", "tippe", "antippen")
    assert any(t in page for t in tapped)  # the page itself says so
    assert not any(t in out for t in tapped)
    assert ("## In the terminal" if lang == "en" else "## Im Terminal") in out
    assert f"wasserspiele play {game} --option" in out


def test_games_lists_every_game_and_option(run):
    out = run("games")
    assert "wasserloch  (Wasserloch, 2-4 players)" in out.output and "chase" in out.output
    assert "seven_waters  (Seven Waters, 2 players)" in out.output
    assert "moves: VALUExCOUNT" in out.output
    german = run("games", "--lang", "de").output  # was "(Sieben Wasser, 2 players)", "moves:", "default"
    assert "seven_waters  (Seven Waters, 2 Spieler)" in german and "Standard 7" in german
    assert not re.search(r"players\)|moves:|\bdefault\b", german), german  # option names stay names


def test_python_dash_m_runs_the_same_command():
    """`python -m wasserspiele` (a venv whose scripts are not on PATH) is the command,
    under its own name in the usage line."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "wasserspiele", "games"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "wasserloch  (Wasserloch, 2-4 players)" in out.stdout
    bad = subprocess.run([sys.executable, "-m", "wasserspiele", "nonsense"], capture_output=True, text=True)
    assert bad.returncode == 2 and "Usage: wasserspiele " in bad.stderr, bad.stderr


def test_a_spawned_worker_importing_the_main_module_runs_no_command():
    """The server's bot workers are spawned: each imports the parent's main module (here
    `wasserspiele.__main__`, under `python -m wasserspiele serve`) as `__mp_main__`; it
    must not run the command again in every worker."""
    import runpy

    runpy.run_module("wasserspiele", run_name="__mp_main__")  # the command would exit (SystemExit)


def test_replay_agrees_with_the_spec_on_a_record_written_by_hand(run, tmp_path):
    # records.md's shape, written here by hand: two players, one round; the deck puts
    # A A A 2 2 in seat 0's hand, 8 8 3 3 4 in seat 1's, then the pile starts 5 5 6 6 7
    head = ["A", "A", "A", "2", "2", "8", "8", "3", "3", "4", "5", "5", "6", "6", "7"]
    rest = [v for v in "A2345678" for _ in range(8)]
    for v in head:
        rest.remove(v)
    doc = {"format": "wasserspiele-record/1", "game": "wasserloch", "rules_version": "1",
           "players": 2, "options": {"rounds": 1}, "setup": {"decks": [head + rest]},
           "actions": ["2x2", "8x2", "Ax3"]}
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(doc))
    out = run("replay", str(path), "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    # seat 0 lays two 2s (nothing lower), seat 1 two 8s, seat 0 three aces: the 8s go (WL-4.3)
    assert data["scores"] == [2, 0] and data["to_move"] == [1] and data["terminal"] is False
    assert data["actions_applied"] == 3
    assert data["state"]["waterhole"] == {"A": 3, "2": 2}
    # draws refill in turn from the pile: seat 0 took 5 5, seat 1 6 6, seat 0 7 A A
    assert data["state"]["hands"] == [{"A": 2, "5": 2, "7": 1}, {"3": 2, "4": 1, "6": 2}]


def test_hint_shows_the_strongest_bots_choice_and_alternatives_with_values(run):
    result = run("play", "wasserloch", "--seed", "3", "--option", "rounds=1", input="hint\nquit\n")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("hint:"))
    best = lines[at].removeprefix("hint: ")
    others = " ".join(lines[at + 1:at + 5])
    # "Ax2 (about 61% of a win on average in 1234 simulated games)": the value in words
    assert best.split()[0] in "Ax1, Ax2, 3x1, 3x2, 4x1".split(", ")
    assert re.search(r"about \d+% of a win on average in \d+ simulated games", best)
    assert "alternatives:" in others and others.count("% of a win") >= 1


def test_hint_in_german(run):
    result = run("play", "wasserloch", "--seed", "3", "--option", "rounds=1", "--lang", "de", input="hint\nquit\n")
    assert "Tipp:" in result.output and "simulierten Partien" in result.output
    assert re.search(r"Gewinnchance im Schnitt etwa \d+\s%, aus \d+ simulierten Partien", result.output)  # German percent: a (non-breaking) space before %


def test_hint_for_a_watten_signal_gives_the_convention_without_a_value(run):
    # seat 3 calls and signals first; seat 0's first decision is its signal (WA-5)
    result = run("play", "watten", "--seats", "human,random,random,random", "--seed", "1", input="hint\nquit\n")
    line = next(x for x in result.output.splitlines() if x.startswith("hint:"))
    assert line.startswith("hint: signal ") and "no search" in line
    assert "%" not in line


def test_replay_keeps_simultaneous_picks_taken_out_of_seat_order(run, tmp_path):
    """Records name the seat of a simultaneous pick (records.md): a game whose picks came
    in any order replays through the command to the same position, mid-phase too."""
    import random

    from wasserspiele import load
    game = load("wildwasser", players=3)
    state = game.new_game(seed=8)
    rng = random.Random(8)
    while not state.is_terminal() and len(state.history) < 40:
        seat = rng.choice(state.to_move())
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    # a pick of seat 1 or 2 taken while lower seats were still to pick
    assert any(text.startswith(("1:", "2:")) for text in state.record_actions())
    path = tmp_path / "picks.json"
    path.write_text(json.dumps(state.record()))
    out = run("replay", str(path), "--json")
    assert out.exit_code == 0, out.output
    summary = json.loads(out.output)
    assert summary["state"] == json.loads(json.dumps(state.state_json()))
    assert summary["to_move"] == list(state.to_move())


def test_hint_shows_the_searched_alternatives_when_the_expert_is_a_guided_search(run, monkeypatch):
    # Seven Waters' expert is the search guided by the learned network (bots/levels.py)
    import wasserspiele.fast as fast
    monkeypatch.setattr(fast, "COMPILED", True)
    result = run("play", "seven_waters", "--seed", "3", input="hint\nquit\n")
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.startswith("hint:"))
    assert re.search(r"about \d+% of a win on average in \d+ simulated games", line)


def test_the_lab_s_usage_names_the_command_as_typed(run):
    """`lab GAME` runs the hidden `study` command; its usage said `wasserspiele lab study`."""
    out = run("lab", "wasserloch", "--help").output
    assert out.splitlines()[0].endswith(" lab [OPTIONS] GAME") and "lab study" not in out


def test_players_sharing_a_screen_leave_nothing_in_the_scrollback(run, monkeypatch):
    """Between hot-seat turns the screen was cleared (ESC[2J) but not the scrollback, so
    the next player could scroll up to the last player's hand or secret pick."""
    import io

    from wasserspiele.cli import play
    from wasserspiele.cli.console import clear_screen, make_console

    out = io.StringIO()
    clear_screen(make_console(file=out, force_terminal=True))
    assert "\x1b[2J" in out.getvalue() and "\x1b[3J" in out.getvalue()
    quiet = io.StringIO()
    clear_screen(make_console(file=quiet))  # not a terminal (a pipe, a file): no control codes
    assert quiet.getvalue() == ""
    cleared = []
    monkeypatch.setattr(play, "clear_screen", lambda console: cleared.append(console))
    run("play", "wasserloch", "--seats", "human,human", "--seed", "3", input="\nquit\n")
    assert cleared, "the hot-seat turn did not clear the screen and scrollback"
