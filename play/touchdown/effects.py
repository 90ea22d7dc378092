"""Effect sets: the ten playbook effects (one per number) and the ten heroes, from a JSON file.

The draft names neither, so they are data (docs/touchdown.md, "Effect sets"). An effect is a
list of steps, each a `{"kind": ...}` object from the vocabulary below; a file is checked
entry by entry and every problem is reported with the entry it is in.
Two sets ship in `effects/`: `none` (the bare rules) and `example` (ours, not the designer's).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from play.touchdown.cards import NUMBERS, SUIT_LETTERS

EFFECTS_DIR = Path(__file__).with_name("effects")
SHIPPED = ("none", "example")
FORMAT = "touchdown-effect-set"

TRICK = "trick"  # a skill used by its holder just before playing a card in a trick
KICKOFF = "kickoff"  # a skill used by the kicking seat when it declares a kick-off
SKILL_TIMINGS = (TRICK, KICKOFF)

# kind -> {parameter: allowed values (a tuple) or an inclusive int range (a list)}
STEP_KINDS: dict[str, dict[str, tuple | list]] = {
    "advance": {"squares": [1, 10]},  # the player's team gains squares at the judgement
    "hold": {},  # the ball does not move this trick
    "win_rule": {"rule": ("highest", "lowest")},  # TD-JUDGE-1 changed for this trick
    "force_failure": {},  # this trick is an attack failure whoever takes it
    "intercept": {},  # TD-JUDGE-3: an attack failure this trick changes possession at once
    "hero_up": {"whose": ("own", "partner", "choose")},  # TD-COMP-2
    "change_suit": {"to": ("choose", "this_card", *SUIT_LETTERS)},  # TD-PLAY-4
    "card_value": {"value": [0, 20], "target": ("this_card", "choose")},
    "cancel_card": {"target": ("choose",)},  # a played card cannot take this trick
    "kick_minimum": {"ball": [1, 10]},  # this random kick-off lands no nearer than `ball`
}
CHOICE_STEPS = {
    ("hero_up", "choose"),
    ("change_suit", "choose"),
    ("card_value", "choose"),
    ("cancel_card", "choose"),
}
KICKOFF_ONLY = {"kick_minimum"}


class Step(NamedTuple):
    kind: str
    params: tuple[tuple[str, object], ...]  # (name, value) pairs in the vocabulary's order

    def get(self, name: str) -> object:
        for key, value in self.params:
            if key == name:
                return value
        raise KeyError(name)

    def to_dict(self) -> dict:
        return {"kind": self.kind, **dict(self.params)}


class Skill(NamedTuple):
    name: str
    when: str
    steps: tuple[Step, ...]


class Hero(NamedTuple):
    jersey: int
    name: str
    kick: int  # added to the roll of this hero's kick plays (TD-KICK-2)
    skill: Skill | None


@dataclass(frozen=True, slots=True)
class EffectSet:
    """A loaded, checked effect set. `playbook[n]` holds the steps of number n (index 0 unused)."""

    name: str
    label: str
    playbook: tuple[tuple[Step, ...], ...]
    heroes: tuple[Hero, ...]  # sorted by jersey number
    source: str = field(repr=False)  # the file's data as canonical JSON (for the log)

    def to_dict(self) -> dict:
        """Return the set as the JSON data of its file."""
        return json.loads(self.source)


class EffectSetError(ValueError):
    """An effect-set file breaks the format; `problems` lists every one, naming its entry."""

    def __init__(self, problems: list[str], where: str = "The effect set") -> None:
        self.problems = problems
        shown = "\n  - ".join(problems)
        super().__init__(f"{where} is not valid:\n  - {shown}")


def _step_problems(step: object, where: str, *, in_skill: bool, when: str | None) -> list[str]:
    if not isinstance(step, dict):
        return [f'{where}: a step is an object like {{"kind": "hold"}}, not {step!r}.']
    kind = step.get("kind")
    if kind not in STEP_KINDS:
        return [f"{where}: unknown kind {kind!r}; the kinds are {', '.join(STEP_KINDS)}."]
    problems = []
    spec = STEP_KINDS[kind]
    for name in step:
        if name != "kind" and name not in spec:
            allowed = ", ".join(spec) or "none"
            problems.append(f"{where}: {kind} has no parameter {name!r} (it takes: {allowed}).")
    for name, allowed in spec.items():
        if name not in step:
            problems.append(f"{where}: {kind} needs the parameter {name!r}.")
            continue
        value = step[name]
        if isinstance(allowed, list):
            low, high = allowed
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                problems.append(
                    f"{where}: {kind} {name!r} must be a whole number {low}..{high}, not {value!r}."
                )
        elif value not in allowed:
            choices = ", ".join(map(repr, allowed))
            problems.append(f"{where}: {kind} {name!r} must be one of {choices}, not {value!r}.")
    if problems:
        return problems
    if in_skill and "this_card" in step.values():
        problems.append(f"{where}: a skill is used before its holder plays, so no 'this_card'.")
    if in_skill and step.get("whose") == "own":
        problems.append(f"{where}: a skill cannot turn its own hero face up (it would never end).")
    if kind in KICKOFF_ONLY and when != KICKOFF:
        problems.append(f"{where}: {kind} belongs only in a skill used at a kick-off.")
    if when == KICKOFF and kind not in KICKOFF_ONLY:
        problems.append(f"{where}: a kick-off skill may use only {', '.join(KICKOFF_ONLY)}.")
    return problems


def _effect_problems(effect: object, where: str, *, in_skill: bool, when: str | None) -> list[str]:
    if not isinstance(effect, list):
        return [f"{where}: 'effect' must be a list of steps (empty for no effect)."]
    problems = []
    for index, step in enumerate(effect, 1):
        problems += _step_problems(step, f"{where}, step {index}", in_skill=in_skill, when=when)
    return problems


def _text_problems(entry: dict, where: str, names: tuple[str, ...]) -> list[str]:
    return [
        f"{where}: {name!r} must be text."
        for name in names
        if name in entry and not isinstance(entry[name], str)
    ]


def effect_set_problems(data: object) -> list[str]:
    """Return every problem in an effect set's data, each naming its entry (empty when valid)."""
    if not isinstance(data, dict):
        return ["The file must hold one JSON object."]
    problems = []
    known = {"format", "version", "name", "label", "description", "playbook", "heroes"}
    for key in data:
        if key not in known:
            problems.append(f"Unknown top-level key {key!r} (allowed: {', '.join(sorted(known))}).")
    if data.get("format") != FORMAT:
        problems.append(f"'format' must be {FORMAT!r}.")
    if data.get("version") != 1:
        problems.append("'version' must be 1.")
    for key in ("name", "label"):
        if not isinstance(data.get(key), str) or not data.get(key):
            problems.append(f"{key!r} must be non-empty text.")
    problems += _text_problems(data, "The set", ("description",))
    playbook = data.get("playbook")
    if not isinstance(playbook, dict):
        problems.append('\'playbook\' must be an object with the keys "1" .. "10".')
    else:
        wanted = [str(n) for n in NUMBERS]
        missing = [key for key in wanted if key not in playbook]
        extra = [key for key in playbook if key not in wanted]
        if missing:
            problems.append(f"playbook: no entry for number(s) {', '.join(missing)}.")
        if extra:
            problems.append(f"playbook: unknown key(s) {', '.join(map(repr, extra))} (use 1..10).")
        for key in wanted:
            entry = playbook.get(key)
            if key not in playbook:
                continue
            where = f"playbook {key}"
            if not isinstance(entry, dict):
                problems.append(f"{where}: an entry is an object with 'effect'.")
                continue
            for name in entry:
                if name not in ("name", "name_ja", "text", "effect"):
                    problems.append(f"{where}: unknown key {name!r}.")
            problems += _text_problems(entry, where, ("name", "name_ja", "text"))
            if "effect" not in entry:
                problems.append(f"{where}: 'effect' is missing (use [] for no effect).")
            else:
                problems += _effect_problems(entry["effect"], where, in_skill=False, when=None)
    heroes = data.get("heroes")
    if not isinstance(heroes, list) or len(heroes) != 10:
        problems.append("'heroes' must be a list of exactly 10 heroes (TD-COMP-2).")
    if isinstance(heroes, list):
        problems += _heroes_problems(heroes)
    return problems


