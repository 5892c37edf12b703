"""Refusals of bot specs (bots/specs.py, registry.py, levels.py) and of record files
(core/records.py, core/schema.py) are catalogue codes: said in the reader's language,
quoting what was typed or what the file holds as that language quotes ('x', „x“, the
catalogue's term `quote`), never with Python's repr.  A record's field paths
(`actions[1]`, `options.players`) are data and stay as the document spells them."""

from __future__ import annotations

import json
from typing import Literal

import pytest
from pydantic import Field

from wasserspiele.bots.levels import level_settings
from wasserspiele.bots.registry import make_bot
from wasserspiele.bots.specs import check_spec, parse_bot_spec
from wasserspiele.core.errors import BadOption, BadRecord
from wasserspiele.core.messages import Reason, render
from wasserspiele.core.registry import load
from wasserspiele.core.schema import Schema, validate


def said(result) -> str:
    return " ".join(result.output.split())


# -- bot specs on `play --seats` -------------------------------------------------------
SEATS = [  # (game, --seats, English, German)
    ("watten", "human,hard:iterations=0,random,random",
     "Error: bot spec 'hard:iterations=0' (hard is the heuristic bot for watten): the watten heuristic bot has no "
     "switchable traits (it takes only blunder)",
     "Fehler: Bot-Angabe „hard:iterations=0“ (hard ist bei watten der Bot heuristic): der heuristic-Bot von watten "
     "hat keine einstellbaren Eigenschaften (er nimmt nur blunder an)"),
    # every level says which bot it is, also where the level's bot is the same in every game
    # (the refusal named "the random bot", which the player never asked for)
    ("wasserloch", "human,easy:iterations=5,random",
     "Error: bot spec 'easy:iterations=5' (easy is the random bot for wasserloch): the random bot has no setting "
     "'iterations' (its settings: blunder)",
     "Fehler: Bot-Angabe „easy:iterations=5“ (easy ist bei wasserloch der Bot random): der Bot random hat keine "
     "Einstellung „iterations“ (seine Einstellungen: blunder)"),
    ("wasserloch", "human,ismcts:depth=3,random",
     "Error: bot spec 'ismcts:depth=3': the ismcts bot has no setting 'depth' (its settings: iterations,",
     "Fehler: Bot-Angabe „ismcts:depth=3“: der Bot ismcts hat keine Einstellung „depth“ (seine Einstellungen: "
     "iterations,"),
    # the search's own check, as for iterations=0 (one refusal per setting)
    ("wasserloch", "human,ismcts:iterations=abc,random",
     "Error: bot spec 'ismcts:iterations=abc': iterations must be a whole number from 1 to 1000000, not 'abc'",
     "Fehler: Bot-Angabe „ismcts:iterations=abc“: iterations muss eine ganze Zahl von 1 bis 1000000 sein, "
     "nicht „abc“"),
    # shown as typed: repr re-quoted it ("it's")
    ("wasserloch", "human,ismcts:iterations=it's,random",
     "bot spec 'ismcts:iterations=it's': iterations must be a whole number from 1 to 1000000, not 'it's'",
     "Bot-Angabe „ismcts:iterations=it's“: iterations muss eine ganze Zahl von 1 bis 1000000 sein, "
     "nicht „it's“"),
    # true is no number: written as typed, not as Python's True
    ("wasserloch", "human,ismcts:iterations=true,random",
     "bot spec 'ismcts:iterations=true': iterations must be a whole number from 1 to 1000000, not true",
     "Bot-Angabe „ismcts:iterations=true“: iterations muss eine ganze Zahl von 1 bis 1000000 sein, nicht true"),
    ("wasserloch", "human,ismcts:belief=maybe,random",
     "the ismcts bot's setting belief is true or false, not 'maybe'",
     "die Einstellung belief des Bots ismcts muss true oder false sein, nicht „maybe“"),
    ("wasserloch", "human,random:blunder=x,random",
     "Error: bot spec 'random:blunder=x': blunder='x': the share of moves played at random must be a number from "
     "0 to 1",
     "Fehler: Bot-Angabe „random:blunder=x“: blunder=„x“: der Anteil zufällig gespielter Züge muss eine Zahl von "
     "0 bis 1 sein"),
    ("wasserloch", "human,heuristic:blunder=2,random",
     "bot spec 'heuristic:blunder=2': blunder=2: the share of moves played at random",
     "Bot-Angabe „heuristic:blunder=2“: blunder=2: der Anteil zufällig gespielter Züge"),
    ("wasserloch", "human,heuristic:keep_pairs=x,random",
     "bot spec 'heuristic:keep_pairs=x': trait keep_pairs needs a number, not 'x'",
     "Bot-Angabe „heuristic:keep_pairs=x“: die Eigenschaft keep_pairs braucht eine Zahl, nicht „x“"),
    ("wasserloch", "human,medium:foo=1,random",
     "bot spec 'medium:foo=1' (medium is the heuristic bot for wasserloch): unknown trait 'foo' (traits of the wasserloch heuristic: avoid_second_card,",
     "Bot-Angabe „medium:foo=1“ (medium ist bei wasserloch der Bot heuristic): unbekannte Eigenschaft „foo“ (Eigenschaften des heuristic-Bots von wasserloch: "
     "avoid_second_card,"),
    ("wasserloch", "human,hard:,random",
     "Error: bot spec 'hard:': nothing after ':' (expected NAME=VALUE,...)",
     "Fehler: Bot-Angabe „hard:“: nach dem „:“ steht nichts (erwartet wird NAME=WERT,…)"),
    ("wasserloch", "human,hard:x,random",
     "Error: bot spec 'hard:x': 'x' is not NAME=VALUE",
     "Fehler: Bot-Angabe „hard:x“: „x“ hat nicht die Form NAME=WERT"),
    ("wasserloch", "human,hard:x=1,x=2,random",
     "Error: bot spec 'hard:x=1,x=2': 'x' given twice",
     "Fehler: Bot-Angabe „hard:x=1,x=2“: „x“ ist doppelt angegeben"),
    ("wasserloch", "human,python:foo,random",
     "bot spec 'python:foo': bot 'python': 'foo' is not package.module:factory",
     "Bot-Angabe „python:foo“: Bot „python“: „foo“ hat nicht die Form paket.modul:fabrik"),
    # named once (it was "bot spec '…': bot '…': …"), and where Python looks for it
    ("wasserloch", "human,python:no_such_module:make,random",
     "Error: bot 'python:no_such_module:make': cannot import no_such_module (No module named 'no_such_module'): "
     "the module must be installed or on PYTHONPATH (PYTHONPATH=. for a module in the current folder)",
     "Fehler: Bot „python:no_such_module:make“: no_such_module lässt sich nicht importieren (No module named "
     "'no_such_module'): das Modul muss installiert sein oder im PYTHONPATH liegen"),
    ("wasserloch", "human,python:bots.outside_policy:nothing,random",
     "bot 'python:bots.outside_policy:nothing': bots.outside_policy has no callable 'nothing'",
     "Bot „python:bots.outside_policy:nothing“: bots.outside_policy hat nichts Aufrufbares namens „nothing“"),
    ("wasserloch", "human,python:bots.outside_policy:not_a_bot,random",
     "bot 'python:bots.outside_policy:not_a_bot': the factory returned 42, which has no choose(decision)",
     "Bot „python:bots.outside_policy:not_a_bot“: die Fabrikfunktion gab 42 zurück, und das hat kein "
     "choose(decision)"),
]


