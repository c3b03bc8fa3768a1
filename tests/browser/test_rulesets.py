"""The tablet per rule set, in real Chromium (Debian's, tests/conftest.py; fails, never skips,
without it): a Treia Bock carried to the next deal's winner, also while the Wi-Fi is down (the
preview comes from the rule set's points table, not from rules in the script); a Bräus draw that
does not use up the deal; no bonus buttons in Bräus; the common deal still two taps."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.domain.rulesets import BRAEUS, TREIA
from scoring.models import Deal, DrawnDeal, Seating, Table
from tests.browser.helpers import screenshot
from tests.browser.test_table import (
    MIN_TOUCH_TARGET_PX,
    PHONE,
    SIZES,
    TABLET,
    expect_form_for,
    expect_totals,
    new_context,  # noqa: F401  (the fixture)
    open_table,
    tap,
)
from tests.conftest import make_evening

pytestmark = pytest.mark.browser


def check_layout(page, size: dict, buttons: int) -> None:
    """``buttons`` big buttons in the deal form, every control at least 48 px high, no
    horizontal scrolling."""
    assert page.locator(".deal-form label.tap > span").count() == buttons
    controls = page.locator(".deal-form label.tap > span, main button:visible, main a.button:visible")
    for i in range(controls.count()):
        box = controls.nth(i).bounding_box()
        assert box is not None and box["height"] >= MIN_TOUCH_TARGET_PX, (i, box, size)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size["width"], f"horizontal scroll: {width}px on a {size['width']}px screen"
    screenshot(page, "rulesets", f"{size['width']}x{size['height']}-{buttons}", full_page=True)


def table_of(rule_set: str) -> tuple[Table, Seating]:
    evening = make_evening(8, rule_set=rule_set, name=f"Abend {rule_set}")
    services.draw_session(evening=evening, seed=1)
    table = Table.objects.get(evening=evening, number=1)
    return table, Seating.objects.get(table=table, round__session__number=1, round__number=1)


def two_taps(page, winner: str) -> None:
    tap(page, "winner", winner)
    page.get_by_test_id("save").tap()


@pytest.mark.parametrize("size", SIZES)
def test_treia_bock_is_carried_to_the_next_winner(live_server, new_context, transactional_db, size):
    table, seating = table_of(TREIA)
    context = new_context(size)
    page = open_table(context, live_server, table)
    bock = page.get_by_test_id("winner-bock")
    expect(bock).to_contain_text("Bock (4:4)")
    expect(bock).to_contain_text("überträgt 1 Streichholz ins nächste Spiel")
    check_layout(page, size, 3 + 1 + 2 * 5)  # A/B/Bock, to nil, bonus 0-4
    two_taps(page, "bock")
    expect_form_for(page, 2)
    expect(page.get_by_test_id("bock-carried")).to_contain_text("1 Streichholz mehr")
    expect(page.get_by_test_id("winner-bock")).to_contain_text("überträgt 2 Streichhölzer")
    two_taps(page, "A")
    expect_form_for(page, 3)
    expect(page.locator('tr[data-deal="2"] td.points')).to_have_text("2:0")
    expect_totals(page, 2, 0)

    # Wi-Fi down: a Bock and then a win for B; the kept entries show 0:0 and 0:2 (carried).
    context.set_offline(True)
    two_taps(page, "bock")
    expect_form_for(page, 4)
    expect(page.get_by_test_id("winner-bock")).to_have_count(1)
    two_taps(page, "B")
    expect(page.locator('tr[data-deal="3"] td.pending-info')).to_contain_text("Bock")
    expect(page.locator('tr[data-deal="3"] td.pending-info')).to_contain_text("0:0")
    expect(page.locator('tr[data-deal="4"] td.pending-info')).to_contain_text("0:2")
    context.set_offline(False)
    expect(page.locator('[data-testid="pending-badge"]')).to_have_count(0, timeout=20_000)
    expect(page.locator('tr[data-deal="4"] td.points')).to_have_text("0:2")
    expect_totals(page, 2, 2)
    assert [(d.winner, d.points_a, d.points_b) for d in Deal.objects.filter(seating=seating)] == [
        ("bock", 0, 0),
        ("A", 2, 0),
        ("bock", 0, 0),
        ("B", 0, 2),
    ]


@pytest.mark.parametrize("size", [pytest.param(TABLET, id="tablet-800x1280"), pytest.param(PHONE, id="phone")])
def test_braeus_draw_is_dealt_again_and_there_are_no_bonus_buttons(live_server, new_context, transactional_db, size):
    table, seating = table_of(BRAEUS)
    context = new_context(size)
    page = open_table(context, live_server, table)
    expect(page.locator('input[name="bonus_a"]')).to_have_count(0)
    expect(page.locator(".deal-form legend").first).to_have_text("Wer hat sechs Stiche (oder fünf und ♣K)?")
    draw = page.get_by_test_id("winner-draw")
    expect(draw).to_contain_text("Unentschieden, neu geben")
    check_layout(page, size, 3 + 1)  # A/B/draw, Jan; no bonus
    two_taps(page, "draw")
    expect(page.locator(".messages")).to_contain_text("Spiel 1 ist unentschieden")
    expect_form_for(page, 1)  # the same deal again
    expect(page.locator('tr[data-deal="1"] [data-testid="draws"]')).to_contain_text("1× unentschieden")
    tap(page, "winner", "B")
    tap(page, "to_nil")
    page.get_by_test_id("save").tap()
    expect_form_for(page, 2)
    expect(page.locator('tr[data-deal="1"] td.points')).to_have_text("0:2")
    expect(page.locator('tr[data-deal="1"]')).to_contain_text("Jan")

    # A draw kept while offline stays at its deal too, and is sent once.
    context.set_offline(True)
    two_taps(page, "draw")
    expect_form_for(page, 2)
    context.set_offline(False)
    expect(page.locator('[data-testid="pending-badge"]')).to_have_count(0, timeout=20_000)
    expect(page.locator('tr[data-deal="2"] [data-testid="draws"]')).to_contain_text("1×")
    assert DrawnDeal.objects.filter(seating=seating).count() == 2
    assert Deal.objects.filter(seating=seating).count() == 1


@pytest.mark.parametrize(
    "size",
    [
        pytest.param(PHONE, id="phone-360x640"),
        pytest.param({"width": 1280, "height": 900}, id="laptop-1280x900"),
    ],
)
def test_ringkobing_has_six_bonus_buttons_that_fit(live_server, new_context, transactional_db, size):
    table, _ = table_of("ringkobing")
    page = open_table(new_context(size), live_server, table)
    expect(page.locator(".deal-form legend").first).to_have_text("Wer hat die meisten Stiche gemacht?")
    expect(page.locator('input[name="bonus_a"]')).to_have_count(6)  # 0-5: one hawk on top of 4
    check_layout(page, size, 2 + 1 + 2 * 6)
    tap(page, "winner", "A")
    tap(page, "bonus_a", "5")
    page.get_by_test_id("save").tap()
    expect(page.locator('tr[data-deal="1"] td.points')).to_have_text("6:0")
