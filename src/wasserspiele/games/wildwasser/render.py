"""Wildwasser in the terminal: the track with its river crossings, every animal, the
podiums, hands and revealed cards, and what happened since the seat last acted.
Picks are secret: a view shows only its own."""

from __future__ import annotations

LETTERS = "ABCDEF"
COLOURS = ("red", "blue", "green", "magenta", "cyan", "yellow")
SPECIES = ("cheetah", "zebra", "rhino", "meerkat", "turtle")

L = {
    "en": {
        "round": "Round {r}", "marker": "start marker: {p}", "flow": "river flows {f}",
        "forward": "forward", "back": "back", "stack": "stack: {n} tiles ({k} removed unseen)",
        "discard": "waterfall: {t}", "start_bank": "Start", "bank": "Bank", "final_bank": "Finish bank",
        "crossing": "Crossing {k} · slot {s} · {t}", "no_tile": "no tile: impassable",
        "finish": "FINISH", "podiums": "Podiums", "team": "team card", "hand": "hand",
        "revealed": "revealed", "unrevealed": "hand + face-down pick", "picked": "picked (face down)", "not_picked": "still picking",
        "your_pick": "your pick: {c}", "points": "{n} pts", "to_move": "to move: {p}",
        "resolving": "{p} resolves the {c} card", "sun": "{p} rolled the sun: choose an animal to move 1",
        "marker_choice": "{p} chooses who gets the start marker", "last_round": "Last round: the tiles ran out!",
        "result": "Result", "player": "player", "total": "points", "winner": "Winner", "winners": "Shared win",
        "place": "{n}.", "you": "you",
        "animals": {"cheetah": "cheetah", "zebra": "zebra", "rhino": "rhino", "meerkat": "meerkat", "turtle": "turtle"},
        "icons": {"+1": "+1", "+2": "+2", "+3": "+3", "die": "die", "marker": "marker", "cards": "cards", "push": "push"},
        "ev": {
            "round": "Round {round} begins; {marker} holds the start marker.",
            "pick": "{p} picked a card.",
            "reveal": "{p} reveals the {card}.",
            "move": "{p}'s {animal} moves from {start} to field {to}.",
            "finish": "{p}'s {animal} crosses the finish line: place {place}!",
            "blocked": "{p}'s {animal} cannot cross the empty slot and waits on {at}.",
            "icon": "{p} lands on {icon} (field {field}).",
            "roll": "{p} rolls {face}.",
            "push": "{p} pushes the river: {tile} comes in, {waterfall} goes over the waterfall.",
            "washed": "{p}'s {animal} is washed back to the team card.",
            "marker": "{p} gives the start marker to {to}.",
            "cards": "{p} takes all revealed cards back.",
            "nothing": "{p}: nothing happens ({why}).",
            "last_round": "The stack is empty: this is the last round.",
            "end": "The game is over.",
        },
        "nowhere": "the team card", "empty": "nothing",
    },
    "de": {
        "round": "Runde {r}", "marker": "Startmarker: {p}", "flow": "Fluss fließt {f}",
        "forward": "vorwärts", "back": "rückwärts", "stack": "Stapel: {n} Tafeln ({k} unbesehen entfernt)",
        "discard": "Wasserfall: {t}", "start_bank": "Start", "bank": "Ufer", "final_bank": "Zielufer",
        "crossing": "Überquerung {k} · Position {s} · {t}", "no_tile": "keine Tafel: unpassierbar",
        "finish": "ZIEL", "podiums": "Podeste", "team": "Teamkarte", "hand": "Hand",
        "revealed": "aufgedeckt", "unrevealed": "Hand + verdeckte Karte", "picked": "gewählt (verdeckt)", "not_picked": "wählt noch",
        "your_pick": "deine Wahl: {c}", "points": "{n} Pkt.", "to_move": "am Zug: {p}",
        "resolving": "{p} führt die Karte {c} aus", "sun": "{p} hat die Sonne gewürfelt: ein Tier 1 Feld ziehen",
        "marker_choice": "{p} wählt, wer den Startmarker bekommt", "last_round": "Letzte Runde: keine Tafeln mehr!",
        "result": "Ergebnis", "player": "Spieler", "total": "Punkte", "winner": "Sieg", "winners": "Geteilter Sieg",
        "place": "{n}.", "you": "du",
        "animals": {"cheetah": "Gepard", "zebra": "Zebra", "rhino": "Nashorn", "meerkat": "Erdmännchen",
                    "turtle": "Schildkröte"},
        "icons": {"+1": "+1", "+2": "+2", "+3": "+3", "die": "Würfel", "marker": "Startmarker", "cards": "Karten",
                  "push": "Tafel schieben"},
        "ev": {
            "round": "Runde {round} beginnt; {marker} hat den Startmarker.",
            "pick": "{p} hat eine Karte gewählt.",
            "reveal": "{p} deckt {card} auf.",
            "move": "{p}: {animal} zieht von {start} auf Feld {to}.",
            "finish": "{p}: {animal} überquert die Ziellinie: Platz {place}!",
            "blocked": "{p}: {animal} kann die leere Position nicht überqueren und wartet auf {at}.",
            "icon": "{p} landet auf {icon} (Feld {field}).",
            "roll": "{p} würfelt {face}.",
            "push": "{p} schiebt den Fluss: {tile} kommt hinein, {waterfall} stürzt den Wasserfall hinab.",
            "washed": "{p}: {animal} muss zurück auf die Teamkarte.",
            "marker": "{p} gibt den Startmarker an {to}.",
            "cards": "{p} nimmt alle aufgedeckten Karten auf die Hand.",
            "nothing": "{p}: nichts passiert ({why}).",
            "last_round": "Der Stapel ist leer: dies ist die letzte Runde.",
            "end": "Das Spiel ist vorbei.",
        },
        "nowhere": "der Teamkarte", "empty": "nichts",
    },
}


