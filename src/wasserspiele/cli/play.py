"""Interactive terminal play: humans type notation, bots move on their own."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import click

from ..bots.base import Bot, decision_for
from ..bots.levels import level_names
from ..bots.registry import bot_kinds
from ..bots.specs import check_spec, parse_bot_spec, split_spec_texts
from ..core.errors import BadNotation, BadOption
from ..core.protocol import State
from ..core.records import read_record, replay, write_record
from ..core.registry import game_class, load
from .console import make_console
from .render import renderer

HUMAN = "human"

TEXT = {
    "en": {
        "prompt": "seat {seat} – your move (help, moves, hint, quit)",
        "hint": "hint: {best}   (alternatives: {others})",
        "hint_line": "{action} (value {value:.2f} after {visits} simulations)",
        "refused": "refused: {reason}",
        "help": "Type a move in the game's notation, e.g. {example}.\n"
                "Commands: moves (list legal moves), hint (the strongest bot's advice), help, quit (saves with --save).",
        "moves": "legal moves: {moves}",
        "saved": "game saved to {path}; continue with: wasserspiele play --resume {path}",
        "not_saved": "game not saved (start with --save FILE to keep it)",
        "pass_to": "Seat {seat}: press Enter when only you are looking at the screen",
        "over": "Game over.",
        "bot_move": "seat {seat} ({kind}): {action}",
    },
    "de": {
        "prompt": "Platz {seat} – dein Zug (help, moves, hint, quit)",
        "hint": "Tipp: {best}   (Alternativen: {others})",
        "hint_line": "{action} (Wert {value:.2f} nach {visits} Simulationen)",
        "refused": "nicht erlaubt: {reason}",
        "help": "Gib einen Zug in der Notation des Spiels ein, z. B. {example}.\n"
                "Befehle: moves (erlaubte Züge), hint (Rat des stärksten Bots), help, quit (speichert mit --save).",
        "moves": "erlaubte Züge: {moves}",
        "saved": "Spiel gespeichert in {path}; weiter mit: wasserspiele play --resume {path}",
        "not_saved": "Spiel nicht gespeichert (mit --save DATEI starten, um es zu behalten)",
        "pass_to": "Platz {seat}: Enter drücken, wenn nur du auf den Bildschirm schaust",
        "over": "Spielende.",
        "bot_move": "Platz {seat} ({kind}): {action}",
    },
}


class Quit(Exception):
    """The human asked to stop."""


def parse_seats(text: str | None, players: int) -> list[str]:
    """`human,expert,heuristic` → one seat kind per seat: `human` or a bot spec (a level,
    a bot, `ismcts:iterations=300`; see bots/specs.py).  Default: one human, the rest heuristic."""
    if not text:
        return [HUMAN] + ["heuristic"] * (players - 1)
    kinds = [k.strip().lower() for k in split_spec_texts([text])]
    if len(kinds) != players:
        raise BadOption(f"--seats names {len(kinds)} seat(s) but the game has {players} players")
    for k in kinds:
        if k != HUMAN:
            spec = parse_bot_spec(k)
            if spec.kind not in bot_kinds():
                raise BadOption(f"--seats: unknown seat kind {k!r} (human, bots: {', '.join(bot_kinds())}; "
                                f"levels: {', '.join(level_names())})")
    return kinds


@dataclass
class PlaySession:
    state: State
    kinds: list[str]
    bots: dict[int, Bot]
    save: str | None
    lang: str = "en"
    console: Any = field(default_factory=make_console)

    @classmethod
    def create(cls, game_name, players, seats, seed, option_texts, save, resume, lang) -> "PlaySession":
        if resume:
            if game_name or option_texts or players:
                raise BadOption("--resume continues a saved game: give no game, --players or --option")
            state = replay(read_record(resume), rng=random.Random(seed))
            game = state.game
            save = save or resume
        else:
            if not game_name:
                raise BadOption("name a game to play, e.g. wasserspiele play wasserloch")
            from .main import parse_options_for
            options = parse_options_for(game_name, option_texts)
            if players is not None:
                if game_class(game_name).fixed_players:
                    if players != game_class(game_name).fixed_players:
                        raise BadOption(f"{game_name} is for exactly {game_class(game_name).fixed_players} players")
                else:
                    options["players"] = players
            game = load(game_name, **options)
            state = game.new_game(seed=seed)
        kinds = parse_seats(seats, game.players)
        specs = {s: parse_bot_spec(k) for s, k in enumerate(kinds) if k != HUMAN}
        for spec in set(specs.values()):
            check_spec(spec, game)  # a bad bot fails before the game starts, naming it
        seeder = random.Random(seed)
        bots = {s: spec.make(game, seeder.randrange(2**31)) for s, spec in specs.items()}
        return cls(state, kinds, bots, save, lang)

    def t(self, key: str, **kw) -> str:
        return TEXT[self.lang][key].format(**kw)

    @property
    def humans(self) -> list[int]:
        return [s for s, k in enumerate(self.kinds) if k == HUMAN]

    def run(self, verbose: bool = False) -> int:
        """Play to the end; 0 when finished, 130 when stopped early."""
        r = renderer(self.state.game.name)
        try:
            while not self.state.is_terminal():
                seat = self.state.current_seat
                if self.kinds[seat] == HUMAN:
                    action = self.ask(seat, r)
                else:
                    action = self.bots[seat].choose(decision_for(self.state, seat))
                    if verbose and not self.humans:
                        self.console.print(self.t("bot_move", seat=seat, kind=self.kinds[seat], action=action))
                self.state.apply(action, seat)
                self.autosave()
        except (Quit, KeyboardInterrupt, EOFError, click.Abort) as stop:
            self.console.print()
            self.autosave()
            self.console.print(self.t("saved", path=self.save) if self.save else self.t("not_saved"))
            return 0 if isinstance(stop, Quit) else 130
        view = self.state.view(self.humans[0] if len(self.humans) == 1 else None)
        self.console.print(r.render_view(view, self.lang))
        self.console.print(r.render_result(view, self.lang))
        return 0

    def autosave(self) -> None:
        if self.save:
            write_record(self.state, self.save)

    def hint(self, seat: int, alternatives: int = 3) -> str:
        """The expert bot's choice for `seat` and its best alternatives, with estimated values."""
        from ..bots.levels import bot_for_level
        bot = bot_for_level("expert", self.state.game, seed=len(self.state.history))
        decision = decision_for(self.state, seat)
        # a move made by convention (a Watten signal) has no searched value to show
        searched = hasattr(bot, "search") and getattr(bot, "conventional", lambda d: None)(decision) is None
        choices = bot.search(decision) if searched else []
        lines = [self.t("hint_line", action=c.action, value=c.value, visits=c.visits)
                 for c in choices[:alternatives + 1]]
        if not lines:
            return self.t("hint", best=bot.choose(decision), others="–")
        return self.t("hint", best=lines[0], others="; ".join(lines[1:]) or "–")

    def ask(self, seat: int, r) -> Any:
        """Show `seat` its view and read a legal action."""
        hotseat = len(self.humans) > 1
        if hotseat:
            self.console.clear()
            click.prompt(self.t("pass_to", seat=seat), default="", show_default=False, prompt_suffix=" ")
        view = self.state.view(seat)
        news = r.describe_last(view, self.lang)
        if news:
            self.console.print(news)
        self.console.print(r.render_view(view, self.lang))
        legal = self.state.legal_actions(seat)
        while True:
            line = click.prompt(self.t("prompt", seat=seat), default="", show_default=False,
                                prompt_suffix="> ").strip()
            word = line.lower()
            if not word:
                continue
            if word in ("quit", "exit", "q"):
                raise Quit
            if word in ("help", "?"):
                self.console.print(self.t("help", example=str(legal[0])))
                continue
            if word in ("moves", "m"):
                self.console.print(self.t("moves", moves=", ".join(map(str, legal))))
                continue
            if word in ("hint", "h"):
                self.console.print(self.hint(seat))
                continue
            try:
                action = self.state.game.parse_action(line)
            except BadNotation as exc:
                self.console.print(self.t("refused", reason=str(exc)))
                continue
            reason = self.state.why_illegal(action, seat)
            if reason:
                self.console.print(self.t("refused", reason=reason))
                continue
            return action
