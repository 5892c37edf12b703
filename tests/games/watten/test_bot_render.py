"""The Watten heuristic bot and the terminal renderer."""

from __future__ import annotations

import random

from wasserspiele import load
from wasserspiele.bots.base import decision_for
from wasserspiele.games.watten.heuristic import HeuristicBot
from wasserspiele.bots.match import play_game
from wasserspiele.bots.runner import seat_rotated_win_rate
from wasserspiele.bots.random_bot import RandomBot
from wasserspiele.cli.render import renderer

from .helpers import new, play, start


def choose(state, seed=0):
    seat = state.current_seat
    return str(HeuristicBot(seed).choose(decision_for(state, seat)))


def test_bot_calls_the_trump_its_hand_supports():
    state = new({3: "7H 9H KH AH 8C"})
    assert choose(state) == "trump H"
    state = new({3: "JC JS 7D 9D 8C"})
    assert choose(state) == "trump D"


def test_bot_signals_honestly():
    state = new({3: "JH JC JS AH KH", 0: "7C 8C 9C 7D 8S"})
    state.apply("trump H")
    assert choose(state) == "signal strong"
    state.apply("signal strong")
    assert choose(state) == "signal weak"


def test_bot_keeps_quiet_when_signals_are_likely_caught():
    state = new({3: "JH JC JS AH KH"}, signal_detection_p=0.5)
    state.apply("trump H")
    assert choose(state) == "signal none"


def test_bot_does_not_overtake_a_partners_sure_trick():
    # seat 3 leads the top trump; seat 1 (partner) cannot follow and throws its cheapest card
    state = start({3: "JH 7C 8C 9C TC", 0: "QC KC JC 7S 8S", 1: "AC KS 9D 8D 7D", 2: "QS AS TD QD KD"})
    play(state, "JH", "JC")
    assert choose(state) == "7D"
    # with trumps in hand it follows with the cheapest one, not the jack
    state = start({3: "JH 7C 8C 9C TC", 0: "QC KC JD 7S 8S", 1: "JC AH 9D 8D 7D", 2: "KS AS TD QD KD"})
    play(state, "JH", "JD")
    assert choose(state) == "AH"


def test_bot_wins_cheaply_as_the_last_player():
    state = start({3: "9C 7D 8D 9D TD", 0: "TC 7S 8S 9S TS", 1: "KC AC QS KS AS", 2: "QC 7C 8C QD KD"})
    play(state, "9C", "TC")
    # seat 1 must follow clubs: K♣ is the cheapest card that wins
    assert choose(state) == "KC"


def test_bot_leads_trump_when_strong():
    state = start({3: "JH JC 7H 8C 9S"})
    assert choose(state) == "JH"


def test_bot_raises_with_a_won_hand_and_concedes_a_hopeless_one():
    state = start({3: "JH JC JS JD AH", 0: "7C 8C 9C TC QC", 1: "7S 8S 9S TS QS", 2: "7D 8D 9D TD QD"},
                  raising=True)
    assert choose(state) == "raise"
    state = start({3: "JH JC JS JD AH", 0: "7C 8C 9C TC QC", 1: "7S 8S 9S TS QS", 2: "7D 8D 9D TD QD"},
                  raising=True)
    for lead in ("JH", "JC"):
        state.apply(lead)
        for _ in range(3):
            state.apply([a for a in state.legal_actions() if str(a) != "raise"][0])
    state.apply("raise")
    assert state.to_move() == (0,) and choose(state) == "concede"


def test_bot_plays_only_legal_actions_under_every_option():
    game = load("watten", raising=True, signals="public", signal_detection_p=0.1,
                jack_order="first_played", follow="trump_only", caller="dealer_left", target=5)
    result = play_game(game, [HeuristicBot(k) for k in range(4)], seed=3)
    assert result.state.is_terminal()


def test_bot_team_beats_random_bots():
    rate, games = seat_rotated_win_rate(load("watten", target=5), lambda s: HeuristicBot(s),
                                        lambda s: RandomBot(s), 40, seed=1)
    assert games == 40 and rate > 0.8


# -- renderer --------------------------------------------------------------------------------

def test_render_view_shows_trump_trick_scores_and_the_partners_signal():
    r = renderer("watten")
    state = new({3: "7C 9S TS QS KS", 0: "8C AH 9D KD 8D"})
    play(state, "trump H", "signal strong", "signal weak", "signal none", "signal none", "7C")
    text = r.render_view(state.view(1), "en")
    assert "hearts" in text and "seat 3: 7♣" in text and "Score 0" in text
    assert "Partner's signal (seat 3): strong" in text
    assert "strong" not in r.render_view(state.view(0), "en")  # seat 3's signal is not for seat 0
    de = r.render_view(state.view(1), "de")
    assert "Trumpf" in de and "Herz" in de and "stark" in de


