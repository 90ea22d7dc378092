// Draw the charts of a page from JSON blocks (Chart.js): a simulation batch's results
// (#batch-results) and a deck's stat histogram. Every label a person reads comes from the page
// (data-label-* attributes or the JSON block), so it is translated with the page.
(function () {
  "use strict";
  var green = "#1b7f3b", amber = "#d97706", blue = "#2563eb", red = "#dc2626", purple = "#7c3aed";

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
  function jsonOf(id) {
    var node = id && document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }
  function label(canvas, name, fallback) {
    return canvas.dataset["label" + name] || fallback;
  }
  // Interval ends as two marker series, drawn over the bars (order 0) and never clipped at 0 or
  // 100 %: the low end a downward amber triangle, the high end an upward purple one, each with a
  // white rim so it reads on the green bar, and apart from the other even where they come close.
  function intervalSets(canvas, lows, highs) {
    var marker = { type: "line", showLine: false, order: 0, clip: false, pointRadius: 8, pointHoverRadius: 10, pointBorderColor: "#fff", pointBorderWidth: 1.5, pointStyle: "triangle" };
    return [
      Object.assign({ label: label(canvas, "Low", "95% low"), data: lows, borderColor: amber, backgroundColor: amber, pointBackgroundColor: amber, rotation: 180 }, marker),
      Object.assign({ label: label(canvas, "High", "95% high"), data: highs, borderColor: purple, backgroundColor: purple, pointBackgroundColor: purple, rotation: 0 }, marker)
    ];
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
  var builders = {
    "deck-stats": function (canvas) {
      var data = jsonOf(canvas.dataset.json);
      if (!data || data.labels.length < 2) return null;
      return {
        type: "bar",
        data: { labels: data.labels, datasets: [
          { label: data.names.shoot, data: data.series.shoot, backgroundColor: red },
          { label: data.names.keep, data: data.series.keep, backgroundColor: blue },
          { label: data.names.defense, data: data.series.defense, backgroundColor: green }
        ] },
        options: { animation: false, responsive: true, maintainAspectRatio: false,
          scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } }
      };
    },
    bar: function (canvas, results) {
      var a = pick(results, canvas.dataset.source) || {};
      var b = canvas.dataset.source2 ? pick(results, canvas.dataset.source2) || {} : null;
      var labels = histogram(a, b);
      var sets = [{ label: canvas.dataset.label || canvas.dataset.source, data: labels.map(function (k) { return a[k] || 0; }), backgroundColor: green }];
      if (b) sets.push({ label: canvas.dataset.label2 || canvas.dataset.source2, data: labels.map(function (k) { return b[k] || 0; }), backgroundColor: amber });
      return { type: "bar", data: { labels: labels, datasets: sets }, options: { animation: false, plugins: { legend: { display: true } } } };
    },
    winrates: function (canvas, results) {
      // Each opponent's win rate as a bar, its 95% interval as a line with caps (intervalBars)
      // and its two ends as markers.
      var rows = results.table || [];
      var iv = rows.map(function (r) { return r.interval ? [r.interval[0] * 100, r.interval[1] * 100] : null; });
      return {
        type: "bar",
        data: {
          labels: rows.map(function (r) { return r.opponent; }),
          datasets: [{ label: label(canvas, "Rate", "win rate"), data: rows.map(function (r) { return r.win_rate * 100; }), intervals: iv, backgroundColor: "rgba(27, 127, 59, 0.55)", borderColor: green, borderWidth: 1, order: 1 }].concat(
            intervalSets(canvas, iv.map(function (v) { return v && v[0]; }), iv.map(function (v) { return v && v[1]; })))
        },
        options: { animation: false, indexAxis: "x", layout: { padding: { top: 12 } }, scales: { y: { min: 0, max: 100, title: { display: true, text: "%" } } } },
        plugins: [intervalBars]
      };
    },
    lab: function (canvas, results) {
      var variants = results.variants || [];
      var groups = ["onside", "random", "normal"];
      var names = groups.map(function (g) { return label(canvas, g.charAt(0).toUpperCase() + g.slice(1), g); });
      var colours = [green, amber, blue];
      return {
        type: "bar",
        data: { labels: names, datasets: variants.map(function (v, i) {
          return {
            label: v.label,
            data: groups.map(function (g) { var k = v.kicker_wins[g]; return k.n ? k.rate * 100 : null; }),
            intervals: groups.map(function (g) { var k = v.kicker_wins[g]; return k.n && k.interval ? [k.interval[0] * 100, k.interval[1] * 100] : null; }),
            backgroundColor: colours[i % colours.length]
          };
        }) },
        options: { animation: false, scales: { y: { min: 0, max: 100, title: { display: true, text: "%" } } } },
        plugins: [intervalBars]
      };
    },
    "td-heat": function (canvas, results) {
      // a sweep's cells: the random-kicking team's margin a game, with its interval
      var cells = (results.sweep && results.sweep.cells) || [];
      return {
        type: "bar",
        data: {
          // each cell's settings in the reader's words (the page's td-heat-labels), else raw
          labels: jsonOf("td-heat-labels") || cells.map(function (c) { return Object.keys(c.values).map(function (k) { return k + "=" + c.values[k]; }).join(", "); }),
          datasets: [{
            label: canvas.dataset.label || "margin",
            data: cells.map(function (c) { return c.figures.margin.value; }),
            intervals: cells.map(function (c) { return c.figures.margin.interval; }),
            backgroundColor: cells.map(function (c) { return c.figures.margin.value >= 0 ? green : amber; })
          }]
        },
        options: { animation: false, plugins: { legend: { display: false } }, scales: { y: spanning(cells.map(function (c) { return c.figures.margin; })) } },
        plugins: [intervalBars]
      };
    }
  };
  // A y axis that holds every bar and both ends of its interval (the scale fitted the bars
  // alone, so a whisker above the highest bar was cut off), with a little room beyond.
  function spanning(figures) {
    var ends = [0];
    figures.forEach(function (f) {
      [f.value].concat(f.interval || []).forEach(function (v) { if (typeof v === "number" && isFinite(v)) ends.push(v); });
    });
    var top = Math.max.apply(null, ends), bottom = Math.min.apply(null, ends);
    var room = (top - bottom) * 0.05 || 1;
    return { suggestedMax: top > 0 ? top + room : 0, suggestedMin: bottom < 0 ? bottom - room : 0 };
  }

  function draw() {
    if (typeof Chart === "undefined") return;
    var results = jsonOf("batch-results");
    document.querySelectorAll("canvas[data-chart]").forEach(function (canvas) {
      var build = builders[canvas.dataset.chart];
      if (!build || canvas.dataset.drawn) return;
      if (canvas.dataset.chart !== "deck-stats" && !results) return;
      var config = build(canvas, results);
      if (config) { canvas.dataset.drawn = "1"; new Chart(canvas, config); }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", draw); else draw();
})();
