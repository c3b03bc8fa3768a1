"""The table at a real evening, in real Chromium, on a tablet (800x1280) and a small phone (360x640):

- a whole round entered (the common deal in two taps), corrected by the scorer, finished, confirmed
  by the other team, and corrected afterwards by the organiser with a reason;
- an entry made while the network is cut is kept on the tablet, marked "not sent yet", and sent
  when the network is back: exactly one Deal and one DealChange, also when it is sent again;
- an entry whose answer is lost on the way is sent again and still saved once;
- two tablets on the same table link: the second save of the same deal is refused as a conflict;
- an entry the server cannot store (disk full: 503) stays on the tablet, which says so and never
  "gespeichert", and is saved once there is room.

Like tests/browser/test_tablet.py: Debian's Chromium (its headless shell, tests/conftest.py), never
downloaded; the tests fail (never skip) without it. They look for numbers, names, data-testid hooks and (where the
message is the point) the German text the tablets show.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from django.db import OperationalError
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect

from scoring import services
from scoring.models import Deal, DealChange, Round, Seating, Table

pytestmark = pytest.mark.browser

TABLET = {"width": 800, "height": 1280}
PHONE = {"width": 360, "height": 640}
SIZES = [pytest.param(TABLET, id="tablet-800x1280"), pytest.param(PHONE, id="phone-360x640")]
MIN_TOUCH_TARGET_PX = 48
TIMEOUT_MS = 15_000
#: How long the tablet waits before it sends a kept entry again (static/js/scorer.js, RETRY_MS).
RETRY_MS = 5_000


# --- Fixtures --------------------------------------------------------------------------------


@pytest.fixture
def new_context(browser: Browser) -> Iterator:
    """Make German, touch-enabled browser contexts of a given size; all closed at the end."""
    contexts: list[BrowserContext] = []

    def make(size: dict) -> BrowserContext:
        context = browser.new_context(viewport=size, has_touch=True, is_mobile=size is PHONE, locale="de-DE")
        context.set_default_timeout(TIMEOUT_MS)
        context.set_default_navigation_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def table_one(transactional_db, roster_evening) -> tuple[Table, Seating]:
    services.draw_session(evening=roster_evening, seed=1)
    table = Table.objects.get(evening=roster_evening, number=1)
    return table, Seating.objects.get(table=table, round__session__number=1, round__number=1)


# --- Helpers ---------------------------------------------------------------------------------


def open_table(context: BrowserContext, live_server, table: Table) -> Page:
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{table.token}/")
    expect(page.locator(".deal-form")).to_be_visible()
    page.wait_for_function("() => window.htmx !== undefined && window.bruusScorerIdle !== undefined")
    return page


def tap(page: Page, name: str, value: str | None = None) -> None:
    """Tap the big button of a (hidden) radio input, or of a checkbox when ``value`` is None."""
    field = f'input[name="{name}"]' + (f'[value="{value}"]' if value is not None else "")
    page.locator(f".deal-form label.tap:has({field}) > span").tap()


def save(page: Page, number: int) -> None:
    """Tap "save" and wait for the server's answer to deal ``number`` to be in the page."""
    with page.expect_response(lambda r: r.url.endswith(f"/spiel/{number}/") and r.request.method == "POST"):
        page.get_by_test_id("save").tap()


def expect_totals(page: Page, a: int, b: int) -> None:
    expect(page.get_by_test_id("total-a")).to_have_text(str(a))
    expect(page.get_by_test_id("total-b")).to_have_text(str(b))


def expect_form_for(page: Page, number: int) -> None:
    expect(page.locator(".deal-form")).to_have_attribute("action", re.compile(rf"/spiel/{number}/$"))


def check_layout(page: Page, size: dict) -> None:
    """Every control at least 48 px high; nothing wider than the screen."""
    controls = page.locator(".deal-form label.tap > span, main button:visible, main a.button:visible")
    if page.locator(".deal-form").count():
        assert page.locator(".deal-form label.tap > span").count() == 2 + 1 + 2 * 5  # A/B, to nil, bonus 0-4
    assert controls.count() >= 1
    for i in range(controls.count()):
        box = controls.nth(i).bounding_box()
        assert box is not None and box["height"] >= MIN_TOUCH_TARGET_PX, (i, box, size)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size["width"], f"horizontal scroll: {width}px on a {size['width']}px screen"


