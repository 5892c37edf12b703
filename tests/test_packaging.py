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
no network) from a copy of the tree, twice in that copy as in a working tree where a wheel
was built before: the first build has a module and a data file that are gone by the second,
which must not ship them (setuptools packs its `build/lib`, which it never empties:
_build_backend/backend.py empties it).  The copy is byte-compiled before the second build,
as a tree is where Python ran (the server compiles the Alembic migrations), so cached
bytecode reaching the wheel shows.  The same wheel, installed with pip into a fresh
environment, runs the `wasserspiele` command outside the repository, and a game another
package declares in the `wasserspiele.games` entry-point group is listed.

The sdist is what distributions (Debian, conda-forge) build and test from: it holds every
file of the repository (the tests read docs/, bench/, examples/, deploy/, README.md), and
from it unpacked elsewhere, without ../shared beside it, the wheel builds and tests run."""

from __future__ import annotations

import compileall
import email.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import textwrap
import tomllib
import venv
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


# each game's data files, which the code reads at run time (named here as well, so that the
# comparison with the source walk cannot pass on a walk that missed them)
GAME_DATA = ["RULES.md", "RULES.de.txt", "rules.en.md", "rules.de.md", "web.js", "locale/en.po", "locale/de.po"]
PACKAGE_DATA = {*(f"wasserspiele/games/{g}/{name}" for g in GAMES for name in GAME_DATA),
                *(f"wasserspiele/bots/weights/{g}.{ext}" for g in GAMES for ext in ("npz", "json")),
                "wasserspiele/games/wildwasser/board.json", "wasserspiele/bots/leaderboard.json",
                "wasserspiele/locale/en.po", "wasserspiele/locale/de.po",
                "wasserspiele/web/static/index.html", "wasserspiele/web/static/app.js",
                "wasserspiele/web/static/style.css", "wasserspiele/web/migrations/script.py.mako"}
# a module and a data file that an earlier build in the same tree shipped, removed (or
# renamed) since
REMOVED = ["wasserspiele/renamed_since.py", "wasserspiele/web/static/renamed_since.js"]


def build_system() -> dict:
    return pyproject()["build-system"]


def copy_build_inputs(tree: Path) -> None:
    """What building the wheel reads: pyproject.toml, the backend's folder, the files the
    metadata names, and src/ without caches or an old egg-info."""
    for name in ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, tree / name)
    for folder in build_system().get("backend-path", []):
        shutil.copytree(ROOT / folder, tree / folder, ignore=lambda folder, names: [n for n in names if is_cache(Path(n))])
    shutil.copytree(SRC, tree / "src", ignore=lambda folder, names: [
        n for n in names if n.endswith(".egg-info") or is_cache(Path(n))])


def pip_wheel(tree: Path, out: Path) -> Path:
    """The wheel pip builds in `tree` (in place, as `pip wheel .` and `pip install .` do)."""
    # --check-build-dependencies: a backend older than [build-system] requires is named as
    # such (the test extra brings a recent one), not met as an obscure build error
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                           "--check-build-dependencies", "--no-index", "--disable-pip-version-check",
                           "-q", "-w", str(out), str(tree)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"building the wheel failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    [built] = out.glob("wasserspiele-*.whl")
    return built


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    tree = tmp_path_factory.mktemp("tree")
    copy_build_inputs(tree)
    for name in REMOVED:
        (tree / "src" / name).write_text("STALE = True\n", encoding="utf-8")
    earlier = pip_wheel(tree, tmp_path_factory.mktemp("earlier"))
    assert set(REMOVED) <= wheel_names(earlier)  # the files are the package's while they are there
    for name in REMOVED:
        (tree / "src" / name).unlink()
    compileall.compile_dir(tree / "src", quiet=1, legacy=False)
    return pip_wheel(tree, tmp_path_factory.mktemp("dist"))


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
    assert PACKAGE_DATA <= expected  # the walk saw the data files
    assert sorted(set(REMOVED) & shipped) == [], "the wheel ships files an earlier build left in build/lib"
    assert sorted(PACKAGE_DATA - shipped) == [], "data files of the games missing from the wheel"
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
    classifiers = meta.get_all("Classifier") or []
    assert classifiers == project["classifiers"]
    # PEP 639: with License-Expression a "License ::" classifier is refused by the index
    assert not [c for c in classifiers if c.startswith("License ::")]
    # the Python versions named are ones requires-python admits
    lowest = tuple(int(n) for n in re.fullmatch(r">=(\d+)\.(\d+)", project["requires-python"]).groups())
    named = [tuple(int(n) for n in m.groups()) for c in classifiers
             if (m := re.fullmatch(r"Programming Language :: Python :: (\d+)\.(\d+)", c))]
    assert named and all(v >= lowest for v in named), named


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


def test_wheel_installed_by_pip_runs_the_command_outside_the_repository(wheel, tmp_path):
    """`pip install wasserspiele-….whl` into a fresh environment: the console script runs,
    and a game another installed package declares in `wasserspiele.games` is listed."""
    env_dir = tmp_path / "env"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               capture_output=True, text=True, check=True).stdout.strip())
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env |= {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONDONTWRITEBYTECODE": "1"}
    # this environment's pip installs into the fresh one (`--python`), which sees no other wasserspiele
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
                           "--disable-pip-version-check", "-q", str(wheel)],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    # then the dependencies from this environment, after the fresh one's own packages: the
    # machine reaches no index from here.  Its `.pth` files are not run, so an editable
    # wasserspiele installed there stays out of the way.
    here = sorted({p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir()})
    (site / "dependencies_of_the_test.pth").write_text("\n".join(here) + "\n", encoding="utf-8")
    # a plugin: the fifth game of the tests, installed as its own package with its entry point
    shutil.copytree(ROOT / "tests" / "fifth_game", site / "fifth_game",
                    ignore=lambda folder, names: [n for n in names if n.startswith("test_") or is_cache(Path(n))])
    info = site / "pebbles_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: pebbles-plugin\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[wasserspiele.games]\npebbles = fifth_game.manifest:MANIFEST\n",
                                           encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    def command(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([env_dir / "bin" / "wasserspiele", *args], cwd=elsewhere, env=env,
                              capture_output=True, text=True, timeout=120)

    where = subprocess.run([python, "-c", "import wasserspiele; print(wasserspiele.__file__)"],
                           cwd=elsewhere, env=env, capture_output=True, text=True)
    assert Path(where.stdout.strip()).is_relative_to(site), where.stdout + where.stderr
    games = command("games")
    assert games.returncode == 0, games.stderr
    listed = re.findall(r"^(\w+)  \(", games.stdout, flags=re.M)
    assert listed == [*GAMES, "pebbles"], games.stdout  # the built-in games, then the entry points
    helped = command("play", "--help")
    assert helped.returncode == 0 and "--seats" in helped.stdout, helped.stderr
    version = command("--version")
    assert version.returncode == 0 and version.stdout.split()[-1] == pyproject()["project"]["version"], version.stdout


# --------------------------------------------------------------------------------- sdist
# files the build adds to an sdist beside the repository's: its metadata
SDIST_METADATA = re.compile(r"PKG-INFO|setup\.cfg|src/wasserspiele\.egg-info/.+")
# a PEP 517 frontend's call of `build_sdist` in the project folder (pip builds no sdist)
BUILD_SDIST = textwrap.dedent('''
    import importlib, sys, tomllib
    with open("pyproject.toml", "rb") as f:
        system = tomllib.load(f)["build-system"]
    sys.path[:0] = system.get("backend-path", [])
    module, _, name = system["build-backend"].partition(":")
    backend = importlib.import_module(module)
    for part in filter(None, name.split(".")):
        backend = getattr(backend, part)
    print(backend.build_sdist(sys.argv[1]))
''')
# tests that read the repository beyond the package (README, docs and the studies' reports,
# bench, pyproject, src) or ../shared, run from an unpacked sdist: a packager's selection, not
# the suite.  Each doc's command lines one by one are left out (30 s; the reading itself is
# run by the `spelt_right` test).
FROM_THE_SDIST = ["tests/test_docs_commands.py", "tests/test_layers.py", "tests/test_clause_coverage.py",
                  "-k", "not test_doc_command_line_is_accepted"]


def repository_files() -> list[str]:
    """The repository's files as git has them: tracked ones and new ones it does not
    ignore, that are there (a file deleted and not yet committed is not)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the sdist is compared with the repository's files (git ls-files)")
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True).stdout.decode("utf-8").split("\0")
    return sorted(n for n in set(listed) if n and (ROOT / n).is_file())


