"""The engine's speed paths give the plain path's results (issue #11, docs/performance.md).

The written-out shuffle and draws, the remembered deck checks and halftime swaps, and the
greedy bot's per-card facts must change nothing; the compiled path (play/engine/compiled.py)
must give the same logs as plain Python, is used only when its build matches the sources, and
ENGINE_PLAIN=1 turns it off.
"""

import dataclasses
import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import play.engine
from play.engine import compiled
from play.engine.match import HALFTIME, IllegalDeck, Match, SideDeck
from play.engine.options import Options
from play.engine.policies import _card_facts
from play.engine.testing import player, sample_side_deck

ROOT = Path(__file__).resolve().parents[3]


def _at_halftime(a, b, seed, options=None):
    match = Match.new(a, b, seed=seed, record_log=False, options=options or Options())
    rng = random.Random(seed)
    while match.decision != HALFTIME:
        match.apply_action(match.random_legal_action(rng))
    return match


def _fresh_swap_options(match):
    kept = dict(match._swap_memo)
    match._swap_memo.clear()
    try:
        return match.legal_actions()
    finally:
        match._swap_memo.clear()
        match._swap_memo.update(kept)


@pytest.mark.parametrize("keep_hands", [False, True])
def test_remembered_halftime_swaps_are_the_swaps_worked_out_afresh(keep_hands):
    a, b = sample_side_deck(31), sample_side_deck(32)
    options = Options(halftime_keep_hands=keep_hands)
    for seed in range(3):  # the first match of the pair works them out, the others remember
        match = _at_halftime(a, b, seed, options)
        remembered = match.legal_actions()
        assert remembered == _fresh_swap_options(match)
        assert len(remembered) > 1  # real swaps, not only "no swap"
        assert ("A" in match._swap_memo) is not keep_hands  # kept hands: nothing remembered
        copy = match.determinized(match.actor, random.Random(seed))
        assert copy.legal_actions() == remembered


def test_remembered_halftime_swaps_follow_the_cards_not_the_deck_pair():
    a, b = sample_side_deck(33), sample_side_deck(34)
    match = _at_halftime(a, b, 1)
    before = match.legal_actions()
    state = match._s[match.actor]
    state.bench = [card for card in state.bench if card.kind == "goalkeeper"]  # nothing to bring
    assert match.legal_actions() == _fresh_swap_options(match) != before


def test_swap_checks_by_counts_name_the_problems_the_card_lists_give():
    from itertools import product

    from play.engine.legality import deck_problems

    checked = refused = 0
    for seed in range(4):
        match = _at_halftime(sample_side_deck(40 + seed), sample_side_deck(50 + seed), seed)
        side = match.actor
        state = match._s[side]
        outs = sorted({card.id for card in state.owned})
        ins = sorted({card.id for card in state.bench})
        for out, into in product(outs, ins):
            if out == into:
                continue
            deck, bench = match._after_swaps(state, ((out, into),))
            problems = deck_problems(
                deck=[(card, 1) for card in deck],
                bench=[(card, 1) for card in bench],
                goalkeeper=state.goalkeeper,
                pk_goalkeeper=match.side_decks[side].pk_goalkeeper,
            )
            expected = (
                "After these swaps: " + " ".join(p.message for p in problems) if problems else None
            )
            assert match._swaps_problem(side, ((out, into),)) == expected
            checked += 1
            refused += expected is not None
    assert checked > 100 and 0 < refused < checked  # both kinds were compared


def test_remembered_deck_checks_still_refuse_what_is_illegal():
    legal = sample_side_deck(1)
    Match.new(legal, sample_side_deck(2), seed=1, record_log=False)  # now remembered
    short = SideDeck("short", legal.cards[:59], legal.goalkeeper)  # R-DECK-1
    for _ in range(2):
        with pytest.raises(IllegalDeck):
            Match.new(short, sample_side_deck(2), seed=1)
    wrong_keeper = SideDeck("gk", legal.cards, legal.cards[0])  # R-DECK-4, same cards tuple
    with pytest.raises(IllegalDeck):
        Match.new(wrong_keeper, sample_side_deck(2), seed=1)


