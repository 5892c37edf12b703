"""Stable message codes, rendered in the player's language from one catalogue per language.

Engines never word a refusal or an event themselves: they return a `Reason` — a code
such as `watten.must_follow` with parameters — and the interfaces render it with
`render(code, params, lang)`.  The catalogues are gettext `.po` files (msgid = the
code): the project's in `wasserspiele/locale/`, each game's in its own `locale/`, read
at runtime with Babel and merged into one catalogue per language, so a plain checkout
or `pip install -e .` needs no compile step and a new game brings its own words.  A message with plural forms is
chosen by its parameter `n`, with the plural rule of the catalogue's language.

Templates are `str.format` strings.  A format spec that starts with a letter names a
*term* looked up in the catalogue instead of printing the value as it is:
`{suit:watten.suit}` prints the entry `watten.suit.H` for `suit="H"`; a list prints
each item as a term, joined as a list of the language ("8C, 9C and JC"); a spec that
starts with `*` joins with spaces (`{ranks:*card.rank}`).  Built-in terms: `card`
(a card name in the language's letters), `letter` (seat 2 → C), `option` (GAME.NAME →
the option's label), `seat` (a seat, or a list of seats, as the surface that shows the
message names them: `say_seat`, below; else the catalogue's entry `seat`, "seat 2",
„Platz 2") and `shown` (a value the user gave: text quoted by the catalogue's
term `quote`, 'x' / „x“, anything else as JSON writes it, `2.5`, `null`, `[3]`, not as
Python does).  Figures are written as the language writes them, with Babel (CLDR), at
this one place: `grouped` (10,000 / 10.000), `decimal` (0.1 / 0,1), `percent` (a share:
0.48 → 48% / 48 %, the German space unbreakable) and a numeric spec such as
`{rate:.1f}` (Python's digits, the language's separators: 2.5 / 2,5; a share takes
`percent`, not `.0%`).  A plain
`{n}` prints as it is: seat numbers, seeds and counts are not figures to group.  A
parameter that is itself a `Reason` (the refusal a wrapping refusal names) renders in
the same language.

A seat a message names is a parameter written `{seat:seat}` (`{waiting:seat}` for a
list), never "seat {seat}" in the template: the terminal names seats as its board does
(Wildwasser's "player C") and the page by its players' names ("Anna"), so the words for a
seat are the surface's, passed to `render` as `say_seat(seat, lang)` (the page's
messages.js: `Catalogue.seatText`).  Without one (a Reason as a str, a log) a seat is the
catalogue's `seat` ("seat 2").
"""

from __future__ import annotations

import functools
import gettext
import json
import re
import string
from importlib import resources
from io import BytesIO
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Mapping

from babel import Locale
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent, get_decimal_symbol, get_group_symbol
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LANGS = ("en", "de")
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


class Reason(str):
    """A refusal (or event) as a code with parameters; as a `str` it is the English text,
    so callers that print, compare or serialise reasons keep working."""

    __slots__ = ("code", "params")

    def __new__(cls, code: str, **params: Any) -> "Reason":
        self = super().__new__(cls, render(code, params, "en"))
        self.code = code
        self.params = MappingProxyType(params)
        return self

    def render(self, lang: str, say_card: Callable[[str, str], str] | None = None,
               say_seat: Callable[[int, str], str] | None = None) -> str:
        """The reason in `lang` ("en", "de"); `say_card`: its cards in words, `say_seat`:
        its seats as the surface names them (render)."""
        return render(self.code, self.params, lang, say_card, say_seat)

    def to_json(self) -> dict[str, Any]:
        """The reason for a browser, `{code, params}`: a parameter that is itself a Reason
        (the refusal a wrapping refusal names) nested the same way, not as its English
        text, so that the page renders it in its own language as `render` does here
        (messages.js `Catalogue.format`)."""
        return {"code": self.code,
                "params": {k: v.to_json() if isinstance(v, Reason) else v for k, v in self.params.items()}}

    def __repr__(self) -> str:
        return f"Reason({self.code!r}, {dict(self.params)!r})"

    def __reduce__(self):
        return (_reason, (self.code, dict(self.params)))


def _reason(code: str, params: dict) -> Reason:
    return Reason(code, **params)


