"""The levels per game (bots/levels.py): a game's manifest may name its own bot for a
level (`SearchHints.level_bots`) where that bot was measured a larger step; it plays
only where it can, and every caller — level, bot spec, Gymnasium opponents — gets it."""

import dataclasses

import pytest

import wasserspiele.fast as fast
from wasserspiele.adapters.gymnasium import WasserspieleEnv
from wasserspiele.bots.base import Blundering, Bot
from wasserspiele.bots.learned import LearnedBot, weights_problem
from wasserspiele.bots.levels import bot_for_level, level_settings
from wasserspiele.bots.ismcts import ISMCTSBot
from wasserspiele.bots.registry import make_bot
from wasserspiele.bots.specs import check_spec, parse_bot_spec
from wasserspiele.core.errors import BadOption
from wasserspiele.core.registry import load

GUIDED = ("learned", {"search": 750, "value": "rollout", "cpu_seconds": 2.0})


def test_seven_waters_expert_is_the_search_guided_by_the_learned_network(monkeypatch):
    monkeypatch.setattr(fast, "COMPILED", True)
    game = load("seven_waters")
    assert level_settings("expert", game) == GUIDED
    bot = bot_for_level("expert", game, seed=3)
    assert isinstance(bot, LearnedBot) and bot.searcher is not None
    assert (bot.searcher.iterations, bot.searcher.cpu_seconds) == (750, 2.0)
    assert bot.searcher.guide.playout is not None  # leaves valued by the expert's rollouts
    # the other levels, and the other games' experts, keep their own kinds
    assert level_settings("hard", game)[0] == "ismcts"
    for other in ("wasserloch", "watten", "wildwasser"):
        assert level_settings("expert", load(other))[0] == "ismcts"


@pytest.mark.parametrize("options, compiled", [({"first_player": 1}, True), ({"slide_limit": None}, True),
                                               ({}, False)])
def test_the_guided_expert_plays_only_where_it_was_measured(monkeypatch, options, compiled):
    # the weights learned the default options, and the guided budget was measured with
    # the rollouts in the compiled kernel: elsewhere expert is the plain search
    monkeypatch.setattr(fast, "COMPILED", compiled)
    game = load("seven_waters", **options)
    kind, kwargs = level_settings("expert", game)
    assert kind == "ismcts" and kwargs["iterations"] == (1500 if compiled else 300)
    assert isinstance(bot_for_level("expert", game, seed=3), ISMCTSBot)


def test_weights_problem_names_the_options_the_weights_were_not_trained_on():
    assert weights_problem(load("seven_waters")) is None
    problem = weights_problem(load("seven_waters", first_player=1))
    assert "trained on other options" in problem and "first_player=0" in problem
    assert weights_problem(load("wasserloch")) is None


def test_a_level_spec_is_the_games_bot_for_that_level_and_its_params_set_that_bots_arguments(monkeypatch):
    monkeypatch.setattr(fast, "COMPILED", True)
    game = load("seven_waters")
    assert parse_bot_spec("expert").settings(game) == GUIDED
    assert parse_bot_spec("expert:search=100").settings(game) == \
        ("learned", {"search": 100, "value": "rollout", "cpu_seconds": 2.0})
    assert parse_bot_spec("expert").kind_for(load("watten")) == "ismcts"
    with pytest.raises(BadOption, match=r"expert is the learned bot for seven_waters.*iterations"):
        check_spec(parse_bot_spec("expert:iterations=3000"), game)
    check_spec(parse_bot_spec("expert:iterations=3000"), load("watten"))  # its expert is ismcts


def test_gymnasium_opponents_get_the_games_bot_for_a_level(monkeypatch):
    monkeypatch.setattr(fast, "COMPILED", True)
    env = WasserspieleEnv("seven_waters", opponents="expert")
    env.reset(seed=1)
    assert all(isinstance(b, LearnedBot) and b.searcher is not None for b in env.bots.values())


def test_the_learned_bots_cpu_safety_net_belongs_to_a_search():
    with pytest.raises(ValueError, match="cpu_seconds caps a search"):
        LearnedBot(1, game=load("seven_waters"), cpu_seconds=1.0)


def test_the_guided_expert_is_deterministic_for_a_seed(monkeypatch):
    monkeypatch.setattr(fast, "COMPILED", True)
    from wasserspiele.bots.match import play_game
    game = load("seven_waters")
    small = parse_bot_spec("expert:search=20")  # the level's bot on a tiny budget
    first = play_game(game, [small.make(game, 5), small.make(game, 6)], seed=11)
    again = play_game(game, [small.make(game, 5), small.make(game, 6)], seed=11)
    assert [repr(h) for h in first.state.history] == [repr(h) for h in again.state.history]
    assert first.actions > 20


def test_reseeding_a_guided_bot_reseeds_its_search(monkeypatch):
    # the web's bot workers give each decision its own generator (web/botpool.py `think`)
    import random
    monkeypatch.setattr(fast, "COMPILED", True)
    bot = bot_for_level("expert", load("seven_waters"), seed=3)
    fresh = random.Random("table:7:1:12")
    bot.rng = fresh
    assert bot.searcher.rng is fresh and bot.rng is fresh


