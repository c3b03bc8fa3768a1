"""Accessibility (issue 28, point 5): axe-core, the accessibility engine of the browsers' own
developer tools, runs in real Chromium on every page of every role (the pages of
tests/browser/test_layout.py: organiser, tablet, public, logins, seasons, the friendly "not found"), in
every language of the site (German, English, Danish, Swedish), and finds no serious and no critical
violation of WCAG 2.1 A and AA.

axe-core is the npm package pinned in package.json and package-lock.json; ``make test`` installs it
with ``npm ci`` into node_modules/ and the test injects it into each page (Playwright's
``add_script_tag``). Without it the test fails, it never skips.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, Page

from tests.browser.helpers import settle
from tests.browser.test_layout import NOT_FOUND, ORGANISER, PAGES, ROLES
from tests.layout_evening import build_layout_evening

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
#: WCAG 2.0 and 2.1, levels A and AA (axe-core's tags), and the rule of WCAG 2.5.3 "label in name",
#: which axe-core counts as experimental and leaves out unless asked.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
FAILING_IMPACTS = {"serious", "critical"}
TIMEOUT_MS = 15_000


def axe_violations(page: Page) -> list[str]:
    """The serious and critical WCAG 2.1 A/AA violations axe-core finds on ``page``, one line each:
    rule id, impact, and where (the first three elements' selectors)."""
    if not AXE.is_file():
        pytest.fail(f"axe-core is not installed ({AXE}): run `make test` (npm ci) first")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        """async (tags) => {
            const r = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations'],
                                               rules: {'label-content-name-mismatch': {enabled: true}}});
            return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                           nodes: v.nodes.map(n => n.target.join(' '))}));
        }""",
        WCAG_TAGS,
    )
    return [
        f"{v['id']} ({v['impact']}: {v['help']}) at {', '.join(v['nodes'][:3])}"
        for v in result
        if v["impact"] in FAILING_IMPACTS
    ]


def _pages(browser: Browser, live_server, organiser, language: str, helper=None) -> dict:
    """A page logged in as the organiser and one without a login (and one as a Helfer, key
    "helper"), all with the UI in ``language``."""
    cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    pages = {}
    for logged_in in (True, False, "helper"):
        if logged_in == "helper" and helper is None:
            continue
        client = Client()
        client.force_login(helper if logged_in == "helper" else organiser)
        context = browser.new_context(
            viewport={"width": 1280, "height": 900},
            locale=f"{language}-DE",
            bypass_csp=True,  # axe is injected
        )
        context.set_default_timeout(TIMEOUT_MS)
        session = [{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value}]
        context.add_cookies(cookies + ([{**session[0], "url": live_server.url}] if logged_in else []))
        pages[logged_in] = context.new_page()
    return pages


@pytest.mark.browser
@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_every_page_has_no_serious_accessibility_violation(
    live_server, browser: Browser, transactional_db, organiser, helper, language
):
    ev = build_layout_evening(language=language)
    pages = _pages(browser, live_server, organiser, language, helper)
    problems: list[str] = []
    visited = 0
    try:
        for entries in PAGES.values():
            for label, role, url in entries:
                page = pages[ROLES[role][0]]
                response = page.goto(live_server.url + url(ev))
                expected = 404 if label in NOT_FOUND else 200
                assert response is not None and response.status == expected, (label, response and response.status)
                settle(page)
                problems += [f"{label} ({language}): {found}" for found in axe_violations(page)]
                visited += 1
        # The friendly "no permission" page (403): a Helfer opens the logins.
        response = pages["helper"].goto(live_server.url + reverse("organiser:logins"))
        assert response is not None and response.status == 403
        problems += [f"403 ({language}): {found}" for found in axe_violations(pages["helper"])]
        # A page with a message (the list of messages above the content).
        page = pages[ROLES[ORGANISER][0]]
        page.goto(live_server.url + PAGES["organiser:evening_players"][0][2](ev))
        page.locator("form.row input[name=name]").fill("Neue Spielerin")
        page.locator("form.row button.primary").click()
        page.wait_for_load_state("networkidle")
        assert page.locator("ul.messages li").count() >= 1  # added; after the draw also: not seated
        problems += [f"check-in with a message ({language}): {found}" for found in axe_violations(page)]
    finally:
        for page in pages.values():
            page.context.close()
    assert visited >= 40, visited
    assert not problems, "\n".join(problems)
