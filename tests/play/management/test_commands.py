"""play_match and pk_odds: decks from text files or slugs; bad input is one line, no traceback."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from decks.formats.export import deck_as_text
from decks.models import Deck
from play.engine.log import validate_log
from tests.play.workers import ROOT

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck_files(tmp_path):
    paths = []
    for deck in Deck.objects.filter(is_sample=True).order_by("slug")[:2]:
        path = tmp_path / f"{deck.slug}.txt"
        path.write_text(deck_text_of(deck), encoding="utf-8")
        paths.append(str(path))
    return paths


def deck_text_of(deck):
    return deck_as_text(deck)


def test_play_match_from_text_files_prints_the_score_and_writes_a_valid_log(
    deck_files, tmp_path, capsys
):
    log_path = tmp_path / "match.json"
    call_command(
        "play_match",
        "--deck-a",
        deck_files[0],
        "--deck-b",
        deck_files[1],
        "--seed",
        "5",
        "--log",
        str(log_path),
    )
    out = capsys.readouterr().out
    assert "wins on" in out and "(seed 5)" in out
    log = json.loads(log_path.read_text())
    validate_log(log)
    assert log["seed"] == 5
    goals = log["result"]["goals"]
    assert f"{goals['A']}–{goals['B']}" in out


def test_play_match_is_deterministic_for_a_seed(deck_files, capsys):
    args = [
        "--deck-a",
        deck_files[0],
        "--deck-b",
        deck_files[1],
        "--seed",
        "9",
        "--log",
        "-",
        "--quiet",
    ]
    call_command("play_match", *args)
    first = capsys.readouterr().out
    call_command("play_match", *args)
    assert capsys.readouterr().out == first
    assert json.loads(first)["format"] == "elevenstars-match-log"


@pytest.mark.parametrize(
    "args, house",
    [
        ([], {"empty_timing": "passes", "deck_out": "draw_phase"}),
        (
            ["--empty-timing", "ends_phase", "--deck-out", "any_draw"],
            {"empty_timing": "ends_phase", "deck_out": "any_draw"},
        ),
    ],
)
def test_play_match_plays_under_the_rules_edition_asked_for(deck_files, capsys, args, house):
    # R-PLAY-4, R-DRAW-2: the log names the readings it was played under.
    call_command(
        "play_match",
        "--deck-a",
        deck_files[0],
        "--deck-b",
        deck_files[1],
        "--seed",
        "3",
        "--log",
        "-",
        "--quiet",
        *args,
    )
    log = json.loads(capsys.readouterr().out)
    assert {name: log["rules"]["house"][name] for name in house} == house
    validate_log(log)


def test_play_match_accepts_saved_deck_slugs(capsys):
    slugs = list(
        Deck.objects.filter(is_sample=True).order_by("slug").values_list("slug", flat=True)
    )
    call_command(
        "play_match",
        "--deck-a",
        slugs[0],
        "--deck-b",
        slugs[1],
        "--policy-b",
        "passive",
        "--seed",
        "1",
    )
    assert "wins" in capsys.readouterr().out


def test_pk_odds_prints_the_exact_probability_and_a_simulation(deck_files, capsys):
    call_command(
        "pk_odds",
        "--deck-a",
        deck_files[0],
        "--deck-b",
        deck_files[1],
        "--simulate",
        "2000",
        "--seed",
        "1",
    )
    out = capsys.readouterr().out
    assert "(exact)" in out and "95% interval" in out


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda t: t.replace("goalkeeper:", "goalkeeper: XX-999 #", 1), "unknown card id XX-999"),
        (lambda t: t.replace("deck:\n", "deck:\n9 BS-002\n", 1), "not legal"),
        (lambda t: t + "\n7 BS-002 outside\nname: twice\n", "line"),
    ],
)
def test_bad_decks_are_one_line_errors(deck_files, change, message):
    path = Path(deck_files[0])
    path.write_text(change(path.read_text()))
    with pytest.raises(CommandError, match=message) as info:
        call_command("play_match", "--deck-a", str(path), "--deck-b", deck_files[1])
    assert "\n" not in str(info.value)


def test_an_unreadable_file_exits_non_zero_without_a_traceback(tmp_path):
    missing = tmp_path / "missing.txt"
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "pk_odds",
            "--deck-a",
            str(missing),
            "--deck-b",
            str(missing),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert "no such file" in result.stderr
