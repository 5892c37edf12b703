"""Watten in the terminal: trump, the trick in progress, tricks and score per team,
your partner's signal (to you alone), the raise state, and a result table."""

from __future__ import annotations

import re

from ...core.cards import SUIT_SYMBOLS
from ...core.messages import Words, card_text, render, separator, term
from ...core.words import read_words, show_words


def _card(name: str, lang: str = "en", plain: bool = False) -> str:
    """'JC' → 'J♣' (German 'B♣') with red hearts and diamonds; `plain` (`play --plain`, a
    screen reader, which read `B♣` as "B black club suit" or the sign not at all): in words,
    "jack of clubs", „Kreuz-Bube", the page's names for cards (web.card_name) in the suits
    and ranks the game's catalogue names."""
    if plain:
        return render("web.card_name", {"r": render(f"web.rank_{name[:-1]}", None, lang),
                                        "s": render(f"web.suit_{name[-1]}", None, lang)}, lang)
    text = term(name[:-1], "card.rank", lang) + SUIT_SYMBOLS[name[-1]]
    return f"[red]{text}[/red]" if name[-1] in "HD" else text


def _said_in(line: str, e: dict, lang: str) -> str:
    """An event's catalogue line with its card (`{card:card}`) in words, for plain lines."""
    name = e.get("card")
    if not name:
        return line
    shown = card_text(name, lang)
    return re.sub(rf"(?<!\w){re.escape(shown)}(?!\w)", lambda m: _card(name, lang, True), line, count=1)


def _suit(letter: str, lang: str) -> str:
    return f"{SUIT_SYMBOLS[letter]} {term(letter, 'suit', lang)}"


def _lvl(level: str, lang: str) -> str:
    return term(level, "watten.signal", lang)


def render_view(view: dict, lang: str = "en", plain: bool = False) -> str:
    """The position as one seat (or a spectator) sees it; `plain` (`play --plain`): the
    parts of a line and the cards of the trick separated by semicolons."""
    t = Words("watten.ui", lang)
    me = view["seat"]
    sep = separator(plain)
    lines = [
        f"[bold]{t('hand_no', n=view['hand_no'])}[/bold]{sep}{t('dealer', s=view['dealer'])}{sep}"
        f"{t('caller', s=view['caller'])}{sep}{t('target', t=view['target'])}",
        f"{t('trump')}: " + (f"[bold]{_suit(view['trump'], lang)}[/bold]" if view["trump"] else t('no_trump')),
    ]
    teams = []
    seats = "seats_plain" if plain else "seats"  # plain: "seats 0 and 2", where `0+2` was read "0 plus 2"
    for team, (a, b) in enumerate(view["teams"]):
        label = t('team', t=team) + f" ({t(seats, a=a, b=b)}"
        label += f", {t('you')})" if me is not None and me in (a, b) else ")"
        extra = ""
        # WA-6: "gespannt" bars a team from raising; once the game is over it says nothing
        if view["raise"]["enabled"] and view["raise"]["gespannt"][team] and not view["winners"]:
            extra = f"{sep}[yellow]{t('gespannt')}[/yellow]"
        teams.append(f"{label}: {t('score')} {view['scores'][team]}{sep}{t('tricks')} {view['tricks_won'][team]}{extra}")
    lines += teams
    if view["raise"]["enabled"] or view["value"] != view["options"]["hand_value"]:
        lines.append(t('value', v=view["value"]))
    if view["raise"]["pending"] is not None:
        r = view["raise"]
        lines.append(f"[yellow]{t('raise_pending', s=r['pending'], v=view['value'] + 1, a=r['answerer'])}[/yellow]")
        if me is not None and me == r["answerer"]:  # WA-6: what each answer does, with its points
            lines.append(t('ask_answer', v=view['value'] + 1, t=r['pending'] % 2, n=view['value']))
    elif (me is not None and me in view["to_move"] and view["phase"] == "play"
          and view["raise"]["can_raise"][me % 2]):  # WA-6: the raise is offered only among the moves
        lines.append(t('may_raise', v=view['value'] + 1, n=view['value']))
    if view["trick"]:
        lines.append(f"{t('trick')}: " + separator(plain, "  ").join(
            f"{t('seat')} {s}: {_card(c, lang, plain)}" for s, c in view["trick"]))
    elif view["trump"] and view["phase"] == "play":
        lines.append(f"{t('trick')}: " + t('empty', s=view["leader"]))
    if me is not None:
        partner = view["partner"]
        lvl = view["signals"][partner]
        if lvl is not None and view["options"]["signals"] == "partner":
            lines.append(f"[cyan]{t('signal', s=partner, lvl=_lvl(lvl, lang))}[/cyan]")
    if view["options"]["signals"] == "public" and any(x is not None for x in view["signals"]):
        lines.append(f"{t('signals')}: " + sep.join(
            f"{t('seat')} {s}: {_lvl(x, lang)}" for s, x in enumerate(view["signals"]) if x is not None))
    if me is not None and view["hand"]:
        lines.append(f"[bold]{t('hand')}:[/bold] " + (", " if plain else " ").join(
            _card(c, lang, plain) for c in view["hand"]))
    if me is not None and me in view["to_move"] and view["phase"] in ("trump", "signal"):
        lines.append(t(f"ask_{view['phase']}"))  # what is decided: the moves say only `trump C`, `signal weak`
    if view["to_move"]:
        lines.append(t('to_move', s=view["to_move"][0]))
    return "\n".join(lines)


