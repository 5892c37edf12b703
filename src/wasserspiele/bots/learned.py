"""The learned bot: a small network over the codec's observation vector, played in numpy.

A multilayer perceptron (ReLU hidden layers) reads the float32 vector a game's codec
makes of the bot's view and has two heads: a policy over the codec's fixed action
space, masked to the legal actions, and a value (a sigmoid: the seat's expected
reward, 0..1, as `State.returns()` counts it, so Watten partners share).  Weights are
trained by expert iteration (bots/learned_train.py) and shipped per game as
`bots/weights/<game>.npz` with a JSON sidecar saying how they were made.

* `learned` plays the policy head's best legal action (ties broken by the bot's own
  generator): one forward pass a move, no search.
* `learned:search=N` runs N iterations of ISMCTS guided by the network (PUCT with the
  policy as prior, the value instead of rollouts; bots/ismcts.py `Guide`);
  `value=rollout` values the leaves by the expert's own rollouts instead of the value
  head, and `cpu_seconds=S` is the search's CPU safety net, as for `ismcts` (which
  keeps its default net without it).
* `learned:weights=FILE.npz` (or `FILE`, meaning FILE.npz: `weights_file`) plays a
  checkpoint instead of the shipped weights.

Playing needs numpy only.
"""

from __future__ import annotations

import json
import shlex
import zipfile
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from ..core.errors import BadOption
from ..core.manifest import PluginMissing
from ..core.messages import Reason, json_text
from ..core.protocol import Action, Game, State
from .base import Bot, Decision

WEIGHTS_PACKAGE = "wasserspiele.bots.weights"


