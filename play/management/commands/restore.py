"""`manage.py restore ARCHIVE [--yes]`: put back what `manage.py backup` wrote.

It replaces the whole database and MEDIA_ROOT, so it asks for --yes when the database holds
anything. Stop the app (every host's web, worker and beat) first. After it, run `make migrate`
when the archive is older than the code.
"""

from pathlib import Path

from django.core.management.base import CommandError

from cardsite.web.command_input import CheckedCommand
from play.management.backups import (
    BackupError,
    backup_restore,
    database_holds_data,
    read_manifest,
    restore_check,
)


class Command(CheckedCommand):
    help = "Replace the database and MEDIA_ROOT with a backup archive's (manage.py backup)."

    def add_arguments(self, parser):
        parser.add_argument("archive", help="a file written by manage.py backup")
        parser.add_argument(
            "--yes",
            action="store_true",
            help="replace a database that holds data (everything in it is lost)",
        )

    def handle(self, *args, **options):
        archive = Path(options["archive"])
        try:
            manifest = read_manifest(archive)
            restore_check(manifest)
            held = database_holds_data()
            if held and not options["yes"]:
                what = ", ".join(f"{name} {n:,}" for name, n in held.items())
                raise CommandError(
                    f"The database holds data ({what}); the restore would replace all of it "
                    "and MEDIA_ROOT. Stop the app, then run again with --yes."
                )
            report = backup_restore(archive)
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        except OSError as exc:  # a folder it may not write, a full disk
            raise CommandError(f"The restore failed: {exc}") from None
        counted = ", ".join(f"{name} {n:,}" for name, n in manifest["counts"].items())
        self.stdout.write(f"Restored {archive} (made {manifest['created_at']}): {counted}")
        if manifest["media"].get("included"):
            self.stdout.write(f"  MEDIA_ROOT replaced: {report.media_files:,} files")
        else:
            self.stdout.write("  The archive holds no media files; MEDIA_ROOT was left alone.")
        if report.missing_migrations:
            self.stdout.write(
                f"The backup is older than this code ({len(report.missing_migrations)} "
                "migrations to apply): run `make migrate` (manage.py migrate) before starting."
            )
        else:
            self.stdout.write("Its migrations match this code: no migration to run.")
