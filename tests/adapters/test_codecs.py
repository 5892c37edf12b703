"""The codecs: every legal action round-trips through its index, masks equal the legal sets,
observations have the documented layout."""

import numpy as np
import pytest

import wasserspiele
from wasserspiele.adapters import codec_for
from wasserspiele.adapters.codecs import EncodingError
from wasserspiele.core.errors import BadNotation

from .helpers import FAST, GAMES, random_positions


@pytest.mark.parametrize("name", GAMES)
def test_every_legal_action_round_trips_and_the_mask_is_the_legal_set(name):
    codec = codec_for(wasserspiele.load(name, **FAST[name]))
    steps = 0
    for state, seat in random_positions(name, seeds=range(3)):
        view = state.view(seat)
        legal = state.legal_actions(seat)
        mask = codec.mask(legal, view)
        assert mask.dtype == np.int8 and mask.shape == (codec.num_actions,)
        assert mask.sum() == len(legal)
        decoded = {str(codec.decode(i, legal, view)) for i in np.flatnonzero(mask)}
        assert decoded == {str(a) for a in legal}
        for a in legal:
            i = codec.action_index(a, view)
            assert mask[i] == 1
            assert codec.decode(i, legal, view) == a          # index -> action -> index
            assert codec.action_index(str(a), view) == i      # notation gives the same index
        obs = codec.observe(view)
        assert obs.dtype == np.float32 and obs.shape == (codec.obs_size,)
        assert np.all(np.isfinite(obs)) and obs.min() >= -1.0 and obs.max() <= 100.0
        steps += 1
    assert steps > 30  # three whole games


@pytest.mark.parametrize("name", GAMES)
def test_layout_covers_the_vector_exactly_once(name):
    codec = codec_for(wasserspiele.load(name))
    pos = 0
    for seg_name, start, size, meaning in codec.layout:
        assert start == pos and size > 0 and meaning, seg_name
        pos += size
    assert pos == codec.obs_size
    assert "| slice | name | meaning |" in codec.describe()


@pytest.mark.parametrize("name", GAMES)
def test_observations_differ_between_seats(name):
    game = wasserspiele.load(name, **FAST[name])
    codec = codec_for(game)
    state = game.new_game(seed=5)
    a, b = codec.observe(state.view(0)), codec.observe(state.view(1))
    assert not np.array_equal(a, b)


def test_action_space_sizes():
    sizes = {n: codec_for(wasserspiele.load(n)).num_actions for n in GAMES}
    assert {"wasserloch": 64, "seven_waters": 2830, "watten": 43, "wildwasser": 29}.items() <= sizes.items()
    names = codec_for(wasserspiele.load("wasserloch")).action_names
    assert names[0] == "Ax1" and names[63] == "8x8" and len(set(names)) == 64


def test_seven_waters_indices_name_hand_slots():
    game = wasserspiele.load("seven_waters")
    codec = codec_for(game)
    view = {"seat": 0, "players": [{"hand": ["KD", "5C", "X1"]}, {"hand": None}]}
    assert codec.action_index("take 1-1", view) == 0
    assert codec.action_index("take 7-7", view) == 27
    assert codec.action_names[codec.action_index("discard 5C X1", view)] == "discard slots 1,2"
    assert codec.action_names[codec.action_index("slide 2 KD X1=3", view)] == "slide 2 slots 0,2"
    assert codec.action_names[codec.action_index("river 5C X1=6", view)] == "river from 5 slots 1,2"
    assert codec.action_names[codec.action_index("pool X1=H", view)] == "pool H slots 2"
    assert codec.action_names[codec.action_index("theme KD", view)] == "theme slot 0"
    assert codec.action_index("pass", view) == codec.num_actions - 1
    with pytest.raises(EncodingError, match="9H, which is not in the hand"):
        codec.action_index("discard 9H", view)