def _heroes_problems(heroes: list) -> list[str]:
    problems = []
    seen: dict[int, int] = {}
    for index, hero in enumerate(heroes, 1):
        where = f"hero {index}"
        if not isinstance(hero, dict):
            problems.append(f"{where}: a hero is an object with 'jersey', 'name', 'kick', 'skill'.")
            continue
        if isinstance(hero.get("name"), str):
            where = f"hero {index} ({hero['name']})"
        for name in hero:
            if name not in ("jersey", "name", "name_ja", "kick", "skill"):
                problems.append(f"{where}: unknown key {name!r}.")
        jersey = hero.get("jersey")
        if isinstance(jersey, bool) or not isinstance(jersey, int) or not 0 <= jersey <= 99:
            problems.append(f"{where}: 'jersey' must be a whole number 0..99, not {jersey!r}.")
        elif jersey in seen:
            problems.append(f"{where}: jersey {jersey} is also hero {seen[jersey]}'s (TD-SET-4).")
        else:
            seen[jersey] = index
        if not isinstance(hero.get("name"), str) or not hero.get("name"):
            problems.append(f"{where}: 'name' must be non-empty text.")
        problems += _text_problems(hero, where, ("name_ja",))
        kick = hero.get("kick", 0)
        if isinstance(kick, bool) or not isinstance(kick, int) or not 0 <= kick <= 5:
            problems.append(f"{where}: 'kick' must be a whole number 0..5, not {kick!r}.")
        skill = hero.get("skill")
        if skill is None:
            continue
        if not isinstance(skill, dict):
            problems.append(f"{where}: 'skill' is null or an object with 'when' and 'effect'.")
            continue
        for name in skill:
            if name not in ("name", "name_ja", "text", "when", "effect"):
                problems.append(f"{where}, skill: unknown key {name!r}.")
        problems += _text_problems(skill, f"{where}, skill", ("name", "name_ja", "text"))
        when = skill.get("when")
        if when not in SKILL_TIMINGS:
            problems.append(
                f"{where}, skill: 'when' must be one of {', '.join(SKILL_TIMINGS)}, not {when!r}."
            )
            continue
        if "effect" not in skill:
            problems.append(f"{where}, skill: 'effect' is missing.")
            continue
        problems += _effect_problems(skill["effect"], f"{where}, skill", in_skill=True, when=when)
    return problems


