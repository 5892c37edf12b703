"""A Watten bot that plays like a decent partner, from the view alone.

* calls the trump its hand supports (jacks count for every suit);
* signals its strength honestly (unless a caught signal is too likely) and reads its partner's;
* leads trump when strong, otherwise a plain ace or a cheap card;
* does not overtake a partner's trick, wins cheaply, throws its least useful card;
* raises only when the hand is nearly won and concedes a hopeless hand.
"""

from __future__ import annotations

from ...bots.base import Bot, Decision
from .actions import (
    ACCEPT, ACCEPT_ACTION, CARD_ID, CONCEDE, JACK, N_CARDS, PLAY, PLAYS, RAISE, RANK_OF, SIGNAL, SIGNAL_LEVELS,
    SIGNALS, SUIT_OF, TRUMP, TRUMPS,
)
from .rules import best_index
from .state import ANSWER_PHASE, PLAY_PHASE, SIGNAL_PHASE, TRUMP_PHASE
from .view import signal_visible

SUITS = "CSHD"
SIGNAL_VALUE = {"weak": 0.0, "medium": 1.0, "strong": 2.0, "none": None, None: None}
MAX_SIGNAL_RISK = 0.05  # above this chance of being caught, the bot keeps its signals to itself


def hand_points(cards: list[int], trump: int) -> float:
    """A rough strength of a hand for trump `trump`: jacks and high trumps count most."""
    pts = 0.0
    for c in cards:
        s, r = SUIT_OF[c], RANK_OF[c]
        if r == JACK:
            pts += 3.0 if s == trump else 2.2
        elif s == trump:
            pts += 1.0 + 0.15 * r
        elif r == 7:  # a plain ace
            pts += 0.5
    return pts


def signal_level(cards: list[int], trump: int) -> str:
    """The honest signal for a hand of the current deal (WA-5): its strength in three steps."""
    pts = hand_points(cards, trump)
    return "weak" if pts < 3.5 else "medium" if pts < 6.0 else "strong"


def honest_signal(decision: Decision):
    """The convention this bot and the search share: signal the hand's strength truthfully,
    or nothing when a signal risks being caught too often (WA-5.1)."""
    view = decision.view
    legal = decision.legal
    if decision.game.options["signal_detection_p"] > MAX_SIGNAL_RISK:
        return legal[0]  # signal none
    level = signal_level([CARD_ID[n] for n in view["hand"]], SUITS.index(view["trump"]))
    return next(a for a in legal if SIGNAL_LEVELS[a.arg] == level)


