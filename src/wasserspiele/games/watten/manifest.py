"""What Watten declares about itself (core/manifest.py); imports only core."""

from ...core.manifest import GameManifest, Limits, Plugins, SearchHints
from ...core.options import Option

_HERE = __package__

MANIFEST = GameManifest(
    name="watten",
    title={"en": "Watten", "de": "Watten"},
    game=f"{_HERE}.rules:Watten",
    players=(4, 4),
    options=(
        Option("target", 11, "int", "points that win the game (WA-4.2)", minimum=1),
        Option("first_dealer", 0, "int", "dealer of the first hand", minimum=0, maximum=3, seat=True),
        Option("raising", False, "bool", "allow raising the hand's value (WA-6)"),
        Option("signals", "partner", "choice", "who sees a signal (WA-5)", choices=("partner", "off", "public")),
        Option("signal_detection_p", 0.0, "float", "chance a signal is caught (WA-5.1)", minimum=0, maximum=1),
        Option("jack_order", "skat", "choice", "order of the non-trump jacks (WA-2)",
               choices=("skat", "first_played")),
        Option("follow", "all", "choice", "which leads must be followed (WA-3.2)", choices=("all", "trump_only")),
        Option("caller", "dealer_right", "choice", "who names trump (WA-1.3)",
               choices=("dealer_right", "dealer_left")),
        Option("hand_value", 1, "int", "points a hand is worth before raising (WA-4.1)", minimum=1),
    ),
    notation="trump S, signal weak|medium|strong|none, raise, accept, concede, or a card (JC, TH)",
    limits=Limits(
        # hands until a team reaches the target, each: a shuffle of 31 choices, trump,
        # signals, tricks and raises
        max_game_length=lambda o: (2 * o["target"] // o["hand_value"] + 2) * (31 + 4 + 4 + 20 + 40),
        max_chance_outcomes=32,  # the deck
        num_distinct_actions=43,  # 32 cards, 4 trumps, 4 signals, raise, accept, concede
    ),
    search=SearchHints(
        score_scale=2.0,
        # a hand's result moves the score-lead reward by only ~0.25, so exploration is
        # scaled down with it; worlds follow the signals and the call, and signals are
        # sent by the honest convention (arena: 0.600 -> 0.665 of games at 600 iterations
        # with exploration 0.7 -> 0.25; docs/performance.md)
        ismcts={"rollout_depth": 25, "rollout": "policy", "belief": True, "conventions": True,
                "exploration": 0.25},
        # The levels are the four bots that are clear steps here (docs/leaderboard.md;
        # docs/learned.md, A note on the levels): random play, the heuristic with slips
        # (a quarter of its decisions at random), the heuristic, and the search at 500
        # iterations (73 ms a move on the board).  The search at the default 200
        # iterations was no step over the heuristic (0.54 [0.40, 0.67] of 48 games), and
        # three stronger searches no step over 500 iterations (1,500 iterations 0.51 of
        # 68, solved leaves 0.53 of 64, the other seats by the policy 0.56 of 64).
        levels={"expert": {"iterations": 500}},
        level_bots={"medium": ("heuristic", {"blunder": 0.25}), "hard": ("heuristic", {})},
    ),
    plugins=Plugins(
        heuristic=f"{_HERE}.heuristic:HeuristicBot",
        codec=f"{_HERE}.codec:WattenCodec",
        render=f"{_HERE}.render",
        measures=f"{_HERE}.measures:WattenMeasures",
        web=f"{_HERE}:web.js",
    ),
)
