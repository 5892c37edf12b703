"""`play --plain` (a screen reader or braille display reading the terminal line by line):
signs that only the eye reads are said in words.  A screen reader read Watten's teams
`seats 0+2` as "0 plus 2", Wildwasser's podium places `1.A(5)` as "1 dot A left paren 5",
`3× blank tile` as "3 times", an empty podium or hand `-` as "dash" (or nothing), `hand +
face-down pick` and Watten's hand points `+1` as "plus", Seven Waters' line sum `(=9)` as
"equals 9", a missing slide `—` as "em dash" and an extra action's `+` as "plus", and
Wasserloch's "3+ aces" as "3 plus aces", a card `8♠` as "8 black spade suit" (or its sign
not at all), Seven Waters' joker `Jk1=5` letter by letter and the competition edition's
`0 of ∞` as "0 of infinity".  The styled screen keeps its short forms.  Wasserloch's hint
names its moves in the words of the browser's move button, from that one catalogue entry;
cards are named as the page's screen reader names them (web.card_name)."""

from __future__ import annotations

import functools
import re

import pytest
from rich.text import Text

from wasserspiele.core.messages import render

from .test_terminal_plain import _every_plain_text

# the signs read aloud as something else, each as it appeared in a plain line before
SIGNS = {
    "a sum of seats": re.compile(r"\d\+\d"),                   # seats 0+2
    "a count and more": re.compile(r"\d\+(?=[\s)]|$)"),        # 3+ aces
    "a multiplication sign": re.compile(r"×"),                 # 3× blank tile
    "a dash for nothing": re.compile(r"(^|\s)-(?=$|[\s;,])"),  # podium `-`, no animal placed `-`
    "an em dash": re.compile(r"—"),                            # slide: —
    "an equals sign for a sum": re.compile(r"\(="),            # (=9)
    "a plus as a bullet": re.compile(r"^\s*\+ "),              # + Seat 0 took …
    "a place, a letter and brackets": re.compile(r"\d\.[A-F]\("),  # 1.A(5)
    "a plus for and": re.compile(r"[^\W\d] \+ [^\W\d]"),        # hand + face-down pick
    "a plus for points": re.compile(r": \+\d+ \("),           # won the hand: +1 (…)
    "a card's suit sign": re.compile(r"(?<![\w♣♦♥♠])(10|[2-9AKQJTBD])[♣♦♥♠]"),  # 8♠, B♣
    "a joker's letters": re.compile(r"\bJk\d"),               # Jk1, Jk1=5
    "an infinity sign": re.compile(r"∞"),                     # Slides: 0 of ∞
}
# what the legend (`help`) keeps: it teaches the notation one types, signs and all ("5H or 5♥")
NOTATION = ("a card's suit sign", "a joker's letters")


@functools.cache  # one seeded game per game, language and form, read by several tests
def _lines(game: str, lang: str, plain: bool) -> tuple[str, ...]:
    return tuple(Text.from_markup(line).plain for text in _every_plain_text(game, lang, plain)
                 for line in text.splitlines())


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", ["wasserloch", "seven_waters", "watten", "wildwasser"])
def test_plain_lines_say_in_words_what_the_screen_says_with_signs(game, lang):
    """Every board, its news, the own move, the result and the legend along a random game."""
    plain = _lines(game, lang, True)
    said = {name: line for name, sign in SIGNS.items() for line in plain if sign.search(line)
            and not (name in NOTATION and line in _legend(game, lang))}
    assert not said, said


@functools.cache
def _legend(game: str, lang: str) -> tuple[str, ...]:
    import wasserspiele
    from wasserspiele.cli.render import renderer

    return tuple(renderer(game).legend(wasserspiele.load(game).new_game(seed=5).view(None), lang).splitlines())


@pytest.mark.parametrize("game, kept", [("seven_waters", ["an em dash", "an equals sign for a sum",
                                                          "a plus as a bullet", "a card's suit sign",
                                                          "a joker's letters"]),
                                        ("watten", ["a sum of seats", "a plus for points", "a card's suit sign"]),
                                        ("wildwasser", ["a multiplication sign", "a dash for nothing",
                                                        "a place, a letter and brackets", "a plus for and"])])
def test_the_styled_screen_keeps_its_short_forms(game, kept):
    default = _lines(game, "en", False)
    lost = [name for name in kept if not any(SIGNS[name].search(line) for line in default)]
    assert not lost, lost