@pytest.mark.parametrize("game, seats, english, german", SEATS, ids=[s for _, s, _, _ in SEATS])
def test_a_refused_bot_spec_is_said_in_the_language_quoting_as_it_quotes(run, game, seats, english, german):
    result = run("play", game, "--seats", seats, input="quit\n")
    assert result.exit_code == 2 and english in said(result), result.output
    result = run("play", game, "--seats", seats, "--lang", "de", input="ende\n")
    assert result.exit_code == 2 and german in said(result), result.output


# -- the same refusals where the API reaches them (arena, lab, Gymnasium opponents) ----
def _refusal(call) -> Reason:
    with pytest.raises(BadOption) as err:
        call()
    return err.value.reason


def test_bot_refusals_the_command_line_does_not_reach_are_codes_too():
    game = load("wasserloch")
    cases = [
        (lambda: parse_bot_spec(" "), "bot spec: empty", "Bot-Angabe: leer"),
        (lambda: parse_bot_spec(":x=1"), "bot spec ':x=1': missing the bot kind before ':'",
         "Bot-Angabe „:x=1“: vor dem „:“ fehlt die Art des Bots"),
        (lambda: check_spec(parse_bot_spec("robot:x=1"), game),
         "bot spec 'robot:x=1': unknown bot 'robot' (bots: random, heuristic, ismcts, learned, python; levels: easy,",
         "Bot-Angabe „robot:x=1“: unbekannter Bot „robot“ (Bots: random, heuristic, ismcts, learned, python; "
         "Spielstärken: easy,"),
        (lambda: make_bot("robot", game), "unknown bot 'robot' (bots: random,", "unbekannter Bot „robot“ (Bots: random,"),
        (lambda: level_settings("godlike", game), "unknown level 'godlike' (levels: easy, medium, hard, expert)",
         "unbekannte Spielstärke „godlike“ (Spielstärken: easy, medium, hard, expert)"),
        (lambda: make_bot("python", game, factory="bots.outside_policy:make", depth=3),
         "bot 'python:bots.outside_policy:make': takes no settings (got depth)",
         "Bot „python:bots.outside_policy:make“: nimmt keine Einstellungen an (angegeben: depth)"),
        (lambda: make_bot("ismcts", game, iterations="it's"),
         "iterations must be a whole number from 1 to 1000000, not 'it's'",
         "iterations muss eine ganze Zahl von 1 bis 1000000 sein, nicht „it's“"),
    ]
    for call, english, german in cases:
        reason = _refusal(call)
        assert reason.code.startswith("bot."), reason.code
        assert str(reason).startswith(english), str(reason)
        assert reason.render("de").startswith(german), reason.render("de")


