"""A whole small evening in Chromium at phone size: 12 players, 3 sessions, as
the organiser's guide (docs/organiser-guide.de.md) walks through it, the organiser and every table
on a 360×640 phone.

The organiser checks everyone in ("Alle anwesend") and checks out the two who stayed at home
(section 3), draws each session from the page (sections 3, 4 and 8); in the first round of each
session every table's scorer taps the deals into the table's page, finishes the round and hands
the phone to the other team, which confirms (section 6); the later rounds are entered through
the services, as a quicker hall would. At the end (section 9) the test checks what the organiser
and the players see: the overview leads to the Endstand, which lists exactly the twelve who
played (not the two checked out before the first draw), as does the ranking PDF; "Wo sitze ich?",
a player's seat page and every table's phone say the evening is over and link the public
Endstand, which lists the same twelve.
"""

from __future__ import annotations

import random
from datetime import date

import pytest
from playwright.sync_api import Page, expect

from scoring import services
from scoring.domain.rules import DealResult
from scoring.models import Participant, Seating, Session, Table
from scoring.setup.builders import play_round
from tests.browser.test_desk import open_page
from tests.browser.test_tablet import deal_points, enter_deal, expect_totals
from tests.tracing import pdf_text

pytestmark = pytest.mark.browser

PHONE = (360, 640)
#: The register: fourteen players; the first two stay at home.
NAMES = (
    "Hauke Stay-Home",
    "Wiebke Daheim",
    "Anke Petersen",
    "Boy Jensen",
    "Catrin Lorenzen",
    "Dirk Hansen",
    "Elke Carstensen",
    "Frerk Nissen",
    "Gesa Thomsen",
    "Hinrich Paulsen",
    "Inke Clausen",
    "Jan Ketelsen",
    "Kerrin Andresen",
    "Lorenz Brodersen",
)
SESSIONS, ROUNDS, DEALS = 3, 2, 2
#: Two deals a table taps in each first round: a plain one and one to nil with daring.
TAPPED = (
    DealResult(winner="A", to_nil=False, bonus_a=0, bonus_b=0),
    DealResult(winner="B", to_nil=True, bonus_a=0, bonus_b=1),
)


def check_in_everyone_but(page: Page, base: str, evening, absent) -> None:
    """Section 3: "Alle anwesend", then the players who are not there checked out again by tapping
    their "✔ anwesend"."""
    page.goto(f"{base}/organiser/abende/{evening.pk}/spieler/")
    page.get_by_role("button", name="Alle anwesend").click()
    expect(page.locator(".messages")).to_contain_text("14 Spieler jetzt als anwesend eingetragen.")
    for player in absent:
        page.locator(f"#p{player.pk} button.toggle.on").click()
        expect(page.locator(f"#p{player.pk} button.toggle")).to_have_attribute("aria-pressed", "false")


def table_plays_first_round(phone: Page, base: str, table: Table, number: int) -> None:
    """Section 6 on the table's phone: every deal tapped in, the round finished by the scorer
    (team A), confirmed by team B; the seating is then confirmed."""
    seating = Seating.objects.get(table=table, round__session__number=number, round__number=1)
    phone.goto(f"{base}/t/{table.token}/")
    expect_totals(phone, 0, 0)
    totals = [0, 0]
    for deal in TAPPED:
        enter_deal(phone, deal)
        a, b = deal_points(deal)
        totals = [totals[0] + a, totals[1] + b]
        expect_totals(phone, *totals)
    phone.get_by_test_id("finish-a").tap()
    phone.get_by_test_id("confirm-button").tap()
    expect(phone.get_by_test_id("confirm")).to_have_count(0)
    seating.refresh_from_db()
    assert seating.confirmed_at is not None and seating.entered_by == "A"