class HeuristicBot(Bot):
    kind = "heuristic"

    def choose(self, decision: Decision):
        view = decision.view
        legal = decision.legal
        kind = legal[0].kind
        if kind == TRUMP:
            return self._call(view, legal)
        if kind == SIGNAL:
            return self._signal(decision, legal)
        if kind in (ACCEPT, CONCEDE):
            return self._answer(decision, legal)
        return self._play(decision, legal)

    # -- trump and signals -----------------------------------------------------------
    def _call(self, view, legal):
        hand = [CARD_ID[n] for n in view["hand"]]
        best = max(legal, key=lambda a: (hand_points(hand, a.arg), self.rng.random()))
        return best

    def _signal(self, decision, legal):
        return honest_signal(decision)

    # -- card play -------------------------------------------------------------------
    def _tables(self, decision):
        view = decision.view
        trump = SUITS.index(view["trump"])
        return trump, decision.game.eff[trump], decision.game.strength

    def _unseen(self, view, hand):
        seen = set(hand)
        for t in view["tricks"]:
            seen.update(CARD_ID[c] for _, c in t["cards"])
        seen.update(CARD_ID[c] for _, c in view["trick"])
        return [c for c in range(N_CARDS) if c not in seen]

    def _sure(self, c, trump, eff, strength, unseen):
        """True when `c` as a trump beats every card still unseen (it wins any trick it is in)."""
        if eff[c] != trump:
            return False
        row = strength[trump * 4 + trump]
        v = row[c]
        return all(row[u] < v for u in unseen)

    def _expected_tricks(self, decision, hand, trump, eff, strength):
        """Tricks my team should still take: sure trumps, a share of the other trumps, the partner's signal."""
        view = decision.view
        unseen = self._unseen(view, hand)
        sure = sum(1 for c in hand if self._sure(c, trump, eff, strength, unseen))
        other_trumps = sum(1 for c in hand if eff[c] == trump) - sure
        est = sure + 0.4 * other_trumps
        partner_signal = SIGNAL_VALUE.get(view["signals"][view["partner"]])
        if partner_signal is not None and not view["tricks"]:
            est += 0.5 * partner_signal
        elif view["hand_sizes"][view["partner"]]:
            est += 0.1 * view["hand_sizes"][view["partner"]]  # an average partner
        return sure, est

    def _answer(self, decision, legal):
        view = decision.view
        team = view["team"]
        opp = 1 - team
        hand = [CARD_ID[n] for n in view["hand"]]
        trump, eff, strength = self._tables(decision)
        if view["scores"][opp] + view["value"] >= view["target"]:
            return next(a for a in legal if a.kind == ACCEPT)  # conceding would lose the game
        sure, est = self._expected_tricks(decision, hand, trump, eff, strength)
        need = 3 - view["tricks_won"][team]
        if view["tricks_won"][opp] >= 2 and sure == 0 and est + 0.3 < need:
            return next(a for a in legal if a.kind == CONCEDE)
        return next(a for a in legal if a.kind == ACCEPT)

    def _play(self, decision, legal):
        view = decision.view
        team = view["team"]
        hand = [CARD_ID[n] for n in view["hand"]]
        trump, eff, strength = self._tables(decision)
        plays = [a for a in legal if a.kind == PLAY]
        if any(a.kind == RAISE for a in legal):
            sure, est = self._expected_tricks(decision, hand, trump, eff, strength)
            need = 3 - view["tricks_won"][team]
            if need <= 0 or sure >= need or (est >= need + 0.8 and view["tricks_won"][team] >= 1):
                return next(a for a in legal if a.kind == RAISE)
        cards = [a.arg for a in plays]
        trick = view["trick"]
        unseen = self._unseen(view, hand)
        if not trick:
            return self._lead(view, cards, hand, trump, eff, strength, unseen, plays)
        played = [CARD_ID[name] for _, name in trick]
        row = strength[trump * 4 + eff[played[0]]]
        best_i = best_index(row, played)
        best_v = row[played[best_i]]
        winner_seat = trick[best_i][0]
        last = len(trick) == 3
        partner_wins = winner_seat == view["partner"]
        beating = [c for c in cards if row[c] > best_v]
        if partner_wins:
            sure = all(row[u] <= best_v for u in unseen) or last
            if sure or not beating:
                return self._pick(plays, self._cheapest(cards, trump, eff, strength))
            # partner's card may fall: take over only with a card nobody can beat
            safe = [c for c in beating if all(row[u] < row[c] for u in unseen)]
            return self._pick(plays, min(safe, key=lambda c: row[c]) if safe
                              else self._cheapest(cards, trump, eff, strength))
        if beating:
            if last:
                return self._pick(plays, min(beating, key=lambda c: row[c]))
            safe = [c for c in beating if all(row[u] < row[c] for u in unseen)]
            if safe:
                return self._pick(plays, min(safe, key=lambda c: row[c]))
            cheapest_win = min(beating, key=lambda c: row[c])
            partner_after = len(trick) == 1  # second to play: the partner plays last
            if (partner_after and eff[cheapest_win] == trump
                    and view["signals"][view["partner"]] == "strong" and len(view["tricks"]) < 3):
                # a strong partner plays last: keep my trump, let the partner take it
                return self._pick(plays, self._cheapest(cards, trump, eff, strength))
            return self._pick(plays, cheapest_win)
        return self._pick(plays, self._cheapest(cards, trump, eff, strength))

    def _lead(self, view, cards, hand, trump, eff, strength, unseen, plays):
        trump_row = strength[trump * 4 + trump]
        trumps = sorted((c for c in cards if eff[c] == trump), key=lambda c: -trump_row[c])
        sure = [c for c in trumps if self._sure(c, trump, eff, strength, unseen)]
        unseen_trumps = sum(1 for u in unseen if eff[u] == trump)
        if sure and unseen_trumps:
            return self._pick(plays, sure[0])  # draw the opponents' trumps
        if len(trumps) >= 3 or (len(trumps) >= 2 and sure):
            return self._pick(plays, trumps[0])
        plain = [c for c in cards if eff[c] != trump]
        aces = [c for c in plain if RANK_OF[c] == 7]
        if aces:
            return self._pick(plays, aces[0])
        if plain:
            return self._pick(plays, min(plain, key=lambda c: RANK_OF[c]))
        if sure:
            return self._pick(plays, sure[0])
        return self._pick(plays, trumps[-1])

    @staticmethod
    def _cheapest(cards, trump, eff, strength):
        """The card least useful later: a low plain card before any trump."""
        row = strength[trump * 4 + trump]
        return min(cards, key=lambda c: (eff[c] == trump, row[c] if eff[c] == trump else RANK_OF[c]))

    @staticmethod
    def _pick(plays, c):
        for a in plays:
            if a.arg == c:
                return a
        return plays[0]