@pytest.mark.parametrize("kind, settings", [
    ("ismcts", {"iterations": "abc"}), ("ismcts", {"iterations": True}), ("ismcts", {"iterations": 0}),
    ("ismcts", {"belief": "maybe"}), ("ismcts", {"conventions": 1}), ("ismcts", {"root_candidates": "x"}),
    ("ismcts", {"others": "all"}), ("learned", {"search": "abc"}), ("learned", {"exploration": "abc"}),
    ("learned", {"value": 3})])
def test_a_setting_has_one_refusal_from_a_spec_and_from_the_constructor(kind, settings):
    """`make_bot("ismcts", iterations="abc")` (a bot spec) was refused by the registry's
    type check (`bot.text_setting_not_number`), `ISMCTSBot(iterations="abc")` by the
    bot's own range check (`bot.ismcts.text_positive`): one setting, two refusals.  The
    bot's own check is now the only one; a switch (`belief=maybe`) was not checked by the
    bot at all, and `learned:exploration=abc` only with search."""
    from wasserspiele.bots.ismcts import ISMCTSBot
    from wasserspiele.bots.learned import LearnedBot
    game = load("wasserloch")
    via_spec = _refusal(lambda: make_bot(kind, game, seed=1, **settings))
    cls = ISMCTSBot if kind == "ismcts" else LearnedBot
    direct = _refusal(lambda: cls(seed=1, game=game, **settings))
    assert (via_spec.code, dict(via_spec.params)) == (direct.code, dict(direct.params))
    assert via_spec.code.startswith(("bot.ismcts.", "bot.learned.", "bot.setting_")), via_spec.code
    assert dict(via_spec.params)["value"] == next(iter(settings.values()))  # as given: the template shows it


def test_a_refusal_inside_another_is_said_in_the_same_language():
    inner = Reason("bot.unknown_setting", kind="ismcts", name="depth", settings="iterations")
    outer = Reason("bot.spec", spec="ismcts:depth=3", problem=inner)
    assert outer == "bot spec 'ismcts:depth=3': the ismcts bot has no setting 'depth' (its settings: iterations)"
    assert outer.render("de") == ("Bot-Angabe „ismcts:depth=3“: der Bot ismcts hat keine Einstellung „depth“ "
                                  "(seine Einstellungen: iterations)")