def reason_of(value: Any) -> Reason:
    """`value` as a Reason: itself, or plain text wrapped in the code `text`."""
    return value if isinstance(value, Reason) else Reason("text", text=str(value))


# -- catalogues --------------------------------------------------------------------
class Catalogue:
    """The messages of one language: the project's file (`wasserspiele/locale/<lang>.po`)
    merged with each registered game's (`<game package>/locale/<lang>.po`, codes under
    the game's name): gettext lookups plus the raw entries (for export)."""

    def __init__(self, lang: str):
        path = LOCALE_DIR / f"{lang}.po"
        if lang not in LANGS or not path.exists():
            raise ValueError(f"no message catalogue for language {lang!r} (languages: {', '.join(LANGS)})")
        po = _read(path, lang)
        for game_file in _game_files(lang):
            for m in _read(game_file, lang):
                if m.id:
                    po[m.id] = m
        self.lang = lang
        self.locale = Locale.parse(lang)
        self.plural_expr = po.plural_expr
        self.entries: dict[str, str | tuple[str, ...]] = {}
        for m in po:
            if not m.id:
                continue
            if isinstance(m.id, tuple):
                self.entries[m.id[0]] = tuple(m.string)
            else:
                self.entries[m.id] = m.string
        mo = BytesIO()
        write_mo(mo, po)
        mo.seek(0)
        self.gnu = gettext.GNUTranslations(mo)

    def has(self, code: str) -> bool:
        text = self.entries.get(code)
        return bool(text) and (not isinstance(text, tuple) or all(text))

    def text(self, code: str, n: int | None = None) -> str | None:
        """The template of `code` (its plural form for `n`), None if the catalogue lacks it."""
        entry = self.entries.get(code)
        if not entry:
            return None
        if isinstance(entry, tuple):
            return self.gnu.ngettext(code, code, 1 if n is None else int(n))
        return entry

    def to_json(self) -> dict[str, Any]:
        """The catalogue for a browser: plural rule (a C expression in n) and every entry."""
        return {"lang": self.lang, "plural": self.plural_expr,
                "messages": {k: list(v) if isinstance(v, tuple) else v for k, v in sorted(self.entries.items())}}


def _read(path, lang: str):
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def _game_files(lang: str):
    """The `locale/<lang>.po` of every registered game that ships one (next to its rules)."""
    from .registry import manifests  # the registry lists games; messages load after it
    for m in manifests():
        package = m.game.partition(":")[0].rpartition(".")[0]
        path = resources.files(package).joinpath("locale", f"{lang}.po")
        if path.is_file():
            yield path


@functools.cache
def catalogue(lang: str) -> Catalogue:
    return Catalogue(lang)


def supported_lang(value: str | None) -> str | None:
    """The supported language `de`, `de-AT` or an Accept-Language header prefers, by its
    weights (`en;q=0.1, de;q=0.9`: de; equal weights in the header's order; `q=0`: not
    wanted); None if it names none."""
    best, best_q = None, 0.0
    for part in (value or "").split(","):
        tag, *params = part.split(";")
        tag = tag.strip().lower()[:2]
        if tag not in LANGS:
            continue
        q = 1.0
        for param in params:
            name, _, weight = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(weight)
                except ValueError:  # a weight that is no number: as if none were given
                    q = 1.0
        if q > best_q:  # (nan and weights of 0 or below never win)
            best, best_q = tag, q
    return best


def normalise_lang(value: str | None) -> str:
    """A supported language from `de`, `de-AT`, or an Accept-Language header; default English."""
    return supported_lang(value) or "en"


