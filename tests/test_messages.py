"""The message catalogues (core/messages.py): complete in both languages, and every
refusal an engine gives is a code with text in both."""

from __future__ import annotations

import ast
import json
import pickle
import re
import random
import shutil
import string
import subprocess
from pathlib import Path

import pytest

from wasserspiele.core.errors import IllegalAction
from wasserspiele.core.messages import LANGS, Reason, catalogue, render, term
from wasserspiele.core.registry import load

# the games the project ships a catalogue for (a test-only game registers beside them)
SHIPPED = ("wasserloch", "seven_waters", "watten", "wildwasser")
SRC = Path(__file__).resolve().parent.parent / "src" / "wasserspiele"


def _fields(template: str) -> set[str]:
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


# parameters a translation may use that the English text leaves out (the English error
# message already quotes the text; German replaces the English error by its own words)
_EXTRA = {"cli.not_understood": {"text"}, "bad_notation": {"text"},
          # a refused option: English names it as the command line and the API spell it
          # (`name`), German by the label its lobby shows (`option`, the term GAME.NAME)
          **{f"option.{c}": {"option"} for c in ("above", "below", "check", "no_seat", "not_bool", "not_choice",
                                                  "not_finite", "not_integer", "not_number", "null")}}


def test_every_code_has_text_in_both_languages():
    en, de = catalogue("en"), catalogue("de")
    assert set(en.entries) == set(de.entries), set(en.entries) ^ set(de.entries)
    for code in en.entries:
        for cat in (en, de):
            assert cat.has(code), f"{cat.lang}: {code} has no text"
            entry = cat.entries[code]
            forms = entry if isinstance(entry, tuple) else (entry,)
            # a translation uses only the parameters the code has (the English text names them all)
            english = en.entries[code]
            known = set().union(*map(_fields, english if isinstance(english, tuple) else (english,)))
            for form in forms:
                assert _fields(form) <= known | _EXTRA.get(code, set()), f"{cat.lang}: {code} uses unknown parameters"


def test_plural_forms_follow_the_language():
    assert render("wasserloch.ui.cards", {"n": 1}, "de") == "1 Karte"
    assert render("wasserloch.ui.cards", {"n": 3}, "de") == "3 Karten"
    assert render("wasserloch.ui.cards", {"n": 0}, "en") == "0 cards"
    assert term("A", "wasserloch.values", "de") == "Asse" and term("5", "wasserloch.values", "de") == "5er"
    assert render("wasserloch.event.drove_off", {"seat": 1, "play": "Ax3", "value": "8", "n": 2}, "de") == \
        "Platz 1 legte Ax3 und vertrieb die 8er: 2 Karten Beute"


def test_a_reason_is_its_english_text_and_renders_german():
    r = Reason("wasserloch.holds_only", seat=0, value="A", n=2)
    assert r == "only two aces in hand" and r.code == "wasserloch.holds_only"
    assert r.render("de") == "nur zwei Asse auf der Hand"
    assert r.to_json() == {"code": "wasserloch.holds_only", "params": {"seat": 0, "value": "A", "n": 2}}
    again = pickle.loads(pickle.dumps(r))
    assert again == r and again.code == r.code and again.params == r.params


def test_terms_render_cards_lists_and_letters():
    r = Reason("watten.must_follow_trump", suit="H", held=["JC", "TH"])
    assert r == "trump must be followed with hearts or any jack (J♣ and T♥ in hand)"
    assert r.render("de") == "Trumpf muss mit Herz oder einem Buben bedient werden (B♣ und 10♥ auf der Hand)"
    assert Reason("wildwasser.no_such_player", seat=4, last=2).render("de") == \
        "es gibt keinen Spieler E (Spieler A-C)"


def test_an_unknown_code_shows_itself_not_nothing():
    assert render("no.such.code", {"x": 1}) == "no.such.code {'x': 1}"


