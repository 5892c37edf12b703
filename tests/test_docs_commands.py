"""The command lines the documentation shows, read by the programs they name.

README.md, docs/*.md and the studies' READMEs show command lines a user copies: in shell
blocks (```sh) and in inline `code` that starts with a command (`./dev …`, `wasserspiele
…`, `python bench/….py …`). Options drift as the code changes; a line that names an option
or a value the program no longer takes fails the user who copies it. Each line here is
read by its program's own parser without being run:

* `wasserspiele` (and `./dev CMD`, `python -m wasserspiele`): the real entry point
  (`main.main`, with its --lang handling and the lab's `lab GAME` dispatch) with every
  command's body replaced by a no-op, so Click parses every option and value (choices,
  types, the callbacks that check a path) and refuses an unknown one; then the values Click
  takes as free text are checked as the command would check them: the game's name, its
  `--option`s, the bot specs, and a study's whole plan (`make_study`: plays nothing);
* the bench scripts (argparse): their `main()` with `parse_args` stopping after the parse,
  then the game and section names and bot specs as `main()` checks them;
* `pip install -e ".[extra]"`: the extra exists in pyproject.toml; `cd DIR && docker
  compose …`: DIR holds a compose file that reads the variables the line sets.

A synopsis (`GAME`, `N`, `FILE`, `[--vary …]`, `a|b|c`) is read with a sample value for each
placeholder and one line for each alternative; its free-text values are not checked.
Lines no parser can read are listed in NOT_PARSED with the reason.

Links: every relative link in these files names a file of the repository, and every
`#anchor` a heading of the file it points to; a file named in `code`
(`src/wasserspiele/web/app.py`, `bots/levels.py`) exists.

Each check is shown to fail on a doc with the mistake (the `…_fails` tests).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import re
import shlex
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import pytest

ROOT = Path(__file__).resolve().parent.parent

# every file whose command lines a user copies: README.md, docs/*.md, the studies' READMEs
DOC_FILES = sorted({ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "docs" / "reports").glob("*.md"),
                    *(ROOT / "docs" / "reports").glob("*/README.md")})

# how a command line starts (a shell word, then a space or the end of the span)
COMMAND_START = re.compile(
    r"^(?:[A-Z][A-Z0-9_]*=\S*\s+)*"  # VAR=value prefixes
    r"(?:\./dev|wasserspiele|python3?|\.venv/bin/python|pip|cd|docker|bench/\w+\.py)(?:\s|$)")
SHELL_BLOCKS = {"sh", "bash", "shell", "console"}

# inline spans that start like a command but are names in prose, not lines to run
NOT_COMMANDS = {
    "wasserspiele": "the program's name",
    "./dev": "the script's name",
    ".venv/bin/python": "the interpreter's name",
}

# lines no parser here reads, each with the reason
NOT_PARSED = {
    "./dev test": "pytest's own command line (checked by running the suite)",
    "./dev test -n 0 tests/test_x.py -s": "pytest's own arguments; tests/test_x.py stands for any test file",
}

# a placeholder's sample value when a synopsis is read
SAMPLES = {"GAME": "wasserloch", "<name>": "wasserloch", "$WORKERS": "2", "SECONDS": "1", "REV": "main", "SEED": "2026"}
PLACEHOLDER = re.compile(r"(?<![\w-])[a-z]?[A-Z][A-Z0-9_]*(?![a-z0-9_-])|<\w+>|\$\w+|…")
# placeholders of files (`--out FILE.npz`, `OUT.json`, `learned:weights=NEW`): any text reads the
# same, so a line with nothing else stays a line whose values are checked (a checkpoint the
# reader makes is not looked for: check_specs)
FILE_PLACEHOLDERS = {"FILE", "OUT", "NEW", "OLD", "DIR"}


@dataclass(frozen=True)
class DocCommand:
    where: str  # file:line
    text: str   # as the doc shows it (continuation lines joined)
    inline: bool = False  # an inline span (which may name a command in prose: `wasserspiele replay`)

    def __str__(self) -> str:
        return f"{self.where}: {self.text}"


def _fenced_blocks(text: str) -> list[tuple[int, str, str]]:
    """(first line's number, info string, body) of every fenced block."""
    return [(text[:m.start()].count("\n") + 2, m.group(2).strip(), m.group(3))
            for m in re.finditer(r"^( *)```([^\n]*)\n(.*?)^\1```", text, re.S | re.M)]


def doc_commands(path: Path, text: str | None = None) -> list[DocCommand]:
    """The command lines of one Markdown file: every line of a shell block (an indented line
    that starts no command continues the one above), and every inline `code` span outside the
    blocks that starts with a command."""
    text = path.read_text(encoding="utf-8") if text is None else text
    name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
    found: list[DocCommand] = []
    for first, info, body in _fenced_blocks(text):
        if info not in SHELL_BLOCKS:
            continue
        block: list[DocCommand] = []
        for offset, line in enumerate(body.splitlines()):
            line = line.removeprefix("$ ")
            if COMMAND_START.match(line.strip()):
                block.append(DocCommand(f"{name}:{first + offset}", line.strip()))
            elif line.strip() and line[:1].isspace() and block:  # a synopsis' continuation line
                block[-1] = DocCommand(block[-1].where, f"{block[-1].text} {line.strip()}")
        found += block
    # blocks blanked (their lines kept) so that a ``` is no inline span
    prose = re.sub(r"^( *)```.*?^\1```", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S | re.M)
    for m in re.finditer(r"(?<!`)`([^`]+)`(?!`)", prose):
        span = " ".join(m.group(1).split())
        if COMMAND_START.match(span) and span not in NOT_COMMANDS:
            found.append(DocCommand(f"{name}:{prose[:m.start()].count(chr(10)) + 1}", span, inline=True))
    return found


def all_commands() -> list[DocCommand]:
    return [c for path in DOC_FILES for c in doc_commands(path)]


# ---------------------------------------------------------------------------------------
# reading one line


class Parsed(Exception):
    """Raised by a script's patched parse_args: the arguments were read."""

    def __init__(self, namespace: argparse.Namespace):
        super().__init__()
        self.namespace = namespace


def expand(words: list[str]) -> list[list[str]]:
    """A synopsis into lines to parse: brackets dropped, `a|b|c` one line per alternative,
    each placeholder its sample, `…` after an option a value, at the end `--help` (the
    words before it must parse), elsewhere nothing."""
    lines: list[list[str]] = [[]]
    for i, word in enumerate(words):
        word = word.strip("[]")
        if not word:
            continue
        if word == "…":
            before = lines[0][-1] if lines[0] else ""
            if before.startswith("-"):
                choices = ["x"]
            elif i == len(words) - 1:
                choices = ["--help"]
            else:
                continue
        elif "|" in word:
            choices = word.split("|")
        else:
            sample = SAMPLES.get(word)
            if sample is None and re.fullmatch(r"[A-Z]", word):  # N, G, I, … a number
                sample = "2"
            choices = [sample or word]
        lines = [[*line, choice] for line in lines for choice in choices]
    return lines


def is_synopsis(words: list[str]) -> bool:
    return any(m.group(0) not in FILE_PLACEHOLDERS for w in words for m in PLACEHOLDER.finditer(w)) or any(
        "[" in w or "|" in w for w in words)


def check_line(command: DocCommand) -> None:
    """Read `command` with its program's parser; raise AssertionError saying why it fails."""
    words = shlex.split(command.text, comments=True)
    env: dict[str, str] = {}
    while words and re.fullmatch(r"[A-Z][A-Z0-9_]*=.*", words[0]):
        key, _, value = words.pop(0).partition("=")
        env[key] = value
    cwd = ROOT
    if words[:1] == ["cd"]:
        cwd = ROOT / words[1]
        assert cwd.is_dir(), f"{command}: no folder {words[1]}"
        assert words[2] == "&&", f"{command}: cd without &&"
        words = words[3:]
        while words and re.fullmatch(r"[A-Z][A-Z0-9_]*=.*", words[0]):
            key, _, value = words.pop(0).partition("=")
            env[key] = value
    if " ".join(words) in NOT_PARSED:
        return
    program, args = words[0], words[1:]
    if program in ("python", "python3", ".venv/bin/python"):
        if args[:2] == ["-m", "wasserspiele"]:
            return check_cli(command, args[2:])
        if args[:1] == ["-m"]:  # a module's __main__ (its argparse parser)
            module = ROOT / "src" / args[1].replace(".", "/")
            main_file = module / "__main__.py" if module.is_dir() else module.with_suffix(".py")
            _SCRIPTS.setdefault(main_file, importlib.import_module(
                f"{args[1]}.__main__" if module.is_dir() else args[1]))
            return check_script(command, main_file.relative_to(ROOT).as_posix(), args[2:])
        program, args = args[0], args[1:]
    if program == "./dev":
        if args[:1] == ["bench"]:
            return check_script(command, "bench/run.py", args[1:])
        if args[:1] == ["screenshots"]:
            return check_script(command, "docs/screenshots.py", args[1:])
        return check_cli(command, args)
    if program == "wasserspiele":
        return check_cli(command, args)
    if program.endswith(".py"):
        return check_script(command, program, args)
    if program == "pip":
        return check_install(command, args)
    if program == "docker":  # the project's one compose file is deploy/compose.yaml
        return check_compose(command, ROOT / "deploy" if cwd == ROOT else cwd, args, env)
    raise AssertionError(f"{command}: no parser for {program!r}; add one or list the line in NOT_PARSED")


def check_cli(command: DocCommand, args: list[str]) -> None:
    """The `wasserspiele` command line, parsed by the real entry point with no command run."""
    from wasserspiele.cli.main import main

    synopsis = is_synopsis(args)
    for line in expand(args):
        parsed: list[click.Context] = []
        original = click.Command.invoke
        # Group.invoke parses its subcommand and calls Command.invoke for each callback: the
        # contexts are recorded, no callback runs
        click.Command.invoke = lambda self, ctx: parsed.append(ctx)  # type: ignore[method-assign]
        try:
            main.main(line, prog_name="wasserspiele", standalone_mode=False)
        except click.exceptions.NoArgsIsHelpError:
            continue  # `wasserspiele lab` alone: the help, as documented
        except (click.MissingParameter, click.BadOptionUsage) as exc:
            if command.inline and mentions_cli(command, args):
                continue
            raise AssertionError(f"{command}: {' '.join(line)!r} is refused: {exc.format_message()}") from None
        except click.ClickException as exc:
            raise AssertionError(f"{command}: {' '.join(line)!r} is refused: {exc.format_message()}") from None
        finally:
            click.Command.invoke = original  # type: ignore[method-assign]
        if not synopsis and parsed:
            check_values(command, parsed[-1])


def mentions_cli(command: DocCommand, args: list[str]) -> bool:
    """Whether an inline span Click refused for a missing argument names a command (and its
    options) in prose, `wasserspiele lab render` or `wasserspiele train --out`, rather than a
    line to run: it ends in a command's name or an option. Then the command must exist and
    have the options; True."""
    from wasserspiele.cli.main import main

    if args and not args[-1].startswith("-") and args[-1] not in _command_names(main):
        return False

    def options(cmd: click.Command) -> dict[str, click.Parameter]:
        return {o: p for p in cmd.get_params(click.Context(cmd)) for o in [*p.opts, *p.secondary_opts]
                if isinstance(p, click.Option)}

    group: click.Command = main
    known = options(main)
    words = iter(args)
    for word in words:
        if word.startswith("-"):
            param = known.get(word.partition("=")[0])
            assert param is not None, f"{command}: {group.name} has no option {word}"
            if not (param.is_flag or param.count or "=" in word):
                next(words, None)  # its value
        elif isinstance(group, click.Group) and word in group.commands:
            group = group.commands[word]
            known = options(group)
        elif isinstance(group, click.Group) and group.name == "lab":
            group = group.commands["study"]  # `lab GAME`
            known = options(group)
        elif isinstance(group, click.Group):
            raise AssertionError(f"{command}: {group.name or 'wasserspiele'} has no command {word!r}")
    return True


def _command_names(group: click.Group) -> set[str]:
    names = set(group.commands)
    for command in group.commands.values():
        if isinstance(command, click.Group):
            names |= _command_names(command)
    return names


def check_values(command: DocCommand, ctx: click.Context) -> None:
    """What Click takes as free text, checked as the command checks it before it plays."""
    from wasserspiele.cli.lab import check_common, study_cmd, study_plan, tune_cmd
    from wasserspiele.core.errors import WasserspieleError
    from wasserspiele.core.registry import game_names
    from wasserspiele.lab.study import make_study
    from wasserspiele.lab.tune import plan_tune

    params = ctx.params
    try:
        if ctx.command is study_cmd:
            args, _ = study_plan(params)
            make_study(**{**args, "games": 1})  # every condition loaded, every bot built: nothing played
            check_common(params["jobs"], params["backend"], params["address"], params["min_effect"])
            return
        if ctx.command is tune_cmd:  # what `lab tune` checks before a backend starts
            plan_tune(params["game"], params["vary"], params["goal"], players=params["players"],
                      options=params["options"], first=params["games"])
            check_specs(command, params["game"], {}, list(params["bots"]))
            check_common(params["jobs"], params["backend"], params["address"], params["min_effect"])
            return
        # `leaderboard [GAME]...` takes several (none: every game)
        games = [params["game"]] if params.get("game") else list(params.get("games_") or ())
        for game in games:
            assert game in game_names(), f"{command}: no game {game!r} (games: {', '.join(game_names())})"
            check_game_values(command, game, params)
    except WasserspieleError as exc:
        raise AssertionError(f"{command}: {exc}") from None


def check_game_values(command: DocCommand, game: str, params: dict[str, Any]) -> None:
    from wasserspiele.cli.main import parse_options_for

    options = parse_options_for(game, list(params.get("options") or ()))
    if params.get("players"):
        options["players"] = int(str(params["players"][0] if isinstance(params["players"], tuple)
                                     else params["players"]).split(",")[0])
    bots = params.get("bots") or params.get("seats") or ()
    check_specs(command, game, options, [bots] if isinstance(bots, str) else list(bots))


def check_specs(command: DocCommand, game: str, options: dict[str, Any], texts: list[str]) -> None:
    """Each bot spec of `texts` makes a bot of `game` (`check_spec`), as the commands check
    them before they play. A user's own bot (`python:mypkg…`, a checkpoint under runs/ the
    reader trained) stands for one the reader has, and is read only for its syntax."""
    from wasserspiele.bots.specs import check_spec, parse_bot_spec, split_spec_texts
    from wasserspiele.core.registry import load

    instance = load(game, **options)
    for text in split_spec_texts(texts):
        if text == "human":
            continue
        spec = parse_bot_spec(text)
        weights = dict(spec.params).get("weights")
        if spec.kind == "python" or (weights is not None and not (ROOT / str(weights)).exists()):
            continue
        check_spec(spec, instance)


# the arguments that name games (or sections) in each script that checks them after the parse
SCRIPT_GAME_ARGUMENTS = {"bench/run.py": "what", "bench/ismcts.py": "games", "bench/kernels.py": "games",
                         "bench/learned.py": "games_", "bench/pairing.py": "game", "bench/web_load.py": "game"}


def check_script(command: DocCommand, script: str, args: list[str]) -> None:
    """A script's own argparse parser, run on the line's arguments: `main()` with parse_args
    stopping once they are read; then the game and section names it checks after the parse."""
    path = ROOT / script
    assert path.is_file(), f"{command}: no script {script}"
    if script == "docs/screenshots.py":  # its one optional argument is the output folder
        assert len(args) <= 1, f"{command}: docs/screenshots.py takes one folder at most"
        return
    if script == "tests/golden/playthrough.py":  # no parser: sys.argv[1:] are game names
        if not is_synopsis(args):
            from wasserspiele.core.registry import game_names
            for name in args:
                assert name in game_names(), f"{command}: no game {name!r}"
        return
    module = _script_module(path)
    synopsis = is_synopsis(args)
    # an inline span naming the script and options in prose (`bench/pairing.py`, `bench/learned.py
    # --no-expert`): its options must exist, its required arguments may be left out
    mention = command.inline and (not args or args[-1].startswith("-"))
    for line in expand(args):
        if mention and "--help" not in line:
            line = [*line, "--help"]
        original, error = argparse.ArgumentParser.parse_args, argparse.ArgumentParser.error

        def parse_and_stop(self, args=None, namespace=None):
            raise Parsed(original(self, args, namespace))

        def refuse(self, message):  # the parser's own words, not its exit
            raise AssertionError(f"{command}: {script} refuses {' '.join(line)!r}: {message}")

        argparse.ArgumentParser.parse_args = parse_and_stop  # type: ignore[method-assign]
        argparse.ArgumentParser.error = refuse  # type: ignore[method-assign]
        argv, sys.argv = sys.argv, [script, *line]
        try:
            module.main()
        except Parsed as done:
            if not synopsis:
                from wasserspiele.core.errors import WasserspieleError
                try:
                    check_script_values(command, script, done.namespace)
                except WasserspieleError as exc:
                    raise AssertionError(f"{command}: {exc}") from None
        except SystemExit as exc:  # the help, where the line is a mention
            if exc.code not in (0, None) or "--help" not in line:
                raise AssertionError(f"{command}: {script} exits {exc.code} on {' '.join(line)!r}") from None
        else:
            raise AssertionError(f"{command}: {script} read no arguments with argparse")
        finally:
            argparse.ArgumentParser.parse_args = original  # type: ignore[method-assign]
            argparse.ArgumentParser.error = error  # type: ignore[method-assign]
            sys.argv = argv


_SCRIPTS: dict[Path, Any] = {}


def _script_module(path: Path) -> Any:
    if path not in _SCRIPTS:
        spec = importlib.util.spec_from_file_location(f"_docs_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        sys.path.insert(0, str(path.parent))
        try:
            spec.loader.exec_module(module)
        finally:
            sys.path.remove(str(path.parent))
        _SCRIPTS[path] = module
    return _SCRIPTS[path]


def check_script_values(command: DocCommand, script: str, namespace: argparse.Namespace) -> None:
    from wasserspiele.core.registry import game_names

    module = _SCRIPTS[ROOT / script]
    sections = getattr(module, "SECTIONS", {}) if script == "bench/run.py" else {}
    names = set(game_names()) | set(sections)
    if script == "bench/kernels.py":  # its sections are the games with a compiled kernel
        names = set(module.SECTIONS)
    key = SCRIPT_GAME_ARGUMENTS.get(script)
    if key is not None:
        value = getattr(namespace, key)
        for name in [value] if isinstance(value, str) else value or ():
            assert name in names, f"{command}: {script} takes no {name!r} (it takes {', '.join(sorted(names))})"
    if script == "bench/pairing.py":
        check_specs(command, namespace.game, {}, [namespace.a, namespace.b])


def check_install(command: DocCommand, args: list[str]) -> None:
    assert args[:2] == ["install", "-e"], f"{command}: only `pip install -e .[extra]` is read here"
    target = args[2]
    m = re.fullmatch(r"\.(?:\[([\w,-]+)\])?", target)
    assert m, f"{command}: {target!r} is not this project"
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    for extra in (m.group(1) or "").split(","):
        assert not extra or extra in extras, f"{command}: no extra {extra!r} (extras: {', '.join(extras)})"


def check_compose(command: DocCommand, cwd: Path, args: list[str], env: dict[str, str]) -> None:
    assert args[:2] == ["compose", "up"], f"{command}: only `docker compose up` is read here"
    compose = cwd / "compose.yaml"
    assert compose.is_file(), f"{command}: no compose.yaml in {cwd.relative_to(ROOT)}"
    text = compose.read_text(encoding="utf-8")
    for name in env:
        assert "${" + name in text, f"{command}: {compose.relative_to(ROOT)} does not read {name}"
    assert set(args[2:]) <= {"--build", "-d"}, f"{command}: options of docker compose up not known here"


# ---------------------------------------------------------------------------------------
# the tests


def test_every_doc_shows_command_lines_that_are_read():
    """The extraction finds the lines (a broken extraction would check nothing)."""
    commands = all_commands()
    where = {c.where.partition(":")[0] for c in commands}
    assert {"README.md", "docs/bots.md", "docs/learned.md", "docs/performance.md",
            "docs/reports/watten-raising/README.md"} <= where
    texts = {c.text for c in commands}
    assert any(t.startswith("./dev lab render study/ ") for t in texts)  # a shell block's line
    assert "./dev rules wildwasser --lang de" in texts  # an inline span


@pytest.mark.parametrize("command", all_commands(), ids=str)
def test_doc_command_line_is_accepted(command):
    check_line(command)


MISTAKES = [  # (a doc's line with one mistake, a word the refusal names)
    ("```sh\n./dev lab wasserloch --option rounds=1 --gamez 10\n```", "--gamez"),
    ("`wasserspiele lab tune seven_waters --vary slide_limit=5..9 --goal fairest`", "fairest"),
    ("`wasserspiele lab tune seven_waters --vary slide_limt=5..9 --goal fair-seats`", "slide_limt"),
    ("`wasserspiele arena wasserlok --bots heuristic,random`", "wasserlok"),
    ("`wasserspiele play seven_waters --option slide=7`", "slide"),
    ("`./dev play wasserloch --seats human,expertt`", "expertt"),
    ("`wasserspiele arena watten --bots ismcts:iterationz=5,heuristic`", "iterationz"),
    ("`./dev lab watten --compare raising=false,maybe`", "maybe"),
    ("`wasserspiele --lang fr games`", "fr"),
    ("`wasserspiele train --outt`", "--outt"),
    ("`wasserspiele lab rendr`", "rendr"),
    ("`python bench/pairing.py watten hard expert 3 4 400 OUT.json --dataa x`", "unrecognized arguments: --dataa"),
    ("`bench/pairing.py watten hard expert 3 4 400`", "required: out"),
    ("`bench/pairing.py watten hard:iterations=500 medium 3 16 300 OUT.json`", "hard:iterations=500"),
    ("`./dev bench engines wasserlok -s 2`", "wasserlok"),
    ('`pip install -e ".[rll]"`', "rll"),
]


@pytest.mark.parametrize("line, word", MISTAKES, ids=[word for _, word in MISTAKES])
def test_a_mistake_in_a_doc_command_fails(tmp_path, line, word):
    """A doc naming an option the command does not have, a value out of its choices, an
    unknown game, option, bot or setting, a bench flag or argument that is not there, or
    an extra that is not: each is refused, naming the mistake."""
    doc = tmp_path / "README.md"
    doc.write_text(line + "\n", encoding="utf-8")
    [command] = doc_commands(doc)
    with pytest.raises(AssertionError) as refused:
        check_line(command)
    # the reason, after the line and the words the program was given, which it quotes
    said = str(refused.value).removeprefix(f"{command}: ")
    quoted = re.match(r"(?:[\w./]+ refuses )?'[^']*'(?: is refused)?: (.*)", said, re.S)
    assert word in (quoted.group(1) if quoted else said), said


def test_the_same_lines_spelt_right_are_read(tmp_path):
    good = tmp_path / "good.md"
    good.write_text("`./dev lab wasserloch --option rounds=1 --games 10`\n"
                    "`wasserspiele lab tune seven_waters --vary slide_limit=5..9 --goal fair-seats`\n"
                    "`./dev play wasserloch --seats human,expert`\n"
                    "`python bench/pairing.py watten hard expert 3 4 400 OUT.json --data x`\n"
                    "`wasserspiele train --out`\n"
                    '`pip install -e ".[rl]"`\n', encoding="utf-8")
    commands = doc_commands(good)
    assert len(commands) == 6
    for command in commands:
        check_line(command)


def test_study_readme_names_the_command_its_study_ran():
    """Each study's README opens with the command that made it: study.json's `command`."""
    import json

    for study in sorted((ROOT / "docs" / "reports").glob("*/study.json")):
        recorded = json.loads(study.read_text(encoding="utf-8"))["command"]
        shown = [c.text for c in doc_commands(study.parent / "README.md")]
        assert shown and shown[0] == recorded, f"{study.parent.name}: README shows {shown[:1]}, study ran {recorded!r}"


# ---------------------------------------------------------------------------------------
# links


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`([^`]*)`", r"\1", heading.strip()).lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    prose = re.sub(r"^( *)```.*?^\1```", "", text, flags=re.S | re.M)
    found: set[str] = set()
    seen: dict[str, int] = {}
    for m in re.finditer(r"^#{1,6}\s+(.*?)\s*#*\s*$", prose, re.M):
        base = _anchor(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    found |= set(re.findall(r"<a\s+(?:name|id)=\"([^\"]+)\"", text))
    return found


def links(path: Path) -> list[tuple[int, str]]:
    text = path.read_text(encoding="utf-8")
    prose = re.sub(r"^( *)```.*?^\1```", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S | re.M)
    prose = re.sub(r"(?<!`)`[^`]+`(?!`)", lambda m: " " * len(m.group(0)), prose)
    return [(prose[:m.start()].count("\n") + 1, m.group(1))
            for m in re.finditer(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", prose)]


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    problems = []
    for line, target in links(path):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, mailto:
            continue
        file, _, anchor = target.partition("#")
        goal = (path.parent / file).resolve() if file else path
        if not goal.exists():
            problems.append(f"{path.relative_to(root)}:{line}: {target} names no file")
        elif anchor and goal.suffix == ".md" and anchor not in anchors(goal):
            problems.append(f"{path.relative_to(root)}:{line}: {target}: no heading #{anchor} in {goal.name}")
    return problems


@pytest.mark.parametrize("path", DOC_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_resolve(path):
    assert broken_links(path) == []


def test_a_broken_link_fails(tmp_path):
    """A link to a missing file and one to a missing heading are found; a good one is not."""
    (tmp_path / "docs").mkdir()
    doc = tmp_path / "docs" / "bots.md"
    doc.write_text("[a](../README.md#quick-start) [b](../README.md#no-such-part) [c](missing.md)\n"
                   "`[d](not-a-link.md)`\n", encoding="utf-8")
    (tmp_path / "README.md").write_text("# wasserspiele\n\n## Quick start\n", encoding="utf-8")
    assert broken_links(doc, tmp_path) == [
        "docs/bots.md:1: ../README.md#no-such-part: no heading #no-such-part in README.md",
        "docs/bots.md:1: missing.md names no file",
    ]


# a file named in `code` (`src/wasserspiele/web/app.py`, `bench/pairing.py`, `bots/levels.py`):
# the path of a file with its extension, read from the doc's folder, the repository or the
# package (the docs name the package's modules from inside it, as `bots/levels.py`)
FILE_SPAN = re.compile(r"(?:\.\./|[\w.-]+/)+[\w.-]+\.(?:py|md|json|yaml|toml|txt|csv|png|npz|sh|html|js|po|conf)")
FILE_BASES = ("", "src/wasserspiele", "src/wasserspiele/web")
# files a doc names that are no file of the repository, each with the reason
NOT_REPOSITORY_FILES = {
    "plots/variants.png": "a file every study writes into its own folder",
    "../svg.js": "a game's browser module imports it by its URL, /static/svg.js",
    "../i18n.js": "a game's browser module imports it by its URL, /static/i18n.js",
}


def missing_files(path: Path, root: Path = ROOT) -> list[str]:
    text = path.read_text(encoding="utf-8")
    prose = re.sub(r"^( *)```.*?^\1```", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S | re.M)
    problems = []
    for m in re.finditer(r"(?<!`)`([^`\s]+)`(?!`)", prose):
        name = m.group(1)
        if not FILE_SPAN.fullmatch(name) or name in NOT_REPOSITORY_FILES or PLACEHOLDER.search(name):
            continue
        if name.startswith("../") and not (root / name).resolve().is_relative_to(root):
            continue  # beside the repository (`../shared/spec/records.md`, the project's spec): no file of it
        # a name going up (`../…`) from the doc's folder only
        bases = [path.parent] if name.startswith("../") else [path.parent, *(root / b for b in FILE_BASES)]
        candidates = [(base / name).resolve() for base in bases]
        if not any(c.exists() for c in candidates):
            problems.append(f"{path.relative_to(root)}:{prose[:m.start()].count(chr(10)) + 1}: no file {name}")
    return problems


@pytest.mark.parametrize("path", DOC_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_files_named_in_code_exist(path):
    assert missing_files(path) == []


def test_a_missing_file_named_in_code_fails(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "run.py").write_text("", encoding="utf-8")
    doc = tmp_path / "docs" / "x.md"
    doc.write_text("`bench/run.py` and `bench/gone.py`; `study/report.md` is GAME's: `runs/GAME.npz`\n",
                   encoding="utf-8")
    assert missing_files(doc, tmp_path) == ["docs/x.md:1: no file bench/gone.py",
                                            "docs/x.md:1: no file study/report.md"]
