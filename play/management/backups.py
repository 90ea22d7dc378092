"""Backups of a deployment: the database and the uploaded files in one archive, and back.

An archive is a gzipped tar file holding:
- `manifest.json`: when, from which commit, the database vendor, the applied migrations and
  the counts of users, cards, decks, collections, proposals and scans;
- `database.dump` (PostgreSQL: `pg_dump -Fc`, a consistent snapshot taken while the app runs)
  or `database.sqlite3` (SQLite: the online backup API);
- `media/`: a copy of MEDIA_ROOT (card scans), unless the scans live in S3.

A restore is whole or nothing where it can be: the archive is unpacked beside MEDIA_ROOT
first, the database is replaced in one transaction (PostgreSQL: `pg_restore` turned into SQL
and run by `psql --single-transaction`; SQLite: the backup API, one write transaction), and
only then the unpacked files are renamed into MEDIA_ROOT's place. Every expected failure is a
`BackupError` whose message says what to do.
"""

from __future__ import annotations

import datetime
import json
import os
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader

from catalog.models import Card, CardProposal, CardScan
from decks.models import Collection, Deck

FORMAT = 1
MANIFEST = "manifest.json"
MEDIA = "media"
DUMP_NAMES = {"postgresql": "database.dump", "sqlite": "database.sqlite3"}
SUFFIX = ".tar.gz"


class BackupError(Exception):
    """A backup or restore that cannot go on; the message tells the operator what to do."""


@dataclass(frozen=True)
class RestoreReport:
    manifest: dict
    media_files: int
    missing_migrations: list[str]  # in the code, not applied in the restored database


# What the database holds ------------------------------------------------------------------


def counts() -> dict[str, int]:
    """Return how many rows of the things an operator cares about the database holds."""
    return {
        "users": get_user_model().objects.count(),
        "cards": Card.objects.count(),
        "decks": Deck.objects.count(),
        "collections": Collection.objects.count(),
        "proposals": CardProposal.objects.count(),
        "scans": CardScan.objects.count(),
    }


def applied_migrations(alias: str = "default") -> list[str]:
    """Return the migrations recorded as applied in the database, as `app.name`, sorted."""
    loader = MigrationLoader(connections[alias], ignore_no_migrations=True)
    return sorted(f"{app}.{name}" for app, name in loader.applied_migrations)


def code_migrations() -> set[str]:
    """Return every migration this checkout holds or squashes, as `app.name`."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    known = set()
    for (app, name), migration in loader.disk_migrations.items():
        known.add(f"{app}.{name}")
        # A database migrated before a squash records the replaced names.
        known.update(f"{r_app}.{r_name}" for r_app, r_name in migration.replaces or ())
    return known


def unapplied_migrations() -> list[str]:
    """Return the migrations `manage.py migrate` would apply to the configured database."""
    executor = MigrationExecutor(connections["default"])
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return [f"{migration.app_label}.{migration.name}" for migration, _ in plan]


def latest_per_app(names: list[str]) -> dict[str, str]:
    """Return each app's last migration name among `names` (migration names sort by number)."""
    latest: dict[str, str] = {}
    for name in sorted(names):
        app, _, migration = name.partition(".")
        latest[app] = migration
    return latest