def check_totals_stay_visible(page: Page, size: dict) -> None:
    """Scrolled to the bottom, the round's totals are still on the screen (sticky header)."""
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(100)
    for testid in ("total-a", "total-b"):
        box = page.get_by_test_id(testid).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (testid, box)
    page.evaluate("window.scrollTo(0, 0)")


def pending_store(page: Page) -> list[dict]:
    store = page.evaluate("document.getElementById('scorer-app').dataset.store")
    return json.loads(page.evaluate(f"localStorage.getItem('{store}') || '[]'"))


# --- Tests -----------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_a_round_entered_confirmed_and_corrected(live_server, new_context, table_one, organiser, size):
    table, seating = table_one
    page = open_table(new_context(size), live_server, table)
    expect_totals(page, 0, 0)
    expect_form_for(page, 1)
    check_layout(page, size)

    # The common deal, team A reached five tricks, no bonus: two taps.
    tap(page, "winner", "A")
    save(page, 1)
    expect(page.locator('tr[data-deal="1"] td.points')).to_have_text("1:0")
    expect_totals(page, 1, 0)
    expect_form_for(page, 2)
    assert Deal.objects.get(seating=seating, number=1).points_a == 1

    # Deal 2: team B to nil (3 taps); deal 3: team A with 2:1 daring and striking; deal 4: B, 0:3.
    tap(page, "winner", "B")
    tap(page, "to_nil")
    save(page, 2)
    expect_totals(page, 1, 2)
    tap(page, "winner", "A")
    tap(page, "bonus_a", "2")
    tap(page, "bonus_b", "1")
    save(page, 3)
    expect_totals(page, 4, 3)
    check_totals_stay_visible(page, size)
    tap(page, "winner", "B")
    tap(page, "bonus_b", "3")
    save(page, 4)
    expect_totals(page, 4, 7)
    expect(page.locator(".deal-form")).to_have_count(0)

    # The scorer corrects deal 2 before the round is finished: not to nil after all.
    page.locator('tr[data-deal="2"] a.button').tap()
    expect_form_for(page, 2)
    expect(page.locator('.deal-form input[name="to_nil"]')).to_be_checked()
    tap(page, "to_nil")
    save(page, 2)
    expect_totals(page, 4, 6)
    check_layout(page, size)

    # Finish (the scorer is in team A); team B is asked to confirm, then confirms.
    page.get_by_test_id("finish-a").tap()
    confirm = page.get_by_test_id("confirm-button")
    expect(confirm).to_be_visible()
    expect(page.get_by_test_id("confirm")).to_contain_text("Team B: bitte prüfen und bestätigen")
    expect(confirm).to_have_attribute("value", "B")
    check_layout(page, size)
    seating.refresh_from_db()
    assert seating.entered_by == "A" and seating.confirmed_at is None
    confirm.tap()
    expect(page.locator(".next-seats li")).to_have_count(4)
    seating.refresh_from_db()
    assert seating.confirmed_at is not None
    expect(page.locator(".round-head h1")).to_contain_text("2")  # round 2 is open
    expect_totals(page, 0, 0)

    # After the confirmation only the organiser corrects, with a reason; the trail shows it.
    django_client = Client()
    django_client.force_login(organiser)
    office = new_context(TABLET)
    office.add_cookies(
        [{"name": "sessionid", "value": django_client.cookies["sessionid"].value, "url": live_server.url}]
    )
    desk = office.new_page()
    desk.goto(f"{live_server.url}/organiser/tischrunde/{seating.pk}/?deal=3#edit")
    expect(desk.get_by_test_id("seating-state")).to_have_attribute("data-state", "confirmed")
    expect(desk.locator('input[name="reason"]')).to_have_attribute("required", "")
    desk.locator('.deal-form label.tap:has(input[name="bonus_b"][value="0"]) > span').click()
    desk.locator('input[name="reason"]').fill("Team B: kein Wagen in Spiel 3")
    with desk.expect_navigation():
        desk.locator(".deal-form button.primary").click()
    expect(desk.locator('tr[data-deal="3"] td.points')).to_have_text("3:0")
    history = desk.locator('#history tr[data-deal="3"]')
    expect(history).to_have_count(2)
    expect(history.last).to_contain_text("Team B: kein Wagen in Spiel 3")
    expect(history.last).to_contain_text("3:1")  # before
    expect(history.first).to_contain_text("Tisch 1 (Tisch-Link)")
    deal = Deal.objects.get(seating=seating, number=3)
    assert (deal.points_a, deal.points_b, deal.version) == (3, 0, 2)


