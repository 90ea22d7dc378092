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

  function setDirty(value) {
    dirty = value;
    if (dirtyNote) dirtyNote.hidden = !value;
  }

  function commit() {
    draftInput.value = JSON.stringify(draft);
    setDirty(true);
    htmx.trigger(state, "draft-changed");
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

  // Keyboard: Enter adds the first result, arrows walk the results, "/" returns to the box.
  function resultButtons() {
    return Array.prototype.slice.call(results.querySelectorAll("button.primary-action"));
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
    } else if (event.key === "ArrowDown" && buttons.length) {
      event.preventDefault();
      buttons[0].focus();
    }
  });
  results.addEventListener("keydown", function (event) {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    var buttons = resultButtons();
    var row = event.target.closest(".result");
    var index = buttons.findIndex(function (b) { return b.closest(".result") === row; });
    if (index < 0) return;
    event.preventDefault();
    var next = index + (event.key === "ArrowDown" ? 1 : -1);
    if (next < 0) query.focus();
    else if (next < buttons.length) buttons[next].focus();
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
})();
