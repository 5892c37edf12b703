"""What Pebbles declares about itself (core/manifest.py); imports only core."""

from wasserspiele.core.manifest import GameManifest, Limits, Plugins, SearchHints
from wasserspiele.core.options import Option, seat_check

_HERE = __package__
PEBBLES = 16
ROUNDS = 4  # PB-2: four prizes, four pebbles in each hand

MANIFEST = GameManifest(
    name="pebbles",
    title={"en": "Pebbles", "de": "Kiesel"},
    game=f"{_HERE}.rules:Pebbles",
    players=(2, 3),
    options=(
        Option("players", 2, "int", "number of players", minimum=2, maximum=3),
        Option("first_player", 0, "int", "seat that plays first in round 1 (PB-3.1)", minimum=0,
               check=seat_check, seat=True),
    ),
    notation="play N: place pebble N (1-16) from your hand, e.g. play 7",
    limits=Limits(
        # the bag's shuffle is at most 15 chance choices, then one pebble per seat and round
        max_game_length=lambda o: PEBBLES - 1 + ROUNDS * o["players"],
        max_chance_outcomes=PEBBLES,
        num_distinct_actions=PEBBLES,
    ),
    search=SearchHints(score_scale=4.0, ismcts={"rollout_depth": 10}, levels={"expert": {"iterations": 300}}),
    plugins=Plugins(
        heuristic=f"{_HERE}.heuristic:HeuristicBot",
        codec=f"{_HERE}.codec:PebblesCodec",
        render=f"{_HERE}.render",
        measures=f"{_HERE}.measures:PebblesMeasures",
        web=f"{_HERE}:web.js",
    ),
)
