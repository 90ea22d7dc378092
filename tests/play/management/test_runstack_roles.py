"""runstack's roles: all processes by default, only the named roles otherwise (one beat per
deployment: a second host runs --web --worker)."""

import pytest

from play.management.commands.runstack import Command, chosen_roles


def processes_for(*flags: str) -> list[str]:
    options = vars(Command().create_parser("manage.py", "runstack").parse_args(list(flags)))
    return list(Command.commands(options, chosen_roles(options)))


def test_no_role_named_runs_the_whole_stack():
    assert processes_for() == ["web", "chunk worker", "control worker", "beat"]


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        (["--web"], ["web"]),
        (["--worker"], ["chunk worker", "control worker"]),
        (["--beat"], ["beat"]),
        (["--web", "--worker"], ["web", "chunk worker", "control worker"]),
    ],
)
def test_named_roles_run_only_their_processes(flags, expected):
    assert processes_for(*flags) == expected


def test_the_web_role_binds_the_given_address():
    options = vars(
        Command().create_parser("manage.py", "runstack").parse_args(["--web", "--port", "8123"])
    )
    web = Command.commands(options, ["web"])["web"]
    assert web[web.index("--bind") + 1] == "127.0.0.1:8123"
