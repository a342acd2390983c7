// The filter box of the HTML report: hide finding rows whose URL does not contain the text typed,
// and rule sections left with no row. Inlined into report.html; no network, works from file://.
(function () {
  "use strict";
  var input = document.getElementById("url-filter");
  var status = document.getElementById("url-filter-status");
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr[data-url]"));
  var sections = Array.prototype.slice.call(document.querySelectorAll("section.rule"));

  function apply() {
    var needle = input.value.trim().toLowerCase();
    var shown = 0;
    rows.forEach(function (row) {
      var match = needle === "" || row.getAttribute("data-url").toLowerCase().indexOf(needle) !== -1;
      row.hidden = !match;
      if (match) { shown += 1; }
    });
    sections.forEach(function (section) {
      section.classList.toggle("no-match", section.querySelector("tr[data-url]:not([hidden])") === null);
    });
    var noun = rows.length === 1 ? " finding" : " findings";
    status.textContent = needle === "" ? rows.length + noun : shown + " of " + rows.length + noun + " match";
  }

  if (input && status) {
    input.addEventListener("input", apply);
    apply();
  }
  // Printing shows the example sections that are folded on screen.
  window.addEventListener("beforeprint", function () {
    Array.prototype.forEach.call(document.querySelectorAll("details"), function (details) {
      details.open = true;
    });
  });
  // Marks the page for tests (headless Chromium's --dump-dom) that the script ran to the end.
  document.documentElement.setAttribute("data-report-ready", "true");
})();
