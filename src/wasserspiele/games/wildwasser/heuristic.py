"""A Wildwasser heuristic: value each option by a one-step look at the track in the view.

The worth of an animal grows with the square of its progress towards the finish,
scaled by the species' first-place points (only finished animals score).  Moves
that finish or land on a useful icon (+n, die, cards back) score well; ending on a
tile about to go over the waterfall scores badly; a push is worth what it takes from
the opponents' animals on the river minus what it costs ours; the meerkat's action
is taken when the hand is thin.  Reads `decision.view` and `decision.legal` only.
"""

from __future__ import annotations

from .board import SPECIES
from ...bots.base import Bot, Decision

DIE_FACE_SPECIES = {"1": "turtle", "2": "meerkat", "3": "rhino", "4": "zebra", "5": "cheetah"}
TURTLE_CARD = ("turtle", "rhino", "meerkat")
ICON_BONUS = {"die": 1.0, "marker": 0.2}
WATERFALL_RISK = 0.45  # chance-ish that an animal on the last slot is washed away
NEXT_SLOT_RISK = 0.08


class Track:
    """The track as the view shows it, with the few queries the heuristic needs."""

    def __init__(self, view: dict):
        self.view = view
        self.n = view["fields"]
        self.finish = self.n + 1
        self.seat = view["seat"]
        self.players = view["players"]
        self.occ = [None] * (self.n + 2)
        self.icon = [None] * (self.n + 2)
        self.slot = [0] * (self.n + 2)
        self.passable = [True] * (self.n + 2)
        for cell in view["track"]:
            f = cell["field"]
            self.icon[f] = cell["icon"]
            self.occ[f] = tuple(cell["animal"]) if cell["animal"] else None
            self.slot[f] = cell.get("slot", 0) or 0
            self.passable[f] = cell.get("passable", True)
        self.last_slot = len(view["river"])
        self.forward = view["river_flow"] == "forward"
        self.points = view["podium_points"]
        self.podium_n = {sp: len(v) for sp, v in view["podiums"].items()}
        self.speeds = view["speeds"]
        me = view["seats"][self.seat]
        self.mine = {sp: a for sp, a in me["animals"].items()}

    def field(self, seat: int, sp: str) -> int | None:
        a = self.view["seats"][seat]["animals"][sp]
        if a["at"] == "podium":
            return None
        return a["field"] or 0

    def land(self, p: int, n: int) -> int:
        """Where a move of n from p ends (the engine's rule, including empty slots)."""
        gap = self.finish
        for f in range(p + 1, self.finish):
            if not self.passable[f]:
                gap = f
                break
        t = p + n
        while t < gap and t <= self.n and self.occ[t] is not None:
            t += 1
        if t >= gap and gap < self.finish:
            t = gap - 1
            while t > p and self.occ[t] is not None:
                t -= 1
            return max(t, p)
        return min(t, self.finish)

    def worth(self, sp: str, f: int) -> float:
        """What an animal of species sp on field f is worth (finish = its next podium points)."""
        if f >= self.finish:
            place = self.podium_n[sp]
            pts = self.points[sp][place] if place < len(self.points[sp]) else 0
            return pts + 2.0
        best = self.points[sp][0] if self.podium_n[sp] < len(self.points[sp]) else 0.5
        x = f / self.finish
        return best * x * x + 0.05 * f

    def risk(self, f: int) -> float:
        """Share of an animal's worth at risk on field f from the next push."""
        s = self.slot[f]
        if not s:
            return 0.0
        if s == self.last_slot:
            return WATERFALL_RISK
        if self.forward and s == self.last_slot - 1:
            return NEXT_SLOT_RISK
        return 0.0 if self.forward else 0.1

    def push_delta(self) -> tuple[float, float]:
        """Change of worth (mine, opponents' total) if the river is pushed now."""
        mine = opp = 0.0
        crossing_of = {}
        for cell in self.view["track"]:
            if "slot" in cell:
                crossing_of.setdefault(cell["slot"], []).append(cell)
        for cell in self.view["track"]:
            if "slot" not in cell or not cell["animal"]:
                continue
            seat, sp = cell["animal"]
            f = cell["field"]
            before = self.worth(sp, f)
            if cell["slot"] == self.last_slot:
                after = 0.0
            else:
                nxt = [c for c in crossing_of[cell["slot"] + 1] if c["column"] == cell["column"]]
                after = self.worth(sp, nxt[0]["field"]) if nxt else before
            if seat == self.seat:
                mine += after - before
            else:
                opp += after - before
        return mine, opp


