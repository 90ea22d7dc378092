from pathlib import Path

from django.core.management.base import CommandError

from cardsite.web.command_input import CheckedCommand
from catalog.importer import ImportFileError, ImportRejected, import_rows, read_file


class Command(CheckedCommand):
    help = (
        "Import cards from a CSV or JSON file (columns in README.md). Every row is checked "
        "first; all rows are applied in one transaction or none."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="path to a .csv or .json file")
        parser.add_argument(
            "--replace-sample",
            action="store_true",
            help=(
                "remove the sample cards of every set the file covers that no deck holds "
                "(cards in the file replace their sample in place)"
            ),
        )
        parser.add_argument(
            "--source",
            default="",
            help='where the cards come from, recorded in each revision (default: "file <name>")',
        )

    def handle(self, *args, **options):
        try:
            rows = read_file(options["file"])
            source = options["source"].strip() or f"file {Path(options['file']).name}"
            report = import_rows(
                rows, replace_sample=options["replace_sample"], source=source[:200]
            )
        except ImportFileError as exc:
            raise CommandError(str(exc)) from None
        except ImportRejected as exc:
            for problem in exc.problems:
                self.stderr.write(str(problem))
            raise CommandError(
                f"{len(exc.problems)} problem(s) found; nothing was imported."
            ) from None
        self.stdout.write(f"Imported {options['file']}: {report}.")
