"""Interactive terminal play: humans type notation, bots move on their own."""

from __future__ import annotations

import base64
import binascii
import json
import logging
import os
import random
import shlex
import struct
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable

import click
from click.core import ParameterSource
from rich.markup import escape

from ..bots.base import Bot, decision_for, parts
from ..bots.levels import level_names
from ..bots.registry import bot_kinds
from ..bots.specs import check_spec, parse_bot_spec, split_spec_texts
from ..core.cards import SUIT_SYMBOLS
from ..core.chance import make_rng
from ..core.errors import BadNotation, BadOption, BadRecord, WasserspieleError
from ..core.messages import LANGS, Reason, render
from ..core.paths import cause, write_problem
from ..core.protocol import State
from ..core.records import MAX_TEXT, read_record, resume as resume_game, write_record
from ..core.registry import game_class, load, manifest
from ..core.words import alternatives, read_words
from .console import clear_screen, make_console, printable, thinking
from .entry import Stopped, detach_lost_output, hung_up, lost_output
from .render import drawn, renderer

HUMAN = "human"
# `./dev` sets this so the hints name the command that works where the player typed it
LAUNCHER_ENV = "WASSERSPIELE_LAUNCHER"
COMMANDS = ("help", "moves", "hint", "quit")


def command_word(word: str) -> str | None:
    """A typed command in either language (`hilfe`, `züge`, `tipp`, `ende`, `help` …) → its name."""
    for name in COMMANDS:
        if any(word in alternatives(f"cli.word.{name}", lang) for lang in LANGS):
            return name
    return None


def show_move(game: str, action: Any, lang: str) -> str:
    """An action as the board shows it in the player's language (the renderer's
    `show_action`; else the notation)."""
    show = getattr(renderer(game), "show_action", None)
    return show(str(action), lang) if show else str(action)


def typed_move(game: str, action: Any, lang: str) -> str:
    """An action as one types it: as the board shows it (`show_move`), its suit signs, which
    no keyboard has, as the letters `lang` types for them (`card.typed.*`: `B♣` → `BKr`,
    `Jk1=♥` → `Jk1=H`), which `read_move` reads back."""
    shown = show_move(game, action, lang)
    signs = {sign: render(f"card.typed.{suit}", {}, lang) for suit, sign in SUIT_SYMBOLS.items() if sign in shown}
    return "".join(signs.get(ch, ch) for ch in shown)


def move_to_type(game: str, action: Any, lang: str) -> str:
    """An action for plain output's lists (`moves`, the moves a word could mean): in words
    where the renderer has them (`say_action`), then what to type ("8 of spades: type 8S",
    „Kreuz-Bube: tippe BKr"); a move whose notation is its words ("signal weak", "pick
    zebra") as one types it.  The notation alone (`8S`, `3x2`, `B♣`) was read "8 S", "3 x 2",
    "B black club suit": the words say the move, and the typed form what to type."""
    typed = typed_move(game, action, lang)
    say = getattr(renderer(game), "say_action", None)
    words = say(str(action), lang) if say else None
    return render("cli.move_to_type", {"words": words, "move": typed}, lang) if words and words != typed else typed


def read_move(game: str, line: str, lang: str) -> str:
    """Typed text → notation: the renderer's `read_action` (a board's own names, such as
    Wildwasser's player letters), else the game's move words and cards in any language
    (core/words.py), so whatever `show_move` shows can be typed back."""
    read = getattr(renderer(game), "read_action", None)
    return read(line, lang) if read else read_words(game, line, lang)


def seat_label(game: str, seat: int, lang: str) -> str:
    """A seat as the board names it (Wildwasser's player letters), else "seat 2": the words
    for inside a line ("resumed …: seat 0: human"); a line that begins with them is
    shown through `sentence` ("Seat 0 – your move")."""
    name = getattr(renderer(game), "seat_name", None)
    return name(seat, lang) if name else render("cli.seat", {"seat": seat}, lang)


def seat_namer(game: str) -> Callable[[int, str], str]:
    """`say_seat` for a message of `game` shown on the terminal (core/messages.py render):
    a seat it names (`{seat:seat}`) as the board names it (`seat_label`: Wildwasser's
    "player B", else "seat 1"), where the catalogue's "seat 1" said the number."""
    return lambda seat, lang: seat_label(game, seat, lang)


def record_seat_namer(path: str | None) -> Callable[[int, str], str] | None:
    """`seat_namer` of the game a record file holds, for a refusal of the record (a
    replay error's "by player B"); None when the file names no game with a board here.
    (Read anew, leniently, as `saved_lang`: it serves where the replay failed.)"""
    if not path:
        return None
    try:
        doc = read_record(path)
        game = doc.get("game") if isinstance(doc, dict) else None
        if not isinstance(game, str):
            return None
        renderer(game)  # a game that is registered and has a board to name its seats
    except WasserspieleError:
        return None
    return seat_namer(game)


def kind_word(kind: str, lang: str) -> str:
    """A seat's kind as the player reads it: a level in the player's language (the web's
    level words: `expert` → "Experte"), a bot or a bot spec as typed (`heuristic`,
    `ismcts:iterations=300`: names the player typed and types again)."""
    return render(f"web.level_{kind}", {}, lang) if kind in level_names() else kind


def search_of(bot: Any) -> Any:
    """The ISMCTS search a bot thinks with (the bot itself, a learned bot's search, either
    with slips: `Blundering.bot`), or None for a bot that does not search."""
    bot = getattr(bot, "bot", bot)
    bot = getattr(bot, "searcher", None) or bot
    return bot if hasattr(bot, "last_stop") else None


@contextmanager
def _net_said_here():
    """While a bot of the table thinks, its search's safety-net warning is not printed by
    logging's last resort (English, on stderr, through the board): the table says it in
    the game's language (`bot_choice`).  A handler the user configured still gets it."""
    logger = logging.getLogger("wasserspiele.bots.ismcts")
    quiet = logging.NullHandler()
    logger.addHandler(quiet)
    try:
        yield
    finally:
        logger.removeHandler(quiet)


