from cardsite.web.command_input import CheckedCommand, whole_number
from play.simulations.services import batches_reconcile


class Command(CheckedCommand):
    help = "Re-queue unfinished chunks of simulation batches that stalled (a worker died)."

    def add_arguments(self, parser):
        parser.add_argument("--stall-seconds", type=whole_number(0, 365 * 24 * 3600), default=None)

    def handle(self, *args, **options):
        count = batches_reconcile(stall_seconds=options["stall_seconds"])
        self.stdout.write(f"Re-queued {count} chunk(s).")