class Network:
    """An MLP with a policy and a value head; parameters are float32 numpy arrays."""

    def __init__(self, params: Mapping[str, np.ndarray], meta: Mapping[str, Any] | None = None):
        self.params = {k: np.asarray(v, dtype=np.float32) for k, v in params.items()}
        self.meta = dict(meta or {})
        self.depth = sum(1 for k in self.params if k.startswith("w") and k[1:].isdigit())
        self.obs_size = self.params["w0"].shape[0]
        self.num_actions = self.params["wp"].shape[1]

    @classmethod
    def init(cls, obs_size: int, num_actions: int, hidden: Sequence[int], rng: np.random.Generator,
             meta: Mapping[str, Any] | None = None) -> "Network":
        """Fresh weights (He initialisation; small policy and value outputs)."""
        params: dict[str, np.ndarray] = {}
        sizes = [obs_size, *hidden]
        for i in range(len(hidden)):
            params[f"w{i}"] = rng.normal(0, np.sqrt(2.0 / sizes[i]), (sizes[i], sizes[i + 1]))
            params[f"b{i}"] = np.zeros(sizes[i + 1])
        params["wp"] = rng.normal(0, 0.01, (sizes[-1], num_actions))
        params["bp"] = np.zeros(num_actions)
        params["wv"] = rng.normal(0, 0.01, (sizes[-1], 1))
        params["bv"] = np.zeros(1)
        return cls(params, meta)

    def hidden(self, x: np.ndarray) -> list[np.ndarray]:
        """The activations of every hidden layer (the input first)."""
        acts = [x]
        for i in range(self.depth):
            acts.append(np.maximum(acts[-1] @ self.params[f"w{i}"] + self.params[f"b{i}"], 0.0))
        return acts

    def _top(self, x: np.ndarray) -> np.ndarray:
        """The last hidden layer only (the search's path: a few numpy calls per layer)."""
        p = self.params
        for i in range(self.depth):
            x = x @ p[f"w{i}"]
            x += p[f"b{i}"]
            np.maximum(x, 0.0, out=x)
        return x

    def logits(self, x: np.ndarray) -> np.ndarray:
        """Policy logits [actions] of one observation."""
        return self.logits_rows(x[None])[0]

    def logits_rows(self, x: np.ndarray) -> np.ndarray:
        """Policy logits [n, actions] of observations [n, obs_size], each row exactly
        (bit for bit) what `logits` gives for that observation alone.

        A plain matrix product over the batch may sum in another order than the
        vector product of one row (BLAS picks other kernels), and a logit a few 1e-6
        off can turn a near tie into another move; a stacked product [n, 1, k] @
        [k, m] runs the one-row kernel for every row inside numpy, so a batch of games
        plays the moves each game plays alone, at nearly a batched product's speed."""
        p = self.params
        h = x[:, None, :]
        for i in range(self.depth):
            h = np.matmul(h, p[f"w{i}"])
            h += p[f"b{i}"]
            np.maximum(h, 0.0, out=h)
        h = np.matmul(h, p["wp"])
        h += p["bp"]
        return h[:, 0, :]

    def values(self, x: np.ndarray) -> np.ndarray:
        """Values in 0..1 [n] of observations [n, obs_size] (the policy head skipped)."""
        z = self._top(x) @ self.params["wv"][:, 0] + self.params["bv"][0]
        return 1.0 / (1.0 + np.exp(-z))

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(policy logits [n, actions], values in 0..1 [n]) for observations [n, obs_size]."""
        h = self.hidden(np.atleast_2d(x))[-1]
        logits = h @ self.params["wp"] + self.params["bp"]
        z = (h @ self.params["wv"] + self.params["bv"])[:, 0]
        return logits, 1.0 / (1.0 + np.exp(-z))

    def save(self, path: str | Path, meta: Mapping[str, Any] | None = None) -> tuple[Path, Path]:
        """The weights (.npz, float16 to stay small) and their JSON sidecar: `path` names
        them as `weights_file` reads it (FILE.npz, or FILE meaning FILE.npz; the sidecar is
        FILE.json).  Returns the two paths written."""
        path = weights_file(path, writing=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **{k: v.astype(np.float16) for k, v in self.params.items()})
        if meta is not None:
            self.meta = dict(meta)
        sidecar = path.with_suffix(".json")
        sidecar.write_text(json.dumps(self.meta, indent=1, sort_keys=True) + "\n")
        return path, sidecar

    @classmethod
    def load(cls, path: str | Path) -> "Network":
        """The network in the weights file `path` names (`weights_file`).  A file that is
        not one is refused by a `bot.learned.*` code naming it as given, which the
        catalogue quotes in the reader's language (`learned:weights=` is typed text)."""
        given = str(path)
        path = weights_file(path)
        if path.suffix.lower() == ".json":
            # most likely the sidecar, which says how the weights were made; numpy would
            # only complain of pickled data and allow_pickle
            beside = path.with_suffix(".npz")
            if beside.is_file():
                raise BadOption(Reason("bot.learned.weights_json_beside", given=given, beside=str(beside)))
            raise BadOption(Reason("bot.learned.weights_json", given=given))
        try:
            data = np.load(path, allow_pickle=False)
        except FileNotFoundError:
            if path.name != Path(given).name:  # the suffix the name was given without
                raise BadOption(Reason("bot.learned.no_file_suffix", given=given, path=str(path),
                                       name=path.name)) from None
            raise BadOption(Reason("bot.learned.no_file", given=given, path=str(path))) from None
        except IsADirectoryError:
            raise BadOption(Reason("bot.learned.directory", given=given)) from None
        except (OSError, ValueError, EOFError, zipfile.BadZipFile):
            # numpy's own words here are about pickles and magic strings: a text or JSON
            # file read as weights says "allow_pickle=False", which helps nobody
            raise BadOption(Reason("bot.learned.not_weights", given=given)) from None
        if not isinstance(data, np.lib.npyio.NpzFile):  # a single .npy array, not an archive of them
            raise BadOption(Reason("bot.learned.not_weights", given=given))
        try:
            with data:
                params = {k: data[k] for k in data.files}
        except (OSError, ValueError, EOFError, zipfile.BadZipFile):  # a damaged archive
            raise BadOption(Reason("bot.learned.not_weights", given=given)) from None
        missing = {"w0", "b0", "wp", "bp", "wv", "bv"} - set(params)
        if missing:
            raise BadOption(Reason("bot.learned.missing_arrays", given=given, names=", ".join(sorted(missing))))
        sidecar = path.with_suffix(".json")
        meta = json.loads(sidecar.read_text()) if sidecar.exists() else {}
        return cls(params, meta)


