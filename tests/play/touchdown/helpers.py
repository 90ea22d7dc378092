"""Stacked deals and small helpers shared by the Touchdown Heroes tests."""

import json
from pathlib import Path

from play.touchdown import Follow, KickOff, Lead, Options, load_effect_set, play_game
from play.touchdown.game import FOLLOW, KICKOFF_CHOICE, LEAD
from play.touchdown.testing import play_shows, stacked_game

# Seats 0 and 2 are the Eagles, 1 and 3 the Bears. The pile is R6, B6, Y6, Y10.
DEAL = (
    ("R3", "R5", "B3", "B5", "Y3", "Y5", "G3", "G5", "G7"),
    ("R1", "R9", "B1", "B9", "Y1", "Y9", "G1", "G9", "G10"),
    ("R2", "R7", "B2", "B7", "Y2", "Y7", "G2", "G4", "G6"),
    ("R4", "R8", "R10", "B4", "B8", "B10", "Y4", "Y8", "G8"),
)
NONE_DATA = json.loads(
    (Path(__file__).resolve().parents[3] / "play/touchdown/effects/none.json").read_text()
)


def effect_data(playbook=None, heroes=None, name="test"):
    """Return effect-set data: the `none` set with some numbers' effects and heroes changed.

    `playbook` maps a number to its steps; `heroes` maps a jersey to a dict of hero fields."""
    data = json.loads(json.dumps(NONE_DATA))
    data["name"] = name
    data["label"] = "A test set"
    for number, steps in (playbook or {}).items():
        data["playbook"][str(number)]["effect"] = steps
    for hero in data["heroes"]:
        hero.update((heroes or {}).get(hero["jersey"], {}))
    return data


def options_with(playbook=None, heroes=None, **options):
    return Options(effects=load_effect_set(effect_data(playbook, heroes)), **options)


def started(hands=DEAL, *, heroes=(1, 2, 3, 4), rolls=(), options=None, kickoff="normal", **kwargs):
    """Return a stacked game past the shows and the first kick-off (the lead must play)."""
    game = stacked_game(hands, heroes=heroes, rolls=rolls, options=options or Options(), **kwargs)
    play_shows(game)
    if kickoff is not None and game.decision == KICKOFF_CHOICE:
        game.apply_action(KickOff(game.actor, kickoff))
    return game


def trick(game, lead, play, *follows):
    """The lead plays `lead` declaring `play`; then each follower in turn plays its card."""
    assert game.decision == LEAD
    game.apply_action(Lead(game.actor, lead, play))
    for card_id in follows:
        assert game.decision == FOLLOW, game.decision
        game.apply_action(Follow(game.actor, card_id))


def events(game, kind):
    return [event for event in game.events if event["type"] == kind]


def last(game, kind):
    return events(game, kind)[-1]


def step_first_legal(game):
    """Apply the first legal action that is not a kick play, a random kick-off or a skill."""
    action = next(
        a
        for a in game.legal_actions()
        if not (isinstance(a, Lead) and a.play == "kick")
        and type(a).__name__ != "UseSkill"
        and not (isinstance(a, KickOff) and a.kind == "random")
    )
    game.apply_action(action)


def play_first_legal(game, *, until_half=None):
    """Step with the first legal action until the game ends (or the given half starts)."""
    while game.decision is not None and (until_half is None or game.half < until_half):
        step_first_legal(game)


def direct(options, a, b, seeds):
    """Compute the head-to-head figures by hand: each seed with A as Eagles, then as Bears."""
    results, margins, a_random, b_random, kicks = [], [], 0, 0, 0
    onside, missed = [], []
    for seed in seeds:
        for seats, mine, theirs in (
            ((a, b, a, b), "eagles", "bears"),
            ((b, a, b, a), "bears", "eagles"),
        ):
            game = play_game(options, list(seats), seed, log=True)
            score = game.score
            results.append(0.5 if game.winner is None else float(game.winner == mine))
            margins.append(score[mine] - score[theirs])
            a_random += game.onside_attempts[mine]
            b_random += game.onside_attempts[theirs]
            kicks += sum(game.kickoffs[mine].values())
            # from the log: the kicking team's margin from each random kick-off to the half's end
            events = game.log["events"]
            score = {"eagles": 0, "bears": 0}
            for index, event in enumerate(events):
                if event["type"] == "score":
                    score = event["score"]
                if event["type"] != "kickoff" or event["choice"] != "random":
                    continue
                end = next(e for e in events[index:] if e["type"] == "half_end")["score"]
                before = score
                team = event["team"]
                other = "bears" if team == "eagles" else "eagles"
                swing = (end[team] - before[team]) - (end[other] - before[other])
                (onside if event["onside"] else missed).append(swing)
    games = len(results)
    return {
        "win_rate": sum(results) / games,
        "margin": sum(margins) / games,
        "random_share": a_random / kicks,
        "swing_per_random_kick": sum(margins) / (a_random - b_random),
        "onside_swing": sum(onside) / len(onside) - sum(missed) / len(missed),
        "games": games,
    }
