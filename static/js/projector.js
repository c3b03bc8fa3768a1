/* Bruus Turnier, the projector page (scoring/views/projector.py): lays each list out in as many
 * columns as the screen holds and pages it by itself ("page 1 of 3"), so that no row is ever cut
 * at an edge and everybody is on screen within a minute; in the rotation it shows each view in
 * turn. The page reloads itself with htmx every few seconds; the page shown is kept.
 *
 * The pure parts (columnCount, paginate, pageSeconds) take numbers and return numbers; the page
 * exposes them, and next() and state() for the tests, as window.bruusProjector. */
(function () {
  "use strict";
  var ROUND_SECONDS = 60;  // every page of the rotation within a minute ...
  var MIN_SECONDS = 6;     // ... but each page long enough to find one's name
  var MAX_SECONDS = 15;

  /* How many columns of at least minWidth px, gap px apart, fit into width px (at least 1). */
  function columnCount(width, minWidth, gap) {
    if (!(minWidth > 0) || !(width > 0)) { return 1; }
    return Math.max(1, Math.floor((width + gap) / (minWidth + gap)));
  }

  /* Items of the given heights (px), in order, filled into columns of boxHeight px (gap px
   * between two items of a column), `columns` columns a page: [page][column] -> item indices.
   * An item taller than the box gets a column of its own. */
  function paginate(heights, boxHeight, columns, gap) {
    var pages = [], page = null, column = null, used = 0;
    gap = gap || 0;
    heights.forEach(function (height, index) {
      var needed = column === null || column.length === 0 ? height : used + gap + height;
      if (column === null || (column.length > 0 && needed > boxHeight)) {
        if (page === null || page.length === columns) { page = []; pages.push(page); }
        column = [];
        page.push(column);
        needed = height;
      }
      column.push(index);
      used = needed;
    });
    return pages;
  }

  /* Seconds each of `slides` pages stays on screen: all within ROUND_SECONDS where possible;
   * 0 for a single page (nothing to turn). */
  function pageSeconds(slides) {
    if (slides <= 1) { return 0; }
    return Math.min(MAX_SECONDS, Math.max(MIN_SECONDS, Math.floor(ROUND_SECONDS / slides)));
  }

  var root = null, slides = [], current = 0, timer = null, due = null, lastHtml = null;

  /* The list's font size (px) between --fit-min and --fit-max (% of the window's height; none:
   * the style sheet's size): the largest that needs no more pages than the smallest. */
  function fitFont(box, pagesAt) {
    var style = getComputedStyle(box);
    var min = parseFloat(style.getPropertyValue("--fit-min")), max = parseFloat(style.getPropertyValue("--fit-max"));
    if (!(min > 0) || !(max > min)) { return; }
    min = min * window.innerHeight / 100;
    max = max * window.innerHeight / 100;
    var least = pagesAt(min);
    if (pagesAt(max) <= least) { return; }
    for (var step = 0; step < 7; step += 1) {  // to within 1/128 of the range
      var middle = (min + max) / 2;
      if (pagesAt(middle) <= least) { min = middle; } else { max = middle; }
    }
    pagesAt(min);
  }

  function layoutSection(section) {
    var box = section.querySelector(".projector-items");
    if (!box) { return null; }
    var items = Array.prototype.slice.call(box.querySelectorAll(".projector-item"));
    box.style.removeProperty("font-size");
    var pages = measurePages(box, items);
    fitFont(box, function (px) {
      box.style.fontSize = px + "px";  // the CSS object model: no inline style for the policy
      pages = measurePages(box, items);
      return pages.length;
    });
    return { box: box, items: items, pages: pages.length ? pages : [[[]]] };
  }

  /* The items laid out in as many columns as fit into the box at its font size, and paged. */
  function measurePages(box, items) {
    box.replaceChildren();
    var probe = document.createElement("div");
    probe.className = "projector-probe";
    box.append(probe);
    var minWidth = probe.getBoundingClientRect().width;
    probe.remove();
    var gap = parseFloat(getComputedStyle(box).columnGap) || 0;
    var width = box.clientWidth, height = box.clientHeight;
    var columns = columnCount(width, minWidth, gap);
    // Measured in the very columns a page is shown in (all items in the first of them), so
    // that every row wraps exactly as it will on screen.
    var measure = [];
    for (var c = 0; c < columns; c += 1) {
      measure.push(document.createElement("div"));
      measure[c].className = "projector-col";
      box.append(measure[c]);
    }
    items.forEach(function (item) { measure[0].append(item); });
    var heights = items.map(function (item) { return item.getBoundingClientRect().height; });
    var rowGap = parseFloat(getComputedStyle(measure[0]).rowGap) || 0;
    box.replaceChildren();
    // One pixel spare: heights are fractional, the layout rounds.
    return paginate(heights, height - 1, columns, rowGap);
  }

  function pageLabel(page, pages) {
    return root.dataset.pageLabel.replace("{page}", page).replace("{pages}", pages);
  }

  function showOnly(section) {
    root.querySelectorAll(".projector-section").forEach(function (other) { other.hidden = other !== section; });
  }

  /* Show slide `index`; `keepTimer`: a new layout of the same screen (a poll's answer, a new
   * window size) does not give the page shown its full time again, else a screen whose ranking
   * changes at every poll would never turn its page. */
  function show(index, keepTimer) {
    if (!slides.length) { return; }
    current = ((index % slides.length) + slides.length) % slides.length;
    var slide = slides[current];
    showOnly(slide.section);
    if (slide.layout) {
      var columns = slide.layout.pages[slide.page].map(function (indices) {
        var column = document.createElement("div");
        column.className = "projector-col";
        indices.forEach(function (i) { column.append(slide.layout.items[i]); });
        return column;
      });
      slide.layout.box.replaceChildren.apply(slide.layout.box, columns);
    }
    var label = slide.section.querySelector("[data-page-of]");
    if (label) {
      label.textContent = slide.pages > 1 ? pageLabel(slide.page + 1, slide.pages) : "";
    }
    if (!keepTimer || timer === null) { schedule(); }
  }

  function schedule() {
    if (timer !== null) { clearTimeout(timer); timer = null; }
    due = null;
    var seconds = pageSeconds(slides.length);
    if (seconds > 0) {
      due = Date.now() + seconds * 1000;
      timer = setTimeout(function () { timer = null; show(current + 1); }, seconds * 1000);
    }
  }

  /* Lay every view out again (new content, new window size); keep the view and page shown. */
  function layout() {
    root = document.getElementById("projector");
    if (!root) { return; }
    var was = slides[current];
    var keep = was ? { name: was.name, page: was.page } : null;
    slides = [];
    root.querySelectorAll(".projector-section").forEach(function (section) {
      showOnly(section);
      var label = section.querySelector("[data-page-of]");
      if (label) { label.textContent = ""; }
      var laid = layoutSection(section);
      if (laid && laid.pages.length > 1 && label) {
        // The heading with its "page N of N" may take another line: measured again with it.
        label.textContent = pageLabel(laid.pages.length, laid.pages.length);
        laid.items.forEach(function (item) { laid.box.append(item); });
        laid = layoutSection(section);
      }
      var count = laid ? laid.pages.length : 1;
      for (var page = 0; page < count; page += 1) {
        slides.push({ section: section, name: section.dataset.section, layout: laid, page: page, pages: count });
      }
    });
    root.classList.add("projector-ready");
    var index = 0;
    if (keep) {
      var same = slides.filter(function (s) { return s.name === keep.name; });
      if (same.length) { index = slides.indexOf(same[Math.min(keep.page, same.length - 1)]); }
    }
    show(index, true);
  }

  window.bruusProjector = {
    columnCount: columnCount,
    paginate: paginate,
    pageSeconds: pageSeconds,
    layout: layout,
    next: function () { show(current + 1); return this.state(); },
    state: function () {
      var slide = slides[current];
      return slide ? { slide: current, slides: slides.length, section: slide.name, page: slide.page, pages: slide.pages, seconds: pageSeconds(slides.length), due: due } : null;
    }
  };

  if (!document.getElementById("projector")) { return; }  // the pure functions alone (tests)
  document.addEventListener("htmx:beforeSwap", function (event) {
    // An unchanged answer (the browser's copy after a 304) is not laid out again.
    if (event.detail.target && event.detail.target.id === "projector") {
      var html = event.detail.xhr.responseText;
      if (html === lastHtml) { event.detail.shouldSwap = false; }
      lastHtml = html;
    }
  });
  function swapped() {  // the new content laid out at once, before it is painted unpaged
    if (document.getElementById("projector") !== root) { layout(); }
  }
  document.addEventListener("htmx:afterSwap", swapped);
  document.addEventListener("htmx:afterSettle", swapped);
  var resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(layout, 200);
  });
  layout();
}());
