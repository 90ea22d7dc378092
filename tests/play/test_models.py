"""Facts the play models hold: a match log's title."""

from play.models import match_log_title


def log_with(goals, pk=None):
    return {
        "sides": {"A": {"name": "Kashima"}, "B": {"name": "Jubilo"}},
        "result": {"goals": goals, "pk": pk},
    }


def test_a_title_names_both_sides_and_the_score():
    assert match_log_title(log_with({"A": 2, "B": 1})) == "Kashima 2–1 Jubilo"


def test_a_title_keeps_the_shootout_score_of_a_level_match():
    title = match_log_title(log_with({"A": 1, "B": 1}, pk={"A": 5, "B": 4}))
    assert title == "Kashima 1–1 (PK 5–4) Jubilo"
