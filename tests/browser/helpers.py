"""What the browser tests share: waiting until a page can be measured, and the screenshots kept
for a person to look at."""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import Page

#: Screenshots for a person to look at: test-results/<folder>/<name>.png (``make screenshots``).
SHOTS = Path(__file__).resolve().parents[2] / "test-results"
#: ``make screenshots`` sets it; ``make test`` takes no screenshots but those of a finding (a full-page
#: capture of a long page takes a second or more, and nobody looks at them in CI).
WANTED = os.environ.get("SCREENSHOTS") == "1"

_SETTLED = """async () => {
    await document.fonts.ready;
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
}"""


def settle(page: Page) -> None:
    """Wait until ``page`` is ready to be measured: loaded (styles, scripts, images), its web fonts
    in, and laid out and painted (two animation frames after that).

    Not Playwright's ``networkidle``, which waits for half a second without a request after every
    page: our pages ask for nothing once loaded (their polls start seconds later, every 15 s at the
    soonest), so that half second is only waiting — five minutes of the layout and accessibility
    checks, page by page."""
    page.wait_for_load_state("load")
    page.evaluate(_SETTLED)


def screenshot(page: Page, folder: str, name: str, *, full_page: bool = False, always: bool = False) -> Path | None:
    """Keep a screenshot of ``page`` as test-results/``folder``/``name``.png when screenshots are
    wanted (``make screenshots``) or ``always`` (a page with a finding); returns its path, or None
    when none was taken."""
    if not (WANTED or always):
        return None
    path = SHOTS / folder / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    # A full-page capture of a long page on a busy machine can take longer than a page's timeout.
    page.screenshot(path=str(path), full_page=full_page, timeout=60_000)
    return path