def sentence(text: str) -> str:
    """A line that begins with a seat's name, as the terminal shows it: its first letter a
    capital ("seat 0 – your move" → "Seat 0 – your move", "player A (heuristic): …" →
    "Player A (heuristic): …"); German "Platz 0" is one already.  The terminal names seats
    only by their own words (no player typed a name), so the first letter is always the
    seat word's; the web's `sentence` (i18n.js) must leave a typed name alone."""
    return text[:1].upper() + text[1:]


def input_is_a_terminal(stdin: Any = None) -> bool:
    """Whether the player types at an interactive terminal (a closed input is none)."""
    stream = stdin or sys.stdin
    try:
        return stream is not None and stream.isatty()
    except (ValueError, OSError):  # closed
        return False


def line_editing(stdin: Any = None) -> Any:
    """The readline module, loaded, when the player types at an interactive terminal (None
    otherwise): Python's input() then edits the line and recalls earlier moves with the
    arrow keys as a shell does, where without it the arrows typed escape sequences into
    the move."""
    if not input_is_a_terminal(stdin):
        return None
    try:
        import readline
    except ImportError:  # a Python built without it: plain lines
        return None
    return readline


def launcher() -> str:
    """The command as the player typed it (`./dev` or `wasserspiele`)."""
    return os.environ.get(LAUNCHER_ENV) or "wasserspiele"


def said(name: str, value: Any) -> Any:
    """`value` of the running command's option `name` when the player gave it (on the
    command line or by its environment variable, WASSERSPIELE_PLAIN=0 as much as =1),
    None when it is the option's default: a resumed game keeps what its save says unless
    the player says otherwise (`--plain` is a flag whose default, False, said nothing)."""
    ctx = click.get_current_context(silent=True)
    if ctx is None or name not in ctx.params:  # called from Python: the value as given
        return value
    source = ctx.get_parameter_source(name)
    return None if source in (None, ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP) else value


def resume_command(path: str) -> str:
    """The command that continues a save, as the player can type it."""
    return f"{launcher()} play --resume {shlex.quote(str(path))}"


class Quit(Exception):
    """The human asked to stop."""


def parse_seats(text: str | None, players: int, where: str = "--seats") -> list[str]:
    """`human,expert,heuristic` → one seat kind per seat: `human` or a bot spec (a level,
    a bot, `ismcts:iterations=300`; see bots/specs.py).  Default: one human, the rest heuristic.
    `where` names the source in errors (the option, or the save whose seats are read)."""
    if not text:
        return [HUMAN] + ["heuristic"] * (players - 1)
    kinds = seat_texts(text, where)
    if len(kinds) != players:
        raise BadOption(Reason("cli.seats_count", where=where, n=players, given=len(kinds)))
    for k in kinds:
        if k != HUMAN:
            spec = parse_bot_spec(k)
            if spec.kind not in bot_kinds():
                raise BadOption(Reason("cli.seat_kind", where=where, kind=k, bots=", ".join(bot_kinds()),
                                       levels=", ".join(level_names())))
    return kinds


def seat_texts(text: str, where: str = "--seats") -> list[str]:
    """`human,ismcts:iterations=300,easy` → one seat kind per seat, as typed (`seat_kind`).
    An empty entry (`human,,easy`, a comma at either end) is refused naming its place: it
    was dropped, and the game dealt for one player fewer than the player had in mind."""
    entries = text.split(",")
    for at, entry in enumerate(entries):
        if not entry.replace(";", " ").strip():  # `;` and spaces separate specs as commas do
            # its place among the seats: the entries before it may hold several specs or
            # continue one (`ismcts:iterations=300,cpu_seconds=2` is one seat)
            before = split_spec_texts([",".join(entries[:at])])
            raise BadOption(Reason("cli.seats_empty_entry", where=where, n=len(before) + 1))
    return [seat_kind(k.strip()) for k in split_spec_texts([text])]


def seat_kind(text: str) -> str:
    """A seat's spec as typed, its keyword in lower case (`Human`, `EASY`,
    `ISMCTS:iterations=300`, `Python:pkg:Make` → `human`, `easy`, `ismcts:…`, `python:pkg:Make`),
    as bots/specs.py reads a kind: the rest is kept as typed, since a weights file
    (`learned:weights=MyWL.npz`, a bare `MyWL.npz`) or an outside factory (`python:pkg:Make`)
    is found only by its name's own case; an unknown word stays as typed, to be quoted so."""
    kind, sep, rest = text.partition(":")
    low = kind.strip().lower()
    if low == HUMAN or low in level_names() or low in bot_kinds():
        return low + sep + rest
    return text


def players_of_seats(game_name: str, seats: str) -> int:
    """A game for a varying number of players is played by as many as `--seats` names,
    when no `--players` says otherwise (BadOption if the game is not for that many)."""
    n = len(seat_texts(seats))
    lo, hi = manifest(game_name).players
    if not lo <= n <= hi:
        raise BadOption(Reason("cli.seats_range", where="--seats", game=game_name, lo=lo, n=hi, given=n))
    return n