# ---------------------------------------------------------------- slips and Watten's ladder
def test_watten_s_levels_are_the_four_bots_that_are_clear_steps(monkeypatch):
    # random, the heuristic with slips, the heuristic, the 500-iteration search: more
    # search was no step over 500 iterations there (docs/leaderboard.md)
    for compiled in (True, False):  # the heuristic levels think as long without the kernels
        monkeypatch.setattr(fast, "COMPILED", compiled)
        game = load("watten")
        assert level_settings("easy", game) == ("random", {})
        assert level_settings("medium", game) == ("heuristic", {"blunder": 0.25})
        assert level_settings("hard", game) == ("heuristic", {})
        assert level_settings("expert", game) == ("ismcts", {"iterations": 500, "cpu_seconds": 2.0})
        medium = bot_for_level("medium", game, seed=1)
        assert isinstance(medium, Blundering) and medium.blunder == 0.25 and medium.kind == "heuristic"
        assert isinstance(bot_for_level("expert", game, seed=1), ISMCTSBot)
    assert parse_bot_spec("medium:blunder=0").settings(game) == ("heuristic", {"blunder": 0})
    assert not isinstance(parse_bot_spec("medium:blunder=0").make(game, 1), Blundering)


def test_watten_s_medium_is_a_step_below_hard():
    from wasserspiele.bots.leaderboard import play_pairing
    step = play_pairing("watten", {}, parse_bot_spec("hard"), parse_bot_spec("medium"), 200, seed=5)
    assert step.significant and step.share.value > 0.5, step.share


class _Spy(Bot):
    """A bot that always plays its legal list's last move and counts its decisions."""
    kind = "spy"

    def __init__(self, seed=None):
        super().__init__(seed)
        self.asked = 0

    def choose(self, decision):
        self.asked += 1
        return decision.legal[-1]


def _decisions(game_name, n, seed=0):
    import random
    from wasserspiele.bots.base import decision_for
    rng = random.Random(seed)
    out = []
    state = load(game_name).new_game(seed=seed)
    while len(out) < n:
        if state.is_terminal():
            state = state.game.new_game(seed=rng.randrange(10**6))
        seat = state.current_seat
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            out.append(decision_for(state, seat))
        state.apply(rng.choice(legal), seat)
    return out


def test_a_bot_with_slips_plays_a_random_legal_move_in_that_share_of_its_decisions():
    decisions = _decisions("watten", 2000)
    spy = _Spy(seed=3)
    slipping = Blundering(spy, 0.25)
    chosen = [slipping.choose(d) for d in decisions]
    assert all(a in d.legal for a, d in zip(chosen, decisions))
    assert 0.22 < 1 - spy.asked / len(decisions) < 0.28  # the coin: a quarter of the decisions
    slips = [(a, d) for a, d in zip(chosen, decisions) if a != d.legal[-1]]
    # a slip is uniform over the legal moves: it avoids the bot's own move in (k-1)/k of them
    expected = sum(0.25 * (len(d.legal) - 1) / len(d.legal) for d in decisions)
    assert abs(len(slips) - expected) < 0.15 * expected
    firsts = sum(a == d.legal[0] for a, d in slips)
    assert abs(firsts / len(slips) - sum(1 / (len(d.legal) - 1) for _, d in slips) / len(slips)) < 0.06
    # a decision without a choice goes to the bot itself
    forced = _Spy()
    one = dataclasses.replace(decisions[0], legal=decisions[0].legal[:1])
    assert Blundering(forced, 1.0).choose(one) == one.legal[0] and forced.asked == 1


def test_slips_are_fixed_by_the_seed_and_reseeded_with_the_bot():
    import random
    from wasserspiele.bots.match import play_game
    game = load("watten")
    spec = parse_bot_spec("heuristic:blunder=0.5")
    runs = [play_game(game, [spec.make(game, s) for s in (1, 2, 3, 4)], seed=9) for _ in range(2)]
    assert [repr(h) for h in runs[0].state.history] == [repr(h) for h in runs[1].state.history]
    bot = spec.make(game, 1)
    fresh = random.Random(7)
    bot.rng = fresh  # web/botpool.py reseeds each decision: the coin and the bot share it
    assert bot.rng is fresh and bot.bot.rng is fresh


@pytest.mark.parametrize("value", [1.5, -0.1, True, "often"])
def test_blunder_must_be_a_share(value):
    with pytest.raises(BadOption, match="share of moves played at random must be a number from 0 to 1"):
        make_bot("heuristic", load("watten"), 1, blunder=value)
    with pytest.raises(BadOption, match=r"bot spec 'heuristic:blunder="):
        check_spec(parse_bot_spec(f"heuristic:blunder={value}"), load("watten"))


def test_blunder_goes_with_every_kind_and_beside_a_heuristic_s_traits():
    game = load("wasserloch")
    kind, kwargs = parse_bot_spec("heuristic:keep_pairs=2,blunder=0.1").settings(game)
    assert kind == "heuristic" and kwargs["blunder"] == 0.1 and kwargs["traits"].keep_pairs == 2
    bot = parse_bot_spec("heuristic:keep_pairs=2,blunder=0.1").make(game, 1)
    assert isinstance(bot, Blundering) and bot.bot.traits.keep_pairs == 2
    assert isinstance(parse_bot_spec("ismcts:iterations=10,blunder=0.1").make(game, 1).bot, ISMCTSBot)
    with pytest.raises(BadOption, match="has no switchable traits \\(it takes only blunder\\)"):
        check_spec(parse_bot_spec("heuristic:keep_pairs=2"), load("watten"))
    check_spec(parse_bot_spec("heuristic:blunder=0.2"), load("watten"))
