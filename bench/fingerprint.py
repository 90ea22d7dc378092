"""Fingerprint of the engine's results: a digest of many seeded matches, to compare builds.

    .venv/bin/python bench/fingerprint.py                  # the compiled path, when built
    ENGINE_PLAIN=1 .venv/bin/python bench/fingerprint.py   # the plain-Python path

A speed change to the engine must leave every result byte-identical (docs/performance.md). This
plays 1,066 seeded matches: every policy (search only a few, it is slow), both editions and
two more option sets, each with and without a log, and replays every tenth log; it hashes each
outcome's JSON and each log's JSON text. It prints one digest per option set and policy pair,
then the total: run it before and after a change, on both paths, and compare. The figures in
docs/performance.md give the total for the code they describe. About a minute compiled.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import play.engine  # noqa: E402
from play.engine.options import Options  # noqa: E402
from play.engine.runner import play_match, replay  # noqa: E402
from play.engine.testing import sample_side_deck  # noqa: E402

OPTION_SETS = {
    "second": Options(),
    "first": Options(empty_timing="ends_phase", deck_out="any_draw"),
    "keep_hands": Options(halftime_keep_hands=True, max_back_passes=2),
    "mixed": Options(empty_timing="ends_phase", deck_out="draw_phase", max_back_passes=5),
}
PAIRINGS = (  # (policy A, policy B, matches)
    ("greedy", "greedy", 120),
    ("greedy", "passive", 60),
    ("random", "greedy", 40),
    ("random", "random", 30),
    ("passive", "random", 20),
    ("search", "greedy", 4),
)


def main() -> None:
    compiled = getattr(play.engine, "COMPILED", False)
    print(f"engine path: {'compiled (Cython)' if compiled else 'plain Python'}")
    pool = [sample_side_deck(seed) for seed in range(40)]
    total = hashlib.sha256()
    for set_name, options in OPTION_SETS.items():
        for policy_a, policy_b, count in PAIRINGS:
            if set_name == "mixed" and policy_a == policy_b == "random":
                continue
            digest = hashlib.sha256()
            for seed in range(count):
                deck_a, deck_b = pool[seed % 40], pool[(seed * 7 + 3) % 40]
                for log in (True, False):
                    outcome = play_match(
                        deck_a,
                        deck_b,
                        policy_a=policy_a,
                        policy_b=policy_b,
                        seed=seed,
                        options=options,
                        log=log,
                    )
                    digest.update(json.dumps(outcome.to_dict(), sort_keys=True).encode())
                    if log:
                        text = json.dumps(outcome.log, ensure_ascii=False)
                        digest.update(text.encode())
                        if seed % 10 == 0:
                            replay(json.loads(text))  # raises if the replay differs
            if set_name == "first" and policy_a == policy_b == "greedy":
                outcome = play_match(
                    pool[1],
                    pool[2],
                    policy_a="greedy",
                    policy_b="greedy",
                    seed=5,
                    options=options,
                    first_edition_log=True,
                )
                digest.update(json.dumps(outcome.log).encode())
            print(set_name, policy_a, policy_b, digest.hexdigest()[:16], flush=True)
            total.update(digest.digest())
    print("TOTAL", total.hexdigest())


if __name__ == "__main__":
    main()
