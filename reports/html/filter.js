// The filter box of the HTML report: hide finding rows and page rows whose URL does not contain
// the text typed, and rule sections left with no row. Inlined into report.html; no network, works
// from file://.
(function () {
  "use strict";
  var input = document.getElementById("url-filter");
  var status = document.getElementById("url-filter-status");
  var findings = Array.prototype.slice.call(document.querySelectorAll("table.findings tr[data-url]"));
  var pages = Array.prototype.slice.call(document.querySelectorAll("table.pages tr[data-url]"));
  var sections = Array.prototype.slice.call(document.querySelectorAll("section.rule"));

  function filter(rows, needle) {
    var shown = 0;
    rows.forEach(function (row) {
      var match = needle === "" || row.getAttribute("data-url").toLowerCase().indexOf(needle) !== -1;
      row.hidden = !match;
      if (match) { shown += 1; }
    });
    return shown;
  }

  function counted(shown, total, one, many, needle) {
    var noun = total === 1 ? one : many;
    return needle === "" ? total + " " + noun : shown + " of " + total + " " + noun;
  }

  function apply() {
    var needle = input.value.trim().toLowerCase();
    var findingsShown = filter(findings, needle);
    var pagesShown = filter(pages, needle);
    sections.forEach(function (section) {
      section.classList.toggle("no-match", section.querySelector("tr[data-url]:not([hidden])") === null);
    });
    // Folded rules and rows that match are shown.
    if (needle !== "") {
      Array.prototype.forEach.call(document.querySelectorAll("details.rule-body, details.more-rows"), function (details) {
        if (details.querySelector("tr[data-url]:not([hidden])") !== null) { details.open = true; }
      });
    }
    status.textContent = counted(findingsShown, findings.length, "finding row", "finding rows", needle) +
      ", " + counted(pagesShown, pages.length, "page", "pages", needle) + (needle === "" ? "" : " match");
  }

  // A link to a folded rule (#robots/blocked-noindex) opens it.
  function openTarget() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    var target = id === "" ? null : document.getElementById(id);
    var body = target === null ? null : target.querySelector("details.rule-body");
    if (body !== null) { body.open = true; }
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();

  // "Open every rule" / "Fold every rule".
  var toggle = document.getElementById("toggle-rules");
  if (toggle) {
    toggle.hidden = false;
    toggle.addEventListener("click", function () {
      var open = toggle.getAttribute("aria-pressed") !== "true";
      Array.prototype.forEach.call(document.querySelectorAll("details.rule-body"), function (details) {
        details.open = open;
      });
      toggle.setAttribute("aria-pressed", open ? "true" : "false");
      toggle.textContent = open ? "Fold every rule" : "Open every rule";
    });
  }

  if (input && status) {
    input.addEventListener("input", apply);
    apply();
  }
  // Printing shows the rules open on screen with every row, every piece of evidence and the
  // rule's fix (the stylesheet prints only the fix of the folded docs); folded rules print as
  // their heading.
  window.addEventListener("beforeprint", function () {
    Array.prototype.forEach.call(document.querySelectorAll("details.docs, details.more-rows, details.more-evidence"), function (details) {
      details.open = true;
    });
  });
  // Marks the page for tests (headless Chromium's --dump-dom) that the script ran to the end.
  document.documentElement.setAttribute("data-report-ready", "true");
})();
