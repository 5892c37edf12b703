"""The learned bot: legal, deterministic for a seed, views only, its shipped weights;
the guided search; the hand-written training step; a tiny training run that must
beat random play."""

from __future__ import annotations

import json
import random
import shlex

import numpy as np
import pytest

from wasserspiele import game_names, load
from wasserspiele.bots.arena import parse_bots, run_arena
from wasserspiele.bots.base import decision_for
from wasserspiele.bots.ismcts import ISMCTSBot, search_defaults
from wasserspiele.bots.learned import LearnedBot, Network, codec_of, shipped_weights
from wasserspiele.bots.learned_train import Budget, Trainer, train
from wasserspiele.core.errors import BadOption
from wasserspiele.core.protocol import State
from wasserspiele.core.registry import manifests
from .spies import spy_on

SHIPPED = ["wasserloch", "seven_waters", "watten", "wildwasser"]  # the package's own games


def _midgame(name: str, seed: int = 3, steps: int = 7) -> State:
    state = load(name).new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        seat = state.current_seat
        state.apply(rng.choice(list(state.legal_actions(seat))), seat)
    return state


@pytest.fixture(scope="module")
def untrained(tmp_path_factory):
    """Per game, a file of freshly initialised weights (any registered game, the fifth too)."""
    folder = tmp_path_factory.mktemp("weights")

    def make(name):
        path = folder / f"{name}.npz"
        if not path.exists():
            codec = codec_of(load(name))
            Network.init(codec.obs_size, codec.num_actions, (16,), np.random.default_rng(0)).save(path, {"game": name})
        return str(path)
    return make


@pytest.mark.parametrize("search", [0, 6])
@pytest.mark.parametrize("name", game_names())
def test_learned_bot_receives_views_only(name, search, untrained, monkeypatch):
    state = _midgame(name)
    seat = state.current_seat
    decision = decision_for(state, seat)
    touched = spy_on(state, monkeypatch)
    bot = LearnedBot(1, game=state.game, weights=untrained(name), search=search)
    assert bot.choose(decision) in decision.legal
    assert touched == [], f"the bot reached the true state through {touched}"


@pytest.mark.parametrize("name", game_names())
def test_learned_bot_is_legal_and_deterministic_through_a_game(name, untrained):
    def play(seed):
        game = load(name)
        state = game.new_game(seed=11)
        bots = [LearnedBot(seed + s, game=game, weights=untrained(name), search=4 if s == 0 else 0)
                for s in range(game.players)]
        moves = []
        while not state.is_terminal() and len(moves) < 150:
            seat = state.current_seat
            decision = decision_for(state, seat)
            action = bots[seat].choose(decision)
            assert action in decision.legal
            moves.append(str(action))
            state.apply(action, seat)
        return moves
    assert play(3) == play(3)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_weights_load_and_say_how_they_were_made(name):
    game = load(name)
    path = shipped_weights(game)
    meta = json.loads(path.with_suffix(".json").read_text())
    assert meta["game"] == name and meta["command"].startswith(f"wasserspiele train {name}")
    assert {"seed", "budget", "date", "version", "generations", "codec"} <= set(meta)
    assert path.stat().st_size < 3_000_000  # small enough to ship
    bot = LearnedBot(0, game=game)  # the shipped weights
    state = _midgame(name)
    decision = decision_for(state, state.current_seat)
    assert bot.choose(decision) in decision.legal
    assert sum(bot.policy(decision).values()) == pytest.approx(1.0)


def test_weights_that_do_not_fit_are_refused_clearly(tmp_path, untrained):
    with pytest.raises(BadOption, match="no such file"):
        LearnedBot(0, game=load("watten"), weights=str(tmp_path / "missing.npz"))
    with pytest.raises(BadOption, match="made for observations of"):
        LearnedBot(0, game=load("watten"), weights=untrained("wasserloch"))
    (tmp_path / "junk.npz").write_text("not weights")
    with pytest.raises(BadOption, match="not a weights file"):
        LearnedBot(0, game=load("watten"), weights=str(tmp_path / "junk.npz"))
    codec = codec_of(load("watten"))
    Network.init(codec.obs_size, codec.num_actions, (4,), np.random.default_rng(0)).save(
        tmp_path / "old.npz", {"codec": "0123456789abcdef", "command": "wasserspiele train watten"})
    with pytest.raises(BadOption, match="another encoding of watten.*retrain"):
        LearnedBot(0, game=load("watten"), weights=str(tmp_path / "old.npz"))
    with pytest.raises(BadOption, match="learned:search=-1"):
        parse_bots(["learned:search=-1"], load("watten"))