def _t(lang: str) -> dict:
    return L.get(lang, L["en"])


def player(seat: int | None, me: int | None = None, lang: str = "en") -> str:
    """A seat as a coloured letter: [red]A[/red] (you)."""
    if seat is None:
        return "-"
    tag = f"[bold {COLOURS[seat]}]{LETTERS[seat]}[/bold {COLOURS[seat]}]"
    return tag + (f" ({_t(lang)['you']})" if me is not None and seat == me else "")


def _token(animal: list | None) -> str:
    if not animal:
        return "  "
    seat, sp = animal
    return f"[{COLOURS[seat]}]{LETTERS[seat]}{sp[0]}[/{COLOURS[seat]}]"


def _cell(cell: dict, t: dict) -> str:
    icon = cell["icon"]
    label = t["icons"][icon] if icon else ""
    mark = f"[yellow]{label}[/yellow]" if label else ""
    return f"[{cell['field']:>2}{(' ' + mark) if mark else ''} {_token(cell['animal'])}]"


def _sections(view: dict) -> list[tuple[str, list[dict]]]:
    """The track cut into banks and crossings, in track order."""
    out: list[tuple[str, list[dict]]] = []
    for cell in view["track"]:
        key = f"crossing {cell['crossing']}" if "crossing" in cell else "bank"
        if out and out[-1][0] == key:
            out[-1][1].append(cell)
        else:
            out.append((key, [cell]))
    return out


def render_view(view: dict, lang: str = "en") -> str:
    t = _t(lang)
    me = view["seat"]
    animals = t["animals"]
    lines = [
        f"[bold]{t['round'].format(r=view['round'])}[/bold] · {t['marker'].format(p=player(view['start_marker'], me, lang))}"
        f" · {t['flow'].format(f=t[view['river_flow']])} · {t['stack'].format(n=view['stack'], k=view['removed'])}",
    ]
    if view["discard"]:
        lines.append(t["discard"].format(t=", ".join(view["discard"])))
    if view["last_round"]:
        lines.append(f"[bold red]{t['last_round']}[/bold red]")
    sections = _sections(view)
    for i, (key, cells) in enumerate(sections):
        if key == "bank":
            name = t["start_bank"] if i == 0 else t["final_bank"] if i == len(sections) - 1 else t["bank"]
            lines.append(f"{name:<12} " + " ".join(_cell(c, t) for c in cells))
        else:
            first = cells[0]
            tile = first["tile"] or f"[red]{t['no_tile']}[/red]"
            lines.append(f"[blue]≈≈[/blue] {t['crossing'].format(k=first['crossing'], s=first['slot'], t=tile)}")
            # columns in crossing order (the track may run right to left here)
            lines.append(f"{'':<12} " + " ".join(_cell(c, t) for c in cells))
    lines.append(f"{'':<12} [bold]{t['finish']}[/bold]")
    podium = []
    for sp in SPECIES:
        places = view["podiums"][sp]
        pts = view["podium_points"][sp]
        row = " ".join(f"{t['place'].format(n=k + 1)}{player(s)}({pts[k] if k < len(pts) else 0})"
                       for k, s in enumerate(places))
        podium.append(f"  {animals[sp]:<12} {row or '-'}")
    lines.append(f"[bold]{t['podiums']}[/bold]")
    lines.extend(podium)
    for s in view["seats"]:
        seat = s["seat"]
        off = [animals[sp] for sp, a in s["animals"].items() if a["at"] == "team card"]
        parts = [f"{player(seat, me, lang)}: {t['points'].format(n=s['points'])}"]
        if off:
            parts.append(f"{t['team']}: {', '.join(off)}")
        if s["hand"] is not None:
            parts.append(f"{t['hand']}: {', '.join(animals[c] for c in s['hand']) or '-'}")
        else:  # a face-down pick hides which of these is still in hand
            parts.append(f"{t['unrevealed']}: {', '.join(animals[c] for c in s['unrevealed'])}")
        if s["revealed"]:
            parts.append(f"{t['revealed']}: {', '.join(animals[c] for c in s['revealed'])}")
        if view["phase"] == "pick":
            parts.append(t["picked"] if s["picked"] else t["not_picked"])
        if s["pick"]:
            parts.append(f"[bold]{t['your_pick'].format(c=animals[s['pick']])}[/bold]")
        lines.append(" · ".join(parts))
    phase = view["phase"]
    if phase == "resolve":
        lines.append(t["resolving"].format(p=player(view["resolving"], me, lang), c=animals[view["card"]]))
    elif phase == "sun":
        lines.append(t["sun"].format(p=player(view["resolving"], me, lang)))
    elif phase == "marker":
        lines.append(t["marker_choice"].format(p=player(view["resolving"], me, lang)))
    if view["to_move"]:
        lines.append(t["to_move"].format(p=", ".join(player(s, me, lang) for s in view["to_move"])))
    return "\n".join(lines)


