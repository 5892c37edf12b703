"""Seven Waters heuristic bot and text renderer.

Measured: bots.runner.seat_rotated_win_rate(game, HeuristicBot, RandomBot, 1000, seed=1)
= 1.000 over 1,000 seat-rotated games (15-40 s on the shared 2-core machine).
The test below checks 200 games.
"""

from __future__ import annotations

from wasserspiele import load
from wasserspiele.bots.base import decision_for
from wasserspiele.games.seven_waters.heuristic import HeuristicBot
from wasserspiele.bots.match import play_game
from wasserspiele.bots.runner import seat_rotated_win_rate
from wasserspiele.bots.random_bot import RandomBot
from wasserspiele.cli.render import renderer

from .helpers import DEFAULT_LINES, new_state, random_game_ending

GAME = load("seven_waters")
R = renderer("seven_waters")


def test_heuristic_beats_random_over_200_games():
    rate, games = seat_rotated_win_rate(GAME, lambda s: HeuristicBot(s), lambda s: RandomBot(s), 200, seed=1)
    assert games == 200 and rate > 0.8


def test_heuristic_completes_a_slide_and_chains_the_extra_action():
    s = new_state(pyramid={"7-5": "JH"}, lines=(DEFAULT_LINES, None), hands=(["KD", "AC", "6H"], ()))
    bot = HeuristicBot(0)
    first = bot.choose(decision_for(s, 0))
    assert str(first) == "slide 2 KD AC"
    s.apply(first)
    second = bot.choose(decision_for(s, 0))
    assert second.kind in ("take", "river", "pool", "theme")


def test_heuristic_plays_whole_games_with_options():
    for options in ({"slide_limit": None}, {"final_turns": "none", "first_player": 1}):
        game = load("seven_waters", **options)
        result = play_game(game, [HeuristicBot(1), HeuristicBot(2)], seed=4)
        assert result.state.is_terminal() and result.winners


def test_render_view_en_and_de_show_pyramid_parks_hand_and_slide_counter():
    s = new_state(lines=(DEFAULT_LINES, None), hands=(["KD", "AC", "6H"], ()))
    s.apply("slide 2 KD AC")
    s.apply("take 7-1")
    en = R.render_view(s.view(0), "en")
    de = R.render_view(s.view(0), "de")
    for text in ("Pyramid", "##", "Line 2", "K♦ A♣", "Slides: 1/7", "Hand: 5♥ 6♥", "Lazy river", "Wave pool",
                 "Theme: not placed"):
        assert text in en, text
    for text in ("Pyramide", "Leine 2", "Rutschen: 1/7", "Strömungskanal", "Wellenbecken", "Motto", "Abwurf"):
        assert text in de, text
    other = R.render_view(s.view(1), "en")
    assert "6♥" not in other.split("Seat 0")[1].split("Seat 1")[0]


def test_render_result_has_a_breakdown_by_category():
    result = play_game(GAME, [HeuristicBot(1), HeuristicBot(2)], seed=6)
    v = result.state.view(None)
    en, de = R.render_result(v, "en"), R.render_result(v, "de")
    for text in ("Slides", "Lazy river", "Wave pool", "Theme suit", "Cards in hand", "Discarded", "Total"):
        assert text in en
    assert "Mottofarbe" in de and "Summe" in de
    assert str(v["totals"][0]) in en
    assert R.render_result(GAME.new_game(seed=1).view(0)) == ""


def test_describe_last_tells_what_the_opponent_did():
    s = new_state(pyramid={"7-1": "QS"}, lines=(DEFAULT_LINES, None), hands=(["KD", "AC", "6H"], ["2S", "4S", "5S"]))
    s.apply("slide 2 KD AC")
    s.apply("take 7-1")
    text = R.describe_last(s.view(1), "en")
    assert "Seat 0 built the slide of line 2: K♦ A♣" in text and "took Q♠ from the pyramid (7-1)" in text
    s.apply("discard 2S 4S")
    assert R.describe_last(s.view(0), "en") == "Seat 1 discarded 2 cards"
    assert R.describe_last(s.view(1), "de") == ""  # nothing new since seat 1 acted
    assert "2♠ 4♠" in R.describe_event(s.view(1)["log"][-1], "de")
    s.apply("theme 6H")
    assert "legte ein geheimes Motto aus" in R.describe_last(s.view(1), "de")