@dataclass
class PlaySession:
    state: State
    kinds: list[str]
    bots: dict[int, Bot]
    save: str | None
    lang: str = "en"
    console: Any = field(default_factory=make_console)
    resumed: bool = False
    save_error: OSError | None = None  # the last save failed (autosave)
    editing: Any = None  # readline while the players type at a terminal (line_editing)
    plain: bool = False  # `--plain`: no styles, no spinner, no clearing (console.make_console)
    # the save as this game last wrote (or, resumed, read) it: (inode, size, mtime) and how
    # many moves it holds; a file found otherwise was replaced by someone else and is kept
    saved_stat: tuple | None = None
    saved_moves: int | None = None
    saved_as: dict | None = None  # the session it holds
    # the moves each bot seat's CPU safety net cut short, the first said (`bot_choice`), and
    # whether a hint's was said: each once a game
    cut_short: dict[int, int] = field(default_factory=dict)
    hint_cut_short: bool = False
    # the outside policies whose state a save could not hold, said once a game each (`policy_states`)
    policy_state_said: set[int] = field(default_factory=set)

    @classmethod
    def create(cls, game_name, players, seats, seed, option_texts, save, resume, lang,
               plain: bool | None = None) -> "PlaySession":
        """A new game, or (`resume`) a saved one with the seats, language and plain output
        it was saved with; `seats` / `lang` / `plain` given explicitly replace the saved ones
        (a `plain` the player did not give, `said`, is the save's)."""
        saved_stat = saved_moves = saved_as = None
        if resume:
            if game_name or option_texts or players:
                raise BadOption(Reason("cli.resume_alone"))
        if save and os.path.lexists(save) and not (resume and same_file(save, resume)):
            # a file this game did not write (a text, another game's save): autosave replaced
            # it at the first move, and quitting before any move wrote over it too; only the
            # save being resumed is this game's own file, and goes on in it
            raise BadOption(Reason("cli.save_exists", path=save))
        if resume:
            if os.path.isfile(resume) and os.path.getsize(resume) == 0:
                # "not valid JSON at line 1, column 1" said nothing of what happened to it
                raise BadRecord(Reason("cli.save_empty", path=resume))
            doc = read_record(resume)
            try:
                state = resume_game(doc, seed)  # the chance still to come (seed N's own game goes on as dealt)
            except BadRecord as exc:  # "host: unknown field" said which file it is in
                raise BadRecord(Reason("cli.in_save", path=resume, problem=exc.reason)) from None
            game = state.game
            if not save or same_file(save, resume):
                saved_stat, saved_moves, saved_as = _stat_of(resume), len(state.history), doc.get("session")
            save = save or resume
            saved_seats, lang_saved, plain_saved = saved_session(doc, game.players, resume)
            plain = said("plain", plain)
            plain = plain_saved if plain is None else plain
            if seats is None and saved_seats is None:
                raise BadOption(Reason("cli.resume_seats", path=resume,
                                       example=",".join([HUMAN] + ["heuristic"] * (game.players - 1))))
            seats_from = "--seats" if seats else f"{resume}: session.seats"
            seats = seats or ",".join(saved_seats)
            lang = lang or lang_saved
        else:
            if not game_name:
                raise BadOption(Reason("cli.name_a_game", command=f"{launcher()} play wasserloch"))
            from .main import parse_options_for
            options = parse_options_for(game_name, option_texts)
            fixed = game_class(game_name).fixed_players
            if players is not None:
                if fixed and players != fixed:
                    raise BadOption(Reason("cli.exact_players", game=game_name, n=fixed))
                # as `arena` refuses them: --players won over --option players= without a word
                if "players" in options and options["players"] != players:
                    raise BadOption(Reason("cli.arena.players_twice", players=players, option=options["players"]))
                if not fixed:
                    options["players"] = players
            elif seats and not fixed and "players" not in options:
                options["players"] = players_of_seats(game_name, seats)
            game = load(game_name, **options)
            state = game.new_game(seed=seed)
        kinds = parse_seats(seats, game.players, seats_from if resume else "--seats")
        specs = {s: parse_bot_spec(k) for s, k in enumerate(kinds) if k != HUMAN}
        # seat order: a set's order follows the hash seed, and with two bad bots the one named changed per run
        for spec in dict.fromkeys(specs.values()):
            check_spec(spec, game)  # a bad bot fails before the game starts, naming it
        seeder = make_rng(seed)
        bots = {s: spec.make(game, seeder.randrange(2**31)) for s, spec in specs.items()}
        if resume:
            # a seat that plays the bot it was saved with goes on from the generators it had
            # drawn to then, as in the game without the break; one given another bot starts
            # from the seed (a bot's draws: `bot_generators`)
            for s, states in saved_bots(doc, resume).items():
                if s in bots and saved_seats is not None and kinds[s] == saved_seats[s]:
                    take_generators(bots[s], states)
            # an outside policy's own state (`getstate`), taken back by its `setstate` after its
            # generators, so that what it keeps itself has the last word
            for s, kept in saved_policy_states(doc, resume).items():
                if s in bots and saved_seats is not None and kinds[s] == saved_seats[s]:
                    give_policy_state(bots[s], kinds[s], s, kept, resume)
        plain = bool(plain)
        return cls(state, kinds, bots, save, lang or "en", console=make_console(plain), resumed=bool(resume),
                   plain=plain, saved_stat=saved_stat, saved_moves=saved_moves, saved_as=saved_as)

    def t(self, key: str, **kw) -> str:
        return render(f"cli.{key}", kw, self.lang)

    def say(self, text: str, whole: bool = False) -> None:
        """A line of the terminal's own (a refusal, a save's path, the moves) as plain text:
        what it quotes (the player's typing, a path) is shown as it is, where rich read
        `[red]` in it as a colour, `[/x]` as a closing tag it failed on (a traceback) and
        `:x:` as an emoji; control characters as escapes (`printable`).  The renderers'
        boards and news carry markup of their own and are printed as such.
        A `whole` line (one that ends in a command to copy) is never broken by rich: a
        newline before the save's path, copied with the command, ran it without the path;
        the terminal folds it on screen and copies it as one line."""
        self.console.print(printable(text), markup=False, emoji=False, soft_wrap=whole)

    def seat_name(self, seat: int) -> str:
        return seat_label(self.state.game.name, seat, self.lang)

    def show(self, action: Any) -> str:
        return show_move(self.state.game.name, action, self.lang)

    def said(self, action: Any) -> str:
        """A move of the hint as the board shows it; plain, as the move lists say it
        (`move_to_type`): in words, then what to type ("play two 3s: type 3x2", „Kreuz-Bube:
        tippe BKr").  Plain said the notation first ("B♣ – Kreuz-Bube"), its suit sign read
        "black club suit", and no keyboard types it."""
        if self.plain:
            return move_to_type(self.state.game.name, action, self.lang)
        return self.show(action)

    def listed(self, actions: list) -> str:
        """Moves for a list (`moves`, an ambiguous word's): as the board shows them; plain,
        each in words and with what to type (`move_to_type`), separated by semicolons, since
        a move's words may hold commas ("slide 2 king of diamonds, ace of clubs")."""
        if not self.plain:
            return ", ".join(self.show(a) for a in actions)
        return "; ".join(move_to_type(self.state.game.name, a, self.lang) for a in actions)

    def read(self, line: str) -> str:
        return read_move(self.state.game.name, line, self.lang)

    @property
    def humans(self) -> list[int]:
        return [s for s, k in enumerate(self.kinds) if k == HUMAN]

    def run(self, verbose: bool = False) -> int:
        """Play to the end; 0 when finished, 130 when stopped early."""
        r = renderer(self.state.game.name)
        self.editing = self.editing or line_editing()
        if self.resumed:
            seats = ", ".join(f"{self.seat_name(s)}: {self.t('human') if k == HUMAN else self.kind(s)}"
                              for s, k in enumerate(self.kinds))
            self.say(self.t("resumed", game=self.state.game.title, n=len(self.state.history), seats=seats))
        try:
            while not self.state.is_terminal():
                seat = self.state.current_seat
                if self.kinds[seat] == HUMAN:
                    action = self.ask(seat, r)
                else:
                    action = self.bot_choice(seat)
                    if verbose and not self.humans:
                        self.say(sentence(self.t("bot_move", who=self.seat_name(seat), kind=self.kind(seat),
                                                           action=self.show(action))))
                self.state.apply(action, seat)
                self.autosave()
                if self.kinds[seat] == HUMAN:
                    self.narrate_own(seat, r)
        except (Quit, KeyboardInterrupt, EOFError, click.Abort, OSError) as stop:
            # the terminal hung up (its window closed, an ssh connection dropped: EIO on a board's
            # write, end of input on the prompt's read, the SIGHUP itself) or stdout's pipe lost its
            # reader (EPIPE): ended as an interrupt ends it, saved, where it ended in an OSError's
            # traceback; what is said from here goes nowhere, and the SIGHUP that comes after
            # (under a shell, once the shell has ended) does not cut the save short
            if isinstance(stop, OSError) and not lost_output(stop):
                raise
            lost = detach_lost_output()
            if lost:
                hung_up()
            self.console.print()
            if not self.up_to_date():
                self.autosave()
            # Ctrl-D at a terminal is a person leaving, as a typed quit is, and is asked as
            # one; the end of a pipe's input or a terminal gone has no one to answer
            # (click's prompt reraises the end of input as Abort, the EOFError its context)
            ended = EOFError in (type(stop), type(stop.__context__))
            self.keep(ask=isinstance(stop, Quit) or (ended and not lost and input_is_a_terminal()))
            return 0 if isinstance(stop, Quit) else 130
        view = self.state.view(self.humans[0] if len(self.humans) == 1 else None)
        news = drawn(r.describe_last, view, self.lang, None, self.plain)  # the moves that ended the game
        if news:
            self.console.print(news)
        self.console.print(drawn(r.render_view, view, self.lang, self.console.width, self.plain))
        self.console.print(drawn(r.render_result, view, self.lang, self.console.width, self.plain))
        self.say_cut_short()
        return 0

    def kind(self, seat: int) -> str:
        return kind_word(self.kinds[seat], self.lang)

    def bot_choice(self, seat: int) -> Any:
        """The bot's move for `seat`; on a terminal a spinner says who is thinking while it
        searches ("Seat 1 (expert) is thinking …"), since an expert's second, or Seven
        Waters' longer, looked like a hung game.  Then its move is told as before."""
        text = sentence(self.t("thinking", who=self.seat_name(seat), kind=self.kind(seat)))
        search = search_of(self.bots[seat])
        with thinking(self.console, text, plain=self.plain), _net_said_here():
            action = self.bots[seat].choose(decision_for(self.state, seat))
        if search is not None and search.last_stop == "cpu_seconds":
            # the search's CPU safety net fired (bots/ismcts.py; a spec without cpu_seconds keeps
            # the default): the player waited that long and is told why, in the game's language,
            # once a game for the seat (a slow machine's net fires at every move: a line a move);
            # the moves cut short are counted at the end (`say_cut_short`)
            self.cut_short[seat] = self.cut_short.get(seat, 0) + 1
            if self.cut_short[seat] == 1:
                self.say(sentence(self.t("thinking_cut_short", who=self.seat_name(seat), kind=self.kind(seat),
                                         seconds=search.cpu_net,
                                         done=search.last_iterations, iterations=search.iterations)))
        return action

    def say_cut_short(self) -> None:
        """At the game's end: how many moves each seat's safety net cut short, where it cut
        more than the one said as it happened."""
        for seat, n in sorted(self.cut_short.items()):
            if n > 1:
                self.say(sentence(self.t("cut_short_total", who=self.seat_name(seat), kind=self.kind(seat), n=n)))

    def narrate_own(self, seat: int, r) -> None:
        """The result of a human's own move ("You played 5x3 and drove off the 4s …")."""
        own = getattr(r, "describe_own", None)
        if own is not None:
            text = drawn(own, self.state.view(seat), self.lang, None, self.plain)  # plain: Seven Waters' `+` in words
            if text:
                self.console.print(text)

    def session(self) -> dict[str, Any]:
        """What the record needs besides the game to resume it as it was: a player who
        chose plain output for a screen reader gets it again on resuming (`plain` only
        then: a styled game's save is as it was before plain output was kept); the bots'
        generators as they are (`bots`: seat → `generator_states`), so that they go on
        as they would have (a bot made afresh draws its seed's first numbers again); an
        outside policy's own state (`policy_states`: seat → its `getstate()`) likewise."""
        bots = {str(s): states for s, bot in sorted(self.bots.items()) if (states := generator_states(bot))}
        policies = self.policy_states()
        return {"seats": list(self.kinds), "lang": self.lang, **({"plain": True} if self.plain else {}),
                **({"bots": bots} if bots else {}), **({"policy_states": policies} if policies else {})}

    def policy_states(self) -> dict[str, Any]:
        """The state of each outside policy that keeps one (`getstate`), per seat, for the
        save's `policy_states`.  One whose `getstate` fails, or gives what JSON cannot hold
        as it is, is left out (the game is saved all the same, and that policy starts afresh
        on resuming), and the player is told once a game which seat's and why: a traceback
        would have lost the game, and silence a resumed game that goes another way."""
        states: dict[str, Any] = {}
        for seat, bot in sorted(self.bots.items()):
            if not keeps_state(bot, self.kinds[seat]):
                continue
            state, problem = policy_state(bot)
            if problem is None:
                states[str(seat)] = state
            elif seat not in self.policy_state_said:
                self.policy_state_said.add(seat)
                self.say(sentence(self.t("policy_state_unsaved", who=self.seat_name(seat), kind=self.kind(seat),
                                         why=problem.render(self.lang))))
        return states

    def write(self, path: str) -> None:
        """The game and its session into `path` (`write_record`); OSError if it fails.  A file
        renamed over `path` is this game's save also when an interrupt comes as it is written
        (after the rename, before its stat was taken): the save on the way out took it for
        another program's ("replaced by another file", the game not saved; CI, a Ctrl-C that
        reached an autosave)."""
        session = self.session()
        before = _stat_of(path)
        try:
            write_record(self.state, path, session)
        finally:
            now = _stat_of(path)
            if now is not None and now != before:
                self.saved_stat, self.saved_moves, self.saved_as = now, len(self.state.history), session

    def up_to_date(self) -> bool:
        """Whether the save already holds this game and session as they are (nothing was
        played since it was written, and the file is still the one written): stopping then
        writes nothing, so that a disk filled meanwhile does not turn a good save into a
        failed one."""
        return (self.save_error is None and self.saved_stat is not None
                and self.saved_moves == len(self.state.history) and self.saved_as == self.session()
                and _stat_of(self.save) == self.saved_stat)

    def replaced(self) -> bool:
        """Whether the save is no longer the file this game wrote: something else (another
        game saved to the same file, an editor) replaced it, and overwriting it would lose
        that.  A save deleted meanwhile is written anew."""
        if self.saved_stat is None:
            return False
        now = _stat_of(self.save)
        return now is not None and now != self.saved_stat

    def autosave(self) -> None:
        """Save after every move.  A save that fails (a full disk, a read-only folder, a
        folder where the file was) or that something else replaced is said once, in the
        player's language, and the game goes on: each move tries again, and on quitting the
        player may name another file (`keep`).  Losing the game to a traceback would be
        worse than playing it unsaved."""
        if not self.save:
            return
        if self.replaced():
            if not isinstance(self.save_error, SaveReplaced):
                self.say(self.t("save_replaced", path=self.save))
            self.save_error = SaveReplaced()
            return
        try:
            self.write(self.save)
        except OSError as exc:
            if self.save_error is None:
                self.say(self.t("save_failed", path=self.save, error=_cause(exc, self.lang)))
            self.save_error = exc
        else:
            self.save_error = None

    def keep(self, ask: bool) -> None:
        """On stopping: say where the game is saved and how to go on; when the save failed
        and the player typed the quit or Ctrl-D at a terminal (`ask`: not a Ctrl-C, a
        closed pipe or a SIGTERM, where no one waits for a question), ask for another file
        until one is written or the player answers nothing.  A game started without --save
        that the player so quits after a move of their own, before its end, is offered a
        file the same way: the quit lost it, said only afterwards ("start with --save FILE")."""
        unsaved = (ask and not self.save and not self.state.is_terminal()
                   and any(0 <= seat < len(self.kinds) and self.kinds[seat] == HUMAN
                           for seat, _, _ in self.state.history))
        while ask and (unsaved or (self.save and self.save_error is not None)):
            # the question a line rich folds to the terminal's width, the prompt short
            self.say(self.t("save_where" if unsaved else "save_elsewhere"))
            try:
                other = self.ask_line(self.t("file_prompt"), suffix="> ").strip()
            except (KeyboardInterrupt, EOFError, click.Abort):
                self.console.print()
                break
            # the quit typed again (`quit`, `q`, `ende`) is an answer, not a file's name
            if not other or command_word(other.lower()) == "quit":
                break
            other = os.path.expanduser(other)
            # a folder typed, a file where its folder should be, a full disk: said before writing;
            # a file there already is kept, as `--save` keeps it (but for this game's own save)
            if os.path.isdir(other):
                problem = Reason("cli.path.cause.is_a_folder")
            elif os.path.lexists(other) and not (self.save and same_file(other, self.save) and not self.replaced()):
                problem = Reason("cli.save_other_file")
            else:
                problem = write_problem(other)
            error = problem.render(self.lang) if problem else None
            if error is None:
                try:
                    self.write(other)
                except OSError as exc:
                    error = _cause(exc, self.lang)
            if error is None:
                self.save, self.save_error, unsaved = other, None, False
            else:
                self.say(self.t("save_failed_again", path=other, error=error))
        if not self.save:
            self.say(self.t("not_saved"))
        elif self.save_error is None:
            self.say(self.t("saved", path=self.save, command=resume_command(self.save)), whole=True)
        elif self.saved_moves is not None and not isinstance(self.save_error, SaveReplaced):
            # the last good save is still there, and resumes the game as it was then
            self.say(self.t("save_behind", path=self.save, n=self.saved_moves, played=len(self.state.history),
                            command=resume_command(self.save)), whole=True)
        else:
            self.say(self.t("save_lost", path=self.save))

    def hint(self, seat: int, alternatives: int = 3) -> str:
        """The expert bot's choice for `seat` and its best alternatives, each with what the
        search expects of it in words."""
        from ..bots.levels import bot_for_level
        bot = bot_for_level("expert", self.state.game, seed=len(self.state.history))
        decision = decision_for(self.state, seat)
        # a guided expert (bots/levels.py) searches through its ISMCTS; a move made by
        # convention (a Watten signal) has no searched value to show
        searcher = getattr(bot, "searcher", None) or bot
        searched = hasattr(searcher, "search") and getattr(searcher, "conventional", lambda d: None)(decision) is None
        # the expert's search takes its second here too; its safety net is said here, in the
        # game's language (logging's last resort said it in English on stderr at every hint)
        with thinking(self.console, self.t("hint_thinking"), plain=self.plain), _net_said_here():
            choices = searcher.search(decision) if searched else []
            lines = [self.t("hint_line", action=self.said(c.action), visits=c.visits, share=c.value)
                     for c in choices[:alternatives + 1]]
            best = None if lines else self.said(bot.choose(decision))
        said = (self.t("hint_plain", best=best) if best is not None else
                self.t("hint", best=lines[0], others="\n    ".join([""] + lines[1:]) if lines[1:] else " " + self.t("none")))
        search = search_of(bot)
        if search is not None and search.last_stop == "cpu_seconds" and not self.hint_cut_short:
            self.hint_cut_short = True  # once a game: a slow machine's net fires at every hint
            said += "\n" + self.t("hint_cut_short", seconds=search.cpu_net, done=search.last_iterations,
                                   iterations=search.iterations)
        return said

    def help(self, r, legal) -> str:
        """How to move, the commands, the move words and the game's legend, in the player's language."""
        commands = ", ".join(self.t(f"cmd.{c}") for c in COMMANDS)
        lines = [escape(self.t("help", example=self.show(legal[0]), commands=commands))]
        game = self.state.game.name
        if self.lang != "en":
            words = [f"{w} = {alternatives(f'{game}.word.{w}', self.lang)[0]}"
                     for w in _word_entries(game)]
            if words:
                lines.append(escape(self.t("help_words", words=", ".join(words))))
        legend = getattr(r, "legend", None)
        if legend is not None:
            lines.append(legend(self.state.view(None), self.lang))
        return "\n".join(lines)

    def ask(self, seat: int, r) -> Any:
        """Show `seat` its view and read a legal action."""
        hotseat = len(self.humans) > 1
        if hotseat:
            if self.plain:
                # no clearing: a screen reader (or braille display) loses its place in a
                # cleared screen and the game's log with it; the player chose --plain
                # knowing that the last hand stays a scroll away (README, --help)
                self.console.print()
            else:
                clear_screen(self.console)
            if self.editing is not None:  # the arrow keys must not recall the last player's moves
                self.editing.clear_history()  # (a secret pick among them)
            answer = self.ask_line(sentence(self.t("pass_to", who=self.seat_name(seat))))
            if command_word(answer.strip().lower()) == "quit":  # players stopping at the hand-over
                raise Quit                                       # need not first see the next hand
        view = self.state.view(seat)
        news = drawn(r.describe_last, view, self.lang, None, self.plain)
        if news:
            self.console.print(news)
        self.console.print(drawn(r.render_view, view, self.lang, self.console.width, self.plain))
        legal = self.state.legal_actions(seat)
        order = getattr(r, "order_moves", None)
        if order is not None:  # as the board shows them (the engine's order may be the deal's)
            legal = order(view, legal)
        while True:
            line = click.prompt(self.prompt(seat), default="", show_default=False, prompt_suffix="> ").strip()
            if not line:
                continue
            # A move the player may make comes first: the commands' one-letter forms are
            # also move words (`h` names hearts while trump is called, `t` a ten).
            action, problem = self.understand(line, seat, legal)
            if action is not None:
                return action
            command = command_word(line.lower())
            if command == "quit":
                raise Quit
            if command == "help":
                self.console.print(self.help(r, legal))
            elif command == "moves":
                self.say(self.t("moves", moves=self.listed(legal)))
            elif command == "hint":
                # Ctrl-C while the expert searches cancels the hint, not the game: it ended
                # the game there, unsaved without --save (a SIGTERM or a hangup still ends it)
                try:
                    said = self.hint(seat)
                except KeyboardInterrupt as stop:
                    if isinstance(stop, Stopped):
                        raise
                    self.console.print()
                    said = self.t("hint_cancelled")
                self.say(said)
            else:
                self.say(problem)

    def ask_line(self, question: str, suffix: str = " ") -> str:
        """A line typed after `question`; a question longer than the terminal's line is
        said as a line rich folds between words, and the prompt is `>` alone: click writes
        a prompt as it is, and the terminal broke it inside a word at its edge (the
        hand-over's "… when only you are lo|oking at the screen" at 40 columns)."""
        if len(question) + len(suffix) > self.console.width:
            self.say(question)
            question, suffix = "", "> "
        return click.prompt(question, default="", show_default=False, prompt_suffix=suffix)

    def prompt(self, seat: int) -> str:
        """The prompt, with the commands' names where they fit on the terminal's line: at 40
        columns the prompt was 46 to 49 characters, and the cursor wrapped onto the next
        row at every turn (the commands are in `help`, which the refusals name)."""
        who = self.seat_name(seat)
        full = sentence(self.t("prompt", who=who))
        return full if len(full) + 12 <= self.console.width else sentence(self.t("prompt_short", who=who))

    def understand(self, line: str, seat: int, legal: list) -> tuple[Any, str | None]:
        """The legal action `line` names, or None and what to tell the player: a refusal
        with the rule's reason, the moves it could mean, or that it is no move."""
        if len(line) > MAX_TEXT:
            # longer than any move of any game: refused before the notation's parsers read it
            # (thousands of digits were a traceback), and not quoted back a screen long
            error = render("record.action_too_long", {"n": len(line), "limit": MAX_TEXT}, self.lang)
            return None, self.t("not_understood", error=error)
        text = self.read(line)
        try:
            action = self.state.game.parse_action(text)
        except BadNotation as exc:
            # the last words of a move in its notation, or as the board shows it (Wildwasser's
            # `marker D` is `marker 3`)
            fits = fitting(text, legal) or fitting(line, legal, self.show)
            if len(fits) == 1:
                return fits[0], None
            if fits:
                return None, self.t("ambiguous", text=line, moves=self.listed(fits))
            # A short form of a move that is not legal now (`zebra`, the card played
            # already; `6-1`, a card still covered): told it was "no Wildwasser action",
            # the word the game taught.  Read with the verb it leaves out, it is refused
            # with the rule's reason, as the whole move is.
            meant = short_form(self.state, text, legal)
            if meant is not None:
                return self.judge(meant, seat)
            # the game's reason in the player's language; it quotes what the player
            # typed, not the notation read from it (`nehmen`, not `take`; `7♠`, not `7S`):
            # the whole text, or a word of it, read word for word
            reason = exc.shown(line)
            typed = dict(zip(text.split(), line.split())) if len(text.split()) == len(line.split()) else {}
            params = {k: line if v == text else typed.get(v, v) if isinstance(v, str) else v
                      for k, v in reason.params.items()}
            error = render(reason.code, params, self.lang, say_seat=seat_namer(self.state.game.name))
            return None, self.t("not_understood", error=error, text=line)
        return self.judge(action, seat)

    def judge(self, action: Any, seat: int) -> tuple[Any, str | None]:
        """`action` if `seat` may make it now, else None and the refusal with the rule's reason."""
        reason = self.state.why_illegal(action, seat)
        if reason:
            say_card = getattr(renderer(self.state.game.name), "say_card", None) if self.plain else None
            # plain: the cards it names in words (`J♣ in hand` was read "J black club suit");
            # the seats it names as the board names them ("player B", not "seat 1")
            return None, self.t("refused", reason=reason.render(self.lang, say_card, seat_namer(self.state.game.name)))
        return action, None


