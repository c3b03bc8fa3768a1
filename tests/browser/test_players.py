"""A player's page and merging two register entries in real Chromium: the SVG chart shows without
breaking the Content-Security-Policy, and the merge asks before it changes anything."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring import services
from scoring.models import Player
from tests.browser.helpers import settle
from tests.browser.test_csp import page_with_log  # noqa: F401 (fixture)
from tests.services.test_player_merge import small_evening

pytestmark = pytest.mark.browser


def test_player_page_chart_and_merge_with_confirmation(live_server, page_with_log, transactional_db, organiser):
    page, problems = page_with_log
    client = Client()
    client.force_login(organiser)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    jens, _ = services.add_player(name="Jens Carstensen")
    twin, _ = services.add_player(name="Jens Carstensen", club="Schwesing")
    others = [services.add_player(name=n, club="Treia")[0] for n in ("Anke Hansen", "Bernd Jensen", "Carla Lorenzen")]
    small_evening("März I", 1, [jens, *others])
    small_evening("März II", 8, [jens, *others])
    small_evening("März III", 15, [twin, *others])

    page.goto(f"{live_server.url}/organiser/spieler/{jens.pk}/abende/")
    settle(page)
    chart = page.locator('svg[data-testid="place-chart"]')
    assert chart.is_visible() and chart.locator("circle").count() == 2
    assert chart.bounding_box()["width"] > 300

    page.goto(f"{live_server.url}/organiser/spieler/zusammenfuehren/?keep={jens.pk}&remove={twin.pk}")
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.get_by_role("button", name="Jetzt zusammenführen").click()
    page.wait_for_timeout(500)
    assert asked and "nicht rückgängig" in asked[0]
    assert Player.objects.filter(pk=twin.pk).exists()  # "cancel": nothing merged

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Jetzt zusammenführen").click()
    page.wait_for_url(f"**/organiser/spieler/{jens.pk}/abende/")
    assert "zusammengeführt" in page.locator(".messages").inner_text()
    assert page.locator('svg[data-testid="place-chart"] circle').count() == 3
    assert not Player.objects.filter(pk=twin.pk).exists()
    assert not [p for p in problems if "Content Security Policy" in p or "Refused" in p], problems
