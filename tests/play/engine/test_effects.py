"""The event effect vocabulary."""

import pytest

from play.engine.effects import Clause, EffectError, compile_effect, parse_effect


@pytest.mark.parametrize(
    ("text", "clause"),
    [
        ("draw:2", Clause("draw:2", "draw", "self", 2)),
        ("keep:+3", Clause("keep:+3", "keep", "self", 3)),
        ("shoot:+1", Clause("shoot:+1", "shoot", "self", 1)),
        ("defense:+4", Clause("defense:+4", "defense", "self", 4)),
        ("opp_keep:-2", Clause("opp_keep:-2", "keep", "opponent", -2)),
        ("opp_shoot:-1", Clause("opp_shoot:-1", "shoot", "opponent", -1)),
        ("opp_defense:-5", Clause("opp_defense:-5", "defense", "opponent", -5)),
    ],
)
def test_each_clause_of_the_vocabulary_parses(text, clause):
    assert parse_effect(text) == (clause,)


def test_clauses_are_separated_by_semicolons_with_optional_spaces():
    assert [c.text for c in parse_effect("draw:1; keep:+2 ;opp_shoot:-1")] == [
        "draw:1",
        "keep:+2",
        "opp_shoot:-1",
    ]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("heal:+2", "'heal:+2'"),
        ("draw:1;keep:2", "'keep:2'"),
        ("keep:-2", "'keep:-2'"),
        ("opp_keep:+2", "'opp_keep:+2'"),
        ("draw:0", "'draw:0'"),
        ("draw:1;", "an empty clause"),
        ("DRAW:1", "'DRAW:1'"),
    ],
)
def test_a_bad_clause_is_rejected_naming_it(text, named):
    with pytest.raises(EffectError) as error:
        parse_effect(text)
    assert named in str(error.value)


def test_an_empty_effect_is_rejected():
    with pytest.raises(EffectError, match="Empty effect"):
        parse_effect("  ")


def test_compile_effect_sums_the_clauses():
    effect = compile_effect("draw:1;keep:+2;keep:+1;opp_defense:-3;draw:2")
    assert effect.own == (3, 0, 0)
    assert effect.opponent == (0, 0, -3)
    assert effect.draw == 3
