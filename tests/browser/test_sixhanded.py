"""The tablet of a six-handed Bräus table (two teams of three) in real Chromium at phone, tablet
and laptop size: three names a team in the round's head and on the finish and confirm buttons,
a draw that does not use up the deal, the round finished by one team and confirmed by the other,
then where all six players sit next; big touch targets and no horizontal scrolling."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.domain.rulesets import BRAEUS6
from scoring.models import Deal, DrawnDeal, Player, Seating, Table
from tests.browser.helpers import screenshot
from tests.browser.test_rulesets import check_layout, two_taps
from tests.browser.test_table import (
    PHONE,
    TABLET,
    expect_form_for,
    expect_totals,
    new_context,  # noqa: F401  (the fixture)
    open_table,
)
from tests.conftest import make_evening

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 900}
LONG_NAMES = [
    "Hans-Jürgen Petersen",
    "Anneliese Carstensen-Hansen",
    "Broder Friedrichsen",
    "Ingeborg Thomsen",
    "Karl-Heinz Ingwersen",
    "Margarethe Jacobsen",
    "Nis Momme Nissen",
    "Elfriede Boysen",
    "Sönke Lorenzen",
    "Wiebke Christiansen",
    "Uwe Jessen",
    "Telse Andresen",
    "Jens Peter Paulsen",
]


def names(team) -> list[str]:
    return [p.name for p in team.players]


@pytest.mark.parametrize(
    "size",
    [
        pytest.param(PHONE, id="phone-360x640"),
        pytest.param(TABLET, id="tablet-800x1280"),
        pytest.param(LAPTOP, id="laptop-1280x900"),
    ],
)
def test_sixhanded_tablet_round(live_server, new_context, transactional_db, size):
    evening = make_evening(13, rule_set=BRAEUS6, name="Bräus zu sechst")
    for n, name in enumerate(LONG_NAMES, start=1):  # long names, as in a real club list
        Player.objects.filter(name=f"Spieler {n}").update(name=name)
    services.draw_session(evening=evening, seed=3)
    table = Table.objects.get(evening=evening, number=1)
    seating = Seating.objects.select_related(*(f"team_{t}__player_{n}" for t in "ab" for n in (1, 2, 3))).get(
        table=table, round__session__number=1, round__number=1
    )
    team_a, team_b = names(seating.team_a), names(seating.team_b)
    assert len(team_a) == len(team_b) == 3

    context = new_context(size)
    page = open_table(context, live_server, table)
    head = page.get_by_test_id("round-head")
    for name in team_a + team_b:
        expect(head).to_contain_text(name)
    expect(page.locator('input[name="bonus_a"]')).to_have_count(0)
    check_layout(page, size, 3 + 1)  # A/B/draw, Jan
    screenshot(page, "sixhanded", f"{size['width']}x{size['height']}-deal", full_page=True)

    two_taps(page, "draw")
    expect(page.locator(".messages")).to_contain_text("Spiel 1 ist unentschieden")
    expect_form_for(page, 1)
    for number, winner in ((1, "A"), (2, "B"), (3, "A"), (4, "A")):
        expect_form_for(page, number)
        two_taps(page, winner)
    expect_totals(page, 3, 1)
    finish = page.get_by_test_id("finish-a")
    for name in team_a:
        expect(finish).to_contain_text(name)
    screenshot(page, "sixhanded", f"{size['width']}x{size['height']}-finish", full_page=True)
    finish.tap()
    confirm = page.get_by_test_id("confirm")
    for name in team_b:
        expect(confirm).to_contain_text(name)
    page.get_by_test_id("confirm-button").tap()

    following = page.locator(".next-seats li")
    expect(following).to_have_count(6)
    for name in team_a + team_b:
        expect(page.locator(".next-seats")).to_contain_text(name)
    screenshot(page, "sixhanded", f"{size['width']}x{size['height']}-next", full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size["width"], f"horizontal scroll: {width}px on a {size['width']}px screen"
    seating.refresh_from_db()
    assert seating.confirmed_at is not None and seating.entered_by == "A"
    assert Deal.objects.filter(seating=seating).count() == 4 and DrawnDeal.objects.filter(seating=seating).count() == 1