@pytest.fixture(scope="module")
def sdist(tmp_path_factory) -> tuple[Path, list[str]]:
    files = repository_files()
    tree = tmp_path_factory.mktemp("repository")
    for name in files:
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, tree / name)
    # what running Python and the tests leaves in a working tree: no sdist should carry it
    for folder in ("src", "tests", "bench"):
        compileall.compile_dir(tree / folder, quiet=1, legacy=False)
    (tree / "tests" / ".hypothesis" / "examples").mkdir(parents=True)
    (tree / "tests" / ".hypothesis" / "examples" / "0f").write_bytes(b"\0")
    out = tmp_path_factory.mktemp("sdist")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", BUILD_SDIST, str(out)], cwd=tree, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"building the sdist failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    built = out / done.stdout.strip().splitlines()[-1]
    assert built.name == f"wasserspiele-{pyproject()['project']['version']}.tar.gz"
    return built, files


def sdist_names(path: Path) -> set[str]:
    with tarfile.open(path) as tar:
        return {m.name.split("/", 1)[1] for m in tar.getmembers() if m.isfile()}


def test_sdist_holds_every_file_of_the_repository_and_no_caches(sdist):
    built, files = sdist
    shipped = {n for n in sdist_names(built) if not SDIST_METADATA.fullmatch(n)}
    assert {"tests/test_packaging.py", "docs/encodings.md", "bench/run.py", "README.md", "pyproject.toml",
            *(f"{folder}/backend.py" for folder in build_system().get("backend-path", []))} <= set(files)
    assert sorted(set(files) - shipped) == [], "files of the repository missing from the sdist"
    assert sorted(shipped - set(files)) == [], "files in the sdist that are not the repository's (caches?)"


