"""What every game's batched kernel environment (adapters/vector.KernelVectorEnv) does
alike; each game's own tests are in tests/games/<game>/test_vector.py."""

from __future__ import annotations

import numpy as np
import pytest

from wasserspiele.games.seven_waters.vector import SevenWatersVectorEnv
from wasserspiele.games.wasserloch.vector import WasserlochVectorEnv
from wasserspiele.games.watten.vector import WattenVectorEnv
from wasserspiele.games.wildwasser.vector import WildwasserVectorEnv

ENVS = {
    "seven_waters": lambda: SevenWatersVectorEnv(4, seed=1),
    "wasserloch": lambda: WasserlochVectorEnv(4, players=2, seed=1),
    "watten": lambda: WattenVectorEnv(4, seed=1),
    "wildwasser": lambda: WildwasserVectorEnv(4, players=3, seed=1),
}


@pytest.mark.parametrize("name", ENVS)
def test_an_illegal_index_ends_the_episode_and_the_table_is_dealt_anew(name):
    envs = ENVS[name]()
    _obs, info = envs.reset()
    bad = [int(np.flatnonzero(m == 0)[0]) for m in info["action_mask"]]
    _obs, rewards, terminated, _t, info = envs.step(bad)
    assert terminated.all() and (rewards == -1.0).all() and info["illegal_action"].all()
    _obs, rewards, terminated, _t, info = envs.step(bad)  # next-step autoreset: actions ignored
    assert not terminated.any() and (rewards == 0).all() and info["action_mask"].any(axis=1).all()


@pytest.mark.parametrize("bad", [0, -1, True, 2.0, "4"])
def test_a_table_count_that_is_not_a_positive_integer_is_refused(bad):
    for make in (SevenWatersVectorEnv, WasserlochVectorEnv, WattenVectorEnv, WildwasserVectorEnv):
        with pytest.raises(ValueError, match="num_envs must be a positive integer"):
            make(bad)
