"""Gymnasium `opponent_options` (settings for every opponent of a bot kind) and a setting
the opponent's own spec writes: the spec's was replaced without a word
(`opponents="ismcts:iterations=20", opponent_options={"ismcts": {"iterations": 3}}`
searched 3 iterations); saying it two ways is refused, once is taken."""

import gymnasium
import pytest

import wasserspiele.adapters.gymnasium  # noqa: F401  (registers the envs)
from wasserspiele.core.errors import BadOption


def _iterations(env):
    return {vars(bot)["iterations"] for bot in env.unwrapped.bots.values()}


def test_a_setting_the_spec_writes_and_opponent_options_says_otherwise_is_refused():
    with pytest.raises(BadOption, match=r"opponent_options\['ismcts'\] sets iterations, which the opponent "
                                        r"'ismcts:iterations=20' already says otherwise"):
        gymnasium.make("wasserspiele/Wasserloch-v0", opponents="ismcts:iterations=20",
                       opponent_options={"ismcts": {"iterations": 3}})


def test_the_same_value_twice_or_settings_the_spec_leaves_are_taken():
    env = gymnasium.make("wasserspiele/Wasserloch-v0", opponents="ismcts:iterations=20",
                         opponent_options={"ismcts": {"iterations": 20, "exploration": 1.0}})
    env.reset(seed=0)
    assert _iterations(env) == {20}
    assert {vars(bot)["exploration"] for bot in env.unwrapped.bots.values()} == {1.0}
    env = gymnasium.make("wasserspiele/Wasserloch-v0", opponents="ismcts", opponent_options={"ismcts": {"iterations": 7}})
    env.reset(seed=0)
    assert _iterations(env) == {7}