def test_the_unpacked_sdist_builds_the_wheel_and_runs_tests_without_shared(sdist, wheel, tmp_path):
    """As a distribution does: unpack the sdist where no ../shared is beside it, build the
    wheel there (the same files as the tree's), install it, and run tests from the sdist."""
    built, _ = sdist
    unpacked = tmp_path / "unpacked"
    with tarfile.open(built) as tar:
        tar.extractall(unpacked, filter="data")
    [project] = unpacked.iterdir()
    assert not (project.parent / "shared").exists()
    rebuilt = pip_wheel(project, tmp_path / "dist")
    assert sorted(wheel_names(rebuilt) ^ wheel_names(wheel)) == [], "the sdist's wheel differs from the tree's"
    site = tmp_path / "site"
    with zipfile.ZipFile(rebuilt) as z:
        z.extractall(site)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env |= {"PYTHONPATH": str(site), "PYTHONDONTWRITEBYTECODE": "1",  # the installed package, not src/
            "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-rs",
                           *FROM_THE_SDIST], cwd=project, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    summary = done.stdout.strip().splitlines()[-1]
    assert re.search(r"\d+ passed", summary) and "failed" not in summary and "error" not in summary, summary
    # the tests that need the spec beside the checkout say so, and are the only ones skipped
    skipped = [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")]
    assert skipped and all("test_clause_coverage.py" in line and "shared spec folder is not beside this checkout" in line
                           for line in skipped), skipped
