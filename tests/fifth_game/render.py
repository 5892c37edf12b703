"""Pebbles in the terminal (English and German labels)."""

from __future__ import annotations

TEXT = {
    "en": {"round": "Round {r} of {n}", "prize": "prize", "hand": "your pebbles", "placed": "placed",
           "scores": "scores", "took": "Seat {w} took the prize {p} with pebble {n}.", "won": "Winner(s): {w}", "result": "Result"},
    "de": {"round": "Runde {r} von {n}", "prize": "Preis", "hand": "deine Kiesel", "placed": "gelegt",
           "scores": "Punkte", "took": "Platz {w} nimmt den Preis {p} mit Kiesel {n}.", "won": "Sieger: {w}", "result": "Ergebnis"},
}


def render_view(view: dict, lang: str = "en") -> str:
    t = TEXT[lang]
    placed = " ".join("-" if n is None else str(n) for n in view["placed"])
    lines = [f"[bold]{t['round'].format(r=view['round'], n=view['rounds'])}[/bold]",
             f"{t['prize']}: {view['prize'] if view['prize'] is not None else '-'}   {t['placed']}: {placed}",
             f"{t['scores']}: {' : '.join(map(str, view['scores']))}"]
    if view["hand"] is not None:
        lines.append(f"{t['hand']}: {' '.join(map(str, view['hand'])) or '-'}")
    return "\n".join(lines)


def describe_last(view: dict, lang: str = "en") -> str:
    last = view["last"]
    return "" if last is None else TEXT[lang]["took"].format(w=last["winner"], p=last["prize"], n=last["pebble"])


def render_result(view: dict, lang: str = "en") -> str:
    t = TEXT[lang]
    return (f"[bold]{t['result']}[/bold] {t['scores']}: {' : '.join(map(str, view['scores']))}\n"
            f"{t['won'].format(w=', '.join(map(str, view['winners'])))}")
