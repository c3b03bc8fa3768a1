"""The round clock in real Chromium: it counts down by itself from the server's end
time, also on a device whose own clock is wrong, turns to the warning colour in the last minutes
and says "Runde beendet" at zero; the organiser starts and pauses it from the live overview with
big buttons; nothing breaks the Content-Security-Policy. Screenshots go to
``test-results/clock/`` (``make screenshots``)."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from scoring import services
from scoring.models import Evening, Round, Table
from tests.browser.helpers import screenshot

pytestmark = pytest.mark.browser


def _page(browser, width: int, height: int, skew_ms: int = 0):
    """A page whose clock is Playwright's (``page.clock``): it shows this device's time, wrong by
    ``skew_ms``, and runs by itself; a test moves it on with ``page.clock.run_for`` instead of
    waiting for seconds to pass."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale="de-DE")
    context.set_default_timeout(15_000)
    context.clock.install(time=time.time() + skew_ms / 1000)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return page, problems


def _seconds(text: str) -> int:
    minutes, seconds = re.fullmatch(r"(\d+):(\d\d)", text.strip()).groups()
    return int(minutes) * 60 + int(seconds)


def _drawn(evening) -> Round:
    services.draw_session(evening=evening, seed=1)
    return Round.objects.get(session__evening=evening, session__number=1, number=1)


def test_the_clock_counts_down_warns_and_says_round_over_even_on_a_wrong_device_clock(
    live_server, browser, transactional_db, roster_evening
):
    round_1 = _drawn(roster_evening)
    services.start_round_clock(evening_id=roster_evening.pk, round_id=round_1.pk)
    # A phone whose clock is ten minutes fast, and one that is ten minutes slow: both show the
    # server's six seconds, not "over" at once or sixteen minutes.
    for skew in (10 * 60_000, -10 * 60_000):
        Evening.objects.filter(pk=roster_evening.pk).update(
            clock_status="running", clock_ends_at=timezone.now() + timedelta(seconds=6)
        )
        page, problems = _page(browser, 360, 640, skew_ms=skew)
        page.goto(f"{live_server.url}/abend/{roster_evening.pk}/platz/")
        clock = page.get_by_test_id("round-clock")
        expect(clock).to_be_visible()
        expect(clock).to_contain_text("Durchgang 1 · Runde 1")
        left = _seconds(clock.locator("[data-clock-time]").inner_text())
        assert 0 < left <= 6, (skew, left)
        expect(clock).to_have_class(re.compile(r"\bwarning\b"))  # the last minutes
        if skew > 0:
            screenshot(page, "clock", "seat-finder-360x640-warning")
        page.clock.run_for(7_000)  # the server's six seconds pass on this device
        expect(clock).to_contain_text("Runde beendet")
        expect(clock).to_have_class(re.compile(r"\bended\b"))
        assert clock.locator("[data-clock-time]").inner_text() == "00:00"
        if skew > 0:
            screenshot(page, "clock", "seat-finder-360x640-over")
        assert not problems, problems
        page.context.close()


def test_the_tablet_shows_the_same_clock_small(live_server, browser, transactional_db, roster_evening):
    round_1 = _drawn(roster_evening)
    services.start_round_clock(evening_id=roster_evening.pk, round_id=round_1.pk)
    table = Table.objects.get(evening=roster_evening, number=1)
    page, problems = _page(browser, 800, 1280)
    page.goto(f"{live_server.url}/t/{table.token}/")
    clock = page.get_by_test_id("round-clock")
    first = _seconds(clock.locator("[data-clock-time]").inner_text())
    assert 28 * 60 < first <= 30 * 60
    page.clock.run_for(2_200)
    assert _seconds(clock.locator("[data-clock-time]").inner_text()) < first  # it ticks by itself
    screenshot(page, "clock", "tablet-800x1280")
    assert not problems, problems
    page.context.close()


def test_the_organiser_starts_and_pauses_the_clock_on_the_live_overview(
    live_server, browser, transactional_db, roster_evening, organiser
):
    _drawn(roster_evening)
    client = Client()
    client.force_login(organiser)
    page, problems = _page(browser, 1280, 900)
    login = client.cookies["sessionid"].value
    page.context.add_cookies([{"name": "sessionid", "value": login, "url": live_server.url}])
    page.goto(f"{live_server.url}/organiser/abende/{roster_evening.pk}/live/")
    start = page.get_by_test_id("clock-start")
    expect(start).to_contain_text("Runde 1 starten")
    box = start.bounding_box()
    assert box["height"] >= 48 and box["width"] >= 48  # a big button
    start.click()
    panel = page.get_by_test_id("clock-panel")
    expect(panel.get_by_test_id("round-clock")).to_contain_text(re.compile(r"(30:00|29:5\d)"))
    screenshot(page, "clock", "live-1280x900-running")
    page.get_by_test_id("clock-pause").click()
    expect(panel.get_by_test_id("round-clock")).to_contain_text("Angehalten")
    expect(page.get_by_test_id("clock-resume")).to_be_visible()
    assert Evening.objects.get(pk=roster_evening.pk).clock_status == "paused"
    page.get_by_test_id("clock-extend").click()  # five minutes more, shown paused
    expect(panel.get_by_test_id("round-clock")).to_contain_text(re.compile(r"3[45]:\d\d"))
    assert not [p for p in problems if "Content Security Policy" in p or "Refused" in p], problems
    page.context.close()