# (value as given, English, German): text is quoted, anything else written as JSON writes it
SHOWN = [("abc", "'abc'", "„abc“"), ("2.5", "'2.5'", "„2.5“"), ("it's", "'it's'", "„it's“"), ("{x}", "'{x}'", "„{x}“"),
         (2.5, "2.5", "2.5"), (3, "3", "3"), (True, "true", "true"), (None, "null", "null"),
         ([1, "a"], '[1, "a"]', '[1, "a"]'), ({"x": [1, 2]}, '{"x": [1, 2]}', '{"x": [1, 2]}'), ([], "[]", "[]")]


def test_shown_term_quotes_text_and_writes_anything_else_as_json():
    """One refusal code per value: `{value:shown}` tells text someone typed ('2.5') from a
    number a JSON document holds (2.5); there was a `text_` twin code for each refusal,
    chosen by hand at every caller."""
    for value, english, german in SHOWN:
        assert term(value, "shown", "en") == english and term(value, "shown", "de") == german, value
        assert render("option.not_integer", {"name": "rounds", "option": "wasserloch.rounds", "value": value}) == \
            f"option rounds: {english} is not an integer"
    assert not [c for c in catalogue("en").entries if ".text_" in c]  # no twin codes left


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run web/static/messages.js")
def test_shown_term_renders_the_same_in_the_browser(tmp_path):
    """The page renders a refusal's code and params itself (web/static/messages.js): the
    built-in term `shown` must give the server's words, list and object spacing included."""
    module = tmp_path / "messages.mjs"  # as an ES module whatever node's default
    module.write_text((SRC / "web" / "static" / "messages.js").read_text(encoding="utf-8"), encoding="utf-8")
    cases = [[value] for value, _, _ in SHOWN] + [[[1]]]
    script = ("const { Catalogue } = await import(process.argv[1]);"
              "const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
              "const out = {};"
              "for (const [lang, cat] of Object.entries(input.cats)) {"
              "  const c = new Catalogue(cat);"
              "  out[lang] = input.cases.map(([v]) => c.render('wasserloch.setup.not_value', { field: 'f', value: v }));"
              "}"
              "console.log(JSON.stringify(out));")
    script = script.replace("require('fs')", "(await import('node:fs')).default")
    payload = json.dumps({"cats": {lang: catalogue(lang).to_json() for lang in LANGS}, "cases": cases})
    done = subprocess.run(["node", "--input-type=module", "-e", script, module.as_uri()], input=payload,
                          capture_output=True, text=True, timeout=60, check=True)
    got = json.loads(done.stdout)
    for lang in LANGS:
        assert got[lang] == [render("wasserloch.setup.not_value", {"field": "f", "value": v}, lang) for [v] in cases]


def test_unknown_language_is_refused_by_the_catalogue():
    with pytest.raises(ValueError, match="no message catalogue"):
        catalogue("fr")


# -- every engine refusal is a code ------------------------------------------------
_REFUSERS = ("why_illegal", "_why_illegal", "_not_in_hand", "_raise_problem", "_play_problem")


def _coded(v: ast.expr) -> bool:
    """None, a variable, Reason(...)/reason_of(...), another refusal function, or a choice of these."""
    if isinstance(v, ast.IfExp):
        return _coded(v.body) and _coded(v.orelse)
    if isinstance(v, ast.Constant):
        return v.value is None
    if isinstance(v, ast.Name):
        return True
    return isinstance(v, ast.Call) and (getattr(v.func, "id", None) in ("Reason", "reason_of")
                                        or getattr(v.func, "attr", "").startswith(("_why", "_not", "_raise", "_play")))


