/* Bruus Turnier, the round clock (templates/public/_round_clock.html): counts down in the browser
 * from the server's end time, once a second, without asking the server. This device's own clock
 * may be wrong: each clock element carries the server's time when it was made (data-now), and the
 * largest difference seen (a copy from a cache is older, never newer) corrects it. */
(function () {
  "use strict";
  if (window.bruusRoundClock) { return; }
  window.bruusRoundClock = true;
  var offset = null;  // server time minus this device's time, in ms

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-round-clock]").forEach(function (clock) {
      if (!clock.dataset.counted) {  // a clock just arrived: what it tells about this device's clock
        clock.dataset.counted = "1";
        var estimate = Number(clock.dataset.now) - now;
        if (offset === null || estimate > offset) { offset = estimate; }
      }
      if (clock.dataset.status !== "running" || !clock.dataset.ends) { return; }
      var left = Math.max(0, Math.ceil((Number(clock.dataset.ends) - (now + offset)) / 1000));
      clock.querySelector("[data-clock-time]").textContent = pad(Math.floor(left / 60)) + ":" + pad(left % 60);
      clock.classList.toggle("warning", left > 0 && left <= Number(clock.dataset.warning));
      if (left === 0) {
        clock.classList.add("ended");
        clock.querySelector("[data-clock-state]").textContent = clock.dataset.msgOver;
      }
    });
  }

  tick();
  window.setInterval(tick, 500);
  document.addEventListener("htmx:afterSettle", tick);
}());
