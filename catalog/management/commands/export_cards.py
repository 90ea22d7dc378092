import json
import sys
from pathlib import Path

from django.core.management.base import CommandError

from cardsite.web.command_input import CheckedCommand
from catalog import opendata
from catalog.importer import export_csv, export_rows


class Command(CheckedCommand):
    help = (
        "Export every card as JSON (default) or CSV; import_cards reads it back. "
        "--open-data DIR writes the open-data export instead (/data/: index, a file per set, "
        "the schema)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--format", choices=["json", "csv"], default="json")
        parser.add_argument("--output", "-o", help="file to write (default: standard output)")
        parser.add_argument(
            "--open-data", metavar="DIR", help="write the open-data files into this folder"
        )

    def handle(self, *args, **options):
        if options["open_data"]:
            folder = Path(options["open_data"])
            try:
                index = opendata.write_all(folder)
            except OSError as exc:
                raise CommandError(f"{folder}: cannot write the open data there ({exc})") from None
            cards = sum(s["cards"] for s in index["sets"])
            self.stdout.write(
                f"Wrote {len(index['sets'])} sets ({cards} cards) and the index to {folder}."
            )
            return
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
