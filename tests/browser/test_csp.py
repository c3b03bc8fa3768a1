"""The Content-Security-Policy in real Chromium: no page breaks it (no inline script,
no eval, no inline style), the confirmation questions still ask, and the tablet page still polls
and posts with htmx."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from scoring import selectors, services
from scoring.hall.origin import Origin
from scoring.models import Table
from tests import factories
from tests.browser.helpers import settle

pytestmark = pytest.mark.browser


@pytest.fixture
def page_with_log(browser):
    context = browser.new_context(viewport={"width": 800, "height": 1280}, locale="de-DE")
    context.set_default_timeout(15_000)
    context.clock.install()  # Playwright's clock: the test moves it on instead of waiting (polls)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    yield page, problems
    context.close()


def test_no_page_breaks_the_policy_and_the_questions_still_ask(
    live_server, page_with_log, transactional_db, roster_evening, organiser
):
    page, problems = page_with_log
    services.draw_session(evening=roster_evening, seed=1)
    table = Table.objects.get(evening=roster_evening, number=1)
    client = Client()
    client.force_login(organiser)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    for path in (
        "/",
        "/hilfe/",
        "/hilfe/leitfaden/",
        f"/abend/{roster_evening.pk}/rangliste/",
        f"/abend/{roster_evening.pk}/platz/",
        f"/organiser/abende/{roster_evening.pk}/",
        f"/organiser/abende/{roster_evening.pk}/live/",
        f"/organiser/abende/{roster_evening.pk}/durchgang/1/",
        f"/t/{table.token}/",
    ):
        page.goto(live_server.url + path)
        settle(page)  # loaded, scripts run, laid out: a refused script or style has said so by now
    assert not [p for p in problems if "Content Security Policy" in p or "Refused" in p], problems

    # "New link (tablet lost)": the question comes from confirm.js; "cancel" keeps the old link.
    old = table.token
    page.goto(f"{live_server.url}/organiser/abende/{roster_evening.pk}/")
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.locator('form[action$="/tisch/1/neuer-link/"] button').click()
    page.wait_for_timeout(500)
    assert asked and "alte Link" in asked[0]
    table.refresh_from_db()
    assert table.token == old

    # The tablet posts with htmx (no full page load) and its poll picks up another tablet's entry.
    page.goto(f"{live_server.url}/t/{table.token}/")
    page.evaluate("window.__same_page = true")
    page.locator('label.tap:has(input[name="winner"][value="A"]) > span').first.click()
    page.locator("button.save").click()
    expect(page.locator("#scorer-state")).to_contain_text("Spiel 1 gespeichert")
    assert page.evaluate("window.__same_page === true")
    seating = selectors.current_seating(table)
    factories.enter_deal(seating, 2, "B", table=table, origin=Origin.other("other tablet"))
    page.clock.run_for(15_000)  # the tablet's poll, every 15 s
    expect(page.locator('tr[data-deal="2"]')).to_have_attribute("data-entered", "1")
    assert not [p for p in problems if "Content Security Policy" in p or "Refused" in p], problems
