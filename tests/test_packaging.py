"""The package as a user installs it: a wheel built from this tree holds every file of
`src/wasserspiele` (the code reads its data files at run time: catalogues, rules texts,
board data, the web's static files and migrations, the learned bot's weights, the
leaderboard) and no bytecode caches, its metadata is what pyproject.toml declares, and a
copy unpacked outside the repository plays every game, renders the rules pages, serves
the static files and loads the weights.

Missing data would not always raise: a game's catalogue that is absent is skipped, a
missing leaderboard leaves the rules pages without their levels section.  So the file
list is compared as a whole, derived from the source tree rather than written down here.

The wheel is built with the build backend of this environment (`--no-build-isolation`,
no network) from a copy of the tree: the tree's own `build/lib` is reused by setuptools
and would hide or add files.  The copy is byte-compiled first, as a tree is where Python
ran (the server compiles the Alembic migrations), so cached bytecode reaching the wheel
shows."""

from __future__ import annotations

import compileall
import email.parser
import json
import os
import shutil
import subprocess
import sys
import textwrap
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
PACKAGE = SRC / "wasserspiele"
CACHE_DIRS = {"__pycache__"}
CACHE_SUFFIXES = {".pyc", ".pyo", ".nbi", ".nbc"}  # CPython's bytecode, numba's kernel caches
GAMES = ["seven_waters", "wasserloch", "watten", "wildwasser"]


def is_cache(rel: Path) -> bool:
    return bool(CACHE_DIRS & set(rel.parts)) or rel.suffix in CACHE_SUFFIXES


def source_files() -> set[str]:
    """Every file of the package in the source tree, named as in the wheel ("wasserspiele/…")."""
    return {p.relative_to(SRC).as_posix() for p in PACKAGE.rglob("*")
            if p.is_file() and not is_cache(p.relative_to(SRC))}


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    tree = tmp_path_factory.mktemp("tree")
    for name in ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, tree / name)
    shutil.copytree(SRC, tree / "src", ignore=lambda folder, names: [
        n for n in names if n.endswith(".egg-info") or is_cache(Path(n))])
    compileall.compile_dir(tree / "src", quiet=1, legacy=False)
    out = tmp_path_factory.mktemp("dist")
    # --check-build-dependencies: a backend older than [build-system] requires is named as
    # such (the test extra brings a recent one), not met as an obscure build error
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                           "--check-build-dependencies", "--no-index", "--disable-pip-version-check",
                           "-q", "-w", str(out), str(tree)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"building the wheel failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    [built] = out.glob("wasserspiele-*.whl")
    return built


def wheel_names(path: Path) -> set[str]:
    with zipfile.ZipFile(path) as z:
        return {n for n in z.namelist() if not n.endswith("/")}


def dist_info(path: Path, name: str) -> str:
    with zipfile.ZipFile(path) as z:
        [member] = [n for n in z.namelist() if n.split("/")[0].endswith(".dist-info") and n.split("/", 1)[1] == name]
        return z.read(member).decode("utf-8")


def test_wheel_holds_every_file_of_the_package_and_no_caches(wheel):
    shipped = {n for n in wheel_names(wheel) if n.startswith("wasserspiele/")}
    expected = source_files()
    assert {"wasserspiele/web/static/app.js", "wasserspiele/bots/weights/watten.npz",
            "wasserspiele/games/wildwasser/board.json"} <= expected  # the walk saw the data files
    assert sorted(expected - shipped) == [], "files of src/wasserspiele missing from the wheel"
    assert sorted(shipped - expected) == [], "files in the wheel that are not the package's (caches?)"


def test_wheel_metadata_is_what_pyproject_declares(wheel):
    project = pyproject()["project"]
    meta = email.parser.Parser().parsestr(dist_info(wheel, "METADATA"))
    init = (PACKAGE / "__init__.py").read_text(encoding="utf-8")
    assert meta["Name"] == project["name"] and meta["Version"] == project["version"]
    # `--version` reads the metadata, the learned bot's sidecars record `__version__`: one number
    assert f'__version__ = "{project["version"]}"' in init
    assert meta["Requires-Python"] == project["requires-python"]
    # an SPDX expression: the {text = …} table is deprecated in setuptools, whose builds will refuse it
    assert meta["License-Expression"] == "MIT"
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in wheel_names(wheel))
    assert sorted(meta.get_all("Provides-Extra")) == sorted(project["optional-dependencies"])
    assert meta["Description-Content-Type"] == "text/markdown"
    assert meta.get_payload().strip() == (ROOT / "README.md").read_text(encoding="utf-8").strip()
    scripts = dist_info(wheel, "entry_points.txt")
    assert "[console_scripts]\nwasserspiele = wasserspiele.cli.entry:main" in scripts