def test_render_raise_state_and_describe_last():
    r = renderer("watten")
    state = start({3: "JH JC JS JD AH"}, raising=True)
    play(state, "raise")
    text = r.render_view(state.view(0), "en")
    assert "raised to 2" in text and "Hand value: 1" in text
    assert "Seat 3 raised to 2" in r.describe_last(state.view(0), "en")
    assert "erhöht" in r.describe_last(state.view(0), "de")


def test_render_result_table_at_the_end():
    r = renderer("watten")
    state = load("watten", target=3).new_game(seed=2)
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    v = state.view(None)
    text = r.render_result(v, "en")
    assert "Result" in text and "Winners: Team" in text and len(v["results"]) >= 3
    assert "Ergebnis" in r.render_result(v, "de")


# -- the conventions the search borrows (ISMCTS belief=true, conventions=true) ---------

def _world_after_signals(partner_hand: str, partner_signal: str, caller_hand: str = "7H 8H 9H QH 8D"):
    """Seat 3 calls hearts and signals; seat 0 (an opponent) signals none; seat 1 (seat 3's
    partner) sends `partner_signal`; seat 2 answers.  Returns the state at seat 3's lead."""
    state = new({3: caller_hand, 1: partner_hand})
    state.apply("trump H")
    for signal in ("signal weak", "signal none", f"signal {partner_signal}", "signal none"):
        state.apply(signal)
    return state


def test_wa5_plausibility_reads_the_partners_honest_signal():
    from wasserspiele.games.watten.heuristic import SIGNAL_MISMATCH, plausibility
    strong = "JH JC JS AH KH"
    # the true world agrees with an honest strong signal, and disagrees with a "weak" one
    assert plausibility(_world_after_signals(strong, "strong"), 3) == 1.0
    assert plausibility(_world_after_signals(strong, "weak"), 3) == SIGNAL_MISMATCH
    # seat 2 cannot see seat 1's signal (an opponent's): it is not read, whatever it was
    assert plausibility(_world_after_signals(strong, "weak"), 2) == 1.0


def test_wa1_3_plausibility_reads_the_call():
    from wasserspiele.games.watten.heuristic import CALL_MISMATCH, plausibility
    # seat 3 called hearts holding no heart and four clubs: unlikely for a caller who names its best suit
    state = _world_after_signals("7S 8S 9S TS QS", "weak", caller_hand="7C 8C 9C AC 8D")
    assert plausibility(state, 0) == CALL_MISMATCH
    state = _world_after_signals("7S 8S 9S TS QS", "weak", caller_hand="7H 8H AH KH 8D")
    assert plausibility(state, 0) == 1.0
    assert plausibility(state, 3) == 1.0  # the caller knows its own hand


def test_search_worlds_follow_the_partners_signal_with_belief():
    """With belief=true, dealt worlds give the partner a hand matching its strong signal far
    more often than uniform deals do."""
    from wasserspiele.games.watten.heuristic import _dealt_hand, signal_level
    from wasserspiele.bots.ismcts import ISMCTSBot
    state = _world_after_signals("JH JC JS AH KH", "strong")
    decision = decision_for(state, 3)

    def share(belief: bool) -> float:
        bot = ISMCTSBot(seed=1, iterations=10, rollout="policy", belief=belief, game=state.game)
        worlds = [bot._deal(decision, bot.rng) for _ in range(300)]
        return sum(signal_level(_dealt_hand(w, 1), 2) == "strong" for w in worlds) / len(worlds)

    uniform, believed = share(False), share(True)
    assert uniform < 0.1 and believed > 0.45, (uniform, believed)  # Bayes with SIGNAL_MISMATCH: about 0.6


def test_search_signals_by_the_convention_without_searching():
    from wasserspiele.bots.ismcts import ISMCTSBot
    state = new({3: "JH JC JS AH KH"})
    state.apply("trump H")
    bot = ISMCTSBot(seed=1, iterations=500, conventions=True, game=state.game)
    assert str(bot.choose(decision_for(state, 3))) == "signal strong" and bot.last_iterations == 0


def test_wa_2_the_terminal_legend_ranks_the_jacks_as_the_game_s_option_says():
    """The `help` legend always named the skat order of the other jacks, also in a game
    played with jack_order=first_played, where they are equal and the first played wins."""
    r = renderer("watten")
    for lang, order, equal in (("en", "(♣ ♠ ♥ ♦ order)", "all equal (the first of them played wins)"),
                               ("de", "Buben (♣ ♠ ♥ ♦)", "alle gleich hoch (der zuerst gespielte sticht)")):
        skat = r.legend(load("watten").new_game(seed=1).view(None), lang)
        first = r.legend(load("watten", jack_order="first_played").new_game(seed=1).view(None), lang)
        assert order in skat and equal not in skat
        assert equal in first and order not in first
