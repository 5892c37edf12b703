"""Wasserloch in the terminal: the waterhole, your hand, loot and what the others did."""

from __future__ import annotations

from ...core.messages import Words, render
from .actions import VALUES


def _place(count: int) -> str:
    if count == 0:
        return "[dim]·[/dim]"
    colour = "red" if count >= 3 else "yellow" if count == 2 else "white"
    return f"[{colour}]{count}[/{colour}]"


def _seat(s: int, me: int | None, t: Words) -> str:
    return t("seat_you", s=s) if s == me else t("seat", s=s)


def render_view(view: dict, lang: str = "en") -> str:
    t = Words("wasserloch.ui", lang)
    me = view["seat"]
    lines = [
        f"[bold]{t('round', r=view['round'], n=view['rounds'])}[/bold] · "
        f"{t('start', s=view['start_player'])} · {t('pile', n=view['pile'])}",
        f"{t('hole')}:  " + "  ".join(f"{v}:{_place(n)}" for v, n in zip(VALUES, view["waterhole"])),
        f"[dim]{t('eights')}[/dim]",
    ]
    loot = [f"{_seat(s, me, t)}: {total} ({view['hand_sizes'][s]})" for s, total in enumerate(view["scores"])]
    lines.append(f"{t('loot')}: " + " | ".join(loot))
    if view["hand"] is not None:
        cards = " ".join(v for v, n in zip(VALUES, view["hand"]) for _ in range(n))
        lines.append(f"[bold]{t('hand')}:[/bold] {cards}")
    if view["to_move"]:
        lines.append(t("to_move", s=view["to_move"][0]))
    return "\n".join(lines)


def describe_one(view: dict, seat: int, lang: str = "en") -> str:
    """`seat`'s last play and what it drove off; in the second person for the view's own seat."""
    e = view["last"][seat]
    if e is None:
        return ""
    code = "wasserloch.event.drove_off" if e["drove_off"] else "wasserloch.event.played"
    if seat == view["seat"]:
        code += ".you"
    return render(code, {"seat": seat, "play": e["play"], "value": e["drove_off"], "n": e["loot"]}, lang)


def describe_last(view: dict, lang: str = "en") -> str:
    """What the other seats did since `view`'s seat last played, in play order (a spectator:
    every seat's last play of the latest round), with a note when a new round began.

    WL-3.3, WL-5.2: the plays are ordered by their numbers in the match (`move`), not by
    the seats' order round the table: a round ended by any seat's emptied hand, and the
    next begun one seat on (WL-5.5), leaves plays made before the seat's own in the view,
    which that order told as news."""
    me = view["seat"]
    last = view["last"]
    played = sorted((e["move"], s) for s, e in enumerate(last) if e is not None)
    if me is None:
        shown = [s for _, s in played if last[s]["round"] == view["round"]]
        since = view["round"]
    else:
        mine = last[me]
        shown = [s for move, s in played if mine is None or move > mine["move"]]
        since = view["round"] if mine is None else mine["round"]
    lines = [describe_one(view, s, lang) for s in shown if last[s]["round"] < view["round"]]  # ended the round
    if me is not None and since < view["round"]:
        lines.append(render("wasserloch.event.round", {"round": view["round"], "seat": view["start_player"]}, lang))
    lines += [describe_one(view, s, lang) for s in shown if last[s]["round"] == view["round"]]
    return "\n".join(x for x in lines if x)


def describe_own(view: dict, lang: str = "en") -> str:
    """The result of the view's own seat's last play ("You played 5x3 and drove off the 4s …")."""
    return describe_one(view, view["seat"], lang) if view["seat"] is not None else ""


def legend(view: dict, lang: str = "en") -> str:
    """How a play is written (value x count), for `help`."""
    return Words("wasserloch.ui", lang)("legend")


def render_result(view: dict, lang: str = "en") -> str:
    t = Words("wasserloch.ui", lang)
    players = view["players"]
    heads = [t("seat", s=s) for s in range(players)]
    rows = [t("round_row", r=r) for r in range(1, len(view["loot"]) + 1)] + [t("total")]
    first = max(len(x) for x in rows) + 2
    width = max(len(h) for h in heads) + 2
    lines = [f"[bold]{t('result')}[/bold]", " " * first + "".join(h.ljust(width) for h in heads)]
    for label, row in zip(rows, view["loot"] + [view["scores"]]):
        lines.append(label.ljust(first) + "".join(str(n).ljust(width) for n in row))
    won = view["winners"]
    if won:
        label = t("winner") if len(won) == 1 else t("winners")
        lines.append(f"[bold]{label}: " + ", ".join(t("seat", s=s) for s in won) + "[/bold]")
    return "\n".join(lines)
