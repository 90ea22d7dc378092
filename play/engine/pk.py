"""The PK shootout (R-PK-1..6): play one, and the exact probability that side A wins one.

Only whether each card beats the other side's PK goalkeeper matters, so the odds are worked
out on counts: the first five kicks are hypergeometric, sudden death is a recursion over the
cards left, and R-PK-5's reshuffle closes it as a geometric series.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

from play.engine.cards import Card, Side
from play.engine.chance import Chance, as_chance
from play.engine.options import PK_KICKS


def pk_shoot(card: Card) -> int:
    """Return a revealed card's PK shoot power: a player's shoot, 0 for anything else."""
    return card.shoot if card.kind == "player" else 0  # R-PK-3


def pk_scores(card: Card, goalkeeper: Card) -> bool:
    """Return whether the revealed card beats the goalkeeper."""
    return pk_shoot(card) > goalkeeper.defense  # R-PK-3


def pk_never_decisive(size: int, scoring_a: int, scoring_b: int) -> bool:
    """Return whether no sudden-death round can ever be decisive."""
    # R-PK-6: both decks score with every card or with none.
    return (scoring_a == 0 and scoring_b == 0) or (scoring_a == size and scoring_b == size)


@dataclass(frozen=True, slots=True)
class PkKick:
    """One kick of the shootout."""

    round: int
    side: Side
    card: str
    shoot: int
    goalkeeper_defense: int
    scored: bool
    reshuffled: bool


@dataclass(frozen=True, slots=True)
class PkResult:
    """How a shootout ended; `kicks` is empty for a count-level simulation."""

    score: dict[str, int]
    winner: Side
    decided_by: str  # "pk" or "coin_toss"
    kicks: tuple[PkKick, ...] = ()


def _shootout(
    kick_a: Callable[[int], bool],
    kick_b: Callable[[int], bool],
    *,
    kicks: int,
    never_decisive: bool,
    coin_toss: Callable[[], Side],
) -> tuple[int, int, Side, str]:
    """Run the rounds of R-PK-4 and R-PK-6 over two kick sources; return score and winner."""
    score_a = score_b = 0
    for round_ in range(1, kicks + 1):  # R-PK-4: all five kicks are taken
        score_a += kick_a(round_)
        score_b += kick_b(round_)
    if score_a != score_b:
        return score_a, score_b, ("A" if score_a > score_b else "B"), "pk"
    if never_decisive:  # R-PK-6
        return score_a, score_b, coin_toss(), "coin_toss"
    round_ = kicks
    while True:  # R-PK-4 sudden death
        round_ += 1
        scored_a = kick_a(round_)
        scored_b = kick_b(round_)
        score_a += scored_a
        score_b += scored_b
        if scored_a != scored_b:
            return score_a, score_b, ("A" if scored_a else "B"), "pk"


def _check_sizes(size_a: int, size_b: int, kicks: int) -> None:
    if size_a != size_b or size_a < kicks:
        raise ValueError(
            f"A shootout needs two decks of the same size with at least {kicks} cards "
            f"(got {size_a} and {size_b})."
        )


def pk_shootout(
    deck_a: Sequence[Card],
    gk_a: Card,
    deck_b: Sequence[Card],
    gk_b: Card,
    rng: Chance | random.Random,
    *,
    kicks: int = PK_KICKS,
    events: list | None = None,
) -> PkResult:
    """Play a shootout between two full decks; append its log events to `events` if given."""
    _check_sizes(len(deck_a), len(deck_b), kicks)
    chance = as_chance(rng)
    shuffled = {"A": chance.shuffle(deck_a), "B": chance.shuffle(deck_b)}  # R-PK-2
    keepers = {"A": gk_b, "B": gk_a}  # the goalkeeper each side shoots against
    if events is not None:
        events.append(
            {
                "type": "pk_start",
                "goalkeepers": {"A": gk_a.id, "B": gk_b.id},
                "decks": {side: [c.id for c in cards] for side, cards in shuffled.items()},
            }
        )
    record: list[PkKick] = []

    def kicker(side: Side) -> Callable[[int], bool]:
        deck = shuffled[side]
        keeper = keepers[side]
        position = 0
        reshuffled = False

        def kick(round_: int) -> bool:
            nonlocal deck, position, reshuffled
            if position == len(deck):  # R-PK-5: the revealed cards go back in, shuffled
                deck = chance.shuffle(deck)
                position = 0
                reshuffled = True
                if events is not None:
                    events.append(
                        {"type": "pk_reshuffle", "side": side, "deck": [c.id for c in deck]}
                    )
            card = deck[position]
            position += 1
            scored = pk_scores(card, keeper)
            kick_record = PkKick(
                round_, side, card.id, pk_shoot(card), keeper.defense, scored, reshuffled
            )
            record.append(kick_record)
            if events is not None:
                events.append(
                    {
                        "type": "pk_kick",
                        "round": round_,
                        "side": side,
                        "card": card.id,
                        "shoot": kick_record.shoot,
                        "goalkeeper_defense": keeper.defense,
                        "scored": scored,
                        "reshuffled": reshuffled,
                    }
                )
            return scored

        return kick

    scoring_a = sum(pk_scores(card, gk_b) for card in deck_a)
    scoring_b = sum(pk_scores(card, gk_a) for card in deck_b)
    score_a, score_b, winner, decided_by = _shootout(
        kicker("A"),
        kicker("B"),
        kicks=kicks,
        never_decisive=pk_never_decisive(len(deck_a), scoring_a, scoring_b),
        coin_toss=chance.coin_toss,
    )
    return PkResult({"A": score_a, "B": score_b}, winner, decided_by, tuple(record))


def pk_simulate_counts(
    size: int, scoring_a: int, scoring_b: int, rng: random.Random, *, kicks: int = PK_KICKS
) -> PkResult:
    """Play a shootout on counts alone (decks of `size` cards, `scoring_x` of them scoring)."""
    _check_sizes(size, size, kicks)
    random_ = rng.random

    def kicker(scoring: int) -> Callable[[int], bool]:
        left = size
        hits = scoring

        def kick(_round: int) -> bool:
            nonlocal left, hits
            if left == 0:  # R-PK-5
                left, hits = size, scoring
            scored = random_() * left < hits
            left -= 1
            hits -= scored
            return scored

        return kick

    score_a, score_b, winner, decided_by = _shootout(
        kicker(scoring_a),
        kicker(scoring_b),
        kicks=kicks,
        never_decisive=pk_never_decisive(size, scoring_a, scoring_b),
        coin_toss=lambda: "A" if random_() < 0.5 else "B",
    )
    return PkResult({"A": score_a, "B": score_b}, winner, decided_by)


def pk_win_probability(
    deck_a: Sequence[Card],
    gk_a: Card,
    deck_b: Sequence[Card],
    gk_b: Card,
    *,
    kicks: int = PK_KICKS,
    exact: bool = False,
) -> float | Fraction:
    """Return the exact probability that side A wins a shootout between these decks."""
    _check_sizes(len(deck_a), len(deck_b), kicks)
    scoring_a = sum(pk_scores(card, gk_b) for card in deck_a)
    scoring_b = sum(pk_scores(card, gk_a) for card in deck_b)
    return pk_win_probability_counts(len(deck_a), scoring_a, scoring_b, kicks=kicks, exact=exact)


@lru_cache(maxsize=4096)
def pk_win_probability_counts(
    size: int, scoring_a: int, scoring_b: int, *, kicks: int = PK_KICKS, exact: bool = False
) -> float | Fraction:
    """Return P(A wins) for decks of `size` cards of which `scoring_x` score."""
    _check_sizes(size, size, kicks)
    one = Fraction(1) if exact else 1.0
    first_a = _first_kicks(size, scoring_a, kicks, exact)
    first_b = _first_kicks(size, scoring_b, kicks, exact)
    ahead = sum(first_a[s] * first_b[t] for s in range(kicks + 1) for t in range(s))
    if pk_never_decisive(size, scoring_a, scoring_b):  # R-PK-6: a fair coin
        level = sum(first_a[s] * first_b[s] for s in range(kicks + 1))
        return ahead + level * one / 2
    wins, stays = _sudden_death(size, scoring_a - scoring_b, exact)
    # R-PK-5: a sudden death that uses up both decks starts again from full decks, so
    # V = wins(full) + stays(full) * V.
    fresh = wins[size][scoring_a] / (one - stays[size][scoring_a])
    left = size - kicks
    for s in range(kicks + 1):
        level = first_a[s] * first_b[s]
        if level:
            i = scoring_a - s
            ahead += level * (wins[left][i] + stays[left][i] * fresh)
    return ahead


@lru_cache(maxsize=512)
def _first_kicks(size: int, scoring: int, kicks: int, exact: bool) -> tuple:
    """Return P(s goals in the first `kicks` kicks) for s = 0..kicks (hypergeometric)."""
    total = comb(size, kicks)
    if exact:
        return tuple(
            Fraction(comb(scoring, s) * comb(size - scoring, kicks - s), total)
            for s in range(kicks + 1)
        )
    return tuple(
        comb(scoring, s) * comb(size - scoring, kicks - s) / total for s in range(kicks + 1)
    )


@lru_cache(maxsize=256)
def _sudden_death(size: int, lead: int, exact: bool) -> tuple[list[dict], list[dict]]:
    """Return tables wins[m][i], stays[m][i] for sudden death from level.

    With m cards left in each deck, i scoring cards left for A and i - lead for B,
    P(A wins) = wins[m][i] + stays[m][i] * P(A wins from full decks): `stays` is the chance
    that every remaining round is a tie, after which R-PK-5 reshuffles both decks.
    Ties keep scoring_a - scoring_b fixed, so one table per `lead` serves every state.
    """
    one = Fraction(1) if exact else 1.0
    zero = one * 0
    wins: list[dict] = [{0: zero} if lead == 0 else {}]
    stays: list[dict] = [{0: one} if lead == 0 else {}]
    for m in range(1, size + 1):
        win_m: dict = {}
        stay_m: dict = {}
        previous_win = wins[m - 1]
        previous_stay = stays[m - 1]
        for i in range(max(0, lead), min(m, m + lead) + 1):
            j = i - lead
            a_hit = Fraction(i, m) if exact else i / m
            b_hit = Fraction(j, m) if exact else j / m
            win = a_hit * (one - b_hit)
            stay = zero
            both = a_hit * b_hit
            if both:
                win += both * previous_win[i - 1]
                stay += both * previous_stay[i - 1]
            neither = (one - a_hit) * (one - b_hit)
            if neither:
                win += neither * previous_win[i]
                stay += neither * previous_stay[i]
            win_m[i] = win
            stay_m[i] = stay
        wins.append(win_m)
        stays.append(stay_m)
    return wins, stays
