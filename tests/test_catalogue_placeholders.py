"""Every German text names the same {placeholders} as its English text, form by form.

A German entry that leaves out a placeholder loses what it reports (a card, a count, a
seat); one that names a parameter the English lacks renders as a hole or an error. The
check reads each catalogue pair (the project's locale/ and each game's) directly, so that a
plural entry is compared form by form: msgstr[0] with msgstr[0], msgstr[1] with msgstr[1].
"""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

SRC = Path(__file__).resolve().parent.parent / "src" / "wasserspiele"
CATALOGUES = [SRC / "locale"] + sorted(p.parent for p in SRC.glob("games/*/locale/de.po"))

# Where German deliberately names other parameters than English: (English only, German only).
DIFFERENT = {
    # English shows the parser's own English message; German quotes what was typed instead
    "bad_notation": ({"error"}, {"text"}),
    # Click fills these with English words ("integer", "File"): German words the text itself
    "cli.usage.not_a_number": ({"number_type"}, set()),
    **{f"cli.usage.path_{c}": ({"name"}, set())
       for c in ("is_directory", "is_file", "missing", "not_executable", "not_readable", "not_writable")},
    # a refused option: English names it as typed (`name`), German by its lobby label (`option`)
    **{f"option.{c}": ({"name"}, {"option"})
       for c in ("above", "below", "no_seat", "not_bool", "not_choice", "not_finite", "not_integer",
                 "not_number", "null")},
}


def _fields(template: str) -> set[str]:
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


def _entries(path: Path) -> dict[str, tuple[str, ...]]:
    with path.open("rb") as f:
        return {(m.id if isinstance(m.id, str) else m.id[0]): ((m.string,) if isinstance(m.string, str) else tuple(m.string))
                for m in read_po(f) if m.id}


def placeholder_mismatches(directory: Path) -> list[str]:
    """Each entry of directory/de.po whose placeholders differ from directory/en.po's."""
    en, de = _entries(directory / "en.po"), _entries(directory / "de.po")
    problems = [f"{code}: no German entry" for code in sorted(set(en) - set(de))]
    problems += [f"{code}: no English entry" for code in sorted(set(de) - set(en))]
    for code in sorted(set(en) & set(de)):
        if len(en[code]) != len(de[code]):
            problems.append(f"{code}: {len(en[code])} English forms, {len(de[code])} German")
            continue
        only_en, only_de = DIFFERENT.get(code, (set(), set()))
        for i, (english, german) in enumerate(zip(en[code], de[code])):
            want = (_fields(english) - only_en) | only_de
            if _fields(german) != want:
                problems.append(f"{code}[{i}]: German {sorted(_fields(german))}, expected {sorted(want)}")
    return problems


@pytest.mark.parametrize("directory", CATALOGUES, ids=lambda d: d.parent.name)
def test_every_german_entry_has_the_placeholders_of_its_english_entry(directory):
    assert placeholder_mismatches(directory) == []


def test_the_allowed_differences_are_still_there():
    """An exception left behind after its entry changed would hide a real loss."""
    en, de = _entries(SRC / "locale" / "en.po"), _entries(SRC / "locale" / "de.po")
    for code, (only_en, only_de) in DIFFERENT.items():
        assert all(only_en <= _fields(form) for form in en[code]), code
        assert all(only_de <= _fields(form) and not only_en & _fields(form) for form in de[code]), code


def test_a_lost_placeholder_is_found(tmp_path):
    (tmp_path / "en.po").write_text('msgid "x.cards"\nmsgid_plural "x.cards"\nmsgstr[0] "1 card for {seat}"\n'
                                    'msgstr[1] "{n} cards for {seat}"\n', encoding="utf-8")
    (tmp_path / "de.po").write_text('msgid "x.cards"\nmsgid_plural "x.cards"\nmsgstr[0] "1 Karte für {seat}"\n'
                                    'msgstr[1] "Karten für {seat}"\n', encoding="utf-8")
    assert placeholder_mismatches(tmp_path) == ["x.cards[1]: German ['seat'], expected ['n', 'seat']"]