def database_holds_data() -> dict[str, int]:
    """Return the non-zero counts of the configured database (empty: nothing to lose)."""
    connection = connections["default"]
    try:
        tables = connection.introspection.table_names()
    except DatabaseError as exc:
        raise BackupError(f"The database cannot be reached: {_first_line(exc)}") from None
    if not tables:  # never migrated
        return {}
    try:
        found = counts()
    except DatabaseError:  # tables, but not the ones counted: a stranger's, or half migrated
        connection.close()
        return {"tables": len(tables)}
    return {name: n for name, n in found.items() if n}


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def git_commit() -> str | None:
    """Return the commit of the checkout, or None where git or the repository is missing."""
    try:
        result = subprocess.run(
            ["git", "-C", str(settings.BASE_DIR), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return result.stdout.strip() if result.returncode == 0 else None


# The database, by vendor --------------------------------------------------------------------


def _vendor() -> str:
    vendor = connections["default"].vendor
    if vendor not in DUMP_NAMES:
        raise BackupError(f"Backups support PostgreSQL and SQLite, not {vendor}.")
    return vendor


def _program(name: str) -> str:
    path = shutil.which(name)
    if not path:
        raise BackupError(
            f"{name} was not found on PATH: install the PostgreSQL client programs "
            "(Debian: apt-get install postgresql-client) of the server's major version or newer."
        )
    return path


def _postgres_env() -> dict[str, str]:
    """Return the environment that points libpq programs at the configured database."""
    conf = connections["default"].settings_dict
    options = conf.get("OPTIONS") or {}
    env = dict(os.environ)
    for variable, value in (
        ("PGHOST", conf.get("HOST")),
        ("PGPORT", conf.get("PORT")),
        ("PGUSER", conf.get("USER")),
        ("PGPASSWORD", conf.get("PASSWORD")),
        ("PGDATABASE", conf.get("NAME")),
        ("PGSSLMODE", options.get("sslmode")),
        ("PGSSLROOTCERT", options.get("sslrootcert")),
        ("PGSSLCERT", options.get("sslcert")),
        ("PGSSLKEY", options.get("sslkey")),
        ("PGCONNECT_TIMEOUT", options.get("connect_timeout")),
    ):
        if value not in (None, ""):
            env[variable] = str(value)
    return env


def _run(command: list[str], *, what: str, env: dict[str, str] | None = None) -> None:
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        lines = (result.stderr or result.stdout).strip().splitlines()
        errors = [line for line in lines if "ERROR" in line or "error:" in line.lower()]
        detail = " / ".join((errors or lines)[-3:]) or "no message"
        if "lock timeout" in detail:
            detail += " (the app is still running: stop it on every host first)"
        raise BackupError(f"{what} failed: {detail}")


def _sqlite_path() -> Path:
    name = str(connections["default"].settings_dict["NAME"])
    if name in ("", ":memory:") or name.startswith("file::memory:"):
        raise BackupError("The database is in memory: there is nothing on disk to back up.")
    return Path(name)


def _dump_database(target: Path) -> None:
    if _vendor() == "postgresql":
        _run(
            [_program("pg_dump"), "--format=custom", "--file", str(target)],
            what="pg_dump",
            env=_postgres_env(),
        )
        return
    source_path = _sqlite_path()
    if not source_path.exists():
        raise BackupError(f"The SQLite database {source_path} does not exist.")
    source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True)
    copy = sqlite3.connect(target)
    try:
        source.backup(copy)  # a consistent copy, even while the app writes
    except sqlite3.Error as exc:
        raise BackupError(f"Copying the SQLite database failed: {exc}") from None
    finally:
        copy.close()
        source.close()


# Restoring PostgreSQL: every table of the schema is dropped first, so tables that newer
# migrations made and the dump does not hold cannot stay behind (`make migrate` would trip on
# them), and the drop and the whole dump run in one transaction: a failure changes nothing.
# A transaction of a running app holding a table stops it after 30 s instead of for ever.
_DROP_TABLES = """\
\\set ON_ERROR_STOP on
SET lock_timeout = '30s';
SET client_min_messages = warning;
DO $$ DECLARE t record; BEGIN
  FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema() LOOP
    EXECUTE format('DROP TABLE IF EXISTS %I CASCADE', t.tablename);
  END LOOP;
END $$;
"""


def _restore_database(dump: Path, workdir: Path) -> None:
    connections["default"].close()
    if _vendor() == "postgresql":
        env = _postgres_env()
        script = workdir / "restore.sql"
        script.write_text(_DROP_TABLES, encoding="utf-8")
        sql = workdir / "dump.sql"
        # The dump as SQL first: a damaged archive fails here, before the database is touched.
        _run(
            [
                _program("pg_restore"),
                "--no-owner",
                "--no-privileges",
                "--clean",
                "--if-exists",
                "--file",
                str(sql),
                str(dump),
            ],
            what="pg_restore (reading the dump)",
        )
        _run(
            [
                _program("psql"),
                "--no-psqlrc",
                "--quiet",
                "--single-transaction",
                "--set",
                "ON_ERROR_STOP=1",
                "--file",
                str(script),
                "--file",
                str(sql),
            ],
            what="psql (restoring the dump; the database is unchanged)",
            env=env,
        )
        return
    target_path = _sqlite_path()
    target_path.parent.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(f"file:{dump}?mode=ro", uri=True)
    target = sqlite3.connect(target_path, timeout=20)
    try:
        source.backup(target)  # one write transaction on the target: all pages or none
    except sqlite3.Error as exc:
        raise BackupError(f"Restoring the SQLite database failed: {exc}") from None
    finally:
        target.close()
        source.close()


# Media ------------------------------------------------------------------------------------


def _media_on_disk() -> bool:
    return settings.SCAN_STORAGE == "filesystem"


def _media_summary(root: Path) -> dict:
    files = [p for p in root.rglob("*") if p.is_file()] if root.is_dir() else []
    return {"included": True, "files": len(files), "bytes": sum(p.stat().st_size for p in files)}


# Backup -----------------------------------------------------------------------------------


def archive_path(destination: Path, now: datetime.datetime) -> Path:
    """Return the archive's path: a new file in `destination` if it is a folder, else itself."""
    if destination.is_dir():
        stem = f"cardlab-{now:%Y%m%d-%H%M%S}"
        path, n = destination / f"{stem}{SUFFIX}", 1
        while path.exists():  # two backups within one second
            n += 1
            path = destination / f"{stem}-{n}{SUFFIX}"
        return path
    if destination.exists():
        raise BackupError(f"{destination} exists already; name a new file or a folder.")
    if not destination.parent.is_dir():
        raise BackupError(f"The folder {destination.parent} does not exist.")
    return destination


def backup_create(destination: Path) -> tuple[Path, dict]:
    """Write one archive of the database and MEDIA_ROOT; return its path and manifest."""
    vendor = _vendor()
    now = datetime.datetime.now(datetime.UTC)
    target = archive_path(destination, now)
    media_root = Path(settings.MEDIA_ROOT)
    if _media_on_disk() and target.resolve().is_relative_to(media_root.resolve()):
        raise BackupError(f"Write the backup outside MEDIA_ROOT ({media_root}): it copies that.")
    try:
        manifest = {
            "format": FORMAT,
            "created_at": now.isoformat(timespec="seconds"),
            "commit": git_commit(),
            "database": {"vendor": vendor, "file": DUMP_NAMES[vendor]},
            "migrations": applied_migrations(),
            "counts": counts(),
        }
    except DatabaseError as exc:
        raise BackupError(f"The database cannot be read: {_first_line(exc)}") from None
    manifest["latest_migrations"] = latest_per_app(manifest["migrations"])
    with tempfile.TemporaryDirectory(prefix=".cardlab-backup-", dir=target.parent) as work:
        work_dir = Path(work)
        dump = work_dir / DUMP_NAMES[vendor]
        _dump_database(dump)
        if _media_on_disk():
            manifest["media"] = _media_summary(media_root)
        else:
            manifest["media"] = {"included": False, "storage": settings.SCAN_STORAGE}
        (work_dir / MANIFEST).write_text(json.dumps(manifest, indent=2), encoding="utf-8")
        # Written under a temporary name and renamed at the end: a file with the archive's
        # name is always a whole archive.
        partial = work_dir / "archive.partial"
        with tarfile.open(partial, "w:gz") as tar:
            tar.add(work_dir / MANIFEST, arcname=MANIFEST)
            tar.add(dump, arcname=dump.name)
            if manifest["media"]["included"] and media_root.is_dir():
                tar.add(media_root, arcname=MEDIA)
        # It holds password hashes, sessions and API tokens: for the owner's eyes only.
        partial.chmod(0o600)
        os.replace(partial, target)
    return target, manifest


# Restore ----------------------------------------------------------------------------------


def read_manifest(archive: Path) -> dict:
    """Return the archive's manifest, refusing a file that is not one of our archives."""
    if not archive.is_file():
        raise BackupError(f"{archive} is not a file.")
    problem = "it holds no manifest of ours"
    try:
        with tarfile.open(archive, "r:*") as tar:
            member = tar.extractfile(MANIFEST)
            manifest = json.loads(member.read().decode("utf-8")) if member else None
    except KeyError:
        manifest = None
    except tarfile.ReadError:
        manifest, problem = None, "it is not a tar archive"
    except (tarfile.TarError, OSError, ValueError, EOFError) as exc:
        manifest, problem = None, f"it cannot be read: {_first_line(exc)}"
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupError(f"{archive} is not a backup made by `manage.py backup` ({problem}).")
    return manifest


def restore_check(manifest: dict) -> None:
    """Refuse an archive this code and database cannot take, saying why."""
    vendor = _vendor()
    theirs = manifest["database"]["vendor"]
    if theirs != vendor:
        raise BackupError(
            f"The archive holds a {theirs} database and this deployment uses {vendor}: "
            "restore it where DATABASE_URL names the same kind of database."
        )
    known = code_migrations()
    unknown = sorted(set(manifest["migrations"]) - known)
    if unknown:
        commit = manifest.get("commit") or "the one that made it"
        raise BackupError(
            f"The backup was made by newer code: its database has migrations this checkout "
            f"does not know ({', '.join(unknown[:5])}). Check out its commit ({commit}) first."
        )


def _unpack(archive: Path, into: Path) -> None:
    try:
        with tarfile.open(archive, "r:*") as tar:
            tar.extractall(into, filter="data")  # no absolute paths, links out or devices
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise BackupError(f"{archive} cannot be unpacked ({exc}); nothing was changed.") from None


def backup_restore(archive: Path) -> RestoreReport:
    """Replace the database and MEDIA_ROOT with the archive's; all of it, or nothing."""
    manifest = read_manifest(archive)
    restore_check(manifest)
    media_root = Path(settings.MEDIA_ROOT)
    with_media = bool(manifest["media"].get("included")) and _media_on_disk()
    media_root.parent.mkdir(parents=True, exist_ok=True)
    # Unpacked beside MEDIA_ROOT, on the same file system, so the swap is two renames.
    with tempfile.TemporaryDirectory(prefix=".cardlab-restore-", dir=media_root.parent) as work:
        work_dir = Path(work)
        _unpack(archive, work_dir)
        dump = work_dir / manifest["database"]["file"]
        if not dump.is_file():
            raise BackupError(f"{archive} holds no database dump; nothing was changed.")
        staged = work_dir / MEDIA
        if with_media:
            staged.mkdir(exist_ok=True)
        _restore_database(dump, work_dir)
        files = 0
        if with_media:
            files = sum(1 for p in staged.rglob("*") if p.is_file())
            old = work_dir / "media-before-restore"
            moved = False
            try:
                if media_root.exists():
                    os.replace(media_root, old)
                    moved = True
                os.replace(staged, media_root)
            except OSError as exc:
                if moved:
                    os.replace(old, media_root)
                kept = media_root.parent / f"{media_root.name}-restored-{os.getpid()}"
                os.replace(staged, kept)
                raise BackupError(
                    f"The database is restored, but MEDIA_ROOT could not be replaced ({exc}): "
                    f"the archive's files are in {kept}; move them to {media_root}."
                ) from None
    connections["default"].close()
    return RestoreReport(
        manifest=manifest, media_files=files, missing_migrations=unapplied_migrations()
    )
