"""`manage.py backup` and `manage.py restore` round-trip a whole deployment: the catalogue, the
decks, collections, proposals and the scans' files, on SQLite and on PostgreSQL.

Each test runs the commands as an operator does, in processes of their own, on a deployment of
its own: a fresh SQLite file, or a PostgreSQL database made and dropped here (the suite's server
when the suite runs on PostgreSQL, else 127.0.0.1:5432; skipped when it does not answer or the
PostgreSQL client programs are missing), and a MEDIA_ROOT in a temporary folder.
"""

import datetime
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import urllib.parse
from pathlib import Path

import pytest

from tests.play.workers import ROOT

SUITE_DB = os.environ.get("DATABASE_URL", "")
POSTGRES_PROGRAMS = ("pg_dump", "pg_restore", "psql")

# Each pytest-xdist worker has databases of its own (a suffix with its id).
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")

pytestmark = pytest.mark.slow


def _postgres_admin_url() -> str:
    if SUITE_DB.startswith("postgres"):
        return urllib.parse.urlunsplit(urllib.parse.urlsplit(SUITE_DB)._replace(path="/postgres"))
    return "postgresql://postgres@127.0.0.1:5432/postgres"


def _postgres_problem() -> str | None:
    """Why the PostgreSQL round trip cannot run here, or None."""
    missing = [name for name in POSTGRES_PROGRAMS if not shutil.which(name)]
    if missing:
        return f"{', '.join(missing)} not on PATH"
    try:
        import psycopg

        psycopg.connect(_postgres_admin_url(), connect_timeout=3).close()
    except Exception as exc:  # no server, or not one we may use
        return f"PostgreSQL does not answer at {_postgres_admin_url()}: {exc}"
    return None


def _admin_sql(sql: str) -> None:
    import psycopg

    with psycopg.connect(_postgres_admin_url(), autocommit=True) as conn:
        conn.execute(sql)


