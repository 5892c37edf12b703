"""Wasserloch in the terminal: the waterhole, your hand, loot and what the others did."""

from __future__ import annotations

from ...core.messages import Words, out_of, render, separator
from .actions import VALUES, parse_action


def _place(count: int) -> str:
    if count == 0:
        return "[dim]·[/dim]"
    colour = "red" if count >= 3 else "yellow" if count == 2 else "white"
    return f"[{colour}]{count}[/{colour}]"


def _seat(s: int, me: int | None, t: Words) -> str:
    return t("seat_you", s=s) if s == me else t("seat", s=s)


def render_view(view: dict, lang: str = "en", plain: bool = False) -> str:
    """The position as one seat (or a spectator) sees it; `plain` (`play --plain`): the
    waterhole's places as words ("A: 0, 2: 1"), where a screen reader read the empty
    places' `·` as "middle dot" or as nothing, and the parts of a line separated by
    semicolons, not by `·` and `|`."""
    t = Words("wasserloch.ui", lang)
    me = view["seat"]
    if plain:
        hole = f"{t('hole')}: " + ", ".join(f"{v}: {n}" for v, n in zip(VALUES, view["waterhole"]))
    else:
        hole = f"{t('hole')}:  " + "  ".join(f"{v}:{_place(n)}" for v, n in zip(VALUES, view["waterhole"]))
    sep = separator(plain)
    lines = [
        f"[bold]{t('round', r=out_of(view['round'], view['rounds'], plain, lang))}[/bold]{sep}"
        f"{t('start', s=view['start_player'])}{sep}{t('pile', n=view['pile'])}",
        hole,
        f"[dim]{t('eights')}[/dim]",
    ]
    loot = [f"{_seat(s, me, t)}: {total} ({view['hand_sizes'][s]})" for s, total in enumerate(view["scores"])]
    lines.append(f"{t('loot')}: " + separator(plain, " | ").join(loot))
    if view["hand"] is not None:
        cards = " ".join(v for v, n in zip(VALUES, view["hand"]) for _ in range(n))
        lines.append(f"[bold]{t('hand')}:[/bold] {cards}")
    if view["to_move"]:
        lines.append(t("to_move", s=view["to_move"][0]))
    return "\n".join(lines)


def describe_play(view: dict, seat: int, e: dict | None, lang: str = "en") -> str:
    """Play `e` of `seat` and what it drove off; in the second person for the view's own seat."""
    if e is None:
        return ""
    code = "wasserloch.event.drove_off" if e["drove_off"] else "wasserloch.event.played"
    if seat == view["seat"]:
        code += ".you"
    return render(code, {"seat": seat, "play": e["play"], "value": e["drove_off"], "n": e["loot"]}, lang)


def describe_last(view: dict, lang: str = "en") -> str:
    """What the other seats did since `view`'s seat last played: every play made after its
    own, in play order (a spectator: the plays of the latest round among the last
    `players`, one per seat), with a note where a new round began.

    WL-3.3, WL-5.2, WL-5.5: a round ends with any seat's emptied hand and the next begins
    one seat on, so a seat may play twice between two turns of the view's seat (the
    round's last play, then the next round's first); both are told, from the view's
    `recent` plays in the order they were made (one play a seat left the first out)."""
    me = view["seat"]
    plays = view["recent"]
    if me is None:
        shown = [e for e in plays[-view["players"]:] if e["round"] == view["round"]]
        since = view["round"]
    else:
        mine = view["last"][me]
        shown = [e for e in plays if mine is None or e["move"] > mine["move"]]
        since = view["round"] if mine is None else mine["round"]
    lines = [describe_play(view, e["seat"], e, lang) for e in shown if e["round"] < view["round"]]  # ended the round
    if me is not None and since < view["round"]:
        lines.append(render("wasserloch.event.round", {"round": view["round"], "seat": view["start_player"]}, lang))
    lines += [describe_play(view, e["seat"], e, lang) for e in shown if e["round"] == view["round"]]
    return "\n".join(x for x in lines if x)


def describe_own(view: dict, lang: str = "en") -> str:
    """The result of the view's own seat's last play ("You played 5x3 and drove off the 4s …")."""
    seat = view["seat"]
    return describe_play(view, seat, view["last"][seat], lang) if seat is not None else ""


def say_action(text: str, lang: str = "en") -> str:
    """A play in the words of the page's move button ("play two 3s", „zwei 3er
    ausspielen"): its catalogue entry `wasserloch.web.play_button`, so that the terminal's
    hint and the browser's button say a move alike, from one place, where the notation
    `3x2` alone is what one types."""
    p = parse_action(text)
    return render("wasserloch.web.play_button", {"n": p.count, "v": VALUES[p.value]}, lang)


def legend(view: dict, lang: str = "en") -> str:
    """How a play is written (value x count), for `help`."""
    return Words("wasserloch.ui", lang)("legend")


def render_result(view: dict, lang: str = "en", width: int | None = None, plain: bool = False) -> str:
    """The loot of every round and the totals, a seat to a column; where `width` columns do
    not hold the table (the terminal wrapped each row, the last seat's figures at the
    margin), or `plain` asks (`play --plain`: a screen reader reads a row of figures
    without the heads above them), a seat to a line: its rounds' loot added up."""
    t = Words("wasserloch.ui", lang)
    players = view["players"]
    heads = [t("seat", s=s) for s in range(players)]
    rows = [t("round_row", r=r) for r in range(1, len(view["loot"]) + 1)] + [t("total")]
    first = max(len(x) for x in rows) + 2
    column = max(len(h) for h in heads) + 2
    lines = [f"[bold]{t('result')}[/bold]"]
    if plain or width is not None and first + column * (players - 1) + len(heads[-1]) > width:
        for s in range(players):
            loot = " + ".join(str(row[s]) for row in view["loot"])
            lines.append(f"{t('seat', s=s)}: {loot} = {view['scores'][s]}")
    else:
        lines.append(" " * first + "".join(h.ljust(column) for h in heads))
        for label, row in zip(rows, view["loot"] + [view["scores"]]):
            lines.append(label.ljust(first) + "".join(str(n).ljust(column) for n in row))
    won = view["winners"]
    if won:
        label = t("winner") if len(won) == 1 else t("winners")
        lines.append(f"[bold]{label}: " + ", ".join(t("seat", s=s) for s in won) + "[/bold]")
    return "\n".join(lines)