def fitting(text: str, legal, name=str) -> list:
    """The legal moves whose name (their notation, or `name` of them) ends with the words
    of `text`: a move named by what it moves or takes alone (`cheetah` for `pick cheetah`,
    `7-3` for `take 7-3`), as players type when the phase leaves one verb.
    Several fits are asked back, never guessed."""
    words = text.casefold().split()
    n = len(words)
    return [a for a in legal if name(a).casefold().split()[-n:] == words]


def short_form(state, text: str, legal) -> Any:
    """The one action `text` names read as a move whose leading verb it leaves out (as
    `fitting` reads a legal move), among the verbs of the legal moves and of the moves
    made so far (`signal` once the signals are over); None if no verb or several make an
    action of it."""
    n = len(text.split())
    verbs = dict.fromkeys(w[0] for w in (str(a).split() for a in (*legal, *(e[1] for e in state.history)))
                          if len(w) > n)
    meant = []
    for verb in verbs:
        try:
            meant.append(state.game.parse_action(f"{verb} {text}"))
        except BadNotation:
            continue
    return meant[0] if len(meant) == 1 else None


def _word_entries(game: str) -> list[str]:
    """The notation words of `game` that have catalogue translations."""
    from ..core.messages import catalogue
    prefix = f"{game}.word."
    return [code[len(prefix):] for code in catalogue("en").entries if code.startswith(prefix)]


