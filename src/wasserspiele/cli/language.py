"""Click's own words in the language a command line asks for.

A refused command line is refused by Click before the command runs, so before its
`--lang` is read: the language is taken from the raw arguments instead
(`requested_lang`), and for the run of a German command line Click's texts come from the
project's catalogue.

Click marks its texts for the standard `gettext` (`_("Usage:")`, `ngettext(...)`), but
calls the module functions it bound at import, which only a process-wide text domain,
locale directory and environment could translate (compiled .mo files). `speaking(lang)`
gives Click's modules a translation object instead, for the run only. Translating at the
source rather than re-wording Click's exceptions afterwards reaches the texts Click words
before it raises ("'x' is not a valid integer", "requires an argument", "unexpected extra
argument"), whose exceptions keep no parameters to re-word them from.

The catalogue's `cli.usage.*` entries are those texts: the English entry is Click's
message exactly as Click words it, so a message a later Click release rewords stays
English (never a wrong or broken text); German templates use only the fields Click fills
(tests/test_messages.py checks each language's fields against the English). The same
way, `cli.help.*` entries give `--help` the commands' and options' help (English: the
help in the code, word for word), and `cli.metavar.*` the placeholders of usage lines
(GAME, FILE, [OPTIONS]).
"""

from __future__ import annotations

import copy
import functools
import gettext
import inspect
import re
import sys
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator, Sequence

import click
from babel.lists import format_list

from ..core.messages import LANGS, catalogue, render, supported_lang, term
from .entry import requested_lang  # read before Click is loaded, there too

_lang: ContextVar[str] = ContextVar("wasserspiele_cli_lang", default="en")
_PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_]+\b")


def current_lang() -> str:
    """The language of the command line being run ("en" outside one)."""
    return _lang.get()


@functools.cache
def _click_codes() -> dict[str, str]:
    """Click's English message (the singular of a plural), or a command's or option's
    English help, → its catalogue code."""
    entries = catalogue("en").entries
    return {(text[0] if isinstance(text, tuple) else text): code
            for code, text in entries.items() if code.startswith(("cli.usage.", "cli.help."))}


class ClickTranslations(gettext.NullTranslations):
    """Click's messages in one language; a message the catalogue lacks stays Click's English."""

    def __init__(self, lang: str):
        super().__init__()
        self.words = catalogue(lang)

    def gettext(self, message: str) -> str:
        code = _click_codes().get(message)
        return (self.words.text(code) if code else None) or message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        code = _click_codes().get(singular)
        return (self.words.text(code, n) if code else None) or super().ngettext(singular, plural, n)


# Words click.decorators gives are kept on option objects (a command's help option is made
# once, on its first use), so they are English however the first command line spoke;
# `said` turns them German where a German command line shows them.
_KEEPS_ITS_WORDS = {"click.decorators"}


