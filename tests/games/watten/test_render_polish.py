"""What a player met playing Watten in the terminal, in German and English: a raise
offered only among the moves, an answer asked for with no word of what accepting and
conceding do, an accepted raise told as "(2)", and a game already over still calling
its teams "gespannt"."""

from __future__ import annotations

import pytest
from rich.text import Text

from wasserspiele.cli.render import renderer

from .helpers import play, start

R = renderer("watten")


def _plain(markup: str) -> list[str]:
    return Text.from_markup(markup).plain.splitlines()


def _raising_game(**options):
    """Caller seat 3 leads with trump H; every seat holds one suit (team 1 holds the jacks)."""
    options.setdefault("raising", True)
    return start({3: "JH JC JS AH KH", 0: "7C 8C 9C TC QC", 1: "7S 8S 9S TS QS", 2: "7D 8D 9D TD QD"}, **options)


@pytest.mark.parametrize("lang, line", [
    ("en", "You answer the raise: accept – the hand is worth 2 and play goes on; "
           "concede – the hand ends and team 1 scores 1 point"),
    ("de", "Du antwortest aufs Erhöhen: annehmen – das Blattl zählt 2 und es wird weitergespielt; "
           "aufgeben – das Blattl ist vorbei und Team 1 bekommt 1 Punkt")])
def test_wa_6_the_answering_seat_is_told_what_accept_and_concede_do(lang, line):
    """Seat 3 raised and seat 0 was shown only `Seat 3 raised to 2: seat 0 answers`."""
    state = play(_raising_game(), "raise")
    assert state.view(None)["raise"]["answerer"] == 0
    assert line in _plain(R.render_view(state.view(0), lang))
    for other in (1, 2, 3):  # only the seat that answers is asked
        assert line not in _plain(R.render_view(state.view(other), lang))


@pytest.mark.parametrize("lang, first, later", [
    ("en", "Before your card you may raise: if the others accept, the hand is worth 2; "
           "if they concede, your team scores 1 point",
           "Before your card you may raise: if the others accept, the hand is worth 3; "
           "if they concede, your team scores 2 points"),
    ("de", "Vor deiner Karte darfst du erhöhen: nehmen die Gegner an, zählt das Blattl 2; "
           "geben sie auf, bekommt dein Team 1 Punkt",
           "Vor deiner Karte darfst du erhöhen: nehmen die Gegner an, zählt das Blattl 3; "
           "geben sie auf, bekommt dein Team 2 Punkte")])
def test_wa_6_a_seat_that_may_raise_is_told_so_with_the_stakes(lang, first, later):
    """The raise was offered only in `moves`; the screen said the hand's value and nothing more."""
    state = _raising_game()
    assert state.to_move() == (3,) and "raise" in [str(a) for a in state.legal_actions(3)]
    assert first in _plain(R.render_view(state.view(3), lang))
    assert first not in _plain(R.render_view(state.view(0), lang))  # not seat 0's turn
    play(state, "raise", "accept", "JH")  # team 1 raised to 2; seat 0 (team 0) may raise next
    assert state.to_move() == (0,) and "raise" in [str(a) for a in state.legal_actions(0)]
    assert later in _plain(R.render_view(state.view(0), lang))
    off = _raising_game(raising=False)  # WA-6: raising off, nothing to offer
    assert not any(first[:20] in x for x in _plain(R.render_view(off.view(3), lang)))


def test_wa_6_a_team_that_raised_last_is_not_told_it_may_raise():
    state = play(_raising_game(), "raise", "accept", "JH", "7C")  # seat 1 (team 1) to move
    assert state.to_move() == (1,) and "raise" not in [str(a) for a in state.legal_actions(1)]
    assert not any(x.startswith("Before your card") for x in _plain(R.render_view(state.view(1), "en")))


@pytest.mark.parametrize("lang, said", [("en", "Seat 0 accepted: the hand is now worth 2"),
                                         ("de", "Platz 0 nahm an: das Blattl zählt jetzt 2")])
def test_wa_6_an_accepted_raise_says_what_the_hand_is_now_worth(lang, said):
    """It said `Seat 0 accepted (2)`."""
    state = play(_raising_game(), "raise", "accept")
    assert said in R.describe_last(state.view(3), lang).splitlines()


@pytest.mark.parametrize("lang, word", [("en", "gespannt"), ("de", "gespannt")])
def test_wa_6_gespannt_is_marked_during_play_and_not_once_the_game_is_over(lang, word):
    """At the end both team lines still said `gespannt` — a word about raising in a game
    with nothing left to raise; during play it stood glued to the trick count."""
    state = play(_raising_game(target=2), "raise", "accept")  # value 2 = target: both gespannt
    lines = _plain(R.render_view(state.view(0), lang))
    team_lines = [x for x in lines if x.startswith("Team ")]
    assert len(team_lines) == 2 and all(x.endswith(f" · {word}") for x in team_lines), team_lines
    play(state, *"JH 7C 7S 7D JC 8C 8S 8D JS 9C 9S 9D AH TC TS TD KH QC QS QD".split())  # team 1: 5 tricks
    view = state.view(0)
    assert view["winners"] == [1, 3]
    assert not any(word in x for x in _plain(R.render_view(view, lang)))


@pytest.mark.parametrize("lang, end, deal", [
    ("en", "Team 1 won the hand: +1 (three or more tricks) · tricks 0:5", "Seat 1 dealt; seat 0 calls trump"),
    ("de", "Team 1 gewann das Blattl: +1 (mindestens drei Stiche) · Stiche 0:5", "Platz 1 hat gegeben; Platz 0 sagt Trumpf an")])
def test_wa_4_1_a_hand_s_end_says_its_tricks_and_the_next_caller_calls_trump(lang, end, deal):
    """The end said `Team 1 won the hand: +1 (tricks)` and the next view counted the new
    hand's tricks, so the finished hand's were never shown; `seat 0 calls` named no trump."""
    state = play(_raising_game(raising=False), *"JH 7C 7S 7D JC 8C 8S 8D JS 9C 9S 9D AH TC TS TD KH QC QS".split())
    state.apply("QD")  # seat 2 ends the hand
    said = R.describe_last(state.view(2), lang).splitlines()
    assert said[-2:] == [end, deal], said


def test_wa_6_a_conceded_hand_says_the_tricks_as_they_stood():
    state = play(_raising_game(), "raise", "concede")
    assert R.describe_last(state.view(3), "en").splitlines()[-2:] == [
        "Team 1 won the hand: +1 (conceded) · tricks 0:0", "Seat 1 dealt; seat 0 calls trump"]
