"""The deck name rule (decks/names.py)."""

import pytest

from decks.names import deck_name_problem


@pytest.mark.parametrize(
    "name", ["Antlers 2001", "鹿島アントラーズ", "Júbilo Iwata", "مرحبا", "x" * 100]
)
def test_ordinary_names_in_any_script_are_fine(name):
    assert deck_name_problem(name) is None


@pytest.mark.parametrize(
    "name, words",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("x" * 101, "longer than 100"),
        ("evil\u202eexe.txt", "U+202E"),
        ("a\u2066b", "U+2066"),
        ("zero\u200bwidth", "U+200B"),
        ("nul\x00", "control character"),
        ("tab\tname", "control character"),
        ("priv\ue000", "private-use"),
    ],
)
def test_names_that_could_pass_for_another_are_refused(name, words):
    assert words in deck_name_problem(name)
