"""Print every game's action space and observation layout as Markdown:
`python -m wasserspiele.adapters.codecs [GAME] [--option name=value ...]` (docs/encodings.md)."""

from __future__ import annotations

import argparse
import json

import wasserspiele

from ...core.errors import WasserspieleError
from . import codec_for


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m wasserspiele.adapters.codecs", description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games (default: all, with default options)")
    parser.add_argument("--option", action="append", default=[], help="name=value (JSON value), e.g. players=2")
    args = parser.parse_args()
    options = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep:
            parser.error(f"--option {item!r}: write name=value")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    # every game is loaded before anything is printed: a bad name or option stops the
    # run with its message, not half a document and a traceback
    games = []
    for name in args.games or wasserspiele.game_names():
        try:
            games.append(wasserspiele.load(name, **options))
        except WasserspieleError as exc:
            given = " with " + ", ".join(args.option) if args.option else ""
            hint = "" if args.games or not options else \
                " (--option applies to every game described: name the games it is for, e.g. wasserloch)"
            parser.exit(2, f"{parser.prog}: error: {name}{given}: {exc}{hint}\n")
    for game in games:
        codec = codec_for(game)
        print(f"### {game.title} ({game!r}): {codec.num_actions} actions, {codec.obs_size} values\n")
        print(codec.describe())
        print()


if __name__ == "__main__":
    main()