def _compile_steps(effect: list[dict]) -> tuple[Step, ...]:
    return tuple(
        Step(step["kind"], tuple((name, step[name]) for name in STEP_KINDS[step["kind"]]))
        for step in effect
    )


def effect_set_from_data(data: object, *, where: str = "The effect set") -> EffectSet:
    """Return the effect set the data describes, or raise EffectSetError listing every problem."""
    problems = effect_set_problems(data)
    if problems:
        raise EffectSetError(problems, where)
    assert isinstance(data, dict)
    playbook = [()] + [_compile_steps(data["playbook"][str(n)]["effect"]) for n in NUMBERS]
    heroes = []
    for hero in data["heroes"]:
        skill = hero.get("skill")
        heroes.append(
            Hero(
                hero["jersey"],
                hero["name"],
                hero.get("kick", 0),
                None
                if skill is None
                else Skill(skill.get("name", ""), skill["when"], _compile_steps(skill["effect"])),
            )
        )
    heroes.sort(key=lambda h: h.jersey)
    return EffectSet(
        name=data["name"],
        label=data["label"],
        playbook=tuple(playbook),
        heroes=tuple(heroes),
        source=json.dumps(data, ensure_ascii=False, sort_keys=True),
    )


GUARANTEE_SKILL = "Minimum-kick guarantee"
GUARANTEE_SKILL_JA = "最低キック保証"


def guarantee_holders(count: int) -> tuple[int, ...]:
    """Return the positions (0..9, in jersey order) of the heroes that carry the guarantee skill
    when `count` of the ten carry it: spread evenly over the jersey order (HOUSE), so that the
    lowest jersey (the first lead, TD-SET-4) is not favoured: 1 -> the 6th, 2 -> the 3rd and 8th,
    5 -> every second from the 2nd, 10 -> all."""
    return tuple((2 * i + 1) * 10 // (2 * count) for i in range(count))


def with_guarantee(effects: EffectSet, count: int, ball: int) -> EffectSet:
    """Return the set with the draft's removed minimum-kick guarantee as a hero skill (TD-COMP-2,
    TD-KICK-1): `count` of the ten heroes (guarantee_holders) carry a kick-off skill "this random
    kick-off lands no nearer than `ball`" in place of their own skill; the others keep theirs.
    Used by turning the hero face down when its holder kicks off at random (effect kick_minimum);
    it never makes a kick onside and does not come back up unless an effect turns it up.
    The same set again gives the same set (a log's set read back)."""
    if not count:
        return effects
    data = effects.to_dict()
    suffix = f"+guarantee{count}@{ball}"
    if not data["name"].endswith(suffix):
        data["name"] += suffix
        data["label"] += f" + the minimum-kick guarantee (ball {ball}) as {count} heroes' skill"
    ordered = sorted(range(len(data["heroes"])), key=lambda i: data["heroes"][i]["jersey"])
    for position in guarantee_holders(count):
        hero = data["heroes"][ordered[position]]
        hero["skill"] = {
            "name": GUARANTEE_SKILL,
            "name_ja": GUARANTEE_SKILL_JA,
            "when": KICKOFF,
            "text": f"Turn this hero face down when you kick off at random: the ball lands "
            f"no nearer than {ball} (an onside kick stays onside).",
            "effect": [{"kind": "kick_minimum", "ball": ball}],
        }
    return effect_set_from_data(data, where=f"The set {effects.name} with the guarantee skill")


def load_effect_set(source: str | Path | dict | EffectSet) -> EffectSet:
    """Return an effect set: a shipped name ("none", "example"), a file path, data or a set."""
    if isinstance(source, EffectSet):
        return source
    if isinstance(source, dict):
        return effect_set_from_data(source)
    if isinstance(source, str) and source in SHIPPED:
        return _shipped(source)
    path = Path(source)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise EffectSetError([f"cannot read the file: {error.strerror}."], str(path)) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise EffectSetError(
            [f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}."], str(path)
        ) from None
    return effect_set_from_data(data, where=str(path))


_SHIPPED_CACHE: dict[str, EffectSet] = {}


def _shipped(name: str) -> EffectSet:
    if name not in _SHIPPED_CACHE:
        path = EFFECTS_DIR / f"{name}.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        _SHIPPED_CACHE[name] = effect_set_from_data(data, where=str(path))
    return _SHIPPED_CACHE[name]
