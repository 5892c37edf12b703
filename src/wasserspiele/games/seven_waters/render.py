"""Text renderer of Seven Waters views (labels and events from the message catalogue)."""

from __future__ import annotations

from typing import Any

import re

from ...core.cards import SUIT_SYMBOLS, card
from ...core.messages import Words, card_text, out_of, render, separator, term
from ...core.words import read_token, read_words, show_words


def _said(name: str, lang: str = "en") -> str:
    """A card in words for plain lines (`play --plain`, a screen reader), where `8♠` was read
    "8 black spade suit" (or the sign not at all) and `Jk1=5` letter by letter: "8 of spades",
    „Pik-8", the page's names for cards (web.card_name); a joker "joker 1", declared "joker 1
    as 5" (a value in a slide), "… as queen" (a rank in the river), "… as hearts" (a suit in
    the pool), as the page's cardName reads a declaration."""
    base, eq, decl = name.partition("=")
    c = card(base)
    if c.is_joker:
        if not eq:
            return render("seven_waters.ui.joker_plain", {"n": base[1:]}, lang)
        said = (decl if decl.isdigit() else render(f"web.suit_{decl}", None, lang) if decl in SUIT_SYMBOLS
                else render(f"web.rank_{decl}", None, lang))
        return render("seven_waters.ui.joker_as_plain", {"n": base[1:], "r": said}, lang)
    return render("web.card_name", {"r": render(f"web.rank_{c.rank_char}", None, lang),
                                    "s": render(f"web.suit_{c.suit}", None, lang)}, lang)


def _pretty(name: str | None, lang: str = "en", plain: bool = False) -> str:
    """'KD' → 'K♦', 'TH' → '10♥' in German, 'X1=T' → 'Jk1=T', '##' stays, None → blank;
    `plain`: the card in words (`_said`)."""
    if name is None:
        return "  "
    if name == "##":
        return "##"
    if plain:
        return _said(name, lang)
    base, eq, decl = name.partition("=")
    c = card(base)
    text = "Jk" + base[1:] if c.is_joker else term(c.rank_char, "card.rank", lang) + SUIT_SYMBOLS[c.suit]
    if eq:
        text += "=" + (SUIT_SYMBOLS.get(decl) or term(decl, "card.rank", lang))
    return text


def _cards(names: list[str] | None, empty: str, lang: str = "en", plain: bool = False) -> str:
    """The cards side by side; `plain`: in words, separated by commas."""
    if not names:
        return empty
    return (", " if plain else " ").join(_pretty(n, lang, plain) for n in names)


def _said_in(line: str, params: dict[str, Any], lang: str) -> str:
    """An event's catalogue line with its cards (`card`, `cards`: as `{card:card}` and
    `{cards:*card}` wrote them) in words, for plain lines."""
    for key, value in params.items():
        if key not in ("card", "cards") or not value:
            continue
        names = [value] if isinstance(value, str) else list(value)
        shown = " ".join(card_text(n, lang) for n in names)
        said = ", ".join(_said(n, lang) for n in names)
        # the cards as written, not a part of a longer word ("Jk1" of "Jk12")
        line = re.sub(rf"(?<![\w=]){re.escape(shown)}(?![\w=])", lambda m: said, line, count=1)
    return line


