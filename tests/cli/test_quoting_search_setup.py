"""The last refusals a user reached in English, with Python's quotes, on a German screen:
the search bot's settings (bots/ismcts.py: `play --seats ismcts:iterations=-5`), the
learned bot's settings and weights files (bots/learned.py: `learned:weights=FILE`), and
the setup of a hand-edited record (core/protocol.py, games/wasserloch/rules.py,
games/wildwasser/rules.py: `replay FILE`, `play --resume FILE`).  Each is a catalogue
code, said in the reader's language, quoting what was typed or what the file holds as
that language quotes ('x', „x“: the catalogue's term `quote`); a record's field paths
(`setup.tiles[0]`) are data and stay as the document spells them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from wasserspiele.bots.ismcts import ISMCTSBot
from wasserspiele.bots.learned import LearnedBot, Network, codec_of, weights_file, weights_problem
from wasserspiele.core.errors import BadOption, BadRecord
from wasserspiele.core.registry import load


def said(result) -> str:
    return " ".join(result.output.split())


# -- the search bot's settings on `play --seats` ----------------------------------------
SEARCH = [  # (game, --seats, English, German)
    ("watten", "human,ismcts:iterations=-5,random,random",
     "Error: bot spec 'ismcts:iterations=-5': iterations must be a whole number from 1 to 1000000, not -5",
     "Fehler: Bot-Angabe „ismcts:iterations=-5“: iterations muss eine ganze Zahl von 1 bis 1000000 sein, nicht -5"),
    ("wasserloch", "human,ismcts:seconds=0,random",
     "bot spec 'ismcts:seconds=0': seconds must be a number of seconds above 0 and at most 3600, not 0",
     "Bot-Angabe „ismcts:seconds=0“: seconds muss eine Zahl von Sekunden über 0 und höchstens 3600 sein, "
     "nicht 0"),
    ("wasserloch", "human,ismcts:exploration=-0.5,random",
     "bot spec 'ismcts:exploration=-0.5': exploration must be a non-negative number, not -0.5",
     "Bot-Angabe „ismcts:exploration=-0.5“: exploration muss eine nicht negative Zahl sein, nicht -0.5"),
    # issue 17 item 5: a count too large to end, NaN, inf and a fraction where a count is meant
    # were taken (1e9 iterations searched for hours a move, NaN for ever): each names the range
    ("wasserloch", "human,ismcts:iterations=1e9,random",
     "Error: bot spec 'ismcts:iterations=1000000000': iterations must be a whole number from 1 to 1000000, not "
     "1000000000",
     "Fehler: Bot-Angabe „ismcts:iterations=1000000000“: iterations muss eine ganze Zahl von 1 bis 1000000 sein, "
     "nicht 1000000000"),
    ("wasserloch", "human,expert:iterations=nan,random",
     "bot spec 'expert:iterations=nan' (expert is the ismcts bot for wasserloch): iterations must be a whole number from 1 to 1000000, not NaN",
     "Bot-Angabe „expert:iterations=nan“ (expert ist bei wasserloch der Bot ismcts): iterations muss eine ganze Zahl von 1 bis 1000000 sein, nicht NaN"),
    ("wasserloch", "human,ismcts:rollout_depth=1.5,random",
     "bot spec 'ismcts:rollout_depth=1.5': rollout_depth must be a whole number from 0 to 1000000, not 1.5",
     "Bot-Angabe „ismcts:rollout_depth=1.5“: rollout_depth muss eine ganze Zahl von 0 bis 1000000 sein, nicht 1.5"),
    ("wasserloch", "human,ismcts:cpu_seconds=inf,random",
     "bot spec 'ismcts:cpu_seconds=inf': cpu_seconds must be a number of seconds above 0 and at most 3600, not "
     "Infinity",
     "Bot-Angabe „ismcts:cpu_seconds=inf“: cpu_seconds muss eine Zahl von Sekunden über 0 und höchstens 3600 "
     "sein, nicht Infinity"),
    ("wasserloch", "human,ismcts:exploration=nan,random",
     "bot spec 'ismcts:exploration=nan': exploration must be a finite number, not NaN",
     "Bot-Angabe „ismcts:exploration=nan“: exploration muss eine endliche Zahl sein, nicht NaN"),
    ("wasserloch", "human,heuristic:keep_pairs=inf,random",
     "bot spec 'heuristic:keep_pairs=inf': keep_pairs must be a finite number, not Infinity",
     "Bot-Angabe „heuristic:keep_pairs=inf“: keep_pairs muss eine endliche Zahl sein, nicht Infinity"),
    ("wasserloch", "human,learned:search=1e9,random",
     "bot spec 'learned:search=1000000000': search must be a whole number of iterations from 0 to 1000000, not "
     "1000000000",
     "Bot-Angabe „learned:search=1000000000“: search muss eine ganze Zahl von Iterationen von 0 bis 1000000 sein, "
     "nicht 1000000000"),
    ("wasserloch", "human,hard:rollout=zz,random",
     "Error: bot spec 'hard:rollout=zz' (hard is the ismcts bot for wasserloch): unknown rollout 'zz' (random, policy, heuristic, solve)",
     "Fehler: Bot-Angabe „hard:rollout=zz“ (hard ist bei wasserloch der Bot ismcts): unbekannter Wert „zz“ für rollout (random, policy, heuristic, solve)"),
    # a number typed where a word is due is read as a number: shown as typed, unquoted
    ("wasserloch", "human,ismcts:rollout=3,random",
     "bot spec 'ismcts:rollout=3': unknown rollout 3 (random, policy, heuristic, solve)",
     "Bot-Angabe „ismcts:rollout=3“: unbekannter Wert 3 für rollout (random, policy, heuristic, solve)"),
    ("wasserloch", "human,ismcts:others=it's,random",
     "bot spec 'ismcts:others=it's': unknown others 'it's' (search, policy)",
     "Bot-Angabe „ismcts:others=it's“: unbekannter Wert „it's“ für others (search, policy)"),
    ("wasserloch", "human,ismcts:belief=true,random",
     "bot spec 'ismcts:belief=true': belief: the wasserloch heuristic does not define plausibility",
     "Bot-Angabe „ismcts:belief=true“: belief: der heuristic-Bot von wasserloch hat keine Funktion plausibility"),
    ("wildwasser", "human,ismcts:conventions=true,random",
     "bot spec 'ismcts:conventions=true': conventions: the wildwasser heuristic does not define convention",
     "Bot-Angabe „ismcts:conventions=true“: conventions: der heuristic-Bot von wildwasser hat keine Funktion "
     "convention"),
    ("wasserloch", "human,ismcts:rollout=solve,random",
     "bot spec 'ismcts:rollout=solve': solved rollouts: the wasserloch heuristic does not define kernel_solve",
     "Bot-Angabe „ismcts:rollout=solve“: rollout=solve: der heuristic-Bot von wasserloch hat keine Funktion "
     "kernel_solve"),
    ("wildwasser", "human,ismcts:rollout=policy,random",
     "bot spec 'ismcts:rollout=policy': policy rollouts: the wildwasser heuristic does not define rollout_policy",
     "Bot-Angabe „ismcts:rollout=policy“: rollout=policy: der heuristic-Bot von wildwasser hat keine Funktion "
     "rollout_policy"),
    ("wildwasser", "human,ismcts:root_candidates=2,random",
     "bot spec 'ismcts:root_candidates=2': the wildwasser heuristic cannot rank actions",
     "Bot-Angabe „ismcts:root_candidates=2“: der heuristic-Bot von wildwasser kann die Züge nicht ordnen"),
    # the learned bot's settings
    ("wasserloch", "human,learned:search=-1,random",
     "bot spec 'learned:search=-1': search must be a whole number of iterations from 0 to 1000000, not -1",
     "Bot-Angabe „learned:search=-1“: search muss eine ganze Zahl von Iterationen von 0 bis 1000000 sein, "
     "nicht -1"),
    ("wasserloch", "human,learned:search=1.5,random",
     "search must be a whole number of iterations from 0 to 1000000, not 1.5",
     "search muss eine ganze Zahl von Iterationen von 0 bis 1000000 sein, nicht 1.5"),
    ("wasserloch", "human,learned:value=it's,random",
     "bot spec 'learned:value=it's': value must be network (the value head) or rollout (the expert's rollouts), "
     "not 'it's'",
     "Bot-Angabe „learned:value=it's“: value muss network (der Wertkopf des Netzes) oder rollout (die Rollouts "
     "des Experten) sein, nicht „it's“"),
    ("wasserloch", "human,learned:cpu_seconds=1,random",
     "bot spec 'learned:cpu_seconds=1': cpu_seconds caps a search: give search=N iterations too",
     "Bot-Angabe „learned:cpu_seconds=1“: cpu_seconds begrenzt eine Suche: gib auch search=N Iterationen an"),
    ("wasserloch", "human,learned:rollout_depth=3,random",
     "bot spec 'learned:rollout_depth=3': rollout_depth is the depth of the expert's rollouts: give value=rollout "
     "too",
     "Bot-Angabe „learned:rollout_depth=3“: rollout_depth ist die Tiefe der Rollouts des Experten: gib auch "
     "value=rollout an"),
]


def _refused_in_both(run, game, seats, english, german):
    result = run("play", game, "--seats", seats, input="quit\n")
    assert result.exit_code == 2 and english in said(result), result.output
    result = run("play", game, "--seats", seats, "--lang", "de", input="ende\n")
    assert result.exit_code == 2 and german in said(result), result.output


@pytest.mark.parametrize("game, seats, english, german", SEARCH, ids=[s for _, s, _, _ in SEARCH])
def test_a_refused_search_setting_is_said_in_the_language_quoting_as_it_quotes(run, game, seats, english, german):
    _refused_in_both(run, game, seats, english, german)


def _refusal(call):
    with pytest.raises(BadOption) as err:
        call()
    return err.value.reason


def test_search_refusals_the_command_line_does_not_reach_are_codes_too():
    game = load("watten")
    cases = [
        (lambda: ISMCTSBot(seed=1, iterations=None), "ISMCTS needs an iteration or a time budget",
         "ISMCTS braucht eine Zahl von Iterationen oder eine Zeitvorgabe"),
        (lambda: ISMCTSBot(seed=1, rollout_depth="it's", game=game),
         "rollout_depth must be a whole number from 0 to 1000000, not 'it's'",
         "rollout_depth muss eine ganze Zahl von 0 bis 1000000 sein, nicht „it's“"),
        (lambda: ISMCTSBot(seed=1, iterations=True, game=game),
         "iterations must be a whole number from 1 to 1000000, not true",
         "iterations muss eine ganze Zahl von 1 bis 1000000 sein, nicht true"),
        (lambda: ISMCTSBot(seed=1, belief=True), "belief requires the game", "belief braucht das Spiel"),
        (lambda: ISMCTSBot(seed=1, root_candidates=3), "root_candidates needs the game (its heuristic ranks",
         "root_candidates braucht das Spiel (sein heuristic-Bot ordnet"),
        (lambda: ISMCTSBot(seed=1, rollout="heuristic"), "heuristic rollouts need the game",
         "rollout=heuristic braucht das Spiel"),
        (lambda: ISMCTSBot(seed=1, others="policy", guide=object(), game=game),
         "others=policy is a setting of the plain search, not of a guided one",
         "others=policy ist eine Einstellung der einfachen Suche, nicht der vom Netz gelenkten"),
        (lambda: LearnedBot(0), "the learned bot needs the game (its codec and weights)",
         "der Bot learned braucht das Spiel (für seinen Codec und seine Gewichte)"),
        (lambda: weights_file("w.txt", writing=True),
         "weights are written as FILE.npz with the sidecar FILE.json: give a name ending in .npz or without a "
         "suffix, not 'w.txt'",
         "Gewichte werden als DATEI.npz mit der Begleitdatei DATEI.json geschrieben: gib einen Namen mit der "
         "Endung .npz oder ohne Endung an, nicht „w.txt“"),
    ]
    for call, english, german in cases:
        reason = _refusal(call)
        assert reason.code.startswith(("bot.ismcts.", "bot.learned.", "bot.setting_")), reason.code
        assert str(reason).startswith(english), str(reason)
        assert reason.render("de").startswith(german), reason.render("de")


# -- the learned bot's weights files ----------------------------------------------------
def _network(game_name: str) -> Network:
    codec = codec_of(load(game_name))
    return Network.init(codec.obs_size, codec.num_actions, (4,), np.random.default_rng(0))


def test_a_refused_weights_file_is_said_in_the_language_quoting_as_it_quotes(run, tmp_path):
    _network("wasserloch").save(tmp_path / "side.npz", {"game": "wasserloch"})
    (tmp_path / "junk.npz").write_text("not weights")
    (tmp_path / "folder.npz").mkdir()
    np.savez(tmp_path / "half.npz", w0=np.zeros((2, 2)), wp=np.zeros((2, 2)))
    _network("wildwasser").save(tmp_path / "other.npz", {"game": "wildwasser"})
    _network("wasserloch").save(tmp_path / "old.npz", {"codec": "0123456789abcdef",
                                                       "command": "wasserspiele train wasserloch"})
    obs, actions = codec_of(load("wasserloch")).obs_size, codec_of(load("wasserloch")).num_actions
    other = _network("wildwasser")
    t = tmp_path
    cases = [
        (f"learned:weights={t}/nope",
         f"learned weights '{t}/nope': no such file '{t}/nope.npz' (a name without a suffix means nope.npz)",
         f"Gewichte des learned-Bots „{t}/nope“: die Datei „{t}/nope.npz“ gibt es nicht (ein Name ohne Endung "
         f"steht für nope.npz)"),
        (f"learned:weights={t}/nope.npz", f"learned weights '{t}/nope.npz': no such file '{t}/nope.npz'",
         f"Gewichte des learned-Bots „{t}/nope.npz“: die Datei „{t}/nope.npz“ gibt es nicht"),
        (f"learned:weights={t}/side.json",
         f"learned weights '{t}/side.json': a JSON file, not weights; the weights are the .npz archive "
         f"`wasserspiele train` writes (FILE.npz, its JSON sidecar FILE.json only says how they were made): the "
         f"weights beside it are learned:weights={t}/side.npz",
         f"Gewichte des learned-Bots „{t}/side.json“: eine JSON-Datei, keine Gewichte; die Gewichte sind das "
         f".npz-Archiv, das `wasserspiele train` schreibt (DATEI.npz; die JSON-Begleitdatei DATEI.json sagt nur, "
         f"wie sie entstanden sind): die Gewichte daneben sind learned:weights={t}/side.npz"),
        (f"learned:weights={t}/junk.npz",
         f"learned weights '{t}/junk.npz': not a weights file: expected the .npz archive of arrays that "
         f"`wasserspiele train` writes (its JSON sidecar beside it)",
         f"Gewichte des learned-Bots „{t}/junk.npz“: keine Gewichtsdatei: erwartet wird das .npz-Archiv von "
         f"Arrays, das `wasserspiele train` schreibt (mit seiner JSON-Begleitdatei daneben)"),
        (f"learned:weights={t}/folder.npz", f"learned weights '{t}/folder.npz': a directory, not a weights file",
         f"Gewichte des learned-Bots „{t}/folder.npz“: ein Ordner, keine Gewichtsdatei"),
        (f"learned:weights={t}/half.npz", f"learned weights '{t}/half.npz': missing b0, bp, bv, wv",
         f"Gewichte des learned-Bots „{t}/half.npz“: es fehlen b0, bp, bv, wv"),
        # the options the sidecar names are JSON, shown as JSON (not as Python's dict)
        (f"learned:weights={t}/other.npz",
         f"learned weights other.npz: made for observations of {other.obs_size} and {other.num_actions} actions "
         f"(options {{}}), but wasserloch with these options has {obs} and {actions}",
         f"Gewichte des learned-Bots other.npz: trainiert für Beobachtungen der Länge {other.obs_size} und einen "
         f"Zugraum der Größe {other.num_actions} (Optionen {{}}), aber wasserloch hat mit diesen Optionen {obs} und "
         f"{actions}"),
        (f"learned:weights={t}/old.npz",
         "learned weights old.npz: made for another encoding of wasserloch (codec 0123456789abcdef, now ",
         "Gewichte des learned-Bots old.npz: trainiert für eine andere Kodierung von wasserloch (Codec "
         "0123456789abcdef, jetzt "),
    ]
    for spec, english, german in cases:
        _refused_in_both(run, "wasserloch", f"human,{spec},random", f"bot spec '{spec}': {english}",
                         f"Bot-Angabe „{spec}“: {german}")


def test_why_the_shipped_weights_cannot_play_is_a_code_too():
    problem = weights_problem(load("wasserloch", first_player=1))
    assert problem is not None and problem.code == "bot.learned.other_options", problem
    assert problem == "learned weights for wasserloch: trained on other options (first_player=0)"
    assert problem.render("de") == "Gewichte des learned-Bots für wasserloch: mit anderen Optionen trainiert " \
                                   "(first_player=0)"


# -- a record's setup: `replay FILE` and `play --resume FILE` ----------------------------
def _tiles() -> list[str]:
    return list(load("wildwasser").board.regular_ids)


DECK = list("A2345678") * 8

SETUPS = [  # (game, setup, English, German)
    ("wildwasser", {"foo": 1}, "setup.foo: unknown field for wildwasser (fields: tiles, dice)",
     "setup.foo: unbekanntes Feld für wildwasser (Felder: tiles, dice)"),
    ("wildwasser", {}, "setup.tiles: missing (an order of all 24 tiles T01–T24)",
     "setup.tiles: fehlt (eine Reihenfolge aller 24 Tafeln T01–T24)"),
    ("wildwasser", {"tiles": "T01"}, "setup.tiles: must be a list (an order of all 24 tiles T01–T24)",
     "setup.tiles: muss eine Liste sein (eine Reihenfolge aller 24 Tafeln T01–T24)"),
    ("wildwasser", {"tiles": ["T01"]}, "setup.tiles: has 1 tile, needs an order of all 24 tiles T01–T24",
     "setup.tiles: hat 1 Tafel, braucht eine Reihenfolge aller 24 Tafeln T01–T24"),
    ("wildwasser", {"tiles": ["T01", "T02"]}, "setup.tiles: has 2 tiles, needs an order of all 24 tiles T01–T24",
     "setup.tiles: hat 2 Tafeln, braucht eine Reihenfolge aller 24 Tafeln T01–T24"),
    # JSON's null, not Python's None
    ("wildwasser", {"tiles": [None] + _tiles()[1:]}, "setup.tiles[0]: null is not a tile id like T01",
     "setup.tiles[0]: null ist keine Tafel-Kennung wie T01"),
    ("wildwasser", {"tiles": ["it's"] + _tiles()[1:]}, "setup.tiles[0]: unknown tile 'it's' (tiles T01–T24)",
     "setup.tiles[0]: unbekannte Tafel „it's“ (Tafeln T01–T24)"),
    ("wildwasser", {"tiles": ["T00"] + _tiles()[1:]}, "setup.tiles[0]: T00 is the start tile; it always lies in "
     "slot 1", "setup.tiles[0]: T00 ist die Starttafel; sie liegt immer auf Position 1"),
    ("wildwasser", {"tiles": _tiles()[:23] + ["T01"]}, "setup.tiles[23]: T01 appears twice",
     "setup.tiles[23]: T01 kommt doppelt vor"),
    ("wildwasser", {"tiles": _tiles(), "dice": "3"}, "setup.dice: must be a list of die faces",
     "setup.dice: muss eine Liste von Würfelseiten sein"),
    ("wildwasser", {"tiles": _tiles(), "dice": ["3", "moon"]},
     "setup.dice[1]: 'moon' is not a die face ('1', '2', '3', '4', '5', and 'sun')",
     "setup.dice[1]: „moon“ ist keine Würfelseite („1“, „2“, „3“, „4“, „5“ und „sun“)"),
    ("wildwasser", {"tiles": _tiles(), "dice": [3]},
     "setup.dice[0]: 3 is not a die face ('1', '2', '3', '4', '5', and 'sun')",
     "setup.dice[0]: 3 ist keine Würfelseite („1“, „2“, „3“, „4“, „5“ und „sun“)"),
    ("wasserloch", {"deck": []}, "setup.deck: unknown field for wasserloch (fields: decks)",
     "setup.deck: unbekanntes Feld für wasserloch (Felder: decks)"),
    ("wasserloch", {"decks": [{"A": 8}]}, "setup.decks[0]: must be a list of 64 card values",
     "setup.decks[0]: muss eine Liste von 64 Kartenwerten sein"),
    ("wasserloch", {"decks": "x"}, "setup.decks: must be a list of decks (one per round)",
     "setup.decks: muss eine Liste von Kartenstapeln sein (einer je Durchgang)"),
    ("wasserloch", {"decks": [DECK] * 4}, "setup.decks: 4 decks for a match of 3 rounds",
     "setup.decks: 4 Kartenstapel für eine Partie über 3 Durchgänge"),
    ("wasserloch", {"decks": [DECK[:3]]}, "setup.decks[0]: must be a list of 64 card values, got 3",
     "setup.decks[0]: muss eine Liste von 64 Kartenwerten sein, hat aber 3"),
    ("wasserloch", {"decks": [["it's"] + DECK[1:]]},
     "setup.decks[0][0]: 'it's' is not a card value (A 2 3 4 5 6 7 8)",
     "setup.decks[0][0]: „it's“ ist kein Kartenwert (A 2 3 4 5 6 7 8)"),
    ("wasserloch", {"decks": [[None] + DECK[1:]]}, "setup.decks[0][0]: null is not a card value (A 2 3 4 5 6 7 8)",
     "setup.decks[0][0]: null ist kein Kartenwert (A 2 3 4 5 6 7 8)"),
    ("wasserloch", {"decks": [["2"] + DECK[1:]]}, "setup.decks[0]: each value must appear 8 times, found A×7, 2×9",
     "setup.decks[0]: jeder Wert muss 8-mal vorkommen, gefunden: A×7, 2×9"),
]


@pytest.mark.parametrize("game, setup, english, german", SETUPS, ids=[e for _, _, e, _ in SETUPS])
def test_a_malformed_setup_is_refused_in_the_readers_language(run, tmp_path, game, setup, english, german):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"game": game, "setup": setup, "actions": []}, ensure_ascii=False))
    for command in (("replay", str(path)), ("play", "--resume", str(path))):
        result = run(*command, input="quit\n")
        assert result.exit_code == 2 and said(result).startswith(f"Error: {english}"), result.output
        result = run(*command, "--lang", "de", input="ende\n")
        assert result.exit_code == 2 and said(result).startswith(f"Fehler: {german}"), result.output


def test_a_setup_refusal_keeps_the_field_path_as_data():
    with pytest.raises(BadRecord) as err:
        load("wildwasser").new_game(setup={"tiles": _tiles()[:23] + ["T01"]})
    reason = err.value.reason
    assert reason.code == "wildwasser.setup.tile_twice" and reason.params["field"] == "setup.tiles[23]", reason
    # a setup that is no object (the record's schema refuses it first on the command line)
    with pytest.raises(BadRecord) as err:
        load("wasserloch").validate_setup([])
    assert err.value.reason.code == "schema.not_object"
    assert err.value.reason.render("de") == "setup: muss ein Objekt sein"
