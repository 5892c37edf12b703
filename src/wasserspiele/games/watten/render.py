"""Watten in the terminal: trump, the trick in progress, tricks and score per team,
your partner's signal (to you alone), the raise state, and a result table."""

from __future__ import annotations

from ...core.cards import SUIT_SYMBOLS

L = {
    "en": {
        "hand_no": "Hand {n}", "dealer": "dealer: seat {s}", "caller": "caller: seat {s}",
        "trump": "Trump", "no_trump": "not named yet", "score": "Score", "tricks": "Tricks",
        "team": "Team {t}", "seats": "seats {a}+{b}", "you": "you", "seat": "seat",
        "trick": "Trick", "empty": "(empty: seat {s} leads)", "hand": "Your hand",
        "signal": "Partner's signal (seat {s}): {lvl}", "signals": "Signals",
        "value": "Hand value: {v}", "raise_pending": "Seat {s} raised to {v}: seat {a} answers",
        "gespannt": "gespannt", "to_move": "to move: seat {s}", "target": "target {t}",
        "lvl": {"none": "none", "weak": "weak", "medium": "medium", "strong": "strong"},
        "ev_trump": "Seat {s} named {suit} trump", "ev_play": "Seat {s} played {c}",
        "ev_trick": "Seat {s} won the trick", "ev_raise": "Seat {s} raised to {v}",
        "ev_accept": "Seat {s} accepted ({v})", "ev_concede": "Seat {s} conceded",
        "ev_caught": "Seat {s} was caught signalling ({lvl})", "ev_signal": "Seat {s} signalled: {lvl}",
        "ev_hand": "Team {t} won the hand: +{p} ({reason})", "ev_game": "Team {t} won the game with {p}",
        "ev_deal": "Seat {s} deals; seat {c} calls",
        "reason": {"tricks": "tricks", "concede": "conceded", "caught": "caught signalling"},
        "result": "Result", "winner": "Winners", "total": "Total", "hand_col": "Hand", "trump_col": "Trump",
        "won_by": "Won by", "points": "Points", "how": "How",
        "suits": {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"},
    },
    "de": {
        "hand_no": "Blattl {n}", "dealer": "Geber: Platz {s}", "caller": "Ansager: Platz {s}",
        "trump": "Trumpf", "no_trump": "noch nicht angesagt", "score": "Punkte", "tricks": "Stiche",
        "team": "Team {t}", "seats": "Plätze {a}+{b}", "you": "du", "seat": "Platz",
        "trick": "Stich", "empty": "(leer: Platz {s} spielt aus)", "hand": "Deine Karten",
        "signal": "Zeichen deines Partners (Platz {s}): {lvl}", "signals": "Zeichen",
        "value": "Wert des Blattls: {v}", "raise_pending": "Platz {s} erhöht auf {v}: Platz {a} antwortet",
        "gespannt": "gespannt", "to_move": "am Zug: Platz {s}", "target": "Ziel {t}",
        "lvl": {"none": "keins", "weak": "schwach", "medium": "mittel", "strong": "stark"},
        "ev_trump": "Platz {s} sagt {suit} als Trumpf an", "ev_play": "Platz {s} spielt {c}",
        "ev_trick": "Platz {s} macht den Stich", "ev_raise": "Platz {s} erhöht auf {v}",
        "ev_accept": "Platz {s} nimmt an ({v})", "ev_concede": "Platz {s} gibt auf",
        "ev_caught": "Platz {s} beim Zwicken erwischt ({lvl})", "ev_signal": "Platz {s} zwickt: {lvl}",
        "ev_hand": "Team {t} gewinnt das Blattl: +{p} ({reason})",
        "ev_game": "Team {t} gewinnt das Spiel mit {p}",
        "ev_deal": "Platz {s} gibt; Platz {c} sagt an",
        "reason": {"tricks": "Stiche", "concede": "aufgegeben", "caught": "beim Zwicken erwischt"},
        "result": "Ergebnis", "winner": "Sieger", "total": "Summe", "hand_col": "Blattl", "trump_col": "Trumpf",
        "won_by": "Gewinner", "points": "Punkte", "how": "Wie",
        "suits": {"C": "Kreuz", "S": "Pik", "H": "Herz", "D": "Karo"},
    },
}


def _t(lang: str) -> dict:
    return L.get(lang, L["en"])


def _card(name: str) -> str:
    """'JC' → 'J♣' with red hearts and diamonds."""
    sym = SUIT_SYMBOLS[name[1]]
    text = name[0] + sym
    return f"[red]{text}[/red]" if name[1] in "HD" else text


def _suit(letter: str, t: dict) -> str:
    return f"{SUIT_SYMBOLS[letter]} {t['suits'][letter]}"


def render_view(view: dict, lang: str = "en") -> str:
    """The position as one seat (or a spectator) sees it."""
    t = _t(lang)
    me = view["seat"]
    lines = [
        f"[bold]{t['hand_no'].format(n=view['hand_no'])}[/bold] · {t['dealer'].format(s=view['dealer'])} · "
        f"{t['caller'].format(s=view['caller'])} · {t['target'].format(t=view['target'])}",
        f"{t['trump']}: " + (f"[bold]{_suit(view['trump'], t)}[/bold]" if view["trump"] else t["no_trump"]),
    ]
    teams = []
    for team, (a, b) in enumerate(view["teams"]):
        label = t["team"].format(t=team) + f" ({t['seats'].format(a=a, b=b)}"
        label += f", {t['you']})" if me is not None and me in (a, b) else ")"
        extra = ""
        if view["raise"]["enabled"] and view["raise"]["gespannt"][team]:
            extra = f" [yellow]{t['gespannt']}[/yellow]"
        teams.append(f"{label}: {t['score']} {view['scores'][team]} · {t['tricks']} {view['tricks_won'][team]}{extra}")
    lines += teams
    if view["raise"]["enabled"] or view["value"] != view["options"]["hand_value"]:
        lines.append(t["value"].format(v=view["value"]))
    if view["raise"]["pending"] is not None:
        r = view["raise"]
        lines.append(f"[yellow]{t['raise_pending'].format(s=r['pending'], v=view['value'] + 1, a=r['answerer'])}[/yellow]")
    if view["trick"]:
        lines.append(f"{t['trick']}: " + "  ".join(f"{t['seat']} {s}: {_card(c)}" for s, c in view["trick"]))
    elif view["trump"] and view["phase"] == "play":
        lines.append(f"{t['trick']}: " + t["empty"].format(s=view["leader"]))
    if me is not None:
        partner = view["partner"]
        lvl = view["signals"][partner]
        if lvl is not None and view["options"]["signals"] == "partner":
            lines.append(f"[cyan]{t['signal'].format(s=partner, lvl=t['lvl'][lvl])}[/cyan]")
    if view["options"]["signals"] == "public" and any(x is not None for x in view["signals"]):
        lines.append(f"{t['signals']}: " + " · ".join(
            f"{t['seat']} {s}: {t['lvl'][x]}" for s, x in enumerate(view["signals"]) if x is not None))
    if me is not None and view["hand"]:
        lines.append(f"[bold]{t['hand']}:[/bold] " + " ".join(_card(c) for c in view["hand"]))
    if view["to_move"]:
        lines.append(t["to_move"].format(s=view["to_move"][0]))
    return "\n".join(lines)


def _describe(e: dict, t: dict) -> str:
    kind = e["event"]
    if kind == "deal":
        return t["ev_deal"].format(s=e["dealer"], c=e["caller"])
    if kind == "trump":
        return t["ev_trump"].format(s=e["seat"], suit=_suit(e["suit"], t))
    if kind == "play":
        return t["ev_play"].format(s=e["seat"], c=_card(e["card"]))
    if kind == "trick":
        return t["ev_trick"].format(s=e["winner"])
    if kind in ("raise", "accept", "concede"):
        return t["ev_" + kind].format(s=e["seat"], v=e["value"])
    if kind in ("signal", "caught"):
        return t["ev_" + kind].format(s=e["seat"], lvl=t["lvl"][e["signal"]])
    if kind == "hand":
        return t["ev_hand"].format(t=e["team"], p=e["points"], reason=t["reason"][e["reason"]])
    if kind == "game":
        return t["ev_game"].format(t=e["team"], p=e["score"])
    return ""


_OWN_ACTIONS = {"trump", "signal", "play", "raise", "accept", "concede"}


def describe_last(view: dict, lang: str = "en") -> str:
    """What happened since the view's seat last acted ("" if nothing)."""
    t = _t(lang)
    log = view["log"]
    me = view["seat"]
    start = 0
    if me is not None:
        for i in range(len(log) - 1, -1, -1):
            if log[i]["event"] in _OWN_ACTIONS and log[i].get("seat") == me:
                start = i + 1
                break
    return "\n".join(x for x in (_describe(e, t) for e in log[start:]) if x)


def render_result(view: dict, lang: str = "en") -> str:
    """The end-of-game table: every hand, who won it, how, and the totals."""
    t = _t(lang)
    lines = [f"[bold]{t['result']}[/bold]",
             f"{t['hand_col']:<8}{t['trump_col']:<8}{t['won_by']:<10}{t['points']:<8}{t['tricks']:<8}{t['how']}"]
    for r in view.get("results", []):
        lines.append(f"{r['hand']:<8}{SUIT_SYMBOLS[r['trump']]:<8}{t['team'].format(t=r['team']):<10}"
                     f"{r['points']:<8}{r['tricks_won'][0]}:{r['tricks_won'][1]:<6}{t['reason'][r['reason']]}")
    lines.append(f"{t['total']}: " + " · ".join(
        f"{t['team'].format(t=k)} {view['scores'][k]}" for k in (0, 1)))
    if view["winners"]:
        w = view["winners"]
        lines.append(f"[bold]{t['winner']}: {t['team'].format(t=w[0] % 2)} "
                     f"({t['seat']} {w[0]} + {w[1]})[/bold]")
    return "\n".join(lines)