def saved_lang(path: str | None) -> str | None:
    """The language a terminal save was played in, when the file names one we speak
    (None for no save, an unreadable file, a plain record): a resume refused without
    `--lang` is refused in it, as the game would have gone on in it.  (Read anew, leniently:
    it serves when the save failed to load, where `saved_session` was never reached.)"""
    if not path:
        return None
    try:
        doc = read_record(path)
    except WasserspieleError:
        return None
    session = doc.get("session") if isinstance(doc, dict) else None
    lang = session.get("lang") if isinstance(session, dict) else None
    return lang if isinstance(lang, str) and lang in LANGS else None


def saved_session(doc: Any, players: int, path: str) -> tuple[list[str] | None, str | None, bool]:
    """The seats, language and plain output a terminal save records (None, None, False for
    a plain record; a save from before `plain` was kept is not plain); BadOption naming the
    field when they are malformed.  `doc` has replayed: the record's schema has checked
    that a session is an object."""
    session = doc.get("session")
    if session is None:
        return None, None, False
    seats, lang, plain = session.get("seats"), session.get("lang", "en"), session.get("plain", False)
    if not (isinstance(seats, list) and len(seats) == players and all(isinstance(k, str) for k in seats)):
        raise BadOption(Reason("cli.session_seats", path=path, n=players))
    if not isinstance(lang, str):
        raise BadOption(Reason("cli.session_lang", path=path, langs=", ".join(LANGS)))
    if lang not in LANGS:  # the text as the save holds it, quoted by the catalogue
        raise BadOption(Reason("cli.session_lang_unknown", path=path, lang=lang, langs=", ".join(LANGS)))
    if not isinstance(plain, bool):
        raise BadOption(Reason("cli.session_plain", path=path))
    return seats, lang, plain


