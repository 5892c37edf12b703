"""Helpers for Seven Waters tests: decks that put wanted cards where a test needs them."""

from __future__ import annotations

from wasserspiele import load
from wasserspiele.core.cards import ALL_CARDS, card
from wasserspiele.games.seven_waters.actions import INDEX

DEFAULT_LINES = (["5C"], ["8C", "3S"], ["2H", "4H", "6D"], ["7H", "9H", "2D", "3D"])


def make_deck(pyramid: dict[str, str] | None = None, lines=(None, None), hands=((), ())) -> list[str]:
    """A 54-card dealing order (spec "Record setup") with the given cards placed and the
    rest filled in card order.  `pyramid` maps "R-C" to a card; `lines[s]` is seat s's
    four lines (1, 2, 3, 4 cards); `hands[s]` up to 3 cards of seat s's starting hand."""
    slots: list[str | None] = [None] * 54
    for pos, name in (pyramid or {}).items():
        r, c = map(int, pos.split("-"))
        slots[INDEX[(r, c)]] = card(name).name
    for seat in (0, 1):
        if lines[seat] is not None:
            flat = [card(n).name for line in lines[seat] for n in line]
            assert [len(line) for line in lines[seat]] == [1, 2, 3, 4]
            slots[28 + 10 * seat: 38 + 10 * seat] = flat
        for k, name in enumerate(hands[seat]):
            slots[48 + 3 * seat + k] = card(name).name
    used = [x for x in slots if x]
    assert len(used) == len(set(used)), "a card is placed twice"
    rest = iter(c.name for c in ALL_CARDS if c.name not in set(used))
    return [x if x else next(rest) for x in slots]


def new_state(pyramid=None, lines=(None, None), hands=((), ()), **options):
    """A game started from a deck built by make_deck."""
    game = load("seven_waters", **options)
    return game.new_game(setup={"deck": make_deck(pyramid, lines, hands)})


def move_cards(state, seat: int, names) -> list:
    """Take cards out of wherever they lie (pyramid, hands, discards) into seat's hand,
    for building positions the rules would reach only after many turns."""
    out = []
    for name in names:
        c = card(name)
        if c in state.pyramid:
            state.pyramid[state.pyramid.index(c)] = None
            state.left -= 1
        else:
            for zone in (*state.hands, *state.discards):
                if c in zone:
                    zone.remove(c)
                    break
            else:
                raise AssertionError(f"{name} is not in the pyramid, a hand or a discard pile")
        state.hands[seat].append(c)
        out.append(c)
    state.hands[seat].sort()
    return out


def place(state, seat: int, zone: str, text: str) -> None:
    """Put cards (taken from wherever they lie) into a zone of seat's park as notation
    `text` gives them: zone is "slide K", "river", "pool", "theme", "discards" or "hand"."""
    pieces = state.game.parse_action(f"{zone} {text}").pieces if zone.split()[0] in ("slide", "river", "pool") \
        else None
    cards = move_cards(state, seat, [t.partition("=")[0] for t in text.split()])
    if zone == "hand":
        return
    for c in cards:
        state.hands[seat].remove(c)
    if zone.startswith("slide"):
        state.slides[seat][int(zone.split()[1]) - 1] = pieces
        state.slides_built += 1
    elif zone in ("river", "pool"):
        getattr(state, zone)[seat].extend(pieces)
    elif zone == "theme":
        (state.theme[seat],) = cards
    elif zone == "discards":
        state.discards[seat].extend(cards)
    else:
        raise ValueError(zone)


def random_game_ending(pools_equal: bool, seeds=range(2000)):
    """The first seeded game of uniformly random legal actions (engine's `apply` from
    `new_game(seed=...)`) that ends with equal totals and with pools that differ
    (`pools_equal` False) or are equal too (True): end states the rules reach in play,
    for SW-5.3's tie-break.  About one seed in fifty fits either way."""
    import random

    game = load("seven_waters")
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_game(seed=seed)
        while not state.is_terminal():
            seat = state.current_seat
            state.apply(rng.choice(state.legal_actions(seat)), seat)
        a, b = state.scores()
        if a == b and (len(state.pool[0]) == len(state.pool[1])) == pools_equal:
            return state
    raise RuntimeError("no such ending among the seeds")
