"""WW-3 refusals said to whoever reads them.  They spoke to the acting player ("your zebra
card is not in your hand (it lies revealed in front of you)", "choose one of your
animals", "dein Tier Zebra ist schon im Ziel", "sag, welches"), right on the player's own
screen but wrong in a record's replay error, which names the seat itself ('action 4
"pick zebra" by seat 0: your zebra card …' addressed the reader), or on a spectator's
screen.  As Seven Waters' and Watten's, the words now name neither a seat nor a "you" and
give no orders: the hand, the cards and the animals are the acting seat's by context, and
the notation a choice needs is named ("the move names the animal (move turtle)").  German
names an animal with its article ("das Zebra", "der Gepard": the term
`wildwasser.the_animal`), where "dein Tier Zebra" needed the "dein"."""

from __future__ import annotations

import json

import pytest

from wasserspiele.core.errors import IllegalAction, ReplayError
from wasserspiele.core.messages import Reason, render
from wasserspiele.core.records import replay

from .helpers import finish, new, picks


REFUSALS = [  # (reason, English, German)
    (Reason("wildwasser.card_not_in_hand", animal="zebra"),
     "the zebra card is not in hand (it was played and lies revealed)",
     "die Karte Zebra ist nicht auf der Hand (sie wurde schon gespielt und liegt aufgedeckt aus)"),
    (Reason("wildwasser.all_picked", card="rhino"),
     "all cards are picked; now the revealed rhino card is resolved (move or action)",
     "alle Karten sind gewählt; jetzt wird die aufgedeckte Karte Nashorn ausgeführt (ziehen oder aktion)"),
    (Reason("wildwasser.no_sun_choice", card="zebra"),
     "no sun choice is due; now the revealed zebra card is resolved (move or action)",
     "es ist keine Sonnen-Wahl fällig; jetzt wird die aufgedeckte Karte Zebra ausgeführt (ziehen oder aktion)"),
    (Reason("wildwasser.no_marker_choice", card="cheetah"),
     "no marker choice is due; now the revealed cheetah card is resolved (move or action)",
     "es ist keine Startmarker-Wahl fällig; jetzt wird die aufgedeckte Karte Gepard ausgeführt (ziehen oder "
     "aktion)"),
    (Reason("wildwasser.already_finished", animal="rhino"), "the rhino has already finished",
     "das Nashorn ist schon im Ziel"),
    (Reason("wildwasser.finished_take_action", card="cheetah"),
     "the cheetah has already finished, so the cheetah card's action must be taken",
     "der Gepard ist schon im Ziel, also muss die Aktion der Karte Gepard ausgeführt werden"),
    (Reason("wildwasser.move_takes_no_animal", card="zebra"),
     "the zebra card moves only its own animal: the move is plain 'move'",
     "die Karte Zebra zieht nur ihr eigenes Tier: der Zug heißt einfach „ziehen“"),
    (Reason("wildwasser.action_takes_no_player", card="meerkat"),
     "the meerkat card's action takes no player: the move is plain 'action'",
     "die Aktion der Karte Erdmännchen braucht keinen Spieler: der Zug heißt einfach „aktion“"),
    (Reason("wildwasser.marker_already_there", seat=0),
     "the start marker already lies on player A's team card; the action moves it to another one",
     "der Startmarker liegt schon auf der Teamkarte von Spieler A; die Aktion legt ihn auf eine andere"),
    (Reason("wildwasser.marker_say_which"),
     "the action needs the team card that gets the start marker: action PLAYER",
     "die Aktion braucht die Teamkarte, die den Startmarker bekommt: aktion SPIELER"),
    (Reason("wildwasser.marker_choice_due"),
     "an animal landed on the start-marker icon: first the team card that gets the start marker is chosen "
     "(marker PLAYER)",
     "ein Tier ist auf dem Startmarker-Symbol gelandet: zuerst wird die Teamkarte gewählt, die den Startmarker "
     "bekommt (marker SPIELER)"),
    (Reason("wildwasser.sun_choice_due"),
     "the die shows the sun: first an animal is chosen to move 1 field (sun ANIMAL)",
     "der Würfel zeigt die Sonne: zuerst wird ein Tier gewählt, das 1 Feld zieht (sonne TIER)"),
    (Reason("wildwasser.sun_finished", animal="turtle"),
     "the turtle has already finished; only an animal still racing can be chosen",
     "die Schildkröte ist schon im Ziel; nur ein Tier, das noch läuft, kann gewählt werden"),
    (Reason("wildwasser.turtle_moves_only", animal="cheetah"),
     "the turtle card moves only the turtle, rhino or meerkat, not the cheetah",
     "die Schildkröten-Karte zieht nur Schildkröte, Nashorn oder Erdmännchen; der Gepard gehört nicht dazu"),
    (Reason("wildwasser.turtle_moves_only", animal="zebra"),
     "the turtle card moves only the turtle, rhino or meerkat, not the zebra",
     "die Schildkröten-Karte zieht nur Schildkröte, Nashorn oder Erdmännchen; das Zebra gehört nicht dazu"),
    (Reason("wildwasser.turtle_no_action"),
     "the turtle card has no action: it moves the turtle, rhino or meerkat 1 field (move ANIMAL)",
     "die Schildkröten-Karte hat keine Aktion: sie zieht Schildkröte, Nashorn oder Erdmännchen 1 Feld "
     "(ziehen TIER)"),
    (Reason("wildwasser.turtle_say_which"),
     "the turtle card moves the turtle, rhino or meerkat 1 field: the move names the animal (move turtle)",
     "die Schildkröten-Karte zieht Schildkröte, Nashorn oder Erdmännchen 1 Feld: der Zug nennt das Tier "
     "(ziehen schildkröte)"),
]


