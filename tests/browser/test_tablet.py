"""Real-browser tests of the table scorer's tablet page (Chromium through Playwright).

What a scorer at a tablet sees and does: tap a result for each deal of a round, watch the
running totals, correct a deal, finish the round and learn where everyone sits next. The
expected matchsticks are computed here, independently of the app.

The UI is German by default and its translation is still changing, so the tests never look
for translated text: they check numbers, player names, URLs, ``data-testid`` / ``data-deal``
hooks, form field names and values, and element states.

Chromium is Debian's (its headless shell, ``tests/conftest.py``); Playwright never downloads a browser. If it is
missing the tests fail (they are never skipped).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, Response, expect

from scoring import services
from scoring.domain.rules import DealResult
from scoring.models import Deal, Round, Seating, Table
from tests import factories
from tests.browser.helpers import screenshot

pytestmark = pytest.mark.browser

TABLET = {"width": 800, "height": 1280}
MIN_TOUCH_TARGET_PX = 48
TIMEOUT_MS = 10_000  # fail fast instead of Playwright's 30 s default


# --- Fixtures --------------------------------------------------------------------------------


@pytest.fixture
def tablet(browser: Browser) -> Iterator[Page]:
    """A fresh page in a tablet-sized, touch-enabled browser context (no shared cookies).

    The tablet asks for German, like the club's tablets (LocaleMiddleware follows the browser's
    Accept-Language; headless Chromium would otherwise ask for English).
    """
    context = browser.new_context(viewport=TABLET, has_touch=True, is_mobile=False, locale="de-DE")
    context.set_default_timeout(TIMEOUT_MS)
    context.set_default_navigation_timeout(TIMEOUT_MS)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def table_one(transactional_db, roster_evening) -> tuple[Table, Seating]:
    """Session 1 drawn (seed 1) for the Schwesing roster: table 1 and its round-1 seating."""
    services.draw_session(evening=roster_evening, seed=1)
    table = Table.objects.get(evening=roster_evening, number=1)
    seating = Seating.objects.get(table=table, round__session__number=1, round__number=1)
    return table, seating


# --- Helpers ---------------------------------------------------------------------------------


def deal_points(deal: DealResult) -> tuple[int, int]:
    """Schwesing scoring written out: 1 matchstick for five tricks (2 to nil), plus each bonus."""
    tricks = 2 if deal.to_nil else 1
    return (
        deal.bonus_a + (tricks if deal.winner == "A" else 0),
        deal.bonus_b + (tricks if deal.winner == "B" else 0),
    )


def round_totals(points: dict[int, tuple[int, int]]) -> tuple[int, int]:
    """Matchsticks of teams A and B summed over the deals entered so far."""
    return sum(a for a, _ in points.values()), sum(b for _, b in points.values())


def tap_choice(page: Page, name: str, value: str) -> None:
    """Tap the big button (``label.tap`` span) of a hidden radio input and check it took."""
    field = f'input[name="{name}"][value="{value}"]'
    page.locator(f".deal-form label.tap:has({field}) > span").tap()
    expect(page.locator(f".deal-form {field}")).to_be_checked()


def enter_deal(page: Page, deal: DealResult) -> Response:
    """Fill the deal form by tapping and tap Save; returns the response to the save (the page
    updates in place with htmx, no navigation)."""
    tap_choice(page, "winner", deal.winner)
    to_nil_box = page.locator('.deal-form input[name="to_nil"]')
    if to_nil_box.is_checked() != deal.to_nil:
        page.locator('.deal-form label.tap:has(input[name="to_nil"]) > span').tap()
    expect(to_nil_box).to_be_checked(checked=deal.to_nil)
    tap_choice(page, "bonus_a", str(deal.bonus_a))
    tap_choice(page, "bonus_b", str(deal.bonus_b))
    with page.expect_response(lambda r: "/spiel/" in r.url and r.request.method == "POST") as answer:
        page.locator(".deal-form button.save").tap()
    response = answer.value
    assert response is not None and response.status < 500, response
    response.finished()
    return response


def expect_totals(page: Page, total_a: int, total_b: int) -> None:
    """The round's running totals in the two team boxes."""
    expect(page.get_by_test_id("total-a")).to_have_text(str(total_a))
    expect(page.get_by_test_id("total-b")).to_have_text(str(total_b))


def expect_form_for_deal(page: Page, number: int) -> None:
    """The entry form posts to deal ``number``."""
    action = re.compile(rf"/spiel/{number}/$")
    expect(page.locator(".deal-form")).to_have_attribute("action", action)


def check_tablet_layout(page: Page) -> None:
    """Touch targets at least 48 px high; nothing wider than the tablet (no horizontal scroll)."""
    targets = page.locator(".deal-form label.tap > span")
    assert targets.count() >= 2 + 1 + 2 * 5  # winner A/B, to nil, bonus 0..4 for each team
    for i in range(targets.count()):
        box = targets.nth(i).bounding_box()
        assert box is not None and box["height"] >= MIN_TOUCH_TARGET_PX, (i, box)
    save = page.locator(".deal-form button.save").bounding_box()
    assert save is not None and save["height"] >= MIN_TOUCH_TARGET_PX, save
    assert save["x"] >= 0 and save["x"] + save["width"] <= TABLET["width"], save
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= TABLET["width"], f"horizontal scroll: {scroll_width}px wide"


# --- Tests -----------------------------------------------------------------------------------


