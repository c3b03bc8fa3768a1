/* Bruus Turnier: "Are you sure?" before forms that change much (draw again, new table link).
 * A form with data-confirm="question" asks the question before it is sent. A static file,
 * not an inline onsubmit handler: the Content-Security-Policy allows no inline script. */
(function () {
  "use strict";
  document.addEventListener("submit", function (evt) {
    var question = evt.target.getAttribute && evt.target.getAttribute("data-confirm");
    if (question && !window.confirm(question)) { evt.preventDefault(); }
  }, true);
}());