def test_bad_input_gets_a_clear_error():
    game = wasserspiele.load("wasserloch")
    codec = codec_for(game)
    state = game.new_game(seed=1)
    view, legal = state.view(0), state.legal_actions(0)
    with pytest.raises(EncodingError, match="outside 0..63"):
        codec.decode(64, legal, view)
    with pytest.raises(EncodingError, match="not an action index"):
        codec.decode("7x2", legal, view)
    illegal = next(i for i in range(64) if i not in codec.legal_map(legal, view))
    with pytest.raises(EncodingError, match="is not legal now"):
        codec.decode(illegal, legal, view)
    with pytest.raises(EncodingError, match="wasserloch: '9x1' is not an action: ") as refused:
        codec.action_index("9x1", view)
    assert isinstance(refused.value.__cause__, BadNotation)          # why, kept
    # a view of another game, or lacking a part of this one's: the codec's error, not a KeyError
    with pytest.raises(EncodingError, match=r"wasserloch: not a view of this game \(its 'game' is 'watten'\)"):
        codec.observe(wasserspiele.load("watten").new_game(seed=1).view(0))
    with pytest.raises(EncodingError, match="wasserloch: the view is not one this game gives"):
        codec.observe({"game": "wasserloch"})
    with pytest.raises(EncodingError, match="no codec for game 'chess': its manifest declares none"):
        import dataclasses

        from wasserspiele.core.manifest import Plugins

        class Fake:
            name = "chess"
            manifest = dataclasses.replace(game.manifest, name="chess", plugins=Plugins())
        codec_for(Fake())


VARIANTS = [
    ("wasserloch", {"players": 4, "rounds": 1, "chase": "adjacent"}),
    ("wasserloch", {"players": 2, "rounds": 2}),
    ("seven_waters", {"slide_limit": None, "final_turns": "none"}),
    ("watten", {"target": 4, "raising": True, "signals": "public", "signal_detection_p": 0.5}),
    ("wildwasser", {"players": 2}),
    ("wildwasser", {"players": 6, "river_flow": "back"}),
]


@pytest.mark.parametrize("name,options", VARIANTS)
def test_option_variants_round_trip_too(name, options):
    game = wasserspiele.load(name, **options)
    codec = codec_for(game)
    seen = set()
    for state, seat in random_positions(name, seeds=range(2), options=options):
        view = state.view(seat)
        legal = state.legal_actions(seat)
        mapping = codec.legal_map(legal, view)
        assert len(mapping) == len(legal)
        for i, a in mapping.items():
            assert codec.action_index(str(a), view) == i
            seen.add(str(a).split()[0])
        assert codec.observe(view).shape == (codec.obs_size,)
    assert seen


def test_seven_waters_many_games_never_put_two_actions_on_one_index():
    codec = codec_for(wasserspiele.load("seven_waters"))
    kinds = set()
    for state, seat in random_positions("seven_waters", seeds=range(10, 30)):
        legal = state.legal_actions(seat)
        assert len(codec.legal_map(legal, state.view(seat))) == len(legal)
        kinds.update(str(a).split()[0] for a in legal)
    assert kinds >= {"take", "discard", "slide", "river", "pool", "theme"}


@pytest.mark.parametrize("name", GAMES)
def test_the_fast_path_and_the_recording_path_encode_alike(name):
    from wasserspiele.adapters.codecs import Vec
    codec = codec_for(wasserspiele.load(name, **FAST[name]))
    for i, (state, seat) in enumerate(random_positions(name, seeds=[7])):
        if i % 7:
            continue
        view = state.view(seat)
        recorded = Vec(record=True)
        codec._fill(view, recorded)
        assert np.array_equal(np.asarray(recorded.data, dtype=np.float32), codec.observe(view))


def test_docs_hold_the_current_layouts():
    """docs/encodings.md carries the tables `python -m wasserspiele.adapters.codecs` prints."""
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[2] / "docs" / "encodings.md").read_text(encoding="utf-8")
    for name, options in [("wasserloch", {}), ("seven_waters", {}), ("watten", {}), ("wildwasser", {"players": 2})]:
        table = codec_for(wasserspiele.load(name, **options)).describe()
        assert table in doc, f"docs/encodings.md is out of date for {name}: regenerate its table"


@pytest.mark.parametrize("name", GAMES)
def test_manifest_limits_agree_with_the_codec_at_every_player_count(name):
    from wasserspiele.core.registry import manifest
    m = manifest(name)
    lo, hi = m.players
    for players in range(lo, hi + 1):
        game = wasserspiele.load(name, **({"players": players} if lo < hi else {}))
        assert m.limits.distinct_actions(game.options) == codec_for(game).num_actions, players