def describe_event(e: dict, lang: str = "en", me: int | None = None) -> str:
    """One log event in words."""
    t = _t(lang)
    kind = e["event"]
    animals, icons = t["animals"], t["icons"]
    fmt = t["ev"].get(kind)
    if fmt is None or kind == "decide":
        return ""
    p = player(e["seat"], me, lang)
    args = dict(e)
    args["p"] = p
    if "animal" in e:
        args["animal"] = animals[e["animal"]]
    if kind == "reveal":
        args["card"] = animals[e["card"]]
    if kind in ("move", "finish"):
        args["start"] = t["nowhere"] if e["start"] == 0 else e["start"]
    if kind == "blocked":
        args["at"] = t["nowhere"] if e["at"] == 0 else e["at"]
    if kind == "icon":
        args["icon"] = icons[e["icon"]]
    if kind == "round":
        args["marker"] = player(e["start_marker"], me, lang)
    if kind == "marker":
        args["to"] = player(e["to"], me, lang)
    if kind == "nothing":
        args["why"] = animals.get(e["why"], e["why"])
    if kind == "push":
        args["tile"] = e["tile"] or t["empty"]
        args["waterfall"] = e["waterfall"] or t["empty"]
        text = fmt.format(**args)
        for seat, sp in e["washed"]:
            text += " " + t["ev"]["washed"].format(p=player(seat, me, lang), animal=animals[sp])
        return text
    return fmt.format(**args)


def describe_last(view: dict, lang: str = "en") -> str:
    """The public events since `view`'s seat last decided (a spectator: the last round)."""
    me = view["seat"]
    log = view["log"]
    start = 0
    for i, e in enumerate(log):
        if me is not None and e["seat"] == me and e["event"] in ("pick", "decide"):
            start = i + 1
        elif me is None and e["event"] == "round":
            start = i
    lines = [describe_event(e, lang, me) for e in log[start:]]
    return "\n".join(x for x in lines if x)


def render_result(view: dict, lang: str = "en") -> str:
    t = _t(lang)
    animals = t["animals"]
    lines = [f"[bold]{t['result']}[/bold]",
             f"{t['player']:<8}" + "".join(f"{animals[sp][:11]:<12}" for sp in SPECIES) + t["total"]]
    for s in view["seats"]:
        row = []
        for sp in SPECIES:
            a = s["animals"][sp]
            row.append(f"{t['place'].format(n=a['place']) if a['place'] else '-':<12}")
        lines.append(player(s["seat"]) + " " * 7 + "".join(row) + str(s["points"]))
    won = view["winners"]
    if won:
        label = t["winner"] if len(won) == 1 else t["winners"]
        lines.append(f"[bold]{label}: " + ", ".join(player(s, view["seat"], lang) for s in won) + "[/bold]")
    return "\n".join(lines)
