/* Bruus Turnier, "Where do I sit?": filter the list of names while typing (without JavaScript the
 * search box is a plain form). */
(function () {
  "use strict";
  var box = document.querySelector("[data-finder-search]");
  if (!box) { return; }
  // Letters Unicode does not split into letter and accent, folded as the server folds them
  // (scoring/domain/names.py): "sorensen" finds "Sørensen", "aero" finds "Ærø".
  var EXTRA = {"ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "ß": "ss"};
  function plain(text) {  // case and accents ignored, as on the server: "sonke" finds "Sönke"
    return text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
      .replace(/[øæœłđðþıß]/g, function (c) { return EXTRA[c]; });
  }
  box.addEventListener("input", function () {
    var q = plain(box.value.trim());
    document.querySelectorAll("section[data-letter]").forEach(function (section) {
      var shown = 0;
      section.querySelectorAll("li[data-name]").forEach(function (li) {
        li.hidden = q !== "" && plain(li.dataset.name).indexOf(q) < 0;
        if (!li.hidden) { shown += 1; }
      });
      section.hidden = shown === 0;
    });
  });
}());
