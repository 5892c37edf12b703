"""What Wildwasser declares about itself (core/manifest.py); imports only core."""

from ...core.manifest import GameManifest, Limits, Plugins, SearchHints
from ...core.options import Option, seat_check

_HERE = __package__

MANIFEST = GameManifest(
    name="wildwasser",
    title={"en": "Wildwasser", "de": "Wildwasser"},
    game=f"{_HERE}.rules:Wildwasser",
    players=(2, 6),
    options=(
        Option("players", 4, "int", "number of players", minimum=2, maximum=6),
        Option("first_player", 0, "int", "seat holding the start marker at the start", minimum=0, maximum=5,
               check=seat_check, seat=True),
        Option("river_flow", "forward", "choice",
               "forward: crossing k uses slot k (a push carries animals on); back: slot 6-k (washes them back)",
               choices=("forward", "back")),
    ),
    notation="pick ANIMAL, move, move ANIMAL, action, action SEAT, sun ANIMAL, marker SEAT "
             "(animals: cheetah zebra rhino meerkat turtle)",
    limits=Limits(
        max_game_length=5000,
        max_chance_outcomes=25,  # drawing one of the log tiles left (more than the die faces)
        num_distinct_actions=29,  # pick/move/sun per animal, move, action, action/marker per seat
    ),
    search=SearchHints(
        score_scale=4.0,
        # estimate: a rollout cut off at 30 actions is valued by the race as it stands
        # (heuristic.estimated_scores), not by the podium points so far, which are mostly
        # still 0 there (every root value 0.5 in most backward-river searches).  At equal
        # CPU it won 0.658 [0.570, 0.737] of 3-player backward games (1/3 expected) and
        # 0.354 [0.266, 0.454] and 0.361 [0.260, 0.476] of 4-player forward ones (1/4), and
        # 3-player forward games as often as the plain search (two runs, 198 games; docs/bots.md)
        ismcts={"rollout_depth": 30, "estimate": True},
        levels={"expert": {"iterations": 3000}},
    ),
    plugins=Plugins(
        heuristic=f"{_HERE}.heuristic:HeuristicBot",
        codec=f"{_HERE}.codec:WildwasserCodec",
        render=f"{_HERE}.render",
        measures=f"{_HERE}.measures:WildwasserMeasures",
        web=f"{_HERE}:web.js",
    ),
)
