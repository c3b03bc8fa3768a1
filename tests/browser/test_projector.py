"""The projector page and the season screen in real Chromium: at
1024x768, 1280x720, 1920x1080 and a portrait TV (1080x1920), with 26 and 60 players, no row is
cut at an edge, names are at least 3.5 % of the screen height, the page never scrolls, the QR
code of "Where do I sit?" is on screen, and every player appears within the rotation (driven
through the page's own script, window.bruusProjector, instead of waiting for its timer).
Screenshots of every page of the rotation go to test-results/projector/ (``make screenshots``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from scoring import selectors, services
from scoring.models import Seating
from scoring.web import screen_cache
from tests import factories
from tests.browser.helpers import screenshot
from tests.conftest import make_evening
from tests.services.test_seasons import small_season  # noqa: F401 (fixture)

pytestmark = pytest.mark.browser

SIZES = [(1024, 768), (1280, 720), (1920, 1080), (1080, 1920)]
SCRIPT = Path(__file__).resolve().parents[2] / "static" / "js" / "projector.js"
TIMEOUT_MS = 15_000

#: Everything the tests look at on the slide shown, measured by the browser.
MEASURE = """() => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const section = document.querySelector('.projector-section:not([hidden])');
  const box = section.querySelector('.projector-items');
  const frame = box ? box.getBoundingClientRect() : null;
  const qr = document.querySelector('[data-testid=finder-qr] svg');
  const q = qr ? qr.getBoundingClientRect() : null;
  const cut = [], names = [], fonts = [];
  const label = (el) => el.dataset.player || el.textContent.trim();
  const overlaps = (r, o) => r.left < o.right && r.right > o.left && r.top < o.bottom && r.bottom > o.top;
  section.querySelectorAll('.projector-item').forEach((item) => {
    const r = item.getBoundingClientRect();
    const where = `${label(item)} at ${[r.left, r.top, r.right, r.bottom].map(Math.round)}`;
    if (r.top < 0 || r.left < 0 || r.bottom > vh + 0.5 || r.right > vw + 0.5) cut.push('off screen: ' + where);
    if (frame && (r.top < frame.top - 0.5 || r.bottom > frame.bottom + 0.5 || r.right > frame.right + 0.5)) {
      cut.push('outside its box: ' + where);
    }
    if (q && overlaps(r, q)) cut.push('under the QR code: ' + where);
    item.querySelectorAll('.name').forEach((name) => {
      if (name.scrollWidth > name.clientWidth + 1) cut.push('name cut short: ' + where);
      fonts.push(parseFloat(getComputedStyle(name).fontSize));
    });
    const people = item.dataset.player ? [item] : item.querySelectorAll('[data-player]');
    people.forEach((el) => names.push(el.dataset.player));
  });
  const doc = document.documentElement;
  return {
    section: section.dataset.section, cut, names, smallestFont: fonts.length ? Math.min(...fonts) : null,
    scrolls: doc.scrollHeight > vh + 1 || doc.scrollWidth > vw + 1,
    qr: q ? {top: q.top, bottom: q.bottom, left: q.left, right: q.right, size: Math.min(q.width, q.height)} : null,
    pageLabel: (section.querySelector('[data-page-of]') || {}).textContent || '',
  };
}"""


def _context(browser: Browser, width: int, height: int):
    context = browser.new_context(viewport={"width": width, "height": height}, locale="de-DE")
    context.set_default_timeout(TIMEOUT_MS)
    return context


def _walk(page: Page, shot: str) -> dict[str, list[dict]]:
    """Every slide of the rotation once, measured: section -> the measurements of its pages."""
    page.wait_for_function("() => window.bruusProjector && window.bruusProjector.state() !== null")
    state = page.evaluate("bruusProjector.state()")
    seen: dict[str, list[dict]] = {}
    for index in range(state["slides"]):
        measured = page.evaluate(MEASURE)
        seen.setdefault(measured["section"], []).append(measured | {"state": page.evaluate("bruusProjector.state()")})
        screenshot(page, "projector", f"{shot}-{index + 1}")
        page.evaluate("bruusProjector.next()")
    assert page.evaluate("bruusProjector.state()")["slide"] == 0  # round and back to the start
    return seen


def _check_slides(seen: dict[str, list[dict]], width: int, height: int, where: str) -> None:
    for section, pages in seen.items():
        for number, measured in enumerate(pages, start=1):
            at = f"{where}, {section} page {number}"
            assert measured["cut"] == [], at
            assert not measured["scrolls"], at
            if measured["smallestFont"] is not None:
                assert measured["smallestFont"] >= 0.035 * height, at
            if len(pages) > 1:  # "Seite 2 von 3"
                assert measured["pageLabel"] == f"Seite {number} von {len(pages)}", at
            qr = measured["qr"]
            if qr is not None:
                assert qr["top"] >= 0 and qr["left"] >= 0 and qr["bottom"] <= height and qr["right"] <= width, at
                assert qr["size"] >= 0.12 * min(width, height), at  # big enough to scan from a table


def _with_long_names(evening, count: int) -> None:
    """Check ``count`` more players in to ``evening``, named from its own players' names with a
    double surname ("Hauke Petersen-Lorenzen", up to 30 letters): names that must wrap, never be
    cut short."""
    names = [p.name.split() for p in evening.players.order_by("pk")]
    made: set[str] = set()
    for n in range(26 * 26):
        if len(made) == count:
            break
        first, last, other = names[n % 26][0], names[(n + n // 26 + 1) % 26][-1], names[(n // 2 + 5) % 26][-1]
        if last == other or f"{first} {last}-{other}" in made:
            continue
        made.add(f"{first} {last}-{other}")
        player, _ = services.add_player(name=f"{first} {last}-{other}", club="")
        services.set_checked_in(evening=evening, player=player, checked_in=True)


@pytest.mark.parametrize("players", [26, 60])
def test_every_player_is_on_every_beamer_within_the_rotation(
    live_server, browser, transactional_db, roster_evening, organiser, players
):
    """26: the real Schwesing roster; 60: the roster and 34 players with double surnames."""
    evening = roster_evening
    _with_long_names(evening, players - 26)
    assert evening.players.count() == players
    services.draw_session(evening=evening, seed=1)
    services.set_projector_mode(evening_id=evening.pk, mode="rotation", user=organiser)
    everybody = list(selectors.evening_display_names(evening.pk).values())
    assert len(set(everybody)) == players
    for width, height in SIZES:
        context = _context(browser, width, height)
        page = context.new_page()
        page.goto(f"{live_server.url}/abend/{evening.pk}/beamer/")
        seen = _walk(page, f"rotation-{players}-{width}x{height}")
        where = f"{players} players at {width}x{height}"
        assert set(seen) == {"ranking", "seating"}, where
        _check_slides(seen, width, height, where)
        for section in ("ranking", "seating"):
            shown = [name for measured in seen[section] for name in measured["names"]]
            assert sorted(shown) == sorted(everybody), f"{where}: {section} shows each player once"
        slides = sum(len(pages) for pages in seen.values())
        seconds = page.evaluate("bruusProjector.state()")["seconds"]
        assert slides == 1 or slides * seconds <= 60 or seconds == 6, where  # a minute, unless > 10 pages
        context.close()


def test_a_poll_keeps_the_page_shown_and_brings_the_new_totals(live_server, browser, transactional_db, monkeypatch):
    monkeypatch.setattr(screen_cache, "FLOOR_SECONDS", 0)
    evening = make_evening(60)
    services.draw_session(evening=evening, seed=1)
    context = _context(browser, 1280, 720)
    page = context.new_page()
    page.goto(f"{live_server.url}/abend/{evening.pk}/beamer/")
    page.wait_for_function("() => window.bruusProjector && window.bruusProjector.state() !== null")
    assert page.evaluate("bruusProjector.state()")["pages"] >= 3
    page.evaluate("bruusProjector.next()")
    before = page.evaluate("bruusProjector.state()")
    assert before["page"] == 1 and before["due"] > 0
    seating = Seating.objects.select_related("table").filter(round__session__evening=evening).first()
    factories.enter_deal(seating)
    expect(page.locator(".projector-item .place").first).to_have_text("1.*")  # nobody has played yet
    page.evaluate("document.getElementById('projector').dataset.old = 'yes'")
    page.evaluate("htmx.ajax('GET', location.pathname, {target: '#projector', swap: 'outerHTML'})")
    expect(page.locator("#projector:not([data-old])")).to_be_attached()
    # Two players lead with one matchstick: the second page now starts at place 3, and is still shown.
    expect(page.locator(".projector-item .place").first).to_have_text("3.*")
    state = page.evaluate("bruusProjector.state()")
    assert (state["section"], state["page"]) == ("ranking", 1)
    # The page keeps its time: polls that bring new totals every 10 s never hold it back.
    assert state["due"] == before["due"]
    assert page.evaluate(MEASURE)["cut"] == []
    context.close()


def test_the_organiser_switches_the_projector_from_the_live_overview(
    live_server, browser, transactional_db, organiser, monkeypatch
):
    monkeypatch.setattr(screen_cache, "FLOOR_SECONDS", 0)
    evening = make_evening(26)
    services.draw_session(evening=evening, seed=1)
    beamer = _context(browser, 1280, 720).new_page()
    beamer.goto(f"{live_server.url}/abend/{evening.pk}/beamer/")
    expect(beamer.get_by_test_id("projector-ranking")).to_be_visible()

    laptop = _context(browser, 1280, 900).new_page()
    laptop.goto(f"{live_server.url}/anmelden/")
    laptop.get_by_label("Benutzername").fill("leitung")
    laptop.get_by_label("Passwort").fill("geheim-123")
    laptop.get_by_role("button", name="Anmelden").click()
    laptop.goto(f"{live_server.url}/organiser/abende/{evening.pk}/live/")
    laptop.get_by_test_id("projector-mode-seating").click()
    expect(laptop.get_by_text("Der Beamer zeigt jetzt: Sitzplan der nächsten Runde.")).to_be_visible()
    expect(laptop.get_by_test_id("projector-mode-seating")).to_have_attribute("aria-pressed", "true")

    beamer.evaluate("htmx.ajax('GET', location.pathname, {target: '#projector', swap: 'outerHTML'})")
    expect(beamer.get_by_test_id("projector-seating")).to_be_visible()
    expect(beamer.get_by_test_id("projector-ranking")).to_have_count(0)
    beamer.wait_for_function("() => bruusProjector.state().section === 'seating'")
    assert beamer.evaluate(MEASURE)["cut"] == []
    beamer.context.close()
    laptop.context.close()


def test_the_season_screen_fits_every_beamer(live_server, browser, small_season):
    everybody = {line.player.name for line in selectors.season_ranking(small_season).lines}
    for width, height in SIZES:
        context = _context(browser, width, height)
        page = context.new_page()
        page.goto(f"{live_server.url}/saison/{small_season.pk}/rangliste/")
        seen = _walk(page, f"season-{width}x{height}")
        _check_slides(seen, width, height, f"season at {width}x{height}")
        assert sorted(n for measured in seen["season"] for n in measured["names"]) == sorted(everybody)
        context.close()


# --- The paging itself: the script's pure functions, no server, no database ------------------------


@pytest.fixture
def script(browser: Browser):
    context = browser.new_context()
    page = context.new_page()
    page.set_content("<!DOCTYPE html><html><body></body></html>")
    page.add_script_tag(path=str(SCRIPT))
    yield page
    context.close()


def test_paging_fills_column_after_column_and_page_after_page(script):
    paginate = "([h, box, cols, gap]) => bruusProjector.paginate(h, box, cols, gap)"
    assert script.evaluate(paginate, [[10] * 7, 30, 2, 0]) == [[[0, 1, 2], [3, 4, 5]], [[6]]]
    # The gap between two rows counts; a row that does not fit whole starts the next column.
    assert script.evaluate(paginate, [[10] * 4, 30, 1, 5]) == [[[0, 1]], [[2, 3]]]
    assert script.evaluate(paginate, [[10, 25, 10], 30, 3, 0]) == [[[0], [1], [2]]]
    # A row taller than the box gets a column of its own (never lost).
    assert script.evaluate(paginate, [[50, 10], 30, 1, 0]) == [[[0]], [[1]]]
    assert script.evaluate(paginate, [[], 30, 2, 0]) == []
    # 60 rows of 48 px in 600 px, two columns: 12 a column, 24 a page, three pages.
    pages = script.evaluate(paginate, [[48] * 60, 600, 2, 0])
    assert [sum(len(c) for c in p) for p in pages] == [24, 24, 12]
    assert [i for p in pages for c in p for i in c] == list(range(60))


def test_columns_and_seconds_per_page(script):
    columns = "([w, min, gap]) => bruusProjector.columnCount(w, min, gap)"
    assert script.evaluate(columns, [1000, 300, 20]) == 3
    assert script.evaluate(columns, [939, 300, 20]) == 2
    assert script.evaluate(columns, [200, 300, 20]) == 1
    assert script.evaluate(columns, [1000, 0, 20]) == 1
    seconds = [script.evaluate("(n) => bruusProjector.pageSeconds(n)", n) for n in (1, 2, 4, 5, 8, 10, 30)]
    assert seconds == [0, 15, 15, 12, 7, 6, 6]  # every page within a minute up to ten pages


def test_the_pages_turn_by_themselves_and_every_page_comes_within_a_minute(live_server, browser, transactional_db):
    """The page's own timer, with the browser's clock run forward (no waiting): 60 players at
    1024x768 (the most pages of the landscape beamers) go round within 60 s."""
    evening = make_evening(60)
    services.draw_session(evening=evening, seed=1)
    context = _context(browser, 1024, 768)
    page = context.new_page()
    page.clock.install()
    page.goto(f"{live_server.url}/abend/{evening.pk}/beamer/")
    page.wait_for_function("() => window.bruusProjector && window.bruusProjector.state() !== null")
    start = page.evaluate("bruusProjector.state()")
    assert start["pages"] >= 3 and start["page"] == 0
    names: set[str] = set(page.evaluate(MEASURE)["names"])
    for turn in range(1, start["slides"] + 1):
        page.clock.run_for(start["seconds"] * 1000)
        state = page.evaluate("bruusProjector.state()")
        assert state["slide"] == turn % start["slides"]
        names |= set(page.evaluate(MEASURE)["names"])
    assert start["slides"] * start["seconds"] <= 60
    assert names == {p.name for p in evening.players.all()}
    context.close()


def test_the_projector_pages_keep_the_content_security_policy(live_server, browser, small_season, organiser):
    """The paging sets column widths through the CSS object model, never an inline style: no
    report of the policy and no script error on either page."""
    evening = make_evening(26)
    services.draw_session(evening=evening, seed=1)
    services.set_projector_mode(evening_id=evening.pk, mode="rotation", user=organiser)
    context = _context(browser, 1280, 720)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type in ("error", "warning") else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    for path in (f"/abend/{evening.pk}/beamer/", f"/saison/{small_season.pk}/rangliste/"):
        page.goto(live_server.url + path)
        page.wait_for_function("() => window.bruusProjector && window.bruusProjector.state() !== null")
        page.evaluate("bruusProjector.next()")
    assert problems == []
    context.close()
