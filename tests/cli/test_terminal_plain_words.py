"""`play --plain` (a screen reader or braille display reading the terminal line by line):
signs that only the eye reads are said in words.  A screen reader read Watten's teams
`seats 0+2` as "0 plus 2", Wildwasser's podium places `1.A(5)` as "1 dot A left paren 5",
`3× blank tile` as "3 times", an empty podium or hand `-` as "dash" (or nothing), `hand +
face-down pick` and Watten's hand points `+1` as "plus", Seven Waters' line sum `(=9)` as
"equals 9", a missing slide `—` as "em dash" and an extra action's `+` as "plus", and
Wasserloch's "3+ aces" as "3 plus aces".  The styled screen
keeps its short forms.  Wasserloch's hint names its moves in the words of the browser's
move button, from that one catalogue entry."""

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
}


@functools.cache  # one seeded game per game, language and form, read by several tests
def _lines(game: str, lang: str, plain: bool) -> tuple[str, ...]:
    return tuple(Text.from_markup(line).plain for text in _every_plain_text(game, lang, plain)
                 for line in text.splitlines())


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", ["wasserloch", "seven_waters", "watten", "wildwasser"])
def test_plain_lines_say_in_words_what_the_screen_says_with_signs(game, lang):
    """Every board, its news, the own move, the result and the legend along a random game."""
    plain = _lines(game, lang, True)
    said = {name: line for name, sign in SIGNS.items() for line in plain if sign.search(line)}
    assert not said, said


@pytest.mark.parametrize("game, kept", [("seven_waters", ["an em dash", "an equals sign for a sum", "a plus as a bullet"]),
                                        ("watten", ["a sum of seats", "a plus for points"]),
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
    """The hint's best move and its alternatives, each from its notation to the line's end
    (a terminal wide enough not to fold them)."""
    lines = output.split(head, 1)[1].splitlines()
    return [lines[0]] + [x.strip() for x in lines[2:5] if re.match(r"\s+[A2-8]x\d", x)]


@pytest.mark.parametrize("lang, head", [("en", "hint: "), ("de", "Tipp: ")])
def test_wl_4_1_the_plain_hint_names_its_moves_as_the_button_does(run, lang, head):
    """The hint gave the notation alone (`3x2`, read "3 x 2"); plain, also the button's
    words (`3x2 – play two 3s`), the notation first: it is what one types.  The styled
    screen keeps the notation alone."""
    from wasserspiele.games.wasserloch.actions import VALUES, parse_action

    args = ["play", "wasserloch", "--seed", "3", "--option", "rounds=1", "--lang", lang]
    plain = run(*args, "--plain", input="hint\nquit\n", env={"COLUMNS": "200"})
    default = run(*args, input="hint\nquit\n", env={"COLUMNS": "200"})
    assert plain.exit_code == 0 and default.exit_code == 0
    shown = _hint_moves(plain.output, head)
    assert len(shown) >= 2, plain.output[-800:]
    for line in shown:
        notation = line.split()[0]
        p = parse_action(notation)
        words = render("wasserloch.web.play_button", {"n": p.count, "v": VALUES[p.value]}, lang)
        assert line.startswith(f"{notation} – {words} ("), line
    assert all(re.match(r"[A2-8]x\d \(", line) for line in _hint_moves(default.output, head))


@pytest.mark.parametrize("plain", [False, True])
def test_wl_4_3_the_english_board_says_three_or_more_aces_as_the_german_does(run, plain):
    """"only 3+ aces drive them off" (read "3 plus aces"); German said „3 oder mehr Asse"."""
    result = run("play", "wasserloch", "--seed", "1", *(["--plain"] if plain else []), input="quit\n")
    assert "only 3 or more aces drive them off" in result.output and "3+" not in result.output
