"""Smaller details of the screens (limits shown in the form, errors at their field, dashes for
sessions not drawn), each as a user would notice it."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, expect

from scoring import services
from scoring.models import Evening, Seating
from tests.conftest import make_evening
from tests.layout_evening import build_layout_evening

GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de"}
NEW_EVENING = {
    "name": "Herbstabend",
    "date": "2026-11-21",
    "venue": "Dörpshus",
    "sessions_count": 3,
    "rounds_per_session": 4,
    "deals_per_round": 4,
    "language": "de",
}


def field_block(page: str, name: str) -> str:
    """The HTML of the form field ``name``: its label, error and input (includes/form_fields.html)."""
    blocks = re.findall(r'<div class="field[^"]*">.*?</div>', page, re.DOTALL)
    return next(b for b in blocks if f'name="{name}"' in b)


@pytest.mark.django_db
def test_new_evening_form_has_the_limits_in_the_browser(organiser_client):
    page = organiser_client.get(reverse("organiser:evening_create"), **GERMAN).content.decode()
    assert 'min="1"' in field_block(page, "sessions_count") and 'max="6"' in field_block(page, "sessions_count")
    assert 'min="1"' in field_block(page, "deals_per_round") and 'max="8"' in field_block(page, "deals_per_round")


@pytest.mark.django_db
def test_new_evening_error_stands_at_its_own_field(organiser_client):
    response = organiser_client.post(
        reverse("organiser:evening_create"), {**NEW_EVENING, "sessions_count": 0}, **GERMAN
    )
    assert response.status_code == 200 and not Evening.objects.exists()
    page = response.content.decode()
    assert "größer oder gleich 1" in field_block(page, "sessions_count")
    assert "errorlist" not in field_block(page, "venue")  # the field above it
    assert "errorlist" not in field_block(page, "rounds_per_session")


@pytest.mark.django_db
def test_the_tablets_correction_form_says_it_corrects(client):
    ev = build_layout_evening()
    url = reverse("scorer:table", args=[ev.entering.token])
    correcting = client.get(url + "?deal=1", **GERMAN).content.decode()
    assert re.search(r'data-testid="deal-title">Spiel 1 korrigieren<', correcting)
    assert "Korrektur von Spiel 1 speichern" in correcting
    new = client.get(url, **GERMAN).content.decode()
    assert re.search(r'data-testid="deal-title">Spiel 3<', new) and "Spiel 3 speichern" in new


@pytest.mark.django_db
def test_web_ranking_shows_a_dash_for_sessions_not_drawn(organiser_client):
    evening = make_evening(8)
    services.draw_session(evening=evening, seed=1)
    page = organiser_client.get(reverse("organiser:ranking", args=[evening.pk]), **GERMAN).content.decode()
    rows = re.findall(r"<tr>(.*?)</tr>", page, re.DOTALL)[1:]
    assert len(rows) == 8
    for row in rows:
        assert re.search(r'<td class="s1">0</td>', row), row  # drawn, nothing played yet: 0
        assert re.search(r'<td class="s2">–</td>', row) and re.search(r'<td class="s3">–</td>', row), row


@pytest.mark.django_db
def test_ranking_download_shows_a_dash_for_sessions_not_drawn(organiser_client):
    evening = make_evening(8)
    services.draw_session(evening=evening, seed=1)
    response = organiser_client.get(reverse("organiser:ranking", args=[evening.pk]) + "?_export=csv", **GERMAN)
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][3:6] == ["Durchgang 1", "Durchgang 2", "Durchgang 3"]
    assert all(row[3:6] == ["0", "–", "–"] for row in rows[1:]), rows


@pytest.mark.django_db
def test_favicon_is_linked_and_served(client):
    page = client.get(reverse("public:home")).content.decode()
    assert 'rel="icon" href="/static/favicon.ico"' in page and 'href="/static/favicon.svg"' in page
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/favicon.ico"
    icon = settings.BASE_DIR / "static" / "favicon.ico"
    assert icon.read_bytes()[:4] == b"\x00\x00\x01\x00"  # a Windows icon file


# --- In Chromium --------------------------------------------------------------------------------


@pytest.mark.browser
def test_check_in_search_field_is_big_enough(live_server, browser: Browser, transactional_db, organiser):
    evening = make_evening(4)
    client = Client()
    client.force_login(organiser)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    page = context.new_page()
    page.goto(live_server.url + reverse("organiser:evening_players", args=[evening.pk]))
    field = page.locator('form.search input[name="q"]')
    box = field.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 200, box
    assert float(field.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")) >= 18
    context.close()


@pytest.mark.browser
def test_offline_entry_drops_the_old_saved_message_and_says_what_it_is(live_server, browser: Browser, transactional_db):
    ev = build_layout_evening()
    seating = Seating.objects.get(pk=ev.entering_seating.pk)
    context = browser.new_context(viewport={"width": 800, "height": 1280}, has_touch=True, locale="de-DE")
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{ev.entering.token}/")
    page.wait_for_function("() => window.htmx !== undefined && window.bruusScorerIdle !== undefined")
    page.locator('.deal-form label.tap:has(input[name="winner"][value="A"]) > span').tap()
    page.get_by_test_id("save").tap()
    expect(page.locator("#scorer-state .msg.success")).to_contain_text("Spiel 3 gespeichert")

    context.set_offline(True)
    page.locator('.deal-form label.tap:has(input[name="winner"][value="B"]) > span').tap()
    page.locator('.deal-form label.tap:has(input[name="to_nil"]) > span').tap()
    page.get_by_test_id("save").tap()
    expect(page.locator('tr[data-deal="4"] [data-testid="pending-badge"]')).to_have_text("noch nicht gesendet")
    expect(page.get_by_test_id("connection")).to_contain_text("nicht gesendet")
    expect(page.locator("#scorer-state .msg.success")).to_have_count(0)  # "Spiel 3 gespeichert" is gone
    expect(page.locator('tr[data-deal="4"] td.pending-info')).to_have_text(
        "noch nicht gesendet Fünf Stiche: Team B · zu Null · Streichhölzer A:B 0:2"
    )
    assert seating.deals.filter(number=4).count() == 0
    context.set_offline(False)
    expect(page.locator('[data-testid="pending-badge"]')).to_have_count(0, timeout=20_000)
    assert seating.deals.filter(number=4).count() == 1
    context.close()


@pytest.mark.browser
@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_seat_finder_on_a_phone_header_is_short_and_search_fits(
    live_server, browser: Browser, transactional_db, language
):
    ev = build_layout_evening(language)
    context = browser.new_context(
        viewport={"width": 360, "height": 640}, has_touch=True, is_mobile=True, locale=language
    )
    page = context.new_page()
    page.goto(live_server.url + reverse("public:seat_finder", args=[ev.evening.pk]))
    header = page.locator("header.top").bounding_box()
    assert header["height"] <= 60, header  # was 135 px: evening name and language buttons in 3 lines
    search = page.locator(".finder-search button").bounding_box()
    assert search["x"] + search["width"] <= 360 and search["height"] >= 44, search
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()
