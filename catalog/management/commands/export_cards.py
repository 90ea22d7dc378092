import json
import sys

from django.core.management.base import CommandError

from cardsite.web.command_input import CheckedCommand
from catalog.importer import export_csv, export_rows


class Command(CheckedCommand):
    help = "Export every card as JSON (default) or CSV; import_cards reads it back."

    def add_arguments(self, parser):
        parser.add_argument("--format", choices=["json", "csv"], default="json")
        parser.add_argument("--output", "-o", help="file to write (default: standard output)")

    def handle(self, *args, **options):
        rows = export_rows()
        if options["format"] == "csv":
            text = export_csv(rows)
        else:
            text = json.dumps({"cards": rows}, ensure_ascii=False, indent=1) + "\n"
        if options["output"]:
            try:
                with open(options["output"], "w", encoding="utf-8") as fh:
                    fh.write(text)
            except OSError as exc:
                raise CommandError(f"{options['output']}: cannot write it ({exc})") from None
            self.stdout.write(f"Wrote {len(rows)} cards to {options['output']}.")
        else:
            sys.stdout.write(text)
