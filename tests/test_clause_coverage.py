"""Every clause id of every game's spec appears in a test name (and in its RULES.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT.parent / "shared" / "spec"
GAMES = {"wasserloch": ("WL", "wasserloch.md"), "seven_waters": ("SW", "seven-waters.md"),
         "watten": ("WA", "watten.md"), "wildwasser": ("WW", "wildwasser.md")}


def clause_ids(prefix: str, spec_file: str) -> list[str]:
    text = (SPEC / spec_file).read_text(encoding="utf-8")
    return sorted(set(re.findall(rf"^\| ({prefix}-[0-9][0-9a-z.]*) \|", text, flags=re.M)))


def named_tests(game: str) -> str:
    names = []
    for path in (ROOT / "tests" / "games" / game).glob("test_*.py"):
        names += re.findall(r"def (test_\w+)", path.read_text(encoding="utf-8"))
    return "\n".join(names)


@pytest.mark.skipif(not SPEC.is_dir(), reason="the shared spec folder is not beside this checkout")
@pytest.mark.parametrize("game", GAMES)
def test_every_clause_has_a_named_test_and_a_place_in_rules_md(game):
    prefix, spec_file = GAMES[game]
    ids = clause_ids(prefix, spec_file)
    assert ids, f"no clause ids found in {spec_file}"
    names = named_tests(game)
    rules = (ROOT / "src" / "wasserspiele" / "games" / game / "RULES.md").read_text(encoding="utf-8")
    untested = [c for c in ids if "test_" + c.lower().replace("-", "_").replace(".", "_") not in names]
    assert not untested, f"clauses without a test named after them: {untested}"
    missing = [c for c in ids if c not in rules]
    assert not missing, f"clauses missing from RULES.md: {missing}"