# -- Watten -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang, team, winners", [
    ("en", "Team 0 (seats 0 and 2): Score 11; Tricks 4", "Winners: Team 0 (seats 0 and 2)"),
    ("de", "Team 0 (Plätze 0 und 2): Punkte 11; Stiche 4", "Sieger: Team 0 (Plätze 0 und 2)"),
])
def test_wa_1_1_plain_names_a_team_s_seats_in_words(run, lang, team, winners):
    """The team lines and the winners' line: `seats 0+2` was read "seats 0 plus 2"."""
    args = ["play", "watten", "--seats", "random,random,random,random", "--seed", "1", "--lang", lang]
    default, plain = run(*args), run(*args, "--plain")
    assert default.exit_code == 0 and plain.exit_code == 0
    assert team in plain.output.splitlines() and winners in plain.output.splitlines(), plain.output[-1500:]
    assert "0+2" in default.output and "+" not in plain.output


@pytest.mark.parametrize("lang, said", [("en", "Team 1 won the hand: 1 point (three or more tricks)"),
                                        ("de", "Team 1 gewann das Blattl: 1 Punkt (mindestens drei Stiche)")])
def test_wa_4_1_plain_says_a_hand_s_points_in_words(lang, said):
    """A hand's end was `Team 1 won the hand: +1 (…)`, read "plus 1"."""
    plain = _lines("watten", lang, True)
    assert any(line.startswith(said) for line in plain), [x for x in plain if "Team 1" in x][:3]


# -- Wildwasser -------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang, zebra, nobody, seat", [
    ("en", "zebra: place 1, player A, 5 points; place 2, player C, 3 points; place 3, player D, 1 point",
     "rhino: nobody yet", "D: 1 point; team card: cheetah; hand: rhino, turtle; revealed: cheetah, zebra, meerkat"),
    ("de", "Zebra: Platz 1, Spieler A, 5 Punkte; Platz 2, Spieler C, 3 Punkte; Platz 3, Spieler D, 1 Punkt",
     "Nashorn: noch niemand",
     "D: 1 Punkt; Teamkarte: Gepard; Hand: Nashorn, Schildkröte; aufgedeckt: Gepard, Zebra, Erdmännchen"),
])
def test_ww_4_2_plain_reads_a_podium_place_by_place_with_player_and_points(run, lang, zebra, nobody, seat):
    """WW-4.2, WW-5.3: each species' podium, its places in order with whose animal and the
    place's points, was `1.A(5) 2.C(3) 3.D(1)` and an empty one `-`."""
    args = ["play", "wildwasser", "--seats", "random,random,random,random", "--seed", "1", "--lang", lang]
    default, plain = run(*args, env={"COLUMNS": "200"}), run(*args, "--plain", env={"COLUMNS": "200"})
    assert default.exit_code == 0 and plain.exit_code == 0
    assert "1.A(5) 2.C(3) 3.D(1)" in default.output
    lines = plain.output.splitlines()
    assert zebra in lines and nobody in lines and seat in lines, plain.output[-2500:]


def test_ww_5_3_plain_result_says_a_player_without_a_placed_animal_in_words():
    """A player none of whose animals finished had `D: 1 pt; -`."""
    import random

    import wasserspiele
    from wasserspiele.cli.render import drawn, renderer

    state, rng = wasserspiele.load("wildwasser").new_game(seed=5), random.Random(5)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions(state.current_seat)), state.current_seat)
    view = state.view(None)
    for sp in view["seats"][0]["animals"]:
        view["seats"][0]["animals"][sp]["place"] = None  # seat A: no animal of it placed
    for lang, said in (("en", "A: 0 points; no animal finished"), ("de", "A: 0 Punkte; kein Tier im Ziel")):
        view["seats"][0]["points"] = 0
        lines = Text.from_markup(drawn(renderer("wildwasser").render_result, view, lang, 100, True)).plain
        assert said in lines.splitlines(), lines


@pytest.mark.parametrize("lang, counted", [("en", "blank tile (2 tiles)"), ("de", "leere Tafel (2 Tafeln)")])
def test_ww_4_4_plain_counts_the_tiles_over_the_waterfall_in_words(lang, counted):
    """`2× blank tile` was read "2 times blank tile"."""
    plain = _lines("wildwasser", lang, True)
    default = _lines("wildwasser", lang, False)
    over = render("wildwasser.ui.discard", {"t": ""}, lang)
    assert any(line.startswith(over) and counted in line for line in plain), [x for x in plain if x.startswith(over)][:3]
    assert any(line.startswith(over) and "2×" in line for line in default)


