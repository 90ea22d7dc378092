"""A person plays a goldfish half and watches a replay in headless Chromium."""

import os

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC

from catalog.services import catalog_load
from decks.models import Deck
from decks.services import deck_copy
from play.engine import play_match
from play.engine.testing import sample_side_deck
from play.models import MatchLog, SoloGame
from play.solo import services as solo
from tests.browser_waits import browser_wait, page_replaced
from tests.play.solo.helpers import play_to_full_time

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAX_STEPS = 400


def log_in(browser, live_server, user):
    """Give the browser a session of `user` (the login form is tested elsewhere)."""
    client = Client()
    client.force_login(user)
    browser.get(live_server.url + "/static/css/play.css")
    browser.add_cookie(
        {
            "name": settings.SESSION_COOKIE_NAME,
            "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
            "path": "/",
        }
    )


def region(browser):
    return browser.find_element(By.ID, "solo-game")


def decision(browser) -> str:
    return current(browser)[1]


def current(browser):
    """Return the game region and its decision, read together (a bot's timer may swap it)."""
    return browser.execute_script(
        "var r = document.getElementById('solo-game'); return [r, r.dataset.decision];"
    )


def act(browser, wait, click):
    """Click, then wait until htmx has swapped in a new game region."""
    old = region(browser)
    click()
    wait.until(page_replaced(old))
    wait.until(EC.presence_of_element_located((By.ID, "solo-game")))


def skip_bot_step(browser, wait, old):
    """Press "skip" on a bot's pending step; its own timer may move first, which is as good."""
    try:
        old.find_element(By.CSS_SELECTOR, '[data-action="skip"]').click()
    except (StaleElementReferenceException, NoSuchElementException):
        pass  # the region was swapped by the bot's timed move before the click
    wait.until(page_replaced(old))
    wait.until(EC.presence_of_element_located((By.ID, "solo-game")))


def select_cards(browser) -> bool:
    """Click every card the page lets us add; return whether a blocked card explained itself."""
    explained = False
    for pick in browser.find_elements(By.CSS_SELECTOR, ".card-pick"):
        if "blocked" not in pick.get_attribute("class"):
            pick.click()
    for pick in browser.find_elements(By.CSS_SELECTOR, ".card-pick.blocked"):
        pick.click()  # the page refuses it and says why (R-PLAY-2)
        assert not pick.find_element(By.TAG_NAME, "input").is_selected()
        reason = browser.find_element(By.CSS_SELECTOR, "[data-limit-reason]").text
        assert "can't be added" in reason and "R-PLAY-2" in reason
        explained = True
    return explained


def midfield_defense(browser) -> bool:
    """Return whether the decision is a defense timing in a turn without a shot."""
    side = browser.find_element(By.CSS_SELECTOR, ".side-A")
    shot = browser.find_element(By.CSS_SELECTOR, ".pitch").get_attribute("data-shot")
    if "role-defense" not in side.get_attribute("class") or shot != "false":
        return False
    hint = browser.find_element(By.CSS_SELECTOR, "[data-hint=take-back]").text
    assert "take the ball back" in hint and "R-JUDGE-5" in hint
    return True


def won_the_ball_back(browser, name: str) -> bool:
    """Return whether what just happened includes the player winning the ball at a keep judgment."""
    lines = browser.execute_script(
        "return Array.from(document.querySelectorAll('.recent .ev-judge.tone-swap'))"
        ".map(function (li) { return li.textContent; });"
    )
    return any(f"{name} wins the ball" in line for line in lines)


def board_shot(browser, screenshot_dir, name):
    board = browser.find_element(By.ID, "board")
    browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", board)
    board.screenshot(os.path.join(screenshot_dir, name))


