"""Seats, the deal, the shown cards, the lead, halftime and the end (TD-SET-1..5, TD-END-1/2)."""

from play.touchdown import SEATS, TEAM_OF, Options, ShowCards
from play.touchdown.cards import left, partner
from play.touchdown.game import KICKOFF_CHOICE, LEAD, SHOW
from play.touchdown.testing import play_shows, set_field, stacked_game

from .helpers import DEAL, events, last, play_first_legal, started, step_first_legal, trick


def test_partners_sit_opposite_and_left_is_the_next_seat_clockwise():  # TD-SET-1
    assert [partner(seat) for seat in SEATS] == [2, 3, 0, 1]
    assert [left(seat) for seat in SEATS] == [1, 2, 3, 0]
    assert TEAM_OF == ("eagles", "bears", "eagles", "bears")


def test_each_seat_gets_one_hero_and_nine_cards_and_four_cards_are_unused():  # TD-SET-2
    game = stacked_game(DEAL, heroes=(7, 2, 9, 4))
    start = last(game, "half_start")
    assert start["hands"] == [list(hand) for hand in DEAL]
    assert start["pile"] == ["R6", "B6", "Y6", "Y10"]
    assert start["heroes"] == [7, 2, 9, 4]
    assert sorted(start["heroes_out"]) == [1, 3, 5, 6, 8, 10]
    assert [len(game.hand(seat)) for seat in SEATS] == [9, 9, 9, 9]


def test_a_seeded_deal_uses_all_forty_cards_once():  # TD-SET-2
    from play.touchdown import Game

    start = Game.new(seed=42).events[0]
    dealt = [card for hand in start["hands"] for card in hand] + start["pile"]
    assert len(dealt) == len(set(dealt)) == 40
    assert len(start["heroes"]) == 4 and len(start["heroes_out"]) == 6


def test_each_seat_shows_three_cards_to_its_partner_only():  # TD-SET-3
    game = stacked_game(DEAL)
    assert (game.decision, game.actor) == (SHOW, 0)
    game.apply_action(ShowCards(0, ("G7", "R3", "B5")))
    play_shows(game)
    assert last(game, "show") == {"type": "show", "seat": 3, "to": 1, "cards": ["R4", "R8", "R10"]}
    assert events(game, "show")[0]["cards"] == ["R3", "B5", "G7"]  # kept in card order
    assert game.shown_to(2) == ("R3", "B5", "G7")  # seat 0's partner
    assert game.shown_to(1) == ("R4", "R8", "R10")
    view = game.snapshot(viewer=2)
    assert view["seats"][0]["hand"] == ["R3", "B5", "G7"]  # the partner sees what it was shown
    assert view["seats"][1]["hand"] is None and view["seats"][3]["hand"] is None
    assert view["seats"][2]["hand"] == list(DEAL[2])


def test_showing_cards_not_in_hand_or_not_three_is_refused():  # TD-SET-3
    game = stacked_game(DEAL)
    assert not game.is_legal(ShowCards(0, ("R3", "B5")))
    assert not game.is_legal(ShowCards(0, ("R3", "B5", "R1")))
    assert not game.is_legal(ShowCards(1, ("R1", "R9", "B1")))  # not seat 1's turn


def test_the_lowest_jersey_leads_and_its_pair_is_the_offense():  # TD-SET-4
    game = stacked_game(DEAL, heroes=(5, 2, 9, 7))
    play_shows(game)
    assert last(game, "lineup") == {"type": "lineup", "half": 1, "lead": 1, "offense": "bears"}
    assert (game.decision, game.actor) == (KICKOFF_CHOICE, 2)  # the defense kicks


def second_half(heroes):
    game = started(
        options=Options(kickoffs="normal_only"), kickoff=None, second_half=(DEAL, heroes)
    )
    play_first_legal(game, until_half=2)
    play_shows(game)
    return game


