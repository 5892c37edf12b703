"""The terminal in German and English (issue 14): no English on a German screen, German
words and cards typed and shown, saves that keep their seats, every event narrated."""

from __future__ import annotations

import json
import random
import re

import pytest
from rich.text import Text

from wasserspiele.cli.main import rules_path
from wasserspiele.cli.play import PlaySession, command_word, resume_command
from wasserspiele.cli.render import renderer
from wasserspiele.core.words import read_words, show_words
from wasserspiele.core.records import read_record, replay
from wasserspiele.core.registry import load

SHIPPED = ("wasserloch", "seven_waters", "watten", "wildwasser")  # games with catalogue entries

# Words of English sentences that German text never contains (German words such as
# Hand, Team, Zebra, Bot, die, also are deliberately absent).
ENGLISH = {"the", "you", "your", "and", "seat", "seats", "round", "card", "cards", "played", "took", "from",
           "with", "has", "have", "must", "holds", "hold", "pile", "loot", "waterhole", "winner", "winners",
           "result", "total", "trick", "tricks", "score", "none", "weak", "medium", "strong", "trump",
           "slide", "slides", "river", "pool", "theme", "discard", "discarded", "pass", "passed", "take",
           "pick", "move", "moves", "action", "sun", "player", "points", "field", "finish", "rolls", "lands",
           "pushes", "is", "are", "not", "no", "of", "to", "at", "on", "it", "this", "only", "already", "its",
           "left", "turns", "turn", "line", "lazy", "wave", "empty", "dealer", "caller", "hand's", "won",
           "raised", "accepted", "conceded", "signalled", "caught", "game", "over", "draw", "shared", "win",
           "next", "first", "bank", "crossing", "slot", "stack", "podiums", "revealed", "picked",
           "still", "picking", "nothing", "happens", "flows", "forward", "back", "cheetah", "rhino", "meerkat",
           "turtle", "ace", "aces", "jack", "queen", "king", "clubs", "spades", "hearts", "diamonds"}
_WORD = re.compile(r"[A-Za-z']+")


def english_words(text: str) -> set[str]:
    plain = Text.from_markup(text).plain
    return {w for w in _WORD.findall(plain) if w.lower() in ENGLISH}


def _sweep(name: str, seed: int, lang: str = "de"):
    """Texts a German terminal player would read along a seeded random game: every view of
    the seat to move, what happened, its moves as shown, refusals of illegal moves, the end."""
    game = load(name)
    r = renderer(name)
    rng = random.Random(seed)
    state = game.new_game(seed=seed)
    seen_actions: list = []
    while not state.is_terminal():
        seat = state.current_seat
        view = state.view(seat)
        yield r.render_view(view, lang)
        yield r.describe_last(view, lang)
        legal = list(state.legal_actions(seat))
        show = getattr(r, "show_action", None)
        if show:
            yield " ".join(show(str(a), lang) for a in legal)
        for other in rng.sample(seen_actions, min(3, len(seen_actions))):
            reason = state.why_illegal(other, seat)
            if reason is not None:
                yield reason.render(lang)
        action = rng.choice(legal)
        seen_actions.append(action)
        state.apply(action, seat)
        if hasattr(r, "describe_own"):
            yield r.describe_own(state.view(seat), lang)
    for seat in [None, *range(game.players)]:
        view = state.view(seat)
        yield r.describe_last(view, lang)
        yield r.render_view(view, lang)
        yield r.render_result(view, lang)
    if hasattr(r, "legend"):
        yield r.legend(state.view(None), lang)


@pytest.mark.parametrize("name", SHIPPED)
def test_a_german_game_shows_no_english_sentence(name):
    for seed in (1, 2):
        for text in _sweep(name, seed):
            found = english_words(text)
            assert not found, f"English {sorted(found)} in: {Text.from_markup(text).plain}"


@pytest.mark.parametrize("name", SHIPPED)
def test_the_english_sweep_finds_english(name):
    """The detector works: the same game in English trips it."""
    assert any(english_words(t) for t in _sweep(name, 1, "en"))


# -- German words, cards and commands ----------------------------------------------------
def test_german_commands_are_accepted_beside_english():
    assert [command_word(w) for w in ("hilfe", "tipp", "züge", "ende", "help", "hint", "moves", "quit", "?")] == \
        ["help", "hint", "moves", "quit", "help", "hint", "moves", "quit", "help"]
    assert command_word("nehmen") is None


