/* The layout check of tests/browser/test_layout.py, run in the page (Playwright's page.evaluate).
 *
 * Argument: {minTarget: px or 0 (0: size not checked), minGap: px}. Returns a list of problems,
 * each a short English sentence naming the elements (empty: the page passes):
 *
 * - the page scrolls sideways (the document is wider than the window);
 * - a touch target is smaller than minTarget x minTarget;
 * - two touch targets are closer than minGap (edge to edge);
 * - a sticky or fixed element covers a touch target: with the page at the top, and with each
 *   target scrolled into view as the browser does for focus (which honours scroll-padding). With
 *   the page at the top, a bar fixed at the bottom of the window is where the window ends: what
 *   reaches into it is below the fold (checked when scrolled into view).
 *
 * Touch targets: links, buttons, form fields, summaries, and labels that wrap a hidden radio or
 * checkbox (the big buttons of the tablet). Links inside running text are exempt from size and
 * spacing (WCAG 2.5.8 "inline"), as are targets that are not shown.
 */
(args) => {
  "use strict";
  const minTarget = args.minTarget;
  const minGap = args.minGap;
  const problems = [];
  const doc = document.documentElement;

  function name(el) {
    let text = (el.getAttribute("aria-label") || el.innerText || el.value || el.getAttribute("name") || "").trim();
    text = text.replace(/\s+/g, " ").slice(0, 40);
    let id = el.tagName.toLowerCase();
    if (el.id) { id += "#" + el.id; }
    if (el.classList.length) { id += "." + Array.from(el.classList).join("."); }
    return text ? `${id} "${text}"` : id;
  }

  function shown(el) {
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "none") { return false; }
    if (el.closest("[hidden], details:not([open]) > :not(summary)")) { return false; }
    const rect = el.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0;
  }

  // A link within a sentence: inline, and its parent holds other text.
  function inline(el) {
    if (el.tagName !== "A" || getComputedStyle(el).display !== "inline") { return false; }
    const parent = el.parentElement;
    const own = (el.textContent || "").trim();
    const around = (parent.textContent || "").replace(own, "").trim();
    return around.length > 0;
  }

  // The element a finger hits: a hidden radio or checkbox is tapped through its label.
  const seen = new Set();
  const targets = [];
  document.querySelectorAll(
    "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]"
  ).forEach((el) => {
    let target = el;
    if (el.tagName === "INPUT" && (el.type === "radio" || el.type === "checkbox")) {
      const label = el.closest("label");
      const rect = el.getBoundingClientRect();
      if (label && (getComputedStyle(el).opacity === "0" || rect.width <= 1)) { target = label; }
      else if (label && label.getBoundingClientRect().height >= rect.height) { target = label; }
    }
    if (seen.has(target) || !shown(target)) { return; }
    seen.add(target);
    targets.push(target);
  });

  // 1. Sideways scrolling, and which elements stick out.
  const width = doc.clientWidth;
  if (doc.scrollWidth > width + 1) {
    const wide = [];
    document.querySelectorAll("body *").forEach((el) => {
      if (!shown(el)) { return; }
      const rect = el.getBoundingClientRect();
      if (rect.right > width + 1 && !Array.from(el.children).some((c) => c.getBoundingClientRect().right > width + 1)) {
        wide.push(`${name(el)} (right edge ${Math.round(rect.right + scrollX)} px)`);
      }
    });
    problems.push(`scrolls sideways: ${doc.scrollWidth} px wide in a ${width} px window; sticking out: ${wide.slice(0, 5).join(", ")}`);
  }

  // 2. Size.
  const checked = targets.filter((el) => !inline(el));
  if (minTarget) {
    checked.forEach((el) => {
      const rect = el.getBoundingClientRect();
      if (rect.width < minTarget - 0.5 || rect.height < minTarget - 0.5) {
        problems.push(`too small: ${name(el)} is ${Math.round(rect.width)}x${Math.round(rect.height)} px (at least ${minTarget}x${minTarget})`);
      }
    });
  }

  // 3. Spacing (page coordinates, so the scroll position does not matter). Sticky and fixed
  //    targets move with the scroll position: whether they cover others is checked in 4.
  //    A target inside a sticky or fixed element (the buttons of a bar) moves with it.
  const floating = (el) => {
    for (let node = el; node && node !== doc; node = node.parentElement) {
      if (["sticky", "fixed"].includes(getComputedStyle(node).position)) { return true; }
    }
    return false;
  };
  const boxes = checked.filter((el) => !floating(el)).map((el) => {
    const r = el.getBoundingClientRect();
    return { el, left: r.left + scrollX, right: r.right + scrollX, top: r.top + scrollY, bottom: r.bottom + scrollY };
  });
  for (let i = 0; i < boxes.length; i += 1) {
    for (let j = i + 1; j < boxes.length; j += 1) {
      const a = boxes[i];
      const b = boxes[j];
      if (a.el.contains(b.el) || b.el.contains(a.el)) { continue; }
      const dx = Math.max(0, b.left - a.right, a.left - b.right);
      const dy = Math.max(0, b.top - a.bottom, a.top - b.bottom);
      const gap = Math.hypot(dx, dy);
      if (gap < minGap - 0.5) {
        problems.push(`too close: ${name(a.el)} and ${name(b.el)} are ${Math.round(gap)} px apart (at least ${minGap})`);
      }
    }
  }

  // 4. Sticky and fixed elements covering a target.
  const stuck = Array.from(document.querySelectorAll("body *")).filter((el) => {
    const position = getComputedStyle(el).position;
    return (position === "sticky" || position === "fixed") && shown(el);
  });
  // A bar fixed at the bottom edge of the window (the tablet's action bar on a phone) shortens the
  // window: what reaches into it when the page opens is below the fold, like what reaches below
  // the window, and is checked once scrolled into view (the page's scroll-padding keeps it clear).
  function fold() {
    let bottom = innerHeight;
    stuck.forEach((el) => {
      const c = el.getBoundingClientRect();
      if (getComputedStyle(el).position === "fixed" && c.bottom >= innerHeight - 1 && c.top > innerHeight / 2) {
        bottom = Math.min(bottom, c.top);
      }
    });
    return bottom;
  }
  function coveredBy(el, atTop) {
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > doc.clientWidth) { return null; }
    if (atTop && r.bottom > fold() + 0.5) { return null; }
    for (const cover of stuck) {
      if (cover.contains(el) || el.contains(cover)) { continue; }
      const c = cover.getBoundingClientRect();
      const left = Math.max(r.left, c.left);
      const right = Math.min(r.right, c.right);
      const top = Math.max(r.top, c.top);
      const bottom = Math.min(r.bottom, c.bottom);
      if (right - left < 1 || bottom - top < 1) { continue; }
      const hit = document.elementFromPoint((left + right) / 2, (top + bottom) / 2);
      if (hit && cover.contains(hit)) { return cover; }
    }
    return null;
  }
  const report = new Set();
  function note(el, when, atTop) {
    const cover = coveredBy(el, atTop);
    const key = cover ? `${name(cover)}|${name(el)}` : "";
    if (cover && !report.has(key)) {
      report.add(key);
      problems.push(`covered ${when}: ${name(el)} lies under the ${getComputedStyle(cover).position} ${name(cover)}`);
    }
  }
  if (stuck.length) {
    const behaviour = doc.style.scrollBehavior;
    doc.style.scrollBehavior = "auto";
    window.scrollTo(0, 0);
    targets.forEach((el) => note(el, "at the top of the page", true));
    targets.forEach((el) => {
      el.scrollIntoView({ block: "nearest", inline: "nearest" });
      note(el, "when scrolled into view");
    });
    window.scrollTo(0, 0);
    doc.style.scrollBehavior = behaviour;
  }
  return problems;
}