def test_playing_a_goldfish_half_by_clicking_legal_actions(live_server, browser, screenshot_dir):
    catalog_load()
    alice = get_user_model().objects.create_user("alice", "alice@example.com", "correct-horse-1")
    sample = Deck.objects.filter(is_sample=True).order_by("slug").last()
    deck = deck_copy(deck=sample, owner=alice)
    log_in(browser, live_server, alice)
    wait = browser_wait(browser, 15)

    browser.get(f"{live_server.url}/play/?deck={deck.slug}")
    assert browser.find_element(By.CSS_SELECTOR, "input[name=mode][value=goldfish]").is_selected()
    browser.find_element(By.CSS_SELECTOR, "form.solo-start details summary").click()
    browser.find_element(By.NAME, "seed").send_keys("2")
    browser.find_element(By.CSS_SELECTOR, "form.solo-start button[type=submit]").click()
    wait.until(EC.presence_of_element_located((By.ID, "solo-game")))
    game = SoloGame.objects.get(owner=alice)
    assert browser.current_url.endswith(game.get_absolute_url())
    assert len(browser.find_elements(By.CSS_SELECTOR, ".pitch .zone")) == 5
    board_shot(browser, screenshot_dir, "play-kickoff.png")

    limit_explained = False
    seen_auto_bot_step = False
    shot_taken = False
    reloaded = False
    defended = took_ball_back = False
    for step in range(MAX_STEPS):
        shown, state = current(browser)
        if state.startswith("halftime_swaps"):
            break
        took_ball_back |= won_the_ball_back(browser, deck.name)
        # Mid-game, at the player's own decision (a bot's pending step moves by itself on a
        # timer, which could land between reading the revision and the reload): a reload
        # resumes the very same position.
        if step >= 25 and not reloaded and state.endswith(":mine"):
            revision = region(browser).get_attribute("data-revision")
            hand = [
                e.get_attribute("data-card")
                for e in browser.find_elements(By.CSS_SELECTOR, ".side-A .hand .card-tile")
            ]
            browser.refresh()
            wait.until(EC.presence_of_element_located((By.ID, "solo-game")))
            assert region(browser).get_attribute("data-revision") == revision
            assert hand == [
                e.get_attribute("data-card")
                for e in browser.find_elements(By.CSS_SELECTOR, ".side-A .hand .card-tile")
            ]
            reloaded = True
            continue
        if not state.endswith(":mine"):
            if not seen_auto_bot_step:  # let the pause run out once: the bot moves by itself
                wait.until(page_replaced(shown))
                wait.until(EC.presence_of_element_located((By.ID, "solo-game")))
                seen_auto_bot_step = True
            else:
                skip_bot_step(browser, wait, shown)
            continue
        if state == "play_cards:mine":
            defended |= midfield_defense(browser)
            limit_explained |= select_cards(browser)
            chosen = browser.find_elements(By.CSS_SELECTOR, ".card-pick input:checked")
            players = [c for c in chosen if c.get_attribute("data-kind") == "player"]
            budget = int(
                browser.find_element(By.CSS_SELECTOR, ".budget").get_attribute("data-budget")
            )
            assert len(players) <= budget
            act(browser, wait, browser.find_element(By.CSS_SELECTOR, '[data-action="play"]').click)
        elif state == "shot:mine":
            act(browser, wait, browser.find_element(By.CSS_SELECTOR, '[data-action="shoot"]').click)
            if not shot_taken:
                assert browser.find_element(By.CSS_SELECTOR, ".shot-flag").is_displayed()
                board_shot(browser, screenshot_dir, "play-shot.png")
                browser.set_window_size(390, 1200)
                browser.save_screenshot(os.path.join(screenshot_dir, "play-shot-390.png"))
                browser.set_window_size(1280, 900)
                shot_taken = True
        elif state == "goal_kick:mine":
            act(
                browser,
                wait,
                browser.find_element(By.CSS_SELECTOR, '[data-action="penalty_zone"]').click,
            )
        else:
            raise AssertionError(f"unexpected decision {state}")
    else:
        raise AssertionError("the half did not end")

    assert reloaded and shot_taken and seen_auto_bot_step and limit_explained
    # R-PLAY-4 (passes): the goldfish plays nothing, the player defends in midfield turns and,
    # ahead on keep, wins the ball back (R-JUDGE-5).
    assert defended and took_ball_back
    assert "over" in browser.find_element(By.CSS_SELECTOR, ".recent").text
    browser.save_screenshot(os.path.join(screenshot_dir, "play-halftime.png"))
    game.refresh_from_db()
    assert all(a["side"] in ("A", "B") for a in game.actions)
    assert game.status == SoloGame.Status.PLAYING