@pytest.mark.parametrize("game, typed, notation", [
    ("watten", "trumpf H", "trump H"), ("watten", "trumpf Herz", "trump H"), ("watten", "trumpf kr", "trump C"),
    ("watten", "signal stark", "signal strong"), ("watten", "zwicken keins", "signal none"),
    ("watten", "annehmen", "accept"), ("watten", "BKr", "JC"), ("watten", "B♣", "JC"), ("watten", "10h", "TH"),
    ("watten", "DKa", "QD"), ("watten", "AP", "AS"), ("watten", "JC", "JC"), ("watten", "raise", "raise"),
    ("seven_waters", "nehmen 7-1", "take 7-1"), ("seven_waters", "abwerfen Jk2 5♥", "discard X2 5H"),
    ("seven_waters", "kanal 9H Jk1=10 BH", "river 9H X1=T JH"), ("seven_waters", "becken 5H Jk1=Herz", "pool 5H X1=H"),
    ("wildwasser", "wählen gepard", "pick cheetah"), ("wildwasser", "ziehen schildkröte", "move turtle"),
])
def test_german_move_words_and_cards_read_as_notation(game, typed, notation):
    read = getattr(renderer(game), "read_action", None)
    text = read(typed, "de") if read else read_words(game, typed, "de")
    assert text == notation
    load(game).parse_action(text)  # and it is valid notation


def test_moves_are_shown_as_german_players_type_them():
    w = renderer("watten")
    assert w.show_action("trump H", "de") == "trumpf Herz" and w.show_action("JC", "de") == "B♣"
    assert w.show_action("signal strong", "de") == "signal stark"
    assert w.read_action(w.show_action("TD", "de"), "de") == "TD"
    sw = renderer("seven_waters")
    assert sw.show_action("discard X2 TH", "de") == "abwerfen Jk2 10♥"
    assert sw.show_action("discard X2 TH", "en") == "discard Jk2 TH"
    assert show_words("wasserloch", "Ax2", "de") == "Ax2"


def test_wildwasser_accepts_the_player_letters_it_shows():
    ww = renderer("wildwasser")
    assert ww.show_action("action 1", "en") == "action B" and ww.show_action("marker 2", "de") == "marker C"
    assert ww.read_action("action B", "en") == "action 1" and ww.read_action("aktion b", "de") == "action 1"
    assert ww.seat_name(2, "de") == "Spieler C"


def test_seven_waters_accepts_the_joker_as_shown():
    game = load("seven_waters")
    assert str(game.parse_action("discard Jk2")) == "discard X2"
    assert str(game.parse_action("theme T♥")) == "theme TH"


def test_seven_waters_last_turn_is_said_in_words():
    r = renderer("seven_waters")
    state = load("seven_waters").new_game(seed=1)
    view = state.view(0)
    view["final_turns_left"] = 0
    text = Text.from_markup(r.render_view(view, "en")).plain
    assert "this is the last turn" in text and "left: 0" not in text
    view["final_turns_left"] = 1
    assert "noch 2 Züge, dieser mitgezählt" in r.render_view(view, "de")


def test_wasserloch_german_plurals_and_rounds():
    r = renderer("wasserloch")
    view = {"seat": 0, "players": 3, "round": 1, "last_mover": 2,
            "last": [None, {"play": "Ax3", "drove_off": "8", "loot": 1, "round": 1, "move": 1},
                     {"play": "5x3", "drove_off": "A", "loot": 2, "round": 1, "move": 2}]}
    view["recent"] = [{**view["last"][1], "seat": 1}, {**view["last"][2], "seat": 2}]
    text = r.describe_last(view, "de")
    assert "Platz 1 legte Ax3 und vertrieb die 8er: 1 Karte Beute" in text
    assert "Platz 2 legte 5x3 und vertrieb die Asse: 2 Karten Beute" in text
    view["last"][0] = {"play": "7x3", "drove_off": "5", "loot": 3, "round": 1, "move": 3}
    assert r.describe_own(view, "en") == "You played 7x3 and drove off the 5s: 3 cards of loot for you"
    final = {"players": 2, "loot": [[1, 2]], "scores": [1, 2], "winners": [1]}
    result = Text.from_markup(r.render_result(final, "de")).plain
    assert re.search(r"^Durchgang 1 +1 +2", result, re.M), result