class Deployment:
    """One deployment's database and MEDIA_ROOT, and the commands an operator runs on it."""

    def __init__(self, vendor: str, tmp_path: Path, suffix: str = ""):
        self.vendor = vendor
        self.media = tmp_path / "media"
        self.archives = tmp_path / "archives"
        self.archives.mkdir()
        if vendor == "sqlite":
            self.sqlite = tmp_path / "cardlab.sqlite3"
            self.url = f"sqlite:///{self.sqlite}"
        else:
            suite_name = urllib.parse.urlsplit(SUITE_DB).path.lstrip("/")
            base = f"{suite_name}_backup" if SUITE_DB.startswith("postgres") else "ops_backup_test"
            self.name = base + (f"_{XDIST_WORKER}" if XDIST_WORKER else "") + suffix
            parts = urllib.parse.urlsplit(_postgres_admin_url())
            self.url = urllib.parse.urlunsplit(parts._replace(path="/" + self.name))
        self.env = {
            **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")},
            "DATABASE_URL": self.url,
            "MEDIA_ROOT": str(self.media),
            "BROKER_DIR": str(tmp_path / "broker"),
            "DEBUG": "1",
        }

    def create(self) -> None:
        """An empty database, migrated and with the catalogue loaded (make migrate)."""
        if self.vendor == "postgresql":
            _admin_sql(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
            _admin_sql(f'CREATE DATABASE "{self.name}"')
        self.manage("migrate", "--no-input", "-v0")
        self.manage("load_catalog")

    def clone(self, folder: Path) -> "Deployment":
        """A deployment holding a copy of this one's database and files."""
        copy = Deployment(self.vendor, folder)
        if self.vendor == "postgresql":
            _admin_sql(f'DROP DATABASE IF EXISTS "{copy.name}" WITH (FORCE)')
            _admin_sql(f'CREATE DATABASE "{copy.name}" TEMPLATE "{self.name}"')
        else:
            shutil.copyfile(self.sqlite, copy.sqlite)
        shutil.copytree(self.media, copy.media)
        return copy

    def wipe(self) -> None:
        """Lose everything: the database (dropped and made empty again) and MEDIA_ROOT."""
        if self.vendor == "postgresql":
            _admin_sql(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
            _admin_sql(f'CREATE DATABASE "{self.name}"')
        else:
            self.sqlite.unlink()
        shutil.rmtree(self.media, ignore_errors=True)

    def drop(self) -> None:
        if self.vendor == "postgresql":
            _admin_sql(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    def run(self, *args: str, env=None) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=env or self.env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    def manage(self, *args: str) -> str:
        result = self.run(*args)
        assert result.returncode == 0, result.stderr
        return result.stdout

    def call(self, function: str) -> str:
        module = "tests.play.management.backup_deployment"
        return self.manage("shell", "-v0", "-c", f"from {module} import {function}; {function}()")

    def snapshot(self) -> dict:
        return json.loads(self.call("snapshot"))

    def backup(self) -> Path:
        before = set(self.archives.iterdir())
        output = self.manage("backup", str(self.archives))
        (archive,) = set(self.archives.iterdir()) - before
        assert f"Backup written: {archive}" in output
        return archive


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def filled(request, tmp_path_factory):
    """A deployment migrated, with the catalogue loaded and `populate`d, made once per vendor."""
    if request.param == "postgresql":
        problem = _postgres_problem()
        if problem:
            pytest.skip(problem)
    filled = Deployment(request.param, tmp_path_factory.mktemp("filled"), suffix="_template")
    filled.create()
    filled.call("populate")
    yield filled
    filled.drop()


@pytest.fixture
def deployment(filled, tmp_path):
    """A copy of the filled deployment for one test to change."""
    deployment = filled.clone(tmp_path)
    yield deployment
    deployment.drop()


def rows_of(snapshot: dict, model: str) -> list[dict]:
    return [row for row in snapshot["rows"] if row["model"] == model]


def test_a_round_trip_after_losing_everything_gives_back_every_row_and_file(deployment):
    before = deployment.snapshot()
    # What the round trip must carry: a changed catalogue card, decks, a shared collection,
    # proposals and the three sizes of each of their three scans.
    (real,) = [r for r in rows_of(before, "catalog.card") if r["fields"]["name"] == "Real Striker"]
    assert real["fields"]["is_sample"] is False
    assert {r["fields"]["name"] for r in rows_of(before, "decks.deck")} >= {
        "Alice public",
        "Alice private",
    }
    assert rows_of(before, "decks.collection")[0]["fields"]["visibility"] == "link"
    assert len(rows_of(before, "decks.collectionentry")) == 2
    assert len(rows_of(before, "catalog.cardproposal")) == 2
    assert len(rows_of(before, "catalog.cardscan")) == 3
    assert len(before["files"]) == 9

    archive = deployment.backup()
    assert archive.stat().st_mode & 0o777 == 0o600
    with tarfile.open(archive) as tar:
        names = set(tar.getnames())
        manifest = json.load(tar.extractfile("manifest.json"))
    dump = "database.dump" if deployment.vendor == "postgresql" else "database.sqlite3"
    assert {"manifest.json", dump} <= names
    assert {f"media/{name}" for name in before["files"]} <= names
    assert manifest["database"]["vendor"] == deployment.vendor
    assert manifest["counts"]["proposals"] == 2 and manifest["counts"]["scans"] == 3
    assert manifest["counts"]["collections"] == 1
    assert manifest["counts"]["decks"] == len(rows_of(before, "decks.deck"))
    assert "play" in manifest["latest_migrations"]
    assert manifest["media"] == {
        "included": True,
        "files": 9,
        "bytes": sum((deployment.media / name).stat().st_size for name in before["files"]),
    }

    deployment.wipe()
    assert not deployment.media.exists()
    output = deployment.manage("restore", str(archive))  # an empty database needs no --yes

    assert "MEDIA_ROOT replaced: 9 files" in output
    assert "no migration to run" in output
    after = deployment.snapshot()
    assert after["files"] == before["files"]
    assert after["rows"] == before["rows"]
    assert deployment.run("migrate", "--check").returncode == 0
    deployment.call("change")  # new rows take new ids: the sequences came back too


def test_a_restore_over_data_needs_yes_then_replaces_all_of_it(deployment):
    archive = deployment.backup()
    before = deployment.snapshot()
    deployment.call("change")
    changed = deployment.snapshot()
    assert len(changed["files"]) == len(before["files"]) + 3

    refused = deployment.run("restore", str(archive))
    assert refused.returncode != 0
    assert "holds data" in refused.stderr and "--yes" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert deployment.snapshot() == changed  # nothing was touched

    deployment.manage("restore", "--yes", str(archive))
    assert deployment.snapshot() == before  # the new deck, proposal and scan files are gone


def test_a_damaged_dump_changes_neither_the_database_nor_the_files(deployment, tmp_path):
    archive = deployment.backup()
    deployment.call("change")
    changed = deployment.snapshot()
    damaged = tmp_path / "damaged.tar.gz"
    with tarfile.open(archive) as source, tarfile.open(damaged, "w:gz") as target:
        for member in source.getmembers():
            data = source.extractfile(member) if member.isfile() else None
            if member.name.startswith("database."):
                content = data.read()
                content = content[: len(content) // 2]  # cut off half way
                member.size = len(content)
                data = io.BytesIO(content)
            target.addfile(member, data)

    result = deployment.run("restore", "--yes", str(damaged))

    assert result.returncode != 0
    assert result.stderr.startswith("CommandError:") and "Traceback" not in result.stderr
    assert deployment.snapshot() == changed
    assert not list(deployment.media.parent.glob(".cardlab-restore-*"))


def test_an_older_backup_is_restored_and_says_to_run_make_migrate(deployment):
    latest = deployment.manage("showmigrations", "play").split()
    previous = [line for line in latest if line.startswith("00")][-2]
    deployment.manage("migrate", "play", previous, "-v0")
    archive = deployment.backup()
    deployment.manage("migrate", "-v0")  # the code was upgraded since

    output = deployment.manage("restore", "--yes", str(archive))

    assert "older than this code (1 migrations to apply): run `make migrate`" in output
    assert deployment.run("migrate", "--check").returncode != 0
    deployment.manage("migrate", "-v0")  # the migration applies cleanly over the restore
    assert deployment.run("migrate", "--check").returncode == 0


def test_a_backup_from_newer_code_or_another_database_kind_is_refused(deployment, tmp_path):
    archive = deployment.backup()
    with tarfile.open(archive) as tar:
        manifest = json.load(tar.extractfile("manifest.json"))
    cases = {
        "newer": {**manifest, "migrations": manifest["migrations"] + ["play.9999_from_later"]},
        "other": {
            **manifest,
            "database": {"vendor": "postgresql" if deployment.vendor == "sqlite" else "sqlite"},
        },
    }
    messages = {}
    for case, changed in cases.items():
        path = tmp_path / f"{case}.tar.gz"
        (tmp_path / "manifest.json").write_text(json.dumps(changed))
        with tarfile.open(path, "w:gz") as tar:
            tar.add(tmp_path / "manifest.json", arcname="manifest.json")
        result = deployment.run("restore", "--yes", str(path))
        assert result.returncode != 0 and "Traceback" not in result.stderr
        messages[case] = result.stderr
    assert "play.9999_from_later" in messages["newer"] and manifest["commit"] in messages["newer"]
    assert "same kind of database" in messages["other"]


def test_a_missing_client_program_or_a_bad_path_is_one_clear_line(deployment, tmp_path):
    results = {
        "not an archive": deployment.run("restore", str(ROOT / "manage.py")),
        "missing folder": deployment.run("backup", str(tmp_path / "no" / "such.tar.gz")),
        "inside media": deployment.run("backup", str(deployment.media)),
    }
    if deployment.vendor == "postgresql":
        bare = tmp_path / "bin"
        bare.mkdir()
        (bare / "python").symlink_to(sys.executable)
        results["no pg_dump"] = deployment.run(
            "backup", str(tmp_path), env={**deployment.env, "PATH": str(bare)}
        )
        assert "pg_dump was not found on PATH" in results["no pg_dump"].stderr
        parts = urllib.parse.urlsplit(deployment.url)
        closed = {
            **deployment.env,
            "DATABASE_URL": parts._replace(netloc="postgres@127.0.0.1:9").geturl(),
        }
        archive = deployment.backup()
        results["no server (backup)"] = deployment.run("backup", str(tmp_path), env=closed)
        results["no server (restore)"] = deployment.run("restore", str(archive), env=closed)
        for what in ("no server (backup)", "no server (restore)"):
            assert "The database cannot be" in results[what].stderr, results[what].stderr
    for what, result in results.items():
        assert result.returncode == 1, what
        assert result.stderr.startswith("CommandError:") and "Traceback" not in result.stderr
    assert "is not a backup made by `manage.py backup`" in results["not an archive"].stderr
    assert "does not exist" in results["missing folder"].stderr
    assert "outside MEDIA_ROOT" in results["inside media"].stderr
    assert not list(deployment.media.glob("*.tar.gz"))


def test_make_backup_and_make_restore_read_the_units_environment_file(deployment, tmp_path):
    env_file = tmp_path / "cardlab.env"
    settings = {
        "DATABASE_URL": deployment.url,
        "MEDIA_ROOT": str(deployment.media),
        "BROKER_DIR": deployment.env["BROKER_DIR"],
        "SECRET_KEY": "k" + os.urandom(40).hex(),
    }
    env_file.write_text("".join(f"{k}={v}\n" for k, v in settings.items()), encoding="utf-8")
    env = {k: v for k, v in deployment.env.items() if k not in settings and k != "DEBUG"}
    folder = tmp_path / "nightly"

    def make(*args):
        return subprocess.run(
            ["make", "-s", "--no-print-directory", *args, f"ENV_FILE={env_file}"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    made = make("backup", f"BACKUP_DIR={folder}")
    assert made.returncode == 0, made.stderr
    (archive,) = folder.iterdir()
    assert f"{deployment.vendor} database" in made.stdout
    refused = make("restore", f"ARCHIVE={archive}")
    assert refused.returncode != 0 and "--yes" in refused.stderr
    restored = make("restore", f"ARCHIVE={archive}", "YES=1")
    assert restored.returncode == 0, restored.stderr
    assert f"Restored {archive}" in restored.stdout


def test_a_second_backup_within_the_same_second_gets_a_name_of_its_own(tmp_path):
    from play.management.backups import archive_path

    now = datetime.datetime(2026, 1, 1, 3, 15, tzinfo=datetime.UTC)
    first = archive_path(tmp_path, now)
    first.touch()
    second = archive_path(tmp_path, now)
    assert (first.name, second.name) == (
        "cardlab-20260101-031500.tar.gz",
        "cardlab-20260101-031500-2.tar.gz",
    )
