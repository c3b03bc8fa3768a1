"""The organiser's desk in real Chromium: check-in in a minute, and screens that are clean
at 360x640, 800x1280 and 1280x900. Screenshots for a person to look at: test-results/desk/
(``make screenshots``)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, Page, expect

from scoring import services
from scoring.models import Participant, Player
from tests.browser.helpers import screenshot, settle
from tests.conftest import ROSTER

pytestmark = pytest.mark.browser

SIZES = {"phone": (360, 640), "tablet": (800, 1280), "laptop": (1280, 900)}
TIMEOUT_MS = 15_000


def open_page(browser: Browser, live_server, user=None, size=(1280, 900), language="de") -> Page:
    """A page at ``size``, logged in as ``user`` (None: no login)."""
    width, height = size
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=True, is_mobile=width < 500, locale=f"{language}-DE"
    )
    context.set_default_timeout(TIMEOUT_MS)
    cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    if user is not None:
        client = Client()
        client.force_login(user)
        value = client.cookies[settings.SESSION_COOKIE_NAME].value
        cookies.append({"name": settings.SESSION_COOKIE_NAME, "value": value, "url": live_server.url})
    context.add_cookies(cookies)
    return context.new_page()


def shoot(page: Page, name: str) -> None:
    size = page.viewport_size
    screenshot(page, "desk", f"{name}-{size['width']}x{size['height']}", full_page=True)


def in_first_screen(page: Page, selector: str) -> bool:
    """Whether the element lies wholly inside the window as the page opens (no scrolling)."""
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def roster() -> None:
    from scoring.transfer.player_files import parse_player_file

    services.import_players(parse_player_file(ROSTER.read_bytes(), ROSTER.name).players)


# --- Point 3: check-in in a minute -------------------------------------------------------------


@pytest.mark.parametrize("size", list(SIZES), ids=[f"{k}-{w}x{h}" for k, (w, h) in SIZES.items()])
def test_check_in_a_whole_register_and_draw_in_three_taps(live_server, browser, transactional_db, organiser, size):
    from datetime import date

    roster()
    evening = services.create_evening(name="Schwesinger Bruus-Abend Herbst", date=date(2026, 11, 21))
    page = open_page(browser, live_server, organiser, SIZES[size])
    try:
        page.goto(f"{live_server.url}/organiser/abende/{evening.pk}/spieler/")
        assert page.locator("#draw").count() == 0  # nobody present: no draw yet
        shoot(page, "check-in-empty")
        # "Alle anwesend" without scrolling on the tablet and the laptop (on a phone: after the menu)
        assert in_first_screen(page, "#quick button") or size == "phone"
        page.get_by_role("button", name="Alle anwesend").click()
        expect(page.locator(".messages")).to_contain_text("26 Spieler jetzt als anwesend eingetragen.")
        assert Participant.objects.filter(evening=evening, checked_in=True).count() == Player.objects.count() == 26
        assert in_first_screen(page, "#draw button") or size == "phone"  # the draw where the check-in ends
        shoot(page, "check-in-everyone")
        page.get_by_role("button", name="Rückgängig: 26 Spieler wieder abmelden").click()
        expect(page.locator(".messages")).to_contain_text("Rückgängig gemacht: 26 Spieler wieder abgemeldet.")
        assert Participant.objects.filter(evening=evening, checked_in=True).count() == 0
        page.get_by_role("button", name="Alle anwesend").click()
        page.get_by_role("button", name="Durchgang 1 auslosen").click()  # waits until the page has it
        page.wait_for_url("**/durchgang/1/")
        assert evening.sessions.count() == 1

        # A late arrival: told he has no seat, with the link to the swap.
        page.goto(f"{live_server.url}/organiser/abende/{evening.pk}/spieler/")
        page.locator("form.row input[name=name]").fill("Hinnerk Spätkommer")
        page.locator("form.row button.primary").click()
        expect(page.locator(".messages")).to_contain_text("Durchgang 1 ist ohne Hinnerk Spätkommer ausgelost")
        assert page.locator("#unseated").is_visible()
        shoot(page, "check-in-late-arrival")
        page.locator(".messages a").click()
        page.wait_for_url("**/durchgang/1/#changes")
        assert page.locator("#changes select[name=player_b] option", has_text="Hinnerk Spätkommer").count() == 1
    finally:
        page.context.close()


# --- Point 4: the tablet -------------------------------------------------------------------------


@pytest.mark.parametrize("size", list(SIZES), ids=[f"{k}-{w}x{h}" for k, (w, h) in SIZES.items()])
def test_tablet_common_deal_without_scrolling(live_server, browser, transactional_db, size):
    """At every size (a phone too): tap a team, and "Spiel speichern" is on the screen (the common
    deal: a team wins, no bonus); the team names on the buttons at least 16 px."""
    from tests.layout_evening import build_layout_evening

    ev = build_layout_evening()
    width, height = SIZES[size]
    page = open_page(browser, live_server, None, (width, height))
    try:
        page.goto(f"{live_server.url}/t/{ev.entering.token}/")
        settle(page)
        shoot(page, "tablet-entering")
        sizes = page.locator("fieldset.winner label.tap small").evaluate_all(
            "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
        )
        assert sizes and min(sizes) >= 16, sizes
        page.locator('[data-testid="winner-A"]').click()
        page.wait_for_timeout(300)
        screenshot(page, "desk", f"tablet-after-team-a-{width}x{height}")
        save = page.locator('[data-testid="save"]').bounding_box()
        assert save is not None and save["y"] >= 0 and save["y"] + save["height"] <= height, save
    finally:
        page.context.close()


# --- Point 4: the organiser's wide pages ----------------------------------------------------------


@pytest.fixture
def played_evening(transactional_db):
    from tests.layout_evening import build_layout_evening

    return build_layout_evening()


def test_every_deal_fits_a_laptop(live_server, browser, played_evening, organiser):
    """ "Alle Spiele" at 1280x900: no column off the screen (the matchsticks are the last ones)."""
    ev = played_evening
    page = open_page(browser, live_server, organiser, (1280, 900))
    try:
        page.goto(f"{live_server.url}/organiser/abende/{ev.evening.pk}/spiele/")
        settle(page)
        shoot(page, "deals")
        width = page.locator("table.deal-results").evaluate("t => t.scrollWidth")
        assert width <= 1280 - 2 * 18, width
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
        for heading in ("Streichhölzer A", "Streichhölzer B"):
            box = page.locator("table.deal-results thead th", has_text=heading).bounding_box()
            assert box is not None and box["x"] + box["width"] <= 1280, heading
    finally:
        page.context.close()


def test_live_grid_on_the_first_screen_of_a_laptop(live_server, browser, played_evening, organiser):
    ev = played_evening
    page = open_page(browser, live_server, organiser, (1280, 900))
    try:
        page.goto(f"{live_server.url}/organiser/abende/{ev.evening.pk}/live/")
        settle(page)
        shoot(page, "live")
        grid = page.locator("table.live-grid").bounding_box()
        first_row = page.locator("table.live-grid tbody tr").first.bounding_box()
        assert grid["y"] < 900 and first_row["y"] + first_row["height"] <= 900, (grid, first_row)
    finally:
        page.context.close()


@pytest.mark.parametrize("size", list(SIZES), ids=[f"{k}-{w}x{h}" for k, (w, h) in SIZES.items()])
def test_organiser_menu_is_not_squeezed(live_server, browser, played_evening, organiser, size):
    """The menu at the top: below 1100 px on lines of its own under the name, left-aligned (not
    three centred lines squeezed between the name and the language buttons): at most two lines on
    a tablet, one on a laptop."""
    page = open_page(browser, live_server, organiser, SIZES[size])
    try:
        page.goto(f"{live_server.url}/organiser/")
        settle(page)
        shoot(page, "evenings")
        tops = page.locator("header.top nav > *").evaluate_all(
            "els => els.map(e => Math.round(e.getBoundingClientRect().top))"
        )
        assert len(set(tops)) <= {"phone": 3, "tablet": 2, "laptop": 1}[size], tops
        lefts = page.locator("header.top nav > *").evaluate_all(
            "els => els.map(e => Math.round(e.getBoundingClientRect().left))"
        )
        line_starts = {top: left for top, left in reversed(list(zip(tops, lefts, strict=True)))}
        if size != "laptop":  # below the name: starts at the left edge, as the name does
            nav = page.locator("header.top nav").bounding_box()
            brand = page.locator("header.top .brand").bounding_box()
            assert abs(nav["x"] - brand["x"]) < 2 and nav["y"] >= brand["y"] + brand["height"] - 1
            assert all(abs(left - brand["x"]) < 2 for left in line_starts.values()), line_starts
    finally:
        page.context.close()


def test_stand_in_checkbox_is_big(live_server, browser, played_evening, organiser):
    page = open_page(browser, live_server, organiser, (800, 1280))
    try:
        page.goto(f"{live_server.url}/organiser/abende/{played_evening.evening.pk}/spieler/")
        box = page.locator("input[name=stand_in][type=checkbox]").bounding_box()
        assert box["width"] >= 24 and box["height"] >= 24, box
        label = page.locator("label.check").bounding_box()
        assert label["height"] >= 44, label
    finally:
        page.context.close()


# --- Point 8: the season and the register, at every size ------------------------------------------


@pytest.mark.parametrize("size", list(SIZES), ids=[f"{k}-{w}x{h}" for k, (w, h) in SIZES.items()])
def test_season_and_register_pages_fit(live_server, browser, transactional_db, organiser, size):
    """The pages point 8 changed, with what they add (placement places, the club, "same person?",
    ranked evenings) at each size: no sideways scrolling, targets apart (tests/layout_check.js)."""
    from tests.browser.test_layout import CHECK, MIN_GAP_PX
    from tests.services.test_seasons import played_evening, pool, season_with

    players = pool(8)
    services.add_player(name=players[0].name, club="")  # the same name without club
    evenings = [played_evening(players, day, seed=day) for day in (1, 2, 3)]
    season = season_with(evenings, name="Jahreswertung Schwesing 2026", scoring="points", public_player_pages=True)
    page = open_page(browser, live_server, organiser, SIZES[size])
    problems = []
    try:
        for name, url in (
            ("register", "/organiser/spieler/"),
            ("season", f"/organiser/saisons/{season.pk}/"),
            ("season-screen", f"/saison/{season.pk}/rangliste/"),
            ("player", f"/organiser/spieler/{players[0].pk}/abende/"),
        ):
            response = page.goto(live_server.url + url)
            assert response.status == 200, (name, response.status)
            settle(page)
            shoot(page, name)
            problems += [f"{name}: {p}" for p in page.evaluate(CHECK, {"minTarget": 0, "minGap": MIN_GAP_PX})]
        page.goto(live_server.url + "/organiser/spieler/")
        assert page.locator('[data-testid="duplicates"] a.button').count() == 1
    finally:
        page.context.close()
    assert not problems, "\n".join(problems)
