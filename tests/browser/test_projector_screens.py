"""The projector as the room sees it, in real Chromium:

- the round clock's own view: its figures large (at least 30 % of the screen's height, twice what
  they were) and in the middle of the screen, at 1280x720 and 1920x1080;
- the rotation shows the round clock once, never twice (the side's small clock and the clock's view
  at the same time);
- a ranking page fills the screen's height: at 1920x1080 with 60 players no page leaves a strip
  empty below its rows while the rotation needs another page.

Screenshots (``make screenshots``): test-results/projector-screens/.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from scoring import services
from scoring.models import Round
from tests.browser.helpers import screenshot
from tests.conftest import make_evening

pytestmark = pytest.mark.browser

TIMEOUT_MS = 15_000

_CLOCKS = """() => Array.from(document.querySelectorAll('[data-round-clock]')).filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && !el.closest('[hidden]');
}).map((el) => {
    const t = el.querySelector('[data-clock-time]').getBoundingClientRect();
    return {left: t.left, right: t.right, top: t.top, bottom: t.bottom, width: t.width, height: t.height,
            font: parseFloat(getComputedStyle(el.querySelector('[data-clock-time]')).fontSize)};
})"""

#: The ranking's list box and its rows on the page shown: how far down the rows reach.
_RANKING = """() => {
    const box = document.querySelector('.projector-section:not([hidden]) .projector-items');
    if (!box) { return null; }
    const frame = box.getBoundingClientRect();
    const rows = Array.from(box.querySelectorAll('.projector-item')).map((r) => r.getBoundingClientRect());
    const first = rows.length ? rows[0].height : 0;
    return {rows: rows.length, boxTop: frame.top, boxBottom: frame.bottom, rowHeight: first,
            lowest: Math.max(...rows.map((r) => r.bottom)), screen: window.innerHeight};
}"""


def _open(browser: Browser, url: str, width: int, height: int) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height}, locale="de-DE")
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("() => window.bruusProjector && window.bruusProjector.state() !== null")
    return page


@pytest.fixture
def clock_evening(transactional_db, organiser):
    evening = make_evening(26)
    session = services.draw_session(evening=evening, seed=1)
    services.start_round_clock(evening_id=evening.pk, round_id=Round.objects.get(session=session, number=1).pk)
    return evening


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["1280x720", "1920x1080"])
def test_the_clock_view_is_large_and_in_the_middle_of_the_screen(live_server, browser, clock_evening, organiser, size):
    width, height = size
    services.set_projector_mode(evening_id=clock_evening.pk, mode="clock", user=organiser)
    page = _open(browser, f"{live_server.url}/abend/{clock_evening.pk}/beamer/", width, height)
    clocks = page.evaluate(_CLOCKS)
    screenshot(page, "projector-screens", f"clock-{width}x{height}")
    assert len(clocks) == 1, clocks
    clock = clocks[0]
    middle = (clock["left"] + clock["right"]) / 2
    assert abs(middle - width / 2) <= 0.02 * width, f"the clock's figures centred at {middle:.0f} of {width} px"
    centre = (clock["top"] + clock["bottom"]) / 2
    assert abs(centre - height / 2) <= 0.1 * height, f"the clock's figures centred at {centre:.0f} of {height} px"
    assert clock["height"] >= 0.3 * height, f"the clock's figures {clock['height']:.0f} px high on a {height} px screen"
    assert clock["right"] <= width and clock["left"] >= 0
    box = page.evaluate(
        "(() => { const r = document.querySelector('[data-round-clock]').getBoundingClientRect(); return r.right; })()"
    )
    qr = page.evaluate("document.querySelector('[data-testid=finder-qr]').getBoundingClientRect().left")
    assert box <= qr, "the clock reaches under the QR code"
    page.context.close()


def test_the_rotation_shows_the_clock_once(live_server, browser, clock_evening, organiser):
    services.set_projector_mode(evening_id=clock_evening.pk, mode="rotation", user=organiser)
    page = _open(browser, f"{live_server.url}/abend/{clock_evening.pk}/beamer/", 1280, 720)
    state = page.evaluate("bruusProjector.state()")
    sections = []
    for index in range(state["slides"]):
        shown = page.evaluate("bruusProjector.state()")["section"]
        sections.append(shown)
        clocks = page.evaluate(_CLOCKS)
        screenshot(page, "projector-screens", f"rotation-{index + 1}-{shown}")
        assert len(clocks) == 1, f"{shown}: {len(clocks)} clocks on the screen"
        page.evaluate("bruusProjector.next()")
    assert "clock" in sections and "ranking" in sections
    page.context.close()


@pytest.mark.parametrize("players", [12, 28, 60])
def test_a_ranking_page_fills_the_screen(live_server, browser, transactional_db, players):
    """12 players: one page, its rows reach down to the foot of the screen (today: a strip of two
    rows empty); 28: one page (today: 26 on the first page, 2 alone on the second); 60: every page
    but the last full (3 pages, as today)."""
    evening = make_evening(players)
    services.draw_session(evening=evening, seed=1)
    page = _open(browser, f"{live_server.url}/abend/{evening.pk}/beamer/", 1920, 1080)
    state = page.evaluate("bruusProjector.state()")
    assert state["section"] == "ranking"
    assert state["pages"] == 1 if players <= 28 else state["pages"] <= 3, state
    measured = page.evaluate(_RANKING)
    screenshot(page, "projector-screens", f"ranking-{players}-1920x1080")
    empty = measured["boxBottom"] - measured["lowest"]
    # The rows reach down to the foot of the list box: less than one row (and its spacing) left free.
    assert empty < 1.2 * measured["rowHeight"], measured
    assert measured["boxBottom"] >= 0.85 * measured["screen"], measured
    font = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.projector-item .name')).fontSize)")
    assert font >= 0.035 * 1080
    page.context.close()