def bot_generators(bot: Any) -> list[random.Random]:
    """Every generator `bot` draws from, in a fixed order: its own and those of the bots it
    holds (a search's heuristic rollouts and ranker, a level's blundering bot, a learned
    bot's search): `bots.base.parts`.  A bot's draws are all it carries from one move to
    the next, so these generators, saved and taken up again, make a resumed bot go on as it
    would have.  An outside policy (`python:…`) may keep a state of its own besides, saved
    through its `getstate` / `setstate` (`policy_states`)."""
    return [p for p in parts(bot) if isinstance(p, random.Random)]


MT_WORDS = 625  # the Mersenne Twister's state: 624 words and the position in them (random.getstate)


def generator_states(bot: Any) -> list[dict[str, Any]]:
    """`bot_generators(bot)` as JSON: each generator's words as base64 of little-endian
    32-bit numbers (3.3 KB; as a list of numbers, 625 lines of the indented save), and the
    normal variate it holds back, if any."""
    states = []
    for rng in bot_generators(bot):
        _, words, gauss = rng.getstate()  # (version 3, the words, a held-back normal variate)
        state: dict[str, Any] = {"mt": base64.b64encode(struct.pack(f"<{MT_WORDS}I", *words)).decode("ascii")}
        if gauss is not None:
            state["gauss"] = gauss
        states.append(state)
    return states