def render_pyramid(view: dict[str, Any], lang: str = "en", width: int | None = None, plain: bool = False) -> str:
    """The pyramid, row 1 at the top; free cards in bold, face-down cards as ##, then the
    free cards by position: bold alone was lost where a terminal shows no styles (a dumb
    terminal, output to a file or a screen reader), and a covered face-up card then
    looked as free as one that may be taken.  That list breaks only between two cards in
    `width` columns, never between a card and its position.
    `plain` (`play --plain`): each row as a line of words ("Row 2: face down, face down"),
    for a screen reader that read `##` as "number number" and the gaps as nothing."""
    t = Words("seven_waters.ui", lang)
    free = set(view["free"])
    rows = []
    span = 7 * 4  # the bottom row's columns
    for r, row in enumerate(view["pyramid"], 1):
        if all(name is None for name in row):
            continue
        if plain:
            words = [t("taken") if name is None else t("face_down") if name == "##" else _pretty(name, lang, plain)
                     for name in row]
            rows.append(f"{t('row', r=r)}: {', '.join(words)}")
            continue
        cells = []
        for c, name in enumerate(row, 1):
            cell = f"{_pretty(name, lang):>3}"
            cells.append(f"[bold]{cell}[/bold]" if f"{r}-{c}" in free else cell)
        pad = " " * ((span - 4 * len(row)) // 2)
        rows.append(f"{r} {pad}{' '.join(cells)}")
    head = f"{t('pyramid')} ({t('left', n=view['pyramid_left'])})"
    spots = [(r, c) for r, row in enumerate(view["pyramid"], 1) for c in range(1, len(row) + 1)
             if f"{r}-{c}" in free]
    if spots:  # bottom row first: where a take starts
        named = [f"{r}-{c} {_pretty(view['pyramid'][r - 1][c - 1], lang, plain)}"
                 for r, c in sorted(spots, key=lambda rc: (-rc[0], rc[1]))]
        rows.extend(_listed(f"{t('free')}: ", named, width))
    return "\n".join([head, *rows])


def _listed(label: str, items: list[str], width: int | None) -> list[str]:
    """`label` and `items` joined by commas, on as many lines as `width` needs, each line
    after the first indented under the first item (plain text: no markup in them)."""
    lines, line = [], label
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if i == 0:
            line += piece
        elif width is not None and len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = " " * len(label) + piece
        else:
            line += " " + piece
    return lines + [line]


def render_park(view: dict[str, Any], seat: int, lang: str = "en", plain: bool = False) -> str:
    """One seat's park: lines with their slides, river, pool, theme, hand and discards;
    `plain` (`play --plain`): a line's sum, a missing slide and the pool's suit in words
    ("(sum 9); slide: none", "Wave pool (♣ clubs)"), where a screen reader read `(=9)` as
    "equals 9", `—` as "em dash" (or nothing) and a suit sign alone."""
    t = Words("seven_waters.ui", lang)
    p = view["players"][seat]
    who = f"{t('seat')} {seat}" + (f" ({t('you')})" if view.get("seat") == seat else "")
    out = [f"[bold]{who}[/bold]"]
    none = t('no_slide_plain') if plain else t('no_slide')
    for k, (line, total, slide) in enumerate(zip(p["lines"], p["line_sums"], p["slides"]), 1):
        built = _cards(slide, none, lang, plain) if slide else none
        cards = _cards(line, '', lang, plain)
        if plain:
            out.append(f"  {t('line')} {k}: {cards} ({t('sum_plain', n=total)}); {t('slide')}: {built}")
        else:
            out.append(f"  {t('line')} {k}: {cards} (={total})  {t('slide')}: {built}")
    out.append(f"  {t('river')}: {_cards(p['river'], t('empty'), lang, plain)}")
    suit = ""
    if p["pool_suit"]:
        named = f"{SUIT_SYMBOLS[p['pool_suit']]} {term(p['pool_suit'], 'suit', lang)}" if plain else SUIT_SYMBOLS[p['pool_suit']]
        suit = f" ({named})"
    out.append(f"  {t('pool')}{suit}: {_cards(p['pool'], t('empty'), lang, plain)}")
    if p["theme"]:
        theme = _pretty(p["theme"], lang, plain)
    else:
        theme = t('theme_secret') if p["theme_placed"] else t('theme_none')
    out.append(f"  {t('theme')}: {theme}")
    hand = _cards(p["hand"], t('empty'), lang, plain) if p["hand"] is not None else t('cards', n=p['hand_count'])
    out.append(f"  {t('hand')}: {hand}")
    discards = t('cards', n=p['discard_count'])
    if p["discards"]:
        discards += f" ({_cards(p['discards'], '', lang, plain)})"
    out.append(f"  {t('discards')}: {discards}")
    return "\n".join(out)


def render_view(view: dict[str, Any], lang: str = "en", width: int | None = None, plain: bool = False) -> str:
    """The whole position as one seat (or a spectator) sees it (its lists fit in `width`
    columns when it is given: cli/render.py `drawn`)."""
    t = Words("seven_waters.ui", lang)
    limit = view["slide_limit"]
    if limit is None and plain:  # the competition edition (SW-7.1): `0 of ∞` was read "0 of infinity"
        status = f"{t('slides')}: {t('slides_unlimited_plain', n=view['slides_built'])}"
    else:
        status = f"{t('slides')}: {out_of(view['slides_built'], '∞' if limit is None else limit, plain, lang)}"
    sep = separator(plain, "   ")  # plain: a semicolon, read as a pause, where spaces ran the parts together
    if view["over"]:
        status += f"{sep}{t('over')}"
    else:
        status += f"{sep}{t('to_move')}: {t('seat')} {view['to_move'][0]}"
        if view["extra_action"]:
            status += f" ({t('extra')})"
        if view["final_turns_left"] is not None:
            status += f"{sep}{t('final', n=view['final_turns_left'] + 1)}"
    me = view.get("seat")
    order = [1 - me, me] if me in (0, 1) else [0, 1]
    parts = [status, render_pyramid(view, lang, width, plain), *(render_park(view, s, lang, plain) for s in order)]
    return "\n\n".join(parts)


def render_result(view: dict[str, Any], lang: str = "en", plain: bool = False) -> str:
    """The end-of-game score table by category (SW-5.2) and the winner (SW-5.3); `plain`
    (`play --plain`): a category to a line that names each seat with its figure, where a
    screen reader read the figures without the heads above their columns."""
    t = Words("seven_waters.ui", lang)
    if not view.get("over"):
        return ""
    scores = view["scores"]
    head = f"{'':<22}{t('seat')} 0{'':>3}{t('seat')} 1"
    rows = [] if plain else [head]
    for cat in scores[0]:  # the categories of the scoring table (SW-5.2), in its order
        if plain:
            rows.append(f"{t('cat_' + cat)}: {t('seat')} 0 {scores[0][cat]}, {t('seat')} 1 {scores[1][cat]}")
        else:
            rows.append(f"{t('cat_' + cat):<22}{scores[0][cat]:>7}{scores[1][cat]:>9}")
    if plain:
        rows.append(f"{t('total')}: {t('seat')} 0 {view['totals'][0]}, {t('seat')} 1 {view['totals'][1]}")
    else:
        rows.append(f"{t('total'):<22}{view['totals'][0]:>7}{view['totals'][1]:>9}")
    winners = view["winners"]
    how = view["decided_by"]  # SW-5.3 as the rules decided it (rules.decision), not worked out here
    if how == "draw":
        rows.append(t('draw'))
    else:
        you = f" ({t('you')})" if view.get("seat") == winners[0] else ""  # as the park's heading says it
        why = f" – {t('by_pool')}" if how == "pool" else ""
        rows.append(f"[bold]{t('winner')}: {t('seat')} {winners[0]}{you}[/bold]{why}")
    return "\n".join(rows)


def describe_event(event: dict[str, Any], lang: str = "en", me: int | None = None, plain: bool = False) -> str:
    """One public event in words: its kind is its code (`seven_waters.event.<kind>`); the
    viewing seat `me`'s own events are told to it in the second person (code + `.you`).
    An extra action (SW-4.3a) is marked `+` on the screen; `plain` says "Extra action:",
    where a screen reader read "plus"."""
    kind, words = event["kind"], event["action"].split()
    params: dict[str, Any] = {"seat": event["seat"]}
    code = f"seven_waters.event.{kind}"
    if kind == "take":
        # "from the pyramid" as the seed and the page say it; the terminal adds the place as
        # its notation writes it ("(7-1)"), the one a player types to take a card
        params.update(card=event["card"], position=words[1])
    elif kind == "slide":
        params.update(line=words[1], cards=words[2:])
    elif kind in ("river", "pool", "discard"):
        params["cards"] = words[1:]
        if kind == "discard" and not params["cards"]:
            code, params["n"] = code + ".secret", event["count"]
    elif kind == "theme":
        if len(words) > 1:
            params["card"] = words[1]
        else:
            code += ".secret"
    if me is not None and event["seat"] == me:
        code += ".you"
    line = render(code, params, lang)
    if plain:
        line = _said_in(line, params, lang)
    if kind == "take" and event.get("revealed"):
        revealed = {"cards": event["revealed"]}
        said = render("seven_waters.event.revealed", revealed, lang)
        line += " " + (_said_in(said, revealed, lang) if plain else said)
    if event.get("extra"):
        if plain:
            extra = render("seven_waters.ui.extra", None, lang)
            line = f"  {extra[:1].upper()}{extra[1:]}: {line}"
        else:
            line = "  + " + line
    return line


def describe_last(view: dict[str, Any], lang: str = "en", plain: bool = False) -> str:
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
    return "\n".join(describe_event(e, lang, me, plain) for e in reversed(recent))


def describe_own(view: dict[str, Any], lang: str = "en", plain: bool = False) -> str:
    """The viewing seat's own last action and what it brought (the cards a take turned
    up), told to that seat: "You took 9♠ from the pyramid (3-2) (turned up: 4♦ J♠)"."""
    me = view.get("seat")
    own = [e for e in view.get("log") or [] if e["seat"] == me]
    return describe_event(own[-1], lang, me, plain).strip() if me is not None and own else ""


def legend(view: dict, lang: str = "en") -> str:
    return Words("seven_waters.ui", lang)("legend")


def show_action(text: str, lang: str = "en") -> str:
    """Notation as the board shows it: jokers `Jk1`, German words and cards in German."""
    return " ".join(w.replace("X", "Jk", 1) if w.startswith("X") else w
                    for w in show_words("seven_waters", text, lang).split())


def say_card(name: str, lang: str = "en") -> str:
    """A card in words for plain output (a refusal's cards: core.messages.render's `say_card`): "8 of spades", "joker 1"."""
    return _said(name, lang)


def say_action(text: str, lang: str = "en") -> str | None:
    """A move with cards in words, for plain output's hint: `slide 2 KD AC` → "slide 2 king of
    diamonds, ace of clubs", `river X1=T 9C` → "river joker 1 as 10, 9 of clubs" (the
    notation, which one types, comes first: cli/play.py `said`); None for a move without
    cards (`take 7-3`, `pass`)."""
    words = text.split()
    first = 2 if words[:1] == ["slide"] else 1  # a slide names its line before its cards
    cards = words[first:] if words[:1] != ["take"] else []
    if not cards:
        return None
    shown = show_action(" ".join(words[:first]), lang)
    return f"{shown} {', '.join(_said(c, lang) for c in cards)}"


def read_action(text: str, lang: str = "en") -> str:
    """Typed words and cards in either language → notation.  A joker's declaration `=D`
    is a suit (diamonds) in the pool but the Dame (a rank) in the river, where German
    shows a queen as D: the verb says which (in English D is no rank, and stays an error)."""
    words = text.split()
    if lang != "en" and words and read_token("seven_waters", words[0]) == "river":
        words = [w[:-1] + "Q" if "=" in w and w.lower().endswith("=d") else w for w in words]
    return read_words("seven_waters", " ".join(words), lang)