def test_backward_pass_matches_numerical_gradients():
    game = load("wasserloch", rounds=1)
    trainer = Trainer(game, 0, Budget(hidden=(7, 5)))
    rng = np.random.default_rng(1)
    codec = trainer.codec
    x = rng.random((4, codec.obs_size)).astype(np.float32)
    mask = rng.random((4, codec.num_actions)) < 0.3
    mask[:, 0] = True
    target = rng.random((4, codec.num_actions)) * mask
    target /= target.sum(1, keepdims=True)
    value = rng.random(4)
    params = trainer.network.params
    for k in params:
        params[k] = params[k].astype(np.float64) + rng.normal(0, 0.1, params[k].shape)
    _, _, grads = trainer.loss_and_grads(x, mask, target, value)
    for key in ("w0", "b1", "wp", "bv"):
        flat = params[key].reshape(-1)
        for i in rng.choice(flat.size, min(3, flat.size), replace=False):
            old = flat[i]
            flat[i] = old + 1e-5
            up = sum(trainer.loss_and_grads(x, mask, target, value)[:2])
            flat[i] = old - 1e-5
            down = sum(trainer.loss_and_grads(x, mask, target, value)[:2])
            flat[i] = old
            assert grads[key].reshape(-1)[i] == pytest.approx((up - down) / 2e-5, rel=1e-3, abs=1e-6), key


def test_a_tiny_training_run_beats_random_play(tmp_path):
    game = load("wasserloch", players=2, rounds=1)
    trainer = train(game, 7, Budget(games=6, generations=1, iterations=60, epochs=40, hidden=(32,)))
    assert trainer.history[0]["positions"] > 100
    path = tmp_path / "tiny.npz"
    trainer.network.save(path, trainer.metadata("test"))
    result = run_arena("wasserloch", {"players": 2, "rounds": 1},
                       parse_bots([str(path), "random"], game), games=200, seed=3)
    learned = result.by_spec()[0].win_rate()
    assert learned.low > 0.5, learned  # significantly better than the coin flip random play gets


def test_every_game_with_a_codec_can_train(untrained):
    # the generic trainer works for any registered game (the fifth, test-only one included)
    for m in manifests():
        if m.plugins.codec is None:
            continue
        trainer = train(load(m.name), 1, Budget(games=1, generations=2, iterations=4, epochs=1, hidden=(8,),
                                                max_decisions=6))
        assert len(trainer.history) == 2 and trainer.history[1]["positions"] >= trainer.history[0]["positions"]


