"""Accessibility: axe-core, the accessibility engine of the browsers' own
developer tools, runs in real Chromium on every page of every role, in every language of the site
(German, English, Danish, Swedish), and finds no serious and no critical violation of WCAG 2.1 A
and AA.

Every page of tests/browser/test_layout.py (organiser, tablet, public, logins, seasons, the friendly
"not found") is checked there, in the laptop-size run of the layout check: the same pages opened
once for both checks (:func:`tests.browser.helpers.axe_violations`). Here: the pages that take an
action to reach — the friendly "no permission" page, and a page with messages above its content.

axe-core is the npm package pinned in package.json and package-lock.json; ``make test`` installs it
with ``npm ci`` into node_modules/ and the tests load it into each page (Playwright's init script).
Without it the tests fail, they never skip.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import axe_violations, with_axe
from tests.browser.test_layout import PAGES
from tests.layout_evening import build_layout_evening

TIMEOUT_MS = 15_000


def _page(browser: Browser, live_server, login, language: str) -> Page:
    """A page logged in as ``login``, with the UI in ``language`` and axe-core loaded."""
    client = Client()
    client.force_login(login)
    context = with_axe(browser.new_context(viewport={"width": 1280, "height": 900}, locale=f"{language}-DE"))
    context.set_default_timeout(TIMEOUT_MS)
    context.add_cookies(
        [
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url},
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            },
        ]
    )
    return context.new_page()


@pytest.mark.browser
@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_no_permission_page_and_messages_have_no_serious_accessibility_violation(
    live_server, browser: Browser, transactional_db, organiser, helper, language
):
    ev = build_layout_evening(language=language)
    problems: list[str] = []
    # The friendly "no permission" page (403): a Helfer opens the logins.
    page = _page(browser, live_server, helper, language)
    try:
        response = page.goto(live_server.url + reverse("organiser:logins"))
        assert response is not None and response.status == 403
        problems += [f"403 ({language}): {found}" for found in axe_violations(page)]
    finally:
        page.context.close()
    # A page with a message (the list of messages above the content).
    page = _page(browser, live_server, organiser, language)
    try:
        page.goto(live_server.url + PAGES["organiser:evening_players"][0][2](ev))
        page.locator("form.row input[name=name]").fill("Neue Spielerin")
        page.locator("form.row button.primary").click()
        expect(page.locator("ul.messages li").first).to_be_visible()  # added; after the draw also: not seated
        problems += [f"check-in with a message ({language}): {found}" for found in axe_violations(page)]
    finally:
        page.context.close()
    assert not problems, "\n".join(problems)
