"""Text renderer of Seven Waters views (English and German labels)."""

from __future__ import annotations

from typing import Any

from ...core.cards import SUIT_SYMBOLS, card

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "pyramid": "Pyramid", "left": "cards left", "seat": "Seat", "you": "you", "line": "Line",
        "slide": "slide", "no_slide": "—", "river": "Lazy river", "pool": "Wave pool", "theme": "Theme",
        "theme_none": "not placed", "theme_secret": "placed (secret)", "hand": "Hand", "cards": "cards",
        "discards": "Discard pile", "slides": "Slides", "to_move": "To move", "extra": "extra action",
        "final": "final turns left", "over": "Game over", "empty": "empty", "total": "Total",
        "winner": "Winner", "draw": "Draw — shared win", "took": "took", "from": "from", "turned": "turned up",
        "built_slide": "built the slide of line", "river_add": "added to the lazy river:",
        "pool_add": "added to the wave pool:", "discarded": "discarded", "themed": "placed a secret theme",
        "themed_own": "placed the theme", "passed": "passed", "then_extra": "(extra action follows)",
        "cat_slides": "Slides", "cat_river": "Lazy river", "cat_pool": "Wave pool (larger)",
        "cat_theme": "Theme suit", "cat_hand": "Cards in hand", "cat_discards": "Discarded",
    },
    "de": {
        "pyramid": "Pyramide", "left": "Karten übrig", "seat": "Platz", "you": "du", "line": "Leine",
        "slide": "Rutsche", "no_slide": "—", "river": "Strömungskanal", "pool": "Wellenbecken",
        "theme": "Motto", "theme_none": "nicht ausgelegt", "theme_secret": "ausgelegt (geheim)",
        "hand": "Hand", "cards": "Karten", "discards": "Abwurf", "slides": "Rutschen", "to_move": "Am Zug",
        "extra": "Zusatzaktion", "final": "letzte Züge übrig", "over": "Spielende", "empty": "leer",
        "total": "Summe", "winner": "Sieger", "draw": "Gleichstand — geteilter Sieg", "took": "nahm",
        "from": "von", "turned": "aufgedeckt", "built_slide": "baute die Rutsche an Leine",
        "river_add": "legte an den Strömungskanal:", "pool_add": "legte ins Wellenbecken:",
        "discarded": "warf ab:", "themed": "legte ein geheimes Motto aus", "themed_own": "legte das Motto aus",
        "passed": "passte", "then_extra": "(Zusatzaktion folgt)",
        "cat_slides": "Rutschen", "cat_river": "Strömungskanal", "cat_pool": "Wellenbecken (größer)",
        "cat_theme": "Mottofarbe", "cat_hand": "Karten auf der Hand", "cat_discards": "Abgeworfen",
    },
}


def _labels(lang: str) -> dict[str, str]:
    return LABELS.get(lang, LABELS["en"])


def _pretty(name: str | None) -> str:
    """'KD' → 'K♦', 'X1=T' → 'Jk1=T', '##' stays, None → blank."""
    if name is None:
        return "  "
    if name == "##":
        return "##"
    base, eq, decl = name.partition("=")
    c = card(base)
    text = c.pretty()
    if eq:
        text += "=" + (SUIT_SYMBOLS.get(decl, decl))
    return text


def _cards(names: list[str] | None, empty: str) -> str:
    return " ".join(_pretty(n) for n in names) if names else empty