def test_train_command_writes_weights_and_the_command_that_remakes_them(tmp_path):
    from click.testing import CliRunner
    from wasserspiele.cli.main import main
    out = tmp_path / "w.npz"
    result = CliRunner().invoke(main, ["train", "wasserloch", "--seed", "3", "--games", "1", "--iterations", "5",
                                       "--epochs", "1", "--hidden", "8", "--option", "rounds=1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["command"] == (f"wasserspiele train wasserloch --seed 3 --out {shlex.quote(str(out))} --games 1 "
                               "--iterations 5 --epochs 1 --hidden 8 --option rounds=1")
    assert meta["seed"] == 3 and meta["options"] == {"rounds": 1} and len(meta["generations"]) == 2
    assert LearnedBot(0, game=load("wasserloch", rounds=1), weights=str(out)).network.obs_size == meta["obs_size"]
    bad = CliRunner().invoke(main, ["train", "wasserloch", "--hidden", "big", "--out", str(out)])
    assert bad.exit_code == 2 and "'big' is not sizes like 128,64" in bad.output
    bad = CliRunner().invoke(main, ["train", "wasserloch", "--jobs", "0", "--out", str(out)])
    assert bad.exit_code == 2 and "--jobs" in bad.output and "must be at least 1" in bad.output


def test_guided_search_with_a_sensible_guide_beats_random_play():
    # the PUCT search itself (bots/ismcts.py `_iterate_guided`), apart from any network:
    # a uniform prior and the score lead as the value must already beat random play
    game = load("wasserloch", players=2, rounds=1)
    specs = parse_bots(["python:bots.outside_policy:score_guided", "random"], game)
    result = run_arena("wasserloch", {"players": 2, "rounds": 1}, specs, games=10, seed=1)
    assert result.by_spec()[0].win_rate().value >= 0.8


def test_positions_file_resumes_a_run_and_refuses_other_settings(tmp_path):
    # generation 0 kept after every game: a longer run reuses the games a file holds and
    # gathers exactly what a run from scratch gathers; other settings are refused
    game = load("wasserloch", players=2, rounds=1)
    budget = Budget(games=2, generations=1, iterations=8, epochs=1, hidden=(8,))
    cache = tmp_path / "positions.npz"
    first = train(game, 5, budget, positions=cache)
    assert cache.exists()
    resumed = train(game, 5, Budget(**{**budget.__dict__, "games": 3}), positions=cache)
    fresh = train(game, 5, Budget(**{**budget.__dict__, "games": 3}))
    assert len(resumed.positions) == len(fresh.positions) > len(first.positions)
    assert np.array_equal(np.stack(resumed.positions.obs), np.stack(fresh.positions.obs))
    assert np.array_equal(resumed.network.params["wp"], fresh.network.params["wp"])
    with pytest.raises(BadOption, match="were made by"):
        train(game, 6, budget, positions=cache)


def test_a_guided_generation_s_positions_are_kept_beside_the_file_and_reused(tmp_path, monkeypatch):
    # a guided generation's searches are kept in STEM.gen1.npz, tied to the network that
    # guided them: a rerun searches nothing and fits the same network; a run whose first
    # generation fitted another network refuses them
    game = load("wasserloch", players=2, rounds=1)
    budget = Budget(games=2, generations=2, iterations=6, epochs=1, hidden=(8,), guided_games=2)
    cache = tmp_path / "positions.npz"
    first = train(game, 5, budget, positions=cache)
    kept = np.load(tmp_path / "positions.gen1.npz")
    assert sorted(set(kept["game"].tolist())) == [1_000_000, 1_000_001]
    assert sorted(set(np.load(cache)["game"].tolist())) == [0, 1]
    searched = []
    rows = Trainer.searched_rows
    monkeypatch.setattr(Trainer, "searched_rows", lambda self, *a, **k: searched.append(a[1:3]) or rows(self, *a, **k))
    again = train(game, 5, budget, positions=cache)
    assert searched == []
    assert again.positions.game == first.positions.game and again.positions.cpu_s == first.positions.cpu_s
    for k, v in first.network.params.items():
        assert np.array_equal(again.network.params[k], v)
    longer = train(game, 5, Budget(**{**budget.__dict__, "guided_games": 3}), positions=cache)
    assert searched == [(1, 2)] and len(longer.positions) > len(first.positions)  # only the guided game added
    with pytest.raises(BadOption, match=r"positions\.gen1\.npz' were made by"):
        train(game, 5, Budget(**{**budget.__dict__, "epochs": 2}), positions=cache)


def test_self_play_in_several_processes_gathers_what_one_process_does(tmp_path):
    # each game's positions depend on its seed alone and arrive in game order, so the
    # expert's generation and a guided one, the positions file and the network are the
    # same for any number of jobs
    game = load("wasserloch", players=2, rounds=1)
    budget = Budget(games=3, generations=2, iterations=8, epochs=1, hidden=(8,))
    alone = train(game, 5, budget, positions=tmp_path / "alone.npz")
    side_by_side = train(game, 5, budget, positions=tmp_path / "pool.npz", jobs=2)
    assert side_by_side.positions.game == alone.positions.game
    assert sorted(set(alone.positions.game)) == [0, 1, 2, 1_000_000, 1_000_001, 1_000_002]
    for name in ("obs", "mask", "target"):
        assert np.array_equal(np.stack(getattr(side_by_side.positions, name)), np.stack(getattr(alone.positions, name)))
    assert np.array_equal(np.asarray(side_by_side.positions.searched), np.asarray(alone.positions.searched),
                          equal_nan=True)
    assert side_by_side.positions.value == alone.positions.value
    assert side_by_side.positions.cpu_s > 0
    for k, v in alone.network.params.items():
        assert np.array_equal(side_by_side.network.params[k], v)
    saved = {n: np.load(tmp_path / f"{n}.npz") for n in ("alone", "pool")}
    assert np.array_equal(saved["alone"]["obs"], saved["pool"]["obs"])
    with pytest.raises(BadOption, match="jobs: 0 is not a positive number"):
        train(game, 5, budget, jobs=0)


def test_fit_holds_out_whole_games_and_measures_them():
    game = load("wasserloch", players=2, rounds=1)
    trainer = train(game, 3, Budget(games=10, generations=1, iterations=10, epochs=3, hidden=(8,), holdout=0.2))
    step = trainer.history[0]
    fitted, held = trainer.split()
    games = np.asarray(trainer.positions.game)
    assert len(set(games[held])) == 2 and not set(games[held]) & set(games[fitted])
    assert step["held_out"]["positions"] == len(held)
    for measures in (step["fitted"], step["held_out"]):
        # cross-entropy against the visit shares is never below their own entropy
        assert measures["policy_loss"] >= measures["target_entropy"] - 1e-6
        assert 0 <= measures["agreement"] <= 1


def test_a_window_fits_only_the_last_generations_positions(monkeypatch):
    """Budget.window (`train --window N`): the positions of the last N generations are
    fitted and held out, the earlier ones left aside; without it, all of them."""
    from wasserspiele.bots.learned_train import GAME_IDS
    game = load("wasserloch", players=2, rounds=1)

    def fitted_generations(window):
        trainer = Trainer(game, 0, Budget(hidden=(4,), epochs=2, holdout=0.25, window=window))
        mask = np.zeros(trainer.codec.num_actions, dtype=bool)
        mask[:2] = True
        for generation in range(3):
            for g in range(4):  # four games a generation, three positions each
                for _ in range(3):
                    obs = np.zeros(trainer.codec.obs_size, dtype=np.float32)
                    obs[0] = generation  # which generation a fitted row came from
                    trainer.positions.add([(obs, mask, mask / 2.0, 1.0, float("nan"), generation * GAME_IDS + g)])
        seen = set()
        real = trainer.loss_and_grads

        def spy(x, *rest):
            seen.update(x[:, 0].tolist())
            return real(x, *rest)
        monkeypatch.setattr(trainer, "loss_and_grads", spy)
        result = trainer.fit()
        held_games = np.asarray(trainer.positions.game)[trainer.split()[1]] // GAME_IDS
        in_window = int((held_games > 2 - (window or 3)).sum())  # held-out positions of the window
        assert result.get("held_out", {}).get("positions", 0) == in_window
        return seen

    assert fitted_generations(None) == {0.0, 1.0, 2.0}
    assert fitted_generations(1) == {2.0}
    assert fitted_generations(2) == {1.0, 2.0}
    with pytest.raises(BadOption, match="window: 0 is not a positive number of generations"):
        Trainer(game, 0, Budget(window=0))


def test_train_command_takes_the_window_and_records_it(tmp_path):
    from click.testing import CliRunner
    from wasserspiele.cli.main import main
    out = tmp_path / "w.npz"
    meta = train_tiny(out, "--window", "1")
    assert "--window 1" in meta["command"] and meta["budget"]["window"] == 1
    bad = CliRunner().invoke(main, ["train", "wasserloch", "--window", "0", "--out", str(out)])
    assert bad.exit_code == 2 and "--window" in bad.output and "at least 1" in bad.output


def test_fresh_fits_each_later_generation_from_new_weights(monkeypatch):
    """Budget.fresh (`train --fresh`): a later generation is gathered with the previous
    generation's network and fitted from fresh weights seeded by the generation, with a
    fresh optimiser; without it the fit goes on from the previous generation's weights."""
    from wasserspiele.bots.learned_train import Network
    from wasserspiele.core.chance import derive_seed
    game = load("wasserloch", players=2, rounds=1)

    def starts(fresh):
        trainer = Trainer(game, 4, Budget(games=2, generations=2, iterations=4, epochs=1, hidden=(8,), fresh=fresh))
        seen = []  # per fit: the weights it starts from, the optimiser's step, the guide's weights
        real_fit, real_gather = trainer.fit, trainer.gather

        def gather(generation):
            seen.append({"guide": {k: v.copy() for k, v in trainer.network.params.items()}})
            real_gather(generation)

        def fit():
            seen[-1].update(start={k: v.copy() for k, v in trainer.network.params.items()}, step=trainer._step)
            result = real_fit()
            seen[-1]["end"] = {k: v.copy() for k, v in trainer.network.params.items()}
            return result
        monkeypatch.setattr(trainer, "fit", fit)
        monkeypatch.setattr(trainer, "gather", gather)
        trainer.run()
        return trainer, seen

    def same(a, b):
        return all(np.array_equal(a[k], b[k]) for k in a)

    trainer, fresh = starts(True)
    new = Network.init(trainer.codec.obs_size, trainer.codec.num_actions, (8,),
                       np.random.default_rng(derive_seed(4, "network", 1))).params
    assert same(fresh[1]["guide"], fresh[0]["end"])  # generation 1 searched with generation 0's network
    assert same(fresh[1]["start"], new) and fresh[1]["step"] == 0
    _, going_on = starts(False)
    assert same(going_on[1]["start"], going_on[0]["end"]) and going_on[1]["step"] > 0
    assert not same(going_on[1]["start"], new)


def test_train_command_takes_fresh_and_records_it(tmp_path):
    from click.testing import CliRunner
    from wasserspiele.cli.main import main
    out = tmp_path / "w.npz"
    meta = train_tiny(out, "--generations", "2", "--fresh")
    assert meta["command"].endswith("--fresh --option rounds=1 --option players=2") and meta["budget"]["fresh"] is True
    assert train_tiny(out)["budget"]["fresh"] is False
    bad = CliRunner().invoke(main, ["train", "wasserloch", "--generations", "1", "--fresh", "--out", str(out)])
    assert bad.exit_code == 2 and "--fresh" in bad.output and "--generations 2" in bad.output


def test_sharpened_targets_move_toward_the_most_visited_action():
    game = load("wasserloch", players=2, rounds=1)
    trainer = Trainer(game, 0, Budget(sharpen=3.0, hidden=(4,), epochs=1))
    target = np.zeros((1, trainer.codec.num_actions), dtype=np.float32)
    target[0, :3] = [0.5, 0.3, 0.2]
    trainer.positions.obs.append(np.zeros(trainer.codec.obs_size, dtype=np.float32))
    trainer.positions.mask.append(target[0] > 0)
    trainer.positions.target.append(target[0])
    trainer.positions.value.append(1.0)
    trainer.positions.searched.append(float("nan"))
    trainer.positions.game.append(0)
    assert trainer.sharpened(np.stack(trainer.positions.target))[0, :3] == pytest.approx(
        np.array([0.125, 0.027, 0.008]) / 0.16)
    assert trainer.positions.value_targets(0.5)[0] == 1.0  # no search value: the result alone


def test_a_checkpoint_is_named_bare_or_as_the_weights_setting(untrained):
    from wasserspiele.bots.specs import parse_bot_spec
    path = untrained("wasserloch")
    for text in (path, f"learned:weights={path}", f"learned:search=3,weights={path}"):
        spec = parse_bot_spec(text)
        assert spec.kind == "learned" and dict(spec.params)["weights"] == path, text


def test_guided_search_can_value_leaves_by_rollouts(untrained):
    # value=rollout keeps the expert's rollouts and score lead at the leaves and takes only
    # the prior from the network: legal, seeded, and a bad value is refused by name
    game = load("wasserloch")
    state = _midgame("wasserloch")
    decision = decision_for(state, state.current_seat)
    moves = [LearnedBot(4, game=game, weights=untrained("wasserloch"), search=30, value="rollout").choose(decision)
             for _ in range(2)]
    assert moves[0] in decision.legal and moves[0] == moves[1]
    with pytest.raises(ValueError, match="value must be network .* or rollout"):
        LearnedBot(0, game=game, weights=untrained("wasserloch"), search=5, value="oracle")
    assert parse_bots(["learned:search=5,value=rollout"], game)[0].kind == "learned"


def test_guided_search_with_rollouts_plays_them_as_the_expert_does(untrained, monkeypatch):
    # the leaves of learned:search=N,value=rollout are valued by the searcher's own
    # playout, in the game's compiled kernel where it has one (Seven Waters' rollouts
    # run to the end of the game: in Python an iteration cost seven times the expert's)
    from wasserspiele.bots.ismcts import ISMCTSBot
    calls = []
    playout = ISMCTSBot._kernel_playout
    monkeypatch.setattr(ISMCTSBot, "_kernel_playout", lambda self, world, rng: calls.append(1) or playout(self, world, rng))
    game = load("seven_waters")
    state = _midgame("seven_waters")
    decision = decision_for(state, state.current_seat)
    bot = LearnedBot(4, game=game, weights=untrained("seven_waters"), search=20, value="rollout")
    assert bot.choose(decision) in decision.legal
    assert bot.searcher.last_iterations == 20 and 0 < len(calls) <= 20


def test_dagger_games_are_played_by_the_learner_and_labelled_by_the_search(untrained):
    # searched_game with a player: the learner makes every move (a table of learners alone
    # plays the same game), the expert's search only labels the positions it reaches
    from wasserspiele.bots.learned_train import searched_game
    from wasserspiele.bots.match import play_game
    from wasserspiele.core.chance import derive_seed
    game = load("wasserloch", players=2, rounds=1)
    budget = Budget(iterations=12, max_decisions=8)
    learner = lambda seed: LearnedBot(seed, game=game, weights=untrained("wasserloch"))  # noqa: E731
    final, decided = searched_game(game, Trainer(game, 0, budget).searcher(0), 4, budget, player=learner)
    alone = play_game(game, [learner(derive_seed(4, "player", s)) for s in range(2)], 4)
    assert [str(a) for a in final.history] == [str(a) for a in alone.state.history]
    assert len(decided) == 8  # searched up to max_decisions, then the learner plays on alone
    assert any(sum(d.visits.values()) == 12 for d in decided)  # the search's visits are the targets


def test_dagger_generations_add_positions_of_the_learners_games():
    game = load("wasserloch", players=2, rounds=1)
    trainer = train(game, 2, Budget(games=2, generations=3, iterations=6, epochs=1, hidden=(8,), dagger=3))
    first, second, third = trainer.history
    assert "learner_games" not in first
    for step in (second, third):
        assert step["learner_games"]["games"] == 3 and step["learner_games"]["longest_actions"] > 0
    assert first["positions"] < second["positions"] < third["positions"]
    assert sorted(set(trainer.positions.game)) == [0, 1, 1_000_000, 1_000_001, 1_000_002,
                                                   2_000_000, 2_000_001, 2_000_002]


def test_dagger_labels_a_long_learner_game_along_its_whole_length(monkeypatch):
    # a stalling learner spends most of its game in the stall: the searched decisions are
    # spread over the game (the last one searched too), not the first max_decisions
    from wasserspiele.bots import learned_train
    played = []
    original = learned_train.searched_game
    monkeypatch.setattr(learned_train, "searched_game",
                        lambda *a, **k: played.append(original(*a, **k)) or played[-1])
    game = load("wasserloch", players=2, rounds=1)
    trainer = Trainer(game, 5, Budget(games=1, iterations=6, epochs=1, hidden=(8,), dagger=1, max_decisions=3))
    trainer.gather(1)
    (alone, none), (final, decided) = played
    assert none == [] and [str(a) for a in alone.history] == [str(a) for a in final.history]
    assert len(decided) == 3 and len(trainer.positions) == 3
    assert decided[0].index < len(final.history) / 4 < 3 * len(final.history) / 4 < decided[-1].index


def train_tiny(out, *extra: str) -> dict:
    """`wasserspiele train` on a tiny Wasserloch budget with `extra` flags: the sidecar."""
    from click.testing import CliRunner
    from wasserspiele.cli.main import main
    result = CliRunner().invoke(main, ["train", "wasserloch", "--seed", "3", "--games", "1", "--iterations", "4",
                                       "--epochs", "1", "--hidden", "8", *extra, "--option", "rounds=1",
                                       "--option", "players=2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return json.loads(out.with_suffix(".json").read_text())


def test_train_command_takes_dagger_and_records_it(tmp_path):
    from click.testing import CliRunner
    from wasserspiele.cli.main import main
    out = tmp_path / "w.npz"
    meta = train_tiny(out, "--dagger", "1")
    assert "--dagger 1" in meta["command"] and meta["budget"]["dagger"] == 1
    assert meta["generations"][1]["learner_games"]["games"] == 1
    bad = CliRunner().invoke(main, ["train", "wasserloch", "--generations", "1", "--dagger", "2", "--out", str(out)])
    assert bad.exit_code == 2 and "give --generations 2 or more" in bad.output


def test_teacher_rollout_depth_is_the_games_unless_given(tmp_path):
    # default: the expert exactly as the manifest tunes it (Wildwasser: 30-action rollouts),
    # and positions files made before the option stay reusable; --rollout-depth changes
    # the teacher of generation 0 and of DAgger's labels, and is recorded
    from click.testing import CliRunner
    from wasserspiele.cli.main import main
    game = load("wildwasser")
    tuned = Trainer(game, 0, Budget())
    assert tuned.searcher(0)(1).rollout_depth == 30 and "rollout_depth" not in tuned.made_by()
    deep = Trainer(game, 0, Budget(rollout_depth=1000))
    assert deep.searcher(0)(1).rollout_depth == 1000 and deep.made_by()["rollout_depth"] == 1000
    out = tmp_path / "w.npz"
    meta = train_tiny(out, "--rollout-depth", "7")
    assert "--rollout-depth 7" in meta["command"] and meta["budget"]["rollout_depth"] == 7
    bad = CliRunner().invoke(main, ["train", "wasserloch", "--rollout-depth", "0", "--out", str(out)])
    assert bad.exit_code == 2 and "--rollout-depth" in bad.output


def pure_passes(seeds: range) -> list:
    """Wildwasser decisions of heuristic games where a seat resolves its meerkat with no
    other card revealed: its action takes the meerkat back and changes nothing but the
    round (the pass that learned-only tables repeated for thousands of rounds)."""
    from wasserspiele.bots.registry import make_bot
    game = load("wildwasser")
    found = []
    for seed in seeds:
        state = game.new_game(seed=seed)
        bots = [make_bot("heuristic", game, seed * 10 + s) for s in range(game.players)]
        while not state.is_terminal():
            seat = state.to_move()[0]
            decision = decision_for(state, seat)
            if ([str(a) for a in decision.legal] == ["move", "action"] and decision.view["round"] > 5
                    and decision.view["seats"][seat]["revealed"] == ["meerkat"]):
                found.append(decision_for(state.clone(), seat))  # the game goes on: a decision of a copy
            state.apply(bots[seat].choose(decision), seat)
    return found


def test_a_teacher_rolling_out_to_the_end_or_valuing_the_race_prefers_moving_to_passing():
    # a 30-action rollout ends mid-game, and valued by the podium points alone, which a
    # pass and a 2-field move leave alike, that teacher is indifferent (its visits split
    # about evenly, which sharpened targets turn into confident labels for either); rolled
    # out to the end of the game, the move's progress shows (on 114 such positions of 80
    # games the move's mean share of 400 visits was 0.526 with the 30-action teacher, 0.595
    # to the end; preferred in 63 and in 77), and so it does valued by the race as it
    # stands (`estimate`, Wildwasser's tuned setting since 2e8bd17, the teacher's default)
    game = load("wildwasser")
    decisions = pure_passes(range(30))
    assert len(decisions) >= 30
    assert Trainer(game, 0, Budget(iterations=400)).searcher(0)(0)._estimate is not None  # the teacher values the race

    def move_share(**settings):  # the move's mean share of the visits, the teacher's search so set
        shares = []
        for k, decision in enumerate(decisions):
            searcher = ISMCTSBot(k, game=game, **{**search_defaults(game), "iterations": 400, "seconds": None,
                                                  **settings})
            visits = {str(c.action): c.visits for c in searcher.search(decision)}
            shares.append(visits.get("move", 0) / sum(visits.values()))
        return sum(shares) / len(shares)

    cut = move_share(estimate=False)
    deep, estimated = move_share(estimate=False, rollout_depth=1000), move_share()
    # measured: 0.513 cut off, 0.553 and 0.547 to the end, 0.608 estimated, of 38
    assert deep > max(cut + 0.03, 0.54), (cut, deep)
    assert estimated > max(cut + 0.03, 0.54), (cut, estimated)


def longest_learned_only_wildwasser(seeds: range, weights: str | None = None, bound: int = 1000) -> tuple[int, int]:
    """(seed, actions) of the longest game with a learned bot in every seat; a game
    past `bound` actions stops there."""
    from wasserspiele.bots.match import play_game
    game = load("wildwasser")
    longest = (-1, 0)
    for seed in seeds:
        bots = [LearnedBot(seed * 10 + s, game=game, weights=weights) for s in range(game.players)]
        try:
            actions = len(play_game(game, bots, seed, max_actions=bound + 1).state.history)
        except RuntimeError:  # no end within the bound
            actions = bound + 1
        longest = max(longest, (seed, actions), key=lambda x: x[1])
    return longest


def test_learned_only_wildwasser_games_end():
    # weights 2631017 stalled these games (seeds 0 and 18: past 7,000 actions, every seat
    # picking its meerkat and taking its cards back round after round); a normal game has
    # about 200-400 actions
    seed, actions = longest_learned_only_wildwasser(range(20))
    assert actions <= 1000, f"seed {seed}: {actions} actions with the learned bot in every seat"


def test_guided_generations_search_with_the_budget_s_leaves_constant_and_games(monkeypatch):
    # the value head and 1.5 unless told; --guide-value rollout values the guided search's
    # leaves by the expert's rollouts (at the budget's depth), --guide-exploration sets
    # PUCT's constant and --guided-games the number of a guided generation's games
    from wasserspiele.bots.ismcts import ISMCTSBot
    game = load("wasserloch", players=2, rounds=1)
    plain = Trainer(game, 0, Budget()).searcher(1)(7)
    assert plain.guide is not None and plain.guide.playout is None and plain.exploration == 1.5
    tuned = Trainer(game, 0, Budget(guide_value="rollout", guide_exploration=0.5, rollout_depth=7)).searcher(1)(7)
    assert tuned.guide.playout is not None and tuned.exploration == 0.5 and tuned.rollout_depth == 7
    guided_playouts = []
    playout = ISMCTSBot.playout
    monkeypatch.setattr(ISMCTSBot, "playout", lambda self, world, rng: guided_playouts.append(self.guide is not None)
                        or playout(self, world, rng))
    by_value_head = train(game, 4, Budget(games=2, generations=2, iterations=6, epochs=1, hidden=(8,), guided_games=1))
    assert sorted(set(by_value_head.positions.game)) == [0, 1, 1_000_000]
    assert guided_playouts and not any(guided_playouts)  # the expert's generation rolls out, the guided not
    guided_playouts.clear()
    train(game, 4, Budget(games=2, generations=2, iterations=6, epochs=1, hidden=(8,), guided_games=1,
                          guide_value="rollout"))
    assert any(guided_playouts)


def test_train_command_takes_the_guided_generations_settings_and_records_them(tmp_path):
    from click.testing import CliRunner
    from wasserspiele.cli.main import main
    out = tmp_path / "w.npz"
    meta = train_tiny(out, "--generations", "2", "--guide-value", "rollout", "--guide-exploration", "0.5",
                      "--guided-games", "2")
    assert "--guide-value rollout --guide-exploration 0.5 --guided-games 2" in meta["command"]
    assert (meta["budget"]["guide_value"], meta["budget"]["guide_exploration"], meta["budget"]["guided_games"]) \
        == ("rollout", 0.5, 2)
    for bad_args, said in ((["--generations", "1", "--guided-games", "3"], "give --generations 2 or more"),
                           (["--generations", "2", "--dagger", "1", "--guide-value", "rollout"], "without --dagger"),
                           (["--generations", "2", "--guide-exploration", "0"], "must be above 0"),
                           (["--generations", "2", "--guided-games", "0"], "must be at least 1"),
                           (["--guide-value", "oracle"], "'oracle' is not one of")):
        bad = CliRunner().invoke(main, ["train", "wasserloch", *bad_args, "--out", str(out)])
        assert bad.exit_code == 2 and said in bad.output, (bad_args, bad.output)


def test_learned_search_with_rollouts_takes_their_depth(untrained):
    game = load("wildwasser")
    bot = LearnedBot(0, game=game, weights=untrained("wildwasser"), search=5, value="rollout", rollout_depth=1000)
    assert bot.searcher.rollout_depth == 1000
    assert LearnedBot(0, game=game, weights=untrained("wildwasser"), search=5, value="rollout").searcher.rollout_depth == 30
    with pytest.raises(ValueError, match="rollout_depth is the depth of the expert's rollouts: give value=rollout"):
        LearnedBot(0, game=game, weights=untrained("wildwasser"), search=5, rollout_depth=10)
    assert parse_bots([f"learned:search=5,value=rollout,rollout_depth=50,weights={untrained('wildwasser')}"],
                      game)[0].kind == "learned"


def test_a_heuristic_teacher_labels_generation_0_with_the_heuristic_s_choices(monkeypatch):
    # generation 0 with the heuristic as teacher: no search runs, each decision with a
    # choice is one position whose target is the choice the seat's heuristic made there,
    # and a share `explore` of the moves played are drawn from the legal ones instead
    from wasserspiele.bots import ismcts, learned_train
    monkeypatch.setattr(ismcts.ISMCTSBot, "search", lambda *a, **k: pytest.fail("the heuristic teacher searched"))
    chosen = []
    make = learned_train.make_bot

    def spied(kind, game, seed=None, **kwargs):
        bot = make(kind, game, seed=seed, **kwargs)
        choose = bot.choose
        bot.choose = lambda decision: chosen.append(choose(decision)) or chosen[-1]
        return bot
    monkeypatch.setattr(learned_train, "make_bot", spied)
    game = load("watten")
    seen = []
    played = learned_train.imitated_game(game, 11, Budget(explore=0.5),
                                         lambda state, seat, visits, value: seen.append((len(state.history), visits)))
    assert played.is_terminal() and len(seen) == len(chosen) > 100
    assert all(visits == {c: 1} for (_, visits), c in zip(seen, chosen))
    moves = [played.history[i][1] for i, _ in seen]
    strayed = sum(m != c for m, c in zip(moves, chosen))
    assert 0.15 * len(seen) < strayed < 0.5 * len(seen)  # about half drawn, some of those the same move


def test_a_network_taught_by_the_heuristic_plays_its_moves():
    # the heuristic's games are cheap, so the network sees many: after 24 of 30 Watten games
    # (about 7,000 positions; 6 games, about 1,800 positions, held out) it makes the
    # heuristic's choice in most held-out positions, where one in two or three legal moves
    # would be chance; targets are one-hot.  Measured for seeds 1-4: 0.70-0.72 of the
    # held-out positions, the same run unfitted (learning rate 1e-9) 0.33-0.38, so 0.6
    # stands well clear of both.  (60 games at the default rate took 1.7 times as long
    # and gave 0.70-0.74, seed 1 at 0.708 against a bar of 0.7.)
    trainer = train(load("watten"), 1, Budget(games=30, holdout=0.2, generations=1, teacher="heuristic", epochs=16,
                                              hidden=(64,), learning_rate=4e-3))
    assert set((np.stack(trainer.positions.target) > 0).sum(1).tolist()) == {1}
    step = trainer.history[0]
    assert step["held_out"]["positions"] > 1_000 and step["held_out"]["agreement"] >= 0.6, step
    assert "iterations" not in trainer.made_by() and trainer.made_by()["teacher"] == "heuristic"
    with pytest.raises(BadOption, match="teacher: 'oracle' is not one of search, heuristic"):
        Trainer(load("watten"), 1, Budget(teacher="oracle"))


def test_train_command_takes_the_teacher_and_records_it(tmp_path):
    from click.testing import CliRunner
    from wasserspiele.cli.main import main
    out = tmp_path / "w.npz"
    meta = train_tiny(out, "--teacher", "heuristic")
    assert "--teacher heuristic" in meta["command"] and meta["budget"]["teacher"] == "heuristic"
    cache = tmp_path / "positions.npz"
    meta = train_tiny(out, "--teacher", "heuristic", "--positions", str(cache))
    with pytest.raises(BadOption, match="were made by"):  # a searched generation 0 is another thing
        train(load("wasserloch", rounds=1, players=2), 3, Budget(games=1, iterations=4, epochs=1, hidden=(8,)),
              positions=cache)
    bad = CliRunner().invoke(main, ["train", "wasserloch", "--teacher", "oracle", "--out", str(out)])
    assert bad.exit_code == 2 and "--teacher" in bad.output and "oracle" in bad.output


def test_a_weights_name_means_the_same_file_to_save_and_to_load(tmp_path, untrained):
    """FILE.npz, or FILE meaning FILE.npz, with the sidecar FILE.json: `train --out` and
    `learned:weights=` agree.  Saving under another suffix used to write w.txt.npz (numpy
    appends .npz) and w.json (the sidecar took the suffix's place), and the name given was
    no file at all."""
    from pathlib import Path
    from wasserspiele.bots.learned import weights_file
    codec = codec_of(load("wasserloch"))
    net = Network.init(codec.obs_size, codec.num_actions, (4,), np.random.default_rng(0))
    assert net.save(tmp_path / "w", {"game": "wasserloch"}) == (tmp_path / "w.npz", tmp_path / "w.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.json", "w.npz"]
    for name in ("w", "w.npz"):
        assert Network.load(tmp_path / name).meta == {"game": "wasserloch"}
        assert LearnedBot(0, game=load("wasserloch"), weights=str(tmp_path / name)).network.obs_size == codec.obs_size
    assert weights_file("a/b") == weights_file("a/b.npz") == Path("a/b.npz")
    for bad in ("w.txt", "w.json", "w.NPZ"):
        with pytest.raises(BadOption, match="give a name ending in .npz or without a suffix"):
            net.save(tmp_path / bad)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.json", "w.npz"]
    with pytest.raises(BadOption, match=r"no such file .*nope\.npz.*a name without a suffix means nope\.npz"):
        Network.load(tmp_path / "nope")


def test_weights_that_are_no_archive_are_refused_saying_what_file_is_expected(tmp_path, untrained):
    """A JSON file (the sidecar) read as weights showed numpy's "pickled (object) data …
    allow_pickle" message."""
    from pathlib import Path
    sidecar = Path(untrained("wasserloch")).with_suffix(".json")
    with pytest.raises(BadOption, match="a JSON file, not weights.*the weights beside it are learned:weights=") as err:
        LearnedBot(0, game=load("wasserloch"), weights=str(sidecar))
    assert "pickle" not in str(err.value)
    (tmp_path / "notes.json").write_text("{}")
    with pytest.raises(BadOption, match="a JSON file, not weights") as err:
        Network.load(tmp_path / "notes.json")
    assert "beside it are" not in str(err.value)  # no weights beside it to point to
    (tmp_path / "notes.txt").write_text("[1, 2]")
    np.save(tmp_path / "one.npy", np.zeros(3))
    for path in (tmp_path / "notes.txt", tmp_path / "one.npy"):
        with pytest.raises(BadOption, match="not a weights file: expected the .npz archive") as err:
            Network.load(path)
        assert "pickle" not in str(err.value)


def test_shipped_weights_at_a_table_of_other_options_name_the_options_not_the_sizes():
    """The shipped Wildwasser weights (4 players) at a 2-player table said "made for
    observations of 1436 and 29 actions (options {}), but wildwasser with these options has
    956 and 29": options the player never gave, sizes they cannot act on.  The options that
    make the sizes differ are named, in both languages."""
    from wasserspiele.core.messages import render

    with pytest.raises(BadOption) as refused:
        LearnedBot(0, game=load("wildwasser", players=2))
    assert str(refused.value) == "learned weights wildwasser.npz: made for wildwasser with players=4; this game has players=2"
    assert render(refused.value.reason.code, refused.value.reason.params, "de") == (
        "Gewichte des learned-Bots wildwasser.npz: trainiert für wildwasser mit players=4; dieses Spiel hat players=2")
