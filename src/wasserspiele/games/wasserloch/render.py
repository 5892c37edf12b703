"""Wasserloch in the terminal: the waterhole, your hand, loot and what the others did."""

from __future__ import annotations

from .actions import VALUES

L = {
    "en": {"round": "Round {r}/{n}", "start": "start player: seat {s}", "pile": "pile: {n} cards",
           "hole": "Waterhole", "hand": "Your hand", "cards": "cards", "loot": "Loot", "you": "you",
           "seat": "seat", "to_move": "to move: seat {s}", "played": "Seat {s} played {p}",
           "drove": " and drove off the {v}s: {n} card(s) of loot", "total": "Total",
           "winner": "Winner", "winners": "Shared win", "result": "Result",
           "eights": "(the 8s lie next to the aces: only 3+ aces drive them off)"},
    "de": {"round": "Durchgang {r}/{n}", "start": "Startspieler: Platz {s}", "pile": "Stapel: {n} Karten",
           "hole": "Wasserloch", "hand": "Deine Hand", "cards": "Karten", "loot": "Beute", "you": "du",
           "seat": "Platz", "to_move": "am Zug: Platz {s}", "played": "Platz {s} legte {p}",
           "drove": " und vertrieb die {v}er: {n} Karte(n) Beute", "total": "Summe",
           "winner": "Sieg", "winners": "Geteilter Sieg", "result": "Ergebnis",
           "eights": "(die 8er liegen neben den Assen: nur 3+ Asse vertreiben sie)"},
}


def _place(count: int) -> str:
    if count == 0:
        return "[dim]·[/dim]"
    colour = "red" if count >= 3 else "yellow" if count == 2 else "white"
    return f"[{colour}]{count}[/{colour}]"


def render_view(view: dict, lang: str = "en") -> str:
    t = L[lang]
    me = view["seat"]
    lines = [
        f"[bold]{t['round'].format(r=view['round'], n=view['rounds'])}[/bold] · "
        f"{t['start'].format(s=view['start_player'])} · {t['pile'].format(n=view['pile'])}",
        f"{t['hole']}:  " + "  ".join(f"{v}:{_place(n)}" for v, n in zip(VALUES, view["waterhole"])),
        f"[dim]{t['eights']}[/dim]",
    ]
    loot = []
    for s, total in enumerate(view["scores"]):
        who = f"{t['seat']} {s}" + (f" ({t['you']})" if s == me else "")
        loot.append(f"{who}: {total} · {view['hand_sizes'][s]} {t['cards']}")
    lines.append(f"{t['loot']}: " + " | ".join(loot))
    if view["hand"] is not None:
        cards = " ".join(v * 1 for v, n in zip(VALUES, view["hand"]) for _ in range(n))
        lines.append(f"[bold]{t['hand']}:[/bold] {cards}")
    if view["to_move"]:
        lines.append(t["to_move"].format(s=view["to_move"][0]))
    return "\n".join(lines)


def describe_one(view: dict, seat: int, lang: str = "en") -> str:
    t = L[lang]
    e = view["last"][seat]
    if e is None:
        return ""
    text = t["played"].format(s=seat, p=e["play"])
    if e["drove_off"]:
        text += t["drove"].format(v=e["drove_off"] if e["drove_off"] != "A" else "A", n=e["loot"])
    return text


def describe_last(view: dict, lang: str = "en") -> str:
    """What the other seats did since `view`'s seat last played, in play order."""
    me = view["seat"]
    players = view["players"]
    if me is None:
        order = range(players)
    else:
        order = [(me + k) % players for k in range(1, players)]
    lines = [describe_one(view, s, lang) for s in order
             if view["last"][s] is not None and view["last"][s]["round"] == view["round"]]
    return "\n".join(x for x in lines if x)


def render_result(view: dict, lang: str = "en") -> str:
    t = L[lang]
    players = view["players"]
    header = f"{'':<10}" + "".join(f"{t['seat']} {s:<5}" for s in range(players))
    lines = [f"[bold]{t['result']}[/bold]", header]
    for r, row in enumerate(view["loot"], 1):
        lines.append(t["round"].split()[0][:9].ljust(7) + f"{r:<3}"
                     + "".join(f"{n:<{len(t['seat']) + 6}}" for n in row))
    lines.append(f"{t['total']:<10}" + "".join(f"{n:<{len(t['seat']) + 6}}" for n in view["scores"]))
    won = view["winners"]
    if won:
        label = t["winner"] if len(won) == 1 else t["winners"]
        lines.append(f"[bold]{label}: " + ", ".join(f"{t['seat']} {s}" for s in won) + "[/bold]")
    return "\n".join(lines)
