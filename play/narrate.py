"""Plain sentences for match-log events, with their numbers and the rule that applied.

One source of truth for every page that explains a match: the play page's event list and the
replay viewer both show these sentences (the viewer gets them as JSON beside the log). Plain
Python, no Django: the caller passes a `gettext` function so the sentences can be translated,
and `viewer` hides the other side's drawn cards on the play page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass

SIDES = ("A", "B")
DRAW_RULES = {
    "draw_phase": "R-DRAW-1",
    "goal_kick": "R-KICK-2",
    "shoot": "R-KICK-4",
    "corner_kick": "R-KICK-3",
    "effect": "R-PLAY-3",
}
# Events that mark a moment worth a marker on a timeline or a highlight in a list.
KEY_TYPES = {"goal", "half_start", "half_end", "match_end", "pk_start"}


def _identity(text: str) -> str:
    return text


def zone_name(zone: int, labels: Mapping[str, str], gettext: Callable[[str], str]) -> str:
    """Return a zone's name (R-FIELD-1) in running text; the board shows the same names."""
    _ = gettext
    return {
        0: _("{side}'s penalty zone").format(side=labels["A"]),
        1: _("{side}'s middle zone").format(side=labels["A"]),
        2: _("the center zone"),
        3: _("{side}'s middle zone").format(side=labels["B"]),
        4: _("{side}'s penalty zone").format(side=labels["B"]),
    }.get(zone, str(zone))


@dataclass(frozen=True, slots=True)
class Line:
    """One narrated event."""

    index: int
    type: str
    text: str
    rule: str | None = None
    side: str | None = None
    half: int | None = None
    turn: int | None = None
    key: bool = False
    tone: str = ""  # "goal", "save", "swap" or "": a hint for styling

    def to_dict(self) -> dict:
        return asdict(self)


def _other(side: str) -> str:
    return "B" if side == "A" else "A"