def test_a_replay_steps_to_its_first_goal(live_server, browser, screenshot_dir):
    catalog_load()
    alice = get_user_model().objects.create_user("alice", "alice@example.com", "correct-horse-1")
    for seed in range(20):
        log = play_match(
            sample_side_deck(seed),
            sample_side_deck(seed + 1),
            policy_a="greedy",
            policy_b="random",
            seed=seed,
        ).log
        if any(e["type"] == "goal" for e in log["events"]):
            break
    first_goal = next(i for i, e in enumerate(log["events"]) if e["type"] == "goal")
    scorer = log["events"][first_goal]["side"]
    saved = MatchLog.objects.create(owner=alice, source="upload", title="Replay test", log=log)
    log_in(browser, live_server, alice)
    wait = browser_wait(browser, 15)
    browser.get(f"{live_server.url}/replays/{saved.share_token}/")
    wait.until(lambda b: b.execute_script("return !!window.elevenStarsReplay"))
    now = browser.find_element(By.CSS_SELECTOR, "[data-now]")
    board_shot(browser, screenshot_dir, "replay-start.png")

    body = browser.find_element(By.TAG_NAME, "body")
    for _ in range(3):
        browser.find_element(By.CSS_SELECTOR, '[data-go="next"]').click()
    assert browser.execute_script("return window.elevenStarsReplay.position") == 3
    browser.find_element(By.CSS_SELECTOR, '[data-go="prev"]').click()
    assert browser.execute_script("return window.elevenStarsReplay.position") == 2

    body.send_keys("g")  # jump to the next goal
    wait.until(
        lambda b: b.execute_script("return window.elevenStarsReplay.position") == first_goal + 1
    )
    assert "GOAL" in now.text
    score = browser.find_element(By.CSS_SELECTOR, f'[data-bind="score-{scorer}"]').text
    assert score == "1"
    assert browser.find_element(By.CSS_SELECTOR, ".replay-events li.current").get_attribute(
        "data-i"
    ) == str(first_goal)
    board_shot(browser, screenshot_dir, "replay-goal.png")
    browser.set_window_size(390, 1400)
    browser.save_screenshot(os.path.join(screenshot_dir, "replay-goal-390.png"))
    browser.set_window_size(1280, 900)

    body.send_keys(Keys.ARROW_LEFT)  # one step back: before the goal
    assert browser.execute_script("return window.elevenStarsReplay.position") == first_goal
    assert browser.find_element(By.CSS_SELECTOR, f'[data-bind="score-{scorer}"]').text == "0"


def test_a_long_replay_fetches_its_other_windows_as_it_steps(live_server, browser):
    """Issue #12: the page holds one window of events; End, jumps and Back fetch the others."""
    from play.replays.steps import REPLAY_WINDOW

    catalog_load()
    alice = get_user_model().objects.create_user("alice", "alice@example.com", "correct-horse-1")
    log = play_match(
        sample_side_deck(3), sample_side_deck(53), policy_a="greedy", policy_b="greedy", seed=3
    ).log
    total = len(log["events"])
    assert total > 2 * REPLAY_WINDOW
    goals = log["result"]["goals"]
    saved = MatchLog.objects.create(owner=alice, source="upload", title="Long replay", log=log)
    log_in(browser, live_server, alice)
    wait = browser_wait(browser, 15)
    browser.get(f"{live_server.url}/replays/{saved.share_token}/")
    wait.until(lambda b: b.execute_script("return !!window.elevenStarsReplay"))

    def position():
        return browser.execute_script("return window.elevenStarsReplay.position")

    def listed():
        items = browser.find_elements(By.CSS_SELECTOR, ".replay-events li")
        return int(items[0].get_attribute("data-i")), len(items)

    assert listed() == (0, REPLAY_WINDOW)
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.END)
    wait.until(lambda b: position() == total)
    last_start = (total - 1) // REPLAY_WINDOW * REPLAY_WINDOW
    assert listed() == (last_start, total - last_start)
    for side in "AB":
        shown = browser.find_element(By.CSS_SELECTOR, f'[data-bind="score-{side}"]').text
        assert shown == str(goals[side])
    assert "Full time" in browser.find_element(By.CSS_SELECTOR, "[data-now]").text
    current = browser.find_element(By.CSS_SELECTOR, ".replay-events li.current")
    assert current.get_attribute("data-i") == str(total - 1)
    # One step back into the previous window at its edge, then forward again.
    browser.execute_script(f"window.elevenStarsReplay.go({last_start})")
    wait.until(lambda b: position() == last_start)
    assert listed()[0] == last_start - REPLAY_WINDOW
    body.send_keys(Keys.ARROW_RIGHT)
    wait.until(lambda b: position() == last_start + 1)
    assert listed()[0] == last_start
    body.send_keys(Keys.HOME)
    wait.until(lambda b: position() == 0)
    assert listed() == (0, REPLAY_WINDOW)
    assert browser.find_element(By.CSS_SELECTOR, '[data-bind="score-B"]').text == "0"
    fetched = browser.execute_script("return Object.keys(window.elevenStarsReplay.windows).length")
    assert 2 <= fetched < total / REPLAY_WINDOW + 1  # never the whole log at once