def take_generators(bot: Any, states: list[tuple]) -> bool:
    """Set `bot`'s generators to `states` (`saved_bots`' form); False, and the bot left as
    made, when they are not as many as it has (a save of another version of the bot)."""
    generators = bot_generators(bot)
    if len(generators) != len(states):
        return False
    for rng, state in zip(generators, states):
        rng.setstate(state)
    return True


def saved_bots(doc: Any, path: str) -> dict[int, list[tuple]]:
    """The bots' generators a terminal save records (`generator_states`), per seat, as
    `random.Random.setstate` takes them ({} for a save without them); BadOption naming the
    field when they are malformed (an edited save)."""
    session = doc.get("session") if isinstance(doc, dict) else None
    bots = session.get("bots") if isinstance(session, dict) else None
    if bots is None:
        return {}
    found: dict[int, list[tuple]] = {}
    try:
        if not isinstance(bots, dict):
            raise ValueError
        for seat, states in bots.items():
            if not (seat.isdigit() and isinstance(states, list)):
                raise ValueError
            found[int(seat)] = [_generator_state(state) for state in states]
    except (ValueError, TypeError, struct.error, binascii.Error):
        raise BadOption(Reason("cli.session_bots", path=path)) from None
    return found


def _generator_state(state: Any) -> tuple:
    if not isinstance(state, dict) or set(state) - {"mt", "gauss"} or not isinstance(state.get("mt"), str):
        raise ValueError
    words = struct.unpack(f"<{MT_WORDS}I", base64.b64decode(state["mt"], validate=True))
    gauss = state.get("gauss")
    if words[-1] > MT_WORDS - 1 or not (gauss is None or isinstance(gauss, float)):
        raise ValueError  # a position past the words: setstate's own refusal would be a traceback
    return 3, words, gauss


