"""The view says what each face-up tile is; the renderers read it and know no board.

The terminal turned tile ids into kinds by importing the rules' board: a rule and board
fact the view already half carried (a river slot's icons).  Now the view carries the kind
of every face-up tile (WW-2.1 river, WW-4.4 the tile pushed in and the one over the
waterfall, the waterfall pile), never of a tile still in the stack (hidden).  And the
German names follow the seed's: "Karten auf die Hand", "Baumstammtafel", "das gewürfelte
Tier" (WW-4.3 icons)."""

from __future__ import annotations

import json

from rich.text import Text

from wasserspiele.cli.render import renderer
from wasserspiele.core.messages import render, term
from wasserspiele.games.wildwasser import render as ww_render

from .helpers import new, picks, set_slot

R = renderer("wildwasser")


def plain(markup: str) -> str:
    return Text.from_markup(markup).plain


def pushed():
    """A's zebra pushes the river once (default tiles for two: T13 comes in, T12's +1 falls)."""
    s = new(2)
    picks(s, "zebra", "turtle")
    s.apply("action", 0)
    return s


def test_ww_2_1_each_river_slot_carries_its_tiles_kind():
    s = new(2)
    set_slot(s, 5, None)
    river = s.view(0)["river"]
    assert [r["kind"] for r in river][:2] == ["start", "+1"]
    assert river[4]["kind"] is None and river[4]["tile"] is None
    for r in river[1:4]:  # a tile with an icon is of that icon's kind
        assert r["kind"] in [i for i in r["icons"] if i] or (r["kind"] == "blank" and not any(r["icons"]))


def test_ww_4_4_a_push_and_the_waterfall_pile_carry_the_kinds_of_their_face_up_tiles():
    v = pushed().view(1)
    e = [e for e in v["log"] if e["event"] == "push"][-1]
    assert (e["tile_kind"], e["waterfall_kind"]) == ("+2", "+1")
    assert v["discard"] == [e["waterfall"]] and v["discard_kinds"] == ["+1"]


def test_ww_2_1_the_stacks_tiles_stay_hidden_in_the_view():
    """Reordering the stack changes nothing a seat sees (its kinds included)."""
    a, b = new(2), new(2)
    b.stack.reverse()
    assert a.stack != b.stack
    for seat in (0, 1, None):
        assert json.dumps(a.view(seat), sort_keys=True) == json.dumps(b.view(seat), sort_keys=True)


def test_the_terminal_reads_tile_kinds_from_the_view_not_the_board():
    """Tile ids the board does not know change nothing on the screen: the renderer reads
    only the view's kinds (it used to look each id up in the rules' board)."""
    s = pushed()
    v = s.view(0)
    strange = json.loads(json.dumps(v))
    for r in strange["river"]:
        r["tile"] = r["tile"] and "X" + r["tile"]
    for c in strange["track"]:
        if c.get("tile"):
            c["tile"] = "X" + c["tile"]
    strange["discard"] = ["X" + t for t in strange["discard"]]
    for e in strange["log"]:
        if e["event"] == "push":
            e["tile"], e["waterfall"] = "X1", "X2"
    for lang in ("en", "de"):
        assert R.render_view(strange, lang) == R.render_view(v, lang)
        assert R.describe_last(strange, lang) == R.describe_last(v, lang)
    assert not hasattr(ww_render, "BOARD")


def test_ww_4_3_german_icon_and_tile_names_follow_the_seed():
    assert term("cards", "wildwasser.icon", "de") == "Karten auf die Hand"
    assert term("push", "wildwasser.icon", "de") == "Baumstammtafel"
    assert term("cards", "wildwasser.tile_name", "de") == "Tafel mit „Karten auf die Hand“"
    assert term("push", "wildwasser.tile_name", "de") == "Tafel mit „Baumstammtafel“"
    assert term("cards", "wildwasser.tile", "de") == "eine Tafel mit „Karten auf die Hand“"
    assert term("push", "wildwasser.tile", "de") == "eine Tafel mit „Baumstammtafel“"
    assert render("wildwasser.web.field_icon.die", {"f": 5}, "de") == \
        "Feld 5: Würfel, würfle und ziehe das gewürfelte Tier"
    legend = render("wildwasser.web.legend_icons", {}, "de")
    assert "Karten auf die Hand" in legend and "Baumstammtafel" in legend
    # no older name is left anywhere in the German words of the game
    for key in ("icon", "tile", "tile_name"):
        for kind in ("cards", "push"):
            text = term(kind, f"wildwasser.{key}", "de")
            assert "zurück" not in text and "schieben" not in text, text