STATE_PATHS = [(g, FAST[g]) for g in GAMES] + [
    ("wasserloch", {"players": 4, "rounds": 2, "chase": "adjacent"}), ("wasserloch", {"players": 2}),
    ("wildwasser", {"players": 2}), ("wildwasser", {"players": 6, "river_flow": "back"}),
    ("watten", {"target": 4, "raising": True, "signals": "public", "signal_detection_p": 0.5}),
    ("watten", {"target": 5, "raising": False, "signals": "off"}),
    ("seven_waters", {"slide_limit": None, "final_turns": "none"})]


@pytest.mark.parametrize("name,options", STATE_PATHS)
def test_encoding_from_the_state_equals_encoding_the_view(name, options):
    """observe_state and observe_states (straight from the state where a codec can)
    give the vector of observe(view), and legal_map_state the map of legal_map(legal,
    view), for every seat at every decision, game over included."""
    codec = codec_for(wasserspiele.load(name, **options))
    state, positions = None, 0
    for state, _seat in random_positions(name, seeds=range(6), options=options):
        together = codec.observe_states(state, range(codec.players))
        for seat in range(codec.players):
            view = state.view(seat)
            expected = codec.observe(view)  # once: it is half of the test's time (6-seat Wildwasser)
            assert np.array_equal(codec.observe_state(state, seat), expected), seat
            assert np.array_equal(together[seat], expected), seat
            if seat in state.to_move():
                assert codec.legal_map_state(state, seat) == codec.legal_map(state.legal_actions(seat), view)
        positions += 1
    assert positions > 50 and state is not None and state.is_terminal()  # the last game, played out
    for seat in range(codec.players):
        assert np.array_equal(codec.observe_state(state, seat), codec.observe(state.view(seat)))


def test_an_index_that_is_not_an_integer_is_called_so():
    codec = codec_for(wasserspiele.load("wasserloch"))
    for bad in ("3", True, np.True_, 1.5, float("nan"), float("inf"), None, np.array([3])):
        with pytest.raises(EncodingError, match="is not an action index: not an integer"):
            codec.check_index(bad)
    assert [codec.check_index(i) for i in (3, np.int64(3), np.array(3), 3.0)] == [3] * 4


def test_the_codecs_command_reports_a_bad_option_without_a_traceback(capsys, monkeypatch):
    import sys

    from wasserspiele.adapters.codecs.__main__ import main
    for argv, says in ((["--option", "players=2"], "seven_waters with players=2: seven_waters has no option 'players'"),
                       (["wasserloch", "--option", "players=9"], "wasserloch with players=9:"),
                       (["chess"], "unknown game 'chess'")):
        monkeypatch.setattr(sys, "argv", ["codecs", *argv])
        with pytest.raises(SystemExit) as exit_:
            main()
        out, err = capsys.readouterr()
        assert exit_.value.code == 2 and says in err and "Traceback" not in err and out == "", argv


def _encodings_doc() -> str:
    from pathlib import Path
    return (Path(__file__).resolve().parents[2] / "docs" / "encodings.md").read_text(encoding="utf-8")


def test_the_docs_python_snippets_run():
    import re
    blocks = re.findall(r"```python\n(.*?)```", _encodings_doc(), re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "docs/encodings.md", "exec"), {})  # noqa: S102 - the docs' own example


def test_the_docs_describe_the_spaces_seats_and_state_paths_as_the_code_has_them():
    doc = _encodings_doc()
    # the spaces' bounds are per value, not one Box(-1, 100) for everything
    low, high = codec_for(wasserspiele.load("watten")).bounds()
    assert len(set(high)) > 1 and (low == 0).all()  # Watten has no negative value
    assert "Box(-1, 100" not in doc and "codec.bounds()" in doc
    # the environments do encode from the state: the doc names the test that holds them to the view
    assert "nothing hidden can leak" not in doc and "observe_state" in doc and "legal_map_state" in doc
    assert "test_encoding_from_the_state_equals_encoding_the_view" in doc
    assert callable(globals()["test_encoding_from_the_state_equals_encoding_the_view"])
    # Seven Waters' park segments are relative to the observer, and the doc says so
    names = {name for name, *_ in codec_for(wasserspiele.load("seven_waters")).layout}
    assert {"me_lines", "opponent_lines"} <= names and "seat 0 is seat 0), and every" not in doc
    assert "relative to the observer" in doc
