/* Small behaviours of every page, as delegated listeners: the Content-Security-Policy allows no
   inline event handlers (onclick=…), so templates mark elements with data attributes instead. */
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    var field = event.target.closest && event.target.closest("[data-submit-on-change]");
    if (field && field.form) field.form.submit();
  });
  document.addEventListener("click", function (event) {
    if (!event.target.closest) return;
    var select = event.target.closest("[data-select-on-click]");
    if (select) select.select();
    if (event.target.closest("[data-print]")) window.print();
  });
  // A choice whose empty option depends on another field of its form (the Simulate form's
  // opponent deck: a default for goldfish runs, none for PK shootouts): data-empty-labels maps
  // the other field's values to the empty option's words, data-required-for lists the values
  // that need a choice.
  function followChoice(select) {
    var other = select.form && select.form.elements[select.dataset.emptyFollows];
    if (!other) return;
    var labels = JSON.parse(select.dataset.emptyLabels || "{}");
    var empty = select.querySelector("option[value='']");
    if (empty && labels[other.value]) empty.textContent = labels[other.value];
    select.required = (select.dataset.requiredFor || "").split(" ").indexOf(other.value) >= 0;
  }
  function followChoices() {
    document.querySelectorAll("select[data-empty-follows]").forEach(followChoice);
  }
  // A number whose starting value depends on another field of its form (the Simulate form's
  // runs: fewer for swap suggestions, whose runs are each candidate's): data-default-runs maps
  // the other field's values to the number. A number the person typed is theirs: it stays.
  function followDefault(input) {
    var other = input.form && input.form.elements[input.dataset.defaultsFollow];
    var defaults = JSON.parse(input.dataset.defaultRuns || "{}");
    if (!other || input.dataset.edited === "1" || defaults[other.value] === undefined) return;
    input.value = defaults[other.value];
  }
  function noteOwnNumbers() {
    // A form shown again (refused) keeps what was typed: a value other than the kind's
    // default counts as typed.
    document.querySelectorAll("input[data-defaults-follow]").forEach(function (input) {
      var other = input.form && input.form.elements[input.dataset.defaultsFollow];
      var defaults = JSON.parse(input.dataset.defaultRuns || "{}");
      if (other && input.value !== "" && String(defaults[other.value]) !== input.value) {
        input.dataset.edited = "1";
      }
    });
  }
  document.addEventListener("input", function (event) {
    if (event.target.dataset && event.target.dataset.defaultsFollow) {
      event.target.dataset.edited = event.target.value === "" ? "" : "1";
    }
  });
  document.addEventListener("change", function (event) {
    if (!event.target.form || !event.target.name) return;
    event.target.form.querySelectorAll("select[data-empty-follows]").forEach(function (select) {
      if (select.dataset.emptyFollows === event.target.name) followChoice(select);
    });
    event.target.form.querySelectorAll("input[data-defaults-follow]").forEach(function (input) {
      if (input.dataset.defaultsFollow === event.target.name) followDefault(input);
    });
  });
  // A part of a form shown only for some values of another field (the Simulate form's swap
  // options, for swap suggestions): data-shown-follows names the field, data-shown-for lists
  // the values. Without JavaScript every part stays shown.
  function followShown(part) {
    var form = part.closest("form");
    var other = form && form.elements[part.dataset.shownFollows];
    if (!other) return;
    part.hidden = (part.dataset.shownFor || "").split(" ").indexOf(other.value) < 0;
  }
  function followShownParts() {
    document.querySelectorAll("[data-shown-follows]").forEach(followShown);
  }
  document.addEventListener("change", function (event) {
    if (!event.target.form || !event.target.name) return;
    event.target.form.querySelectorAll("[data-shown-follows]").forEach(function (part) {
      if (part.dataset.shownFollows === event.target.name) followShown(part);
    });
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", followShownParts); else followShownParts();
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", followChoices); else followChoices();
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", noteOwnNumbers); else noteOwnNumbers();

  // The header's menu (base.html) is open wherever its links stand in the row (site.css shows
  // them there without JavaScript too), so they are part of the page for every reader and tool;
  // on a narrow screen it starts closed, one row.
  var wide = window.matchMedia("(min-width: 1280px)");
  function syncMenu() {
    var menu = document.querySelector(".site-header .nav-menu");
    if (menu) menu.open = wide.matches;
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", syncMenu); else syncMenu();
  if (wide.addEventListener) wide.addEventListener("change", syncMenu);

  // A set grid's draft (set_grid.js) goes once its changeset was sent (changeset_detail.html).
  function clearGridDraft() {
    document.querySelectorAll("[data-clear-grid-draft]").forEach(function (el) {
      try {
        localStorage.removeItem("cardlab-grid-draft:" + el.dataset.clearGridDraft);
        localStorage.removeItem("cardlab-grid-scans:" + el.dataset.clearGridDraft);
      } catch (e) { /* none */ }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", clearGridDraft); else clearGridDraft();

  // A refused form's summary of problems (_error_summary.html) takes the focus, so a phone
  // shows it and a screen reader reads it first; its links move to each field.
  function focusErrorSummary() {
    var summary = document.querySelector("[data-error-summary]");
    if (summary) summary.focus();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", focusErrorSummary); else focusErrorSummary();
})();
