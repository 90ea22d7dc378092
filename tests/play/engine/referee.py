"""An independent referee for match logs, written from the spec alone.

It reads nothing from play.engine: it replays a log's events with its own small model of the
rules and fails at the first event that the rules (and the log's named house rules) do not
allow: card movement, draws, kick cases, totals, R-PLAY-4 phase ends, judgments, scores, the
shootout and the result.
"""

from __future__ import annotations

import re
from collections import Counter

HAND = 4
PENALTY = {"A": 0, "B": 4}
MIDDLE = {"A": 1, "B": 3}
STEP = {"A": -1, "B": 1}
CLAUSE = re.compile(r"(draw):(\d+)|(keep|shoot|defense):\+(\d+)|opp_(keep|shoot|defense):-(\d+)")
POWER = {"keep": 0, "shoot": 1, "defense": 2}


class RefereeError(AssertionError):
    """The log breaks a rule."""


def _other(side: str) -> str:
    return "B" if side == "A" else "A"


def _effect(text: str) -> tuple[list[int], list[int], int]:
    """Return (own deltas, opponent deltas, cards to draw) for an effect text."""
    own, opp, draw = [0, 0, 0], [0, 0, 0], 0
    for part in text.split(";"):
        m = CLAUSE.fullmatch(part.strip())
        if m is None:
            raise RefereeError(f"effect {text!r} is outside the vocabulary")
        if m[1]:
            draw += int(m[2])
        elif m[3]:
            own[POWER[m[3]]] += int(m[4])
        else:
            opp[POWER[m[5]]] -= int(m[6])
    return own, opp, draw


class _DeckOut(Exception):
    pass


class _LogEnded(Exception):
    pass