def _refusing_functions(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and (node.name in _REFUSERS or node.name.startswith("_why_not")):
            yield node


@pytest.mark.parametrize("path", sorted(SRC.glob("games/*/rules.py")) + [SRC / "core" / "protocol.py"],
                         ids=lambda p: p.parent.name)
def test_no_engine_refusal_is_plain_words(path):
    """Static check: a refusal function returns None, a Reason(...) or another refusal."""
    found = 0
    for fn in _refusing_functions(path):
        found += 1
        for node in ast.walk(fn):
            if isinstance(node, ast.Return) and node.value is not None:
                v = node.value
                assert _coded(v), f"{path.name}:{node.lineno} {fn.name} returns {ast.unparse(v)}"
    assert found


def _server_refusals():
    """Every `Refused(code, reason, ...)` and `Invalid(code, reason, ...)` the web server
    raises: (where, code node, reason node)."""
    for path in sorted((SRC / "web").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("Refused", "Invalid") \
                    and len(node.args) >= 2:
                yield f"{path.name}:{node.lineno}", node.args[0], node.args[1]


def test_no_server_refusal_is_plain_words():
    """Static check: the server words its own refusals as `server.` codes with text in both
    languages, so a German page never shows one in English; plain text is only a lower
    layer's words passed on (a variable, `str(exc)`; the schemas' field checks); for
    those the client shows its words for the refusal's code, which both catalogues have."""
    en, de = catalogue("en"), catalogue("de")
    coded = 0
    for where, code, reason in _server_refusals():
        if isinstance(code, ast.Constant):
            for cat in (en, de):
                assert cat.has(f"web.err_{code.value}"), f"{where}: {cat.lang} has no web.err_{code.value}"
        if where.startswith("schemas.py"):
            continue  # the shape of the JSON an API client sent (pydantic's words)
        assert not isinstance(reason, (ast.Constant, ast.JoinedStr)), f"{where}: plain words {ast.unparse(reason)}"
        if isinstance(reason, ast.Call) and getattr(reason.func, "id", None) == "Reason":
            name = reason.args[0].value
            for cat in (en, de):
                assert cat.has(name), f"{where}: {cat.lang} has no text for {name}"
            coded += 1
        else:
            passed_on = isinstance(reason, (ast.Name, ast.Attribute)) or ast.unparse(reason) == "str(exc)"
            assert passed_on, f"{where}: {ast.unparse(reason)}"
    assert coded > 40, coded
    from wasserspiele.web import schemas  # the refusal codes its models give
    for code in {m.refusal_code for m in schemas.MESSAGES.values()} | {schemas.Schema.refusal_code}:
        assert en.has(f"web.err_{code}") and de.has(f"web.err_{code}"), code


def _random_play(game, seed: int, steps: int):
    """States along a seeded random game (at most `steps`)."""
    rng = random.Random(seed)
    state = game.new_game(seed=seed)
    out = []
    while not state.is_terminal() and len(out) < steps:
        out.append(state.clone())
        seat = state.current_seat
        state.apply(rng.choice(list(state.legal_actions(seat))), seat)
    out.append(state)
    return out


@pytest.mark.parametrize("name", SHIPPED)
def test_sweep_every_refusal_has_a_code_with_text_in_both_languages(name):
    """Ask many positions of random games about many actions: every refusal is a known
    code whose German and English texts render."""
    game = load(name)
    pool = set()
    for seed in range(3):
        for st in _random_play(game, seed, 400):
            if not st.is_terminal():
                pool.update(st.legal_actions(st.current_seat))
    pool = sorted(pool, key=str)
    codes = set()
    rng = random.Random(7)
    for st in _random_play(game, 11, 300)[::3]:
        if st.is_terminal():
            continue
        for action in rng.sample(pool, min(40, len(pool))):
            for seat in range(game.players):
                reason = st.why_illegal(action, seat)
                if reason is None:
                    continue
                assert isinstance(reason, Reason) and reason.code != "text", (action, reason)
                assert catalogue("en").has(reason.code) and catalogue("de").has(reason.code), reason.code
                assert reason.render("de") and reason.render("de") != reason.render("en"), reason.code
                codes.add(reason.code)
    assert len(codes) >= 3, codes
    finished = _random_play(game, 1, 10_000)[-1]
    assert finished.is_terminal()
    assert finished.why_illegal(pool[0]).code == "game_over"
    with pytest.raises(IllegalAction) as err:
        finished.apply(pool[0])
    assert err.value.reason.code == "game_over"


@pytest.mark.parametrize("name", SHIPPED)
def test_every_event_kind_in_views_has_text_in_both_languages(name):
    """Event kinds in views are codes `<game>.event.<kind>` (what the browser renders)."""
    game = load(name)
    kinds = set()
    for seed in range(4):
        for st in _random_play(game, seed, 2_000):
            view = st.view(None)
            for e in view.get("log") or []:
                kinds.add(e.get("event") or e.get("kind"))
    for kind in kinds:
        for lang in LANGS:
            assert catalogue(lang).has(f"{name}.event.{kind}"), (lang, kind)


@pytest.mark.parametrize("name", SHIPPED)
def test_every_option_has_help_in_both_languages_and_english_matches_the_code(name):
    from wasserspiele.core.registry import game_class
    for option in game_class(name).option_list:
        code = f"option.{name}.{option.name}"
        assert catalogue("en").text(code) == option.help, code  # one English text, never two that drift
        assert catalogue("de").has(code), code


def test_watten_raise_refusals_and_the_cheap_check_agree():
    """legal_actions asks a code only; the refusal is the same code with its numbers."""
    game = load("watten", raising=True, target=2)
    state = game.new_game(seed=3)
    rng = random.Random(3)
    seen = set()
    while not state.is_terminal():
        seat = state.current_seat
        block = state._raise_block(seat)
        problem = state._raise_problem(seat)
        assert (block is None) == (problem is None) and (problem is None or problem.code == block)
        if problem is not None:
            seen.add(problem.code)
            assert problem.render("de") != str(problem)
        state.apply(rng.choice(list(state.legal_actions(seat))), seat)
    assert seen


# -- every bad notation is a code ---------------------------------------------------
# texts that reach every `raise BadNotation` of the games' parsers (and the shared card parser)
_BAD_NOTATION = {
    "wasserloch": [5, "Ax", "x2", "9x1", "Ax0", "Axz"],
    "seven_waters": [5, "", "pass now", "take 7", "take 8-1", "theme", "theme X1=H", "discard", "discard 4S X2=3",
                     "slide 5 KD", "river", "pool", "jump 7-3", "discard 1S", "slide 2 KD=3", "slide 2 KD X1",
                     "river 8S X1", "pool 7H X2", "slide 2 KD X1=11", "river 8S X1=Z", "pool 7H X2=R"],
    "watten": [5, "", "raise now", "accept 1", "concede x", "trump X", "signal loud", "ZZ", "2H", "JC JD"],
    "wildwasser": [5, "", "jump", "pick", "sun", "marker", "pick lion", "marker x", "action 9"],
}


def test_every_bad_notation_is_a_code_with_text_in_both_languages():
    """Text that is no move: BadNotation carries a Reason (code and parameters) with text in
    both languages, its placeholders the parameters it is given, str() the English; every
    notation code of the catalogues is reached, and no parser raises plain words."""
    from wasserspiele.core.cards import card
    from wasserspiele.core.errors import BadNotation
    from wasserspiele.games.watten.actions import card_id

    calls = [(load(name).parse_action, text) for name, texts in _BAD_NOTATION.items() for text in texts]
    calls += [(card, "ZZ"), (card_id, "ZZ"), (card_id, "2H")]  # the parsers' own words, wrapped by the games'
    en, de = catalogue("en"), catalogue("de")
    seen = set()
    for parse, text in calls:
        with pytest.raises(BadNotation) as err:
            parse(text)
        reason = err.value.reason
        assert isinstance(reason, Reason) and reason.code != "text", (text, str(err.value))
        assert str(err.value) == str(reason) == reason.render("en")
        for cat in (en, de):
            assert cat.has(reason.code), f"{cat.lang}: {reason.code} has no text"
        assert _fields(en.text(reason.code)) == set(reason.params), reason.code  # English names every parameter
        assert _fields(de.text(reason.code)) <= set(reason.params), reason.code
        assert reason.render("de") != reason.render("en"), reason.code
        assert pickle.loads(pickle.dumps(err.value)).reason.code == reason.code
        seen.add(reason.code)
    notation = {c for c in en.entries if re.match(r"(\w+\.notation\.|cards\.)", c)}
    assert notation == seen, notation ^ seen
    assert len(seen) >= 38, len(seen)
    for path in sorted(SRC.rglob("*.py")):  # static: every raise names a Reason
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) \
                    and getattr(node.exc.func, "id", None) == "BadNotation":
                arg = node.exc.args[0]
                assert isinstance(arg, ast.Call) and getattr(arg.func, "id", None) == "Reason", \
                    f"{path.relative_to(SRC)}:{node.lineno} raises {ast.unparse(arg)}"


# -- the web client's words (web/static/*.js, games/<g>/web.js) ---------------------
_CLIENT_CALL = re.compile(r"\b(?:t|say|has)\(\"([a-z][\w.]*)\"\s*[,)]")


def _client_code(key: str, cat) -> str:
    """The catalogue code of a client key, as web/static/i18n.js maps it: `K` → `web.K`,
    `GAME.K` → `GAME.web.K`, anything else is a catalogue code of its own."""
    game, dot, rest = key.partition(".")
    for code in (f"web.{key}", f"{game}.web.{rest}" if dot else None):
        if code and code in cat.entries:
            return code
    return key


def test_every_word_the_web_client_names_is_in_both_catalogues():
    from wasserspiele.bots.levels import level_names
    from wasserspiele.core.registry import game_class
    sources = sorted((SRC / "web" / "static").glob("*.js")) + [SRC / "games" / g / "web.js" for g in SHIPPED]
    keys = set()
    for path in sources:
        keys |= set(_CLIENT_CALL.findall(path.read_text(encoding="utf-8")))
    keys |= {f"level_{name}" for name in level_names()} | {f"err_{c}" for c in ("stale", "not_your_turn", "game_over")}
    for name in SHIPPED:
        keys |= {f"{name}.title"} | {f"{name}.opt.{o.name}" for o in game_class(name).option_list}
    assert len(keys) > 100, len(keys)
    for lang in LANGS:
        cat = catalogue(lang)
        missing = sorted(k for k in keys if not cat.has(_client_code(k, cat)))
        assert not missing, f"{lang}: the web client names words the catalogue lacks: {missing}"


# a number before a German noun needs the noun's number ("1 Punkt", "2 Punkte")
_COUNTED = re.compile(r"\{\w+[^}]*\} (Punkt|Punkte|Punkten|Karte|Karten|Zug|Züge|Zügen|Partie|Partien|Stich|Stiche|"
                      r"Stichen|Feld|Felder|Feldern|Runde|Runden|Durchgang|Durchgänge|Spieler|Spielern)\b")


def test_a_number_before_a_noun_is_a_plural_entry():
    # plural entries choose their form by `n`; a plain entry would say "1 Punkte"
    single = sorted(k for k, v in catalogue("de").entries.items() if isinstance(v, str) and _COUNTED.search(v))
    assert single == []
    assert render("wildwasser.web.round_line", {"who": "Platz 1", "n": 1}, "de") == "Platz 1: 1 Punkt"
    assert render("wildwasser.web.round_line", {"who": "Seat 1", "n": 0}, "en") == "Seat 1: 0 points"
    assert render("wasserloch.web.drove", {"v": "4", "n": 1}, "de") == "Das vertrieb die 4er; 1 Punkt."
    assert render("rules.levels.share", {"value": 50, "n": 1, "below": "leicht", "low": 3, "high": 97}, "de") \
        == "gewinnt 50\u00a0% von 1 Partie gegen leicht (3–97\u00a0%)"  # a number stays with its %


def test_web_log_lines_name_values_and_fields_as_a_reader_says_them():
    """Found playing in German: "Das vertreibt die Aer", "landet auf den Würfel", and a finish
    "ist im Ziel, Platz 1" where Platz also names the seat."""
    assert render("wasserloch.web.drove", {"v": "A", "n": 6}, "de") == "Das vertrieb die Asse; 6 Punkte."  # was "die Aer"
    assert render("wasserloch.web.drove", {"v": "A", "n": 6}, "en") == "That drove off the aces; 6 points."  # "the As"
    # "landet auf den Würfel" (accusative), "ist im Ziel, Platz 1" (Platz is also the seat)
    icon = {i: render(f"wildwasser.web.icon.{i}", {}, "de") for i in ("die", "plus", "push")}
    assert [render("wildwasser.web.ev.icon", {"who": "Platz 1", "i": icon[i], "f": 25}, "de") for i in icon] == [
        "Platz 1 landete auf dem Würfelsymbol (Feld 25).", "Platz 1 landete auf einem Bonusfeld (Feld 25).",
        "Platz 1 landete auf dem Symbol „Baumstammtafel“ (Feld 25)."]
    assert render("wildwasser.web.ev.finish", {"a": "Nashorn", "who": "Platz 1", "p": 2}, "de") \
        == "Platz 1: Nashorn kam als 2. ins Ziel."
    assert render("wildwasser.event.icon", {"seat": 0, "icon": "die", "field": 10}, "de") \
        == "A landete auf dem Symbol „Würfel“ (Feld 10)."  # the terminal's: "A landet auf Würfel"
    assert render("wildwasser.event.icon", {"seat": 0, "icon": "push", "field": 10}, "en") \
        == "A landed on the push icon (field 10)."


def test_the_web_client_plural_entries_follow_the_language():
    assert render("web.cards_n", {"n": 1}, "de") == "1 Karte" and render("web.cards_n", {"n": 2}, "de") == "2 Karten"
    assert render("web.moves_n", {"n": 1}, "en") == "1 move" and render("web.moves_n", {"n": 0}, "en") == "0 moves"


def test_each_game_names_its_hands_or_rounds_in_german_as_its_seed_does():
    """The seeds' words: Watten's hand is a "Blattl" (the whole game a "Partie"), Wildwasser
    plays "Runden", Wasserloch "Durchgänge". A hand once read "Spiel" on the web, so that
    "Das Spiel geht an Team 1" after every hand sounded like the end of the game."""
    games = SRC / "games"
    words = {"watten": ("Blattl", r"\bSpiel(e|en|s)?\b"), "wildwasser": ("Runde", r"\bDurchg[aä]nge?s?\b|Plättchen|Treppchen"),
             "wasserloch": ("Durchgang", r"\bRunden?\b"), "seven_waters": ("Leine", r"\b(Teich|Fluss|Thema|Auslage)")}
    de = catalogue("de").entries
    for game, (word, other) in words.items():
        assert word in (games / game / "RULES.de.txt").read_text()
        texts = [v for k, v in de.items() if k.startswith(f"{game}.")]
        texts = [x for v in texts for x in (v if isinstance(v, tuple) else (v,))]
        texts.append((games / game / "rules.de.md").read_text())
        assert not [x for x in texts if re.search(other, x)], game
        assert any(word in x for x in texts), game


def test_a_value_too_long_to_read_is_shown_by_its_start():
    """A refusal quoted a pasted value whole (a 50,000-item list as a record's card was a line
    of 300,000 characters): a value shows at most SHOWN_MOST characters, text and JSON alike."""
    from wasserspiele.core.messages import SHOWN_MOST, shown
    assert shown("9" * 150) == "'" + "9" * (SHOWN_MOST - 1) + "…'"
    assert len(shown(list(range(50_000)))) == SHOWN_MOST and shown(list(range(50_000))).endswith("…")
    assert shown("x" * SHOWN_MOST) == "'" + "x" * SHOWN_MOST + "'"  # up to the limit, whole
    said = render("bot.setting_whole", {"name": "iterations", "value": "9" * 150, "least": 1, "most": 5}, "de")
    assert "9" * (SHOWN_MOST - 1) + "…" in said and "9" * SHOWN_MOST not in said
