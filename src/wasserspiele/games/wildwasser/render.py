"""Wildwasser in the terminal: the track with its river crossings, every animal, the
podiums, hands and revealed cards, and what happened since the seat last acted.
Picks are secret: a view shows only its own."""

from __future__ import annotations

from rich.text import Text

from ...core.messages import Words, render, separator, term
from ...core.words import read_words, show_words
from .board import ICON_NAME

LETTERS = "ABCDEF"
COLOURS = ("red", "blue", "green", "magenta", "cyan", "yellow")
SPECIES = ("cheetah", "zebra", "rhino", "meerkat", "turtle")
_KIND_ORDER = ("start", "blank") + ICON_NAME[1:]  # tile kinds as the rules list them


def _animal(sp: str, lang: str) -> str:
    return term(sp, "wildwasser.animal", lang)


def tile_name(kind: str | None, lang: str = "en") -> str:
    """A tile by the kind the view gives it (`die` → `die tile`, `Tafel mit Würfel`;
    `start` → `start tile (red arrow)`).  The ids (T00 …) name tiles in the board file and
    in records, never on the screen: no move is written with one."""
    return term(kind, "wildwasser.tile_name", lang)


def _tiles_named(kinds: list[str], lang: str, plain: bool = False) -> str:
    """Tiles (by kind) as labels, each kind once, counted, in the rules' order of kinds:
    `3× blank tile, die tile`; `plain`: `blank tile (3 tiles), die tile`, where a screen
    reader read `3×` as "3 times"."""
    counts: dict[str | None, int] = {}
    for kind in kinds:
        counts[kind] = counts.get(kind, 0) + 1
    named = [(term(k, "wildwasser.tile_name", lang), n) for k, n in sorted(counts.items(), key=lambda kv: _KIND_ORDER.index(kv[0]))]
    if plain:
        return ", ".join(name if n == 1 else render("wildwasser.ui.tiles_counted_plain", {"t": name, "n": n}, lang)
                         for name, n in named)
    return ", ".join(name if n == 1 else f"{n}× {name}" for name, n in named)


def _points(n: int, lang: str, plain: bool) -> str:
    """Points: `5 pts` on the screen; plain, the word the browser says (`5 points`)."""
    return render("wildwasser.web.points_n" if plain else "wildwasser.ui.points", {"n": n}, lang)


def _plain_podium(sp: str, places: list, pts: list, lang: str) -> str:
    """A podium in words (`play --plain`): "Zebra: place 1, player A, 5 points; place 2, …",
    where a screen reader read `1.A(5)` as "1 dot A left paren 5" (WW-4.2, WW-5.3)."""
    t = Words("wildwasser.ui", lang)
    said = [f"{t('place_plain', n=k + 1)}, {seat_name(s, lang)}, {_points(pts[k] if k < len(pts) else 0, lang, True)}"
            for k, s in enumerate(places)]
    return f"{_animal(sp, lang)}: " + ("; ".join(said) or t('podium_empty_plain'))



def player(seat: int | None, me: int | None = None, lang: str = "en") -> str:
    """A seat as a coloured letter: [red]A[/red] (you)."""
    if seat is None:
        return "-"
    tag = f"[bold {COLOURS[seat]}]{LETTERS[seat]}[/bold {COLOURS[seat]}]"
    return tag + (f" ({Words('wildwasser.ui', lang)('you')})" if me is not None and seat == me else "")


def _token(animal: list | None, lang: str = "en") -> str:
    """An animal on the track: its player's letter and the animal's initial (Az: A's zebra)."""
    if not animal:
        return "  "
    seat, sp = animal
    return f"[{COLOURS[seat]}]{LETTERS[seat]}{_animal(sp, lang)[0].lower()}[/{COLOURS[seat]}]"


def _cell(cell: dict, lang: str) -> str:
    icon = cell["icon"]
    label = term(icon, "wildwasser.icon", lang) if icon else ""
    mark = f"[yellow]{label}[/yellow]" if label else ""
    return f"[{cell['field']:>2}{(' ' + mark) if mark else ''} {_token(cell['animal'], lang)}]"


def _plain_cell(cell: dict, lang: str) -> str:
    """A field in words (`play --plain`): its number, then what lies on it in brackets
    ("10 (die, A zebra)"), where a screen reader read the boxes' brackets and the tokens'
    two letters (`Az`)."""
    said = [term(cell["icon"], "wildwasser.icon", lang)] if cell["icon"] else []
    if cell["animal"]:
        seat, sp = cell["animal"]
        said.append(f"{LETTERS[seat]} {_animal(sp, lang)}")
    return f"{cell['field']}" + (f" ({', '.join(said)})" if said else "")


def _plain_row(name: str, cells: list[dict], lang: str) -> str:
    return f"{name}: " + "; ".join(_plain_cell(c, lang) for c in cells)


_NAME = 12  # the columns of a bank's or crossing's name before its fields
_INDENT = " " * (_NAME + 1)  # under the first field of a row