def test_scorer_enters_corrects_and_finishes_a_round_on_a_tablet(live_server, tablet, table_one):
    page = tablet
    table, seating = table_one
    team_a = [seating.team_a.player_1.name, seating.team_a.player_2.name]
    team_b = [seating.team_b.player_1.name, seating.team_b.player_2.name]

    page.goto(f"{live_server.url}/t/{table.token}/")
    heading = page.locator(".round-head h1")
    assert re.findall(r"\d+", heading.inner_text()) == ["1", "1"]  # session 1, round 1
    for name in team_a + team_b:
        expect(page.locator(".round-head")).to_contain_text(name)
    expect_totals(page, 0, 0)
    expect_form_for_deal(page, 1)
    check_tablet_layout(page)

    # A whole round of four deals, tapped in; totals and the deal rows follow each save.
    deals = [
        DealResult(winner="A", to_nil=False, bonus_a=0, bonus_b=0),  # 1:0
        DealResult(winner="B", to_nil=True, bonus_a=0, bonus_b=0),  # 0:2
        DealResult(winner="A", to_nil=False, bonus_a=2, bonus_b=1),  # 3:1
        DealResult(winner="B", to_nil=False, bonus_a=0, bonus_b=3),  # 0:4
    ]
    points: dict[int, tuple[int, int]] = {}
    for number, deal in enumerate(deals, start=1):
        enter_deal(page, deal)
        points[number] = a, b = deal_points(deal)
        expect(page.locator(f'tr[data-deal="{number}"] td.points')).to_have_text(f"{a}:{b}")
        expect_totals(page, *round_totals(points))
        if number < len(deals):
            expect_form_for_deal(page, number + 1)
    assert round_totals(points) == (4, 7)
    expect(page.locator(".deal-form")).to_have_count(0)  # all entered: no form until a correction

    # Correct deal 1: team B reached five tricks, not team A.
    page.locator('tr[data-deal="1"] a[href="?deal=1#entry"]').tap()
    expect_form_for_deal(page, 1)
    expect(page.locator('.deal-form input[name="winner"][value="A"]')).to_be_checked()  # pre-filled
    correction = DealResult(winner="B", to_nil=False, bonus_a=0, bonus_b=0)
    enter_deal(page, correction)
    points[1] = deal_points(correction)
    expect(page.locator('tr[data-deal="1"] td.points')).to_have_text("0:1")
    expect_totals(page, *round_totals(points))
    assert round_totals(points) == (3, 8)
    assert Deal.objects.get(seating=seating, number=1).winner == "B"

    # Finish the round (the scorer is in team A), team B confirms: the page tells each of the
    # four players where to sit in round 2.
    page.get_by_test_id("finish-a").tap()
    page.get_by_test_id("confirm-button").tap()
    expect(page.locator(".next-seats li")).to_have_count(4)
    seating.refresh_from_db()
    assert seating.confirmed_at is not None
    next_round = Round.objects.get(session=seating.round.session, number=2)
    next_table = {}
    for s in Seating.objects.filter(round=next_round).select_related(
        "table", "team_a__player_1", "team_a__player_2", "team_b__player_1", "team_b__player_2"
    ):
        for team in (s.team_a, s.team_b):
            next_table[team.player_1.name] = next_table[team.player_2.name] = s.table.number
    seats = page.locator(".next-seats li")
    expect(seats).to_have_count(4)
    partner = {p: q for team in (team_a, team_b) for p, q in (team, team[::-1])}
    for name in team_a + team_b:
        # The line that starts with this player's name (the partner's line mentions it too).
        own_name = page.locator("strong").filter(has_text=re.compile(rf"^{re.escape(name)}$"))
        line = seats.filter(has=own_name)
        expect(line).to_have_count(1)
        expect(line).to_contain_text(partner[name])  # partnerships last the whole session
        if name in next_table:
            expect(line.locator(".tableno")).to_have_text(re.compile(rf"\b{next_table[name]}\b"))
        else:  # sits out in round 2: no table number
            expect(line.locator(".tableno")).to_have_count(0)
    assert any(name in next_table for name in team_a + team_b)

    # Table 1 plays on: round 2 is open with fresh totals.
    assert re.findall(r"\d+", heading.inner_text()) == ["1", "2"]  # session 1, round 2
    expect_totals(page, 0, 0)
    expect_form_for_deal(page, 1)
    screenshot(page, "tablet", "round", full_page=True)


def test_impossible_bonus_is_refused(live_server, tablet, table_one):
    page = tablet
    table, seating = table_one
    factories.enter_deal(seating, table=None)

    page.goto(f"{live_server.url}/t/{table.token}/")
    expect_totals(page, 1, 0)
    expect_form_for_deal(page, 2)
    expect(page.locator(".errorlist")).to_have_count(0)

    # Both teams 2 matchsticks for daring and striking in one deal cannot happen.
    response = enter_deal(page, DealResult(winner="B", to_nil=False, bonus_a=2, bonus_b=2))
    assert response.status == 422  # the form comes back with the error, no redirect
    errors = page.locator(".errorlist")
    expect(errors.first).to_be_visible()
    assert errors.first.inner_text().strip()
    expect_totals(page, 1, 0)
    expect_form_for_deal(page, 2)  # the same deal again, with what was tapped still selected
    for name, value in (("winner", "B"), ("bonus_a", "2"), ("bonus_b", "2")):
        expect(page.locator(f'.deal-form input[name="{name}"][value="{value}"]')).to_be_checked()
    expect(page.locator('tr[data-deal="2"] td.points')).to_have_count(0)
    assert not Deal.objects.filter(seating=seating, number=2).exists()
    assert Deal.objects.filter(seating=seating).count() == 1


def test_unknown_table_link_is_a_friendly_404(live_server, tablet, transactional_db):
    page = tablet
    response = page.goto(f"{live_server.url}/t/no-such-table-link/")
    assert response is not None
    assert response.status == 404
    assert response.headers["content-type"].startswith("text/html")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    text = page.locator("main").inner_text().strip()
    assert text
    expect(page.locator("main h1")).not_to_be_empty()
