"""Bot settings given as numbers too large for a float (a bot spec typed with hundreds of
digits, or a constructor call): refused naming the setting, as any number out of range is.
`math.isfinite` of an int past 1e308 raised OverflowError (a traceback from `arena --bots
ismcts:iterations=999…`), an exploration constant that large was taken and crashed the
search, and a spec's digits past int's 4,300 were read as float's inf ("not Infinity")."""

import pytest

from wasserspiele import load
from wasserspiele.bots.specs import check_spec, parse_bot_spec
from wasserspiele.core.errors import BadOption

HUGE = "9" * 400
LONGER = "9" * 5000  # past int()'s digits


@pytest.mark.parametrize("spec, said", [
    (f"ismcts:iterations={HUGE}", "iterations must be a whole number from 1 to"),
    (f"ismcts:rollout_depth={HUGE}", "rollout_depth"),
    (f"ismcts:exploration={HUGE}", "exploration"),
    (f"ismcts:iterations={LONGER}", "iterations must be a whole number from 1 to"),
])
def test_a_setting_too_large_for_a_float_is_refused_naming_it(spec, said):
    with pytest.raises(BadOption) as err:
        check_spec(parse_bot_spec(spec), load("wasserloch"))  # what arena, lab and play ask of a spec
    text = str(err.value)
    assert said in text and "Infinity" not in text and "inf" not in text.split(said)[-1][:20]
