"""The `wasserspiele` command: play, replay, rules, games.

Exit status (every command; records.md, Exit status): 0 success; 1 a record whose action is
illegal (`replay`, `play --resume`); 2 bad input (unknown game, bad option, malformed
record, Click's usage errors, an output path that cannot be written when the command line is read);
3 a worker process died under a run (`lab`, `lab tune`, `arena`: the games that finished are kept and
reported); 4 an output could not be written once the work was done (a full disk, a folder made
read-only or replaced by a file meanwhile: `lab`, `lab tune`, `lab render`, `leaderboard`, `train`,
`corpus`; one line names the file, the cause and what was kept); 130 interrupted: Ctrl-C, SIGTERM, or SIGHUP
(the terminal closed: what is said after it is dropped, the files are written; cli/entry.py) (but `serve`,
for which Ctrl-C is the way to stop: 0, docs/web-server.md, Stopping).
"""

from __future__ import annotations

import errno
import io
import json
import os
import sys
import textwrap
from pathlib import Path
from typing import Any

import click

from ..core.errors import BadOption, BadRecord, ReplayError, WasserspieleError
from ..core.messages import Reason, catalogue, render
from ..core.options import parse_option_texts
from ..core.registry import game_class, manifests
from ..core.rules_text import terminal_rules
from .language import Argument, LanguageGroup, RootLangOption
from .flags import WHOLE, writable


# The exit statuses every command shares (records.md, Exit status): a refused document or
# command line is Click's usage status; an action a record holds that the rules refuse is 1,
# whether `replay` or `play --resume` reads it.
ILLEGAL_RECORD = 1
REFUSED = 2
# the work was done but its output could not be written (core/paths.py WriteFailed): not the
# user's input (2), and the run did not succeed (0)
CANNOT_WRITE = 4
# Set (to 1, true, yes) for `play --plain` in every game: a screen reader's user sets it
# once in the shell's profile rather than typing the option at each game.
PLAIN_ENV = "WASSERSPIELE_PLAIN"


class UsageFailure(click.ClickException):
    """A refused command line: exit 2 with the message, said in the command's language
    (`message` a Reason, or plain text)."""

    exit_code = REFUSED

    def __init__(self, message: str, lang: str = "en"):
        super().__init__(in_lang(message, lang))
        self.lang = lang

    def show(self, file=None) -> None:
        click.echo(error_line(self.format_message(), self.lang), file=file, err=True)


class WriteFailure(UsageFailure):
    """An output that could not be written once the work was done (core/paths.py
    WriteFailed): exit 4, the file, the cause and what was kept in one line."""

    exit_code = CANNOT_WRITE


def error_line(error: str, lang: str) -> str:
    """A refusal as the terminal shows it ("Error: …"), with any control character it
    quotes from the command line or a file (an escape sequence in a save someone sent)
    written as an escape, not sent to the terminal: quoting by the catalogue's `quote`
    rather than repr shows the text as typed, and repr was what escaped them."""
    from .console import printable  # rich: loaded when a command shows something, not to start
    return printable(render("cli.error", {"error": error}, lang))


def in_lang(error: Any, lang: str) -> str:
    """An error (or a Reason, or text) in `lang`: a refusal's Reason rendered, else its text."""
    reason = getattr(error, "reason", error)
    return reason.render(lang) if isinstance(reason, Reason) else str(error)


def _fail(message: str, lang: str = "en") -> "UsageFailure":
    return UsageFailure(message, lang)


def _lang_of_the_command(ctx: click.Context, param: click.Parameter, lang: str | None) -> None:
    """`wasserspiele --lang de games` speaks as `wasserspiele games --lang de` does: the
    language is the default of the command's own `--lang` (which, later on the line, wins)."""
    if lang is not None:
        ctx.default_map = {name: {"lang": lang} for name in ctx.command.commands}


