from django.core.management.base import BaseCommand

from play.simulations.services import batches_reconcile


class Command(BaseCommand):
    help = "Re-queue unfinished chunks of simulation batches that stalled (a worker died)."

    def add_arguments(self, parser):
        parser.add_argument("--stall-seconds", type=int, default=None)

    def handle(self, *args, **options):
        count = batches_reconcile(stall_seconds=options["stall_seconds"])
        self.stdout.write(f"Re-queued {count} chunk(s).")
