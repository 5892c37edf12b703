"""Bot specs on the command line (arena and lab): `heuristic`, `expert`, `heuristic:keep_pairs=0`.

Syntax (documented in `wasserspiele lab --help`, docs/bots.md and docs/reports/README.md)::

    SPEC  := KIND [":" PARAM ("," PARAM)*]
    PARAM := NAME "=" NUMBER-OR-WORD

* KIND is any kind `bots.registry.make_bot` knows (`random`, `heuristic`, `ismcts`)
  or a level (`easy`, `medium`, `hard`, `expert`: the level's bot and budget, which
  PARAMs may override).
* `learned` is the learned bot (bots/learned.py; `learned:search=200` searches with it,
  `learned:weights=FILE.npz` or just `FILE.npz` plays a checkpoint, and `FILE.npz:search=200`
  is `learned:weights=FILE.npz,search=200`).
* `python:package.module:factory` seats an outside policy: `factory(game, seed)` returns
  a bot (anything with `choose(decision)`).
* For `heuristic`, each PARAM sets one strategy trait (a weight; 0 switches the tip
  off) of that game's heuristic `Traits`, e.g. `heuristic:avoid_second_card=0,keep_pairs=2`.
  A game whose heuristic bot has no traits refuses any PARAM but `blunder`.
* Every kind takes `blunder=P`: in a share P (0 to 1) of its decisions with a choice the
  bot plays a legal move drawn at random (`heuristic:blunder=0.25`).
* For any other kind, PARAMs are passed to the bot as keyword arguments
  (`ismcts:iterations=200`), which the bot checks against their ranges (bots/ismcts.py:
  `iterations` and `learned:search` whole numbers up to 1,000,000, `seconds` and
  `cpu_seconds` above 0 and at most 3600, every number finite).  A search whose spec
  names no `cpu_seconds` keeps a default CPU safety net of 60 s a move, reported when it
  fires.

Several specs go in one `--bots` value separated by commas, spaces or `;`, or in
repeated `--bots` options; a comma followed by NAME=VALUE continues the parameters
of the spec before it (`ismcts:iterations=500,exploration=0.5,heuristic` is two specs).  Every spec is checked by building its bot once, before any game
is played; problems raise `BadOption` naming the spec and what is wrong.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass
from typing import Any

from ..core.errors import BadOption
from ..core.manifest import PluginMissing
from ..core.messages import Reason, reason_of
from ..core.options import number_text
from ..core.registry import manifest
from ..core.protocol import Game
from .base import Bot
from .levels import LEVELS, level_settings
from .registry import COMMON_SETTINGS, bot_kinds, make_bot


@dataclass(frozen=True)
class BotSpec:
    """One parsed bot spec: a kind and its parameters, in the order given."""

    kind: str
    params: tuple[tuple[str, Any], ...] = ()
    level: str | None = None  # the level named, whose bot is `kind`

    @property
    def text(self) -> str:
        """The canonical spelling (used as the bot's label in reports)."""
        name = self.level or self.kind
        if self.kind == "python":
            return f"python:{dict(self.params).get('factory', '')}"
        if not self.params:
            return name
        return name + ":" + ",".join(f"{k}={_fmt(v)}" for k, v in self.params)

    def __str__(self) -> str:
        return self.text

    def make(self, game: Game, seed: int | None) -> Bot:
        """A fresh bot for `game` with its own generator seeded by `seed`."""
        kind, kwargs = self.settings(game)
        return make_bot(kind, game, seed, **kwargs)

    def kind_for(self, game: Game) -> str:
        """The bot kind this spec means for `game` (a level's may differ per game)."""
        return self._base(game)[0]

    def _base(self, game: Game) -> tuple[str, dict[str, Any]]:
        return level_settings(self.level, game) if self.level else (self.kind, {})

    def settings(self, game: Game) -> tuple[str, dict[str, Any]]:
        """The bot kind and keyword arguments this spec means for `game`: a level's may
        differ per game (bots/levels.py), and its PARAMs then set that bot's arguments."""
        kind, base = self._base(game)
        if not self.params:
            return kind, base
        params = dict(self.params)
        if kind == "heuristic":
            traits = {k: v for k, v in params.items() if k not in COMMON_SETTINGS}
            params = {k: v for k, v in params.items() if k in COMMON_SETTINGS}
            if traits:
                params["traits"] = heuristic_traits(game.name)(**traits)
        return kind, {**base, **params}


def _fmt(v: Any) -> str:
    if isinstance(v, bool):  # as typed and read back (`belief=true`), not Python's True
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _value(text: str) -> Any:
    t = text.strip()
    for conv in (int, float):
        try:
            return number_text(t, conv)
        except ValueError:
            if t.lstrip("+-").isascii() and t.lstrip("+-").isdigit():
                return t  # digits past int's 4,300: refused as the text typed, not read as float's inf
    low = t.lower()
    if low in ("true", "false"):
        return low == "true"
    return t


def heuristic_traits(game_name: str) -> type | None:
    """The `Traits` dataclass of the game's heuristic bot, or None if it has none."""
    try:
        module = manifest(game_name).plugin_module("heuristic")
    except PluginMissing:
        raise BadOption(Reason("bot.no_heuristic", game=game_name)) from None
    traits = getattr(module, "Traits", None)
    return traits if dataclasses.is_dataclass(traits) else None


def trait_names(game_name: str) -> list[str]:
    """The names of the heuristic bot's switchable traits for a game ([] if none)."""
    traits = heuristic_traits(game_name)
    return [f.name for f in dataclasses.fields(traits)] if traits else []


def parse_bot_spec(text: str) -> BotSpec:
    """Parse one spec (syntax only; `check_spec` validates it against a game).  A refusal
    names the spec as typed, quoted by the catalogue in the reader's language."""
    raw = text.strip()
    if not raw:
        raise BadOption(Reason("bot.spec_empty"))
    if raw.lower().endswith(".npz") and "=" not in raw:  # a bare checkpoint of the learned bot
        return BotSpec("learned", (("weights", raw),))
    if raw.lower().startswith("python:"):  # an outside policy: python:package.module:factory
        return BotSpec("python", (("factory", raw.partition(":")[2].strip()),))
    params: list[tuple[str, Any]] = []
    at = raw.lower().find(".npz:")
    if at > 0 and "=" not in raw[:at]:
        # a checkpoint with settings, `FILE.npz:search=200`: `learned:weights=FILE.npz,search=200`
        kind, sep, rest = "learned", ":", raw[at + len(".npz:"):]
        params.append(("weights", raw[:at + len(".npz")]))
    else:
        kind, sep, rest = raw.partition(":")
    kind = kind.strip().lower()
    if not kind:
        raise BadOption(Reason("bot.spec_no_kind", spec=raw))
    level = None
    if kind in LEVELS and kind not in bot_kinds():
        level, kind = kind, LEVELS[kind][0]
    if sep:
        if not rest.strip():
            raise BadOption(Reason("bot.spec_nothing_after", spec=raw))
        seen = {name for name, _ in params}  # a checkpoint's weights given again: twice
        for part in rest.split(","):
            name, eq, value = part.partition("=")
            name = name.strip()
            if not eq or not name or not value.strip():
                raise BadOption(Reason("bot.spec_not_name_value", spec=raw, part=part.strip()))
            if name in seen:
                raise BadOption(Reason("bot.spec_twice", spec=raw, name=name))
            seen.add(name)
            params.append((name, _value(value)))
    return BotSpec(kind, tuple(params), level)


def split_spec_texts(values: list[str] | tuple[str, ...]) -> list[str]:
    """`--bots` values into single spec texts: split on commas, whitespace and ';',
    where a NAME=VALUE piece without ':' continues the spec before it."""
    out: list[str] = []
    for v in values:
        for word in v.replace(";", " ").split():
            for piece in word.split(","):
                if not piece:
                    continue
                if "=" in piece and ":" not in piece and out and ":" in out[-1]:
                    out[-1] += "," + piece
                else:
                    out.append(piece)
    return out



def empty_entry(text: str, specs: bool = False) -> int | None:
    """The place (from 1) of the first empty entry of a comma list (`2,,3`, `heuristic,`, `,random`),
    or None.  With `specs` the entries are bot specs, which `;` and spaces separate too and whose
    NAME=VALUE pieces continue the spec before (bots/specs.py `split_spec_texts`): the place counts
    specs, as `play --seats human,,easy` counts seats.  A text of nothing but commas and spaces
    names nothing at all: a refusal of its own (`lab.study.refuse_empty`, the arena's own), not an entry."""
    entries = text.split(",")
    if len(entries) < 2 or not text.replace(";", " ").replace(",", " ").strip():  # nothing at all: "names nothing"
        return None
    for at, entry in enumerate(entries):
        if not entry.replace(";", " ").strip():
            return (len(split_spec_texts([",".join(entries[:at])])) if specs else at) + 1
    return None

def bot_specs_given(given: Any) -> list[BotSpec]:
    """Bot specs as a Python caller gives them: one text (`"heuristic,random"`), a list of
    texts, or `BotSpec`s already parsed.  Anything else (a bot class or factory of the
    caller's own) is refused naming the spec form that seats it, where it failed as an
    AttributeError deep inside (or one text was read letter by letter as specs)."""
    if isinstance(given, (str, BotSpec)):
        given = [given]
    try:
        items = list(given)
    except TypeError:
        items = [given]
    for item in items:
        if not isinstance(item, (str, BotSpec)):
            # named as the caller wrote it (`First`, `make_bot`), not by its repr ("<class '__main__.First'>")
            given = getattr(item, "__qualname__", None) or type(item).__name__
            raise BadOption(Reason("bot.spec_not_text", given=given))
    out: list[BotSpec] = []
    # texts side by side are split together, as repeated --bots are (a NAME=VALUE piece continues the spec before)
    for is_text, run in itertools.groupby(items, key=lambda x: isinstance(x, str)):
        out.extend([parse_bot_spec(t) for t in split_spec_texts(list(run))] if is_text else run)
    return out


def check_spec(spec: BotSpec, game: Game) -> None:
    """Raise BadOption naming the spec if it cannot make a bot for `game`: the code
    `bot.spec` (or `bot.spec_level`, saying which bot a level is for the game) around the
    bot's own refusal, which the catalogue says in the same language."""
    if spec.kind not in bot_kinds():
        raise BadOption(Reason("bot.spec", spec=spec.text, problem=Reason(
            "bot.unknown_or_level", kind=spec.kind, bots=", ".join(bot_kinds()), levels=", ".join(LEVELS))))
    kind = spec.kind_for(game)
    traits = heuristic_traits(game.name) if kind == "heuristic" else None  # raises if the game has none
    try:
        if kind == "heuristic":
            _check_traits(spec, game, traits)
        spec.make(game, 0)
    except (BadOption, TypeError, ValueError, ImportError) as exc:
        # a bot's own check may still word its refusal in English (code `text`)
        problem = getattr(exc, "reason", None) or reason_of(str(exc))
        if problem.params.get("spec") == spec.text:  # it names the spec itself (`bot.python_*`): said once
            raise BadOption(problem) from None
        # a level's refusal says which bot the level is, for every level ("easy:iterations=5"
        # was refused as "the random bot has no setting …", a bot the player did not name)
        if spec.level:
            raise BadOption(Reason("bot.spec_level", spec=spec.text, level=spec.level, kind=kind, game=game.name,
                                   problem=problem)) from None
        raise BadOption(Reason("bot.spec", spec=spec.text, problem=problem)) from None


def _check_traits(spec: BotSpec, game: Game, traits: type | None) -> None:
    """Refuse a PARAM of a heuristic spec that is no trait of the game's heuristic, or a
    trait whose value is no finite number."""
    trait_params = [(name, value) for name, value in spec.params if name not in COMMON_SETTINGS]
    if not trait_params:
        return
    if traits is None:
        raise BadOption(Reason("bot.no_traits", game=game.name, settings=", ".join(COMMON_SETTINGS)))
    names = [f.name for f in dataclasses.fields(traits)]
    for name, value in trait_params:
        if name not in names:
            raise BadOption(Reason("bot.unknown_trait", name=name, game=game.name, traits=", ".join(names)))
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise BadOption(Reason("bot.trait_not_number", name=name, value=value))  # {value:shown}
        if not math.isfinite(value):  # NaN or inf was taken as a weight, which weighs nothing
            raise BadOption(Reason("bot.setting_not_finite", name=name, value=value))