def _cell_rows(name: str, cells: list[dict], lang: str, width: int | None) -> list[str]:
    """A bank's or a crossing's fields after its name, as many on a line as `width` holds
    (the rest on lines indented as the first): wrapped by the terminal instead, a field was
    cut in two (`[22 cards back` … `]`) and the next began at the margin."""
    head = f"{name:<{_NAME}} "
    if width is None:
        return [head + " ".join(_cell(c, lang) for c in cells)]
    rows, row, used = [], [], len(head)
    for c in cells:
        cell = _cell(c, lang)
        n = Text.from_markup(cell).cell_len  # the columns it takes on the screen, markup aside
        if row and used + 1 + n > width:
            rows.append(row)
            row, used = [], len(_INDENT)
        used += n + (1 if row else 0)
        row.append(cell)
    rows.append(row)
    return [(head if i == 0 else _INDENT) + " ".join(r) for i, r in enumerate(rows)]


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


def render_view(view: dict, lang: str = "en", width: int | None = None, plain: bool = False) -> str:
    """The position as one seat (or a spectator) sees it; the track's rows fit in `width`
    columns when it is given (cli/render.py `drawn`); `plain` (`play --plain`): each bank
    and crossing as one line of words, for a screen reader that reads line by line."""
    t = Words("wildwasser.ui", lang)
    me = view["seat"]
    sep = separator(plain)
    lines = [
        f"[bold]{t('round', r=view['round'])}[/bold]{sep}{t('marker', p=player(view['start_marker'], me, lang))}"
        f"{sep}{t('flow', f=t(view['river_flow']))}{sep}{t('stack', n=view['stack'], k=view['removed'])}",
    ]
    if view["discard_kinds"]:
        lines.append(t('discard', t=_tiles_named(view["discard_kinds"], lang, plain)))
    if view["last_round"]:
        lines.append(f"[bold red]{t('last_round')}[/bold red]")
    sections = _sections(view)
    for i, (key, cells) in enumerate(sections):
        if key == "bank":
            name = t('start_bank') if i == 0 else t('final_bank') if i == len(sections) - 1 else t('bank')
            if plain:
                lines.append(_plain_row(name, cells, lang))
            else:
                lines.extend(_cell_rows(name, cells, lang, width))
        else:
            first = cells[0]
            kind = view["river"][first["slot"] - 1]["kind"]
            tile = tile_name(kind, lang) if kind else f"[red]{t('no_tile')}[/red]"
            if plain:  # no `≈≈` ("almost equal to, almost equal to"): the words say it is a crossing
                lines.append(_plain_row(t('crossing_plain', k=first['crossing'], s=first['slot'], t=tile), cells,
                                        lang))
                continue
            lines.append(f"[blue]≈≈[/blue] {t('crossing', k=first['crossing'], s=first['slot'], t=tile)}")
            # columns in crossing order (the track may run right to left here)
            lines.extend(_cell_rows("", cells, lang, width))
    lines.append(f"{'' if plain else _INDENT}[bold]{t('finish')}[/bold]")
    podium = []
    for sp in SPECIES:
        places = view["podiums"][sp]
        pts = view["podium_points"][sp]
        if plain:
            podium.append(_plain_podium(sp, places, pts, lang))
            continue
        row = " ".join(f"{t('place', n=k + 1)}{player(s)}({pts[k] if k < len(pts) else 0})"
                       for k, s in enumerate(places))
        podium.append(f"  {_animal(sp, lang):<12} {row or '-'}")
    lines.append(f"[bold]{t('podiums')}[/bold]")
    lines.extend(podium)
    for s in view["seats"]:
        seat = s["seat"]
        off = [_animal(sp, lang) for sp, a in s["animals"].items() if a["at"] == "team card"]
        parts = [f"{player(seat, me, lang)}: {_points(s['points'], lang, plain)}"]
        if off:
            parts.append(f"{t('team')}: {', '.join(off)}")
        if s["hand"] is not None:
            # an empty hand: a `-` was read "dash" (or nothing)
            parts.append(f"{t('hand')}: {', '.join(_animal(c, lang) for c in s['hand']) or (t('empty') if plain else '-')}")
        else:  # a face-down pick hides which of these is still in hand
            unrevealed = t('unrevealed_plain' if plain else 'unrevealed')  # plain: "and", not `+` ("plus")
            parts.append(f"{unrevealed}: {', '.join(_animal(c, lang) for c in s['unrevealed'])}")
        if s["revealed"]:
            parts.append(f"{t('revealed')}: {', '.join(_animal(c, lang) for c in s['revealed'])}")
        if view["phase"] == "pick":
            parts.append(t('picked') if s["picked"] else t('not_picked'))
        if s["pick"]:
            parts.append(f"[bold]{t('your_pick', c=_animal(s['pick'], lang))}[/bold]")
        lines.append(sep.join(parts))
    phase = view["phase"]
    if phase == "resolve":
        line = t('resolving', p=player(view["resolving"], me, lang), c=_animal(view["card"], lang))
        if view["resolving"] == me:  # what `move` and `action` do with this card (the moves say no more)
            line += ": " + t(f"choice.{view['card']}")
        lines.append(line)
    elif phase == "sun":
        lines.append(t('sun', p=player(view["resolving"], me, lang)))
    elif phase == "marker":
        lines.append(t('marker_choice', p=player(view["resolving"], me, lang)))
    if view["to_move"]:
        lines.append(t('to_move', p=", ".join(player(s, me, lang) for s in view["to_move"])))
    return "\n".join(lines)


