"""What the browser tests share: waiting until a page can be measured, axe-core's accessibility
check, and the screenshots kept for a person to look at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page

#: axe-core, the npm package pinned in package.json and package-lock.json (``make test`` installs it
#: with ``npm ci`` into node_modules/).
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
#: WCAG 2.0 and 2.1, levels A and AA (axe-core's tags).
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
#: Impacts that fail a test (axe-core's scale: minor, moderate, serious, critical).
FAILING_IMPACTS = {"serious", "critical"}
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


def with_axe(context: BrowserContext) -> BrowserContext:
    """Give every page of ``context`` axe-core, loaded as the page starts (Playwright's init
    script: sent to Chromium once per context, not once per page; not a ``<script>`` of the page,
    so the Content-Security-Policy stays as it is). Fails, never skips, without axe-core."""
    if not AXE.is_file():
        pytest.fail(f"axe-core is not installed ({AXE}): run `make test` (npm ci) first")
    context.add_init_script(path=str(AXE))
    return context


def axe_violations(page: Page) -> list[str]:
    """The serious and critical WCAG 2.1 A/AA violations axe-core finds on ``page`` (of a context
    given :func:`with_axe`), one line each: rule id, impact, and where (the first three elements'
    selectors). Also the rule of WCAG 2.5.3 "label in name", which axe-core counts as
    experimental and leaves out unless asked."""
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
