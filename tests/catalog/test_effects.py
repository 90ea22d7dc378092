"""The effect vocabulary as the catalog uses it: one grammar with the engine, and words."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catalog.effects import effect_errors, effect_normalize, effect_text, effect_texts
from play.engine.effects import (
    MAX_AMOUNT,
    Clause,
    EffectError,
    format_effect,
    parse_effect,
)

amounts = st.integers(min_value=1, max_value=MAX_AMOUNT)
clauses = st.one_of(
    amounts.map(lambda n: Clause(f"draw:{n}", "draw", "self", n)),
    st.tuples(st.sampled_from(["keep", "shoot", "defense"]), amounts).map(
        lambda pn: Clause(f"{pn[0]}:+{pn[1]}", pn[0], "self", pn[1])
    ),
    st.tuples(st.sampled_from(["keep", "shoot", "defense"]), amounts).map(
        lambda pn: Clause(f"opp_{pn[0]}:-{pn[1]}", pn[0], "opponent", -pn[1])
    ),
)
effects = st.lists(clauses, min_size=1, max_size=6).map(tuple)

# Near misses: the pieces of the grammar recombined, so both checkers see the hard cases
# (`keep:+0`, `draw:01`, `opp_keep:+2`, `draw:100`, stray spaces and empty clauses).
numbers = st.sampled_from(["0", "1", "01", "9", "10", "99", "100", "007", "", "x", "-1", "+1"])
names = st.sampled_from(
    ["draw", "keep", "shoot", "defense", "opp_keep", "opp_shoot", "opp_defense", "DRAW", "heal"]
)
signs = st.sampled_from(["", "+", "-", "±"])
raw_clauses = st.tuples(st.sampled_from(["", " "]), names, signs, numbers).map(
    lambda p: f"{p[0]}{p[1]}:{p[2]}{p[3]}{p[0]}"
)
raw_effects = st.lists(raw_clauses, min_size=0, max_size=4).map(";".join)


@given(effects)
def test_formatting_parsed_clauses_gives_back_the_text(effect):
    text = format_effect(effect)
    assert parse_effect(text) == effect
    assert format_effect(parse_effect(text)) == text


@given(effects)
def test_generated_effects_import_cleanly_and_read_as_words(effect):
    text = format_effect(effect)
    assert effect_errors(text) == []
    assert effect_normalize(text) == text
    assert effect_text(text, "en") and effect_text(text, "ja")


@given(raw_effects)
def test_the_catalog_and_the_engine_accept_exactly_the_same_effects(text):
    try:
        parse_effect(text)
        engine_accepts = True
    except EffectError:
        engine_accepts = False
    assert (effect_errors(text) == []) == engine_accepts


@pytest.mark.parametrize("text", ["keep:+0", "draw:01", "draw:0", "shoot:+100", "opp_keep:+2"])
def test_clauses_the_two_checkers_once_disagreed_on_are_rejected_by_both(text):
    assert effect_errors(text)
    with pytest.raises(EffectError):
        parse_effect(text)


def test_spaces_around_clauses_are_dropped_by_normalize():
    assert effect_normalize(" draw:1 ; keep:+2") == "draw:1;keep:+2"


def test_an_effect_reads_as_words_in_english():
    assert effect_text("draw:1;keep:+2", "en") == "Draw 1 card. Your keep +2 this play phase."
    assert effect_text("draw:2;opp_shoot:-1", "en") == (
        "Draw 2 cards. Opponent's shoot −1 this play phase."
    )


def test_an_effect_reads_as_words_in_japanese():
    assert effect_text("draw:1;keep:+2", "ja") == (
        "カードを1枚引く。このプレイフェイズ中、自分のキープ+2。"
    )
    assert effect_texts("opp_defense:-3")["ja"] == "このプレイフェイズ中、相手のディフェンス−3。"


def test_a_bad_effect_has_no_words():
    assert effect_text("teleport:+3", "en") == ""
    assert effect_text("", "ja") == ""
