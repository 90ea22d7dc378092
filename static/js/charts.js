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
  // Draws each bar's 95% interval (dataset.intervals: [[low, high] | null, ...], in the bar's
  // units) as a vertical line with caps, so a chart that promises intervals shows them.
  var intervalBars = {
    id: "intervalBars",
    afterDatasetsDraw: function (chart) {
      var ctx = chart.ctx, y = chart.scales.y, drawn = 0;
      chart.data.datasets.forEach(function (set, i) {
        if (!set.intervals || !chart.isDatasetVisible(i)) return;
        chart.getDatasetMeta(i).data.forEach(function (bar, j) {
          var iv = set.intervals[j];
          if (!iv || bar.x == null) return;
          var top = y.getPixelForValue(iv[1]), bottom = y.getPixelForValue(iv[0]);
          var half = Math.min(8, (bar.width || 12) / 4);
          ctx.save();
          ctx.strokeStyle = "#111";
          ctx.lineWidth = 1.5;
          ctx.beginPath();
          ctx.moveTo(bar.x, top); ctx.lineTo(bar.x, bottom);
          ctx.moveTo(bar.x - half, top); ctx.lineTo(bar.x + half, top);
          ctx.moveTo(bar.x - half, bottom); ctx.lineTo(bar.x + half, bottom);
          ctx.stroke();
          ctx.restore();
          drawn += 1;
        });
      });
      chart.canvas.dataset.intervals = String(drawn);
    }
  };
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
                intervals: groups.map(function (g) { var k = v.kicker_wins[g]; return k.n && k.interval ? [k.interval[0] * 100, k.interval[1] * 100] : null; }),
                backgroundColor: colours[i % colours.length]
              };
            })
          },
          options: { animation: false, scales: { y: { min: 0, max: 100, title: { display: true, text: "%" } } } },
          plugins: [intervalBars]
        };
      } else if (kind === "td-heat") {
        // a sweep's cells: the random-kicking team's margin a game, with its interval
        var cells = (results.sweep && results.sweep.cells) || [];
        config = {
          type: "bar",
          data: {
            labels: cells.map(function (c) { return Object.keys(c.values).map(function (k) { return k + "=" + c.values[k]; }).join(", "); }),
            datasets: [{
              label: canvas.dataset.label || "margin",
              data: cells.map(function (c) { return c.figures.margin.value; }),
              intervals: cells.map(function (c) { return c.figures.margin.interval; }),
              backgroundColor: cells.map(function (c) { return c.figures.margin.value >= 0 ? green : amber; })
            }]
          },
          options: { animation: false, plugins: { legend: { display: false } } },
          plugins: [intervalBars]
        };
      }
      if (config) { canvas.dataset.drawn = "1"; new Chart(canvas, config); }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", draw); else draw();
})();