@pytest.mark.parametrize("size", SIZES)
def test_an_entry_made_offline_is_sent_once_when_back_online(live_server, new_context, table_one, size):
    table, seating = table_one
    context = new_context(size)
    page = open_table(context, live_server, table)
    tap(page, "winner", "A")
    save(page, 1)
    expect_totals(page, 1, 0)

    # The hall's Wi-Fi drops. Deals 2 and 3 are entered anyway.
    context.set_offline(True)
    tap(page, "winner", "B")
    page.get_by_test_id("save").tap()
    badge = page.locator('tr[data-deal="2"] [data-testid="pending-badge"]')
    expect(badge).to_have_text("noch nicht gesendet")
    expect(page.locator('tr[data-deal="2"] td.pending-info')).to_contain_text("0:1")
    expect(page.get_by_test_id("connection")).to_be_visible()
    expect_form_for(page, 3)  # the form moved on by itself
    tap(page, "winner", "A")
    tap(page, "to_nil")
    page.get_by_test_id("save").tap()
    expect(page.locator('[data-testid="pending-badge"]')).to_have_count(2)
    expect_form_for(page, 4)
    check_layout(page, size)
    kept = pending_store(page)
    assert [e["number"] for e in kept] == [2, 3] and len({e["fields"]["key"] for e in kept}) == 2
    assert not Deal.objects.filter(seating=seating, number__in=[2, 3]).exists()

    # Back online: both are sent by themselves, in order, and the page shows the saved state.
    context.set_offline(False)
    expect(page.locator('[data-testid="pending-badge"]')).to_have_count(0, timeout=20_000)
    expect(page.locator('tr[data-deal="2"] td.points')).to_have_text("0:1")
    expect(page.locator('tr[data-deal="3"] td.points')).to_have_text("2:0")
    expect_totals(page, 3, 1)
    expect_form_for(page, 4)
    assert pending_store(page) == []
    assert Deal.objects.filter(seating=seating).count() == 3
    for number in (1, 2, 3):
        assert DealChange.objects.filter(deal__seating=seating, deal__number=number).count() == 1

    # The tablet sends the same entries once more (e.g. restored from an old copy): nothing changes.
    store = page.evaluate("document.getElementById('scorer-app').dataset.store")
    page.evaluate(f"localStorage.setItem('{store}', {json.dumps(json.dumps(kept))})")
    page.reload()
    expect(page.locator('[data-testid="pending-badge"]')).to_have_count(0, timeout=20_000)
    expect_totals(page, 3, 1)
    assert pending_store(page) == []
    assert DealChange.objects.filter(deal__seating=seating).count() == 3
    assert Deal.objects.filter(seating=seating).count() == 3


def test_an_entry_whose_answer_is_lost_is_saved_once(live_server, new_context, table_one):
    """The request reaches the server but the answer never comes back: the tablet keeps the entry,
    sends it again, and the server recognises its key."""
    table, seating = table_one
    context = new_context(TABLET)
    context.clock.install()  # Playwright's clock: the retry comes when the test moves time on
    page = open_table(context, live_server, table)
    lost = []

    def lose_the_answer(route):
        route.fetch()  # the server saves it ...
        lost.append(route.request.url)
        route.abort("connectionreset")  # ... but the tablet never hears back

    page.route("**/spiel/1/", lose_the_answer)
    tap(page, "winner", "A")
    page.get_by_test_id("save").tap()
    expect(page.locator('tr[data-deal="1"] [data-testid="pending-badge"]')).to_be_visible()
    assert len(lost) == 1 and Deal.objects.filter(seating=seating).count() == 1
    page.unroute("**/spiel/1/")
    page.clock.run_for(RETRY_MS)
    expect(page.locator('[data-testid="pending-badge"]')).to_have_count(0)
    expect(page.locator('tr[data-deal="1"] td.points')).to_have_text("1:0")
    assert Deal.objects.filter(seating=seating).count() == 1
    assert DealChange.objects.filter(deal__seating=seating).count() == 1


