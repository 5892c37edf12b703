"""What the terminal says about the river and the start marker, in words a player reads.

The river's tiles were shown by their ids (`Crossing 2 · slot 2 · T18`, `waterfall: T23,
T03`, `T05 comes in`): a player cannot know what T18 is, and no move is written with a
tile id.  And a start marker left where it lay (WW-4.3: an icon may put it on any team
card, the one it lies on included) read "A gives the start marker to A"."""

from __future__ import annotations

import random
import re

import pytest
from rich.text import Text

from wasserspiele import load
from wasserspiele.cli.render import renderer
from wasserspiele.games.wildwasser.view import _event

from .helpers import new, picks, put

R = renderer("wildwasser")
TILE_ID = re.compile(r"\bT\d\d\b")


def plain(markup: str) -> str:
    return Text.from_markup(markup).plain


def marker_line(s, lang: str) -> str:
    """The log line of the last start-marker event."""
    e = [e for e in s.view(None)["log"] if e["event"] == "marker"][-1]
    return plain(R.describe_event(e, lang))


def land_on_the_marker_icon(first_player: int):
    """Seat 0's rhino moves 3 from field 12 onto field 15, the bank's start-marker icon;
    seat 0 is then to say where the marker goes."""
    s = new(2, first_player=first_player)
    put(s, 0, "rhino", 12)
    picks(s, "rhino", "turtle")
    if first_player == 1:
        s.apply("move turtle", 1)
    s.apply("move", 0)
    assert s.view(None)["phase"] == "marker"
    return s


def test_ww_4_3_a_marker_left_with_its_holder_is_kept_not_given_to_itself():
    s = land_on_the_marker_icon(first_player=0)
    s.apply("marker 0", 0)
    assert marker_line(s, "en") == "A kept the start marker."
    assert marker_line(s, "de") == "A behielt den Startmarker."


def test_ww_4_3_a_marker_left_on_another_team_card_stays_there():
    s = land_on_the_marker_icon(first_player=1)
    s.apply("marker 1", 0)
    assert marker_line(s, "en") == "A left the start marker with B."
    assert marker_line(s, "de") == "A ließ den Startmarker bei B."


def test_ww_4_3_a_marker_put_on_the_own_team_card_is_taken():
    s = land_on_the_marker_icon(first_player=1)
    s.apply("marker 0", 0)
    assert marker_line(s, "en") == "A took the start marker from B."
    assert marker_line(s, "de") == "A nahm sich den Startmarker von B."


def test_ww_3_2_the_cheetah_action_gives_the_marker_to_another_seat():
    s = new(2)
    picks(s, "cheetah", "turtle")
    s.apply("action 1", 0)
    assert marker_line(s, "en") == "A gave the start marker to B."
    assert marker_line(s, "de") == "A gab den Startmarker an B."


def test_ww_4_3_a_marker_moved_from_a_third_seat_is_moved_not_given():
    """C holds the marker; A's rhino lands on the marker icon and A puts it on B: A never
    held it, so A does not "give" it."""
    s = new(3, first_player=2)
    put(s, 0, "rhino", 12)
    picks(s, "rhino", "turtle", "turtle")
    s.apply("move turtle", 2)
    s.apply("move", 0)
    s.apply("marker 1", 0)
    assert marker_line(s, "en") == "A moved the start marker from C to B."
    assert marker_line(s, "de") == "A legte den Startmarker von C zu B."


def test_ww_3_2_the_cheetah_action_moves_a_third_seats_marker():
    s = new(3, first_player=2)
    picks(s, "cheetah", "turtle", "turtle")
    s.apply("move turtle", 2)
    s.apply("action 1", 0)
    assert marker_line(s, "en") == "A moved the start marker from C to B."
    assert marker_line(s, "de") == "A legte den Startmarker von C zu B."


@pytest.mark.parametrize("seat, to, before, how", [
    (0, 0, 0, "keeps"), (0, 1, 1, "stays"), (0, 0, 1, "takes"), (0, 1, 0, "hands_on"), (0, 1, 2, "moves")])