def press(browser, *keys):
    """Type keys into whatever has the focus, as a person at the keyboard does."""
    ActionChains(browser).send_keys(*keys).perform()


def press_and_wait(browser, wait, *keys):
    """Press keys that make a move, then wait for the new game region."""
    old = region(browser)
    press(browser, *keys)
    wait.until(page_replaced(old))
    wait.until(EC.presence_of_element_located((By.ID, "solo-game")))


def focus_in_help(browser) -> bool:
    return browser.execute_script(
        "return document.getElementById('solo-help').contains(document.activeElement)"
    )


def log_choice(browser) -> str:
    return browser.execute_script(
        "var list = document.getElementById('event-list'); return list && list.dataset.log;"
    )


def test_playing_a_goldfish_half_with_the_keyboard_only(live_server, browser, screenshot_dir):
    catalog_load()
    alice = get_user_model().objects.create_user("alice", "alice@example.com", "correct-horse-1")
    sample = Deck.objects.filter(is_sample=True).order_by("slug").last()
    deck = deck_copy(deck=sample, owner=alice)
    game = solo.solo_start(owner=alice, deck=deck, mode="goldfish", seed=2).game
    log_in(browser, live_server, alice)
    wait = browser_wait(browser, 15)
    browser.get(live_server.url + game.get_absolute_url())
    wait.until(EC.presence_of_element_located((By.ID, "solo-game")))

    # "?" opens the help: focus moves in and stays in (Tab, Shift+Tab), Esc closes it.
    press(browser, "?")
    help_dialog = browser.find_element(By.ID, "solo-help")
    wait.until(lambda b: help_dialog.get_attribute("open") is not None)
    assert focus_in_help(browser)
    assert "Skip the opponent's moves" in help_dialog.text
    browser.save_screenshot(os.path.join(screenshot_dir, "play-keys-help.png"))
    for _ in range(3):
        press(browser, Keys.TAB)
        assert focus_in_help(browser)
    ActionChains(browser).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
    assert focus_in_help(browser)
    press(browser, Keys.ESCAPE)
    wait.until(lambda b: help_dialog.get_attribute("open") is None)

    kinds = set()
    moved_in_hand = filtered = taken_back = False
    for step in range(MAX_STEPS):
        old, state = current(browser)
        if state.startswith("halftime_swaps"):
            break
        if not state.endswith(":mine"):
            press(browser, " ")  # skip to my decision (the goldfish's own timer may move first)
            wait.until(page_replaced(old))
            wait.until(EC.presence_of_element_located((By.ID, "solo-game")))
            continue
        kinds.add(state)
        if step > 5 and not filtered:  # L shows the next kind of log lines, kept after moves
            press(browser, "l")
            wait.until(lambda b: log_choice(b) == "goals")
            filtered = True
            continue
        if (
            filtered
            and not taken_back
            and 'data-action="undo"' in region(browser).get_attribute("innerHTML")
        ):
            before = len(SoloGame.objects.get(pk=game.pk).actions)
            press_and_wait(browser, wait, "u")
            assert len(SoloGame.objects.get(pk=game.pk).actions) < before
            assert log_choice(browser) == "goals"
            for value in ("shots", "mine", "all"):
                press(browser, "l")
                wait.until(lambda b, v=value: log_choice(b) == v)
            taken_back = True
            continue
        if state == "play_cards:mine":
            picks = browser.find_elements(By.CSS_SELECTOR, ".card-pick input")
            if not moved_in_hand and len(picks) >= 2:
                press(browser, "1")
                press(browser, Keys.ARROW_RIGHT, " ")  # the second card, by arrow and Space
                assert picks[1].is_selected() and browser.switch_to.active_element == picks[1]
                press(browser, "2")  # unselect it again by its number
                assert not picks[1].is_selected()
                moved_in_hand = True
                press_and_wait(browser, wait, Keys.ENTER)
            elif step % 3 == 0:
                press_and_wait(browser, wait, "0")
            else:
                press(browser, "1")
                press_and_wait(browser, wait, Keys.ENTER)
        elif state == "shot:mine":
            press_and_wait(browser, wait, "s")
        elif state == "goal_kick:mine":
            press_and_wait(browser, wait, "p")
        else:
            raise AssertionError(f"unexpected decision {state}")
    else:
        raise AssertionError("the half did not end")

    assert moved_in_hand and filtered and taken_back
    assert "play_cards:mine" in kinds and "shot:mine" in kinds
    browser.save_screenshot(os.path.join(screenshot_dir, "play-keys-halftime.png"))
    game.refresh_from_db()
    assert solo.solo_match(game).match.decision == "halftime_swaps"
    # At halftime: 0 keeps the deck, Enter starts the second half (after the goldfish's choice).
    press(browser, "0")
    press_and_wait(browser, wait, Keys.ENTER)
    wait.until(lambda b: b.execute_script(HALF_SHOWN) == "2nd half")


