import json
import sys

from django.core.management.base import CommandError

from cardsite.web.command_input import CheckedCommand, whole_number
from play.engine.options import DECK_OUTS, EMPTY_TIMINGS, Options
from play.engine.runner import play_match
from play.simulations.core import POLICIES
from play.simulations.deck_input import DeckInputError, load_side


class Command(CheckedCommand):
    help = "Play one match between two decks (text files or saved deck slugs) and write its log."

    def add_arguments(self, parser):
        parser.add_argument("--deck-a", required=True, help="deck text file or saved deck slug")
        parser.add_argument("--deck-b", required=True, help="deck text file or saved deck slug")
        parser.add_argument("--seed", type=whole_number(0, 2**63 - 1), default=None)
        parser.add_argument("--policy-a", choices=POLICIES, default="greedy")
        parser.add_argument("--policy-b", choices=POLICIES, default="greedy")
        parser.add_argument(
            "--empty-timing",
            choices=EMPTY_TIMINGS,
            default=EMPTY_TIMINGS[0],
            help="R-PLAY-4: passes (second edition) or ends_phase (first edition)",
        )
        parser.add_argument(
            "--deck-out",
            choices=DECK_OUTS,
            default=DECK_OUTS[0],
            help="R-DRAW-2: draw_phase (second edition) or any_draw (first edition)",
        )
        parser.add_argument("--log", help="write the match log here ('-' for standard output)")
        parser.add_argument("--quiet", action="store_true", help="print nothing but the log")

    def handle(self, *args, **options):
        try:
            side_a = load_side(options["deck_a"])
            side_b = load_side(options["deck_b"])
        except DeckInputError as exc:
            raise CommandError(str(exc)) from None
        seed = options["seed"]
        if seed is None:
            import random

            seed = random.SystemRandom().getrandbits(32)
        outcome = play_match(
            side_a,
            side_b,
            policy_a=options["policy_a"],
            policy_b=options["policy_b"],
            seed=seed,
            options=Options(empty_timing=options["empty_timing"], deck_out=options["deck_out"]),
            log=bool(options["log"]),
        )
        if not options["quiet"]:
            goals = outcome.goals
            line = f"{side_a.name} {goals['A']}–{goals['B']} {side_b.name}"
            if outcome.pk_score:
                line += f" (PK {outcome.pk_score['A']}–{outcome.pk_score['B']})"
            winner = side_a.name if outcome.winner == "A" else side_b.name
            how = {"goals": "on goals", "pk": "on penalties", "coin_toss": "on the coin toss"}
            self.stdout.write(f"{line}: {winner} wins {how[outcome.decided_by]} (seed {seed})")
        if options["log"]:
            text = json.dumps(outcome.log, ensure_ascii=False)
            if options["log"] == "-":
                sys.stdout.write(text + "\n")
            else:
                try:
                    with open(options["log"], "w", encoding="utf-8") as fh:
                        fh.write(text + "\n")
                except OSError as exc:
                    raise CommandError(f"{options['log']}: cannot write the log ({exc})") from None