def weights_file(path: str | Path, writing: bool = False) -> Path:
    """The weights file a name means, the same for `wasserspiele train --out` and
    `learned:weights=`: FILE.npz is itself, and a name without a suffix means FILE.npz
    (numpy's own rule, so `--out w` and `learned:weights=w` agree); the sidecar is
    always FILE.json.  Writing, any other suffix is refused: numpy would append .npz
    (`w.txt.npz`) while the sidecar took the suffix's place (`w.json`), and the name
    given would be no file at all.  Reading, a file with another suffix is read as
    given (a renamed checkpoint); its contents decide."""
    path = Path(path)
    if not path.suffix:
        return path.with_name(path.name + ".npz")
    if writing and path.suffix != ".npz":  # numpy appends .npz to anything else, .NPZ too
        raise BadOption(Reason("bot.learned.write_name", name=path.name))
    return path


def shipped_weights(game: Game) -> Path:
    """Where the package keeps the weights trained for `game`."""
    return Path(_shipped(game.name))


@lru_cache(maxsize=16)
def _shipped(name: str) -> str:
    """The shipped weights' resolved path (found once: a lab chunk builds a learned bot
    per seat and game, and finding the package's files cost more than the rest of it)."""
    return str(Path(str(resources.files(WEIGHTS_PACKAGE) / f"{name}.npz")).resolve())


@lru_cache(maxsize=16)
def _cached(path: str) -> Network:
    return Network.load(path)


def _other_options(shown: Mapping[str, Any], against: Mapping[str, Any]) -> str:
    """The options (every one filled in) in which `shown` differs from `against`, with
    `shown`'s values as a spec or a record writes them (`players=4`, `chase=nearest`)."""
    return ", ".join(f"{k}={_written(shown.get(k))}" for k in sorted(against) if against[k] != shown.get(k))


def network_for(game: Game, codec, weights: str | Path | None = None) -> Network:
    """The network for `game` (the shipped one unless `weights` names a file), checked
    against the codec's sizes (they depend on options such as the number of players)."""
    path = weights_file(weights) if weights else shipped_weights(game)
    if not weights and not path.exists():
        raise BadOption(Reason("bot.learned.none_shipped", game=game.name))
    # the shipped path is resolved already; a checkpoint's name is resolved as given (the
    # loader applies `weights_file` and names it in its refusals as given)
    net = _cached(str(path if not weights else Path(weights).resolve()))
    if (net.obs_size, net.num_actions) != (codec.obs_size, codec.num_actions):
        trained = net.meta.get("options", {})
        try:
            made_for = type(game)(**trained).options if net.meta.get("game") == game.name else None
        except (BadOption, TypeError):  # (options of another version: the sizes say what is known)
            made_for = None
        if made_for is not None and made_for != game.options:
            # the options the sizes come from, named: the shipped Wildwasser weights (4
            # players, "options {}") at a 2-player table said only "observations of 1436
            # … has 956", of options the player never gave
            raise BadOption(Reason("bot.learned.made_for_options", name=path.name, game=game.name,
                                   trained=_other_options(made_for, game.options),
                                   now=_other_options(game.options, made_for)))
        # the sidecar's options are JSON, shown as JSON writes them
        raise BadOption(Reason("bot.learned.wrong_size", name=path.name, obs=net.obs_size, actions=net.num_actions,
                               trained=json_text(trained), game=game.name, game_obs=codec.obs_size,
                               game_actions=codec.num_actions))
    made_for = net.meta.get("codec")
    if made_for is not None and made_for != codec_fingerprint(codec):
        raise BadOption(Reason("bot.learned.other_encoding", name=path.name, game=game.name, made_for=str(made_for),
                               now=codec_fingerprint(codec),
                               command=str(net.meta.get("command") or retrain_command(game.name, path))))
    return net


def retrain_command(game: str, path: Path) -> str:
    """The command that remakes weights whose sidecar names none: with `--out` naming
    them, since `train` without it writes GAME-learned.npz in the current directory, not
    the shipped file."""
    return f"wasserspiele train {game} --out {shlex.quote(str(path))}"


def weights_problem(game: Game) -> Reason | None:
    """Why the shipped weights cannot play `game` as it is set up (None: they can): none
    shipped, made for another encoding or size, or trained on other options (a network
    learns one variant; the same sizes do not make another variant's play right)."""
    try:
        net = network_for(game, codec_of(game))
    except BadOption as exc:
        return exc.reason
    trained = net.meta.get("options", {})
    try:
        made_for = type(game)(**trained).options
    except BadOption as exc:
        return Reason("bot.learned.stale_options", game=game.name, trained=json_text(trained), problem=exc.reason)
    if made_for != game.options:
        # option values as a spec or a record writes them (`chase=nearest`, `first_player=0`)
        return Reason("bot.learned.other_options", game=game.name, options=_other_options(made_for, game.options))
    return None