def describe_event(e: dict, lang: str = "en", plain: bool = False) -> str:
    """One log event in words: its kind is its code (`watten.event.<kind>`); the game's
    end counts its points, so its plural form goes by the score; `plain`: a hand's points
    in words ("1 point"), where `+1` was read "plus 1"."""
    if plain and e["event"] == "hand":
        return render("watten.event.hand.plain", {**e, "n": e["points"]}, lang)
    line = render(f"watten.event.{e['event']}", {**e, "n": e["score"]} if "score" in e else e, lang)
    return _said_in(line, e, lang) if plain else line


_OWN_ACTIONS = {"trump", "signal", "play", "raise", "accept", "concede"}


def describe_own(view: dict, lang: str = "en", plain: bool = False) -> str:
    """The view's own seat's last move, told to it ("You played J♥"; "" before its first
    move and for a spectator), as the other games' `describe_own` (cli/play.py
    `narrate_own`); what followed it (the trick, the hand) `describe_last` says later.
    `plain`: the card in words ("You played jack of hearts")."""
    me = view["seat"]
    if me is None:
        return ""
    for e in reversed(view["log"]):
        if e["event"] in _OWN_ACTIONS and e.get("seat") == me:
            line = render(f"watten.event.{e['event']}.you", e, lang)
            return _said_in(line, e, lang) if plain else line
    return ""


def describe_last(view: dict, lang: str = "en", plain: bool = False) -> str:
    """What happened since the view's seat last acted ("" if nothing); `plain`: a hand's
    tricks after a semicolon, not a `·`."""
    log = view["log"]
    me = view["seat"]
    start = 0
    if me is not None:
        for i in range(len(log) - 1, -1, -1):
            if log[i]["event"] in _OWN_ACTIONS and log[i].get("seat") == me:
                start = i + 1
                break
    shown = log[start:]
    # WA-4.1: a hand's end says its tricks (team 0 : team 1, as the result table has them):
    # the next view counts the new hand's. The shown hand events are the newest results.
    ends = [i for i, e in enumerate(shown) if e["event"] == "hand"]
    tricks = {i: r["tricks_won"] for i, r in zip(reversed(ends), reversed(view.get("results", [])))}
    t = Words("watten.ui", lang)

    def line(i: int, e: dict) -> str:
        said = describe_event(e, lang, plain)
        if i not in tricks:
            return said
        a, b = tricks[i]
        count = f"{t('tricks')}: {t('tricks_by_team', a=a, b=b)}" if plain else t('hand_tricks', a=a, b=b)
        return f"{said}{separator(plain)}{count}"
    return "\n".join(line(i, e) for i, e in enumerate(shown))


