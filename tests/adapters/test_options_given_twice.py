"""A game's options given to the Gymnasium envs as `options={...}` and as keyword arguments:
the keyword silently won (`options={"players": 3}, players=4` played with 4 players), and an
`options` that was no dict raised Python's "'str' object is not a mapping"."""

import gymnasium
import pytest

import wasserspiele.adapters.gymnasium  # noqa: F401  (registers the envs)
from wasserspiele.adapters.gymnasium import WasserspieleEnv

MAKERS = {
    "env": lambda **kw: WasserspieleEnv("wasserloch", **kw),
    "make": lambda **kw: gymnasium.make("wasserspiele/Wasserloch-v0", **kw),
    "make_vec": lambda **kw: gymnasium.make_vec("wasserspiele/Wasserloch-v0", num_envs=2,
                                                vectorization_mode="vector_entry_point", **kw),
}


@pytest.mark.parametrize("maker", MAKERS)
def test_an_option_given_both_ways_with_two_values_is_refused_naming_both(maker):
    with pytest.raises(ValueError, match=r"option 'players' is 3 in options= but 4 as a keyword argument: "
                                         r"give it once"):
        MAKERS[maker](options={"players": 3}, players=4)


@pytest.mark.parametrize("maker", MAKERS)
def test_options_both_ways_are_joined_and_the_same_value_twice_is_taken(maker):
    env = MAKERS[maker](options={"players": 3}, rounds=1).unwrapped
    if maker == "make_vec":  # the kernel env holds the options it plays
        assert (env.players, env.rounds) == (3, 1)
    else:
        assert (env.game.players, env.game.options["rounds"]) == (3, 1)
    env = MAKERS[maker](options={"players": 3, "rounds": 1}, rounds=1).unwrapped
    assert (env.players, env.rounds) == (3, 1) if maker == "make_vec" else env.game.options["rounds"] == 1


@pytest.mark.parametrize("options,said", [
    ("players=3", r"options must be a dict of the game's options, e.g. \{'players': 3\}, not 'players=3'"),
    ({3: 1}, r"options: the keys are the options' names, e.g. 'players', not 3"),
])
def test_options_that_are_no_dict_of_names_are_refused_saying_what_they_are(options, said):
    with pytest.raises(ValueError, match=said):
        WasserspieleEnv("wasserloch", options=options)