def test_remembered_deck_checks_still_refuse_two_definitions_of_an_id():
    a = sample_side_deck(1)
    first = next(card for card in a.cards if card.kind == "player")
    clash = dataclasses.replace(first, shoot=first.shoot + 1)
    b = SideDeck("b", tuple(clash if card == first else card for card in a.cards), a.goalkeeper)
    assert not b.problems()
    Match.new(a, a, seed=3)
    for _ in range(2):
        with pytest.raises(ValueError, match="two different definitions"):
            Match.new(a, b, seed=3)


def test_greedy_card_facts_follow_the_card_object_not_its_id():
    weak = player("SAME", shoot=1, keep=1, defense=1, person="x")
    strong = player("SAME", shoot=9, keep=9, defense=9, person="x")
    assert _card_facts(weak).value == 3
    assert _card_facts(strong).value == 27
    assert _card_facts(weak).value == 3


def test_the_engine_says_which_path_it_runs():
    match_file = sys.modules["play.engine.match"].__file__
    if compiled.plain_forced() or not play.engine.COMPILED:
        assert match_file.endswith("match.py")
    else:
        assert compiled.build_state() == "current"
        assert not match_file.endswith(".py")


def test_a_stale_or_forced_off_build_is_not_used(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv(compiled.PLAIN_ENV, raising=False)
    monkeypatch.setattr(compiled, "build_dir", lambda: tmp_path)
    path: list[str] = []
    assert compiled.activate(path) is False and path == []  # no build at all: quiet
    assert capsys.readouterr().err == ""
    stale = {name: "0" * 64 for name in compiled.MODULES}
    (tmp_path / compiled.STAMP).write_text(json.dumps({"sources": stale}))
    assert compiled.build_state() == "stale"
    assert compiled.activate(path) is False and path == []
    assert "older than its sources" in capsys.readouterr().err
    (tmp_path / compiled.STAMP).write_text(json.dumps({"sources": compiled._digests()}))
    assert compiled.activate(path) is True and path == [str(tmp_path / "play" / "engine")]
    monkeypatch.setenv(compiled.PLAIN_ENV, "1")
    assert compiled.activate([]) is False


def test_build_without_a_compiler_says_so_in_one_line(monkeypatch, capsys):
    monkeypatch.delenv(compiled.PLAIN_ENV, raising=False)
    monkeypatch.setattr(compiled, "build_state", lambda: "missing")
    monkeypatch.setattr(compiled, "compiler_problem", lambda: "no C compiler (gcc) found")
    assert compiled.build() == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out == [
        "engine: no C compiler (gcc) found; the engine runs as plain Python (slower, same results)."
    ]


_DIGEST_SCRIPT = """
import hashlib, json, sys
from play.engine.options import Options
from play.engine.runner import play_match
from play.engine.testing import sample_side_deck
import play.engine
decks = [sample_side_deck(s) for s in (1, 2, 3, 5)]
h = hashlib.sha256()
first = Options(empty_timing="ends_phase", deck_out="any_draw")
for a, b, options in (("greedy", "greedy", Options()), ("random", "greedy", Options()),
                      ("greedy", "passive", first)):
    for seed in range(4):
        out = play_match(decks[seed], decks[(seed + 1) % 4], policy_a=a, policy_b=b, seed=seed,
                         options=options)
        h.update(json.dumps(out.log).encode() + json.dumps(out.to_dict()).encode())
print(play.engine.COMPILED, h.hexdigest())
"""


def _digest_on(plain: bool) -> tuple[str, str]:
    env = {**os.environ, compiled.PLAIN_ENV: "1" if plain else "0"}
    done = subprocess.run(
        [sys.executable, "-c", _DIGEST_SCRIPT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    flag, digest = done.stdout.split()
    return flag, digest


@pytest.mark.skipif(compiled.build_state() != "current", reason="no compiled build here")
def test_the_compiled_and_plain_paths_write_the_same_logs():
    plain_flag, plain = _digest_on(plain=True)
    compiled_flag, fast = _digest_on(plain=False)
    assert (plain_flag, compiled_flag) == ("False", "True")
    assert fast == plain
    assert len(hashlib.sha256().hexdigest()) == len(plain)