# -- Seven Waters -----------------------------------------------------------------------------------
@pytest.mark.parametrize("lang, line, pool, extra", [
    ("en", re.compile(r"^  Line \d: .+ \(sum \d+\); slide: none$"),
     re.compile(r"^  Wave pool \([♣♦♥♠] (clubs|diamonds|hearts|spades)\): "), "  Extra action: "),
    ("de", re.compile(r"^  Leine \d: .+ \(Summe \d+\); Rutsche: keine$"),
     re.compile(r"^  Wellenbecken \([♣♦♥♠] (Kreuz|Karo|Herz|Pik)\): "), "  Zusatzaktion: "),
])
def test_sw_4_3_plain_says_a_line_s_sum_its_missing_slide_the_pool_s_suit_and_an_extra_action(lang, line, pool, extra):
    """SW-4.3a–c: `Line 2: 5♠ 4♣ (=9)  slide: —` ("equals 9", "em dash"), `Wave pool (♣)`
    (a suit sign alone), `  + Seat 0 took …` after a slide ("plus")."""
    plain = _lines("seven_waters", lang, True)
    assert any(line.match(x) for x in plain), [x for x in plain if "(" in x][:5]
    assert any(pool.match(x) for x in plain), [x for x in plain if "ool" in x or "becken" in x][:5]
    assert any(x.startswith(extra) for x in plain)


# -- Wasserloch -------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang, words", [("en", {"3x2": "play two 3s", "Ax1": "play one ace", "5x3": "play three 5s"}),
                                         ("de", {"3x2": "zwei 3er ausspielen", "Ax1": "ein Ass ausspielen",
                                                 "5x3": "drei 5er ausspielen"})])
def test_wl_4_1_a_play_in_the_words_of_the_browser_s_move_button(lang, words):
    """The terminal says a play as the page's button does, from its catalogue entry."""
    from wasserspiele.cli.render import renderer
    from wasserspiele.games.wasserloch.actions import VALUES, parse_action

    for notation, said in words.items():
        p = parse_action(notation)
        assert renderer("wasserloch").say_action(notation, lang) == said
        assert said == render("wasserloch.web.play_button", {"n": p.count, "v": VALUES[p.value]}, lang)


def _hint_moves(output: str, head: str) -> list[str]:
    """The hint's best move and its alternatives, each to the line's end (a terminal wide
    enough not to fold them)."""
    lines = output.split(head, 1)[1].splitlines()
    return [lines[0]] + [x.strip() for x in lines[2:5] if x.startswith("    ")]


@pytest.mark.parametrize("lang, head, type_", [("en", "hint: ", "type"), ("de", "Tipp: ", "tippe")])
def test_wl_4_1_the_plain_hint_names_its_moves_as_the_button_does(run, lang, head, type_):
    """The hint gave the notation alone (`3x2`, read "3 x 2"); plain, the button's words and
    what to type, as the move lists say a move (`play two 3s: type 3x2`).  The styled
    screen keeps the notation alone."""
    from wasserspiele.games.wasserloch.actions import VALUES, parse_action

    args = ["play", "wasserloch", "--seed", "3", "--option", "rounds=1", "--lang", lang]
    plain = run(*args, "--plain", input="hint\nquit\n", env={"COLUMNS": "200"})
    default = run(*args, input="hint\nquit\n", env={"COLUMNS": "200"})
    assert plain.exit_code == 0 and default.exit_code == 0
    shown = _hint_moves(plain.output, head)
    assert len(shown) >= 2, plain.output[-800:]
    for line in shown:
        said = re.match(rf"(.+): {type_} ([A2-8]x\d) \(", line)
        assert said, line
        p = parse_action(said.group(2))
        assert said.group(1) == render("wasserloch.web.play_button", {"n": p.count, "v": VALUES[p.value]}, lang)
    assert all(re.match(r"[A2-8]x\d \(", line) for line in _hint_moves(default.output, head))