class Commands(LanguageGroup):
    """The command group: an output that a command's stdout could not take is said as a file
    that could not be written is (exit 4)."""

    def invoke(self, ctx: click.Context):
        """stdout on a full disk (`arena … > table.txt`): one line and exit 4, where OSError's
        traceback was, and Python's own "Exception ignored" as it flushed stdout again at exit."""
        try:
            return super().invoke(ctx)
        except OSError as exc:
            # a file's failure names the file (and the commands say theirs: core/paths.py WriteFailed);
            # the one without a name that a full disk ends a command with is its stdout's
            if exc.errno not in STDOUT_LOST or exc.filename is not None:
                raise
            _drop_stdout()
            from ..core.paths import cause
            from .language import current_lang
            lang = current_lang()
            said = render("cli.path.write_failed", {"path": Reason("cli.path.stdout"), "problem": cause(exc)}, lang)
            click.echo(error_line(said, lang), err=True)
            ctx.exit(CANNOT_WRITE)


# what a full disk raises (the quota's and the largest file's too): an interrupted pipe (EPIPE)
# is no failure of the command's
STDOUT_LOST = (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC), errno.EFBIG)  # no EDQUOT on Windows


def _drop_stdout() -> None:
    """Point stdout, which a full disk refused, at the null device: what it still holds would be
    flushed again at exit, and fail again with Python's "Exception ignored" and status 120."""
    try:
        sys.stdout.flush()
    except OSError:
        pass
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, io.UnsupportedOperation):  # a stdout without a descriptor (a test's)
        pass


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="wasserspiele")
@click.option("--lang", cls=RootLangOption, type=click.Choice(["en", "de"]), expose_value=False,
              callback=_lang_of_the_command)  # its help names the commands it sets (RootLangOption)
def main() -> None:
    """Play, replay and study tabletop games (`wasserspiele games` lists them)."""


@main.command("games")
@click.option("--lang", type=click.Choice(["en", "de"]), default="en", show_default=True,
              help="language of the titles and option help")
