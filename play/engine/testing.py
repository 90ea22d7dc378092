"""Helpers for tests and benchmarks: a sample card pool, legal random decks, stacked matches.

Nothing here is used by a real match. `sample_side_deck(seed)` builds a legal deck of plausible
sample cards (never official cards); `StackedChance` replaces the seeded shuffles and coin tosses
so a test can put chosen cards on top of a deck and choose who kicks off.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import lru_cache

from play.engine.cards import Card, Side
from play.engine.chance import Chance
from play.engine.match import Match, SideDeck
from play.engine.options import DEFAULT_OPTIONS, Options

SAMPLE_EFFECTS = (
    "draw:1",
    "draw:2",
    "keep:+2",
    "keep:+3",
    "shoot:+2",
    "shoot:+3",
    "defense:+2",
    "defense:+3",
    "opp_keep:-2",
    "opp_shoot:-2",
    "opp_defense:-2",
    "draw:1;keep:+1",
    "draw:1;shoot:+1",
    "keep:+1;opp_keep:-1",
)
_POSITIONS = {  # position: (shoot, keep, defense) ranges
    "FW": ((4, 8), (1, 4), (0, 2)),
    "MF": ((2, 5), (3, 7), (1, 4)),
    "DF": ((0, 3), (1, 4), (3, 7)),
}


@lru_cache(maxsize=1)
def sample_pool() -> dict[str, tuple[Card, ...]]:
    """Return the fixed sample pool: {"player": ..., "goalkeeper": ..., "event": ...}."""
    rng = random.Random("elevenstars-sample-pool")
    players: list[Card] = []
    number = 0
    for person_number in range(1, 81):
        position = ("FW", "MF", "DF")[person_number % 3]
        for _version in range(rng.choice((1, 1, 2))):
            number += 1
            shoot, keep, defense = (rng.randint(*span) for span in _POSITIONS[position])
            players.append(
                Card(
                    f"SMP-{number:03d}",
                    "player",
                    f"Sample {position} {person_number:02d}",
                    shoot,
                    keep,
                    defense,
                )
            )
    keepers = []
    for person_number in range(1, 16):
        number += 1
        keepers.append(
            Card(
                f"SMP-{number:03d}",
                "goalkeeper",
                f"Sample GK {person_number:02d}",
                0,
                rng.randint(0, 2),
                rng.randint(3, 6),
            )
        )
    events = []
    for effect in SAMPLE_EFFECTS:
        number += 1
        events.append(Card(f"SMP-{number:03d}", "event", None, 0, 0, 0, effect))
    return {"player": tuple(players), "goalkeeper": tuple(keepers), "event": tuple(events)}


def sample_side_deck(seed: int, *, name: str | None = None, policy: str = "human") -> SideDeck:
    """Return a legal deck of sample cards, the same for the same seed."""
    rng = random.Random(f"elevenstars-sample-deck:{seed}")
    pool = sample_pool()
    by_person: dict[str, list[Card]] = {}
    for card in pool["player"]:
        by_person.setdefault(card.person, []).append(card)
    persons = rng.sample(sorted(by_person), 10)
    versions = [card for person in persons for card in by_person[person]]
    event_kinds = rng.sample(pool["event"], rng.randint(2, 6))
    event_count = rng.randint(4, 20)
    cards = [rng.choice(event_kinds) for _ in range(event_count)]
    cards += versions  # every person at least once (R-DECK-3)
    while len(cards) < 60:
        cards.append(rng.choice(versions))
    goalkeeper = rng.choice(pool["goalkeeper"])
    bench: list[Card] = []
    for _ in range(rng.randint(0, 12)):
        bench.append(rng.choice(versions + list(pool["event"])))
    pk_goalkeeper = None
    if rng.random() < 0.3:
        pk_goalkeeper = rng.choice(pool["goalkeeper"])
        bench.append(pk_goalkeeper)
    return SideDeck(
        name=name or f"Sample deck {seed}",
        cards=tuple(cards),
        goalkeeper=goalkeeper,
        pk_goalkeeper=pk_goalkeeper,
        bench=tuple(bench),
        policy=policy,
    )


class StackedChance(Chance):
    """Chance for tests: shuffles keep the order given (or a scripted one), tosses are set.

    `shuffles` is consumed one per shuffle: None keeps the cards in the order the match hands
    them over (a deck's `cards`, top first), a sequence of ids gives the exact order. When it
    runs out, every shuffle keeps the order. `tosses` gives the coin tosses ("A" when empty).
    """

    def __init__(
        self, *, tosses: Iterable[Side] = (), shuffles: Iterable[Sequence[str] | None] = ()
    ) -> None:
        super().__init__(0)
        self._tosses = list(tosses)
        self._shuffles = list(shuffles)

    def shuffle(self, cards: Iterable[Card]) -> list[Card]:
        cards = list(cards)
        order = self._shuffles.pop(0) if self._shuffles else None
        if order is None:
            return cards
        remaining = list(cards)
        result = []
        for card_id in order:
            card = next(c for c in remaining if c.id == card_id)
            remaining.remove(card)
            result.append(card)
        if remaining:
            raise ValueError(f"Scripted shuffle leaves out {[c.id for c in remaining]}.")
        return result

    def coin_toss(self) -> Side:
        return self._tosses.pop(0) if self._tosses else "A"


def player(card_id: str, shoot: int = 0, keep: int = 0, defense: int = 0, person: str = "") -> Card:
    """Return a field player card; the person defaults to one named after the id."""
    return Card(card_id, "player", person or f"Person {card_id}", shoot, keep, defense)


def event(card_id: str, effect: str) -> Card:
    """Return an event card."""
    return Card(card_id, "event", None, 0, 0, 0, effect)


def goalkeeper(card_id: str, defense: int, person: str = "") -> Card:
    """Return a goalkeeper card."""
    return Card(card_id, "goalkeeper", person or f"Keeper {card_id}", 0, 0, defense)


FILLER = tuple(player(f"FIL-{n:03d}", person=f"Filler {n}") for n in range(1, 11))


def stacked_side(
    top: Sequence[Card],
    *,
    name: str = "Stacked",
    keeper: Card | None = None,
    bench: Sequence[Card] = (),
    pk_goalkeeper: Card | None = None,
) -> SideDeck:
    """Return a legal deck whose first cards (top first) are `top`, padded with blank fillers.

    Blank filler players (all powers 0) make up the 10 persons of R-DECK-3 and the 60 cards.
    """
    persons = {card.person for card in top if card.kind == "player"}
    if len(persons) > 10:
        raise ValueError("A stacked deck's top cards name more than 10 persons.")
    fill = list(FILLER[: 10 - len(persons)])
    padding = fill[0] if fill else next(card for card in top if card.kind == "player")
    cards = list(top) + fill
    cards += [padding] * (60 - len(cards))
    return SideDeck(
        name=name,
        cards=tuple(cards),
        goalkeeper=keeper or goalkeeper("GK-001", 3),
        pk_goalkeeper=pk_goalkeeper,
        bench=tuple(bench),
    )


def stacked_match(
    top_a: Sequence[Card] = (),
    top_b: Sequence[Card] = (),
    *,
    kickoff: Side = "A",
    keeper_a: Card | None = None,
    keeper_b: Card | None = None,
    bench_a: Sequence[Card] = (),
    bench_b: Sequence[Card] = (),
    options: Options = DEFAULT_OPTIONS,
    shuffles: Iterable[Sequence[str] | None] = (),
    tosses: Iterable[Side] = (),
    record_log: bool = True,
) -> Match:
    """Return a match whose decks start with the given cards and whose kick-off side is set.

    The first two shuffles keep each deck's order; `shuffles` scripts the later ones (halftime
    and shootout), and `tosses` the coin tosses after the kick-off toss.
    """
    side_a = stacked_side(top_a, name="A", keeper=keeper_a, bench=bench_a)
    side_b = stacked_side(top_b, name="B", keeper=keeper_b, bench=bench_b)
    chance = StackedChance(tosses=(kickoff, *tosses), shuffles=(None, None, *shuffles))
    return Match.new(side_a, side_b, seed=0, options=options, chance=chance, record_log=record_log)