def rollout_policy(world, seat: int, rng):
    """A fast greedy policy for search rollouts in a *sampled* world (never the true state).

    Call the suit with most cards (jacks count as trump); send no signal; accept a
    raise, never raise; lead the top jack if held, else the weakest card; follow by
    winning the trick with the cheapest card that beats it unless the partner is
    already ahead, otherwise throw the weakest card.
    """
    phase = world.phase
    game = world.game
    if phase == TRUMP_PHASE:
        hand = world.hands[seat]
        counts = [sum(1 for c in hand if game.eff[t][c] == t) for t in range(4)]
        return TRUMPS[max(range(4), key=lambda t: (counts[t], rng.random()))]
    if phase == SIGNAL_PHASE:
        return SIGNALS[0]
    if phase == ANSWER_PHASE:
        return ACCEPT_ACTION
    if phase != PLAY_PHASE:
        legal = world.legal_actions(seat)
        return legal[rng.randrange(len(legal))]
    cards = [a.arg for a in world.legal_actions(seat) if a.kind == PLAY]
    trump, trick = world.trump, world.trick
    if not trick:
        own = game.strength[trump * 4 + trump]  # a lead's strength as a trump lead
        top = max(cards, key=lambda c: own[c])
        if own[top] >= 99:
            return PLAYS[top]
        return PLAYS[min(cards, key=lambda c: (own[c], c % 8))]
    row = game.strength[trump * 4 + game.eff[trump][trick[0]]]
    best = best_index(row, trick)
    partner_ahead = best == len(trick) - 2
    beating = [c for c in cards if row[c] > row[trick[best]]]
    if beating and not partner_ahead:
        return PLAYS[min(beating, key=lambda c: row[c])]
    return PLAYS[min(cards, key=lambda c: (row[c], c % 8))]


def kernel_solve(world):
    """The end of the hand in progress of a *sampled* world with every hand open
    (kernel.hand_winner: all four play their cards perfectly; raising is not played):
    the scores once the winning team has the hand's value (WA-4.1) and the winners if
    that reaches the target (WA-4.2), as a search rollout reports them; None unless a
    card is to be played (the call, the signals and an answer are the policy's)."""
    if world.phase != PLAY_PHASE:
        return None
    from . import kernel as K

    game = world.game
    key = tuple(game.options.items())
    r = _KERNEL_RULES.get(key)
    if r is None:
        r = _KERNEL_RULES[key] = K.Rules(**game.options)
    team = K.hand_winner(K.table_of(world), r.opts, r.eff, r.strength)
    scores = world.team_scores[:]
    scores[team] += world.value
    won = scores[team] >= game.target
    return [scores[0], scores[1], scores[0], scores[1]], ([team, team + 2] if won else None)


_KERNEL_RULES: dict = {}  # a game's options -> their kernel.Rules, made once


# -- what search borrows from this bot's conventions -------------------------------

def convention(decision: Decision):
    """The action a convention dictates, or None when the position is for search to judge.

    A signal is worth only what the partner reads from it, which a search over sampled
    worlds cannot value (every rollout ignores it): the search signals honestly, like
    this bot, so that partners can read each other (see `plausibility`)."""
    if decision.legal[0].kind == SIGNAL:
        return honest_signal(decision)
    return None


# A visible signal that contradicts a sampled hand is not impossible (a bluff, or a
# partner with other habits), only unlikely: such worlds are kept with this weight.
SIGNAL_MISMATCH = 0.05
# The caller names the suit its hand supports best; a world where another suit would
# have been clearly better for the caller is kept with this weight.
CALL_MISMATCH = 0.35
CALL_SLACK = 1.0  # hand points by which the called suit may trail the best one


def _dealt_hand(world, seat: int) -> list[int]:
    """`seat`'s five cards of the current deal in a sampled world: held plus played."""
    cards = list(world.hands[seat])
    for leader, played, _winner in world.tricks:
        i = (seat - leader) % 4
        if i < len(played):
            cards.append(played[i])
    if world.trick:
        i = (seat - world.leader) % 4
        if i < len(world.trick):
            cards.append(world.trick[i])
    return cards


def plausibility(world, seat: int) -> float:
    """How likely a sampled world's hidden hands are, given what `seat` saw others do.

    Reads the honest-signal convention (a visible signal states the sender's strength in
    the trump) and the call (the caller names its best suit).  ISMCTS keeps a dealt
    world with this probability, so its worlds follow the table's information rather
    than a uniform deal."""
    trump = world.trump
    if trump < 0:
        return 1.0
    weight = 1.0
    mode = world.game.signal_mode
    for other in range(4):
        level = world.signals[other]
        if other == seat or level <= 0 or not signal_visible(mode, seat, other):
            continue  # no signal, or one this seat cannot see (re-drawn at random)
        if signal_level(_dealt_hand(world, other), trump) != SIGNAL_LEVELS[level]:
            weight *= SIGNAL_MISMATCH
    caller = world.caller
    if caller != seat:
        hand = _dealt_hand(world, caller)
        best = max(hand_points(hand, t) for t in range(4))
        if hand_points(hand, trump) + CALL_SLACK < best:
            weight *= CALL_MISMATCH
    return weight