@pytest.mark.parametrize(("reason", "en", "de"), REFUSALS, ids=[r.code.partition(".")[2] for r, _, _ in REFUSALS])
def test_ww_3_refusals_name_the_cards_and_animals_not_a_you(reason, en, de):
    assert reason == en and reason.render("de") == de


@pytest.mark.parametrize(("animal", "de"), [("cheetah", "der Gepard"), ("zebra", "das Zebra"),
                                             ("rhino", "das Nashorn"), ("meerkat", "das Erdmännchen"),
                                             ("turtle", "die Schildkröte")])
def test_ww_3_3_each_animal_is_named_with_its_article(animal, de):
    assert render("wildwasser.already_finished", {"animal": animal}, "de") == f"{de} ist schon im Ziel"
    assert render("wildwasser.already_finished", {"animal": animal}, "en") == f"the {animal} has already finished"


def _why(state, text, seat=None):
    with pytest.raises(IllegalAction) as err:
        state.apply(text, seat)
    return err.value.reason


def test_ww_3_the_refusals_the_player_gets_name_the_card_and_the_animal():
    s = new(2)
    picks(s, "zebra", "zebra")
    s.apply("move")
    s.apply("move")
    why = _why(s, "pick zebra", 0)  # WW-3.4: a revealed card stays out of the hand
    assert why == "the zebra card is not in hand (it was played and lies revealed)"
    assert why.render("de") == "die Karte Zebra ist nicht auf der Hand (sie wurde schon gespielt und liegt aufgedeckt aus)"
    s = new(2)
    picks(s, "turtle", "turtle")
    why = _why(s, "move cheetah")  # WW-3.2: the turtle card moves turtle, rhino or meerkat
    assert why == "the turtle card moves only the turtle, rhino or meerkat, not the cheetah"
    assert why.render("de") == \
        "die Schildkröten-Karte zieht nur Schildkröte, Nashorn oder Erdmännchen; der Gepard gehört nicht dazu"
    assert _why(s, "move") == \
        "the turtle card moves the turtle, rhino or meerkat 1 field: the move names the animal (move turtle)"
    s = new(2)
    finish(s, 0, "zebra")
    picks(s, "zebra", "zebra")
    why = _why(s, "move")  # WW-3.3: a finished animal's card takes its action
    assert why == "the zebra has already finished, so the zebra card's action must be taken"
    assert why.render("de") == "das Zebra ist schon im Ziel, also muss die Aktion der Karte Zebra ausgeführt werden"


def _record(*actions):
    """Two players pick and move their zebras; then `actions` (seat 0 acts first)."""
    s = new(2)
    for text in ("pick zebra", "pick zebra", "move", "move"):
        s.apply(text)
    doc = s.record()
    return dict(doc, actions=[*doc["actions"], *actions])


CASES = [  # (record, index, action, English, German)
    (("pick zebra",), 4, "pick zebra", "the zebra card is not in hand (it was played and lies revealed)",
     "die Karte Zebra ist nicht auf der Hand (sie wurde schon gespielt und liegt aufgedeckt aus)"),
    (("pick turtle", "pick rhino", "move zebra"), 6, "move zebra",
     "the turtle card moves only the turtle, rhino or meerkat, not the zebra",
     "die Schildkröten-Karte zieht nur Schildkröte, Nashorn oder Erdmännchen; das Zebra gehört nicht dazu"),
]


@pytest.mark.parametrize(("actions", "index", "action", "en", "de"), CASES, ids=["card_not_in_hand", "turtle_moves_only"])
def test_ww_3_a_replay_error_names_the_seat_once_and_says_no_you(actions, index, action, en, de):
    """records.md: the message names the action's index, the action, the seat and why."""
    with pytest.raises(ReplayError) as err:
        replay(json.loads(json.dumps(_record(*actions))))
    assert str(err.value) == f'action {index} "{action}" by seat 0: {en}'
    assert err.value.render("de") == f"Aktion {index} „{action}“ von Platz 0: {de}"


def test_ww_3_wasserspiele_replay_says_it_so_in_both_languages(run, tmp_path):
    """The terminal names the seat as Wildwasser's board does (player A), where the
    message itself, without a surface, says seat 0 (above)."""
    actions, index, action, en, de = CASES[0]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_record(*actions)))
    out = run("replay", str(path))
    assert out.exit_code == 1
    said = " ".join(out.output.split())
    assert f'action {index} "{action}" by player A: {en}' in said, said
    said = " ".join(run("replay", str(path), "--lang", "de").output.split())
    assert f"Aktion {index} „{action}“ von Spieler A: {de}" in said, said
