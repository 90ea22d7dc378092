/* Solo play: the player-card limit while choosing cards, and keyboard shortcuts.
   The server (the rules engine) checks every action again; this only explains limits early.
   Event delegation on the document, so it keeps working after every htmx swap. */
(function () {
  "use strict";

  function form() { return document.getElementById("act-form"); }

  function picks() {
    return Array.from(document.querySelectorAll('.card-pick input[form="act-form"]'));
  }

  function budgetInfo() {
    var el = document.querySelector(".budget[data-budget]");
    if (!el) return null;
    return { budget: parseInt(el.dataset.budget, 10), limit: parseInt(el.dataset.limit, 10) };
  }

  function reasonBox() { return document.querySelector("[data-limit-reason]"); }

  function text(key, fallback) {
    var node = document.getElementById("solo-strings");
    if (!node) return fallback;
    try { return JSON.parse(node.textContent)[key] || fallback; } catch (e) { return fallback; }
  }

  function refresh() {
    var info = budgetInfo();
    if (!info) return;
    var inputs = picks();
    var players = inputs.filter(function (i) { return i.checked && i.dataset.kind === "player"; });
    var full = players.length >= info.budget;
    inputs.forEach(function (input) {
      var blocked = !input.checked && input.dataset.kind === "player" && full;
      input.closest(".card-pick").classList.toggle("blocked", blocked);
      input.setAttribute("aria-disabled", blocked ? "true" : "false");
    });
    var count = document.querySelector("[data-selected-count]");
    if (count) count.textContent = inputs.filter(function (i) { return i.checked; }).length;
  }

  function explainLimit(input) {
    var info = budgetInfo();
    var box = reasonBox();
    if (!box || !info) return;
    var used = info.limit - info.budget;
    var message = text(
      "limit",
      "{name} can't be added: at most {limit} player cards per turn (R-PLAY-2), and you have " +
        "already used {used} this turn and selected {selected}."
    );
    var selected = picks().filter(function (i) {
      return i.checked && i.dataset.kind === "player";
    }).length;
    box.textContent = message
      .replace("{name}", input.dataset.name || input.value)
      .replace("{limit}", info.limit)
      .replace("{used}", used)
      .replace("{selected}", selected);
  }

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input.matches || !input.matches('.card-pick input[form="act-form"]')) return;
    var info = budgetInfo();
    var box = reasonBox();
    if (box) box.textContent = "";
    if (info && input.checked && input.dataset.kind === "player") {
      var players = picks().filter(function (i) {
        return i.checked && i.dataset.kind === "player";
      }).length;
      if (players > info.budget) {
        input.checked = false;
        explainLimit(input);
      }
    }
    refresh();
  });

  function click(selector) {
    var button = document.querySelector(selector);
    if (button && !button.disabled) { button.click(); return true; }
    return false;
  }

  var KEYS = {
    "0": '[data-action="nothing"]',
    s: '[data-action="shoot"]',
    b: '[data-action="back_pass"]',
    p: '[data-action="penalty_zone"]',
    m: '[data-action="middle_zone"]',
    u: '[data-action="undo"]',
    a: '[data-action="autoplay"]',
  };

  document.addEventListener("keydown", function (event) {
    if (!document.getElementById("solo-game")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    var tag = target && target.tagName;
    var typing = tag === "TEXTAREA" || tag === "SELECT" ||
      (tag === "INPUT" && target.type !== "checkbox" && target.type !== "radio");
    if (typing) return;
    var key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (/^[1-9]$/.test(key)) {
      var input = picks()[parseInt(key, 10) - 1];
      if (input) {
        input.click();
        event.preventDefault();
      }
      return;
    }
    if (key === "Enter" && form() && tag !== "BUTTON" && tag !== "A") {
      if (click('[data-action="play"]') || click('[data-action="halftime"]')) event.preventDefault();
      return;
    }
    if (key === " " && tag !== "BUTTON" && tag !== "INPUT" && tag !== "A") {
      if (click('[data-action="skip"]')) event.preventDefault();
      return;
    }
    if (KEYS[key] && click(KEYS[key])) event.preventDefault();
  });

  document.addEventListener("htmx:afterSettle", function () {
    if (!document.getElementById("solo-game")) return;
    refresh();
    var active = document.activeElement;
    if (!active || active === document.body || !document.contains(active)) {
      var first = picks()[0] || document.querySelector("#act-form [data-action]");
      if (first) first.focus({ preventScroll: true });
    }
  });

  document.addEventListener("DOMContentLoaded", refresh);
})();