# -- malformed records: `replay FILE` and `play --resume FILE` --------------------------
RECORDS = [  # (the file's text, English, German)
    ("[]", "record: must be a JSON object", "Spielprotokoll: muss ein JSON-Objekt sein"),
    ('{"seed": 1}', "game: missing", "game: fehlt"),
    ('{"game": "nope", "seed": 1}', "game: unknown game 'nope' (games: ",
     "game: es gibt kein Spiel namens „nope“ (Spiele: "),
    ('{"game": "watten", "seed": "1"}', "seed: must be an integer", "seed: muss eine ganze Zahl sein"),
    ('{"game": "watten", "seed": 1, "actions": ["take", 3]}', "actions[1]: must be a string",
     "actions[1]: muss eine Zeichenkette sein"),
    ('{"game": "watten", "seed": 1, "session": []}', "session: must be an object", "session: muss ein Objekt sein"),
    ('{"game": "watten", "seed": 1, "moves": []}', "moves: unknown field", "moves: unbekanntes Feld"),
    ('{"game": "watten", "seed": 1, "format": "it\'s/2"}', "format: 'it's/2' is not one of wasserspiele-record/1",
     "format: „it's/2“ ist keiner der Werte wasserspiele-record/1"),
    ('{"game": "watten", "seed": 1, "rules_version": "9"}', "rules_version: '9' is not supported (this is '1')",
     "rules_version: „9“ wird nicht unterstützt (unterstützt wird „1“)"),
    ('{"game": "watten", "seed": 1, "rules_version": null}', "rules_version: null is not supported (this is '1')",
     "rules_version: null wird nicht unterstützt (unterstützt wird „1“)"),
    ('{"game": "wasserloch", "seed": 1, "options": {"speed": 1}}', "options: wasserloch has no option 'speed'",
     "options: wasserloch hat keine Option „speed“"),
    ('{"game": "wasserloch", "players": 3, "seed": 1, "options": {"players": "4"}}',
     "options.players: '4' disagrees with players: 3", "options.players: „4“ passt nicht zu players: 3"),
    ('{"game": "wasserloch", "players": 3, "seed": 1, "options": {"players": 4}}',
     "options.players: 4 disagrees with players: 3", "options.players: 4 passt nicht zu players: 3"),
    ('{"game": "watten", "players": 3, "seed": 1}', "players: watten is for exactly 4 players, not 3",
     "players: watten ist für genau 4 Spieler, nicht 3"),
    ('{"game": "watten", "players": null, "seed": 1}', "players: must be the number of players, not null",
     "players: muss die Zahl der Spieler sein, nicht null"),
    ('{"game": "watten"}', "setup: give exactly one of setup or seed", "setup: gib genau eines von setup und seed an"),
]


@pytest.mark.parametrize("text, english, german", RECORDS, ids=[e for _, e, _ in RECORDS])
def test_a_malformed_record_is_refused_in_the_readers_language(run, tmp_path, text, english, german):
    path = tmp_path / "bad.json"
    path.write_text(text)
    result = run("replay", str(path))
    assert result.exit_code == 2 and said(result).startswith(f"Error: {english}"), result.output
    result = run("replay", "--lang", "de", str(path))
    assert result.exit_code == 2 and said(result).startswith(f"Fehler: {german}"), result.output
    result = run("play", "--resume", str(path), input="quit\n")
    assert result.exit_code == 2 and said(result).startswith(f"Error: {english}"), result.output
    result = run("play", "--resume", str(path), "--lang", "de", input="ende\n")
    assert result.exit_code == 2 and said(result).startswith(f"Fehler: {german}"), result.output


# -- the schema's words: a field path, then what is wrong in the language ---------------
class _Shape(Schema):
    kind: Literal["a", "b"] = "a"
    count: int = Field(default=1, ge=1)
    share: float = Field(default=0.5, lt=1)
    items: list[int] = Field(default=[0, 0], min_length=2)


def test_the_schema_names_the_field_and_words_what_is_wrong_in_the_language():
    cases = [({"kind": "c'd"}, "kind: 'c'd' is not one of a, b", "kind: „c'd“ ist keiner der Werte a, b"),
             ({"kind": True}, "kind: true is not one of a, b", "kind: true ist keiner der Werte a, b"),
             ({"count": 0}, "count: 0 is out of range (at least 1)",
              "count: 0 liegt außerhalb des Bereichs (mindestens 1)"),
             ({"share": 1.5}, "share: 1.5 is out of range (less than 1.0)",
              "share: 1.5 liegt außerhalb des Bereichs (kleiner als 1.0)"),
             ({"items": [1]}, "items: must have at least 2 entries", "items: muss mindestens 2 Einträge haben"),
             ({"items": [1, "x"]}, "items[1]: must be an integer", "items[1]: muss eine ganze Zahl sein"),
             ({"other": 1}, "other: unknown field", "other: unbekanntes Feld")]
    for data, english, german in cases:
        with pytest.raises(BadRecord) as err:
            validate(_Shape, data, BadRecord)
        assert str(err.value) == english and err.value.reason.render("de") == german, err.value.reason
    with pytest.raises(BadRecord) as err:  # a prefix (a file's name) is data too
        validate(_Shape, {"count": "2"}, BadRecord, "board.json: ")
    assert err.value.reason.render("de") == "board.json: count: muss eine ganze Zahl sein"
