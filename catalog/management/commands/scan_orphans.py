"""Find and remove what the scan storage and the scan rows disagree on (catalog.scans)."""

from datetime import timedelta

from cardsite.web.command_input import CheckedCommand, whole_number
from catalog.scans import scan_orphans, scan_orphans_delete


class Command(CheckedCommand):
    help = (
        "List scan files with no scan row, scan rows whose files are missing, uploaded files "
        "with no upload row and uploads pending too long (--delete removes them; the pending "
        "uploads end as failed)."
    )

    def add_arguments(self, parser):
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument("--dry-run", action="store_true", help="only list them (the default)")
        mode.add_argument("--delete", action="store_true", help="remove them")
        parser.add_argument(
            "--min-age",
            type=whole_number(0, 10 * 365 * 86400),
            default=3600,
            help="seconds: younger files may belong to an upload in progress (default 3600)",
        )

    def handle(self, *args, **options):
        orphans = scan_orphans(min_age=timedelta(seconds=options["min_age"]))
        for name in orphans.files:
            self.stdout.write(f"file without a scan row: {name}")
        for folder in orphans.folders:
            self.stdout.write(f"empty folder without a scan row: {folder}")
        for scan in orphans.rows:
            self.stdout.write(f"scan row {scan.pk} ({scan.token}) is missing files")
        for name in orphans.uploads:
            self.stdout.write(f"uploaded file without an upload row: {name}")
        for upload in orphans.stale:
            self.stdout.write(
                f"upload {upload.pk} ({upload.token}) pending since "
                f"{upload.created_at:%Y-%m-%d %H:%M} UTC"
            )
        found = (
            len(orphans.files)
            + len(orphans.folders)
            + len(orphans.rows)
            + len(orphans.uploads)
            + len(orphans.stale)
        )
        if options["delete"]:
            scan_orphans_delete(orphans)
            self.stdout.write(
                f"Deleted {len(orphans.files)} files, {len(orphans.folders)} empty folders "
                f"and {len(orphans.rows)} scan rows."
            )
            self.stdout.write(
                f"Deleted {len(orphans.uploads)} uploaded files without a row; "
                f"{len(orphans.stale)} pending uploads ended as failed."
            )
        else:
            self.stdout.write(f"{found} found; nothing deleted (run with --delete to remove them).")
