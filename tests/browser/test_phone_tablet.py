"""A phone as the table's tablet: at 360x640 and 390x844 the step's main button
is on the screen as the page opens, without scrolling, on every step of a round:

- the first deal of the evening (the form, "Spiel 1 speichern");
- the first deal after a confirmed round, under "where everyone sits next";
- a deal in the middle of a round;
- every deal entered: "Runde abschließen"; and a deal corrected then: "Korrektur speichern";
- the round finished: "Team B bestätigt";
- the table-code page (/tablet/): "Tisch öffnen";

also with the organiser logged in (the organiser using a phone as a table's tablet). "On the
screen" means inside the window and not covered by anything else (the button is what a tap in its
middle hits). The tablet (800x1280) is measured too, so that it stays as good as it is.

Screenshots (``make screenshots``): test-results/phone-tablet/<step>-<size>.png.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, Page

from scoring import services
from scoring.models import Table
from tests.browser.helpers import screenshot, settle
from tests.conftest import make_evening
from tests.layout_evening import build_layout_evening

pytestmark = pytest.mark.browser

SIZES = {"phone-360x640": (360, 640), "phone-390x844": (390, 844), "tablet-800x1280": (800, 1280)}
MIN_TOUCH_TARGET_PX = 48
#: Two rows of 48 px touch targets, 8 px apart, and a little room around them.
MAX_PHONE_HEADER_PX = 120
TIMEOUT_MS = 15_000

#: Where a tap in the middle of the button lands, and the button's box, before any scroll.
_MEASURE = """(selector) => {
    const el = document.querySelector(selector);
    if (!el) { return null; }
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height,
            scrollY: window.scrollY, hit: !!hit && (hit === el || el.contains(hit)),
            hitName: hit ? hit.tagName + '.' + hit.className : null};
}"""


@pytest.fixture
def steps(transactional_db) -> dict[str, str]:
    """Step name -> the URL (path) of a tablet page at that step, and the selector of its button."""
    layout = build_layout_evening()
    first = make_evening(12)
    services.draw_session(evening=first, seed=1)
    first_table = Table.objects.get(evening=first, number=1)
    table = lambda t: reverse("scorer:table", args=[t.token])  # noqa: E731
    return {
        "first-deal": (table(first_table), '[data-testid="save"]'),
        "deal-after-round": (table(layout.confirmed), '[data-testid="save"]'),
        "deal-3": (table(layout.entering), '[data-testid="save"]'),
        "finish": (table(layout.all_entered), '[data-testid="finish-a"]'),
        # Every deal entered, one corrected before finishing: the form's bar, not the finish buttons.
        "correction": (table(layout.all_entered) + "?deal=2", '[data-testid="save"]'),
        "confirm": (table(layout.finished), '[data-testid="confirm-button"]'),
        "table-code": (reverse("public:tablet_join"), ".join-form button"),
    }


@pytest.fixture
def open_page(browser: Browser, live_server) -> Iterator:
    contexts = []

    def make(size: tuple[int, int], path: str, *, session: str | None = None) -> Page:
        width, height = size
        context = browser.new_context(
            viewport={"width": width, "height": height}, has_touch=True, is_mobile=width < 700, locale="de-DE"
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        if session:
            context.add_cookies([{"name": "sessionid", "value": session, "url": live_server.url}])
        page = context.new_page()
        page.goto(live_server.url + path)
        settle(page)
        return page

    yield make
    for context in contexts:
        context.close()


def _problems(page: Page, selector: str, size: tuple[int, int]) -> list[str]:
    box = page.evaluate(_MEASURE, selector)
    if box is None:
        return [f"{selector}: not on the page"]
    problems = []
    if box["scrollY"]:
        problems.append(f"{selector}: the page opened scrolled ({box['scrollY']} px)")
    if box["top"] < 0 or box["bottom"] > size[1] or box["left"] < 0 or box["right"] > size[0]:
        problems.append(f"{selector}: not in view (top {box['top']:.0f}, bottom {box['bottom']:.0f} of {size[1]} px)")
    elif not box["hit"]:
        problems.append(f"{selector}: covered by {box['hitName']}")
    if box["height"] < MIN_TOUCH_TARGET_PX:
        problems.append(f"{selector}: {box['height']:.0f} px high")
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > size[0]:
        problems.append(f"the page scrolls sideways ({width} px)")
    return problems


def test_the_main_button_of_every_step_is_in_view_without_scrolling(open_page, steps, organiser):
    """Every size in one test: the evening is built once (the sizes share it)."""
    client = Client()
    client.force_login(organiser)
    session_cookie = client.cookies["sessionid"].value
    problems = []
    for size_name, size in SIZES.items():
        for step, (path, selector) in steps.items():
            for who in ("player", "organiser"):
                if who == "organiser" and step not in ("deal-after-round", "confirm", "table-code"):
                    continue  # the same header on every step of a round: the longest two, and /tablet/
                page = open_page(size, path, session=session_cookie if who == "organiser" else None)
                found = [f"{step} ({who}) at {size_name}: {p}" for p in _problems(page, selector, size)]
                if step == "table-code" and size[0] < 700:
                    # The organiser's header on a phone: one line for the name and the languages, one
                    # for the menu (it was four lines, 230-290 px of 640).
                    header = page.locator("header.top").bounding_box()
                    if header["height"] > MAX_PHONE_HEADER_PX:
                        found.append(f"{step} ({who}) at {size_name}: the header is {header['height']:.0f} px high")
                screenshot(page, "phone-tablet", f"{step}-{who}-{size_name}", always=bool(found))
                problems += found
                page.context.close()
    assert not problems, "\n".join(problems)