def render_pyramid(view: dict[str, Any], lang: str = "en") -> str:
    """The pyramid, row 1 at the top; free cards in bold, face-down cards as ##."""
    t = _labels(lang)
    free = set(view["free"])
    rows = []
    width = 7 * 4
    for r, row in enumerate(view["pyramid"], 1):
        if all(name is None for name in row):
            continue
        cells = []
        for c, name in enumerate(row, 1):
            cell = f"{_pretty(name):>3}"
            cells.append(f"[bold]{cell}[/bold]" if f"{r}-{c}" in free else cell)
        pad = " " * ((width - 4 * len(row)) // 2)
        rows.append(f"{r} {pad}{' '.join(cells)}")
    head = f"{t['pyramid']} ({view['pyramid_left']} {t['left']})"
    return "\n".join([head, *rows])


def render_park(view: dict[str, Any], seat: int, lang: str = "en") -> str:
    """One seat's park: lines with their slides, river, pool, theme, hand and discards."""
    t = _labels(lang)
    p = view["players"][seat]
    who = f"{t['seat']} {seat}" + (f" ({t['you']})" if view.get("seat") == seat else "")
    out = [f"[bold]{who}[/bold]"]
    for k, (line, total, slide) in enumerate(zip(p["lines"], p["line_sums"], p["slides"]), 1):
        built = _cards(slide, t["no_slide"]) if slide else t["no_slide"]
        out.append(f"  {t['line']} {k}: {_cards(line, '')} (={total})  {t['slide']}: {built}")
    out.append(f"  {t['river']}: {_cards(p['river'], t['empty'])}")
    suit = f" ({SUIT_SYMBOLS[p['pool_suit']]})" if p["pool_suit"] else ""
    out.append(f"  {t['pool']}{suit}: {_cards(p['pool'], t['empty'])}")
    if p["theme"]:
        theme = _pretty(p["theme"])
    else:
        theme = t["theme_secret"] if p["theme_placed"] else t["theme_none"]
    out.append(f"  {t['theme']}: {theme}")
    hand = _cards(p["hand"], t["empty"]) if p["hand"] is not None else f"{p['hand_count']} {t['cards']}"
    out.append(f"  {t['hand']}: {hand}")
    discards = f"{p['discard_count']} {t['cards']}"
    if p["discards"]:
        discards += f" ({_cards(p['discards'], '')})"
    out.append(f"  {t['discards']}: {discards}")
    return "\n".join(out)


def render_view(view: dict[str, Any], lang: str = "en") -> str:
    """The whole position as one seat (or a spectator) sees it."""
    t = _labels(lang)
    limit = view["slide_limit"]
    status = f"{t['slides']}: {view['slides_built']}/{'∞' if limit is None else limit}"
    if view["over"]:
        status += f"   {t['over']}"
    else:
        status += f"   {t['to_move']}: {t['seat']} {view['to_move'][0]}"
        if view["extra_action"]:
            status += f" ({t['extra']})"
        if view["final_turns_left"] is not None:
            status += f"   {t['final']}: {view['final_turns_left']}"
    me = view.get("seat")
    order = [1 - me, me] if me in (0, 1) else [0, 1]
    parts = [status, render_pyramid(view, lang), *(render_park(view, s, lang) for s in order)]
    if view["over"]:
        parts.append(render_result(view, lang))
    return "\n\n".join(parts)


def render_result(view: dict[str, Any], lang: str = "en") -> str:
    """The end-of-game score table by category (SW-5.2) and the winner (SW-5.3)."""
    t = _labels(lang)
    if not view.get("over"):
        return ""
    scores = view["scores"]
    head = f"{'':<22}{t['seat']} 0{'':>3}{t['seat']} 1"
    rows = [head]
    for cat in scores[0]:  # the categories of the scoring table (SW-5.2), in its order
        rows.append(f"{t['cat_' + cat]:<22}{scores[0][cat]:>7}{scores[1][cat]:>9}")
    rows.append(f"{t['total']:<22}{view['totals'][0]:>7}{view['totals'][1]:>9}")
    winners = view["winners"]
    if len(winners) == 2:
        rows.append(t["draw"])
    else:
        rows.append(f"[bold]{t['winner']}: {t['seat']} {winners[0]}[/bold]")
    return "\n".join(rows)


def describe_event(event: dict[str, Any], lang: str = "en") -> str:
    """One public event in words."""
    t = _labels(lang)
    who = f"{t['seat']} {event['seat']}"
    kind, text = event["kind"], event["action"]
    words = text.split()
    if kind == "take":
        line = f"{who} {t['took']} {_pretty(event['card'])} {t['from']} {words[1]}"
        if event.get("revealed"):
            line += f" ({t['turned']}: {_cards(event['revealed'], '')})"
    elif kind == "slide":
        line = f"{who} {t['built_slide']} {words[1]}: {_cards(words[2:], '')} {t['then_extra']}"
    elif kind == "river":
        line = f"{who} {t['river_add']} {_cards(words[1:], '')}"
    elif kind == "pool":
        line = f"{who} {t['pool_add']} {_cards(words[1:], '')}"
    elif kind == "discard":
        line = f"{who} {t['discarded']} " + (_cards(words[1:], "") if len(words) > 1
                                             else f"{event['count']} {t['cards']}")
    elif kind == "theme":
        line = f"{who} {t['themed_own']} {_pretty(words[1])}" if len(words) > 1 else f"{who} {t['themed']}"
    else:
        line = f"{who} {t['passed']}"
    if event.get("extra"):
        line = "  + " + line
    return line


def describe_last(view: dict[str, Any], lang: str = "en") -> str:
    """What happened since the viewing seat last acted (a spectator: the last event)."""
    log = view.get("log") or []
    me = view.get("seat")
    recent = []
    for event in reversed(log):
        if me is not None and event["seat"] == me:
            break
        recent.append(event)
        if me is None:
            break
    return "\n".join(describe_event(e, lang) for e in reversed(recent))
