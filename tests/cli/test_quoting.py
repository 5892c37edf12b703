"""Refusals quote what the player typed (or a save holds) as the language quotes: English
'…' as the catalogue's other texts, German „…“, never Python's repr ('x', "it's",
'a\\\\b').  One rule, the catalogue's term `quote`, which the terminal, the server and the
browser (web/static/messages.js) all read."""

from __future__ import annotations

import json

import pytest

from wasserspiele.core.errors import BadOption
from wasserspiele.core.messages import catalogue, render, term
from wasserspiele.core.options import Option, parse_option_texts, resolve_options
from wasserspiele.core.registry import game_class


def said(result) -> str:
    return " ".join(result.output.split())


def test_quote_term_is_the_languages_quotes_around_the_text_as_it_is():
    assert term("robot", "quote", "en") == "'robot'"
    assert term("robot", "quote", "de") == "„robot“"
    # what repr escaped or re-quoted is shown as typed
    assert term("it's", "quote", "en") == "'it's'" and term("a\\b", "quote", "de") == "„a\\b“"
    assert term("{x}", "quote", "de") == "„{x}“"  # a value is never read as a template
    # no entry `quote.<value>` can shadow what was typed
    assert not [code for lang in ("en", "de") for code in catalogue(lang).entries if code.startswith("quote.")]


# -- every path a player reaches on the command line ------------------------------------
CASES = [  # (arguments, English, German)
    (["play", "wasserloch", "--seats", "human,robot,random"],
     "Error: --seats: unknown seat kind 'robot' (human, bots: ",
     "Fehler: --seats: unbekannte Platzart „robot“ (human, Bots: "),
    (["play", "wasserloch", "--seats", "human,rob'ot,random"],
     "unknown seat kind 'rob'ot'", "unbekannte Platzart „rob'ot“"),
    (["play", "wasserloch", "--option", "rounds=abc"],
     "Error: option rounds: 'abc' is not an integer",
     "Fehler: Option „Durchgänge“ (rounds): „abc“ ist keine ganze Zahl"),
    (["play", "watten", "--option", "signal_detection_p=often"],
     "Error: option signal_detection_p: 'often' is not a number",
     "Fehler: Option „Chance, dass Zwicken auffällt“ (signal_detection_p): „often“ ist keine Zahl"),
    (["play", "watten", "--option", "raising=maybe"],
     "Error: option raising: 'maybe' is not true or false",
     "Fehler: Option „Erhöhen“ (raising): „maybe“ ist weder true noch false"),
    (["play", "wasserloch", "--option", "chase=far"],
     "Error: option chase: 'far' is not one of nearest, adjacent",
     "Fehler: Option „Vertreiben“ (chase): „far“ ist keiner der Werte nearest, adjacent"),
    (["play", "wasserloch", "--option", "speed=3"],
     "Error: wasserloch has no option 'speed' (options: ",
     "Fehler: wasserloch hat keine Option „speed“ (Optionen: "),
    (["play", "wasserloch", "--option", "rounds"],
     "Error: option 'rounds': expected key=value",
     "Fehler: Option „rounds“: erwartet wird Name=Wert"),
    (["play", "wasserloch", "--option", "rounds=\\1"],
     "option rounds: '\\1' is not an integer", "„\\1“ ist keine ganze Zahl"),
    # digits other than ASCII and Python's "1_0" were read as 3 and 10: a value the text
    # does not show to its reader (the API takes numbers, not text)
    (["play", "wasserloch", "--option", "rounds=٣"],
     "Error: option rounds: '٣' is not an integer", "„٣“ ist keine ganze Zahl"),
    (["play", "wasserloch", "--option", "rounds=1_0"],
     "Error: option rounds: '1_0' is not an integer", "„1_0“ ist keine ganze Zahl"),
    (["play", "wasserloch", "--seats", "human,easy:blunder=٠.٥"],
     "blunder='٠.٥': the share of moves played at random must be a number from 0 to 1", "„٠.٥“"),
    # the flags' own numbers likewise: Click's INT and FLOAT read "٣" as 3, "1_0" as 10, and
    # a NaN passed every range (flags.WHOLE, DECIMAL, WholeRange, DecimalRange)
    (["play", "wasserloch", "--seed", "٣"],
     "Error: Invalid value for '--seed': '٣' is not a valid integer.", "„٣“ ist hier keine gültige Zahl"),
    (["play", "wasserloch", "--players", "1_0"],
     "Error: Invalid value for '--players': '1_0' is not a valid integer.", "„1_0“ ist hier keine gültige Zahl"),
    # (serve, lab and train write English in both languages)
    (["serve", "--port", "٨٠٠٠"], *["Invalid value for '--port': '٨٠٠٠' is not a valid integer range."] * 2),
    (["serve", "--bot-delay", "nan"], *["Invalid value for '--bot-delay': nan is not in the range 0<=x<=10."] * 2),
    (["train", "wasserloch", "--hidden", "٣٢,16"], *["'٣٢,16' is not sizes like 128,64"] * 2),
    # an option given twice with two values kept the last without a word
    (["play", "wasserloch", "--option", "rounds=1", "--option", "rounds=2"],
     "Error: option 'rounds' is given twice, as 'rounds=1' and 'rounds=2': give it once",
     "Fehler: Option „rounds“ ist zweimal angegeben, als „rounds=1“ und „rounds=2“: gib sie nur einmal an"),
]