def test_the_second_half_reverses_offense_and_moves_a_defense_lead_left():  # TD-SET-5
    game = second_half((1, 2, 3, 4))  # seat 0 (Eagles) has the lowest jersey again
    assert last(game, "lineup") == {"type": "lineup", "half": 2, "lead": 1, "offense": "bears"}
    assert last(game, "kickoff")["kicker"] == 2


def test_the_second_half_keeps_a_lead_that_is_already_with_the_offense():  # TD-SET-5
    game = second_half((5, 2, 9, 7))  # seat 1 (Bears) has the lowest jersey
    assert last(game, "lineup") == {"type": "lineup", "half": 2, "lead": 1, "offense": "bears"}


def test_halftime_reshuffles_and_deals_heroes_and_cards_again():  # TD-END-1
    game = second_half((5, 2, 9, 7))
    starts = events(game, "half_start")
    assert [s["half"] for s in starts] == [1, 2]
    assert starts[1]["heroes"] == [5, 2, 9, 7]
    assert [len(game.hand(seat)) for seat in SEATS] == [9, 9, 9, 9]
    assert game.hero_up == [True, True, True, True]
    assert len(events(game, "show")) == 8


def test_a_half_ends_when_the_lead_has_no_card():  # TD-END-1 (HOUSE)
    game = started(options=Options(kickoffs="normal_only"), kickoff=None)
    play_first_legal(game, until_half=2)
    at = next(i for i, e in enumerate(game.events) if e["type"] == "half_end")
    end, before = game.events[at], game.events[at - 1]
    assert end["unfinished_trick"] == []
    assert len(events(game, "trick")) == 9
    if before["type"] == "possession" and before["ball"] is None:
        assert end["seat"] is None  # HOUSE: no kick-off when every hand is empty
    else:
        assert end["seat"] == before["lead"]


def test_no_kick_off_is_taken_when_every_hand_is_empty():  # TD-END-1 (HOUSE)
    game = started(options=Options(kickoffs="normal_only"), kickoff=None)
    while not (game.decision == LEAD and all(len(game.hand(s)) == 1 for s in SEATS)):
        step_first_legal(game)
    lowest = min(SEATS, key=lambda s: game.hand(s)[0].number)  # its led card takes the trick
    set_field(game, ball=1, lead=lowest, offense=TEAM_OF[lowest])
    trick(
        game,
        game.hand(lowest)[0].id,
        "pass",
        *[game.hand((lowest + k) & 3)[0].id for k in (1, 2, 3)],
    )
    assert last(game, "score")["kind"] == "touchdown"
    assert events(game, "half_end")[0]["seat"] is None
    assert game.half == 2 and game.decision == SHOW


def test_a_half_ends_when_a_follower_has_no_card_and_the_trick_is_void():  # TD-END-1 (HOUSE)
    game = started(rolls=[1], options=Options(kickoffs="normal_only"), kickoff=None)
    trick(game, "G7", "kick")  # only the led card is spent: seat 0 now holds one card less
    play_first_legal(game, until_half=2)
    end = events(game, "half_end")[0]
    assert end["seat"] == 0
    assert [len(hand) for hand in last(game, "half_start")["hands"]] == [9, 9, 9, 9]


def test_the_higher_total_wins_and_equal_totals_draw():  # TD-END-2
    game = started(
        options=Options(kickoffs="normal_only"), kickoff=None, second_half=(DEAL, (1, 2, 3, 4))
    )
    play_first_legal(game)
    end = last(game, "game_end")
    eagles, bears = end["score"]["eagles"], end["score"]["bears"]
    expected = None if eagles == bears else "eagles" if eagles > bears else "bears"
    assert end["winner"] == expected
    assert game.is_terminal() and game.current_seat() is None and game.legal_actions() == []


def test_the_lead_must_play_when_the_kick_off_is_done():  # TD-PLAY-1
    game = started()
    assert (game.decision, game.actor) == (LEAD, 0)