def games_cmd(lang) -> None:
    """List the games, their seats, notation and options."""
    def t(code: str, **params) -> str:
        return render(f"cli.games.{code}", params, lang)

    from .console import make_console
    console = make_console()
    # a terminal gets each line folded between words at its width, its rest indented
    # under the line's text (the terminal broke a notation of 250 characters inside its
    # words); a pipe or a file gets each line whole, to grep
    width = console.width if console.is_terminal else None

    def echo(line: str, indent: int) -> None:
        if width is not None and len(line) > width:
            line = textwrap.fill(line, width, subsequent_indent=" " * min(indent, width // 2),
                                 break_long_words=False, break_on_hyphens=False)
        click.echo(line)

    for m in manifests():
        lo, hi = m.players
        click.echo(t("game", name=m.name, title=m.title.get(lang, m.title["en"]), n=hi,
                     players=lo if lo == hi else f"{lo}-{hi}"))
        notation = catalogue(lang).text(f"{m.name}.ui.notation") or m.notation  # explained in `lang`
        echo(f"    {t('moves', notation=notation)}", 6)
        default = t("default")
        for opt in m.options:
            explained = catalogue(lang).text(f"option.{m.name}.{opt.name}") or opt.help
            if width is not None and width < 60:  # no room for the columns: each option's text under it
                echo(f"    {opt.name}: {default} {json.dumps(opt.default)}; {opt.describe()}", 8)
                echo(f"        {explained}", 8)
            else:
                echo(f"    {opt.name:<20} {default} {json.dumps(opt.default):<12} {opt.describe()}", 25)
                echo(f"    {'':<20} {explained}", 25)


class PlayLangOption(click.Option):
    """play's `--lang`, which has no default of its own (a resumed game keeps its save's
    language unless --lang says otherwise).  Its help shows the default a new game gets:
    the root's `--lang` (`wasserspiele --lang de play`: de, as games' and replay's help
    show it), else en; the help's own "[default: en]" was wrong under the root's --lang de."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        kept = self.default
        if ctx.lookup_default(self.name, call=False) is None:
            self.default = "en"  # for the help only: the option's value stays None
        try:
            return super().get_help_record(ctx)
        finally:
            self.default = kept


@main.command("play")
@click.argument("game", required=False, cls=Argument)
@click.option("--players", type=WHOLE, help="number of players (games with a variable count; default: as many as --seats names, else the game's default)")
@click.option("--seats", help="comma-separated, one per seat: human, a level (easy, medium, hard, expert) or a bot (random, heuristic, ismcts[:iterations=N]); default: one human, the rest heuristic")
@click.option("--seed", type=WHOLE, help="seed for the shuffle and dice, a whole number from 0 up (default: random)")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="a game option; repeatable")
@click.option("--save", type=click.Path(dir_okay=False), callback=writable,
              help="save the game here after every move, in a new file (a file there already is kept, but for the "
                   "save --resume goes on in); it holds every hidden card, so a resumed game can go on: keep it "
                   "from the other players")
@click.option("--resume", type=click.Path(dir_okay=False),
              help="continue a game saved with --save, with its seats and language (--seats/--lang change them); "
                   "its bots go on as they were, and given the game's own --seed so does the deal")
@click.option("--lang", cls=PlayLangOption, type=click.Choice(["en", "de"]), show_default=True,
              help="language of the game's texts and moves")
@click.option("--verbose", is_flag=True, help="with bots only: print every action")
@click.option("--plain", is_flag=True, envvar=PLAIN_ENV,
              help="plain text for screen readers and braille displays: no colours or styles, board rows and "
                   "results as lines of words, no spinner redrawn while a bot thinks (a line says it once), no screen clearing between players "
                   "sharing the screen (the last hand stays scrolled up); also set by WASSERSPIELE_PLAIN=1")
def play_cmd(game, players, seats, seed, options, save, resume, lang, verbose, plain) -> None:
    """Play GAME in the terminal against bots or friends at one screen."""
    from .play import PlaySession, record_seat_namer, saved_lang
    try:
        session = PlaySession.create(game, players, seats, seed, list(options), save, resume, lang, plain)
    except ReplayError as exc:
        # a save holding an illegal action: exit 1, as `replay` exits for the same record
        # (records.md: 1 an illegal action, 2 a refused document or command line); its seat
        # named as the game's board names it ("by player B")
        said_in = lang or saved_lang(resume) or "en"
        click.echo(error_line(exc.render(said_in, record_seat_namer(resume)), said_in), err=True)
        sys.exit(ILLEGAL_RECORD)
    except (BadOption, BadRecord, WasserspieleError) as exc:
        raise _fail(exc, lang or saved_lang(resume) or "en") from None
    code = session.run(verbose=verbose)
    sys.exit(code)


@main.command("replay")
@click.argument("file", type=click.Path(dir_okay=False), cls=Argument)
@click.option("--json", "as_json", is_flag=True, help="print the final position as JSON (docs/records.md)")
@click.option("--lang", type=click.Choice(["en", "de"]), default="en", show_default=True)
@click.option("--plain", is_flag=True, envvar=PLAIN_ENV,
              help="plain text for screen readers and braille displays: no colours or styles, board rows and "
                   "results as lines of words, as play --plain; also set by WASSERSPIELE_PLAIN=1")
def replay_cmd(file, as_json, lang, plain) -> None:
    """Replay a record FILE and show the final position."""
    if not file:
        # an empty FILE (an unset shell variable) is no path: read as the current folder, it was
        # refused as "`.`: is a folder, not a record file"
        click.echo(error_line(render("cli.replay_no_file", {}, lang), lang), err=True)
        sys.exit(REFUSED)
    # the records' schema (pydantic) is a good part of the start-up: loaded by the commands
    # that read records, not by every command line (cli/entry.py)
    from ..core.records import read_record, replay, summary
    try:
        state = replay(read_record(file))
    except ReplayError as exc:  # its seat named as the board below would name it ("by player B")
        from .play import record_seat_namer
        click.echo(error_line(exc.render(lang, record_seat_namer(file)), lang), err=True)
        sys.exit(ILLEGAL_RECORD)
    except (BadRecord, WasserspieleError) as exc:
        click.echo(error_line(in_lang(exc, lang), lang), err=True)
        sys.exit(REFUSED)
    if as_json:
        data = summary(state)
        # a whole score as the integer it is: Wildwasser's scores are floats ([0.0, 14.0, …]) where
        # results.csv and records.md write integers; a fractional score stays as it is
        data["scores"] = [int(x) if isinstance(x, float) and x.is_integer() else x for x in data["scores"]]
        click.echo(json.dumps(data))
        return
    from .console import make_console
    from .render import drawn, renderer
    console = make_console(plain)
    r = renderer(state.game.name)
    view = state.view(None)
    console.print(drawn(r.render_view, view, lang, console.width, plain))
    if state.is_terminal():
        console.print(drawn(r.render_result, view, lang, console.width, plain))
    else:
        from .play import seat_label
        waiting = ", ".join(seat_label(state.game.name, s, lang) for s in state.to_move())
        console.print(render("cli.not_finished", {"n": len(state.history), "seats": waiting}, lang))


@main.command("rules")
@click.argument("game", cls=Argument)
@click.option("--lang", type=click.Choice(["en", "de"]), default="en", show_default=True)
@click.option("--plain", is_flag=True, envvar=PLAIN_ENV,
              help="the text as it is written (Markdown), not drawn with headings, styles and tables; "
                   "also set by WASSERSPIELE_PLAIN=1")
def rules_cmd(game, lang, plain) -> None:
    """Print the rules of GAME for players in LANG (rules.<lang>.md), or else the reference
    text (English: the project's spec summary; German: the original text)."""
    try:
        cls = game_class(game)
    except WasserspieleError as exc:
        raise _fail(exc, lang) from None
    path = rules_path(Path(sys.modules[cls.__module__].__file__).parent, lang)
    if path is None:
        raise _fail(f"no {lang} rules text for {cls.name}")
    # the players' rules as the terminal needs them: how moves are typed, not tapped
    text = terminal_rules(cls.name, lang) if path.name == f"rules.{lang}.md" else path.read_text(encoding="utf-8")
    from .console import make_console
    console = make_console()
    if path.suffix == ".md" and console.is_terminal and not plain:
        # a terminal shows the Markdown drawn (headings, bold, the rank and option tables
        # lined up), where it showed `**`, `|---|` and `## `; piped or redirected (a file,
        # a pager, another program) and --plain keep the text as written
        from rich.markdown import Markdown
        console.print(Markdown(text))
    else:
        click.echo(text)


def rules_path(folder: Path, lang: str) -> Path | None:
    """The rules text of a game folder for players in `lang`: `rules.<lang>.md`, else the
    reference text (`RULES.md` in English, the German seed `RULES.de.txt`); None if neither."""
    for name in (f"rules.{lang}.md", "RULES.md" if lang == "en" else "RULES.de.txt"):
        if (folder / name).exists():
            return folder / name
    return None


def parse_options_for(game: str, texts: list[str]) -> dict:
    """`key=value` texts into typed options of GAME (BadOption names the problem)."""
    return parse_option_texts(game_class(game).option_list, texts, game)


from .arena import arena_cmd  # noqa: E402  (commands in their own modules)

main.add_command(arena_cmd)

from .serve import serve_cmd; main.add_command(serve_cmd)  # noqa: E402,E702


from .lab import lab_cmd; main.add_command(lab_cmd)  # noqa: E402,E702
from .learn import corpus_cmd, train_cmd; main.add_command(train_cmd); main.add_command(corpus_cmd)  # noqa: E402,E702
from .leaderboard import leaderboard_cmd; main.add_command(leaderboard_cmd)  # noqa: E402,E702


if __name__ == "__main__":  # pragma: no cover
    main()
