"""Hostile input on every URL pattern and every API operation: never a 5xx, never a write.

Each pattern of the root URLconf (Django's admin aside) is requested with NUL characters,
integers of thousands of digits and absurd values in its path and query, and sent form and
JSON bodies that are deeply nested, hold NaN, NUL or 5,000-digit numbers, or are larger than
any limit. Every answer must be below 500, and no row of the app's tables may change. Several
of these failed only on PostgreSQL (NUL in a query, smallint overflow): run this module there.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.apps import apps
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.throttling import SimpleRateThrottle

from decks.models import Collection, Deck
from decks.selectors import deck_content
from decks.services import deck_create

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

NUL = "%00"
HUGE = "9" * 5000
WIDE = "99999999999999999999"
DEEP = "[" * 20_000 + "]" * 20_000

HOSTILE_QUERY = (
    f"?q={NUL}&page={HUGE}&deck={NUL}&n={HUGE}&k={WIDE}&a={HUGE}&b={WIDE}&step={HUGE}&kind={NUL}"
)
# "²" passes str.isdigit() and then fails int(): every number a view reads, all at once.
SUPERSCRIPT = "%C2%B2"
SUPERSCRIPT_QUERY = "?" + "&".join(
    f"{name}={SUPERSCRIPT}"
    for name in ("page", "n", "k", "a", "b", "step", "vs", "position", "number", "set")
)
FORM_BODY = {
    "name": "n" * 5000,
    "description": "d" * 50_000,
    "visibility": "private",
    "draft": DEEP,
    "text": "deck:\n" + HUGE + " BS-012\n" + "60 BS-013\n" * 600,
    "deck": HUGE,
    "deck_a": HUGE,
    "deck_b": WIDE,
    "runs": HUGE,
    "seed": HUGE,
    "kind": "pk",
    "base_version": HUGE,
    "action": DEEP[:5000],
    "username": "u" * 5000,
    "password": "p",
    "log": DEEP,
    "effects": DEEP,
    "quantity": "²",
    "for_trade": "²",
    "wanted": "²",
    "delta": "²",
    "revision": "²",
    "qty-BS-001": "²",
}
FORM_NUL = {"name": "a\x00b", "q": "\x00", "draft": '{"deck": {"BS-\x00": 1}}'}
JSON_BODIES = {
    "deep": DEEP,
    "huge-int": (
        '{"name": "x", "kind": "pk", "runs": 1' + "0" * 5000 + ', "seed": 1' + "0" * 5000 + ","
        ' "deck": [{"card": "BS-012", "quantity": 1' + "0" * 5000 + "}]}"
    ),
    "smallint": '{"name": "x", "deck": ['
    + ",".join(['{"card": "BS-012", "quantity": 60}'] * 551)
    + "]}",
    "nan": '{"name": NaN, "runs": NaN, "seed": Infinity,'
    ' "deck": [{"card": "BS-012", "quantity": NaN}]}',
    "nul": '{"name": "a\\u0000", "deck_a": "\\u0000", "kind": "pk", "runs": 1, "text": "\\u0000"}',
    "wrong-types": '{"name": [], "deck": "x", "bench": 5, "goalkeeper": {}, "runs": "many",'
    ' "kind": [], "variants": "x", "text": 5}',
}
OVERSIZED = "x" * 3_000_000
# POSTs that take no input and act on the deck in their path (copy it, delete it): any POST
# is a valid request there, so rows change; they must still never answer 5xx.
INPUT_FREE_ACTIONS = {"decks/<slug:slug>/copy/", "decks/<slug:slug>/delete/"}
# The hostile form body also carries `visibility: private`, a valid value: the collection's
# sharing setting is rightly saved from it.
INPUT_FREE_ACTIONS |= {"collection/settings/"}
# The health check answers 503 by design when a dependency is down (no beat runs in tests).
HEALTH_ROUTE = "/api/health/"


def _patterns(patterns, prefix=""):
    for pattern in patterns:
        route = str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            if route.startswith("admin"):
                continue
            yield from _patterns(pattern.url_patterns, prefix + route)
        elif isinstance(pattern, URLPattern):
            if "(?P<format>" in route or "<drf_format_suffix" in route:
                continue  # the same views again, with a format suffix
            yield prefix + route


def concrete(route: str, value: str) -> str:
    """Return a path for a route (path() or regex syntax) with every parameter set to value."""
    path = re.sub(r"<(?:\w+:)?\w+>", value, route)
    path = re.sub(r"\(\?P<\w+>[^)]*\)", value, path)
    path = path.replace("^", "").replace("$", "").replace("\\", "").replace("/?", "/")
    return "/" + path


ROUTES = sorted(set(_patterns(get_resolver().url_patterns)))


def _row_counts() -> dict[str, int]:
    labels = {"catalog", "decks", "play", "auth", "authtoken"}
    return {
        model._meta.label: model.objects.count()
        for model in apps.get_models()
        if model._meta.app_label in labels
    }


@pytest.fixture(autouse=True)
def no_throttles(monkeypatch):
    """Let every request reach its view: the write and simulation rates are not under test."""
    for scope in list(SimpleRateThrottle.THROTTLE_RATES):
        monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, scope, "1000000/minute")


def _check(response, what: str, failures: list[str]) -> None:
    if response.status_code == 503 and what.startswith(f"GET {HEALTH_ROUTE} "):
        return
    if response.status_code >= 500:
        failures.append(f"{what} -> {response.status_code}")


@pytest.mark.parametrize("route", ROUTES)
def test_no_hostile_request_is_a_server_error_or_a_write(route, alice):
    sample = Deck.objects.filter(is_sample=True).order_by("slug").first()
    deck = deck_create(owner=alice, name="Target", content=deck_content(sample))
    # Her collection's settings row exists, as after her first visit: a first visit creates it
    # (whatever the query), which is not a write of hostile input.
    Collection.objects.get_or_create(owner=alice)
    anon, signed_in = Client(raise_request_exception=False), Client(raise_request_exception=False)
    signed_in.force_login(alice)
    before = _row_counts()
    failures: list[str] = []
    values = [NUL, HUGE, WIDE, deck.slug]
    for value in values:
        path = concrete(route, value)
        for name, client in (("anon", anon), ("alice", signed_in)):
            _check(client.get(path + HOSTILE_QUERY), f"GET {path[:60]} as {name}", failures)
    path = concrete(route, deck.slug)
    for name, client in (("anon", anon), ("alice", signed_in)):
        _check(client.get(path + SUPERSCRIPT_QUERY), f"GET {path} with ² as {name}", failures)
        _check(client.post(path, FORM_BODY), f"POST form {path} as {name}", failures)
        _check(client.post(path, FORM_NUL), f"POST NUL form {path} as {name}", failures)
        for kind, body in JSON_BODIES.items():
            response = client.post(path, body, content_type="application/json")
            _check(response, f"POST {kind} JSON {path} as {name}", failures)
        response = client.post(path, OVERSIZED, content_type="application/x-www-form-urlencoded")
        _check(response, f"POST oversized {path} as {name}", failures)
    if route.startswith("api/"):
        for method in ("put", "patch", "delete"):
            for kind, body in JSON_BODIES.items():
                response = getattr(signed_in, method)(path, body, content_type="application/json")
                _check(response, f"{method.upper()} {kind} JSON {path}", failures)
            response = getattr(signed_in, method)(
                path, "{" + OVERSIZED + "}", content_type="application/json"
            )
            _check(response, f"{method.upper()} oversized {path}", failures)
    after = _row_counts()
    changed = {
        label: (before[label], after[label]) for label in before if before[label] != after[label]
    }
    assert not failures, failures
    if route not in INPUT_FREE_ACTIONS:
        assert not changed, f"rows written: {changed}"


@pytest.mark.parametrize(
    "path",
    ["/simulations/new/?deck={deck}", "/play/", "/decks/import/", "/replays/upload/", "signup"],
)
@pytest.mark.parametrize("body", ["", DEEP], ids=["empty", "unparsed"])
def test_a_form_post_whose_body_gives_no_fields_is_a_400_not_the_blank_form(path, body, alice):
    # A POST is bound even when its body parsed to nothing: the page names the missing fields
    # with a 400 instead of answering 200 with the form as a GET would show it.
    client = Client()
    if path == "signup":
        path = "/accounts/signup/"
    else:
        client.force_login(alice)
    sample = Deck.objects.filter(is_sample=True).order_by("slug").first()
    before = _row_counts()
    response = client.post(path.format(deck=sample.slug), body, content_type="text/plain")
    assert response.status_code == 400, response.content[:300]
    assert _row_counts() == before


def test_the_walk_covers_the_api_and_the_pages():
    for expected in (
        "api/^decks/$",
        "decks/<slug:slug>/edit/",
        "replays/upload/",
        "logs/<str:token>.json",
    ):
        assert expected in ROUTES
    assert len(ROUTES) > 50


# ----- management commands ------------------------------------------------------------------
# Every project command that takes user arguments, with a valid set of them; the walk below
# replaces one argument at a time with hostile values. A new command must be added here.
LONG = "x" * 5000
NUMBER_VALUES = [HUGE, WIDE, "-1", "nan", "1e9", "0x10", "\x00", ""]
COMMANDS_WITHOUT_ARGUMENTS = {"load_catalog"}


@pytest.fixture
def command_files(tmp_path):
    sample = Deck.objects.filter(is_sample=True).order_by("slug").first()
    from decks.formats.export import deck_as_text

    text = deck_as_text(sample)
    files = {"good": tmp_path / "good.txt", "folder": tmp_path / "folder"}
    files["good"].write_text(text, encoding="utf-8")
    files["folder"].mkdir()
    hostile = {
        "nul-name": "name: a\x00b\n" + text.split("\n", 1)[1],
        "huge-quantity": text.replace("deck:\n", f"deck:\n{HUGE} BS-012\n", 1),
        "repeated": text.replace("deck:\n", "deck:\n" + "60 BS-012\n" * 551, 1),
        "unknown-id": text.replace("deck:\n", "deck:\n1 ZZ-\u0430\u0431\n", 1),
    }
    for name, body in hostile.items():
        files[name] = tmp_path / f"{name}.txt"
        files[name].write_text(body, encoding="utf-8")
    files["binary"] = tmp_path / "binary.txt"
    files["binary"].write_bytes(b"\xff\xfe\x00\x00garbage")
    cards = {
        "deep.json": "[" * 100_000,
        "huge.json": '{"cards": [{"id": "BS-900", "shoot": ' + HUGE + "}]}",
        "nan.json": '{"cards": [{"id": "BS-900", "shoot": NaN}]}',
        "nul.json": '{"cards": [{"id": "BS-900", "name": "a\\u0000b"}]}',
        "huge.csv": "id,set,number,name,kind,shoot\nBS-900,BS,900,X,player," + HUGE + "\n",
    }
    for name, body in cards.items():
        files[name] = tmp_path / name
        files[name].write_text(body, encoding="utf-8")
    files["out"] = tmp_path / "out" / "written.json"
    files["out"].parent.mkdir()
    return files


def command_cases(files) -> dict[str, tuple[list[str], dict[str, list[str]]]]:
    """Return {command: (valid arguments, {argument: hostile values})}."""
    good = str(files["good"])
    decks = [
        "\x00",
        "slug\x00",
        LONG,
        "no-such-deck",
        WIDE,
        str(files["folder"]),
        str(files["binary"]),
        str(files["nul-name"]),
        str(files["huge-quantity"]),
        str(files["repeated"]),
        str(files["unknown-id"]),
        str(files["folder"] / "missing.txt"),
    ]
    out = str(files["out"])
    paths = ["\x00", out + "\x00", LONG, str(files["folder"]), "/proc/no/such/folder/x"]
    cards = [str(files[n]) for n in ("deep.json", "huge.json", "nan.json", "nul.json")]
    cards += [str(files["huge.csv"]), str(files["folder"]), good, "\x00", LONG, "missing.json"]
    return {
        "play_match": (
            ["--deck-a", good, "--deck-b", good, "--seed", "1", "--log", out, "--quiet"],
            {
                "--deck-a": decks,
                "--deck-b": decks,
                "--seed": NUMBER_VALUES,
                "--policy-a": ["\x00", LONG, "evil"],
                "--empty-timing": ["\x00", "never"],
                "--log": paths,
            },
        ),
        "pk_odds": (
            ["--deck-a", good, "--deck-b", good, "--simulate", "10", "--seed", "1"],
            {
                "--deck-a": decks,
                "--deck-b": decks,
                "--simulate": NUMBER_VALUES,
                "--seed": NUMBER_VALUES,
            },
        ),
        "import_cards": (
            [str(files["nul.json"]), "--source", "tests"],
            {"": cards, "--source": ["\x00", LONG]},
        ),
        "import_open_data": (
            [str(files["nul.json"]), "--as", "nobody", "--instance", "tests"],
            {
                "": [*cards, str(files["binary"]), str(files["good"])],
                "--as": ["\x00", LONG],
                "--instance": ["\x00", LONG],
                "--note": ["\x00", LONG],
            },
        ),
        "export_cards": (
            ["--output", out, "--format", "json"],
            {
                "--output": paths,
                "--format": ["\x00", "xml"],
                "--open-data": ["\x00", LONG, str(files["good"]), "/proc/no/such/folder/x"],
            },
        ),
        "backup": (
            [str(files["folder"] / "backup.tar.gz")],
            {"": ["\x00", LONG, "/proc/no/such/folder/x.tar.gz", str(files["good"])]},
        ),
        "restore": (
            [str(files["folder"] / "missing.tar.gz"), "--yes"],
            {
                "": [
                    "\x00",
                    LONG,
                    str(files["folder"]),
                    str(files["binary"]),
                    str(files["deep.json"]),
                    str(files["folder"] / "missing.tar.gz"),
                ]
            },
        ),
        "scan_orphans": (["--dry-run", "--min-age", "60"], {"--min-age": NUMBER_VALUES}),
        "reconcile_simulations": (["--stall-seconds", "60"], {"--stall-seconds": NUMBER_VALUES}),
        "runlab": (
            ["--no-worker", "--host", "127.0.0.1", "--port", "8000"],
            {"--host": ["\x00", LONG], "--port": [*NUMBER_VALUES, "70000"]},
        ),
        "runstack": (
            ["--host", "127.0.0.1", "--port", "8000", "--web-workers", "2"],
            {
                "--host": ["\x00", LONG],
                "--port": [*NUMBER_VALUES, "70000"],
                "--web-workers": [*NUMBER_VALUES, "100000"],
                "--chunk-workers": NUMBER_VALUES,
                "--stop-timeout": [*NUMBER_VALUES, "inf", "-inf"],
            },
        ),
    }


def with_value(arguments: list[str], option: str, value: str) -> list[str]:
    """Return the arguments with one option (or, for "", the first positional) set to value."""
    arguments = list(arguments)
    if option == "":
        arguments[0] = value
    elif option in arguments:
        arguments[arguments.index(option) + 1] = value
    else:
        arguments += [option, value]
    return arguments


def test_every_project_command_with_arguments_is_walked(command_files):
    from django.core.management import get_commands

    ours = {name for name, app in get_commands().items() if app in {"catalog", "decks", "play"}}
    assert ours - COMMANDS_WITHOUT_ARGUMENTS == set(command_cases(command_files))


@pytest.mark.parametrize(
    "command",
    ["play_match", "pk_odds", "import_cards", "export_cards", "reconcile_simulations", "runlab"]
    + ["runstack", "backup", "restore", "scan_orphans", "import_open_data"],
)
def test_hostile_command_arguments_are_one_clear_error_and_write_nothing(command, command_files):
    from django.core.management import CommandError, call_command

    valid, hostile = command_cases(command_files)[command]
    before = _row_counts()
    failures = []
    for option, values in hostile.items():
        for value in values:
            arguments = with_value(valid, option, value)
            shown = f"{command} {option or 'file'}={value[:40]!r}"
            try:
                call_command(command, *arguments, stdout=open(os.devnull, "w"))  # noqa: SIM115
            except CommandError as exc:
                message = str(exc)
                if "\n" in message.strip() or not message or len(message) > 400:
                    failures.append(f"{shown}: unclear message {message[:100]!r}")
            except BaseException as exc:  # noqa: BLE001 - anything else is the bug under test
                failures.append(f"{shown}: {type(exc).__name__}: {str(exc)[:120]}")
            else:
                failures.append(f"{shown}: accepted")
            if command_files["out"].exists():
                failures.append(f"{shown}: wrote {command_files['out']}")
                command_files["out"].unlink()
    assert not failures, failures
    assert _row_counts() == before


def test_a_hostile_command_line_exits_non_zero_with_one_line_and_no_traceback(command_files):
    """From a shell (each refused before the command reads the database)."""
    good = str(command_files["good"])
    for arguments in (
        ["play_match", "--deck-a", good, "--deck-b", good, "--seed", HUGE],
        ["pk_odds", "--deck-a", good, "--deck-b", good, "--simulate", WIDE],
        ["reconcile_simulations", "--stall-seconds", "-1"],
        ["import_cards", str(command_files["deep.json"])],
    ):
        result = subprocess.run(
            [sys.executable, "manage.py", *arguments],
            cwd=Path(__file__).resolve().parents[1],
            capture_output=True,
            text=True,
            timeout=120,
        )
        # 1 for a CommandError, 2 for an argparse error (after the usage line)
        assert result.returncode in (1, 2), (arguments[0], result.stderr[-500:])
        assert "Traceback" not in result.stderr, result.stderr[-2000:]
        last = result.stderr.strip().splitlines()[-1]
        assert "rror" in last and len(last) < 400, last