class Referee:
    def __init__(self, log: dict) -> None:
        self.log = log
        self.events = log["events"]
        self.i = 0
        self.cards = log["cards"]
        self.rules = log["rules"]
        self.house = self.rules["house"]
        # A log without the second edition's names is a first-edition log (match-log.md).
        second = "empty_timing" in self.house
        self.empty_passes = self.house.get("empty_timing", "ends_phase") == "passes"  # R-PLAY-4
        deck_out = self.house.get("deck_out")
        self.draw_phase_only = second and deck_out == "draw_phase"  # R-DRAW-2
        if second and deck_out not in ("draw_phase", "any_draw"):
            raise RefereeError(f"deck_out {deck_out!r} is neither draw_phase nor any_draw")
        if self.house.get("empty_timing", "ends_phase") not in ("passes", "ends_phase"):
            raise RefereeError(f"empty_timing {self.house['empty_timing']!r} is unknown")
        self.score = {"A": 0, "B": 0}

    # --- helpers ---
    def fail(self, message: str) -> None:
        raise RefereeError(f"event {self.i - 1}: {message}")

    def expect(self, condition: bool, message: str) -> None:
        if not condition:
            self.fail(message)

    def take(self, kind: str) -> dict:
        if self.i >= len(self.events):
            raise _LogEnded
        event = self.events[self.i]
        self.i += 1
        if event["type"] != kind:
            self.fail(f"expected a {kind} event, found {event!r}")
        return event

    def card(self, card_id: str) -> dict:
        if card_id not in self.cards:
            self.fail(f"card {card_id} is not in the log's cards")
        return self.cards[card_id]

    def in_turn(self, event: dict) -> None:
        self.expect(
            event.get("half") == self.half and event.get("turn") == self.turn,
            f"half/turn should be {self.half}/{self.turn}: {event!r}",
        )

    def legal_deck(self, ids: list[str], where: str) -> None:
        if len(ids) != self.rules["deck_size"]:
            self.fail(f"{where}: {len(ids)} cards")
        persons = set()
        for card_id in ids:
            card = self.card(card_id)
            if card["kind"] not in ("player", "event"):
                self.fail(f"{where}: {card_id} may not be in a deck")
            if card["kind"] == "player":
                persons.add(card["person"])
            else:
                _effect(card["effect"])
                if card["shoot"] or card["keep"] or card["defense"]:
                    self.fail(f"{where}: event {card_id} has powers of its own")
        if len(persons) != 10:
            self.fail(f"{where}: {len(persons)} persons")

    # --- the match ---
    def run(self, complete: bool) -> None:
        log = self.log
        if log["format"] != "elevenstars-match-log" or log["version"] != 1:
            raise RefereeError("not a format-1 log")
        expected_rules = {
            "deck_size": 60,
            "hand_size": 4,
            "max_player_cards_per_turn": 2,
            "timings_per_side": 2,
            "pk_kicks": 5,
        }
        for key, value in expected_rules.items():
            if self.rules[key] != value:
                raise RefereeError(f"rules.{key} is {self.rules[key]}, not {value}")
        for card_id, card in self.cards.items():
            if card["id"] != card_id:
                raise RefereeError(f"cards[{card_id}] has id {card['id']}")
        self.sides = log["sides"]
        self.owned, self.bench, self.gk, self.pk_gk = {}, {}, {}, {}
        for side in ("A", "B"):
            entry = self.sides[side]
            self.legal_deck(entry["deck"], f"side {side}'s deck")
            self.owned[side] = list(entry["deck"])
            self.bench[side] = list(entry.get("bench", []))
            if len(self.bench[side]) > 20:
                raise RefereeError(f"side {side}'s bench has more than 20 cards")
            self.gk[side] = entry["goalkeeper"]
            self.pk_gk[side] = entry["pk_goalkeeper"]
            for keeper in (self.gk[side], self.pk_gk[side]):
                if keeper["kind"] != "goalkeeper" or self.cards.get(keeper["id"]) != keeper:
                    raise RefereeError(f"side {side}: bad goalkeeper {keeper!r}")
            if self.pk_gk[side]["id"] != self.gk[side]["id"]:
                if "bench" in entry and self.pk_gk[side]["id"] not in self.bench[side]:
                    raise RefereeError(f"side {side}: PK goalkeeper not on the bench (R-PK-1)")
        try:
            self.play_match()
        except _LogEnded:
            if complete:
                raise RefereeError("the log ends before match_end") from None
            return
        if self.i != len(self.events):
            raise RefereeError(f"events after match_end: {self.events[self.i]!r}")

    def play_match(self) -> None:
        self.deck = {s: [] for s in "AB"}
        self.hand = {s: [] for s in "AB"}
        self.discard = {s: [] for s in "AB"}
        self.in_play = {s: [] for s in "AB"}
        start = self.take("half_start")
        self.half = 1
        self.expect(start["half"] == 1 and start["kickoff"] in ("A", "B"), "first half_start")
        for side in "AB":
            self.expect(start["decks"][side] == self.sides[side]["deck"], "half 1 decks")
            self.deck[side] = list(start["decks"][side])
        first = start["kickoff"]
        self.play_half(first)
        self.halftime()
        start = self.take("half_start")
        self.half = 2
        self.expect(start["half"] == 2, "second half_start")
        self.expect(start["kickoff"] == _other(first), "R-MATCH-4: the other side kicks off")
        for side in "AB":
            self.expect(Counter(start["decks"][side]) == Counter(self.deck[side]), "half 2 deck")
            self.deck[side] = list(start["decks"][side])
        self.play_half(_other(first))
        pk = None
        if self.score["A"] == self.score["B"]:
            pk, winner, decided_by = self.shootout()
        else:
            winner = "A" if self.score["A"] > self.score["B"] else "B"
            decided_by = "goals"
        end = self.take("match_end")
        expected = {"goals": self.score, "pk": pk, "winner": winner, "decided_by": decided_by}
        if decided_by == "coin_toss":
            expected["winner"] = end["winner"]
        self.expect({k: end[k] for k in expected} == expected, f"match_end should be {expected}")
        self.expect(self.log["result"] == expected, "result differs from match_end")

    def halftime(self) -> None:
        event = self.take("halftime")
        keep_hands = self.house.get("halftime_keep_hands", False)
        for side in "AB":
            pool = Counter(self.owned[side])
            if keep_hands:
                pool -= Counter(self.hand[side])
            bench = Counter(self.bench[side])
            for out, into in event["swaps"][side]:
                self.expect(pool[out] > 0, f"swap out {out} not in the deck")
                self.expect(bench[into] > 0, f"swap in {into} not on the bench")
                pool[out] -= 1
                bench[into] -= 1
                self.owned[side].remove(out)
                self.owned[side].append(into)
                self.bench[side].remove(into)
                self.bench[side].append(out)
            self.legal_deck(self.owned[side], f"side {side}'s deck after halftime")
            new_deck = Counter(self.owned[side])
            if keep_hands:
                new_deck -= Counter(self.hand[side])
            else:
                self.hand[side] = []
            self.deck[side] = list(new_deck.elements())
            self.discard[side] = []
            self.in_play[side] = []

    def draw(self, side: str, need: int, reason: str) -> None:
        """Check the draw of `need` cards; raise _DeckOut after checking the half_end."""
        got = min(need, len(self.deck[side]))
        if got:
            event = self.take("draw")
            self.in_turn(event)
            self.expect(event["side"] == side and event["reason"] == reason, f"draw {event!r}")
            self.expect(event["cards"] == self.deck[side][:got], "R-DRAW: not the top cards")
            del self.deck[side][:got]
            self.expect(event["deck_count"] == len(self.deck[side]), "draw deck_count")
            self.hand[side] += event["cards"]
        if got < need and (reason == "draw_phase" or not self.draw_phase_only):  # R-DRAW-2
            self.half_end(side)

    def half_end(self, side: str) -> None:
        end = self.take("half_end")
        self.expect(
            end["half"] == self.half
            and end["reason"] == "deck_out"
            and end["side"] == side
            and end["score"] == self.score,
            f"R-DRAW-2: half_end {end!r}",
        )
        raise _DeckOut

    def play_half(self, kickoff: str) -> None:
        self.offense, self.pending, self.ball, self.turn = kickoff, "kickoff", None, 0
        self.back_passes = 0
        try:
            while True:
                self.play_turn()
        except _DeckOut:
            return

    def play_turn(self) -> None:
        self.turn += 1
        offense, defense = self.offense, _other(self.offense)
        start = self.take("turn_start")
        self.in_turn(start)
        expected = {
            "offense": offense,
            "pending": self.pending,
            "ball": self.ball,
            "score": self.score,
            "hands": self.hand,
            "deck_counts": {s: len(self.deck[s]) for s in "AB"},
        }
        for key, value in expected.items():
            self.expect(start[key] == value, f"turn_start {key} is {start[key]}, not {value}")
        for side in "AB":
            held = len(self.deck[side]) + len(self.hand[side]) + len(self.discard[side])
            self.expect(held == 60 and not self.in_play[side], f"side {side} holds {held} cards")
        if self.draw_phase_only:  # R-MATCH-3: an empty deck ends the half before any draw
            for side in (offense, defense):
                if not self.deck[side]:
                    self.half_end(side)
        for side in (offense, defense):  # R-DRAW-1, offense first (house draw_order)
            if len(self.hand[side]) < HAND:
                self.draw(side, HAND - len(self.hand[side]), "draw_phase")
        shot = self.kick(offense, defense)
        totals = self.play_phase(offense, defense)
        self.judge(offense, defense, shot, totals)
        for side in (offense, defense):  # R-END-1
            if self.in_play[side]:
                event = self.take("discard")
                self.in_turn(event)
                self.expect(
                    event["side"] == side and event["cards"] == self.in_play[side], "discard"
                )
                self.discard[side] += self.in_play[side]
                self.in_play[side] = []

    def kick(self, offense: str, defense: str) -> bool:
        event = self.take("kick")
        self.in_turn(event)
        case, choice = event["case"], event["choice"]
        ball = self.ball
        draw = None
        if self.pending == "kickoff":  # R-KICK-1
            want_case, choices, shot = "kickoff", (None,), False
            after = {"zone": MIDDLE[defense], "arrow": defense}
        elif self.pending == "goal_kick":  # R-KICK-2
            want_case, choices, shot = "goal_kick", ("penalty_zone", "middle_zone"), False
            zone = PENALTY[offense] if choice == "penalty_zone" else MIDDLE[offense]
            after = {"zone": zone, "arrow": defense}
            if choice == "penalty_zone":
                draw = (1, "goal_kick")
        elif self.pending == "corner_kick":  # R-KICK-3
            want_case, choices, shot = "corner_kick", (None,), True
            self.expect(ball == {"zone": PENALTY[defense], "arrow": defense}, "corner ball")
            after = ball
            draw = (2, "corner_kick")
        elif ball["zone"] == PENALTY[defense]:  # R-KICK-4
            want_case = "shot_chance"
            limit = self.house.get("max_back_passes")
            forced = limit is not None and self.back_passes >= limit
            choices = ("shoot",) if forced else ("shoot", "back_pass")
            shot = choice == "shoot"
            if shot:
                after = ball
                draw = (2, "shoot")
                self.back_passes = 0
            else:
                after = {"zone": MIDDLE[defense], "arrow": ball["arrow"]}
                self.back_passes += 1
        else:  # R-KICK-5
            self.expect(ball["arrow"] == defense, "the arrow should point at the defense's goal")
            want_case, choices, shot = "advance", (None,), False
            after = {"zone": ball["zone"] + STEP[ball["arrow"]], "arrow": ball["arrow"]}
        self.expect(case == want_case, f"kick case {case}, expected {want_case}")
        self.expect(choice in choices, f"kick choice {choice} not in {choices}")
        self.expect(event["ball"] == after, f"ball after kick {event['ball']} != {after}")
        self.expect(0 <= after["zone"] <= 4, "the ball left the field")
        self.expect(event["shot"] is shot, "kick shot flag")
        forced = case == "corner_kick" or (case == "shot_chance" and choices == ("shoot",))
        if "forced" in event or "empty_timing" in self.house:  # absent in first-edition logs
            self.expect(event.get("forced", False) is forced, f"kick forced flag {event!r}")
        self.ball = after
        if draw:
            self.draw(offense, *draw)
        return shot

    def play_phase(self, offense: str, defense: str) -> dict:
        totals = {"A": [0, 0, 0], "B": [0, 0, 0]}
        players = {"A": 0, "B": 0}
        for timing in range(1, 5):  # R-PLAY-1
            actor = offense if timing % 2 else defense
            event = self.take("play")
            self.in_turn(event)
            self.expect(event["side"] == actor and event["timing"] == timing, "timing order")
            for card_id in event["cards"]:
                if card_id not in self.hand[actor]:
                    self.fail(f"{card_id} is not in side {actor}'s hand")
                self.hand[actor].remove(card_id)
                card = self.card(card_id)
                if card["kind"] == "player":
                    players[actor] += 1
                    for k, power in enumerate(("keep", "shoot", "defense")):
                        totals[actor][k] += card[power]
            self.in_play[actor] += event["cards"]
            self.expect(players[actor] <= 2, "R-PLAY-2: more than 2 player cards this turn")
            self.expect(event["player_cards_this_turn"] == players[actor], "player card count")
            claimed = event["totals"]
            deck_out = False
            try:
                for card_id in event["cards"]:  # R-PLAY-3
                    card = self.card(card_id)
                    if card["kind"] != "event":
                        continue
                    own, opp, draws = _effect(card["effect"])
                    effect = self.take("effect")
                    self.in_turn(effect)
                    delta = {
                        actor: dict(zip(("keep", "shoot", "defense"), own, strict=True)),
                        _other(actor): dict(zip(("keep", "shoot", "defense"), opp, strict=True)),
                    }
                    self.expect(
                        effect["side"] == actor
                        and effect["card"] == card_id
                        and effect["effect"] == card["effect"]
                        and effect["delta"] == delta,
                        f"effect event {effect!r}, expected delta {delta}",
                    )
                    for k in range(3):
                        totals[actor][k] += own[k]
                        totals[_other(actor)][k] += opp[k]
                    if draws:
                        self.draw(actor, draws, "effect")
            except _DeckOut:
                deck_out = True  # later cards' effects never resolve (house half_end_mid_turn)
            shown = {
                s: dict(zip(("keep", "shoot", "defense"), totals[s], strict=True)) for s in "AB"
            }
            if claimed != shown:
                raise RefereeError(f"play totals {claimed} != {shown} (near event {self.i})")
            if deck_out:
                raise _DeckOut
            judged = bool(event["cards"]) or not self.empty_passes  # R-PLAY-4 empty_timing
            if judged and totals[actor][0] <= totals[_other(actor)][0]:  # R-PLAY-4
                reason = "not_ahead"
            elif timing == 4:
                reason = "timings_done"
            else:
                continue
            end = self.take("play_end")
            self.in_turn(end)
            self.expect(end["reason"] == reason and end["timing"] == timing, f"play_end {end}")
            return totals
        raise AssertionError("unreachable")

    def judge(self, offense: str, defense: str, shot: bool, totals: dict) -> None:
        event = self.take("judge")
        self.in_turn(event)
        if shot:  # R-JUDGE-1
            keeper = self.gk[defense]["defense"]
            shoot, stop = totals[offense][1], totals[defense][2]
            outcome = (
                "goal"
                if shoot > stop + keeper
                else "corner_kick"
                if shoot == stop + keeper
                else "goal_kick"
            )
            self.expect(
                event["kind"] == "shot"
                and (event["shoot"], event["defense"], event["goalkeeper_defense"])
                == (shoot, stop, keeper)
                and event["outcome"] == outcome,
                f"judge {event!r}, expected {outcome} from {shoot} vs {stop}+{keeper}",
            )
            if outcome == "goal":  # R-JUDGE-2
                self.score = dict(self.score)
                self.score[offense] += 1
                goal = self.take("goal")
                self.in_turn(goal)
                self.expect(goal["side"] == offense and goal["score"] == self.score, "goal")
                self.offense, self.pending = defense, "kickoff"
            elif outcome == "corner_kick":  # R-JUDGE-3
                self.pending = "corner_kick"
            else:  # R-JUDGE-4
                self.offense, self.pending = defense, "goal_kick"
        else:  # R-JUDGE-5
            keep_o, keep_d = totals[offense][0], totals[defense][0]
            outcome = "swap" if keep_d > keep_o else "hold"
            self.expect(
                event["kind"] == "keep"
                and (event["offense_keep"], event["defense_keep"]) == (keep_o, keep_d)
                and event["outcome"] == outcome,
                f"judge {event!r}, expected {outcome}",
            )
            if outcome == "swap":
                self.offense = defense
                self.ball = {"zone": self.ball["zone"], "arrow": offense}
            self.pending = None
        if self.offense != offense:
            self.back_passes = 0

    def shootout(self) -> tuple[dict, str, str]:
        start = self.take("pk_start")
        decks, position, reshuffled = {}, {}, {}
        for side in "AB":
            self.expect(start["goalkeepers"][side] == self.pk_gk[side]["id"], "R-PK-1 keeper")
            self.expect(Counter(start["decks"][side]) == Counter(self.owned[side]), "R-PK-2")
            decks[side], position[side], reshuffled[side] = start["decks"][side], 0, False
        score = {"A": 0, "B": 0}

        def kick(side: str, round_: int) -> bool:
            if position[side] == len(decks[side]):  # R-PK-5
                event = self.take("pk_reshuffle")
                self.expect(event["side"] == side, "reshuffle side")
                self.expect(Counter(event["deck"]) == Counter(self.owned[side]), "R-PK-5 deck")
                decks[side], position[side], reshuffled[side] = event["deck"], 0, True
            event = self.take("pk_kick")
            card = self.card(decks[side][position[side]])
            position[side] += 1
            shoot = card["shoot"] if card["kind"] == "player" else 0  # R-PK-3
            keeper = self.pk_gk[_other(side)]["defense"]
            expected = {
                "round": round_,
                "side": side,
                "card": card["id"],
                "shoot": shoot,
                "goalkeeper_defense": keeper,
                "scored": shoot > keeper,
                "reshuffled": reshuffled[side],
            }
            self.expect({k: event[k] for k in expected} == expected, f"pk_kick {event!r}")
            score[side] += shoot > keeper
            return shoot > keeper

        for round_ in range(1, 6):  # R-PK-4
            kick("A", round_)
            kick("B", round_)
        if score["A"] != score["B"]:
            return score, ("A" if score["A"] > score["B"] else "B"), "pk"
        hits = {
            side: sum(
                (self.cards[c]["shoot"] if self.cards[c]["kind"] == "player" else 0)
                > self.pk_gk[_other(side)]["defense"]
                for c in self.owned[side]
            )
            for side in "AB"
        }
        if (hits["A"], hits["B"]) in ((0, 0), (60, 60)):  # R-PK-6
            return score, "?", "coin_toss"
        round_ = 5
        while True:
            round_ += 1
            a, b = kick("A", round_), kick("B", round_)
            if a != b:
                return score, ("A" if a else "B"), "pk"


def check_log(log: dict, *, complete: bool = True) -> None:
    """Raise RefereeError at the first thing in the log the rules do not allow."""
    Referee(log).run(complete)
