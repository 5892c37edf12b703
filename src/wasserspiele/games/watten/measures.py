"""The lab's measures of Watten (lab/measures.py explains the contract)."""

from __future__ import annotations

from typing import Any

from ...core.protocol import Game, State
from ...lab.measures import Measure, Measures


class WattenMeasures(Measures):
    """Hands per game (WA-1.4), the caller's team (WA-1.3), raising (WA-6)."""

    units = "hands"
    describe = (
        Measure("units", "mean", "hands per game",
                description="hands (deals) played until a team reached the target (WA-1.4)"),
        Measure("caller_wins", "ratio", "hands won by the caller's team", "hands",
                description="hands won by the team of the player who named trump (WA-1.3), over the hands"),
        Measure("raised", "ratio", "hands played for more than the base value", "hands",
                description="hands that scored more than the base value `hand_value`: a raise was accepted "
                            "(WA-6), over the hands"),
        Measure("conceded", "ratio", "hands ended by a concede", "hands",
                description="hands that ended when a team conceded a raise (WA-6), over the hands"),
        Measure("caught", "ratio", "hands lost to a caught signal", "hands",
                description="hands a team lost at once because one of its signals was caught (WA-5.1), over the "
                            "hands"),
        Measure("points", "ratio", "points per hand", "hands",
                description="the points the hand's winners scored, over the hands"),
        Measure("caller_team_wins_game", "share", "games won by the team that called the first hand",
                description="1 when the team whose player named trump in the first hand (WA-1.3) won the game"),
    )

    def finish(self, state: State) -> dict[str, float]:
        view = state.view(None)
        results = view["results"]
        left = self.game.options.get("caller") == "dealer_left"
        base = self.game.options.get("hand_value", 1)
        caller_wins = raised = conceded = caught = points = 0
        first_caller_team = None
        for r in results:
            caller = (r["dealer"] + (1 if left else -1)) % 4
            team = caller % 2
            if first_caller_team is None:
                first_caller_team = team
            caller_wins += r["team"] == team
            raised += r["points"] > base
            conceded += r["reason"] == "concede"
            caught += r["reason"] == "caught"
            points += r["points"]
        winners = state.winners()
        return {"units": len(results), "hands": len(results), "caller_wins": caller_wins, "raised": raised,
                "conceded": conceded, "caught": caught, "points": points,
                "caller_team_wins_game": int(bool(winners) and winners[0] % 2 == first_caller_team)}

    @staticmethod
    def lockstep_tables(game: Game, seeds: list[int], obs_size: int) -> Any:
        """The games of these seeds in the compiled kernel, every seat played from
        outside (lab/lockstep.py): the engine's deals, so the engine's games."""
        from .kernel import LabTables
        return LabTables(game, seeds, obs_size)

    @staticmethod
    def lockstep_measures(game: Game, result: dict[str, Any]) -> tuple[dict[str, float], int]:
        """`finish`'s measures of a finished kernel game (`LabTables.results`) from its
        counts (kernel.LAB_*), and the lead changes lab/study.Watch counts."""
        from . import kernel as K
        stats, winners = result["stats"], result["winners"]
        hands = stats[K.LAB_HANDS]
        first_caller_wins = int(winners[0] % 2 == stats[K.LAB_FIRST_CALLER])
        return ({"units": hands, "hands": hands, "caller_wins": stats[K.LAB_CALLER_WINS],
                 "raised": stats[K.LAB_RAISED], "conceded": stats[K.LAB_CONCEDED], "caught": stats[K.LAB_CAUGHT],
                 "points": stats[K.LAB_POINTS], "caller_team_wins_game": first_caller_wins}, stats[K.LAB_LEAD_CHANGES])
