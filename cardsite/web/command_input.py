"""User arguments of management commands: checked before a command does anything.

Every command that takes arguments from a user (import_cards, export_cards, play_match, pk_odds,
reconcile_simulations, runlab, runstack) derives from `CheckedCommand` and types its numbers
with `whole_number` / `seconds`, so a NUL byte, an over-long argument, a 5,000-digit integer,
NaN or an out-of-range number is one clear `CommandError` line (exit status 1, no traceback)
before anything is read or written.
"""

from __future__ import annotations

import argparse
import math

from django.core.management.base import BaseCommand, CommandError

from cardsite.web.numbers import whole_number_or

MAX_ARGUMENT_CHARS = 4096  # longer than any path Linux accepts (PATH_MAX)
MAX_NUMBER_DIGITS = 30


def _shown(raw: str) -> str:
    return repr(raw if len(raw) <= 24 else raw[:20] + "…")


def whole_number(low: int, high: int):
    """Return an argparse type: a whole number from `low` to `high`, else a one-line error."""

    def parse(raw: str) -> int:
        value = whole_number_or(
            raw.strip(), None, low=None, max_digits=MAX_NUMBER_DIGITS, signed=True
        )
        if value is None:
            raise argparse.ArgumentTypeError(
                f"{_shown(raw)} is not a whole number from {low:,} to {high:,}"
            )
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value:,} is not from {low:,} to {high:,}")
        return value

    parse.__name__ = "whole number"
    return parse


def seconds(low: float, high: float):
    """Return an argparse type: a finite number of seconds from `low` to `high`."""

    def parse(raw: str) -> float:
        try:
            value = float(raw) if len(raw) <= MAX_NUMBER_DIGITS else math.nan
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{_shown(raw)} is not a number of seconds from {low:g} to {high:g}"
            )
        return value

    parse.__name__ = "seconds"
    return parse


def argument_problem(name: str, value) -> str | None:
    """Return why a string argument is refused (NUL, too long), or None."""
    values = value if isinstance(value, (list, tuple)) else [value]
    for item in values:
        if not isinstance(item, str):
            continue
        if "\x00" in item:
            return f"{name}: the argument holds a NUL character"
        if len(item) > MAX_ARGUMENT_CHARS:
            return f"{name}: the argument is longer than {MAX_ARGUMENT_CHARS:,} characters"
    return None


class CheckedCommand(BaseCommand):
    """A command whose string arguments are checked (NUL, length) before `handle` runs."""

    def create_parser(self, prog_name, subcommand, **kwargs):
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        error = parser.error

        def short_error(message: str):  # argparse echoes the value: never 5,000 characters
            error(message if len(message) <= 300 else message[:300] + "…")

        parser.error = short_error
        return parser

    def execute(self, *args, **options):
        for index, value in enumerate(args):
            problem = argument_problem(f"argument {index + 1}", value)
            if problem:
                raise CommandError(problem)
        for key, value in options.items():
            problem = argument_problem(key.replace("_", "-"), value)
            if problem:
                raise CommandError(problem)
        return super().execute(*args, **options)
