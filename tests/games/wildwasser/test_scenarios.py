"""Worked scenarios: icon chains, pushes over the waterfall, crowded finishes, the
alternative end, built from explicit setups and direct edits."""

from __future__ import annotations

from wasserspiele.games.wildwasser.board import DIE, MARKER, PUSH

from .helpers import events, field_of, new, picks, put


def test_ww_4_3_chain_plus_2_onto_the_die_then_plus_1():
    s = new(2, dice=["2"])
    put(s, 0, "rhino", 5)
    picks(s, "rhino", "zebra")
    s.apply("move")  # 5 + 3 = 8 (+2) -> 10 (die: 2 = meerkat) -> meerkat 0 + 2 = 2 (+1) -> 3
    assert field_of(s, 0, "rhino") == 10
    assert field_of(s, 0, "meerkat") == 3
    assert events(s, "icon") == [("icon", 0, 2, 8), ("icon", 0, DIE, 10), ("icon", 0, 1, 2)]
    assert s.to_move() == (1,)


def test_ww_4_3_chain_die_sun_then_start_marker_are_extra_decisions_of_the_same_seat():
    s = new(2, dice=["sun"])
    put(s, 0, "rhino", 5)
    put(s, 0, "turtle", 14)
    picks(s, "rhino", "zebra")
    s.apply("move")  # 8 (+2) -> 10 (die: sun)
    assert s.to_move() == (0,) and s.view(1)["phase"] == "sun"
    s.apply("sun turtle")  # 14 -> 15: start-marker icon
    assert s.to_move() == (0,) and s.phase == 3
    s.apply("marker 1")
    assert s.marker == 1 and s.to_move() == (1,)
    s.apply("move")
    assert s.order == (1, 0)
    assert s.record()["actions"] == ["0: pick rhino", "pick zebra", "move", "sun turtle", "marker 1", "move"]
    assert s.record()["setup"]["dice"] == ["sun"]


def test_ww_4_4_push_icon_sends_an_animal_over_the_waterfall():
    s = new(2)
    put(s, 0, "zebra", 25)
    put(s, 1, "cheetah", 34)  # on T12 in slot 5
    put(s, 1, "rhino", 18)  # on T10 in slot 3, column 1 -> slot 4 column 1 = field 27
    picks(s, "zebra", "turtle")
    s.apply("move")  # 25 + 4 = 29: push
    assert events(s, "icon")[-1] == ("icon", 0, PUSH, 29)
    assert field_of(s, 1, "cheetah") == 0
    assert field_of(s, 1, "rhino") == 27
    assert field_of(s, 0, "zebra") == 29
    assert s.state_json()["discard"] == ["T12"]
    pushes = [e for e in s.view(None)["log"] if e["event"] == "push"]
    assert pushes == [{"i": pushes[0]["i"], "event": "push", "seat": 0, "tile": "T13", "tile_kind": "+2",
                       "waterfall": "T12", "waterfall_kind": "+1", "washed": [[1, "cheetah"]]}]


def test_ww_4_1_landing_on_occupied_fields_near_the_finish():
    s = new(2)
    put(s, 0, "meerkat", 34)
    put(s, 1, "zebra", 35)
    put(s, 1, "rhino", 36)
    picks(s, "meerkat", "turtle")
    s.apply("move")  # 36 taken -> 37 free
    assert field_of(s, 0, "meerkat") == 37
    put(s, 0, "turtle", 33)
    s.apply("move rhino")  # 37 taken -> past the line: finishes
    assert field_of(s, 1, "rhino") == "podium 1"


def test_ww_4_2_plus_icon_carries_over_the_finish_line():
    s = new(2)
    put(s, 0, "rhino", 33)
    picks(s, "rhino", "turtle")
    s.apply("move")  # 36 (+2) -> 38: finished
    assert field_of(s, 0, "rhino") == "podium 1"
    assert s.points()[0] == 6


def test_ww_4_1_all_fields_to_the_finish_taken_means_finishing():
    s = new(2)
    put(s, 0, "turtle", 35)
    put(s, 1, "zebra", 36)
    put(s, 1, "rhino", 37)
    picks(s, "turtle", "turtle")
    s.apply("move turtle")
    assert field_of(s, 0, "turtle") == "podium 1"


def test_ww_5_2_alternative_end_two_pushes_in_the_last_round_and_a_blocked_animal():
    s = new(4)
    s.discard.extend(s.stack[:-1])
    del s.stack[:-1]  # one tile left: T09
    put(s, 2, "zebra", 1)
    for seat in range(4):
        s.apply("pick zebra", seat)
    s.apply("action")  # T09 enters, stack now empty
    assert not s.last_round
    s.apply("action")  # nothing to push in: slot 1 stays empty (WW-5.2)
    assert s.last_round and s.state_json()["river"] == [None, "T09", "T00", "T05", "T06"]
    s.apply("move")  # seat 2's zebra: 1 + 4 = 5 is on the empty crossing 1 -> waits on 3
    assert field_of(s, 2, "zebra") == 3
    s.apply("action")  # a third push: two empty slots
    assert s.state_json()["river"] == [None, None, "T09", "T00", "T05"]
    assert s.is_terminal() and s.winners() == [0, 1, 2, 3]
    assert s.components() == new(4).components()


def test_spec_example_setup_tiles_and_dice_3_sun_5():
    """The spec's record setup example: tiles starting T17, T03 …, dice 3, sun, 5; and the
    seed's die example (5 = cheetah 5 fields)."""
    from .helpers import TILES

    tiles = ["T17", "T03"] + [t for t in TILES if t not in ("T17", "T03")]
    s = new(3, tiles=tiles, dice=["3", "sun", "5"])
    j = s.state_json()
    assert j["removed"][:2] == ["T17", "T03"] and len(j["removed"]) == 6
    picks(s, "rhino", "rhino", "rhino")
    s.apply("action")  # 3: the rhino moves 3
    assert field_of(s, 0, "rhino") == 3
    s.apply("action")  # sun
    s.apply("sun turtle")
    assert field_of(s, 1, "turtle") == 1
    s.apply("action")  # 5: the cheetah moves 5
    assert field_of(s, 2, "cheetah") == 5
    assert s.record()["setup"] == {"tiles": tiles, "dice": ["3", "sun", "5"]}
    assert s.record()["actions"] == ["0: pick rhino", "1: pick rhino", "pick rhino", "action", "action", "sun turtle", "action"]