def describe_event(e: dict, lang: str = "en", me: int | None = None) -> str:
    """One log event in words: its kind is its code (`wildwasser.event.<kind>`), but a
    push and a start marker's move are told by what happened (an empty stack; how the
    view says the marker moved); a push names every animal it washes back.  Decisions
    are narrated by their effects."""
    kind = e["event"]
    if kind == "decide":
        return ""
    code = kind
    if kind == "push":  # the tiles by what they show, not by their ids; WW-5.2: none may come in
        e = {**e, "tile": e["tile_kind"], "waterfall": e["waterfall_kind"]}
        code = "push" if e["tile"] else "push_empty"
    elif kind == "marker":  # WW-3.2, WW-4.3: the view's `how` (view.marker_how)
        code = f"marker_{e['how']}"
    elif kind == "end" and e["why"] == "finish" and e.get("finishers"):  # WW-5.1: who ended it
        e = {**e, "n": len(e["finishers"])}
        code = "end_finish"
    text = render(f"wildwasser.event.{code}", e, lang)
    if kind == "push":
        for seat, sp in e["washed"]:
            text += " " + render("wildwasser.event.washed", {"seat": seat, "animal": sp}, lang)
    return text


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


def render_result(view: dict, lang: str = "en", width: int | None = None, plain: bool = False) -> str:
    """The final table: each player's place with every animal and points.  Where `width`
    columns do not hold its rows (the terminal wrapped each into two, the columns lost),
    or `plain` asks (`play --plain`: a screen reader reads a row without the heads above
    its columns), each player gets a line: points, then the animals that placed."""
    t = Words("wildwasser.ui", lang)
    head = f"{t('player'):<8}" + "".join(f"{_animal(sp, lang)[:11]:<12}" for sp in SPECIES) + t('total')
    total_width = max(len(head), 8 + 12 * len(SPECIES) + max(len(str(s["points"])) for s in view["seats"]))
    lines = [f"[bold]{t('result')}[/bold]"]
    if plain or width is not None and total_width > width:
        # plain: "meerkat place 1", not `meerkat 1.` ("1 dot"), and words for no animal, not `-`
        place = "place_plain" if plain else "place"
        for s in view["seats"]:
            placed = [f"{_animal(sp, lang)} {t(place, n=s['animals'][sp]['place'])}"
                      for sp in SPECIES if s["animals"][sp]["place"]]
            sep = separator(plain)
            none = t('placed_none_plain') if plain else '-'
            lines.append(f"{player(s['seat'])}: {_points(s['points'], lang, plain)}{sep}{', '.join(placed) or none}")
    else:
        lines.append(head)
        for s in view["seats"]:
            row = []
            for sp in SPECIES:
                a = s["animals"][sp]
                row.append(f"{t('place', n=a['place']) if a['place'] else '-':<12}")
            lines.append(player(s["seat"]) + " " * 7 + "".join(row) + str(s["points"]))
    won = view["winners"]
    if won:
        label = t('winner') if len(won) == 1 else t('winners')
        lines.append(f"[bold]{label}: " + ", ".join(player(s, view["seat"], lang) for s in won) + "[/bold]")
    return "\n".join(lines)


def seat_name(seat: int, lang: str = "en") -> str:
    """The board names players by letter."""
    return Words("wildwasser.ui", lang)("player_name", seat=seat)


def legend(view: dict, lang: str = "en") -> str:
    return Words("wildwasser.ui", lang)("legend")


_SEAT_KINDS = ("action", "marker")


def show_action(text: str, lang: str = "en") -> str:
    """`action 2` → `action C` (German `aktion C`): seats as the board's letters."""
    words = text.split()
    if len(words) == 2 and words[0] in _SEAT_KINDS and words[1].isdigit():
        words[1] = LETTERS[int(words[1])]
    return show_words("wildwasser", " ".join(words), lang)


def read_action(text: str, lang: str = "en") -> str:
    """German words and player letters (`aktion B`, `marker c`) → notation (`action 1`)."""
    words = read_words("wildwasser", text, lang).split()
    if len(words) == 2 and words[0] in _SEAT_KINDS and len(words[1]) == 1 and words[1].upper() in LETTERS:
        words[1] = str(LETTERS.index(words[1].upper()))
    return " ".join(words)
