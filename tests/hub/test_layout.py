"""The hub's pages in Chromium at phone and laptop size, German and Danish (longer words): no
sideways scrolling, touch targets of 44x44 px, 8 px apart (tests/layout_check.js), and axe-core's
WCAG 2.1 A/AA check at laptop size."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import Browser

from scoring.hub import services
from tests.browser.helpers import axe_violations, screenshot, settle, with_axe
from tests.browser.test_layout import CHECK, MIN_GAP_PX, MIN_TARGET_PX, TIMEOUT_MS
from tests.hub.conftest import evening_snapshot, post, season_snapshot

SIZES = {"phone": (360, 640), "laptop": (1280, 900)}


@pytest.mark.browser
@pytest.mark.parametrize("language", ["de", "da"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_hubs_pages_fit(live_server, browser: Browser, transactional_db, hub_role, size, language):
    club, key = services.create_club("Bruus- und Kartenspielverein Schwesing-Oster-Ohrstedt von 1923")
    services.set_club_imprint(club.name, "Vorsitz: Anna Petersen, Dorfstraße 1, 25813 Schwesing")
    snapshot = evening_snapshot(count=24)
    snapshot["rounds"][0]["tables"][0]["deals"] = [{"number": n, "points_a": 5, "points_b": 0} for n in range(1, 5)]
    assert post(Client(), snapshot, key).status_code == 200
    assert post(Client(), season_snapshot(), key).status_code == 200
    association = services.create_association("Nordfriesischer Bruusverband", [club.name])
    season = services.add_association_season(association.name, "Winter 2026/27", "2026-09-01", "2027-04-30")
    prefix = "" if language == "de" else f"/{language}"
    pages = {
        "home": "/",
        "club": f"/verein/{club.slug}/",
        "evening": f"/verein/{club.slug}/abend/hall-1-17/",
        "player": f"/verein/{club.slug}/spieler/p-0001/",
        "season": f"/verein/{club.slug}/saison/hall-1-s3/",
        "association": f"/verband/{association.slug}/",
        "association-season": f"/verband/{association.slug}/saison/{season.pk}/",
    }
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True, is_mobile=width < 500)
    context.set_default_timeout(TIMEOUT_MS)
    if size == "laptop":
        with_axe(context)
    page = context.new_page()
    problems: list[str] = []
    try:
        for label, url in pages.items():
            response = page.goto(live_server.url + prefix + url)
            assert response is not None and response.status == 200, label
            settle(page)
            found = page.evaluate(CHECK, {"minTarget": MIN_TARGET_PX, "minGap": MIN_GAP_PX})
            screenshot(page, "layout", f"hub-{label}-{language}-{width}x{height}", full_page=True, always=bool(found))
            problems += [f"{label} ({language}) at {width}x{height}: {problem}" for problem in found]
            if size == "laptop":
                problems += [f"{label} ({language}), axe-core: {v}" for v in axe_violations(page)]
    finally:
        context.close()
    assert not problems, "\n".join(problems)