@pytest.mark.parametrize("plain", [False, True])
def test_wl_4_3_the_english_board_says_three_or_more_aces_as_the_german_does(run, plain):
    """"only 3+ aces drive them off" (read "3 plus aces"); German said „3 oder mehr Asse"."""
    result = run("play", "wasserloch", "--seed", "1", *(["--plain"] if plain else []), input="quit\n")
    assert "only 3 or more aces drive them off" in result.output and "3+" not in result.output


# -- cards in words ---------------------------------------------------------------------------------
# a card as the page's screen reader names it (web.card_name): "8 of spades", „Pik-8"
CARD_WORDS = {"en": re.compile(r"\b(10|[2-9]|ace|king|queen|jack) of (clubs|diamonds|hearts|spades)\b"),
              "de": re.compile(r"\b(Kreuz|Karo|Herz|Pik)-(10|[2-9]|Ass|König|Dame|Bube)\b")}


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", ["watten", "seven_waters"])
def test_plain_lines_name_cards_by_rank_and_suit_in_words(game, lang):
    """`8♠` was read "8 black spade suit" (or the sign not at all), German `B♣` "B"; plain
    lines say "8 of spades", „Pik-8", „Kreuz-Bube" in the board, the news and the own move."""
    plain = _lines(game, lang, True)
    words = CARD_WORDS[lang]
    hand = render(f"{game}.ui.hand", None, lang)
    assert any(words.search(x) and hand in x for x in plain), [x for x in plain if hand in x][:3]
    own = [x for x in plain if x.startswith(("You ", "Du "))]
    assert own and all(not SIGNS["a card's suit sign"].search(x) for x in own), own[:3]
    assert any(words.search(x) for x in own), own[:5]
    other = "en" if lang == "de" else "de"
    assert not any(CARD_WORDS[other].search(x) for x in plain)  # German lines German, English lines English


@pytest.mark.parametrize("lang, played", [("en", re.compile(r"^Seat \d played (10|[2-9]|ace|king|queen|jack) of "
                                                          r"(clubs|diamonds|hearts|spades)$")),
                                          ("de", re.compile(r"^Platz \d spielte (Kreuz|Karo|Herz|Pik)-"
                                                          r"(10|[7-9]|Ass|König|Dame|Bube)$"))])
def test_wa_1_2_plain_news_says_the_card_played_in_words(lang, played):
    """Watten's news `Seat 1 played B♣` in the suits and ranks of the game's catalogue."""
    plain = _lines("watten", lang, True)
    assert any(played.match(x) for x in plain), [x for x in plain if x.startswith(("Seat", "Platz"))][:5]
    assert any(re.match(r"^(Seat|Platz) \d (played|spielte) (10|[7-9AKQJBD])[♣♦♥♠]$", x)
               for x in _lines("watten", lang, False))  # the screen keeps its signs


@pytest.mark.parametrize("lang, joker", [("en", re.compile(r"\bjoker [12] as (\d+|ace|king|queen|jack|clubs|diamonds"
                                                            r"|hearts|spades)\b")),
                                         ("de", re.compile(r"\bJoker [12] als (\d+|Ass|König|Dame|Bube|Kreuz|Karo|Herz"
                                                            r"|Pik)\b"))])
def test_sw_2_2_plain_says_a_joker_s_declaration_in_words(lang, joker):
    """SW-2.2: a joker declared for a slide, the river or the pool was `Jk1=5` (read letter by
    letter), `Jk1=♥`; plain: "joker 1 as 5", „Joker 1 als Herz"."""
    plain = _lines("seven_waters", lang, True)
    assert any(joker.search(x) for x in plain), [x for x in plain if "oker" in x][:5]
    assert any(re.search(r"\bJk[12]=", x) for x in _lines("seven_waters", lang, False))


@pytest.mark.parametrize("lang, said", [("en", "Slides: 0, no limit; To move: Seat 0"),
                                        ("de", "Rutschen: 0, keine Grenze; Am Zug: Platz 0")])
def test_sw_7_1_plain_says_the_competition_edition_sets_no_slide_limit(run, lang, said):
    """SW-7.1 (slide_limit null): the head was `Slides: 0 of ∞`, read "0 of infinity"."""
    args = ["play", "seven_waters", "--seed", "1", "--option", "slide_limit=null", "--lang", lang]
    plain, default = run(*args, "--plain", input="quit\n"), run(*args, input="quit\n")
    assert plain.exit_code == 0 and default.exit_code == 0
    assert said in plain.output.splitlines(), plain.output[:600]
    assert "∞" not in plain.output and "0/∞" in default.output


