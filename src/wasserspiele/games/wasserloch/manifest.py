"""What Wasserloch declares about itself (core/manifest.py); imports only core."""

from ...core.manifest import GameManifest, Limits, Plugins, SearchHints
from ...core.options import Option, seat_check

_HERE = __package__

MANIFEST = GameManifest(
    name="wasserloch",
    title={"en": "Wasserloch", "de": "Wasserloch"},
    game=f"{_HERE}.rules:Wasserloch",
    players=(2, 4),
    options=(
        Option("players", 3, "int", "number of players", minimum=2, maximum=4),
        Option("rounds", 3, "int", "rounds in a match (WL-5.5; 1 is the variant WL-7.1)", minimum=1),
        Option("first_player", 0, "int", "start player of round 1", minimum=0, maximum=3, check=seat_check,
               seat=True),
        Option("chase", "nearest", "choice", "which lower place is driven off (WL-4.2)",
               choices=("nearest", "adjacent")),
    ),
    notation="VALUExCOUNT: play COUNT cards of one value (A, 2 … 8), e.g. 7x2, Ax3",
    limits=Limits(
        # a round deals at most the 64 cards one by one and plays at most one card a turn
        max_game_length=lambda o: o["rounds"] * (64 + 64),
        max_chance_outcomes=64,  # the deck
        num_distinct_actions=64,  # 8 values × 1..8 cards
    ),
    search=SearchHints(
        score_scale=6.0,
        ismcts={"rollout_depth": 4, "rollout": "policy"},
        levels={"expert": {"iterations": 5000}},
    ),
    plugins=Plugins(
        heuristic=f"{_HERE}.heuristic:HeuristicBot",
        codec=f"{_HERE}.codec:WasserlochCodec",
        render=f"{_HERE}.render",
        measures=f"{_HERE}.measures:WasserlochMeasures",
        web=f"{_HERE}:web.js",
    ),
)