def test_sw_4_the_player_s_own_moves_are_told_to_them_in_the_second_person():
    """The terminal narrates a player's own take, slide, build, discard and theme as
    "You …" / "Du hast …" (as Wasserloch does); the opponent reads them as "Seat 0 …"."""
    s = new_state(pyramid={"7-1": "QS", "7-2": "JD"}, lines=(DEFAULT_LINES, None),
                  hands=(["KD", "AC", "6H"], ["2S", "4S", "5S"]))
    s.apply("slide 2 KD AC")
    assert R.describe_own(s.view(0), "en") == "You built the slide of your line 2: K♦ A♣ (your extra action follows)"
    assert R.describe_own(s.view(0), "de") == \
        "Du hast die Rutsche an deiner Leine 2 gebaut: K♦ A♣ (jetzt deine Zusatzaktion)"
    s.apply("take 7-1")
    assert R.describe_own(s.view(0), "en") == "+ You took Q♠ from the pyramid (7-1)"
    assert R.describe_own(s.view(0), "de") == "+ Du hast D♠ aus der Pyramide (7-1) genommen"
    other = R.describe_last(s.view(1), "en")
    assert "Seat 0 built the slide of line 2" in other and "Seat 0 took Q♠ from the pyramid (7-1)" in other
    assert "You" not in other
    s.apply("discard 2S 4S")
    assert R.describe_own(s.view(1), "en") == "You discarded 2♠ 4♠"
    assert R.describe_own(s.view(1), "de") == "Du hast 2♠ 4♠ abgeworfen"
    assert R.describe_last(s.view(0), "en") == "Seat 1 discarded 2 cards"
    s.apply("theme 6H")
    assert R.describe_own(s.view(0), "en") == "You placed your theme 6♥"
    assert R.describe_own(s.view(0), "de") == "Du hast 6♥ als dein Motto ausgelegt"
    assert R.describe_last(s.view(1), "de") == "Platz 0 legte ein geheimes Motto aus"
    s.apply("pool 5S")
    assert R.describe_own(s.view(1), "de") == "Du hast in dein Wellenbecken gelegt: 5♠"
    s.apply("take 7-2")
    s.apply("take 7-3")
    s.apply("river JD")
    assert R.describe_own(s.view(0), "en") == "You added to your lazy river: J♦"


def test_sw_5_3_the_result_names_the_winner_as_you_when_it_is_you():
    result = play_game(GAME, [HeuristicBot(1), HeuristicBot(2)], seed=6)
    winner = result.state.view(None)["winners"]
    assert len(winner) == 1
    (w,) = winner
    assert R.render_result(result.state.view(w), "en").endswith(f"Winner: Seat {w} (you)[/bold]")
    assert R.render_result(result.state.view(w), "de").endswith(f"Sieger: Platz {w} (du)[/bold]")
    assert "(you)" not in R.render_result(result.state.view(1 - w), "en")
    assert "(you)" not in R.render_result(result.state.view(None), "en")
    assert "wave pool decides" not in R.render_result(result.state.view(w), "en")
    totals = result.state.view(None)["totals"]
    assert totals[0] != totals[1] and result.state.view(None)["decided_by"] == "points"


def test_sw_5_3_the_result_says_when_the_larger_pool_broke_a_tie():
    """A game played to an end with equal totals and pools of different size: the final
    view says the pool decided it (`decided_by`, from the rules), the larger pool's seat
    wins, and the result line says why, in both languages."""
    state = random_game_ending(pools_equal=False)
    view = state.view(None)
    totals, pools = view["totals"], [len(p["pool"]) for p in view["players"]]
    assert totals[0] == totals[1] and pools[0] != pools[1]
    w = 0 if pools[0] > pools[1] else 1
    assert view["decided_by"] == "pool" and view["winners"] == [w]
    assert R.render_result(view, "en").endswith(
        f"Winner: Seat {w}[/bold] – equal totals: the larger wave pool decides")
    assert R.render_result(view, "de").endswith(
        f"Sieger: Platz {w}[/bold] – Punktgleichstand: das größere Wellenbecken entscheidet")
    assert R.render_result(state.view(w), "en").endswith(
        f"Winner: Seat {w} (you)[/bold] – equal totals: the larger wave pool decides")


def test_sw_5_3_equal_totals_and_equal_pools_are_a_draw_in_the_result():
    """A game played to an end with equal totals and equally large pools: a draw (both
    win), and the result says so instead of naming a winner, in both languages."""
    state = random_game_ending(pools_equal=True)
    view = state.view(None)
    totals, pools = view["totals"], [len(p["pool"]) for p in view["players"]]
    assert totals[0] == totals[1] and pools[0] == pools[1]
    assert view["decided_by"] == "draw" and view["winners"] == [0, 1]
    for seat in (None, 0, 1):
        en, de = R.render_result(state.view(seat), "en"), R.render_result(state.view(seat), "de")
        assert en.endswith("\nDraw — shared win") and "Winner" not in en
        assert de.endswith("\nGleichstand – geteilter Sieg") and "Sieger" not in de
