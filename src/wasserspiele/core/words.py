"""Move words and card names in the player's language, both ways.

The notation (records.md) stays English; the terminal shows a German player German
words and cards (`trumpf Herz`, `nehmen 1-1`, `B♣`) and reads them back, always beside
the English ones.  The words are catalogue entries `<game>.word.<notation word>`
(alternatives separated by commas, the first is shown); card letters are the
catalogue's `card.rank.*` / `card.suit.*` terms plus the German suit names below.
"""

from __future__ import annotations

import functools

from .cards import SUIT_SYMBOLS, card
from .errors import BadNotation
from .messages import LANGS, card_text, catalogue

_RANK_LETTERS = {"B": "J", "D": "Q"}  # German Bube, Dame; K and A agree; 10 is T


def alternatives(code: str, lang: str) -> list[str]:
    """The comma-separated alternatives of a catalogue entry, lower case ([] if missing)."""
    text = catalogue(lang).text(code)
    return [w.strip().lower() for w in text.split(",") if w.strip()] if text else []


@functools.cache
def _reverse(prefix: str) -> dict[str, str]:
    """Every typed word (any language) → the notation word, for entries `<prefix>.<word>`."""
    out: dict[str, str] = {}
    for lang in LANGS:
        for code in catalogue(lang).entries:
            if code.startswith(prefix + "."):
                word = code[len(prefix) + 1:]
                out[word.lower()] = word
                for alt in alternatives(code, lang):
                    out.setdefault(alt, word)
    return out


@functools.cache
def _suit_words() -> dict[str, str]:
    """Suit names and abbreviations of every language (`card.suit_word.*`) and symbols → suit letter."""
    out = {sym: letter for letter, sym in SUIT_SYMBOLS.items()}
    for letter in SUIT_SYMBOLS:
        out[letter.lower()] = letter
        for lang in LANGS:
            out.update({alt: letter for alt in alternatives(f"card.suit_word.{letter}", lang)})
    return out


def _german_card(token: str) -> str | None:
    """'BKr' / 'B♣' / '10H' / 'DKa' / 'Jk1=10' → notation ('JC', 'TH', 'QD', 'X1=T'); None if not a card."""
    base, eq, decl = token.partition("=")
    b = base.lower()
    if b.startswith("jk") or b.startswith("x"):
        name = "X" + b.lstrip("jkx")
    else:
        rank, rest = (b[:2], b[2:]) if b.startswith("10") else (b[:1], b[1:])
        rank = "T" if rank == "10" else _RANK_LETTERS.get(rank.upper(), rank.upper())
        suit = _suit_words().get(rest)
        if suit is None:
            return None
        name = rank + suit
    try:
        card(name)
    except BadNotation:
        return None
    if eq:
        d = decl.lower()
        decl = _suit_words().get(d) or ("T" if d == "10" else _RANK_LETTERS.get(d.upper(), d.upper()))
    return name + (("=" + decl) if eq else "")


def read_token(game: str, token: str) -> str:
    """One typed word or card → notation (unchanged when it is neither)."""
    word = _reverse(f"{game}.word").get(token.lower())
    if word is not None:
        return word
    if any(ch.isalpha() for ch in token) or any(sym in token for sym in SUIT_SYMBOLS.values()):
        found = _german_card(token)
        if found is not None:
            return found
    return token


def read_words(game: str, text: str, lang: str = "en") -> str:
    """Typed text in either language → notation: `trumpf herz` → `trump H`, `BKr` → `JC`."""
    return " ".join(read_token(game, t) for t in text.split())


def show_token(game: str, token: str, lang: str) -> str:
    shown = catalogue(lang).text(f"{game}.word.{token}")
    if shown:
        return shown.split(",")[0].strip()
    base = token.partition("=")[0]
    if len(base) >= 2 and base[0] in "A23456789TJQKX" and base[-1] in "CDHS12":
        try:
            card(base)
        except BadNotation:
            return token
        return card_text(token, lang)
    return token


def show_words(game: str, text: str, lang: str = "en") -> str:
    """Notation as a player of `lang` reads and types it (English: unchanged)."""
    if lang == "en":
        return text
    return " ".join(show_token(game, t, lang) for t in text.split())