@pytest.mark.parametrize("args, english, german", CASES, ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_a_refused_value_on_the_command_line_is_quoted_as_the_language_quotes(run, args, english, german):
    result = run(*args)
    assert result.exit_code == 2 and english in said(result), result.output
    result = run(*args, "--lang", "de")
    assert result.exit_code == 2 and german in said(result), result.output


def _save(run, tmp_path, change) -> str:
    save = tmp_path / "game.json"
    assert run("play", "wasserloch", "--seed", "2", "--save", str(save), input="quit\n").exit_code == 0
    doc = json.loads(save.read_text())
    change(doc)
    save.write_text(json.dumps(doc))
    return str(save)


SESSIONS = [  # (what the save's session is changed to, English, German)
    (lambda d: d["session"].update(lang="fr"),
     "session.lang: 'fr' is not one of en, de", "session.lang: „fr“ ist keine der Sprachen en, de"),
    (lambda d: d["session"].update(lang="d'e"),
     "session.lang: 'd'e' is not one of en, de", "session.lang: „d'e“ ist keine der Sprachen en, de"),
    (lambda d: d["session"].update(lang=5),
     "session.lang: must be one of en, de", "session.lang: muss eine der Sprachen en, de sein"),
    (lambda d: d["session"]["seats"].__setitem__(1, "bogus"),
     "session.seats: unknown seat kind 'bogus'", "session.seats: unbekannte Platzart „bogus“"),
    (lambda d: d["session"].update(seats=["human"]),
     "session.seats: must list 3 seat kinds (human or a bot)",
     "session.seats: muss 3 Platzarten nennen (human oder einen Bot)"),
]


@pytest.mark.parametrize("change, english, german", SESSIONS, ids=[e for _, e, _ in SESSIONS])
def test_a_bad_session_in_a_resumed_save_is_refused_in_the_language_quoting_as_it_quotes(run, tmp_path, change,
                                                                                          english, german):
    save = _save(run, tmp_path, change)
    result = run("play", "--resume", save, input="quit\n")
    assert result.exit_code == 2 and f"Error: {save}: {english}" in said(result), result.output
    result = run("play", "--resume", save, "--lang", "de", input="quit\n")
    assert result.exit_code == 2 and f"Fehler: {save}: {german}" in said(result), result.output


# -- the same refusals through the API (JSON options: a record, a request) -------------
def test_an_option_value_from_json_quotes_a_string_and_writes_anything_else_as_json():
    options = game_class("wasserloch").option_list
    # one code each; the value is passed as given and the template's `{value:shown}` shows it
    cases = [({"rounds": "abc"}, "option.not_integer", "„abc“ ist keine ganze Zahl"),
             ({"chase": "far"}, "option.not_choice", "„far“ ist keiner der Werte nearest, adjacent"),
             ({"rounds": "2.5"}, "option.not_integer", "„2.5“ ist keine ganze Zahl"),  # text, not the number
             # a number or anything else as JSON writes it, unquoted (not Python's {'x': 1})
             ({"rounds": 2.5}, "option.not_integer", "2.5 ist keine ganze Zahl"),
             ({"rounds": {"x": 1}}, "option.not_integer", '{"x": 1} ist keine ganze Zahl'),
             ({"rounds": [3]}, "option.not_integer", "[3] ist keine ganze Zahl"),
             ({"rounds": True}, "option.not_integer", "true ist keine ganze Zahl"),
             ({"rounds": None}, "option.null", "null ist nicht erlaubt (erlaubt: int 1..99)"),
             ({"chase": 3}, "option.not_choice", "3 ist keiner der Werte nearest, adjacent")]
    for given, code, german in cases:
        with pytest.raises(BadOption) as err:
            resolve_options(options, given, "wasserloch")
        reason = err.value.reason
        value = next(iter(given.values()))
        assert reason.code == code and reason.params.get("value", value) == value, given
        assert reason.render("de").endswith(german), reason.render("de")
    with pytest.raises(BadOption) as err:
        resolve_options(options, {"speed": 1}, "wasserloch")
    assert err.value.reason.params["key"] == "speed"  # the name itself: a client quotes it its way
    assert str(err.value).startswith("wasserloch has no option 'speed'")


def test_a_bool_and_a_number_typed_as_text_are_refused_quoted():
    flag, share = Option("flag", False, "bool"), Option("share", 0.5, "float")
    for option, text, code in ((flag, "maybe", "option.not_bool"), (share, "half", "option.not_number")):
        with pytest.raises(BadOption) as err:
            parse_option_texts((option,), [f"{option.name}= {text} "], "")
        assert err.value.reason.code == code and err.value.reason.params["value"] == text
        assert f"„{text}“" in err.value.reason.render("de") and f"'{text}'" in str(err.value)


# -- the tools that speak English only quote as the English catalogue does -------------
def test_the_english_tools_quote_as_the_catalogue_does_not_as_python(run, tmp_path):
    result = run("train", "wasserloch", "--hidden", "12'8")
    assert result.exit_code == 2 and "'12'8' is not sizes like 128,64" in said(result), result.output
    result = run("train", "wasserloch", "--hidden", "1,0")
    assert result.exit_code == 2 and "'1,0': every layer needs at least 1 unit" in said(result), result.output
    result = run("serve", "--db", "no'url")
    assert result.exit_code == 1 and "Error: --db: 'no'url' is not a database URL" in said(result), result.output
    missing = tmp_path / "it's.json"
    result = run("leaderboard", "wasserloch", "--page-only", "--data", str(missing))
    assert result.exit_code == 2 and f"no such file '{missing}'" in said(result), result.output


def test_render_of_a_code_with_a_quoted_parameter_needs_no_python_repr():
    # the catalogue templates name the term, the parameters hold the plain text
    for lang, want in (("en", "--seats: unknown seat kind 'x' (human, bots: b; levels: l)"),
                       ("de", "--seats: unbekannte Platzart „x“ (human, Bots: b; Spielstärken: l)")):
        assert render("cli.seat_kind", {"where": "--seats", "kind": "x", "bots": "b", "levels": "l"}, lang) == want


GERMAN_SAVES = [  # (what the German save is changed to, its refusal without --lang, with --lang en)
    (lambda d: d["session"]["seats"].__setitem__(1, "bogus"),  # a session the CLI checks
     "Fehler: {save}: session.seats: unbekannte Platzart „bogus“",
     "Error: {save}: session.seats: unknown seat kind 'bogus'"),
    (lambda d: d["session"]["seats"].__setitem__(1, "ismcts:depth=3"),  # a bot spec
     "Fehler: Bot-Angabe „ismcts:depth=3“: der Bot ismcts hat keine Einstellung „depth“",
     "Error: bot spec 'ismcts:depth=3': the ismcts bot has no setting 'depth'"),
    (lambda d: d.update(rules_version="9"),  # a record that does not load
     "Fehler: rules_version: „9“ wird nicht unterstützt (unterstützt wird „1“)",
     "Error: rules_version: '9' is not supported (this is '1')"),
]


@pytest.mark.parametrize("change, german, english", GERMAN_SAVES, ids=["session", "bot_spec", "record"])
def test_a_german_save_is_refused_in_german_without_lang(run, tmp_path, change, german, english):
    """A save resumes in the language it was played in; a refusal of it (its session, a
    seat's bot spec, the record itself) spoke English unless `--lang de` was given again."""
    save = tmp_path / "game.json"
    assert run("play", "wasserloch", "--seed", "2", "--lang", "de", "--save", str(save), input="ende\n").exit_code == 0
    doc = json.loads(save.read_text())
    change(doc)
    save.write_text(json.dumps(doc))
    result = run("play", "--resume", str(save), input="ende\n")
    assert result.exit_code == 2 and german.format(save=save) in said(result), result.output
    result = run("play", "--resume", str(save), "--lang", "en", input="quit\n")  # --lang still decides
    assert result.exit_code == 2 and english.format(save=save) in said(result), result.output


def test_a_control_character_in_a_quoted_value_is_shown_escaped_not_sent_to_the_terminal(run, tmp_path):
    """repr escaped an escape sequence; the catalogue's quotes show the text as it is, so
    the terminal's error line escapes control characters itself (a save someone sent
    could otherwise clear the screen or recolour it)."""
    result = run("play", "wasserloch", "--option", "rounds=a\x1b[2Jb", "--lang", "de")
    assert result.exit_code == 2 and "\x1b" not in result.output
    assert "„a\\x1b[2Jb“ ist keine ganze Zahl" in said(result), result.output
    save = _save(run, tmp_path, lambda d: d["session"].update(lang="\x1b[31mde"))
    result = run("play", "--resume", save, input="quit\n")
    assert result.exit_code == 2 and "\x1b" not in result.output
    assert "session.lang: '\\x1b[31mde' is not one of en, de" in said(result), result.output
    record = tmp_path / "bad_action.json"
    record.write_text(json.dumps({"format": "wasserspiele-record/1", "game": "wasserloch", "seed": 1,
                                  "actions": ["\x1b[2J"]}))
    result = run("replay", str(record))
    assert result.exit_code == 1 and "\x1b" not in result.output and "\\x1b[2J" in result.output, result.output


def test_an_option_given_twice_is_refused_unless_both_say_the_same():
    """`--option rounds=1 --option rounds=2` kept the last value without a word, in every
    command (play, lab, arena); the same value twice contradicts nothing and is taken."""
    options = game_class("wasserloch").option_list
    assert parse_option_texts(options, ["rounds=2", " rounds = 2"], "wasserloch") == {"rounds": 2}
    with pytest.raises(BadOption) as refused:
        parse_option_texts(options, ["rounds=1", "chase=adjacent", "rounds=2"], "wasserloch")
    assert refused.value.reason.code == "option.twice"


def test_a_study_refuses_an_option_given_twice_before_any_game(run, tmp_path):
    result = run("lab", "wasserloch", "--games", "2", "--option", "rounds=1", "--option", "rounds=3",
                 "--out", str(tmp_path / "lab"))
    assert result.exit_code == 2 and "given twice" in said(result), result.output
    assert not (tmp_path / "lab").exists()
