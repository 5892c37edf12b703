"""What Seven Waters declares about itself (core/manifest.py); imports only core."""

from ...core.manifest import GameManifest, Limits, Plugins, SearchHints
from ...core.options import Option

_HERE = __package__

MANIFEST = GameManifest(
    name="seven_waters",
    title={"en": "Seven Waters", "de": "Seven Waters"},
    game=f"{_HERE}.rules:SevenWaters",
    players=(2, 2),
    options=(
        Option("first_player", 0, "int", "seat that makes the first move", minimum=0, maximum=1, seat=True),
        Option("slide_limit", 7, "int", "slides both players may build together (SW-4.4); null: "
               "no limit, the competition edition (SW-7.1)", minimum=0, nullable=True),
        Option("final_turns", "both", "choice", "turns after the last pyramid card is taken (SW-5.1)",
               choices=("both", "opponent_only", "none")),
    ),
    notation=("take R-C, discard CARDS, slide K CARDS, river CARDS, pool CARDS, theme CARD, pass; "
              "cards as TH, jokers declared X1=7, e.g. take 7-3, slide 2 KD AC"),
    limits=Limits(
        max_game_length=54 + 600,  # 54 cards drawn, and far fewer decisions than 600
        max_chance_outcomes=54,    # the cards left to draw
        num_distinct_actions=2830,  # hand-relative actions (games/seven_waters/codec.py)
    ),
    search=SearchHints(
        score_scale=8.0,
        # rollouts to the end by the heuristic's choice read from the sampled world, played
        # in the compiled kernel where numba is installed (heuristic.kernel_rollout, the same
        # moves); cut after 10 actions the search lost to the heuristic (0.475 of 40 games),
        # as mid-game scores punish cards about to be built
        ismcts={"rollout_depth": 120, "rollout": "policy", "root_candidates": 5},
        # With the rollouts in the compiled kernel: hard the default 200 iterations (about
        # 0.1 CPU-s a move); expert 1,500, about 0.6 CPU-s a move on a loaded machine (2,000
        # took 0.86 s, p90 1.03 s). Without numba the rollouts run in Python, six times
        # slower: hard 40 and expert 300 iterations, the budgets before the kernel.
        # docs/performance.md, docs/leaderboard.md
        levels={"expert": {"iterations": 1500}},
        python_levels={"hard": {"iterations": 40}, "expert": {"iterations": 300}},
        # expert searches guided by the learned network (its policy as the prior, the
        # rollouts above as the values): it beat the plain 1,500-iteration search 0.900
        # [0.769, 0.960] of 40 games at 10 % less CPU a move (docs/learned.md); with the
        # default options and numba only (the weights' options; guided playouts in
        # Python were not measured), elsewhere the plain search above
        level_bots={"expert": ("learned", {"search": 750, "value": "rollout", "cpu_seconds": 2.0})},
    ),
    plugins=Plugins(
        heuristic=f"{_HERE}.heuristic:HeuristicBot",
        codec=f"{_HERE}.codec:SevenWatersCodec",
        render=f"{_HERE}.render",
        measures=f"{_HERE}.measures:SevenWatersMeasures",
        web=f"{_HERE}:web.js",
    ),
)