DECISION_SHOWN = "var r = document.getElementById('solo-game'); return r ? r.dataset.decision : '';"
HALF_SHOWN = "var h = document.querySelector('[data-bind=half]'); return h && h.textContent.trim();"


def test_after_full_time_keys_take_back_and_play_again(live_server, browser):
    catalog_load()
    alice = get_user_model().objects.create_user("alice", "alice@example.com", "correct-horse-1")
    sample = Deck.objects.filter(is_sample=True).order_by("slug").last()
    deck = deck_copy(deck=sample, owner=alice)
    game = solo.solo_start(owner=alice, deck=deck, mode="goldfish", seed=4).game
    play_to_full_time(game)
    log_in(browser, live_server, alice)
    wait = browser_wait(browser, 15)
    browser.get(live_server.url + game.get_absolute_url())
    replay = browser.find_element(By.CSS_SELECTOR, '[data-action="replay"]')
    assert replay.get_attribute("href").endswith(f"/replays/{game.log.share_token}/")

    press_and_wait(browser, wait, "u")  # take back the last decision, after full time
    assert decision(browser).endswith(":mine")
    game.refresh_from_db()
    assert game.status == SoloGame.Status.PLAYING
    play_to_full_time(game)
    browser.refresh()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, '[data-action="again"]')))

    press(browser, "n")  # play again with the same shuffle: a new game opens
    wait.until(lambda b: not b.current_url.endswith(game.get_absolute_url()))
    wait.until(EC.presence_of_element_located((By.ID, "solo-game")))
    wait.until(lambda b: b.execute_script(DECISION_SHOWN).endswith(":mine"))  # goldfish done
    fresh = SoloGame.objects.exclude(pk=game.pk).get(owner=alice)
    assert browser.current_url.endswith(fresh.get_absolute_url())
    assert (fresh.seed, fresh.sides) == (game.seed, game.sides)
    assert all(a["side"] == "B" for a in fresh.actions)  # only the goldfish has moved yet
