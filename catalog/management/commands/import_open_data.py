from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from cardsite.web.command_input import CheckedCommand
from catalog.contributions.open_data import import_changeset
from catalog.contributions.services import ProposalError
from catalog.opendata_import import ExportRejected, files_from_path, read_export


class Command(CheckedCommand):
    help = (
        "Read another instance's open-data export (a set's .json, a .zip of /data/, or a folder "
        "with index.json) and record it as ONE changeset for review; nothing is applied until "
        "an editor accepts it. Every card is marked new, same, different or kept."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="a set's .json file, a .zip, or a folder with index.json")
        parser.add_argument(
            "--as",
            dest="username",
            default="",
            help="the editor the changeset is recorded as (default: the only superuser)",
        )
        parser.add_argument(
            "--instance",
            default="",
            help="where the export comes from: the other site's URL or name "
            "(default: the path's name)",
        )
        parser.add_argument("--note", default="", help="a note for the reviewer")

    def handle(self, *args, **options):
        path = Path(options["path"])
        instance = options["instance"].strip() or f"file {path.name}"
        try:
            export = read_export(files_from_path(path))
            user = self._user(options["username"].strip())
            changeset = import_changeset(
                proposer=user, export=export, instance=instance, note=options["note"]
            )
        except ExportRejected as exc:
            for message in exc.messages():
                self.stderr.write(message)
            raise CommandError(
                f"{len(exc.problems)} problem(s) found; nothing was saved."
            ) from None
        except ProposalError as exc:
            raise CommandError("; ".join(str(p) for p in exc.problems)) from None
        counts = export.counts()
        self.stdout.write(
            f"Changeset {changeset.pk} waits for review: {counts['new']} new, "
            f"{counts['different']} different, {counts['same']} the same, "
            f"{counts['kept']} samples kept (a real card here). Nothing was applied."
        )

    def _user(self, username: str):
        users = get_user_model().objects
        if username:
            user = users.filter(username=username).first()
            if user is None:
                raise CommandError(f"--as: no user {username[:40]!r}")
            return user
        superusers = list(users.filter(is_superuser=True, is_active=True)[:2])
        if len(superusers) != 1:
            raise CommandError("name the editor the changeset is recorded as with --as USER")
        return superusers[0]
