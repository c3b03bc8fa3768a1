"""An evening in the hall, in real Chromium (issue 9, "Proof"): served as ``make serve`` serves it
(DEBUG off, a public base URL that is not localhost), the organiser opens "Tablets einrichten";
three tablets join their tables by table number and code at /tablet/, one by the table's QR
link; each enters a deal of its own table.

The test server itself listens on 127.0.0.1 (tests never talk to another address): the public
base URL is only used to build links, so the QR link's path is opened on the live server.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import Page, expect

from scoring import services
from scoring.hall.table_codes import display
from scoring.models import Deal, Seating, Table
from tests.browser.test_table import new_context  # noqa: F401 (fixture: German touch contexts)

pytestmark = pytest.mark.browser

HALL = "http://192.168.178.20:8000"
TABLET = {"width": 800, "height": 1280}
LAPTOP = {"width": 1280, "height": 900}


@pytest.fixture
def hall(settings):
    """``make serve``-like settings: DEBUG off, the hall address for every link, a Wi-Fi name."""
    settings.DEBUG = False
    settings.PUBLIC_BASE_URL = HALL
    settings.WIFI_NAME = "Dörpshus"
    return settings


@pytest.fixture
def evening(transactional_db, roster_evening):
    services.draw_session(evening=roster_evening, seed=1)
    return roster_evening


def log_in(page: Page, live_server) -> None:
    page.goto(f"{live_server.url}/anmelden/")
    page.get_by_label("Benutzername").fill("leitung")
    page.get_by_label("Passwort").fill("geheim-123")
    page.get_by_role("button", name="Anmelden").click()
    expect(page).to_have_url(f"{live_server.url}/organiser/")


def enter_deal(page: Page, winner: str) -> None:
    """The common deal: tap the winning team, tap save; wait for the server's answer."""
    page.wait_for_function("() => window.htmx !== undefined && window.bruusScorerIdle !== undefined")
    field = f'input[name="winner"][value="{winner}"]'
    page.locator(f".deal-form label.tap:has({field}) > span").tap()
    with page.expect_response(lambda r: r.url.endswith("/spiel/1/") and r.request.method == "POST"):
        page.get_by_test_id("save").tap()
    expect(page.locator('tr[data-deal="1"] td.points')).to_have_text("1:0" if winner == "A" else "0:1")


def test_three_tablets_join_by_code_and_one_by_qr_link(live_server, hall, new_context, evening, organiser):
    assert not django_settings.DEBUG
    tables = {t.number: t for t in Table.objects.filter(evening=evening)}
    assert len(tables) >= 4

    # The organiser's page: every table with its QR code (a link on the hall address) and code.
    organiser_page = new_context(LAPTOP).new_page()
    log_in(organiser_page, live_server)
    organiser_page.goto(f"{live_server.url}/organiser/abende/{evening.pk}/tablets/")
    expect(organiser_page.get_by_test_id("join-url")).to_have_text(f"{HALL}/tablet/")
    expect(organiser_page.get_by_test_id("local-links-warning")).to_have_count(0)
    cards = organiser_page.get_by_test_id("tablet-card")
    expect(cards).to_have_count(len(tables))
    shown = {}
    for i in range(cards.count()):
        card = cards.nth(i)
        number = int(card.get_attribute("data-table"))
        code = card.get_by_test_id("table-code").inner_text()
        url = card.get_by_test_id("table-link").get_attribute("data-url")
        assert card.locator("svg.qr path").count() == 1
        shown[number] = (code, url)
    for number, table in tables.items():
        assert shown[number] == (display(table.code), f"{HALL}/t/{table.token}/")

    # Three tablets type table number and code at /tablet/ (one in small letters with spaces).
    typed = {1: shown[1][0], 2: f"  {shown[2][0].lower()} ", 3: shown[3][0].replace(" ", "")}
    winners = {1: "A", 2: "B", 3: "A", 4: "B"}
    pages = {}
    for number, code in typed.items():
        page = new_context(TABLET).new_page()
        page.goto(f"{live_server.url}/tablet/")
        page.get_by_label("Tischnummer").fill(str(number))
        page.get_by_label("Tischcode (auf der Tischkarte)").fill(code)
        page.get_by_role("button", name="Tisch öffnen").tap()
        expect(page).to_have_url(f"{live_server.url}/t/{tables[number].token}/")
        expect(page.locator("header .brand")).to_contain_text(f"Tisch {number}")
        pages[number] = page

    # The fourth tablet scans the QR code: the same path on the live server.
    qr_path = urlsplit(shown[4][1]).path
    page = new_context(TABLET).new_page()
    page.goto(f"{live_server.url}{qr_path}")
    expect(page.locator("header .brand")).to_contain_text("Tisch 4")
    pages[4] = page

    for number, page in pages.items():
        enter_deal(page, winners[number])

    for number, winner in winners.items():
        seating = Seating.objects.get(table=tables[number], round__session__number=1, round__number=1)
        deal = Deal.objects.get(seating=seating, number=1)
        assert deal.winner == winner, number
    played = set(
        Deal.objects.filter(seating__round__session__evening=evening).values_list("seating__table__number", flat=True)
    )
    assert played == {1, 2, 3, 4}

    # A tablet keeps its table: /tablet/ (the home-screen icon's start page) leads back to it.
    pages[2].goto(f"{live_server.url}/tablet/")
    expect(pages[2]).to_have_url(f"{live_server.url}/t/{tables[2].token}/")
    # The manifest is served locally: German, standalone, starting at /tablet/.
    manifest_href = pages[2].locator('link[rel="manifest"]').get_attribute("href")
    manifest = pages[2].request.get(f"{live_server.url}{manifest_href}")
    assert manifest.ok
    data = manifest.json()
    assert (data["lang"], data["display"], data["start_url"]) == ("de", "standalone", "/tablet/")
    icon = pages[2].request.get(f"{live_server.url}{data['icons'][0]['src']}")
    assert icon.ok and icon.headers["content-type"] == "image/png"


def test_a_wrong_code_says_so_and_a_helper_is_turned_away_from_the_organiser_only_pages(
    live_server, hall, new_context, evening, helper
):
    page = new_context(TABLET).new_page()
    page.goto(f"{live_server.url}/tablet/")
    page.get_by_label("Tischnummer").fill("2")
    page.get_by_label("Tischcode (auf der Tischkarte)").fill(
        "ABC DEF" if evening.tables.get(number=2).code != "ABCDEF" else "BCD EFG"
    )
    page.get_by_role("button", name="Tisch öffnen").tap()
    expect(page.get_by_test_id("join-error")).to_contain_text("Das ist nicht der Code von Tisch 2")
    expect(page.get_by_test_id("join-error")).to_contain_text("Verbleibende Versuche auf diesem Tablet: 9")
    expect(page.get_by_label("Tischnummer")).to_have_value("2")

    helper_page = new_context(LAPTOP).new_page()
    helper_page.goto(f"{live_server.url}/anmelden/")
    helper_page.get_by_label("Benutzername").fill("helfer")
    helper_page.get_by_label("Passwort").fill("geheim-123")
    helper_page.get_by_role("button", name="Anmelden").click()
    response = helper_page.goto(f"{live_server.url}/organiser/anmeldungen/")
    assert response.status == 403
    expect(helper_page.locator("h1")).to_have_text("Nicht für diese Anmeldung")
    helper_page.get_by_role("link", name="Zurück zu den Turnierabenden").click()
    expect(helper_page).to_have_url(f"{live_server.url}/organiser/")
