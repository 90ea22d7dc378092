"""A person at one seat with three bots, saved and rebuilt; a log as replay frames."""

import pytest

from play.touchdown import IllegalAction, Options, ReplayMismatch, play_game
from play.touchdown.actions import action_from_dict
from play.touchdown.session import HumanGame, replay_frames


def play_first_legal(game):
    while not game.view()["over"]:
        game.play_dict(game.view()["legal"][0])


def test_the_bots_play_until_the_persons_seat_must_decide():
    game = HumanGame(seed=3, options=Options(), seat=2)
    view = game.view()
    assert game.game.current_seat() == 2 and view["legal"]
    assert view["state"]["seats"][0]["hand"] is not None  # seats 0 and 1 have shown already
    assert view["state"]["seats"][1]["hand"] is None  # an opponent's hand stays hidden
    assert [seat["policy"] for seat in game.game.to_log()["seats"]] == [
        "greedy",
        "greedy",
        "human",
        "greedy",
    ]


def test_the_person_sees_the_cards_the_partner_showed():
    game = HumanGame(seed=5, options=Options(), seat=3)
    while game.view()["state"]["half"] == 1 and not game.view()["shown_to_me"]:
        game.play_dict(game.view()["legal"][0])
    shown = game.view()["shown_to_me"]
    partner_hand = game.view()["state"]["seats"][1]["hand"]
    assert len(shown) == 3 and set(partner_hand) <= set(shown)


def test_only_the_persons_legal_actions_are_accepted():
    game = HumanGame(seed=3, options=Options(), seat=0)
    other = dict(game.view()["legal"][0], seat=1)
    with pytest.raises(IllegalAction):
        game.play(action_from_dict(other))


def test_a_saved_game_is_rebuilt_from_its_actions_and_played_to_the_end():
    game = HumanGame(seed=8, options=Options(kick_floor=7), seat=1, bots="random")
    for _ in range(12):
        game.play_dict(game.view()["legal"][0])
    assert not game.view()["over"]
    saved = game.to_dict()
    again = HumanGame.from_dict(saved)
    assert again.to_dict() == saved
    assert again.view() == game.view()
    play_first_legal(again)
    assert again.game.result is not None
    tampered = dict(saved, actions=saved["actions"][:5] + [saved["actions"][7]])
    with pytest.raises(ReplayMismatch):
        HumanGame.from_dict(tampered)


def test_replay_frames_walk_the_log_step_by_step():
    log = play_game(Options(effects="example"), "greedy", 2).log
    frames = replay_frames(log)
    assert len(frames) == len(log["actions"]) + 1
    assert frames[0]["action"] is None and frames[1]["action"] == log["actions"][0]
    assert [e for frame in frames for e in frame["events"]] == log["events"]
    assert all(len(seat["hand"]) == seat["hand_count"] for seat in frames[10]["state"]["seats"])
    assert frames[-1]["state"]["score"] == log["result"]["score"]
    judged = [frame for frame in frames if frame["last_trick"]]
    assert judged and judged[-1]["last_trick"]["type"] in ("trick", "kick_play")
    with pytest.raises(ReplayMismatch):
        replay_frames({"format": "other"})


def test_the_table_model_draws_hands_trick_field_series_and_score():
    from play.touchdown.session import table_model

    frames = replay_frames(play_game(Options(), "greedy", 4).log)
    frame = next(f for f in frames if f["state"]["trick"] and f["state"]["ball"])
    model = table_model(
        frame["state"], last_trick=frame["last_trick"], shown=frame["state"]["shown"]
    )
    assert [len(seat["hand"]) for seat in model["seats"]] == [
        seat["hand_count"] for seat in frame["state"]["seats"]
    ]
    assert [sq["eagles"] for sq in model["field"]] == list(range(11, -1, -1))
    assert all(sq["eagles"] + sq["bears"] == 11 for sq in model["field"])
    offense = frame["state"]["offense"]
    assert [sq[offense] for sq in model["field"] if sq["ball"]] == [frame["state"]["ball"]]
    assert model["series"].count(True) == frame["state"]["series"]
    assert model["trick"][0]["colour"] in ("red", "blue", "yellow", "green")
    after = next(f for f in frames if not f["state"]["trick"] and f["last_trick"])
    judged = table_model(after["state"], last_trick=after["last_trick"])["judged"]
    assert judged["cards"]


def test_the_ball_keeps_its_square_when_possession_changes():  # TD-SERIES-1: 11 - its value
    from play.touchdown.session import table_model

    frames = replay_frames(play_game(Options(), "greedy", 4).log)
    state = next(f for f in frames if f["state"]["ball"])["state"]

    def ball_square(offense: str, ball: int) -> int:
        field = table_model({**state, "offense": offense, "ball": ball})["field"]
        return [index for index, sq in enumerate(field) if sq["ball"]][0]

    for value in range(1, 11):
        assert ball_square("eagles", value) == ball_square("bears", 11 - value)
    assert ball_square("eagles", 0) == 11 and ball_square("bears", 0) == 0  # the goal lines
