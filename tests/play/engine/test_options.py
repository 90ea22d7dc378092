"""House rules: the options, their validation and their place in the log."""

import pytest

from play.engine.options import FIXED_HOUSE_RULES, Options


def test_the_defaults_are_the_spec_defaults():
    assert Options() == Options(halftime_keep_hands=False, max_back_passes=3)


def test_house_names_every_fixed_rule_and_every_option():
    house = Options(halftime_keep_hands=True).house()
    assert house["halftime_keep_hands"] is True and house["max_back_passes"] == 3
    for name, value in FIXED_HOUSE_RULES.items():
        assert house[name] == value


def test_options_come_back_from_a_house_object():
    options = Options(halftime_keep_hands=True, max_back_passes=None)
    assert Options.from_house(options.house()) == options


def test_a_house_rule_this_engine_lacks_is_refused():
    with pytest.raises(ValueError, match="not this engine's"):
        Options.from_house({**Options().house(), "draw_order": "defense_then_offense"})
    with pytest.raises(ValueError, match="Unknown house rules: sudden_goal"):
        Options.from_house({"sudden_goal": True})


@pytest.mark.parametrize(
    "kwargs", [{"halftime_keep_hands": 1}, {"max_back_passes": -1}, {"max_back_passes": "3"}]
)
def test_bad_option_values_are_refused(kwargs):
    with pytest.raises(ValueError):
        Options(**kwargs)