def _written(value: Any) -> str:
    """An option value as typed after NAME= (text as it is, anything else as JSON)."""
    return value if isinstance(value, str) else json_text(value)


_codecs: dict[tuple, Any] = {}  # (game class, options) -> codec; a few entries


def codec_of(game: Game):
    """The game's codec, found through its manifest (codecs are plug-ins of the game).

    One per game class and options (the codec depends on nothing else), so the bots of
    a lab chunk — a few per game, thousands of games — do not each deal a probe game to
    measure the layout.  Keyed by the options, not the game object: a codec refers to
    its game, so a cache keyed by the object would keep every game alive."""
    key = (type(game), tuple(sorted(game.options.items())))
    try:
        codec = _codecs.get(key)
    except TypeError:  # an option value that cannot be a key: no cache
        key, codec = None, None
    if codec is None:
        try:
            cls = game.manifest.plugin("codec")
        except PluginMissing:
            raise BadOption(Reason("bot.learned.no_codec", game=game.name)) from None
        codec = cls(game)
        if key is not None:
            if len(_codecs) >= 64:
                _codecs.clear()
            _codecs[key] = codec
    return codec


def codec_fingerprint(codec) -> str:
    """A digest of the codec's observation layout and action names: weights trained on
    one encoding are refused by another of the same size (computed once per codec)."""
    found = getattr(codec, "_fingerprint", None)
    if found is None:
        import hashlib
        text = repr((codec.layout, codec.action_names))
        found = codec._fingerprint = hashlib.blake2b(text.encode(), digest_size=8).hexdigest()
    return found


def network_fingerprint(network: "Network") -> str:
    """A digest of the network's weights (what a search it guided depends on)."""
    import hashlib
    digest = hashlib.blake2b(digest_size=8)
    for name in sorted(network.params):
        digest.update(name.encode())
        digest.update(np.ascontiguousarray(network.params[name]).tobytes())
    return digest.hexdigest()


def masked_softmax(logits: np.ndarray, indices: Sequence[int]) -> np.ndarray:
    """Probabilities over `indices` only."""
    z = logits[list(indices)].astype(np.float64)
    z = np.exp(z - z.max())
    return z / z.sum()


class NetworkGuide:
    """The network as a search guide (bots/ismcts.py `Guide`): it reads the sampled
    world only as each seat sees it — the codec's `observe_state`, which encodes the
    seat's view without building it (the same vector as `observe(view)`), so a guided
    iteration costs about what a rollout iteration does."""

    def __init__(self, network: Network, codec, playout=None):
        self.network = network
        self.codec = codec
        # playout(world) -> values: value a leaf as the expert does (its rollout, in the
        # compiled kernel where there is one, and the score lead) instead of by the value
        # head; the prior still guides
        self.playout = playout

    def priors(self, world: State, seat: int, legal: Sequence[Action]) -> np.ndarray:
        codec = self.codec
        view = world.view(seat) if codec.actions_need_view else None
        logits = self.network.logits(codec.observe_state(world, seat))
        return masked_softmax(logits, list(codec.legal_map(legal, view)))

    def values(self, world: State) -> list[float]:
        if self.playout is not None:
            return self.playout(world)
        obs = np.stack(self.codec.observe_states(world, range(world.game.players)))
        return self.network.values(obs).tolist()