class HeuristicBot(Bot):
    kind = "heuristic"

    def choose(self, decision: Decision):
        view, legal = decision.view, decision.legal
        if len(legal) == 1:
            return legal[0]
        b = Track(view)
        phase = view["phase"]
        if phase == "pick":
            return self._pick(b, legal)
        if phase == "sun":
            return max(legal, key=lambda a: self._move_value(b, str(a).split()[1], 1) + self.rng.random() * 1e-6)
        if phase == "marker":
            return next(a for a in legal if str(a) == f"marker {b.seat}")
        card = view["card"]
        return max(legal, key=lambda a: self._option_value(b, card, str(a)) + self.rng.random() * 1e-6)

    # -- values ---------------------------------------------------------------
    def _move_value(self, b: Track, sp: str, n: int, depth: int = 0) -> float:
        p = b.field(b.seat, sp)
        if p is None:
            return -1.0
        t = b.land(p, n)
        if t == p:
            return 0.0
        gain = b.worth(sp, t) * (1 - b.risk(t)) - b.worth(sp, p) * (1 - b.risk(p))
        if t < b.finish and depth < 3:
            icon = b.icon[t]
            if icon in ("+1", "+2", "+3"):
                saved = b.occ[p]
                b.occ[p], b.occ[t] = None, (b.seat, sp)
                mine = b.view["seats"][b.seat]["animals"][sp]
                old = mine["field"]
                mine["field"] = t
                gain += self._move_value(b, sp, int(icon[1]), depth + 1)
                mine["field"] = old
                b.occ[p], b.occ[t] = saved, None
            elif icon == "cards":
                gain += 0.4 * len(b.view["seats"][b.seat]["revealed"])
            elif icon == "push":
                gain += self._push_value(b)
            elif icon in ICON_BONUS:
                gain += ICON_BONUS[icon]
        return gain

    def _push_value(self, b: Track) -> float:
        mine, opp = b.push_delta()
        return mine - opp / max(1, b.players - 1)

    def _die_value(self, b: Track) -> float:
        values = []
        for face in ("1", "2", "3", "4", "5"):
            sp = DIE_FACE_SPECIES[face]
            values.append(max(0.0, self._move_value(b, sp, b.speeds[sp])))
        values.append(max([0.0] + [self._move_value(b, sp, 1) for sp in SPECIES]))
        return sum(values) / len(values)

    def _option_value(self, b: Track, card: str, text: str) -> float:
        words = text.split()
        if words[0] == "move":
            sp = words[1] if len(words) > 1 else card
            return self._move_value(b, sp, 1 if card == "turtle" else b.speeds[sp])
        if card == "zebra":
            return self._push_value(b)
        if card == "rhino":
            return self._die_value(b)
        if card == "meerkat":
            me = b.view["seats"][b.seat]
            hand = me["hand"] or []
            revealed = [c for c in me["revealed"] if c != "meerkat"]
            if len(hand) <= 1 and revealed:
                return 0.3 * sum(b.speeds[c] for c in revealed)
            return 0.05 * len(revealed)
        if card == "cheetah":  # moving the start marker is worth little: any seat (rng breaks the tie)
            return -0.1
        return 0.0

    def _card_value(self, b: Track, card: str) -> float:
        options = []
        if card == "turtle":
            options = [self._move_value(b, sp, 1) for sp in TURTLE_CARD]
        else:
            options.append(self._move_value(b, card, b.speeds[card]))
            if card == "zebra":
                options.append(self._push_value(b))
            elif card == "rhino":
                options.append(self._die_value(b))
            elif card == "meerkat":
                me = b.view["seats"][b.seat]
                revealed = me["revealed"]
                if len(me["hand"] or []) <= 2 and revealed:
                    options.append(0.3 * sum(b.speeds[c] for c in revealed) + 0.3 * b.speeds["meerkat"])
        return max(options) if options else -1.0

    def _pick(self, b: Track, legal):
        return max(legal, key=lambda a: self._card_value(b, str(a).split()[1]) + self.rng.random() * 0.05)


def _board_array(world):
    from . import kernel as K

    flow = world.game.options["river_flow"]
    return K.BOARDS[flow] if world.board is K.BOARD else K.board_array(flow, world.board)


def _estimate(st, bd, players: int) -> list[float]:
    """kernel.race_estimate of a kernel position, in points."""
    import numpy as np

    from . import kernel as K

    out = np.zeros(players, np.int64)
    K.race_estimate(st, bd, out)
    finish = int(bd[K.B_FINISH])
    return [int(v) / finish for v in out]


def estimated_scores(world) -> list[float]:
    """The search's value of an unfinished position (`ismcts:estimate=true`): each seat's
    final points as the race stands (kernel.race_estimate: the podium points won, and the
    place each animal on the track would take if the race ended in this order, weighted
    by its progress).  Cut off after the manifest's 30 actions, a rollout from the middle
    of a game at 3-4 players has rarely finished an animal, so the podium points alone
    valued almost every root action a draw (docs/bots.md)."""
    from . import kernel as K

    return _estimate(K.from_state(world), _board_array(world), world.players)


def kernel_rollout(world, policy: str, depth: int, x: int, estimate: bool = False):
    """A search rollout of `world` in the compiled kernel (kernel.rollout): at most `depth`
    uniformly random decisions ("random"; the kernel plays no other policy), the seats'
    choices and the die (WW-3.2, WW-4.3) drawn from xorshift32 state `x` in the order the
    game meets them.  The engine in Python plays the same rollout when `bots.ismcts.random_policy`
    and the world's chance both draw from one `bots.ismcts.KernelStream(x)` (a choice, or a
    roll `Uniform(die faces)`, is one `randrange`), as the search does without numba: the
    same dice, moves, scores and winners (tests/bots/test_ismcts_kernel.py).  (scores,
    winners, or None while the game goes on), or None for another policy or a board the
    kernel was not built for.  With `estimate`, an unfinished rollout's scores are
    `estimated_scores` of where it stopped, as the engine's would be."""
    import numpy as np

    from . import kernel as K

    if policy != "random" or world.board is not K.BOARD:
        return None
    bd = K.BOARDS[world.game.options["river_flow"]]
    st = K.from_state(world)
    st[K.RNG] = x
    p = world.players
    pts = np.zeros(p, np.int64)
    won = np.zeros(p, np.int64)
    over = K.rollout(st, bd, depth, pts, won)
    if over:
        return [float(v) for v in pts], [s for s in range(p) if won[s]]
    return (_estimate(st, bd, p) if estimate else [float(v) for v in pts]), None
