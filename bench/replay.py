"""Benchmark: the replay viewer on a long match log, one window of steps vs the whole log.

Usage: .venv/bin/python bench/replay.py [--seeds 40] [--repeat 5]

Self-contained (a throwaway SQLite database in a temporary folder, the sample catalog). Plays
`--seeds` greedy matches and keeps the one with the most events, saves it, then times with
Django's test client (median of `--repeat`):
- the replay page and two steps requests (the middle and the last window), as served now;
- the same page's payload built the way the viewer built it before issue #12 (every event
  narrated, the whole log and every sentence in the page), for comparison;
- a guest uploading the same log as a ~4 MB file (the JSON indented; verified by replaying it
  through the engine, then shown).
It prints the events narrated per response and the bytes sent, which are what the tests bound.
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="bench-replay-")
    os.environ.update(
        DATABASE_URL=f"sqlite:///{folder}/bench.sqlite3",
        DJANGO_SETTINGS_MODULE="cardsite.settings",
        REDIS_URL="",
        DEBUG="1",  # plain static files: no collectstatic manifest needed
        ALLOWED_HOSTS="testserver",
        SECRET_KEY="bench-only-secret-key-" + "x" * 40,
    )
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment

    setup_test_environment()
    call_command("migrate", verbosity=0)
    call_command("load_catalog", verbosity=0)

    from django.contrib.auth import get_user_model

    from play import narrate as narrate_module
    from play.engine import play_match
    from play.engine.testing import sample_side_deck
    from play.models import MatchLog
    from play.presenters import card_table, narrate_for_page, side_labels
    from play.replays import steps

    longest = None
    for seed in range(args.seeds):
        log = play_match(
            sample_side_deck(seed),
            sample_side_deck(seed + 50),
            policy_a="greedy",
            policy_b="greedy",
            seed=seed,
        ).log
        if longest is None or len(log["events"]) > len(longest["events"]):
            longest = log
    log = longest
    total = len(log["events"])
    user = get_user_model().objects.create_user("bench", password="pw-bench-1")
    saved = MatchLog.objects.create(owner=user, source="upload", title="Bench", log=log)
    client = Client()
    client.force_login(user)

    narrated = []
    line = narrate_module.Narrator.line

    def counting(self, index, event):
        narrated.append(index)
        return line(self, index, event)

    narrate_module.Narrator.line = counting

    def timed(label, call):
        times, sizes, counts = [], [], []
        for _ in range(args.repeat):
            narrated.clear()
            started = time.perf_counter()
            size = call()
            times.append((time.perf_counter() - started) * 1000)
            sizes.append(size)
            counts.append(len(narrated))
        print(
            f"{label:<44} {statistics.median(times):8.1f} ms  {sizes[0] / 1000:8.1f} kB  "
            f"{counts[0]:5d} events narrated"
        )

    def get(url):
        response = client.get(url, secure=True)
        assert response.status_code == 200, response.status_code
        return len(response.content)

    def whole_log_payload():
        # The viewer's payload before issue #12: every event narrated, the whole log sent.
        card_data = dict(log["cards"])
        cards = card_table(card_data)
        labels = side_labels(log["sides"]["A"]["name"], log["sides"]["B"]["name"])
        lines = narrate_for_page(log["events"], cards=cards, labels=labels, rules=log["rules"])
        payload = {"log": log, "lines": [x.to_dict() for x in lines], "cards": cards}
        return len(json.dumps(payload))

    compact = len(json.dumps(log))
    load = os.getloadavg()
    print(
        f"log: {total} events, {compact / 1000:.0f} kB compact JSON; window {steps.REPLAY_WINDOW}"
    )
    print(
        f"machine: {os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    page = f"/replays/{saved.share_token}/"
    steps_url = f"/replays/{saved.share_token}/steps.json"
    timed("replay page (first window)", lambda: get(page))
    timed("steps.json, middle window", lambda: get(f"{steps_url}?position={total // 2}"))
    timed("steps.json, last window", lambda: get(f"{steps_url}?position={total}"))
    timed("before #12: whole-log payload only", whole_log_payload)

    indent = 1
    while len(json.dumps(log, indent=indent)) < 4_000_000 and indent < 64:
        indent += 1
    blob = json.dumps(log, indent=indent).encode()
    guest = Client()

    def guest_upload():
        from django.core.files.uploadedfile import SimpleUploadedFile

        upload = SimpleUploadedFile("log.json", blob, content_type="application/json")
        response = guest.post("/replays/upload/", {"file": upload}, secure=True)
        assert response.status_code == 200, response.content[:300]
        return len(response.content)

    print(f"guest upload file: {len(blob) / 1e6:.2f} MB (indent {indent})")
    timed("guest upload of the 4 MB file (verify + show)", guest_upload)


if __name__ == "__main__":
    main()