CHECK = textwrap.dedent('''
    import sys, json, warnings
    warnings.filterwarnings("ignore", message=".*httpx.*")  # starlette's TestClient on httpx, as tests/web do
    from pathlib import Path
    site = Path(sys.argv[1]).resolve()
    import wasserspiele
    assert Path(wasserspiele.__file__).resolve().is_relative_to(site), wasserspiele.__file__

    from wasserspiele.core.registry import game_names, load
    from wasserspiele.core.rules_text import player_rules_path
    from wasserspiele.core import messages
    from wasserspiele.bots.learned import shipped_weights
    from wasserspiele.bots.leaderboard import levels_section
    from wasserspiele.bots.match import STOP, bots_choose, play_out
    from wasserspiele.bots.registry import make_bot
    from wasserspiele.web.app import STATIC, create_app
    from starlette.testclient import TestClient

    found = {"games": game_names(), "played": {}, "rules": {}, "catalogues": [], "levels": {}, "web": {}}
    for name in game_names():
        game = load(name)
        weights = shipped_weights(game)  # the learned bot plays every seat: it reads the weights
        assert weights.resolve().is_relative_to(site), weights
        choose = bots_choose([make_bot("learned", game, seed=s) for s in range(game.players)])
        state = play_out(game.new_game(seed=1), lambda st, seat: STOP if len(st.history) >= 12 else choose(st, seat))
        found["played"][name] = len(state.history)
        for lang in ("en", "de"):
            path = player_rules_path(name, lang)
            assert path.resolve().is_relative_to(site), path
            found["rules"][f"{name}.{lang}"] = len(path.read_text(encoding="utf-8"))
        found["levels"][name] = len(levels_section(name, "de"))  # from the shipped leaderboard
    found["catalogues"] = sorted(str(Path(str(p)).resolve().relative_to(site)) for p in messages._game_files("de"))
    assert messages.catalogue("de").text("option.watten.caller") != messages.catalogue("en").text("option.watten.caller")
    assert STATIC.resolve().is_relative_to(site), STATIC

    with TestClient(create_app(sys.argv[2], bot_delay=30.0, bot_pool="thread")) as client:
        paths = ["/", "/static/app.js", "/static/style.css", "/static/i18n.js", "/api/games",
                 *(f"/static/games/{g}.js" for g in game_names()), *(f"/rules/{g}?lang=de" for g in game_names())]
        for path in paths:
            r = client.get(path)
            found["web"][path] = [r.status_code, len(r.content)]
        r = client.post("/api/tables", json={"game": "wasserloch"})  # the store was migrated by Alembic
        found["web"]["POST /api/tables"] = [r.status_code, len(r.content)]
        rules = client.get("/rules/watten?lang=de").text
        found["rules_page_has_text"] = "Trumpf" in rules
    print(json.dumps(found))
''')


def test_unpacked_wheel_works_outside_the_repository(wheel, tmp_path):
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as z:
        z.extractall(site)
    (tmp_path / "check.py").write_text(CHECK, encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site),  # not the tree's src; dependencies from this environment
           "PYTHONDONTWRITEBYTECODE": "1", "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    done = subprocess.run([sys.executable, str(tmp_path / "check.py"), str(site),
                           f"sqlite:///{tmp_path / 'web.sqlite3'}"],
                          cwd=elsewhere, env=env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-4000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["games"] == GAMES
    assert all(found["played"][g] > 0 for g in GAMES), found["played"]
    assert all(found["rules"][f"{g}.{lang}"] > 1000 for g in GAMES for lang in ("en", "de")), found["rules"]
    assert found["catalogues"] == [f"wasserspiele/games/{g}/locale/de.po" for g in GAMES]
    assert all(found["levels"][g] > 0 for g in GAMES), found["levels"]
    assert {path: status for path, (status, _) in found["web"].items() if status != 200} == {"POST /api/tables": 201}
    assert all(size > 0 for _, size in found["web"].values()), found["web"]
    assert found["rules_page_has_text"]