# -- the terminal session ---------------------------------------------------------------
def _first_human_move(seats: str, seed: int, game: str = "wasserloch") -> tuple[str, int]:
    """The notation of the human seat's first legal move in the game `play` will run."""
    session = PlaySession.create(game, None, seats, seed, ["rounds=1"] if game == "wasserloch" else [],
                                 None, None, "en")
    state = session.state
    while session.kinds[state.current_seat] != "human":
        seat = state.current_seat
        from wasserspiele.bots.base import decision_for
        state.apply(session.bots[seat].choose(decision_for(state, seat)), seat)
    return str(state.legal_actions(state.current_seat)[0]), state.current_seat


def test_resume_restores_seats_and_language(run, tmp_path):
    save = tmp_path / "f.json"
    seats = "heuristic,human,random"
    move, seat = _first_human_move(seats, 5)
    assert seat == 1
    first = run("play", "wasserloch", "--seats", seats, "--seed", "5", "--option", "rounds=1", "--lang", "de",
                "--save", str(save), input=f"{move}\nende\n", env={"WASSERSPIELE_LAUNCHER": "./dev"})
    assert first.exit_code == 0, first.output
    doc = json.loads(save.read_text())
    bots = doc["session"].pop("bots")  # the bots' generators, to go on as they were (test_resume_bots)
    assert doc["session"] == {"seats": ["heuristic", "human", "random"], "lang": "de"} and set(bots) == {"0", "2"}
    assert f"./dev play --resume {save}" in " ".join(first.output.split())
    made = len(doc["actions"])
    again = run("play", "--resume", str(save), input="ende\n")
    assert again.exit_code == 0, again.output
    assert "Platz 1 – dein Zug" in again.output and "Platz 1 (du)" in again.output  # the same seat, in German
    assert "Platz 0 – dein Zug" not in again.output
    assert "Wasserloch fortgesetzt nach" in again.output and "Platz 1: Mensch" in again.output
    doc = json.loads(save.read_text())
    assert doc["session"]["seats"] == ["heuristic", "human", "random"]
    assert len(doc["actions"]) >= made  # the bots before seat 1 moved again; nothing was lost
    state = replay(read_record(save), rng=random.Random(0))
    assert state.current_seat == 1


def test_resume_with_explicit_seats_changes_them(run, tmp_path):
    save = tmp_path / "f.json"
    run("play", "wasserloch", "--seats", "human,random,random", "--seed", "2", "--option", "rounds=1",
        "--save", str(save), input="quit\n")
    result = run("play", "--resume", str(save), "--seats", "random,human,random", input="quit\n")
    assert result.exit_code == 0 and "Seat 1 – your move" in result.output
    assert json.loads(save.read_text())["session"]["seats"] == ["random", "human", "random"]


def test_resuming_a_plain_record_asks_for_the_seats(run, tmp_path):
    save = tmp_path / "f.json"
    run("play", "wasserloch", "--seats", "human,random,random", "--seed", "2", "--save", str(save), input="quit\n")
    doc = json.loads(save.read_text())
    del doc["session"]
    save.write_text(json.dumps(doc))
    result = run("play", "--resume", str(save))
    assert result.exit_code == 2 and "--seats" in result.output


def test_the_continue_hint_names_the_installed_command_by_default(monkeypatch):
    monkeypatch.delenv("WASSERSPIELE_LAUNCHER", raising=False)
    assert resume_command("my game.json") == "wasserspiele play --resume 'my game.json'"
    monkeypatch.setenv("WASSERSPIELE_LAUNCHER", "./dev")
    assert resume_command("f.json") == "./dev play --resume f.json"


@pytest.mark.parametrize("name", SHIPPED)
def test_the_final_moves_appear_in_the_transcript_of_an_all_bot_game(run, tmp_path, name):
    players = load(name).players
    save = tmp_path / "g.json"
    options = ["--option", "rounds=1"] if name == "wasserloch" else ["--option", "target=2"] if name == "watten" else []
    result = run("play", name, "--seats", ",".join(["random"] * players), "--seed", "4", "--save", str(save), *options)
    assert result.exit_code == 0, result.output
    state = replay(read_record(save))
    assert state.is_terminal()
    final = renderer(name).describe_last(state.view(None), "en")
    assert final
    transcript = " ".join(result.output.split())
    for line in final.splitlines():
        assert " ".join(Text.from_markup(line).plain.split()) in transcript
    if name == "seven_waters":  # the result table once
        assert transcript.count("Total") == 1


def test_your_own_move_is_reported(run):
    move, _ = _first_human_move("human,random,random", 3)
    result = run("play", "wasserloch", "--seats", "human,random,random", "--seed", "3", "--option", "rounds=1",
                 input=f"{move}\nquit\n")
    assert f"You played {move}" in result.output