def _click_modules():
    return [module for name, module in list(sys.modules.items())
            if module is not None and (name == "click" or name.startswith("click.")) and name not in _KEEPS_ITS_WORDS]


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Run with Click's words (and the project's words about the command line) in `lang`:
    each Click module's `_`/`ngettext` is the translation's while it runs, Click's own
    stdlib functions again afterwards. English leaves Click untouched."""
    token = _lang.set(lang)
    swapped = []
    if lang != "en":
        translation = ClickTranslations(lang)
        for module in _click_modules():
            for name, stdlib, ours in (("_", gettext.gettext, translation.gettext),
                                       ("ngettext", gettext.ngettext, translation.ngettext)):
                if getattr(module, name, None) is stdlib:
                    setattr(module, name, ours)
                    swapped.append((module, name, stdlib))
        exceptions = sys.modules.get("click.exceptions")
        clicks = getattr(exceptions, "_format_possibilities", None)
        if clicks is not None:  # Click releases without it keep their own (its quotes, never a failure)
            exceptions._format_possibilities = _possibilities_said
            swapped.append((exceptions, "_format_possibilities", clicks))
    try:
        yield
    finally:
        for module, name, stdlib in swapped:
            setattr(module, name, stdlib)
        _lang.reset(token)


def quoted(value: object) -> str:
    """`value` (what someone typed, a file's text) quoted as the command line's language
    quotes it: the catalogue's term `quote` ('x', „x“), the one rule the catalogue's
    templates use too (`{kind:quote}`); never Python's repr ("it's", 'a\\\\b')."""
    return term(str(value), "quote", current_lang())


def _possibilities_said(possibilities: list[str]) -> str:
    """Click's "did you mean" for an unknown option or command, each suggestion quoted as
    the command line's language quotes (`quoted`): Click joins their reprs ('--seed')
    before its template is translated, which left English quotes in German text."""
    shown = ", ".join(quoted(p) for p in sorted(possibilities))
    template = ClickTranslations(current_lang()).ngettext(
        "Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)", len(possibilities))
    return template.format(possibility=shown, possibilities=shown)


def said(message: str) -> str:
    """Click's message, or a help text of the commands, in the command line's language."""
    lang = current_lang()
    return message if lang == "en" else ClickTranslations(lang).gettext(message)


def placeholders(text: str) -> str:
    """The placeholder words of a usage line or metavar (`GAME`, `[OPTIONS]`,
    `KEY=VALUE`) in the command line's language; a word without an entry stays as it is."""
    lang = current_lang()
    if lang == "en":
        return text
    words = catalogue(lang)
    return _PLACEHOLDER.sub(lambda m: words.text(f"cli.metavar.{m.group().lower()}") or m.group(), text)


class Argument(click.Argument):
    """A positional argument named in the command line's language (usage line, refusals)."""

    def make_metavar(self, ctx: click.Context) -> str:
        return placeholders(super().make_metavar(ctx))


def own_help(command: click.Command) -> str:
    """A command's help as Click shows it, in English: its docstring, up to a `\\f`."""
    return inspect.cleandoc(command.help or "").partition("\f")[0]


class _LocalHelp:
    """A usage line and `--help` in the command line's language: the command's help and
    its options' help from the catalogue's `cli.help.*` (whose English is the code's)."""

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [placeholders(piece) for piece in super().collect_usage_pieces(ctx)]

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        english = own_help(self)
        text = said(english)
        if text == english or self.deprecated:  # Click labels a deprecated command's help
            return super().format_help_text(ctx, formatter)
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(text)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if current_lang() == "en":
            return super().format_options(ctx, formatter)
        # Click's rows, with each option's own words said in the language (Click says its
        # "[default: …]" itself) and its metavar (INTEGER, FILE) named in it
        rows = [self._row(ctx, param) for param in self.get_params(ctx) if not isinstance(param, click.Argument)]
        rows = [row for row in rows if row is not None]
        if rows:
            with formatter.section(said("Options")):
                formatter.write_dl(rows)

    @staticmethod
    def _row(ctx: click.Context, param: click.Parameter) -> tuple[str, str] | None:
        row = param.get_help_record(ctx)
        if row is None:
            return None
        spec, text = row
        if param.help and text.startswith(param.help):  # the option's help, then Click's extras
            text = said(param.help) + text[len(param.help):]
        return placeholders(spec), text


class Command(_LocalHelp, click.Command):
    """A command whose usage line and `--help` are in the command line's language."""


class LanguageGroup(_LocalHelp, click.Group):
    """The root command: a command line that asks for German (`--lang de` anywhere) is
    refused, and helped, with Click's words in German (the list of commands too, each
    with its help said in German); its commands are `Command`s."""

    command_class = Command

    def main(self, args: Sequence[str] | None = None, *rest, **extra):
        from .console import fit_streams
        fit_streams()  # a terminal in ASCII or Latin-1: its own letters for ♠ and „…“, no traceback
        words = sys.argv[1:] if args is None else list(args)
        lang = requested_lang(words)
        name = _command_word(words)
        command = self.commands.get(name or "")
        if command is not None and not speaks_languages(command):
            # the tools for designers and researchers (lab, serve, …) speak English only:
            # their help and refusals stay English too, not German words around them; a
            # language asked for before them (`wasserspiele --lang de lab …`, which the
            # root's --lang accepts) or after them, as `play --lang de` is written (`serve
            # --lang de` was Click's "No such option"), is said to be ignored
            at = words.index(name)
            asked = requested_lang(words)
            if asked != "en":
                click.echo(render(english_only_note(name), {"command": name}, asked), err=True)
            args = [*words[:at + 1], *_without_lang(words[at + 1:])]
            lang = "en"
        with speaking(lang):
            return super().main(args, *rest, **extra)

    def make_context(self, info_name, args, parent=None, **extra) -> click.Context:
        """Ctrl-C while Click reads the command line (before `invoke`) is said and exits 130 as
        one in a command is; Click said "Aborted!" and exited 1."""
        try:
            return super().make_context(info_name, args, parent, **extra)
        except KeyboardInterrupt:
            click.echo(err=True)
            click.echo(render("cli.usage.aborted", {}, current_lang()), err=True)
            raise click.exceptions.Exit(130) from None

    def invoke(self, ctx: click.Context):
        """Ctrl-C that no command handles itself (`play` while it sets its bots up, which
        may take seconds) exits 130, as the commands that handle it do (cli/main.py, Exit
        status); Click's own handling said "Aborted!" and exited 1."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo(err=True)
            click.echo(render("cli.usage.aborted", {}, current_lang()), err=True)
            ctx.exit(130)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # `wasserspiele --lang de` asks for nothing but a language: the help, as `wasserspiele`
        # alone shows it (Click would say only that a command is missing; a language we do
        # not speak is refused by Click)
        only_lang = (len(args) == 2 and args[0] == "--lang") or (len(args) == 1 and args[0].startswith("--lang="))
        if only_lang and args[-1].rpartition("=")[2] in LANGS and self.no_args_is_help and not ctx.resilient_parsing:
            raise click.exceptions.NoArgsIsHelpError(ctx)
        return super().parse_args(ctx, args)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_options(ctx, formatter)
        if current_lang() != "en":  # Click's Group lists them in the format_options _LocalHelp replaces
            self.format_commands(ctx, formatter)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if current_lang() == "en":
            return super().format_commands(ctx, formatter)
        # Click's list (width, order, hidden commands left out), each line shortened by Click
        # from the command's help said in the language
        commands = [(name, self.get_command(ctx, name)) for name in self.list_commands(ctx)]
        commands = [(name, command) for name, command in commands if command is not None and not command.hidden]
        if commands:
            limit = formatter.width - 6 - max(len(name) for name, _ in commands)
            with formatter.section(said("Commands")):
                formatter.write_dl([(name, _said_help(command).get_short_help_str(limit))
                                    for name, command in commands])


def speaks_languages(command: click.Command) -> bool:
    """Whether `command` writes in the language of its `--lang` (arena, games, play, replay,
    rules): the others write English only."""
    return any(param.name == "lang" for param in command.params)


def speaking_commands(group: click.Group) -> list[str]:
    """The names of `group`'s shown commands that write in the language of a `--lang`."""
    return sorted(name for name, command in group.commands.items()
                  if speaks_languages(command) and not command.hidden)


class RootLangOption(click.Option):
    """The root's `--lang`, whose help names the commands it sets the language of: read
    from the commands (`speaks_languages`) when the help is shown, in the help's language.
    The names were written into the help by hand and went stale when a command gained its
    own --lang; the catalogue's `cli.lang_help` holds the sentence around them."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        lang = current_lang()
        names = format_list(speaking_commands(ctx.command), style="or", locale=catalogue(lang).locale)
        self.help = render("cli.lang_help", {"commands": names}, lang)
        try:
            return super().get_help_record(ctx)
        finally:
            self.help = None  # said already: `_LocalHelp._row` must not look it up again


def english_only_note(name: str) -> str:
    """The catalogue's note that the English-only command `name` writes English (serve's
    web pages speak each browser's language, so its note says that too)."""
    return "cli.english_only_serve" if name == "serve" else "cli.english_only"


def _without_lang(words: Sequence[str]) -> list[str]:
    """An English-only command's words without a `--lang X` of a language we speak (its
    note said it is ignored); another value stays, for Click to refuse as an unknown option."""
    out: list[str] = []
    rest = iter(words)
    for word in rest:
        if word == "--":  # what follows is no option
            return [*out, word, *rest]
        if word == "--lang":
            value = next(rest, None)
            if supported_lang(value):
                continue
            out.append(word)
            if value is not None:
                out.append(value)
        elif not (word.startswith("--lang=") and supported_lang(word.partition("=")[2])):
            out.append(word)
    return out


def _command_word(words: Sequence[str]) -> str | None:
    """The command a root command line names: its first word that is no root option
    (`--lang X`, `--version`, `-h`)."""
    words = iter(words)
    for word in words:
        if word == "--":
            return next(words, None)
        if word == "--lang":
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None


def _said_help(command: click.Command) -> click.Command:
    """A copy of `command` whose help is said in the command line's language."""
    local = copy.copy(command)
    local.help = said(own_help(command))
    local.short_help = command.short_help and said(command.short_help)
    return local
