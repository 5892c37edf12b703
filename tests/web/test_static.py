"""The shipped client: plain ES modules (no build step), every string in English and German."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

import pytest

import wasserspiele.web
from wasserspiele.core.registry import manifest, manifests

STATIC = Path(wasserspiele.web.__file__).parent / "static"
# every game with a client module, which its manifest names (served as /static/games/NAME.js)
GAMES = [m.name for m in manifests() if m.plugins.web is not None]


def client_modules() -> dict[str, str]:
    """The shipped modules by the path the browser loads them from, relative to /static."""
    out = {str(js.relative_to(STATIC)): js.read_text(encoding="utf-8") for js in STATIC.rglob("*.js")}
    out.update({f"games/{game}.js": manifest(game).web_source() for game in GAMES})
    return out


def block(text: str, opener: str) -> str:
    """The text of the `{...}` that follows `opener` (braces balanced; strings hold none)."""
    start = text.index(opener) + len(opener) - 1
    depth = 0
    for i in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[start:i + 1]
    raise AssertionError(f"unbalanced {opener}")


def sections(text: str) -> tuple[str, str]:
    """The English and German parts of a strings table (`en: {...}, de: {...}`)."""
    return block(text, "en: {"), block(text, "de: {")


def has_catalogue(game: str) -> bool:
    """Whether the game's words are in the message catalogues (`GAME.web.*`)."""
    from wasserspiele.core.messages import catalogue
    return any(code.startswith(f"{game}.web.") for code in catalogue("en").entries)


def test_the_client_keeps_no_string_table_of_its_own():
    """One catalogue per language: i18n.js loads it, it holds no words itself
    (tests/test_messages.py checks that every word the client names is in both)."""
    text = (STATIC / "i18n.js").read_text(encoding="utf-8")
    assert not re.search(r"en: \{\s*\w", text) and "/api/messages/" in text


@pytest.mark.parametrize("game", GAMES)
def test_each_game_module_has_every_string_in_both_languages(game):
    text = manifest(game).web_source()
    if has_catalogue(game):
        assert "strings:" not in text and "title:" not in text.split("export default", 1)[1][:200]
        return
    en, de = sections(text)  # a game without a catalogue (the test-only one) brings its words
    keys_en = set(re.findall(r"\"([\w.]+)\":", en))
    keys_de = set(re.findall(r"\"([\w.]+)\":", de))
    assert keys_en and keys_en == keys_de, keys_en ^ keys_de
    literal = set(re.findall(r"\bt\(\"(%s\.[\w.]+)\"" % game, text))
    assert literal <= keys_en, literal - keys_en


@pytest.mark.parametrize("game", GAMES)
def test_every_option_of_every_game_has_a_label(game):
    from wasserspiele.core.messages import catalogue
    from wasserspiele.core.registry import game_class
    text = manifest(game).web_source()
    for o in game_class(game).option_list:
        if has_catalogue(game):
            assert all(catalogue(lang).has(f"{game}.web.opt.{o.name}") for lang in ("en", "de")), o.name
        else:
            assert f'"{game}.opt.{o.name}"' in text, o.name


def test_modules_are_plain_es_modules_served_without_a_build_step():
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    assert '<script type="module" src="/static/app.js">' in html
    modules = client_modules()
    for path, text in modules.items():
        for spec in re.findall(r"from \"(.+?)\"", text):
            assert spec.startswith("./") or spec.startswith("../"), (path, spec)  # no bare npm imports
            target = posixpath.normpath(posixpath.join(posixpath.dirname(path), spec))
            assert target in modules or (STATIC / target).exists(), (path, spec)


def test_the_page_without_javascript_says_why_in_both_languages():
    """No catalogue is read without JavaScript, so index.html's own words are the only ones a
    reader gets: in English and (marked as such for a screen reader) in German."""
    noscript = re.search(r"<noscript>(.*?)</noscript>", (STATIC / "index.html").read_text(encoding="utf-8"), re.S)
    assert noscript and "This app needs JavaScript." in noscript.group(1)
    assert '<p lang="de">Diese App braucht JavaScript.</p>' in noscript.group(1)