def test_watten_help_has_the_rank_legend_and_german_words(run):
    result = run("play", "watten", "--seats", "human,random,random,random", "--seed", "1", "--lang", "de",
                 input="hilfe\nende\n")
    text = " ".join(result.output.split())
    assert "Trumpfbube" in text and "B(ube)" in text and "trump = trumpf" in text and "tipp" in text


def test_rules_text_for_players_is_preferred_when_present(tmp_path):
    (tmp_path / "RULES.md").write_text("reference")
    (tmp_path / "RULES.de.txt").write_text("seed")
    assert rules_path(tmp_path, "de").name == "RULES.de.txt"
    (tmp_path / "rules.de.md").write_text("für Spieler")
    assert rules_path(tmp_path, "de").name == "rules.de.md"
    assert rules_path(tmp_path, "en").name == "RULES.md"
    assert rules_path(tmp_path / "none", "en") is None


def test_seven_waters_reports_your_own_take():
    state = load("seven_waters").new_game(seed=1)
    take = next(a for a in state.legal_actions(0) if str(a).startswith("take"))
    state.apply(take, 0)
    text = renderer("seven_waters").describe_own(state.view(0), "de")
    # SW-4: one's own move is told to one, in the second person
    assert text.startswith("Du hast ") and text.endswith(" genommen") and str(take).split()[-1] in text, (text, take)


def test_wasserloch_tells_the_play_that_ended_the_round_before_the_new_round():
    r = renderer("wasserloch")
    view = {"seat": 0, "players": 3, "round": 2, "start_player": 1, "last_mover": 1,
            "last": [{"play": "7x1", "drove_off": None, "loot": 0, "round": 1, "move": 10},
                     {"play": "3x1", "drove_off": None, "loot": 0, "round": 2, "move": 13},
                     {"play": "8x3", "drove_off": "7", "loot": 1, "round": 1, "move": 12}]}
    view["recent"] = [{**view["last"][0], "seat": 0}, {"play": "6x1", "drove_off": None, "loot": 0, "round": 1,
                                                       "move": 11, "seat": 1},
                      {**view["last"][2], "seat": 2}, {**view["last"][1], "seat": 1}]
    assert r.describe_last(view, "en").splitlines() == [
        "Seat 1 played 6x1",  # WL-5.5: seat 1 plays again first in round 2; both plays are told
        "Seat 2 played 8x3 and drove off the 7s: 1 card of loot",
        "Round 2 begins; seat 1 starts",
        "Seat 1 played 3x1"]


def test_german_terminal_says_why_a_move_is_not_understood(run):
    """Text that is no move: the game's reason in German (it was a generic sentence, the
    reason English only), quoting what the player typed; English keeps its words."""
    seats = "human,random,random"
    de = run("play", "wasserloch", "--seats", seats, "--seed", "3", "--lang", "de", "--option", "rounds=1",
             input="Ax0\nende\n")
    text = " ".join(de.output.split())
    assert "nicht verstanden: „Ax0“: die Anzahl muss eine Zahl von 1 bis 8 sein (hilfe zeigt die Befehle, " \
           "züge die erlaubten Züge)" in text, text
    line = text[text.index("nicht verstanden"):text.index("erlaubten Züge")]
    assert not english_words(line), line
    en = run("play", "wasserloch", "--seats", seats, "--seed", "3", "--option", "rounds=1", input="Ax0\nquit\n")
    assert "not understood: 'Ax0': the count must be a number from 1 to 8" in " ".join(en.output.split())
    sw = run("play", "seven_waters", "--seats", "human,random", "--seed", "1", "--lang", "de",
             input="nehmen 9-9\nende\n")
    assert "nicht verstanden: „nehmen 9-9“: die Pyramide hat die Reihen 1-7" in " ".join(sw.output.split())


@pytest.mark.parametrize("lang,said", [("en", "not understood: '7♠': unknown action '7♠'"),
                                       ("de", "nicht verstanden: „7♠“: unbekannte Aktion „7♠“")])
def test_a_refusal_quotes_the_card_as_typed_not_the_notation_read_from_it(run, lang, said):
    """`7♠` typed is read as the notation's `7S`; the refusal quoted `7S` (the unknown
    verb in both languages, the whole text in English), which the player never typed."""
    result = run("play", "seven_waters", "--seats", "human,random", "--seed", "2", "--lang", lang,
                 input="7♠\nquit\n")
    text = " ".join(result.output.split())
    assert said in text, text
    assert "7S" not in text[text.index(said[:12]):][:80]