def test_ww_4_3_the_view_says_once_how_the_marker_moved_and_the_terminal_reads_it(seat, to, before, how):
    """Every case of a marker's move, worked out in the view (the web log reads the same
    field: tests/web/test_wildwasser_chips.py), in both languages."""
    e = _event(7, ("marker", seat, to, before), None)
    assert e["how"] == how
    want = {"keeps": ("A kept the start marker.", "A behielt den Startmarker."),
            "stays": ("A left the start marker with B.", "A ließ den Startmarker bei B."),
            "takes": ("A took the start marker from B.", "A nahm sich den Startmarker von B."),
            "hands_on": ("A gave the start marker to B.", "A gab den Startmarker an B."),
            "moves": ("A moved the start marker from C to B.", "A legte den Startmarker von C zu B.")}[how]
    assert (plain(R.describe_event(e, "en")), plain(R.describe_event(e, "de"))) == want


def test_ww_4_4_a_push_names_the_tiles_by_what_they_show():
    # the default setup for two: T01-T08 removed, T09-T12 in slots 2-5, T13 on top of the stack
    s = new(2)
    picks(s, "zebra", "turtle")
    s.apply("action", 0)
    e = [e for e in s.view(None)["log"] if e["event"] == "push"][-1]
    assert plain(R.describe_event(e, "en")) == \
        "A pushed the river: in came a +2 tile, over the waterfall went a +1 tile."
    assert plain(R.describe_event(e, "de")) == \
        "A schob den Fluss: Hinein kam eine Tafel mit +2, über den Wasserfall stürzte eine Tafel mit +1."
    lines = plain(R.render_view(s.view(0), "en")).splitlines()
    assert "Over the waterfall: +1 tile" in lines
    assert "Über den Wasserfall gestürzt: Tafel mit +1" in plain(R.render_view(s.view(0), "de")).splitlines()


def test_ww_5_2_a_push_with_an_empty_stack_says_that_no_tile_comes_in():
    s = new(2)
    s.stack.clear()
    picks(s, "zebra", "turtle")
    s.apply("action", 0)
    e = [e for e in s.view(None)["log"] if e["event"] == "push"][-1]
    assert e["tile"] is None
    assert plain(R.describe_event(e, "en")) == \
        "A pushed the river: the stack was empty, so no tile came in; over the waterfall went a +1 tile."
    assert plain(R.describe_event(e, "de")) == ("A schob den Fluss: Der Stapel war leer, also kam keine Tafel "
                                                 "hinein; über den Wasserfall stürzte eine Tafel mit +1.")


def test_ww_2_1_the_river_shows_each_tile_by_its_kind_not_its_id():
    s = new(2)
    en = plain(R.render_view(s.view(0), "en"))
    de = plain(R.render_view(s.view(0), "de"))
    assert "Crossing 1 · slot 1 · start tile (red arrow)" in en
    assert "Crossing 2 · slot 2 · +1 tile" in en
    assert "Überquerung 1 · Position 1 · Starttafel (roter Pfeil)" in de
    assert "Überquerung 2 · Position 2 · Tafel mit +1" in de
    assert not TILE_ID.search(en) and not TILE_ID.search(de)


def test_a_whole_game_shows_no_tile_id_and_no_seat_passing_the_marker_to_itself():
    """Every screen and log line of a seeded game of four, in both languages."""
    game = load("wildwasser", players=4)
    rng = random.Random(11)
    s = game.new_game(rng=random.Random(11))
    texts = []
    while not s.is_terminal():
        seat = s.to_move()[0]
        s.apply(rng.choice(list(s.legal_actions(seat))), seat)
        for lang in ("en", "de"):
            texts.append(plain(R.render_view(s.view(seat), lang)))
            texts.append(plain(R.describe_last(s.view(seat), lang)))
    seen = "\n".join(texts)
    assert "pushed the river" in seen and "start marker" in seen  # the position this test needs
    assert not TILE_ID.search(seen)
    assert not re.search(r"\b([A-F]) gave the start marker to \1\b", seen)
    assert not re.search(r"\b([A-F]) gab den Startmarker an \1\b", seen)