def test_an_entry_the_server_cannot_store_stays_on_the_tablet_and_says_so(
    live_server, new_context, table_one, monkeypatch
):
    """The server's disk is full (503). The tablet never says "gespeichert": it
    keeps the entry, says the storage is full and asks for the organiser, tries again by itself,
    and once there is room the entry is saved, once."""
    table, seating = table_one
    context = new_context(TABLET)
    context.clock.install()  # Playwright's clock: the retries come when the test moves time on
    page = open_table(context, live_server, table)
    enter_deal = services.enter_deal

    def disk_full(**kwargs):
        raise OperationalError("database or disk is full")

    monkeypatch.setattr(services, "enter_deal", disk_full)
    tap(page, "winner", "A")
    with page.expect_response(lambda r: r.url.endswith("/spiel/1/") and r.request.method == "POST") as answer:
        page.get_by_test_id("save").tap()
    assert answer.value.status == 503
    badge = page.locator('tr[data-deal="1"] [data-testid="pending-badge"]')
    expect(badge).to_have_text("noch nicht gesendet")
    banner = page.get_by_test_id("connection")
    expect(banner).to_contain_text("Speicher voll – nichts gespeichert, bitte Turnierleitung rufen")
    expect(banner).to_have_class(re.compile(r"\berror\b"))
    expect(page.get_by_text("Spiel 1 gespeichert")).to_have_count(0)
    assert [e["number"] for e in pending_store(page)] == [1]
    # Tried again by itself, refused again: the message stays.
    with page.expect_response(lambda r: r.url.endswith("/spiel/1/")) as answer:
        page.clock.run_for(RETRY_MS)
    assert answer.value.status == 503
    expect(banner).to_contain_text("Speicher voll")
    assert not Deal.objects.filter(seating=seating).exists()

    monkeypatch.setattr(services, "enter_deal", enter_deal)  # room again
    page.clock.run_for(RETRY_MS)
    expect(badge).to_have_count(0)
    expect(page.locator('tr[data-deal="1"] td.points')).to_have_text("1:0")
    expect(banner).not_to_contain_text("Speicher voll")
    assert pending_store(page) == []
    assert Deal.objects.filter(seating=seating).count() == 1
    assert DealChange.objects.filter(deal__seating=seating).count() == 1


@pytest.mark.parametrize("size", SIZES)
def test_two_tablets_on_one_table_conflict_instead_of_overwriting(live_server, new_context, table_one, size):
    table, seating = table_one
    first = open_table(new_context(size), live_server, table)
    second = open_table(new_context(size), live_server, table)
    tap(first, "winner", "A")
    save(first, 1)
    # Both tablets now show deal 2 as the next deal; both scorers start entering it.
    first.reload()
    second.reload()
    expect_form_for(first, 2)
    expect_form_for(second, 2)
    tap(second, "winner", "B")
    tap(first, "winner", "A")
    save(first, 2)
    expect_totals(first, 2, 0)
    with second.expect_response(lambda r: r.url.endswith("/spiel/2/") and r.request.method == "POST") as answer:
        second.get_by_test_id("save").tap()
    assert answer.value.status == 409
    error = second.locator(".msg.error")
    expect(error).to_contain_text("Spiel 2 wurde inzwischen an einem anderen Gerät geändert")
    expect(error).to_contain_text("1:0")
    expect(second.locator('tr[data-deal="2"] td.points')).to_have_text("1:0")  # the real value
    expect_totals(second, 2, 0)
    deal = Deal.objects.get(seating=seating, number=2)
    assert (deal.winner, deal.version) == ("A", 1)
    assert DealChange.objects.filter(deal=deal).count() == 1
    assert Round.objects.get(pk=seating.round_id).number == 1