# -- rendering -------------------------------------------------------------------------
class _Formatter(string.Formatter):
    def __init__(self, cat: Catalogue, say_card: Callable[[str, str], str] | None = None,
                 say_seat: Callable[[int, str], str] | None = None):
        self.cat = cat
        self.say_card = say_card
        self.say_seat = say_seat

    def format_field(self, value: Any, spec: str) -> str:
        if isinstance(value, Reason):
            # a refusal inside another (`bot spec 'x': <why>`, `game: <why>`) is said in
            # the same language, not in the English a Reason is as a str, its seats named
            # as the outer one names them (`replay.error`'s reason)
            value = value.render(self.cat.lang, say_seat=self.say_seat)
        if self.say_seat is not None and spec.lstrip("*") == "seat" and value is not None:
            # a seat as the surface names it ("player C", "Anna"), where the catalogue's
            # "seat 2" would name it otherwise than the board and every other line
            many = isinstance(value, (list, tuple))
            words = [self.say_seat(int(s), self.cat.lang) for s in (value if many else [value])]
            if spec.startswith("*"):
                return " ".join(words)
            return format_list(words, locale=self.cat.locale) if many else words[0]
        if self.say_card is not None and value and spec.lstrip("*") == "card":
            # plain terminal output: "8 of spades" where `8♠` was read "8 black spade suit"
            words = [self.say_card(n, self.cat.lang) for n in ([value] if isinstance(value, str) else map(str, value))]
            if spec.startswith("*") or isinstance(value, str):
                return ", ".join(words)
            return format_list(words, locale=self.cat.locale)  # as `terms` joins a list
        if spec and (spec[0].isalpha() or spec[0] == "*"):
            return terms(value, spec, self.cat.lang)
        if spec and _is_number(value):
            if spec.endswith("%"):  # Python's "48%" is English: German writes "48 %"
                raise ValueError(f"the spec {spec!r} writes a share in English; use {{name:percent}}")
            return localised_digits(format(value, spec), self.cat.lang)
        return super().format_field(value, spec)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def localised_digits(text: str, lang: str) -> str:
    """Digits Python wrote (`2,500.5`) with the separators of `lang` (`2.500,5`): Python's
    rounding whatever the language, so the English figures stay those an f-string prints."""
    locale = catalogue(lang).locale
    swap = {",": get_group_symbol(locale), ".": get_decimal_symbol(locale)}
    return re.sub(r"[,.]", lambda m: swap[m.group()], text)


def _figure(value: Any) -> int | float:
    """A number for the figure kinds; anything else is a programming error, said as such."""
    if _is_number(value):
        return value
    raise ValueError(f"a figure must be a number, not {value!r}")


def terms(value: Any, kind: str, lang: str) -> str:
    """`value` (or each item of a list) as the term `kind` in `lang`; `shown` shows a
    list whole, as JSON writes it (`[1]`)."""
    if isinstance(value, (list, tuple)) and kind != "shown":
        if kind.startswith("*"):
            return " ".join(term(v, kind[1:], lang) for v in value)
        return format_list([term(v, kind, lang) for v in value], locale=catalogue(lang).locale)
    return term(value, kind.lstrip("*"), lang)


def term(value: Any, kind: str, lang: str) -> str:
    """One word from the catalogue: entry `kind.value`, else the template `kind` applied
    to the value, else the value itself; the kinds `card`, `decimal`, `grouped`, `letter`,
    `option`, `option_named`, `percent` and `shown` are built in."""
    if kind == "shown":
        # one refusal for a value typed as text and one from a JSON document: the reader
        # sees which it was (`'2.5'` was typed, `2.5` is a number), as messages.js shows it
        if isinstance(value, str):
            return term(shortened(value), "quote", lang)
        return shortened(json_text(value))
    if kind == "card":
        return card_text(str(value), lang)
    if kind == "letter":
        return chr(ord("A") + int(value))
    cat = catalogue(lang)
    if kind in ("grouped", "decimal"):  # 10,000,000 / 10.000.000; 0.1 / 0,1 (CLDR: up to 3 places)
        return format_decimal(_figure(value), locale=cat.locale)
    if kind == "percent":  # a share: 0.48 → 48% / 48 % (CLDR, a no-break space in German)
        return format_percent(_figure(value), locale=cat.locale)
    if kind in ("option", "option_named"):  # GAME.NAME: the option's label on the game's pages, else its name
        game, _, name = str(value).rpartition(".")
        label = cat.text(f"{game}.web.opt.{name}") if game else None
        if kind == "option":
            return label or name
        # quoted, with the name a command line or a record spells beside the label the pages
        # show: „Durchgänge“ alone left a German terminal's --option rounds=0 with no key to type
        quoted = term(label or name, "quote", lang)
        return f"{quoted} ({name})" if label and label != name else quoted
    found = cat.text(f"{kind}.{value}")
    if found is not None:
        return found
    template = cat.text(kind)
    if template is not None:
        return _Formatter(cat).vformat(template, (), {"value": value})
    return str(value)