class LearnedBot(Bot):
    """Plays the network's policy (search=0) or an ISMCTS guided by it (search=N)."""

    kind = "learned"

    def __init__(self, seed: int | None = None, game: Game | None = None, weights: str | None = None,
                 search: int = 0, exploration: float = 1.5, value: str = "network",
                 cpu_seconds: float | None = None, network: Network | None = None,
                 rollout_depth: int | None = None):
        super().__init__(seed)
        # refusals are bot.learned.* codes; a value is passed as given (`{value:shown}`
        # quotes text, writes anything else as JSON does)
        if game is None:
            raise BadOption(Reason("bot.learned.needs_game"))
        if network is not None and not isinstance(network, Network):  # code, not typed text: as Python shows it
            raise BadOption(Reason("bot.learned.not_network", value=repr(network)))
        from .ismcts import MAX_COUNT, MAX_ITERATIONS, check_number, check_seconds, whole_number
        search = whole_number("search", search, 0, MAX_ITERATIONS, code="bot.learned.search")
        if cpu_seconds is not None and not search:
            raise BadOption(Reason("bot.learned.cpu_seconds_without_search"))
        if value not in ("network", "rollout"):
            raise BadOption(Reason("bot.learned.value", value=value))
        if rollout_depth is not None and value != "rollout":
            raise BadOption(Reason("bot.learned.rollout_depth_without_rollout"))
        # the search's settings are checked here even when there is no search (search=0
        # would else take `exploration=abc` silently), by the search's own check
        check_number("exploration", exploration, positive=False)
        if cpu_seconds is not None:
            check_seconds("cpu_seconds", cpu_seconds)
        if rollout_depth is not None:
            rollout_depth = whole_number("rollout_depth", rollout_depth, 0, MAX_COUNT)
        self.codec = codec_of(game)
        self.network = network if network is not None else network_for(game, self.codec, weights)
        self.searcher = None
        if search:
            from .ismcts import ISMCTSBot, search_defaults
            settings = {k: v for k, v in search_defaults(game).items()
                        if k in ("rollout", "rollout_depth", "root_candidates", "conventions")}
            if rollout_depth is not None:  # instead of the game's tuned depth
                settings["rollout_depth"] = rollout_depth
            self.searcher = ISMCTSBot(seed, iterations=search, exploration=exploration, game=game,
                                      cpu_seconds=cpu_seconds, **settings)
            self.searcher.rng = self.rng  # one generator (a caller may reseed it per decision: web/botpool.py)
            playout = None
            if value == "rollout":
                searcher = self.searcher
                playout = lambda world: searcher.playout(world, searcher.rng)  # noqa: E731 - the current generator
            self.searcher.guide = NetworkGuide(self.network, self.codec, playout)

    @property
    def rng(self):
        return self._rng

    @rng.setter
    def rng(self, value) -> None:
        """The bot's generator, shared by its search."""
        self._rng = value
        if getattr(self, "searcher", None) is not None:
            self.searcher.rng = value

    def policy(self, decision: Decision) -> dict[Action, float]:
        """The network's probability for each legal action."""
        indices = list(self.codec.legal_map(decision.legal, decision.view))
        logits = self.network.logits(self.codec.observe(decision.view))
        return dict(zip(decision.legal, masked_softmax(logits, indices)))

    def choose(self, decision: Decision) -> Action:
        if self.searcher is not None:  # (which answers a single legal move itself)
            return self.searcher.choose(decision)
        if len(decision.legal) == 1:
            return decision.legal[0]
        indices = list(self.codec.legal_map(decision.legal, decision.view))
        logits = self.network.logits_rows(self.codec.observe(decision.view)[None])
        return decision.legal[best_legal(logits, [indices], [self.rng])[0]]


def best_legal(logits: np.ndarray, legal: Sequence[Sequence[int]], rngs: Sequence) -> list[int]:
    """Per row of `logits` [n, actions], the position in `legal[r]` (the legal actions'
    indices, in the order of the legal actions) of the most likely legal action: the
    largest legal logit (no softmax needed); logits within 1e-6 of it tie, and the row's
    bot breaks the tie with its own generator `rngs[r]` (drawn from only on a tie).

    `LearnedBot.choose` picks with a batch of one, the lab's lockstep games
    (lab/lockstep.py) with a batch of many: the same rule, the same draws."""
    if len(legal) == 1:  # one bot's move: a row's legal logits
        starts = [0]
        values = logits[0, legal[0]]
        near = values >= values.max() - 1e-6
    else:  # the legal logits of all rows, row after row
        width = logits.shape[1]
        flat: list[int] = []
        starts = []
        for r, ix in enumerate(legal):
            starts.append(len(flat))
            base = r * width
            flat += [base + i for i in ix]
        values = logits.ravel()[flat]
        best = np.maximum.reduceat(values, starts)
        near = values >= np.repeat(best - 1e-6, [len(ix) for ix in legal])
    tied = np.flatnonzero(near).tolist()  # ascending: row by row, in legal order within a row
    picks = []
    k = 0
    for r, begin in enumerate(starts):
        end = begin + len(legal[r])
        top = []
        while k < len(tied) and tied[k] < end:
            top.append(tied[k] - begin)
            k += 1
        picks.append(top[0] if len(top) == 1 else top[rngs[r].randrange(len(top))])
    return picks
