// Set checklist: click a number (or Enter / + on it) to add a copy, - or Backspace to remove one.
// The server answers the new counts; the completion bar and the missing list follow them.
(function () {
  "use strict";
  function init() {
    var list = document.querySelector(".owned-checklist");
    if (!list) return;
    var errorBox = document.querySelector('[data-role="error"]');
    function update(button, data) {
      button.querySelector('[data-role="qty"]').textContent = data.quantity;
      button.classList.toggle("owned", data.quantity > 0);
      var label = button.getAttribute("aria-label").replace(/: \d+$/, ": " + data.quantity);
      button.setAttribute("aria-label", label);
      var box = document.querySelector('.completion[data-set="' + list.dataset.set + '"]');
      if (box) {
        var bar = box.querySelector('[data-role="bar"]');
        bar.max = data.total;
        bar.value = data.owned;
        box.querySelector('[data-role="count"]').textContent = data.owned + " / " + data.total;
        box.querySelector('[data-role="percent"]').textContent = data.percent;
      }
      var missing = document.querySelector('[data-role="missing"]');
      if (missing && data.missing.length) missing.textContent = data.missing.join(", ");
      else if (missing) missing.textContent = missing.dataset.complete || "✓";
    }
    function send(button, delta) {
      var body = new URLSearchParams({ card: button.dataset.card, delta: String(delta) });
      fetch(list.dataset.addUrl, {
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
          if (!res.ok) {
            errorBox.textContent = res.data.error || "Error";
            errorBox.hidden = false;
            return;
          }
          errorBox.hidden = true;
          update(button, res.data);
        });
    }
    list.addEventListener("click", function (event) {
      var button = event.target.closest("button.check");
      if (button) send(button, 1);
    });
    list.addEventListener("keydown", function (event) {
      var button = event.target.closest("button.check");
      if (!button) return;
      if (event.key === "+" || event.key === "=") {
        event.preventDefault();
        send(button, 1);
      } else if (event.key === "-" || event.key === "Backspace" || event.key === "Delete") {
        event.preventDefault();
        send(button, -1);
      }
      // Enter and Space click the button, which adds a copy.
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