class Narrator:
    """Turns the events of one match, in order, into `Line`s (it tracks totals between them)."""

    def __init__(
        self,
        *,
        cards: Mapping[str, Mapping],
        labels: Mapping[str, str],
        names: Mapping[str, str] | None = None,
        viewer: str | None = None,
        rules: Mapping | None = None,
        gettext: Callable[[str], str] = _identity,
    ) -> None:
        self.cards = cards
        self.labels = labels
        self.names = names or {}
        self.viewer = viewer
        house = (rules or {}).get("house") or {}
        self.max_back_passes = house.get("max_back_passes")
        # R-PLAY-4: a log without `empty_timing` is a first-edition log (ends_phase).
        self.empty_passes = house.get("empty_timing") == "passes"
        self.gettext = gettext
        self.totals = {side: {"keep": 0, "shoot": 0, "defense": 0} for side in SIDES}
        self.last_actor: str | None = None
        self.offense: str | None = None
        self.back_passes = 0

    # ----- small words ---------------------------------------------------------------------

    def side(self, side: str | None) -> str:
        return self.labels.get(side, side or "?")

    def name(self, card_id: str) -> str:
        card = self.cards.get(card_id) or {}
        return self.names.get(card_id) or card.get("person") or card_id

    def card(self, card_id: str) -> str:
        """Return a card as '<name> (shoot/keep/defense)' or '<name> [effect]'."""
        card = self.cards.get(card_id) or {}
        if card.get("kind") == "event":
            return f"{self.name(card_id)} [{card.get('effect') or ''}]"
        if card:
            return f"{self.name(card_id)} ({card['shoot']}/{card['keep']}/{card['defense']})"
        return card_id

    def card_list(self, ids: Iterable[str], *, full: bool = False) -> str:
        show = self.card if full else self.name
        return ", ".join(show(card_id) for card_id in ids)

    def power(self, name: str) -> str:
        _ = self.gettext
        return {"keep": _("keep"), "shoot": _("shoot"), "defense": _("defense")}.get(name, name)

    def zone(self, zone: int) -> str:
        return zone_name(zone, {side: self.side(side) for side in SIDES}, self.gettext)

    def totals_text(self, totals: Mapping[str, Mapping[str, int]]) -> str:
        _ = self.gettext
        return "; ".join(
            _("{side} keep {keep} · shoot {shoot} · defense {defense}").format(
                side=self.side(s), **totals[s]
            )
            for s in SIDES
        )

    def advance(self, event: Mapping) -> None:
        """Keep count of one event without narrating it (what its `_type` method records).

        The replay viewer narrates a window of events: it advances the narrator over the events
        before the window, which costs a few assignments each instead of a sentence each.
        `line` narrates an event from the counts before it, then calls this, so narrating and
        advancing can never disagree.
        """
        kind = event.get("type")
        if kind == "half_start":
            self.offense = event["kickoff"]
            self.back_passes = 0
        elif kind == "turn_start":
            self.totals = {side: {"keep": 0, "shoot": 0, "defense": 0} for side in SIDES}
            if event["offense"] != self.offense:
                self.back_passes = 0
            self.offense = event["offense"]
        elif kind == "kick" and event["case"] == "shot_chance":
            if event["choice"] == "back_pass":
                self.back_passes += 1
            else:
                self.back_passes = 0
        elif kind == "play":
            self.last_actor = event["side"]
            self.totals = {s: dict(event["totals"][s]) for s in SIDES}

    # ----- events --------------------------------------------------------------------------

    def line(self, index: int, event: Mapping) -> Line:
        kind = event.get("type", "?")
        method = getattr(self, f"_{kind}", None)
        if method is None:
            text, rule, tone = self.gettext("Unknown event {kind}.").format(kind=kind), None, ""
        else:
            text, rule, tone = method(event)
        self.advance(event)  # the one place the narrator's counts change
        return Line(
            index=index,
            type=kind,
            text=text,
            rule=rule,
            side=event.get("side") or event.get("offense") or event.get("kickoff"),
            half=event.get("half"),
            turn=event.get("turn"),
            key=kind in KEY_TYPES or (kind == "judge" and event.get("kind") == "shot"),
            tone=tone,
        )

    def _half_start(self, e):
        _ = self.gettext
        if e["half"] == 1:
            text = _("First half. The coin toss gives {side} the kick-off.")
        else:
            text = _("Second half. {side} kicks off; every card was shuffled into a new deck.")
        return text.format(side=self.side(e["kickoff"])), "R-MATCH-4", ""

    def _halftime(self, e):
        _ = self.gettext
        parts = []
        for s in SIDES:
            swaps = e["swaps"][s]
            if swaps:
                pairs = ", ".join(
                    _("{out} out, {into} in").format(out=self.name(o), into=self.name(i))
                    for o, i in swaps
                )
                parts.append(f"{self.side(s)}: {pairs}")
            else:
                parts.append(_("{side}: no swaps").format(side=self.side(s)))
        return _("Halftime. {swaps}.").format(swaps="; ".join(parts)), "R-MATCH-5", ""

    def _turn_start(self, e):
        _ = self.gettext
        pending = {
            "kickoff": _("kick-off"),
            "goal_kick": _("goal kick"),
            "corner_kick": _("corner kick"),
        }.get(e["pending"])
        ball = e.get("ball")
        where = (
            _("the ball in {zone}").format(zone=self.zone(ball["zone"]))
            if ball
            else _("the ball off the field")
        )
        text = _("Turn {turn}: {side} attacks, {where}.").format(
            turn=e["turn"], side=self.side(e["offense"]), where=where
        )
        if pending:
            text += " " + _("This turn starts with a {kick}.").format(kick=pending)
        return text, None, ""

    def _draw(self, e):
        _ = self.gettext
        side = e["side"]
        count = len(e["cards"])
        hidden = self.viewer is not None and side != self.viewer
        if hidden:
            text = _("{side} draws {count} card(s)").format(side=self.side(side), count=count)
        else:
            text = _("{side} draws {cards}").format(
                side=self.side(side), cards=self.card_list(e["cards"])
            )
        reason = {
            "draw_phase": _("to refill the hand to 4"),
            "goal_kick": _("for a goal kick from the penalty zone"),
            "shoot": _("for shooting"),
            "corner_kick": _("for the corner kick"),
            "effect": _("by an event card"),
        }.get(e["reason"], e["reason"])
        text = _("{draw} {reason}. {count} left in the deck.").format(
            draw=text, reason=reason, count=e["deck_count"]
        )
        return text, DRAW_RULES.get(e["reason"]), ""

    def _kick(self, e):
        _ = self.gettext
        ball = e["ball"]
        case = e["case"]
        offense = self.offense or "A"
        zone = self.zone(ball["zone"])
        toward = self.side(ball["arrow"])
        if case == "kickoff":
            return (
                _(
                    "Kick-off: from the center the ball moves into {zone}, toward {side}'s goal."
                ).format(zone=zone, side=toward),
                "R-KICK-1",
                "",
            )
        if case == "goal_kick":
            if e["choice"] == "penalty_zone":
                text = _(
                    "Goal kick: {side} places the ball in its penalty zone and draws 1 extra card."
                )
            else:
                text = _("Goal kick: {side} places the ball in its middle zone.")
            return text.format(side=self.side(offense)), "R-KICK-2", ""
        if case == "corner_kick":
            return (
                _("Corner kick: {side} must shoot this turn and draws 2 extra cards.").format(
                    side=self.side(offense)
                ),
                "R-KICK-3",
                "",
            )
        if case == "shot_chance":
            if e["choice"] == "back_pass":
                return (
                    _(
                        "Shot chance: {side} passes back instead; the ball returns to {zone}."
                    ).format(side=self.side(offense), zone=zone),
                    "R-KICK-4",
                    "",
                )
            forced = self.max_back_passes is not None and self.back_passes >= self.max_back_passes
            if forced:
                text = _(
                    "Shot chance: after {count} back passes in a row {side} must shoot (house "
                    "rule), and draws 2 extra cards."
                ).format(count=self.max_back_passes, side=self.side(offense))
            else:
                text = _(
                    "Shot chance: the ball is in {zone}; {side} shoots and draws 2 extra cards."
                ).format(zone=zone, side=self.side(offense))
            return text, "R-KICK-4", ""
        return (
            _("The ball moves one zone toward {side}'s goal, into {zone}.").format(
                side=toward, zone=zone
            ),
            "R-KICK-5",
            "",
        )

    def _play(self, e):
        _ = self.gettext
        side = e["side"]
        role = _("offense") if side == self.offense else _("defense")
        if e["cards"]:
            text = _("Timing {timing} ({role}): {side} uses {cards}.").format(
                timing=e["timing"],
                role=role,
                side=self.side(side),
                cards=self.card_list(e["cards"], full=True),
            )
        elif self.empty_passes and e["timing"] < 4:
            text = _(
                "Timing {timing} ({role}): {side} uses no card and passes; {other} has the next "
                "timing."
            ).format(
                timing=e["timing"], role=role, side=self.side(side), other=self.side(_other(side))
            )
        else:
            text = _("Timing {timing} ({role}): {side} uses no card.").format(
                timing=e["timing"], role=role, side=self.side(side)
            )
        text += " " + _("Totals: {totals}.").format(totals=self.totals_text(e["totals"]))
        return text, "R-PLAY-2" if e["cards"] else "R-PLAY-1", ""

    def _effect(self, e):
        _ = self.gettext
        changes = []
        for s in SIDES:
            for power in ("keep", "shoot", "defense"):
                delta = e["delta"].get(s, {}).get(power, 0)
                if delta:
                    changes.append(f"{self.side(s)} {self.power(power)} {delta:+d}")
        # The page's card table carries the effect in words; the log has the clause form.
        effect = (self.cards.get(e["card"]) or {}).get("effect") or e["effect"]
        text = _("{card} takes effect ({effect})").format(card=self.name(e["card"]), effect=effect)
        if changes:
            text += ": " + ", ".join(changes)
        return text + ".", "R-PLAY-3", ""

    def _play_end(self, e):
        _ = self.gettext
        if e["reason"] == "not_ahead" and self.last_actor:
            actor = self.last_actor
            mine = self.totals[actor]["keep"]
            theirs = self.totals[_other(actor)]["keep"]
            text = _(
                "{side} is not ahead on keep ({mine} ≤ {theirs}), so the play phase ends after "
                "timing {timing}."
            ).format(side=self.side(actor), mine=mine, theirs=theirs, timing=e["timing"])
            return text, "R-PLAY-4", ""
        return (
            _("All {timing} timings are played; the play phase ends.").format(timing=e["timing"]),
            "R-PLAY-1",
            "",
        )

    def _judge(self, e):
        _ = self.gettext
        offense = self.offense or "A"
        defense = _other(offense)
        if e["kind"] == "shot":
            shoot, stop, keeper = e["shoot"], e["defense"], e["goalkeeper_defense"]
            if e["outcome"] == "goal":
                comparison, outcome, rule, tone = _("greater"), _("goal"), "R-JUDGE-2", "goal"
            elif e["outcome"] == "corner_kick":
                comparison, outcome, rule, tone = _("equal"), _("corner kick"), "R-JUDGE-3", ""
            else:
                comparison = _("less")
                outcome = _("goal kick for {side}").format(side=self.side(defense))
                rule, tone = "R-JUDGE-4", "save"
            text = _(
                "Shot {shoot} vs defense {defense} + keeper {keeper}: {comparison} → {outcome}"
            )
            text = text.format(
                shoot=shoot, defense=stop, keeper=keeper, comparison=comparison, outcome=outcome
            )
            return f"{text} ({rule})", rule, tone
        mine, theirs = e["offense_keep"], e["defense_keep"]
        if e["outcome"] == "swap":
            text = _(
                "Keep {offense} vs {defense}: the defense is ahead → {side} wins the ball; "
                "the arrow turns toward {other}'s goal"
            ).format(
                offense=mine, defense=theirs, side=self.side(defense), other=self.side(offense)
            )
            tone = "swap"
        else:
            text = _(
                "Keep {offense} vs {defense}: the defense is not ahead → {side} keeps the ball"
            )
            text = text.format(offense=mine, defense=theirs, side=self.side(offense))
            tone = ""
        return f"{text} (R-JUDGE-5)", "R-JUDGE-5", tone

    def _goal(self, e):
        _ = self.gettext
        text = _("GOAL for {side}! {a}–{b}. The other side kicks off next.").format(
            side=self.side(e["side"]), a=e["score"]["A"], b=e["score"]["B"]
        )
        return text, "R-JUDGE-2", "goal"

    def _discard(self, e):
        _ = self.gettext
        text = _("{side} discards the {count} card(s) used this turn.").format(
            side=self.side(e["side"]), count=len(e["cards"])
        )
        return text, "R-END-1", ""

    def _half_end(self, e):
        _ = self.gettext
        which = _("First half") if e["half"] == 1 else _("Second half")
        text = _("{which} over: {side}'s deck ran out while drawing. Score {a}–{b}.").format(
            which=which, side=self.side(e["side"]), a=e["score"]["A"], b=e["score"]["B"]
        )
        return text, "R-DRAW-2", ""

    def _pk_start(self, e):
        _ = self.gettext
        keepers = e["goalkeepers"]
        text = _(
            "Level after two halves: PK shootout. Goalkeepers: {a} for {side_a}, {b} for {side_b}."
        ).format(
            a=self.card(keepers["A"]),
            side_a=self.side("A"),
            b=self.card(keepers["B"]),
            side_b=self.side("B"),
        )
        return text, "R-PK-1", ""

    def _pk_reshuffle(self, e):
        _ = self.gettext
        text = _("{side}'s deck ran out in sudden death: its revealed cards are shuffled back.")
        return text.format(side=self.side(e["side"])), "R-PK-5", ""

    def _pk_kick(self, e):
        _ = self.gettext
        if e["scored"]:
            text = _("PK round {round}, {side}: {card} shoots {shoot} > keeper {keeper} → scores.")
        else:
            text = _("PK round {round}, {side}: {card} shoots {shoot} ≤ keeper {keeper} → saved.")
        text = text.format(
            round=e["round"],
            side=self.side(e["side"]),
            card=self.name(e["card"]),
            shoot=e["shoot"],
            keeper=e["goalkeeper_defense"],
        )
        return text, "R-PK-3", "goal" if e["scored"] else "save"

    def _match_end(self, e):
        _ = self.gettext
        goals = e["goals"]
        winner = self.side(e["winner"])
        if e["decided_by"] == "goals":
            text = _("Full time: {side} wins {a}–{b}.").format(
                side=winner, a=goals["A"], b=goals["B"]
            )
            rule = "R-MATCH-1"
        elif e["decided_by"] == "pk":
            text = _("Full time {a}–{b}; {side} wins the shootout {pa}–{pb}.").format(
                side=winner, a=goals["A"], b=goals["B"], pa=e["pk"]["A"], pb=e["pk"]["B"]
            )
            rule = "R-PK-4"
        else:
            text = _(
                "Full time {a}–{b}; no shootout round could decide, the coin toss "
                "gives {side} the win."
            ).format(side=winner, a=goals["A"], b=goals["B"])
            rule = "R-PK-6"
        return text, rule, "goal"


def narrate(
    events: Iterable[Mapping],
    *,
    cards: Mapping[str, Mapping],
    labels: Mapping[str, str],
    names: Mapping[str, str] | None = None,
    viewer: str | None = None,
    rules: Mapping | None = None,
    gettext: Callable[[str], str] = _identity,
) -> list[Line]:
    """Return one `Line` per event, in order."""
    narrator = Narrator(
        cards=cards, labels=labels, names=names, viewer=viewer, rules=rules, gettext=gettext
    )
    return [narrator.line(index, event) for index, event in enumerate(events)]


def group_by_turn(lines: Iterable[Line]) -> list[dict]:
    """Return the lines grouped into {half, turn, lines} blocks, in order."""
    groups: list[dict] = []
    for line in lines:
        key = (line.half, line.turn)
        if not groups or (groups[-1]["half"], groups[-1]["turn"]) != key:
            groups.append({"half": line.half, "turn": line.turn, "lines": []})
        groups[-1]["lines"].append(line)
    return groups
