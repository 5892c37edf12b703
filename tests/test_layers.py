"""Dependencies point one way: down to core (../shared/guide/architecture.md).

The layers, bottom up: `core`; `games/<game>`; `bots`; then `lab`, `adapters` and `web`
beside each other; `cli` on top.  Read from every module's imports (function-level ones
included):

* core imports nothing of the project above it;
* a game's rules (the modules every game has for its rules: actions, rules, state, view,
  manifest, render, kernel) import core and their own game only; the modules a game
  plugs into a layer above (heuristic → bots.base, codec and vector → adapters,
  measures → lab.measures) may import that layer's base, and never another game;
* lab, adapters and web do not import each other, and only cli imports cli;
* no module outside games/ imports a game's package by name: the registry loads them.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "wasserspiele"
RANK = {"core": 0, "games": 1, "bots": 2, "lab": 3, "adapters": 3, "web": 3, "cli": 4}
# where a game plugs into a layer above it: its module there may import that layer
PLUG_INS = {"heuristic.py": {"bots"}, "codec.py": {"adapters"}, "vector.py": {"adapters"},
            "measures.py": {"lab"}}


def imported(path: Path, root: Path) -> list[tuple[int, tuple[str, ...]]]:
    """(line, dotted module as parts) of every import of the project in `path`."""
    package = ("wasserspiele", *path.relative_to(root).parts[:-1])
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else ()
            module = (*base, *(node.module.split(".") if node.module else ()))
            # `from . import view`: each name may be a module of the package
            found = [module] if node.module else [(*module, a.name) for a in node.names]
        elif isinstance(node, ast.Import):
            found = [tuple(a.name.split(".")) for a in node.names]
        else:
            continue
        out += [(node.lineno, m) for m in found if m[:1] == ("wasserspiele",) and len(m) > 1]
    return out


def violations(root: Path) -> list[str]:
    found = []
    games = {p.name for p in (root / "games").iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        layer = rel.parts[0] if len(rel.parts) > 1 else None
        if layer not in RANK:
            continue
        for line, module in imported(path, root):
            target = module[1]
            if target not in RANK:
                continue
            where = f"{rel.as_posix()}:{line} imports {'.'.join(module)}"
            if layer == "games":
                own = rel.parts[1] if len(rel.parts) > 2 else None
                if target == "games" and len(module) > 2 and module[2] in games and module[2] != own:
                    found.append(f"{where}: another game")
                elif target not in ("core", "games") and target not in PLUG_INS.get(rel.name, ()):
                    found.append(f"{where}: a game's {rel.name} imports core and its own game only"
                                 if rel.name not in PLUG_INS else f"{where}: {rel.name} plugs into "
                                 f"{', '.join(sorted(PLUG_INS[rel.name]))} only")
            elif RANK[target] > RANK[layer] or (RANK[target] == RANK[layer] and target != layer):
                found.append(f"{where}: {layer} is below or beside {target}")
            elif target == "games" and len(module) > 2 and module[2] in games:
                found.append(f"{where}: a game by name (the registry loads games)")
    return found


def test_dependencies_point_down_to_core():
    assert violations(SRC) == []


def test_each_kind_of_wrong_import_is_found(tmp_path):
    """The check itself, on a small tree with one import of each kind it refuses."""
    files = {
        "core/__init__.py": "", "core/records.py": "from ..bots import base\n",
        "games/__init__.py": "", "games/a/__init__.py": "", "games/b/__init__.py": "",
        "games/a/rules.py": "from ...adapters import common\nfrom ..b import rules\n",
        "games/a/heuristic.py": "from ...bots.base import Bot\nfrom ...lab import measures\n",
        "bots/__init__.py": "", "bots/levels.py": "import wasserspiele.games.a.rules\n",
        "lab/__init__.py": "", "lab/study.py": "def f():\n    from ..web import app\n",
        "web/__init__.py": "", "web/app.py": "from ..cli import main\n",
        "cli/__init__.py": "", "cli/main.py": "from ..lab import study\nfrom ..games.a import rules\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = violations(tmp_path)
    expected = ["core/records.py:1 imports wasserspiele.bots:", "games/a/heuristic.py:2 imports wasserspiele.lab",
                "games/a/rules.py:1 imports wasserspiele.adapters:", "games/a/rules.py:2 imports wasserspiele.games.b",
                "bots/levels.py:1 imports wasserspiele.games.a.rules", "lab/study.py:2 imports wasserspiele.web",
                "web/app.py:1 imports wasserspiele.cli:", "cli/main.py:2 imports wasserspiele.games.a"]
    for start in expected:
        assert sum(f.startswith(start) for f in found) == 1, (start, found)
    assert len(found) == len(expected), found  # `cli` may import `lab`: nothing else
