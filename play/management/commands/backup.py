"""`manage.py backup PATH`: the database and MEDIA_ROOT in one archive (docs/deploy.md).

PATH is a folder (the archive gets a dated name inside it) or the name of a new file. The
archive's layout and how a restore uses it: play/management/backups.py.
"""

from pathlib import Path

from django.core.management.base import CommandError

from cardsite.web.command_input import CheckedCommand
from play.management.backups import BackupError, backup_create


class Command(CheckedCommand):
    help = "Write the database (pg_dump -Fc or SQLite's backup) and MEDIA_ROOT to one archive."

    def add_arguments(self, parser):
        parser.add_argument("path", help="a folder for a dated archive, or a new .tar.gz file")

    def handle(self, *args, **options):
        try:
            path, manifest = backup_create(Path(options["path"]))
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        except OSError as exc:  # a folder it may not write, a full disk
            raise CommandError(f"The backup failed: {exc}") from None
        counted = ", ".join(f"{name} {n:,}" for name, n in manifest["counts"].items())
        media = manifest["media"]
        if media["included"]:
            files = f"{media['files']:,} media files ({media['bytes']:,} bytes)"
        else:
            files = f"no media files (the scans are in {media['storage']}: back that up apart)"
        self.stdout.write(f"Backup written: {path}")
        self.stdout.write(f"  {manifest['database']['vendor']} database: {counted}; {files}")
