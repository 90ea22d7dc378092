"""Settings come from the environment; production values pass `check --deploy` cleanly."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "a-long-random-production-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "ALLOWED_HOSTS": "cards.example.org",
    "DATABASE_URL": "sqlite:///" + str(ROOT / "var" / "deploy-check.sqlite3"),
}


def manage(*args, **env):
    full_env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY")}
    full_env.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_reports_no_warnings_with_production_values():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = dict(PRODUCTION)
    del env["SECRET_KEY"]
    result = manage("check", **env)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_a_bad_boolean_is_refused_loudly():
    result = manage("check", DEBUG="maybe")
    assert result.returncode != 0
    assert "DEBUG='maybe' is not a boolean" in result.stderr