def render_result(view: dict, lang: str = "en", width: int | None = None, plain: bool = False) -> str:
    """The end-of-game table: every hand, who won it, how, and the totals.  Where `width`
    columns do not hold a row, how the hand was won goes on a line of its own under it
    (wrapped by the terminal, it began at the margin, under the hand numbers).  `plain`
    (`play --plain`): a hand to a line that names each figure ("Hand 3; Trump: ♦
    diamonds; Won by: Team 1 …"), where a screen reader read a row of figures without
    the heads above their columns."""
    t = Words("watten.ui", lang)
    results = view.get("results", [])
    cols = f"{t('hand_col'):<8}{t('trump_col'):<8}{t('won_by'):<10}{t('points'):<8}{t('tricks'):<8}"
    hows = [term(r['reason'], 'watten.reason', lang) for r in results]
    apart = width is not None and len(cols) + max([len(t('how'))] + [len(h) for h in hows]) > width
    lines = [f"[bold]{t('result')}[/bold]", cols.rstrip() if apart else cols + t('how')]
    sep = separator(plain)
    if plain:
        lines = lines[:1] + [
            f"{t('hand_col')} {r['hand']}{sep}{t('trump_col')}: {_suit(r['trump'], lang)}{sep}"
            f"{t('won_by')}: {t('team', t=r['team'])}{sep}{t('points')}: {r['points']}{sep}"
            f"{t('tricks')}: {t('tricks_by_team', a=r['tricks_won'][0], b=r['tricks_won'][1])}{sep}{t('how')}: {how}"
            for r, how in zip(results, hows)]
        results = []
    for r, how in zip(results, hows):
        row = (f"{r['hand']:<8}{SUIT_SYMBOLS[r['trump']]:<8}{t('team', t=r['team']):<10}"
               f"{r['points']:<8}{r['tricks_won'][0]}:{r['tricks_won'][1]:<6}")
        lines.extend([row.rstrip(), " " * 8 + how] if apart else [row + how])
    lines.append(f"{t('total')}: " + sep.join(
        f"{t('team', t=k)} {view['scores'][k]}" for k in (0, 1)))
    if view["winners"]:
        w = view["winners"]
        seats = t('seats_plain' if plain else 'seats', a=w[0], b=w[1])  # as the team lines say it
        lines.append(f"[bold]{t('winner')}: {t('team', t=w[0] % 2)} ({seats})[/bold]")
    return "\n".join(lines)


def legend(view: dict, lang: str = "en") -> str:
    """Card names and the rank order of this game's options (WA-2: jack_order), for `help`."""
    t = Words("watten.ui", lang)
    first_played = view["options"]["jack_order"] == "first_played"
    return t("legend") + "\n" + t("ranks_first_played" if first_played else "ranks")


def order_moves(view: dict, moves: list) -> list:
    """The moves as a player reads them: cards in the order the hand is shown (trump
    first, strongest first; the engine keeps them in deal order), then the others."""
    place = {card: i for i, card in enumerate(view["hand"])}
    return sorted(moves, key=lambda a: place.get(str(a), len(place)))


def show_action(text: str, lang: str = "en") -> str:
    """Notation as the board shows it: `trump H` → `trumpf Herz`, `JC` → `B♣` in German."""
    return show_words("watten", text, lang)


def say_card(name: str, lang: str = "en") -> str:
    """A card in words for plain output (a refusal's cards: core.messages.render's `say_card`): "jack of clubs"."""
    return _card(name, lang, True)


def say_action(text: str, lang: str = "en") -> str | None:
    """A card to play in words, for plain output's hint ("JC – jack of clubs", where `B♣` was
    read "B black club suit"); None for the other moves, whose words the notation is."""
    if len(text) == 2 and text[-1] in SUIT_SYMBOLS:
        return _card(text, lang, True)
    return None


def read_action(text: str, lang: str = "en") -> str:
    """German words and card names (`trumpf Herz`, `BKr`, `B♣`) → notation."""
    return read_words("watten", text, lang)
