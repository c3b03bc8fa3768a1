/* Bruus Turnier: the table scorer's page when the hall's Wi-Fi drops.
 *
 * The deal form posts with htmx. When a post cannot reach the server (no network, time-out,
 * server error), the entry is kept in this tablet's localStorage, its row is marked "not sent
 * yet", and the form moves on to the next deal. The kept entries are sent again, in order, when
 * the connection returns (the browser's "online" event, and every few seconds while any are
 * waiting). Each entry carries the idempotency key of its form, so the server saves it exactly
 * once, however often it is sent. Every text shown comes translated from the page (data-msg-*).
 * An answer 503 means the server saved nothing (its disk is full or its database read-only): the
 * entry is kept like any other, and the banner says so and asks for the organiser until an entry
 * is saved again.
 */
(function () {
  "use strict";

  var app = document.getElementById("scorer-app");
  if (!app || !window.localStorage) { return; }
  var msg = app.dataset;
  var STORE = msg.store;
  var RETRY_MS = 5000;
  var SEND_TIMEOUT_MS = 10000;
  var flushing = false;
  var retryTimer = null;
  var storageFull = false;  // the last answer was 503: nothing saved, the server cannot write

  // --- the queue in localStorage -------------------------------------------------------------

  function load() {
    try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (e) { return []; }
  }
  function store(queue) {
    if (queue.length) { localStorage.setItem(STORE, JSON.stringify(queue)); }
    else { localStorage.removeItem(STORE); }
  }

  function uuid4() {  // crypto.randomUUID needs HTTPS; the hall serves plain HTTP
    var b = new Uint8Array(16);
    crypto.getRandomValues(b);
    b[6] = (b[6] & 15) | 64;
    b[8] = (b[8] & 63) | 128;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  function fields(form) {
    var out = {};
    new FormData(form).forEach(function (value, name) { out[name] = String(value); });
    return out;
  }

  // Messages from earlier answers ("Deal 1 saved.") are out of date once an entry waits here.
  function dropOldSuccess() {
    document.querySelectorAll("#scorer-state .messages .msg.success").forEach(function (li) {
      var list = li.parentNode;
      li.remove();
      if (!list.children.length) { list.remove(); }
    });
  }

  function keep(form) {
    var data = fields(form);
    if (!data.key) { return; }
    dropOldSuccess();
    var queue = load();
    if (!queue.some(function (e) { return e.fields.key === data.key; })) {
      queue.push({ url: form.getAttribute("action"), number: Number(form.dataset.number), fields: data });
      store(queue);
    }
    nextDeal(form);
    show();
    schedule();
  }

  // --- what the page shows -------------------------------------------------------------------

  function currentSeating() {
    var table = document.querySelector("table.deals");
    return table ? table.dataset.seating : null;
  }

  function pendingHere() {
    var seating = currentSeating();
    return load().filter(function (e) { return e.fields.seating === seating; });
  }

  // The rule set's matchsticks for an entry, from the table the server renders with the page
  // (rulesets.RuleSet.points_table): [points A, points B, carried on, uses up the deal].
  function lookup(f, carry) {
    var el = document.getElementById("points-table");
    var table = el ? JSON.parse(el.dataset.points) : {};
    var key = [f.winner, f.to_nil ? 1 : 0, f.bonus_a || 0, f.bonus_b || 0, carry].join("|");
    return table[key] || table[key.replace(/\|\d+$/, "|0")] || null;
  }

  // What a Treia Bock before deal n carries into it: from a waiting entry of deal n-1 if there
  // is one, else what the server says for the row (data-carry).
  function carryInto(n, pending) {
    var before = pending.filter(function (e) { return e.number === n - 1; }).pop();
    var row = document.querySelector('table.deals tr[data-deal="' + n + '"]');
    if (!before) { return row ? Number(row.dataset.carry || 0) : 0; }
    var found = lookup(before.fields, carryInto(n - 1, pending));
    return found ? found[2] : 0;
  }

  function points(entry, pending) {
    var found = lookup(entry.fields, carryInto(entry.number, pending));
    return found ? found[0] + ":" + found[1] : "?";
  }

  function usesDeal(entry) {
    var found = lookup(entry.fields, 0);
    return !found || found[3] === 1;
  }

  function outcome(f) {
    if (f.winner === "A") { return msg.msgTeamA; }
    if (f.winner === "B") { return msg.msgTeamB; }
    return msg.msgNoWinner || f.winner;
  }

  function markRows(pending) {
    var kept = pending.filter(usesDeal);
    document.querySelectorAll("table.deals tr[data-deal]").forEach(function (row) {
      var entry = kept.filter(function (e) { return e.number === Number(row.dataset.deal); }).pop();
      var cell = row.querySelector("td.pending-info");
      if (!entry) {
        if (cell) { cell.remove(); }
        row.classList.remove("pending");
        row.querySelectorAll("td[data-hidden-by-pending]").forEach(function (td) {
          td.hidden = false; td.removeAttribute("data-hidden-by-pending");
        });
        return;
      }
      row.classList.add("pending");
      var cells = row.querySelectorAll("td:not(.num):not(.pending-info)");
      cells.forEach(function (td) {
        td.hidden = true; td.setAttribute("data-hidden-by-pending", "");
      });
      if (!cell) {
        cell = document.createElement("td");
        cell.className = "pending-info";
        cell.colSpan = Math.max(cells.length, 3);
        row.appendChild(cell);
      }
      var badge = document.createElement("span");
      badge.className = "badge pending";
      badge.setAttribute("data-testid", "pending-badge");
      badge.textContent = entry.rejected ? msg.msgRejected : msg.msgPending;
      // What was entered, said in full: the columns it would stand in are hidden meanwhile.
      var f = entry.fields;
      var text = msg.msgFiveTricks + ": " + outcome(f) +
        (f.to_nil ? " · " + msg.msgToNil : "") + " · " + msg.msgPoints + " ";
      var strong = document.createElement("strong");
      strong.textContent = points(entry, kept);
      cell.replaceChildren(badge, document.createTextNode(" " + text), strong);
    });
  }

  function banner(text, kind) {
    var el = document.getElementById("connection");
    if (!el) { return; }
    el.textContent = text || "";
    el.className = "msg " + (kind || "warn");
    el.hidden = !text;
  }

  function show() {
    var pending = pendingHere();
    markRows(pending);
    var form = document.getElementById("deal-form");
    if (form && form.dataset.edit === "0" && pending.some(function (e) { return usesDeal(e) && e.number === Number(form.dataset.number); })) {
      nextDeal(form);
    }
    var count = load().length;
    var waiting = count === 1 ? msg.msgPendingOne : msg.msgPendingMany.replace("{n}", count);
    if (count && storageFull) {
      banner(msg.msgStorageFull + " " + waiting, "error");
    } else if (count) {
      banner(waiting, "warn");
    } else if (!navigator.onLine) {
      banner(msg.msgOffline, "warn");
    } else if (document.getElementById("connection").dataset.wasPending) {
      banner(msg.msgSent, "success");
    } else {
      banner("");
    }
    document.getElementById("connection").dataset.wasPending = count ? "1" : "";
  }

  // Move the form on to the first deal that is neither saved on the server nor waiting here.
  function nextDeal(form) {
    // A waiting draw (Bräus) does not use up its deal: the form stays at that deal.
    var pending = pendingHere().filter(usesDeal).map(function (e) { return e.number; });
    var free = Array.prototype.filter.call(document.querySelectorAll("table.deals tr[data-deal]"), function (row) {
      return row.dataset.entered === "0" && pending.indexOf(Number(row.dataset.deal)) < 0;
    })[0];
    var section = form.closest("section");
    if (!free) {
      section.hidden = true;
      var note = document.getElementById("all-waiting");
      if (!note) {
        note = document.createElement("p");
        note.id = "all-waiting";
        note.className = "msg warn";
        note.textContent = msg.msgAllWaiting;
        section.parentNode.insertBefore(note, section);
      }
      return;
    }
    var n = free.dataset.deal;
    var action = msg.actionTemplate.replace(/\/0\/$/, "/" + n + "/");
    form.setAttribute("action", action);
    form.setAttribute("hx-post", action);
    form.dataset.number = n;
    form.dataset.edit = "0";
    form.querySelectorAll('input[type="radio"], input[type="checkbox"]').forEach(function (input) {
      input.checked = (input.name === "bonus_a" || input.name === "bonus_b") && input.value === "0";
    });
    form.querySelector('input[name="key"]').value = uuid4();
    form.querySelector('input[name="version"]').value = free.dataset.version || "0";
    form.querySelectorAll(".errorlist").forEach(function (el) { el.remove(); });
    var title = section.querySelector("h2");
    if (title) { title.textContent = msg.msgDeal.replace("{n}", n); }
    var save = form.querySelector("button.save");
    if (save) { save.textContent = msg.msgSave.replace("{n}", n); save.disabled = false; }
    document.querySelectorAll("table.deals tr.editing").forEach(function (row) { row.classList.remove("editing"); });
    free.classList.add("editing");
  }

  // --- sending the kept entries --------------------------------------------------------------

  function dirty(form) {
    return Array.prototype.some.call(form.querySelectorAll("input"), function (input) {
      return (input.type === "radio" || input.type === "checkbox") && input.checked !== input.defaultChecked;
    });
  }

  // Idle: nothing being typed in; the page may be redrawn by the poll.
  window.bruusScorerIdle = function () {
    var form = document.getElementById("deal-form");
    if (flushing) { return false; }
    if (!form || form.closest("section").hidden) { return !load().length; }
    return form.dataset.edit === "0" && !dirty(form) && !load().length;
  };

  function redraw(html) {
    var target = document.getElementById("scorer-state");
    var form = document.getElementById("deal-form");
    var kept = null;
    if (form && !form.closest("section").hidden && dirty(form)) {
      kept = { number: form.dataset.number, checked: [] };
      form.querySelectorAll("input:checked").forEach(function (i) { kept.checked.push([i.name, i.value]); });
    }
    if (window.htmx && htmx.swap) {
      htmx.swap(target, html, { swapStyle: "innerHTML" });
    } else {
      target.innerHTML = html;
    }
    var fresh = document.getElementById("deal-form");
    if (kept && fresh && fresh.dataset.number === kept.number) {
      fresh.querySelectorAll('input[type="radio"], input[type="checkbox"]').forEach(function (input) {
        input.checked = kept.checked.some(function (c) { return c[0] === input.name && c[1] === input.value; });
      });
    }
    show();
  }

  function send(entry) {
    var controller = new AbortController();
    var timer = setTimeout(function () { controller.abort(); }, SEND_TIMEOUT_MS);
    // Post to this page's table link (it may have been replaced since) with this page's CSRF token.
    var body = new URLSearchParams(entry.fields);
    var token = document.querySelector('input[name="csrfmiddlewaretoken"]');
    if (token) { body.set("csrfmiddlewaretoken", token.value); }
    return fetch(msg.actionTemplate.replace(/\/0\/$/, "/" + entry.number + "/"), {
      method: "POST",
      body: body,
      headers: { "HX-Request": "true", "HX-Target": "scorer-state" },
      credentials: "same-origin",
      signal: controller.signal
    }).finally(function () { clearTimeout(timer); });
  }

  function flush() {
    if (flushing) { return; }
    var queue = load().filter(function (e) { return !e.rejected; });
    if (!queue.length) { show(); return; }
    flushing = true;
    var html = null;
    (function step(i) {
      if (i >= queue.length) {
        flushing = false;
        if (html !== null) { redraw(html); } else { show(); }
        schedule();
        return;
      }
      var entry = queue[i];
      send(entry).then(function (response) {
        if (response.status >= 500 || response.status === 429) {
          storageFull = response.status === 503;
          throw new Error("later");
        }
        return response.text().then(function (text) {
          var answered = response.ok || response.status === 409 || response.status === 422;
          if (answered) { storageFull = false; }
          var left = load();
          left.forEach(function (e) { if (e.fields.key === entry.fields.key && !answered) { e.rejected = response.status; } });
          store(left.filter(function (e) { return !(answered && e.fields.key === entry.fields.key); }));
          if (answered) { html = text; }
          step(i + 1);
        });
      }).catch(function () {
        // Still no connection: keep this and the later entries (their order matters).
        flushing = false;
        if (html !== null) { redraw(html); } else { show(); }
        schedule();
      });
    })(0);
  }

  function schedule() {
    clearTimeout(retryTimer);
    if (load().some(function (e) { return !e.rejected; })) { retryTimer = setTimeout(flush, RETRY_MS); }
  }

  // --- wiring ----------------------------------------------------------------------------------

  function isDealForm(elt) { return elt && elt.matches && elt.matches("form.deal-form"); }

  document.body.addEventListener("htmx:configRequest", function (evt) {
    // The form may have moved on to another deal while offline: post where its action points.
    if (isDealForm(evt.detail.elt)) { evt.detail.path = evt.detail.elt.getAttribute("action"); }
  });
  document.body.addEventListener("htmx:beforeRequest", function (evt) {
    if (isDealForm(evt.detail.elt) && load().length) {
      // Earlier entries are still waiting: keep the order, queue this one behind them.
      evt.preventDefault();
      keep(evt.detail.elt);
      flush();
    }
  });
  ["htmx:sendError", "htmx:timeout"].forEach(function (name) {
    document.body.addEventListener(name, function (evt) {
      if (isDealForm(evt.detail.elt)) { keep(evt.detail.elt); }
    });
  });
  document.body.addEventListener("htmx:responseError", function (evt) {
    var status = evt.detail.xhr ? evt.detail.xhr.status : 0;
    if (isDealForm(evt.detail.elt) && (status >= 500 || status === 429)) {
      storageFull = status === 503;
      keep(evt.detail.elt);
      return;
    }
    if (status === 403 || status === 404) { window.location.reload(); }  // link replaced, session expired
  });
  document.body.addEventListener("htmx:confirm", function (evt) {
    // The page's poll waits while the scorer is filling in a deal (no eval: the CSP forbids it).
    if (evt.detail.elt.hasAttribute("data-scorer-poll") && !window.bruusScorerIdle()) { evt.preventDefault(); }
  });
  document.body.addEventListener("htmx:afterSwap", function () { show(); });
  document.body.addEventListener("htmx:afterRequest", function (evt) {
    if (evt.detail.successful) {
      if (isDealForm(evt.detail.elt)) { storageFull = false; }
      schedule();
    }
  });
  window.addEventListener("online", function () { show(); flush(); });
  window.addEventListener("offline", show);

  // Entries the server refused in an odd way are tried once more on every page load.
  store(load().map(function (e) { delete e.rejected; return e; }));
  show();
  flush();
}());

/* On a phone, the common deal (a team wins, no bonus) without scrolling: once the winner
 * is tapped, the page moves up just enough that the save button is on the screen. */
(function () {
  "use strict";
  document.addEventListener("change", function (evt) {
    var input = evt.target;
    if (!input || input.name !== "winner" || !input.form || input.form.id !== "deal-form") { return; }
    var save = input.form.querySelector("button.save");
    if (!save) { return; }
    var below = save.getBoundingClientRect().bottom + 8 - window.innerHeight;
    if (below > 0) { window.scrollBy(0, below); }
  });
}());

/* A phone as the table's tablet. The step's action bar ([data-action-bar]) is fixed at the
 * bottom of a phone's screen (bruus.css): the page keeps room for it below its content, --action-bar
 * its height in px, which also stops a field scrolled to above it. Where everyone sits next
 * (details[data-fold-on-phone]) comes folded on a phone, so that the new round's form is on the
 * screen; unfolded by a tap, it stays so when the page is redrawn (until the next round's box). */
(function () {
  "use strict";
  var phone = window.matchMedia("(max-width: 520px)");
  var unfolded = null;  // the heading of the box the players unfolded
  var measured = null;  // the bar whose height is watched
  var watcher = window.ResizeObserver ? new ResizeObserver(function () { measure(); }) : null;

  function measure() {
    var root = document.documentElement;
    var bar = document.querySelector("[data-action-bar]");
    if (bar && getComputedStyle(bar).position === "fixed") {
      root.style.setProperty("--action-bar", Math.ceil(bar.getBoundingClientRect().height + 8) + "px");
    } else {
      root.style.removeProperty("--action-bar");
    }
    if (watcher && bar !== measured) {
      watcher.disconnect();
      if (bar) { watcher.observe(bar); }
      measured = bar;
    }
  }

  function fold() {
    document.querySelectorAll("details[data-fold-on-phone]").forEach(function (box) {
      if (box.dataset.arranged) { return; }
      box.dataset.arranged = "1";
      var heading = box.querySelector("summary").textContent.trim();
      if (phone.matches && unfolded !== heading) { box.open = false; }
      box.addEventListener("toggle", function () { unfolded = box.open ? heading : null; });
    });
  }

  function arrange() { fold(); measure(); }

  arrange();
  document.body.addEventListener("htmx:afterSettle", arrange);
  window.addEventListener("resize", measure);
}());
