// Set checklist: click a number (or Enter / Space / + on it) to add a copy, - or Backspace to
// remove one; the arrow keys, Home and End move between the numbers. The server answers the
// new counts; the completion bar, the missing list and a live status line follow them.
(function () {
  "use strict";
  function init() {
    var list = document.querySelector(".owned-checklist");
    if (!list) return;
    var errorBox = document.querySelector('[data-role="error"]');
    var status = document.querySelector('[data-role="status"]');
    // One request at a time, in the order of the keys pressed: answers never arrive out of
    // order, so the last count shown is the server's last count.
    var queue = Promise.resolve();

    function showError(message) {
      errorBox.textContent = message;
      errorBox.hidden = false;
    }

    function update(button, data) {
      button.querySelector('[data-role="qty"]').textContent = data.quantity;
      button.classList.toggle("owned", data.quantity > 0);
      var label = button.getAttribute("aria-label").replace(/: \d+$/, ": " + data.quantity);
      button.setAttribute("aria-label", label);
      var count = data.owned + " / " + data.total;
      var box = document.querySelector('.completion[data-set="' + list.dataset.set + '"]');
      if (box) {
        var bar = box.querySelector('[data-role="bar"]');
        bar.max = data.total;
        bar.value = data.owned;
        box.querySelector('[data-role="count"]').textContent = count;
        box.querySelector('[data-role="percent"]').textContent = data.percent;
      }
      var missing = document.querySelector('[data-role="missing"]');
      if (missing && data.missing.length) missing.textContent = data.missing.join(", ");
      else if (missing) missing.textContent = missing.dataset.complete || "✓";
      if (status) status.textContent = label + " · " + count + " (" + data.percent + "%)";
    }

    function post(button, delta) {
      var body = new URLSearchParams({ card: button.dataset.card, delta: String(delta) });
      return fetch(list.dataset.addUrl, {
        method: "POST",
        headers: { "X-CSRFToken": list.dataset.csrf },
        body: body,
        credentials: "same-origin",
      })
        .then(function (r) {
          return r.json().then(function (data) {
            return { ok: r.ok, data: data };
          });
        })
        .then(function (res) {
          if (!res.ok) return showError(res.data.error || list.dataset.failed);
          errorBox.hidden = true;
          update(button, res.data);
        })
        .catch(function () {
          showError(list.dataset.failed);
        });
    }

    function send(button, delta) {
      queue = queue.then(function () {
        return post(button, delta);
      });
    }

    function columns() {
      var template = getComputedStyle(list).gridTemplateColumns;
      return Math.max(1, template ? template.split(" ").length : 1);
    }

    function move(button, key) {
      var buttons = Array.prototype.slice.call(list.querySelectorAll("button.check"));
      var at = buttons.indexOf(button);
      var to = {
        ArrowRight: at + 1,
        ArrowLeft: at - 1,
        ArrowDown: at + columns(),
        ArrowUp: at - columns(),
        Home: 0,
        End: buttons.length - 1,
      }[key];
      if (to === undefined) return false;
      buttons[Math.max(0, Math.min(buttons.length - 1, to))].focus();
      return true;
    }

    list.addEventListener("click", function (event) {
      var button = event.target.closest("button.check");
      if (button) send(button, 1);
    });
    list.addEventListener("keydown", function (event) {
      var button = event.target.closest("button.check");
      if (!button || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === "+" || event.key === "=") {
        event.preventDefault();
        send(button, 1);
      } else if (event.key === "-" || event.key === "Backspace" || event.key === "Delete") {
        event.preventDefault();
        send(button, -1);
      } else if (move(button, event.key)) {
        event.preventDefault();
      }
      // Enter and Space click the button, which adds a copy.
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