@pytest.mark.django_db(transaction=True)
def test_a_whole_small_evening_at_phone_size(live_server, browser, organiser):
    base = live_server.url
    players = [services.add_player(name=name, club=f"Verein {n % 3}")[0] for n, name in enumerate(NAMES)]
    absent, present = players[:2], players[2:]
    evening = services.create_evening(
        name="Kleiner Abend",
        date=date(2026, 11, 27),
        sessions_count=SESSIONS,
        rounds_per_session=ROUNDS,
        deals_per_round=DEALS,
    )
    desk = open_page(browser, live_server, organiser, PHONE)
    phones: dict[int, Page] = {}  # a phone stays with its table all evening (section 5)
    opened = [desk]
    try:
        check_in_everyone_but(desk, base, evening, absent)
        assert set(Participant.objects.filter(evening=evening, checked_in=True).values_list("player", flat=True)) == {
            p.pk for p in present
        }
        for number in range(1, SESSIONS + 1):
            # Sections 4 and 8: the next session drawn from the overview's "Nächster Schritt".
            desk.goto(f"{base}/organiser/abende/{evening.pk}/")
            desk.get_by_role("button", name=f"Durchgang {number} auslosen").click()
            desk.wait_for_url(f"**/durchgang/{number}/")
            session = Session.objects.get(evening=evening, number=number)
            tables = list(Table.objects.filter(evening=evening, seatings__round__session=session).distinct())
            assert len(tables) == 3  # 12 players: three tables of four, nobody sits out
            for table in tables:
                if table.pk not in phones:
                    phones[table.pk] = open_page(browser, live_server, None, PHONE)
                    opened.append(phones[table.pk])
                table_plays_first_round(phones[table.pk], base, table, number)
            for later in range(2, ROUNDS + 1):
                play_round(session, later, random.Random(number * 10 + later))

        # Section 9: the overview says the evening is over and leads to the Endstand.
        desk.goto(f"{base}/organiser/abende/{evening.pk}/")
        desk.get_by_role("link", name="Endstand").click()
        desk.wait_for_url(f"**/abende/{evening.pk}/rangliste/")
        expect(desk.locator("main")).to_contain_text("Endstand")
        names = {p.name for p in present}
        ranking = desk.locator("main").inner_text()
        for player in present:
            assert player.name in ranking
        for player in absent:  # checked out before the first draw: not ranked (finding 1)
            assert player.name not in ranking

        # The ranking PDF, as the organiser downloads it.
        pdf = desk.request.get(f"{base}/organiser/abende/{evening.pk}/rangliste.pdf")
        assert pdf.status == 200 and pdf.headers["content-type"] == "application/pdf"
        text = pdf_text(pdf.body())
        assert all(name in text for name in names)
        assert not any(player.name in text for player in absent)

        # What the players see. "Wo sitze ich?": the evening is over, and the Endstand a tap away.
        public = open_page(browser, live_server, None, PHONE)
        opened.append(public)
        public.goto(f"{base}/abend/{evening.pk}/platz/")
        expect(public.get_by_test_id("evening-over")).to_contain_text("Der Abend ist zu Ende")
        public.get_by_role("link", name="Endstand").click()
        public.wait_for_url(f"**/abend/{evening.pk}/rangliste/")
        expect(public.locator("main")).to_contain_text("Endstand")
        screen = public.locator("body").inner_text()
        assert all(name in screen for name in names)
        assert not any(player.name in screen for player in absent)
        # A player's own seat page (bookmarked during the evening) says the same.
        public.goto(f"{base}/abend/{evening.pk}/platz/{present[0].pk}/")
        expect(public.get_by_test_id("evening-over")).to_be_visible()
        # Every table's phone: the evening is over, nothing left to enter, the Endstand linked.
        for table in Table.objects.filter(evening=evening).order_by("number"):
            phone = phones[table.pk]
            phone.goto(f"{base}/t/{table.token}/")
            expect(phone.get_by_test_id("evening-over")).to_contain_text("Der Abend ist zu Ende")
            expect(phone.locator(".deal-form")).to_have_count(0)
            expect(phone.get_by_role("link", name="Endstand")).to_have_attribute(
                "href", f"/abend/{evening.pk}/rangliste/"
            )
    finally:
        for page in opened:
            page.context.close()
