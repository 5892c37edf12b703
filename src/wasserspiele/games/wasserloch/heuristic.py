"""A Wasserloch bot that plays by the seed's "Tipps für Einsteiger".

Each legal play is scored from the view alone:
* gain: the herd it drives off now (gaps and the ace→8 rule included);
* exposure: what the next players can expect to drive off afterwards, from the
  cards they may hold (tips "don't lay the second card", "watch the 8s");
* pairs: breaking a pair or triple without driving anything off costs
  (tip "keep pairs to turn one card into three");
* patience: a drive-off of a small herd while a bigger one grows is worth less
  than waiting (tip "let herds grow").
The tips are switchable traits, so the lab can test which of them actually win.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb

from ...bots.base import Bot, Decision
from .rules import drive_targets, unseen as unseen_cards

ACE, EIGHT = 0, 7
THRESHOLD = 3
HAND = 5


@dataclass(frozen=True)
class Traits:
    """Weights of the tips; 0 switches a tip off."""

    # count the herds the next players could take after my play; 0.7 rather than 1 since the
    # exposure counts a driving play's loot as seen (ace7c02): against weight 1, 3 players,
    # 2,000 fresh duplicate deals, +0.32 [+0.12, +0.53] points and +0.013 [+0.002, +0.024]
    # win return per seat
    avoid_second_card: float = 0.7
    keep_pairs: float = 1.0         # value of keeping two or more of a value in hand
    grow_herds: float = 1.0         # hold back small drive-offs while the pile still runs
    watch_eights: float = 1.0       # keep aces while 8s gather


def drive_target(hole: list[int], v: int, adjacent: bool) -> int:
    """The place a play on `v` drives off, or -1 (WL-4.2, WL-4.3), given the waterhole after it."""
    if hole[v] < THRESHOLD:
        return -1
    if v == ACE:
        return EIGHT if hole[EIGHT] else -1
    if adjacent:
        return v - 1 if hole[v - 1] else -1
    for w in range(v - 1, -1, -1):
        if hole[w]:
            return w
    return -1


@lru_cache(maxsize=65536)  # few distinct arguments: k ≤ 3, hand ≤ 5, copies ≤ 8, unseen ≤ 64
def p_holds_at_least(k: int, hand: int, copies: int, unseen: int) -> float:
    """Hypergeometric: chance that a hand of `hand` cards from `unseen` holds ≥ k of `copies`."""
    if k <= 0:
        return 1.0
    if unseen <= 0 or copies < k or hand < k:
        return 0.0
    hand = min(hand, unseen)
    total = comb(unseen, hand)
    return sum(comb(copies, i) * comb(unseen - copies, hand - i)
               for i in range(k, min(copies, hand) + 1)) / total


class HeuristicBot(Bot):
    kind = "heuristic"

    def __init__(self, seed: int | None = None, traits: Traits | None = None):
        super().__init__(seed)
        self.traits = traits or Traits()

    def choose(self, decision: Decision):
        return self.rank(decision)[0]

    def rank(self, decision: Decision) -> list:
        """The legal plays, best first by the tips (search uses the top few)."""
        view = decision.view
        scored = [(self.evaluate(view, a.value, a.count) + self.rng.random() * 1e-6, i, a)
                  for i, a in enumerate(decision.legal)]
        scored.sort(key=lambda t: (-t[0], t[1]))
        return [a for _, _, a in scored]

    def evaluate(self, view: dict, v: int, n: int) -> float:
        """The value of playing n cards of value index v, from `view`."""
        t = self.traits
        hole = list(view["waterhole"])
        hand = view["hand"]
        adjacent = view.get("chase") == "adjacent"
        hole[v] += n
        target = drive_target(hole, v, adjacent)
        gain = hole[target] if target >= 0 else 0
        if target >= 0:
            hole[target] = 0
        score = float(gain)

        # tip: let herds grow — a one-card drive-off early in the round wastes a threat
        if t.grow_herds and 0 < gain <= 1 and view["pile"] > 10:
            score -= 0.5 * t.grow_herds

        # tip: keep pairs — cards left of this value after the play
        left = hand[v] - n
        if t.keep_pairs and gain == 0 and hand[v] >= 2 and left < 2:
            score -= 0.6 * t.keep_pairs
        if t.keep_pairs and gain > 0 and left == 0 and n >= 2:
            score += 0.2 * t.keep_pairs  # a pair used to drive is a pair well spent

        # tip: watch the 8s — aces are the only answer to a pile of 8s
        if t.watch_eights and v == ACE and gain == 0 and hole[EIGHT] >= 2:
            score -= 0.5 * t.watch_eights * min(hole[EIGHT], 4)

        # tip: don't lay the second card — expected herd the next players take
        if t.avoid_second_card:
            score -= t.avoid_second_card * self.exposure(view, hole, adjacent)

        # near the end of the pile, emptying the hand ends the round: good when ahead
        if view["pile"] == 0 and sum(hand) == n:
            scores = view["scores"]
            me = view["seat"]
            lead = scores[me] + gain - max(s for i, s in enumerate(scores) if i != me)
            score += 2.0 if lead > 0 else -2.0
        return score

    @staticmethod
    def exposure(view: dict, hole: list[int], adjacent: bool) -> float:
        """Expected loot the next two opponents can take from the waterhole `hole` (the
        one the play being judged leaves), dealing their hands from the cards unseen in
        `view`."""
        players, me = view["players"], view["seat"]
        unseen_by_value = unseen_counts(view)
        unseen = sum(unseen_by_value)
        threats = herds_in_reach(hole, adjacent)
        risk, weight = 0.0, 1.0
        for k in range(1, min(players, 3)):
            size = view["hand_sizes"][(me + k) % players]
            best = 0.0
            for w, herd in threats:
                need = THRESHOLD - hole[w] if hole[w] < THRESHOLD - 1 else 1
                p = p_holds_at_least(need, size, max(unseen_by_value[w], 0), unseen)
                if p * herd > best:
                    best = p * herd
            risk += weight * best
            weight *= 0.5
        return risk


def unseen_counts(view: dict) -> list[int]:
    """Per value, the cards of it `view`'s seat cannot see (rules.unseen, WL-2, WL-5.3).
    Read from the view before the play being judged: that play only moves seen cards (the
    hand's to the waterhole, a herd from there to the loot), so the unseen cards are the
    same after it.  Counting from the waterhole after the play instead took the herd it
    drives off for unseen cards an opponent might hold."""
    return unseen_cards(view["waterhole"], view["gone"], view["hand"])


def herds_in_reach(hole: list[int], adjacent: bool) -> list[tuple[int, int]]:
    """(place, herd it would drive off) for every place that drives something once it holds 3+."""
    return [(w, hole[t]) for w, t in enumerate(drive_targets(hole, adjacent)) if t >= 0]

def rollout_policy(world, seat: int, rng):
    """A fast greedy policy for search rollouts in a *sampled* world (never the true state).

    Take the biggest herd on offer with all copies of the value; otherwise lay a
    single card where it does not make a second card on a place; otherwise any.
    """
    from .actions import PLAYS
    hand, hole, adjacent = world.hand(seat), world.hole, world.chase_adjacent
    best, best_gain = None, 0
    quiet = []
    for v in range(8):
        n = hand[v]
        if not n:
            continue
        trial = hole.copy()
        trial[v] += n
        target = drive_target(trial, v, adjacent)
        gain = trial[target] if target >= 0 else 0
        if gain > best_gain:
            best, best_gain = PLAYS[v][n], gain
        elif hole[v] != 1:
            quiet.append(PLAYS[v][1])
    if best is not None:
        return best
    if quiet:
        return quiet[rng.randrange(len(quiet))]
    legal = world.legal_actions(seat)
    return legal[rng.randrange(len(legal))]