def keeps_state(bot: Any, kind: str) -> bool:
    """Whether the bot of a seat of `kind` is an outside policy (`python:…`) that keeps a
    state of its own with the pair of methods `random.Random` has: `getstate()` returning
    it (as JSON) and `setstate(state)` taking it back (docs/bots.md).  Built-in bots are
    saved by their generators (`bot_generators`); a policy without the pair, or with only
    one of them, starts afresh on resuming, as before."""
    return (kind != HUMAN and parse_bot_spec(kind).kind == "python"
            and callable(getattr(bot, "getstate", None)) and callable(getattr(bot, "setstate", None)))


def policy_state(bot: Any) -> tuple[Any, Reason | None]:
    """The outside policy's `getstate()` as the save holds it, or None and why it cannot
    be saved: `getstate` raised, or its state is not JSON, or JSON would read it back as
    something else (a tuple as a list, a number key as a text), which `setstate` would
    then be handed instead of its own state."""
    try:
        state = bot.getstate()
    except Exception as exc:  # the policy's own code: any failure of it is its problem, said
        return None, Reason("cli.policy_state_raised", error=f"{type(exc).__name__}: {exc}")
    try:
        back = json.loads(json.dumps(state, allow_nan=False))  # NaN and infinities are no JSON
    except (TypeError, ValueError, RecursionError) as exc:  # a set, an object, a cycle, too deep
        return None, Reason("cli.policy_state_not_json", error=str(exc))
    if back != state:
        return None, Reason("cli.policy_state_changed")
    return back, None


def saved_policy_states(doc: Any, path: str) -> dict[int, Any]:
    """The outside policies' states a terminal save records (`policy_states`: seat → what
    `getstate` returned), per seat ({} for a save without them, as every save from before
    they were kept); BadOption naming the field when it is malformed (an edited save).
    A state itself may be any JSON: only its policy's `setstate` can judge it."""
    session = doc.get("session") if isinstance(doc, dict) else None
    policies = session.get("policy_states") if isinstance(session, dict) else None
    if policies is None:
        return {}
    if not (isinstance(policies, dict) and all(seat.isascii() and seat.isdigit() for seat in policies)):
        raise BadOption(Reason("cli.session_policy_states", path=path))
    return {int(seat): state for seat, state in policies.items()}


def give_policy_state(bot: Any, kind: str, seat: int, state: Any, path: str) -> None:
    """Hand an outside policy the state its save kept for it (`setstate`); a policy that no
    longer keeps one starts afresh.  A state it refuses (an edited save, a save of another
    version of the policy) is a BadOption naming the seat and the file, not a traceback."""
    if not keeps_state(bot, kind):
        return
    try:
        bot.setstate(state)
    except Exception as exc:  # the policy's own code says why, in its own words
        raise BadOption(Reason("cli.session_policy_refused", path=path, seat=seat, kind=kind,
                               error=f"{type(exc).__name__}: {exc}")) from None


class SaveReplaced(OSError):
    """The save file was replaced by something else since the game wrote it (`replaced`)."""


def _cause(exc: OSError, lang: str) -> str:
    """Why a save could not be written, in the player's language where the catalogue
    names the cause (a full disk, a read-only file system), else the system's words (the
    system's own, "Read-only file system", were English under --lang de)."""
    return cause(getattr(exc, "error", exc)).render(lang)  # a WriteFailed carries the OSError


def same_file(path: str, other: str) -> bool:
    """Whether two paths name one file (the same path written two ways, or a link to it)."""
    if os.path.abspath(path) == os.path.abspath(other):
        return True
    try:
        return os.path.samefile(path, other)
    except (OSError, ValueError):  # either missing: not one file
        return False


def _stat_of(path: str | None) -> tuple | None:
    """What tells one file at `path` from another written there since (None: no file)."""
    try:
        st = os.stat(path)
    except (OSError, TypeError, ValueError):
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns
