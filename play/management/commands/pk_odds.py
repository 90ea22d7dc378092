import random

from django.core.management.base import CommandError

from cardsite.web.command_input import CheckedCommand, whole_number
from play.engine.pk import pk_shootout
from play.simulations.core import exact_pk_probability, wilson_interval
from play.simulations.deck_input import DeckInputError, load_side

MAX_SIMULATED = 1_000_000  # a few seconds of shootouts


class Command(CheckedCommand):
    help = "Print the exact probability that deck A wins a PK shootout (R-PK-1..6)."

    def add_arguments(self, parser):
        parser.add_argument("--deck-a", required=True, help="deck text file or saved deck slug")
        parser.add_argument("--deck-b", required=True, help="deck text file or saved deck slug")
        parser.add_argument(
            "--simulate",
            type=whole_number(0, MAX_SIMULATED),
            default=0,
            help=f"also simulate N shootouts (at most {MAX_SIMULATED:,})",
        )
        parser.add_argument("--seed", type=whole_number(0, 2**63 - 1), default=None)

    def handle(self, *args, **options):
        try:
            side_a = load_side(options["deck_a"])
            side_b = load_side(options["deck_b"])
        except DeckInputError as exc:
            raise CommandError(str(exc)) from None
        if options["simulate"] < 0:
            raise CommandError("--simulate must be 0 or more")
        exact = exact_pk_probability(side_a, side_b)
        self.stdout.write(f"P({side_a.name} wins the shootout) = {exact:.12f} (exact)")
        runs = options["simulate"]
        if runs:
            rng = random.Random(options["seed"])
            wins = sum(
                pk_shootout(
                    side_a.cards,
                    side_a.shootout_goalkeeper,
                    side_b.cards,
                    side_b.shootout_goalkeeper,
                    rng,
                ).winner
                == "A"
                for _ in range(runs)
            )
            low, high = wilson_interval(wins, runs)
            self.stdout.write(
                f"Simulated: {wins / runs:.4f} over {runs} shootouts "
                f"(95% interval {low:.4f}–{high:.4f})"
            )
