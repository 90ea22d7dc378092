// The proposal page while a scan is being processed by the worker (catalog.tasks.scan_process):
// ask every 2 s how many are still pending; once none is, reload the page to show the result,
// unless the editor has started typing a reason (then only say that the scans are ready).
(function () {
  "use strict";
  const box = document.getElementById("scan-progress");
  if (!box) return;
  let tries = 0;
  function ask() {
    tries += 1;
    fetch(box.dataset.url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : null))
      .then((answer) => {
        if (answer && answer.pending === 0) {
          const reason = document.querySelector("#review-form textarea[name=reason]");
          if (!reason || !reason.value.trim()) {
            window.location.reload();
            return;
          }
          box.textContent = box.dataset.done;
          return;
        }
        if (tries < 150) window.setTimeout(ask, 2000);
      })
      .catch(() => {
        if (tries < 150) window.setTimeout(ask, 2000);
      });
  }
  window.setTimeout(ask, 1000);
})();
