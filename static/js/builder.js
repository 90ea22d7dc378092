/* Deck builder: the draft lives in the page (#draft, JSON) until Save; every change asks the
   server for the columns, counters and problems (htmx "draft-changed" on #builder-state). */
(function () {
  "use strict";
  var root = document.getElementById("builder");
  if (!root) return;
  var draftInput = document.getElementById("draft");
  var form = document.getElementById("builder-form");
  var state = document.getElementById("builder-state");
  var query = document.getElementById("card-query");
  var results = document.getElementById("builder-results");
  var dirtyNote = document.getElementById("dirty-note");
  var draft = JSON.parse(draftInput.value || "{}");
  draft.deck = draft.deck || {};
  draft.bench = draft.bench || {};
  var dirty = false;
  var MAX = 60;
  var BENCH_MAX = parseInt(root.dataset.benchMax || "20", 10);
  var labels = {
    deck: root.dataset.inDeck || "%s in deck",
    bench: root.dataset.inBench || "%s on bench",
    goalkeeper: root.dataset.isGoalkeeper || "goalkeeper",
    pk: root.dataset.isPk || "PK goalkeeper"
  };

  function setDirty(value) {
    dirty = value;
    if (dirtyNote) dirtyNote.hidden = !value;
  }

  function commit() {
    draftInput.value = JSON.stringify(draft);
    setDirty(true);
    showOptimistic();
    htmx.trigger(state, "draft-changed");
  }

  // Optimistic update: counts that follow from the draft alone change at once; the server's
  // answer (legality, persons, problems) replaces them a moment later and stays the judge.
  function total(zone) {
    return Object.keys(draft[zone]).reduce(function (n, c) { return n + draft[zone][c]; }, 0);
  }
  function setText(selector, text) {
    root.querySelectorAll(selector).forEach(function (node) { node.textContent = text; });
  }
  function showOptimistic() {
    var cards = total("deck"), bench = total("bench");
    setText('[data-counter="cards"] strong', cards + "/" + MAX);
    setText('[data-counter="bench"] strong', bench + "/" + BENCH_MAX);
    setText('[data-zone-count="deck"]', cards + "/" + MAX);
    setText('[data-zone-count="bench"]', bench + "/" + BENCH_MAX);
    var cardsCounter = root.querySelector('[data-counter="cards"]');
    if (cardsCounter) cardsCounter.className = "counter " + (cards === MAX ? "ok" : "bad");
    root.querySelectorAll("input.qty").forEach(function (box) {
      if (box !== document.activeElement) box.value = draft[box.dataset.zone][box.dataset.card] || 0;
    });
    showInDraft();
  }
  function showInDraft() {
    results.querySelectorAll("[data-in-draft]").forEach(function (node) {
      var card = node.dataset.inDraft, parts = [];
      if (draft.deck[card]) parts.push(labels.deck.replace("%s", draft.deck[card]));
      if (draft.bench[card]) parts.push(labels.bench.replace("%s", draft.bench[card]));
      if (draft.goalkeeper === card) parts.push(labels.goalkeeper);
      if (draft.pk_goalkeeper === card) parts.push(labels.pk);
      node.textContent = parts.join(" · ");
      node.hidden = !parts.length;
    });
  }

  function setQuantity(zone, card, quantity) {
    var entries = draft[zone];
    quantity = Math.max(0, Math.min(MAX, quantity | 0));
    if (quantity === 0) delete entries[card];
    else entries[card] = quantity;
  }

  function forget(card) {
    delete draft.deck[card];
    delete draft.bench[card];
    if (draft.goalkeeper === card) setKeeper("goalkeeper", null);
    if (draft.pk_goalkeeper === card) setKeeper("pk_goalkeeper", null);
  }

  function setKeeper(field, card) {
    draft[field] = card || null;
    var picker = root.querySelector('select[data-field="' + field + '"]');
    if (picker) picker.value = card || "";
    // R-PK-1: a PK goalkeeper is one of the bench cards.
    if (field === "pk_goalkeeper" && card && !draft.bench[card]) draft.bench[card] = 1;
  }

  function act(button) {
    var card = button.dataset.card;
    switch (button.dataset.action) {
      case "add":
        var zone = button.dataset.zone;
        setQuantity(zone, card, (draft[zone][card] || 0) + parseInt(button.dataset.delta, 10));
        break;
      case "remove":
        setQuantity(button.dataset.zone, card, 0);
        break;
      case "goalkeeper":
        setKeeper("goalkeeper", card);
        break;
      case "pk_goalkeeper":
        setKeeper("pk_goalkeeper", card);
        break;
      case "forget":
        forget(card);
        break;
      default:
        return;
    }
    commit();
  }

  root.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-action]");
    if (button && root.contains(button)) {
      event.preventDefault();
      act(button);
    }
  });

  root.addEventListener("change", function (event) {
    var target = event.target;
    if (target.matches("input.qty")) {
      setQuantity(target.dataset.zone, target.dataset.card, parseInt(target.value, 10) || 0);
      commit();
    } else if (target.matches("select[data-field]")) {
      setKeeper(target.dataset.field, target.value);
      commit();
    }
  });

  // Enter in a quantity box applies it without submitting the form around the page.
  root.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && event.target.matches("input.qty")) {
      event.preventDefault();
      event.target.dispatchEvent(new Event("change", {bubbles: true}));
    }
  });

  form.addEventListener("input", function () { setDirty(true); });
  form.addEventListener("submit", function () {
    draftInput.value = JSON.stringify(draft);
    dirty = false;
  });
  window.addEventListener("beforeunload", function (event) {
    if (!dirty) return;
    event.preventDefault();
    event.returnValue = root.dataset.confirm || "";
    return event.returnValue;
  });

  // Keyboard: Enter adds the first result, arrows walk the results, a digit on a focused
  // result sets its copies, "+" adds one, "b" adds one to the bench, "/" returns to the box.
  function resultButtons() {
    return Array.prototype.slice.call(results.querySelectorAll("button.primary-action"));
  }
  function resultRows() {
    return Array.prototype.slice.call(results.querySelectorAll("li.result"));
  }
  function resultsAreFor(text) {
    var box = results.querySelector("[data-query]");
    return box && box.dataset.query === text.trim();
  }
  query.addEventListener("keydown", function (event) {
    var buttons = resultButtons();
    if (event.key === "Enter") {
      event.preventDefault();
      if (buttons.length && resultsAreFor(query.value)) act(buttons[0]);
      else htmx.trigger(query, "search");
    } else if (event.key === "ArrowDown" && resultRows().length) {
      event.preventDefault();
      resultRows()[0].focus();
    }
  });
  results.addEventListener("keydown", function (event) {
    var row = event.target.closest(".result");
    if (!row || event.ctrlKey || event.metaKey || event.altKey) return;
    var rows = resultRows();
    var index = rows.indexOf(row);
    var card = row.dataset.card, zone = row.dataset.zone;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      var next = index + (event.key === "ArrowDown" ? 1 : -1);
      if (next < 0) query.focus();
      else if (next < rows.length) rows[next].focus();
      return;
    }
    if (event.target !== row) return; // keys on the row's own buttons keep their meaning
    if (/^[0-9]$/.test(event.key)) {
      event.preventDefault();
      setQuantity(zone, card, parseInt(event.key, 10));
      commit();
    } else if (event.key === "+" || event.key === "=") {
      event.preventDefault();
      setQuantity(zone, card, (draft[zone][card] || 0) + 1);
      commit();
    } else if (event.key === "b") {
      event.preventDefault();
      setQuantity("bench", card, (draft.bench[card] || 0) + 1);
      commit();
    } else if (event.key === "Enter") {
      event.preventDefault();
      var primary = row.querySelector("button.primary-action");
      if (primary) act(primary);
    }
  });
  document.body.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target === results) showInDraft();
  });

  // Preview: hovering, focusing or long-pressing a result shows its card's details.
  var shown = null, pressTimer = null;
  function preview(row, on) {
    var pop = row && row.querySelector(".card-preview");
    if (shown && shown !== pop) shown.hidden = true;
    shown = on ? pop : null;
    if (pop) pop.hidden = !on;
  }
  results.addEventListener("mouseover", function (event) {
    preview(event.target.closest(".result"), true);
  });
  results.addEventListener("mouseleave", function () { preview(null, false); });
  results.addEventListener("focusin", function (event) {
    var row = event.target.closest(".result");
    if (row && event.target === row) preview(row, true);
  });
  results.addEventListener("focusout", function () { preview(null, false); });
  results.addEventListener("touchstart", function (event) {
    var row = event.target.closest(".result");
    clearTimeout(pressTimer);
    pressTimer = setTimeout(function () { preview(row, true); }, 450);
  }, {passive: true});
  ["touchend", "touchmove", "touchcancel"].forEach(function (name) {
    results.addEventListener(name, function () { clearTimeout(pressTimer); }, {passive: true});
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") preview(null, false);
  });

  // Drag a result or an entry to the deck, the bench or a goalkeeper slot.
  root.addEventListener("dragstart", function (event) {
    var item = event.target.closest && event.target.closest(".result, .entry");
    if (!item) return;
    event.dataTransfer.effectAllowed = "copyMove";
    event.dataTransfer.setData("text/plain", JSON.stringify({
      card: item.dataset.card, from: item.classList.contains("entry") ? item.dataset.zone : null
    }));
  });
  function dropTarget(event) {
    return event.target.closest && event.target.closest("[data-drop]");
  }
  root.addEventListener("dragover", function (event) {
    var target = dropTarget(event);
    if (!target) return;
    event.preventDefault();
    target.classList.add("drop-over");
  });
  root.addEventListener("dragleave", function (event) {
    var target = dropTarget(event);
    if (target) target.classList.remove("drop-over");
  });
  root.addEventListener("drop", function (event) {
    var target = dropTarget(event);
    if (!target) return;
    event.preventDefault();
    target.classList.remove("drop-over");
    var data;
    try { data = JSON.parse(event.dataTransfer.getData("text/plain")); } catch (e) { return; }
    if (!data || !data.card) return;
    var to = target.dataset.drop;
    if (to === "goalkeeper" || to === "pk_goalkeeper") {
      setKeeper(to, data.card);
    } else if (data.from && data.from !== to) {
      var moved = draft[data.from][data.card] || 0;
      setQuantity(data.from, data.card, 0);
      setQuantity(to, data.card, (draft[to][data.card] || 0) + moved);
    } else if (!data.from) {
      setQuantity(to, data.card, (draft[to][data.card] || 0) + 1);
    } else {
      return;
    }
    commit();
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select") return;
    event.preventDefault();
    query.focus();
    query.select();
  });

  setDirty(root.dataset.dirty === "true");
  showInDraft();
})();