def shown(value: Any, lang: str = "en") -> str:
    """A value someone gave (typed, in a file or an environment variable) as a refusal
    shows it: the term `shown` (text quoted as `lang` quotes, anything else as JSON
    writes it), never Python's repr ("it's", np.float64(2.5)).  The English-only tools
    (lab, adapters, the server's operator settings) call it with the default."""
    return term(value, "shown", lang)


# The most characters of a value a message shows: a refusal quoted a pasted value whole
# (a 50,000-item list as one card of a record was a line of 300,000 characters); its start
# says which value it was.  messages.js cuts the same way.
SHOWN_MOST = 100


def shortened(text: str, most: int = SHOWN_MOST) -> str:
    """`text`, or its first `most` − 1 characters and "…" when it is longer than `most`: how
    every message shows a text too long to read whole (a pasted value, a record's damaged
    field, a library's long complaint)."""
    return text if len(text) <= most else text[:most - 1] + "…"


def json_text(value: Any) -> str:
    """A value as JSON writes it (`true`, `null`, `{"x": 1}`), not as Python does; a value
    no JSON document holds (an object passed by code) as Python shows it."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def card_text(name: str, lang: str) -> str:
    """A card in the letters of `lang`: 'JC' → 'JC' / 'B♣', 'X1' → 'Jk1', 'X1=H' → 'Jk1=♥'."""
    base, eq, decl = name.partition("=")
    cat = catalogue(lang)
    if base.startswith("X"):
        text = "Jk" + base[1:]
    else:
        text = term(base[:-1], "card.rank", lang) + (cat.text(f"card.suit.{base[-1]}") or base[-1])
    if eq:
        text += "=" + (cat.text(f"card.decl.{decl}") or decl)
    return text


def render(code: str, params: Mapping[str, Any] | None = None, lang: str = "en",
           say_card: Callable[[str, str], str] | None = None,
           say_seat: Callable[[int, str], str] | None = None) -> str:
    """The message `code` with `params` in `lang`; an unknown code renders as itself
    with its parameters (never silently empty).  `say_card(name, lang)`: the parameters
    written as cards (`{held:card}`, `{cards:*card}`) in words, for plain output;
    `say_seat(seat, lang)`: those written as seats (`{seat:seat}`) as the surface names
    them (the terminal's board names)."""
    params = params or {}
    cat = catalogue(lang if lang in LANGS else "en")
    template = cat.text(code, params.get("n"))
    if template is None and cat.lang != "en":
        template = catalogue("en").text(code, params.get("n"))
    if template is None:
        return code + (f" {dict(params)}" if params else "")
    return _Formatter(cat, say_card, say_seat).vformat(template, (), params)


def text(code: str, lang: str = "en", **params: Any) -> str:
    """Shorthand: render(code, params, lang)."""
    return render(code, params, lang)


def separator(plain: bool, styled: str = " · ") -> str:
    """What a terminal board puts between the parts of a line: `styled` (a dot, a bar) on
    the screen; with plain output (`play --plain`, for a screen reader that reads the
    terminal line by line) a semicolon, read as a pause, where `·` was read "middle dot"
    and `|` "vertical line" (the parts may hold commas of their own)."""
    return "; " if plain else styled


def out_of(a: Any, b: Any, plain: bool, lang: str = "en") -> str:
    """A count out of a whole on a terminal board: "1/3" on the screen; plain output (a
    screen reader) "1 of 3", „1 von 3", where "1/3" was read "1 slash 3" (or as a date)."""
    return render("plain.of", {"a": a, "b": b}, lang) if plain else f"{a}/{b}"


class Words:
    """The catalogue entries under one prefix in one language, for renderers: `t("round", r=2)`."""

    def __init__(self, prefix: str, lang: str):
        self.prefix = prefix
        self.lang = lang

    def __call__(self, key: str, **params: Any) -> str:
        return render(f"{self.prefix}.{key}", params, self.lang)
