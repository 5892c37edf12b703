"""The lab's measures of Wildwasser (lab/measures.py explains the contract)."""

from __future__ import annotations

from typing import Any, Mapping

from ...core.protocol import State
from ...lab.measures import Measure, Measures, Split
from .board import ICON_NAME, SPECIES
from .state import N_SPECIES
from .view import LOG_LENGTH


class WildwasserMeasures(Measures):
    """How games end (WW-5.1 / WW-5.2), finishes per species (WW-4.2), pushes (WW-4.4), and each
    species' share of the points (WW-5.3)."""

    per_step = True
    units = "rounds"
    describe = (
        Measure("units", "mean", "rounds per game",
                description="rounds played: in each, every player picks a card and resolves it (WW-3.1)"),
        Measure("end_tiles", "share", "games ended by the empty tile stack (WW-5.2), not a third finish",
                description="1 when a push was due with the tile stack empty and the game ended with that round "
                            "(WW-5.2); 0 when a player's third animal finished (WW-5.1)"),
        Measure("finishes", "mean", "animals finished per game",
                description="animals of every player that crossed the finish line onto their species' podium "
                            "(WW-4.2)"),
    ) + tuple(Measure(f"finish_{sp}", "mean", f"{sp}s finished per game",
                      description=f"every player's {sp}s on the {sp} podium at the end (WW-4.2); places 1–3 score "
                                  f"points, places 4–6 none") for sp in SPECIES) + tuple(
        Measure(f"first_{sp}", "share", f"games in which the {sp} podium's 1st place was taken",
                description=f"1 when any player's {sp} finished, so that the {sp} podium's 1st place (its most "
                            f"points) went to someone")
        for sp in SPECIES
    ) + (
        Measure("pushes", "mean", "river pushes per game",
                description="pushes of the river (WW-4.4), by a zebra's action or by a push icon"),
        Measure("icon_pushes", "mean", "pushes from a push icon (not a zebra action), per game",
                description="pushes set off by an animal ending its move on a push icon (WW-4.3)"),
        Measure("washed", "ratio", "animals washed over the waterfall per push", "pushes",
                description="animals on the tile that left slot 5 over the waterfall, back to their team cards "
                            "(WW-4.4), over the pushes"),
        Measure("washed_winner", "ratio", "share of washed animals that belonged to the eventual winner(s)", "washed",
                description="of the animals washed over the waterfall, those of the player(s) who went on to win"),
    )
    # WW-1: every player races one animal of each species, so a species is neither a seat nor a
    # player's choice: its advantage is its share of the points the podiums give (WW-5.3)
    splits = (Split("species", "share of the points", SPECIES, "points",
                    description="every player races one animal of each species (WW-1), so a species is neither a "
                                "seat nor a choice: its advantage is its share of all the podium points scored "
                                "(WW-5.3), summed over the games, against a fair fifth. A species' points in a game "
                                "are those of the podium places its animals took (1st, 2nd, 3rd; 4th to 6th score "
                                "0), from m_finish_…: the places are taken in order (WW-4.2)"),)

    def split_amounts(self, split: Split, measures: Mapping[str, float]) -> list[float]:
        """WW-5.3: the podium points each species scored in a game.  Places are taken in order
        (WW-4.2) and an animal on its podium stays there, so a species with m finishes holds
        places 1..m."""
        board = self.game.board
        return [float(sum(board.points(i, place) for place in range(1, int(measures.get(f"finish_{sp}", 0)) + 1)))
                for i, sp in enumerate(SPECIES)]

    def __init__(self, game: Game):
        super().__init__(game)
        self.seen = -1
        self.end = ""
        self.finishes = {sp: 0 for sp in SPECIES}
        self.first = {sp: 0 for sp in SPECIES}
        self.pushes = self.icon_pushes = 0
        self.washed_by_seat = [0] * game.players
        self.pending_icon = False

    def step(self, state: State, action: Any, seat: int) -> None:
        # the events since the last step, as far back as a view's log reaches (the public
        # log a spectator sees), read from the state's log: building a spectator's view
        # after every action to read its log cost half of a learned-only game
        fresh = min(LOG_LENGTH, state.log_len - 1 - self.seen)
        for i, e in state.events(fresh) if fresh > 0 else ():
            self.seen = i
            kind = e[0]
            if kind == "finish":
                animal = SPECIES[e[2]]
                self.finishes[animal] += 1
                if e[4] == 1:
                    self.first[animal] = 1
            elif kind == "icon":
                self.pending_icon = ICON_NAME[e[2]] == "push"
                continue
            elif kind == "push":
                self.pushes += 1
                self.icon_pushes += self.pending_icon
                for a in e[4]:
                    self.washed_by_seat[a // N_SPECIES] += 1
            elif kind == "end":
                self.end = e[2]
            elif kind == "last_round":
                continue  # noted inside a push, between the push icon and the push itself
            self.pending_icon = False

    def finish(self, state: State) -> dict[str, float]:
        winners = state.winners()
        out = {"units": state.view(None)["round"], "end_tiles": int(self.end == "tiles"),
               "finishes": sum(self.finishes.values()), "pushes": self.pushes, "icon_pushes": self.icon_pushes,
               "washed": sum(self.washed_by_seat),
               "washed_winner": sum(self.washed_by_seat[s] for s in winners)}
        out.update({f"finish_{sp}": n for sp, n in self.finishes.items()})
        out.update({f"first_{sp}": n for sp, n in self.first.items()})
        return out

    @staticmethod
    def lockstep_tables(game: Game, seeds: list[int], obs_size: int) -> Any:
        """The games of these seeds in the compiled kernel, every seat played from
        outside (lab/lockstep.py): the engine's tiles and dice, so the engine's games."""
        from .kernel import LabTables
        return LabTables(game, seeds, obs_size)

    @staticmethod
    def lockstep_measures(game: Game, result: dict[str, Any]) -> tuple[dict[str, float], int]:
        """`finish`'s measures of a finished kernel game (`LabTables.results`) from the
        kernel's counts (kernel.W_*, its pushes and washed animals), and the lead changes
        lab/study.Watch counts."""
        from . import kernel as K
        stats, washed = result["stats"], result["washed"]
        finishes = {sp: stats[K.W_FINISH + i] for i, sp in enumerate(SPECIES)}
        out = {"units": result["round"], "end_tiles": int(result["last_round"]), "finishes": sum(finishes.values()),
               "pushes": result["pushes"], "icon_pushes": stats[K.W_ICON_PUSHES], "washed": sum(washed),
               "washed_winner": sum(washed[s] for s in result["winners"])}
        out.update({f"finish_{sp}": n for sp, n in finishes.items()})
        out.update({f"first_{sp}": stats[K.W_FIRST + i] for i, sp in enumerate(SPECIES)})
        return out, stats[K.W_LEAD_CHANGES]
