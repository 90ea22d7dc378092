/* Solo play: the player-card limit while choosing cards, keys for every decision, the help
   overlay (?) and the log filter.
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

  /* ----- the help overlay: "?" opens it, Esc closes it, Tab stays inside ----- */
  var opener = null;

  function help() { return document.getElementById("solo-help"); }

  function helpOpen() { var d = help(); return !!(d && d.open); }

  function openHelp() {
    var dialog = help();
    if (!dialog || dialog.open) return;
    opener = document.activeElement;
    if (dialog.showModal) dialog.showModal(); else dialog.setAttribute("open", "");
    var first = focusables(dialog)[0];
    if (first) first.focus();
  }

  function closeHelp() {
    var dialog = help();
    if (!dialog || !dialog.open) return;
    if (dialog.close) dialog.close(); else dialog.removeAttribute("open");
  }

  function focusables(root) {
    return Array.from(root.querySelectorAll(
      'button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])'
    )).filter(function (el) { return !el.disabled && el.offsetParent !== null; });
  }

  function trapTab(event) {
    var items = focusables(help());
    if (!items.length) { event.preventDefault(); return; }
    var first = items[0], last = items[items.length - 1];
    var inside = help().contains(document.activeElement);
    if (event.shiftKey && (document.activeElement === first || !inside)) {
      last.focus(); event.preventDefault();
    } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
      first.focus(); event.preventDefault();
    }
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest && event.target.closest("[data-action=help], [data-close-help]");
    if (!target) return;
    if (target.matches("[data-close-help]")) closeHelp(); else openHelp();
  });

  document.addEventListener("close", function (event) {
    if (event.target !== help()) return;
    var back = opener && document.contains(opener) ? opener : document.querySelector("[data-action=help]");
    if (back) back.focus();
    opener = null;
  }, true);

  /* ----- keys for every decision ----- */
  var KEYS = {
    "0": '[data-action="nothing"]',
    s: '[data-action="shoot"]',
    b: '[data-action="back_pass"]',
    p: '[data-action="penalty_zone"]',
    m: '[data-action="middle_zone"]',
    u: '[data-action="undo"]',
    a: '[data-action="autoplay"]',
    n: '[data-action="again"]',
    o: '[data-action="replay"]',
  };

  function swaps() {
    return Array.from(document.querySelectorAll('#act-form input[name="swap"]'));
  }

  function moveInHand(step) {
    var inputs = picks();
    if (!inputs.length) return false;
    var at = inputs.indexOf(document.activeElement);
    var next = at < 0 ? 0 : Math.min(Math.max(at + step, 0), inputs.length - 1);
    inputs[next].focus();
    return true;
  }

  function nextLogFilter() {
    var links = Array.from(document.querySelectorAll("[data-log-filter]"));
    if (!links.length) return false;
    var at = links.findIndex(function (a) { return a.classList.contains("current"); });
    links[(at + 1) % links.length].click();
    return true;
  }

  document.addEventListener("keydown", function (event) {
    if (!document.getElementById("solo-game")) return;
    if (helpOpen()) {
      if (event.key === "Tab") trapTab(event);
      else if (event.key === "Escape") { closeHelp(); event.preventDefault(); }
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    var tag = target && target.tagName;
    var typing = tag === "TEXTAREA" || tag === "SELECT" ||
      (tag === "INPUT" && target.type !== "checkbox" && target.type !== "radio");
    if (typing) return;
    if (event.key === "?") { openHelp(); event.preventDefault(); return; }
    var key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (/^[0-9]$/.test(key) && swaps().length) {  // halftime: 0 keeps the deck, N the Nth swap
      var radio = swaps()[parseInt(key, 10)];
      if (radio) { radio.checked = true; radio.focus(); event.preventDefault(); }
      return;
    }
    if (/^[1-9]$/.test(key)) {
      var input = picks()[parseInt(key, 10) - 1];
      if (input) {
        input.click();
        input.focus({ preventScroll: true });
        event.preventDefault();
      }
      return;
    }
    var arrow = key === "ArrowRight" || key === "ArrowLeft";
    if (arrow && (tag !== "INPUT" || target.type === "checkbox")) {
      if (moveInHand(key === "ArrowRight" ? 1 : -1)) event.preventDefault();
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
    if (key === "l" && nextLogFilter()) { event.preventDefault(); return; }
    if (KEYS[key] && click(KEYS[key])) event.preventDefault();
  });

  /* The log filter the player chose goes with every request of the game, so the log keeps it
     after each decision. */
  document.addEventListener("htmx:configRequest", function (event) {
    var game = document.getElementById("solo-game");
    var elt = event.detail.elt;
    if (!game || !elt || elt.hasAttribute("data-log-filter")) return;
    var list = document.getElementById("event-list");
    var value = list && list.dataset.log;
    if (value && value !== "all") event.detail.parameters.log = value;
  });

  document.addEventListener("htmx:afterSettle", function () {
    if (!document.getElementById("solo-game")) return;
    refresh();
    var active = document.activeElement;
    if (!active || active === document.body || !document.contains(active)) {
      var first = picks()[0] || document.querySelector("#act-form [data-action], #act-form input[name=swap]:checked, .decision [data-action=again]");
      if (first) first.focus({ preventScroll: true });
    }
  });

  document.addEventListener("DOMContentLoaded", refresh);
})();
