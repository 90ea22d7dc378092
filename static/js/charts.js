// Draw the result charts of a simulation batch from the JSON in #batch-results (Chart.js).
(function () {
  "use strict";
  function pick(obj, path) {
    return path.split(".").reduce(function (o, k) { return o == null ? undefined : o[k]; }, obj);
  }
  function histogram(a, b) {
    var keys = Object.keys(a || {}).concat(Object.keys(b || {}));
    keys = Array.from(new Set(keys)).sort(function (x, y) {
      var nx = parseFloat(x), ny = parseFloat(y);
      return isNaN(nx) || isNaN(ny) ? (x < y ? -1 : 1) : nx - ny;
    });
    return keys;
  }
  function draw() {
    var node = document.getElementById("batch-results");
    if (!node || typeof Chart === "undefined") return;
    var results = JSON.parse(node.textContent);
    if (!results) return;
    var green = "#1b7f3b", amber = "#d97706";
    document.querySelectorAll("canvas[data-chart]").forEach(function (canvas) {
      var kind = canvas.dataset.chart, config;
      if (kind === "bar") {
        var a = pick(results, canvas.dataset.source) || {};
        var b = canvas.dataset.source2 ? pick(results, canvas.dataset.source2) || {} : null;
        var labels = histogram(a, b);
        var sets = [{ label: canvas.dataset.label || canvas.dataset.source, data: labels.map(function (k) { return a[k] || 0; }), backgroundColor: green }];
        if (b) sets.push({ label: canvas.dataset.label2 || canvas.dataset.source2, data: labels.map(function (k) { return b[k] || 0; }), backgroundColor: amber });
        config = { type: "bar", data: { labels: labels, datasets: sets }, options: { animation: false, plugins: { legend: { display: true } } } };
      } else if (kind === "winrates") {
        var rows = results.table || [];
        config = {
          type: "bar",
          data: {
            labels: rows.map(function (r) { return r.opponent; }),
            datasets: [
              { label: "win rate", data: rows.map(function (r) { return r.win_rate * 100; }), backgroundColor: green },
              { label: "95% low", data: rows.map(function (r) { return r.interval[0] * 100; }), type: "line", showLine: false, borderColor: amber, backgroundColor: amber, pointStyle: "line", pointRadius: 10 },
              { label: "95% high", data: rows.map(function (r) { return r.interval[1] * 100; }), type: "line", showLine: false, borderColor: amber, backgroundColor: amber, pointStyle: "line", pointRadius: 10 }
            ]
          },
          options: { animation: false, indexAxis: "x", scales: { y: { min: 0, max: 100, title: { display: true, text: "%" } } } }
        };
      } else if (kind === "lab") {
        var variants = results.variants || [];
        var groups = ["onside", "random", "normal"];
        var colours = [green, amber, "#2563eb"];
        config = {
          type: "bar",
          data: {
            labels: groups,
            datasets: variants.map(function (v, i) {
              return {
                label: v.label,
                data: groups.map(function (g) { var k = v.kicker_wins[g]; return k.n ? k.rate * 100 : null; }),
                backgroundColor: colours[i % colours.length]
              };
            })
          },
          options: { animation: false, scales: { y: { min: 0, max: 100, title: { display: true, text: "%" } } } }
        };
      }
      if (config) { canvas.dataset.drawn = "1"; new Chart(canvas, config); }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", draw); else draw();
})();