@pytest.mark.parametrize("lang, hint, styled", [("en", "hint: jack of clubs: type JC (", "hint: JC ("),
                                                ("de", "Tipp: Kreuz-Bube: tippe BKr (", "Tipp: B♣ (")])
def test_wa_1_2_the_plain_hint_names_its_card_in_words(run, lang, hint, styled):
    """The hint gave the card's notation alone (`B♣`, read "B black club suit"); plain, its
    words and what to type, as the move lists say it (no suit sign: German types `BKr`).
    The styled screen keeps the notation."""
    args = ["play", "watten", "--seed", "1", "--lang", lang]
    answers = ("signal weak" if lang == "en" else "signal schwach") + "\nhint\nquit\n"
    plain = run(*args, "--plain", input=answers, env={"COLUMNS": "200"})
    default = run(*args, input=answers, env={"COLUMNS": "200"})
    assert plain.exit_code == 0 and default.exit_code == 0
    assert hint in plain.output, plain.output[-800:]
    assert styled in default.output, default.output[-800:]


@pytest.mark.parametrize("game, typed, lang, plain_said, styled_said", [
    ("watten", "signal weak\n7H\nquit\n", "en", "(jack of clubs in hand)", "(J♣ in hand)"),
    ("watten", "signal schwach\n7H\nende\n", "de", "(Kreuz-Bube auf der Hand)", "(B♣ auf der Hand)"),
    ("seven_waters", "pool AD AS\nquit\n", "en", "but ace of diamonds and ace of spades differ",
     "but A♦ and A♠ differ"),
    ("seven_waters", "discard 2C\nende\n", "de", "Kreuz-2 ist nicht auf der Hand", "2♣ ist nicht auf der Hand"),
])
def test_wa_3_2_sw_2_2_a_plain_refusal_names_its_cards_in_words(run, game, typed, lang, plain_said, styled_said):
    """WA-3.2's `trump must be followed … (J♣ in hand)`, Seven Waters' `2♣ is not in hand`: the
    cards of a refusal were read by their signs; plain, in words."""
    args = ["play", game, "--seed", "1", "--lang", lang]
    plain = run(*args, "--plain", input=typed, env={"COLUMNS": "200"})
    default = run(*args, input=typed, env={"COLUMNS": "200"})
    assert plain.exit_code == 0 and default.exit_code == 0
    assert plain_said in plain.output, plain.output[-800:]
    assert styled_said in default.output, default.output[-800:]


@pytest.mark.parametrize("lang, words", [("en", {"JC": "jack of clubs", "TH": "10 of hearts", "raise": None}),
                                         ("de", {"JC": "Kreuz-Bube", "TH": "Herz-10", "raise": None})])
def test_wa_1_2_a_card_move_in_words(lang, words):
    """A card to play in words (the plain hint's); the other moves' notation is their words."""
    from wasserspiele.cli.render import renderer
    for notation, said in words.items():
        assert renderer("watten").say_action(notation, lang) == said


@pytest.mark.parametrize("lang, words", [
    ("en", {"slide 2 KD AC": "slide 2 king of diamonds, ace of clubs",
            "river X1=T 9C": "river joker 1 as 10, 9 of clubs",
            "pool X2=H 4S": "pool joker 2 as hearts, 4 of spades", "slide 1 X1=5 4C": "slide 1 joker 1 as 5, 4 of clubs",
            "take 7-3": None}),
    ("de", {"slide 2 KD AC": "rutsche 2 Karo-König, Kreuz-Ass", "river X1=T 9C": "kanal Joker 1 als 10, Kreuz-9",
            "pool X2=H 4S": "becken Joker 2 als Herz, Pik-4", "slide 1 X1=5 4C": "rutsche 1 Joker 1 als 5, Kreuz-4",
            "take 7-3": None}),
])
def test_sw_2_2_a_move_s_cards_in_words(lang, words):
    """SW-2.2: a move's cards in words, a joker with what it was declared as (a value in a
    slide, a rank in the river, a suit in the pool); a take names a place, not a card."""
    from wasserspiele.cli.render import renderer
    for notation, said in words.items():
        assert renderer("seven_waters").say_action(notation, lang) == said
