"""Danish Brus at the table, in real Chromium on a tablet (800x1280) and a small phone (360x640):
the scorer reads under the bonus buttons why 2:2 can happen (an unlawful chance is automatically
smacked, source *Brus* (encyclopedia), "Chancing and smacking"), enters 2:2 with the big
buttons and sees the round's totals; an impossible pair is refused in words of chancing and
smacking. Like tests/browser/test_table.py (whose helpers it uses): Debian's Chromium, never
skipped."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.domain.rulesets import DANISH
from scoring.models import Deal, Seating, Table
from tests.browser.test_table import SIZES, expect_totals, new_context, open_table, save, tap  # noqa: F401
from tests.conftest import make_evening

pytestmark = pytest.mark.browser


@pytest.fixture
def danish_table(transactional_db) -> tuple[Table, Seating]:
    evening = make_evening(8, rule_set=DANISH, name="Brus-Abend")
    services.draw_session(evening=evening, seed=1)
    table = Table.objects.get(evening=evening, number=1)
    return table, Seating.objects.get(table=table, round__session__number=1, round__number=1)


@pytest.mark.parametrize("size", SIZES)
def test_the_scorer_enters_2_to_2_in_danish_brus_and_reads_why(live_server, new_context, danish_table, size):
    table, seating = danish_table
    page = open_table(new_context(size), live_server, table)
    form = page.locator(".deal-form")
    expect(form).to_contain_text("Chancen und Smækken, Team A")
    note = page.get_by_test_id("bonus-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Eine unerlaubte Chance")
    expect(note).to_contain_text("automatisch gesmækt: 2 für die Gegner")
    expect(note).to_contain_text("z. B. 2:2")
    expect(page.locator("main")).not_to_contain_text("Wagen")
    box = note.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size["width"], box

    tap(page, "winner", "A")
    tap(page, "bonus_a", "2")
    tap(page, "bonus_b", "2")
    save(page, 1)
    expect_totals(page, 3, 2)
    deal = Deal.objects.get(seating=seating, number=1)
    assert (deal.bonus_a, deal.bonus_b, deal.points_a, deal.points_b) == (2, 2, 3, 2)

    # Still impossible in Danish Brus: 3:2. Refused in the rule set's words; nothing saved.
    tap(page, "winner", "B")
    tap(page, "bonus_a", "3")
    tap(page, "bonus_b", "2")
    save(page, 2)
    expect(form).to_contain_text("Streichhölzer für Chancen und Smækken kann es nicht im selben Spiel geben")
    assert not Deal.objects.filter(seating=seating, number=2).exists()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size["width"], f"horizontal scroll: {width}px on a {size['width']}px screen"
