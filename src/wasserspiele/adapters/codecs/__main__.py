"""Print every game's action space and observation layout as Markdown:
`python -m wasserspiele.adapters.codecs [GAME] [--option name=value ...]` (docs/encodings.md)."""

from __future__ import annotations

import argparse
import json

import wasserspiele

from . import codec_for


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
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
    for name in args.games or wasserspiele.game_names():
        game = wasserspiele.load(name, **options)
        codec = codec_for(game)
        print(f"### {game.title} ({game!r}): {codec.num_actions} actions, {codec.obs_size} values\n")
        print(codec.describe())
        print()


if __name__ == "__main__":
    main()
