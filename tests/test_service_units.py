"""The systemd units of docs/systemd/ (docs/deploy.md, "Service units") start real runstack
roles, stop the way runstack needs, and pass `systemd-analyze verify`."""

import configparser
import grp
import os
import pwd
import shlex
import shutil
import subprocess
import sys

import pytest

from play.management import processes
from play.management.commands.runstack import ROLES, Command, chosen_roles
from tests.play.workers import ROOT

UNITS = ROOT / "docs" / "systemd"
CHECKOUT = "/srv/cardlab"
ENV_FILE = "/etc/cardlab/cardlab.env"
SERVICES = {"cardlab-web.service": "web", "cardlab-worker.service": "worker"}
SERVICES["cardlab-beat.service"] = "beat"


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # systemd's keys are case-sensitive
    parser.read(UNITS / name, encoding="utf-8")
    return parser


def runstack_options(exec_start: str) -> dict:
    """Parse an ExecStart line with runstack's own argument parser (an unknown flag fails)."""
    python, manage, command, *flags = shlex.split(exec_start)
    assert python == f"{CHECKOUT}/.venv/bin/python"
    assert manage == f"{CHECKOUT}/manage.py" and command == "runstack"
    return vars(Command().create_parser("manage.py", "runstack").parse_args(flags))


@pytest.mark.parametrize(("name", "role"), SERVICES.items())
def test_each_unit_runs_one_runstack_role_from_the_checkouts_virtualenv(name, role):
    service = unit(name)["Service"]
    assert chosen_roles(runstack_options(service["ExecStart"])) == [role]
    assert service["WorkingDirectory"] == CHECKOUT
    assert service["EnvironmentFile"] == ENV_FILE
    assert service["User"] == "cardlab"
    assert unit(name)["Install"]["WantedBy"] == "cardlab.target"
    assert unit(name)["Unit"]["PartOf"] == "cardlab.target"


def test_the_units_cover_every_role_once():
    assert sorted(SERVICES.values()) == sorted(ROLES)


@pytest.mark.parametrize("name", SERVICES)
def test_a_stop_reaches_runstack_alone_and_a_failure_restarts(name):
    """SIGTERM to runstack's main pid only: it stops each process gracefully; systemd's default
    (SIGTERM to the whole control group) would stop Celery's pool children mid-chunk."""
    service = unit(name)["Service"]
    assert service["KillMode"] == "mixed"
    assert service["KillSignal"] == "SIGTERM"
    assert service["Restart"] == "on-failure"


def test_the_worker_unit_waits_longer_than_runstack_waits_for_running_chunks(monkeypatch):
    monkeypatch.delenv("STOP_TIMEOUT", raising=False)
    waits = float(unit("cardlab-worker.service")["Service"]["TimeoutStopSec"])
    assert waits > processes.stop_timeout()


def test_the_web_unit_checks_the_deployment_before_it_starts():
    pre = shlex.split(unit("cardlab-web.service")["Service"]["ExecStartPre"])
    assert pre[1:] == [f"{CHECKOUT}/manage.py", "check", "--deploy", "--fail-level", "WARNING"]


def test_the_example_environment_passes_the_deployment_check():
    settings = {}
    for line in (UNITS / "cardlab.env.example").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            key, _, value = line.partition("=")
            settings[key] = value
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(settings, SECRET_KEY="k" + os.urandom(40).hex())  # the example's is a placeholder
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze not installed")
def test_systemd_analyze_verifies_the_units_without_a_warning(tmp_path):
    """The units as an operator installs them: paths edited to this checkout, the user edited
    to the one running the test (verify checks that the programs exist and are executable)."""
    env_file = tmp_path / "cardlab.env"
    shutil.copyfile(UNITS / "cardlab.env.example", env_file)
    user = pwd.getpwuid(os.getuid()).pw_name
    group = grp.getgrgid(os.getgid()).gr_name
    names = [*SERVICES, "cardlab.target"]
    for name in names:
        text = (UNITS / name).read_text(encoding="utf-8")
        text = text.replace(ENV_FILE, str(env_file)).replace(CHECKOUT, str(ROOT))
        text = text.replace("User=cardlab", f"User={user}").replace(
            "Group=cardlab", f"Group={group}"
        )
        (tmp_path / name).write_text(text, encoding="utf-8")

    result = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", *names],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )

    # verify answers 0 with warnings such as an unknown key or a bad value: those fail too.
    assert result.returncode == 0 and not result.stderr.strip(), result.stderr
