"""The lab's measures of Wasserloch (lab/measures.py explains the contract)."""

from __future__ import annotations

from typing import Any

from ...core.protocol import Game, State
from ...lab.measures import Measure, Measures


class WasserlochMeasures(Measures):
    """Drive-offs and loot (WL-4.2), aces taking the 8s (WL-4.3)."""

    per_step = True
    units = "rounds"
    units_fixed = True  # the `rounds` option
    describe = (
        Measure("drive_offs", "mean", "drive-offs per game",
                description="plays that drove off a place and took its cards as loot (WL-4.2)"),
        Measure("loot", "ratio", "loot per drive-off (cards)", "drive_offs",
                description="cards taken as loot, one point each (WL-5.3), over the drive-offs"),
        Measure("ace_eights", "mean", "aces taking the 8s, per game",
                description="drive-offs of the 8s by three or more aces, the one way the 8s are driven off "
                            "(WL-4.3)"),
        Measure("ace_eights_any", "share", "games in which 3+ aces took the 8s at least once",
                description="1 when aces drove off the 8s at least once in the game (WL-4.3)"),
        Measure("ace_eight_loot", "ratio", "loot per drive-off of the 8s by aces (cards)", "ace_eights",
                description="cards of the 8s taken by aces (WL-4.3), over those drive-offs"),
        Measure("ace_eights", "ratio", "share of drive-offs that are aces taking the 8s", "drive_offs",
                description="drive-offs of the 8s by aces (WL-4.3) among all drive-offs"),
        Measure("big_drive_offs", "ratio", "share of drive-offs taking 5+ cards", "drive_offs",
                description="drive-offs whose loot was 5 cards or more, among all drive-offs (WL-4.2)"),
    )

    def __init__(self, game: Game):
        super().__init__(game)
        self.drive_offs = self.loot = self.ace_eights = self.ace_eight_loot = self.big = 0
        self.before = [0.0] * game.players

    def step(self, state: State, action: Any, seat: int) -> None:
        # A play drove off a herd exactly when the player's score rose (WL-5.3: one point per
        # looted card), and aces only ever drive off the 8s (WL-4.3).  Reading scores() is
        # much cheaper than building a view after every play.
        scores = state.scores()
        loot = scores[seat] - self.before[seat]
        self.before = scores
        if loot <= 0:
            return
        self.drive_offs += 1
        self.loot += loot
        if loot >= 5:
            self.big += 1
        if str(action).upper().startswith("A"):
            self.ace_eights += 1
            self.ace_eight_loot += loot

    def finish(self, state: State) -> dict[str, float]:
        return {"units": state.view(None)["round"], "drive_offs": self.drive_offs, "loot": self.loot,
                "ace_eights": self.ace_eights, "ace_eights_any": int(self.ace_eights > 0),
                "ace_eight_loot": self.ace_eight_loot, "big_drive_offs": self.big}

    @staticmethod
    def kernel_games(game: Game, game_seeds: list[int], bot_seeds: list[list[int]]) -> list[dict[str, Any]]:
        """The lab's random-bot games played in the compiled kernel (lab/kernels.py): the
        same deals and plays as the engine from these seeds, so the same scores, plays and
        measures as `step`/`finish` give, and the lead changes lab/study.Watch counts."""
        from . import kernel as K
        rounds = game.options["rounds"]
        scores, plays, stats = K.lab_games(game_seeds, bot_seeds, game.players, rounds, game.options["first_player"],
                                           game.options["chase"])
        out = []
        for score, n, st in zip(scores.tolist(), plays.tolist(), stats.tolist()):
            measures = {"units": rounds, "drive_offs": st[K.DRIVE_OFFS], "loot": st[K.LOOT],
                        "ace_eights": st[K.ACE_EIGHTS], "ace_eights_any": int(st[K.ACE_EIGHTS] > 0),
                        "ace_eight_loot": st[K.ACE_EIGHT_LOOT], "big_drive_offs": st[K.BIG_DRIVE_OFFS]}
            out.append({"scores": score, "winners": K.winners(score), "actions": n, "measures": measures,
                        "lead_changes": st[K.LEAD_CHANGES]})
        return out
