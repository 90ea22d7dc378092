"""The compiled path (play/engine/compiled.py): it writes the plain path's logs, is used only
when its build matches the sources, and ENGINE_PLAIN=1 turns it off."""

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import play.engine
from play.engine import compiled

ROOT = Path(__file__).resolve().parents[3]


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
