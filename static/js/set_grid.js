// The set grid (catalog/set_grid.html): a set's cards as rows, entered from the keyboard.
// Tab moves right (the browser's own), Enter to the next row's first column, arrows up and down
// in the same column; a spreadsheet's cells pasted into a cell fill the grid from there. Changed
// cells are marked, the draft is kept in localStorage (it survives a reload) until the
// changeset is sent, and only the changed rows are sent, as the tab-separated rows the
// changeset form reads (catalog/contributions/changesets.py). A row may carry one scan of the
// card's front: chosen in its own cell, or from one chooser that takes many files at once and
// gives each to the row its file name names (BS-012.jpg, 012-front.png, 12.jpg); a file that
// names no row is listed and not sent. Files cannot be kept in localStorage: the draft keeps
// only which rows had a scan, to say so after a reload.
(function () {
  "use strict";
  const grid = document.getElementById("set-grid");
  const form = document.getElementById("grid-form");
  if (!grid || !form) return;
  const set = grid.dataset.set;
  const fields = grid.dataset.fields.split(" ");
  const key = "cardlab-grid-draft:" + set;
  const scansKey = "cardlab-grid-scans:" + set; // the numbers of the rows that had a scan
  const rows = Array.from(grid.tBodies[0].rows);
  const status = document.getElementById("grid-status");

  const cell = (row, column) => row && row.cells[column + 1] && row.cells[column + 1].querySelector("input[data-field]");
  const where = (input) => {
    const row = input.closest("tr");
    return [rows.indexOf(row), fields.indexOf(input.dataset.field)];
  };
  const changed = (input) => input.value !== input.dataset.original;

  const scanOf = (row) => row.querySelector("input[data-scan]");
  const hasScan = (row) => scanOf(row).files.length > 0;

  function mark(row) {
    let any = false;
    row.querySelectorAll("input[data-field]").forEach((input) => {
      const on = changed(input);
      input.classList.toggle("changed", on);
      any = any || on;
    });
    row.classList.toggle("has-scan", hasScan(row));
    row.classList.toggle("changed", any || hasScan(row)); // a scan alone is a change to send
  }

  function draft() {
    const out = {};
    rows.forEach((row) => {
      row.querySelectorAll("input[data-field]").forEach((input) => {
        if (changed(input)) (out[row.dataset.number] ||= {})[input.dataset.field] = input.value;
      });
    });
    return out;
  }

  let pending = null;
  function flush() {
    clearTimeout(pending);
    pending = null;
    const data = draft();
    try {
      if (Object.keys(data).length) localStorage.setItem(key, JSON.stringify(data));
      else localStorage.removeItem(key);
    } catch (e) { /* storage full or off: the grid still works, without a draft */ }
  }
  function save() {
    clearTimeout(pending);
    pending = setTimeout(flush, 250); // once typing pauses, and on leaving the page (below)
    count();
  }
  window.addEventListener("pagehide", () => { if (pending) flush(); });

  function count() {
    const n = grid.querySelectorAll("tbody tr.changed").length;
    status.querySelector("[data-changed-count]").textContent = n;
  }

  function restoreScans() {
    let numbers = null;
    try { numbers = JSON.parse(localStorage.getItem(scansKey) || "null"); } catch (e) { numbers = null; }
    if (!numbers || !numbers.length) return;
    const dropped = document.getElementById("grid-scans-dropped");
    dropped.querySelector("[data-dropped-list]").textContent =
      numbers.map((n) => set + "-" + String(n).padStart(3, "0")).join(", ");
    dropped.hidden = false;
  }

  function saveScans() {
    const numbers = rows.filter(hasScan).map((row) => Number(row.dataset.number));
    try {
      if (numbers.length) localStorage.setItem(scansKey, JSON.stringify(numbers));
      else localStorage.removeItem(scansKey);
    } catch (e) { /* storage full or off */ }
    document.querySelector("[data-scan-count]").textContent = numbers.length;
  }

  function showScan(row) {
    const file = scanOf(row).files[0];
    row.querySelector("[data-scan-name]").textContent = file ? file.name : "";
    row.querySelector("[data-scan-clear]").hidden = !file;
    mark(row);
    count();
    saveScans();
  }

  function setScan(row, file) {
    const list = new DataTransfer();
    if (file) list.items.add(file);
    scanOf(row).files = list.files;
    showScan(row);
  }

  // The set number a file's name gives: an optional set code, then the number first
  // ("BS-012.jpg", "bs_12-front.png", "012-front.png", "12.jpg"); null when it names none.
  const codeFirst = new RegExp("^" + set.replace(/[^A-Za-z0-9]/g, "") + "[-_ ]?", "i");
  function numberOf(name) {
    const base = name.replace(/\.[A-Za-z0-9]+$/, "").trim().replace(codeFirst, "");
    const found = base.match(/^0*(\d{1,3})(?!\d)/);
    return found ? String(parseInt(found[1], 10)) : null;
  }

  const chooser = document.getElementById("grid-scans");
  const scanBox = document.getElementById("grid-scans-box");
  const unmatchedBox = document.getElementById("grid-scans-unmatched");
  chooser.addEventListener("change", () => {
    const byNumber = new Map(rows.map((row) => [row.dataset.number, row]));
    const given = new Set();
    const unmatched = [];
    Array.from(chooser.files).forEach((file) => {
      const number = numberOf(file.name);
      const row = number && byNumber.get(number);
      if (!row) unmatched.push(file.name + ": " + scanBox.dataset.noRow);
      else if (given.has(number)) unmatched.push(file.name + ": " + scanBox.dataset.givenTwice);
      else {
        given.add(number);
        setScan(row, file);
      }
    });
    const list = unmatchedBox.querySelector("ul");
    list.replaceChildren(...unmatched.map((text) => {
      const item = document.createElement("li");
      item.textContent = text;
      return item;
    }));
    unmatchedBox.hidden = !unmatched.length;
    chooser.value = ""; // the files now sit in their rows' own inputs
    document.getElementById("grid-scans-dropped").hidden = true;
  });
  grid.addEventListener("change", (event) => {
    if (event.target.matches("input[data-scan]")) showScan(event.target.closest("tr"));
  });
  grid.addEventListener("click", (event) => {
    if (event.target.matches("[data-scan-clear]")) setScan(event.target.closest("tr"), null);
  });

  function restore() {
    restoreScans();
    let data = null;
    try { data = JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { data = null; }
    if (!data) return;
    rows.forEach((row) => {
      const values = data[row.dataset.number];
      if (!values) return;
      row.querySelectorAll("input[data-field]").forEach((input) => {
        if (Object.prototype.hasOwnProperty.call(values, input.dataset.field)) {
          input.value = values[input.dataset.field];
        }
      });
      mark(row);
    });
    status.querySelector("[data-draft-note]").hidden = false;
    count();
  }

  function go(input) {
    if (!input) return;
    input.focus();
    input.select();
  }

  grid.addEventListener("input", (event) => {
    if (event.target.matches("input[data-field]")) {
      mark(event.target.closest("tr"));
      save();
    }
  });

  grid.addEventListener("keydown", (event) => {
    const input = event.target;
    if (!input.matches("input[data-field]")) return;
    const [r, c] = where(input);
    if (event.key === "Enter") {
      event.preventDefault(); // never submit from a cell
      go(cell(rows[event.shiftKey ? r - 1 : r + 1], 0));
    } else if (event.key === "ArrowDown") {
      event.preventDefault();
      go(cell(rows[r + 1], c));
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      go(cell(rows[r - 1], c));
    }
  });

  // A pasted block whose first line names fields (a spreadsheet's header row: "number",
  // "name", "shoot"…) fills those columns of the rows its "number" column names (or, without
  // one, the rows from the cell pasted into); any other block fills from that cell across
  // and down.
  function pasteRows(input, text) {
    const lines = text.replace(/\r/g, "").replace(/\n$/, "").split("\n").map((line) => line.split("\t"));
    const head = lines[0].map((name) => name.trim().toLowerCase());
    const named = head.length > 1 && head.every((name) => fields.includes(name) || name === "set" || name === "number");
    const [r, c] = where(input);
    if (named) {
      const byNumber = new Map(rows.map((row) => [row.dataset.number, row]));
      lines.slice(1).forEach((cells, i) => {
        const numberAt = head.indexOf("number");
        const row = numberAt >= 0 ? byNumber.get(String(parseInt(cells[numberAt], 10))) : rows[r + i];
        if (!row) return;
        head.forEach((name, j) => {
          const target = row.querySelector(`input[data-field="${name}"]`);
          if (target && cells[j] !== undefined) target.value = cells[j].trim();
        });
        mark(row);
      });
      return;
    }
    lines.forEach((cells, i) => {
      const row = rows[r + i];
      if (!row) return;
      cells.forEach((value, j) => {
        const target = cell(row, c + j);
        if (target) target.value = value.trim();
      });
      mark(row);
    });
  }

  grid.addEventListener("paste", (event) => {
    const input = event.target;
    if (!input.matches("input[data-field]")) return;
    const text = (event.clipboardData || window.clipboardData).getData("text");
    if (!/[\t\n]/.test(text)) return; // one value: the browser pastes it
    event.preventDefault();
    pasteRows(input, text);
    save();
  });

  form.addEventListener("submit", (event) => {
    const changedRows = rows.filter((row) => row.classList.contains("changed"));
    if (!changedRows.length) {
      event.preventDefault();
      window.alert(form.dataset.nothing);
      return;
    }
    const cleared = grid.querySelectorAll("input.changed").length &&
      Array.from(grid.querySelectorAll("input.changed")).some((input) =>
        input.value === "" && input.dataset.original !== "" && !input.classList.contains("read-check")); // asked by set_grid_reading.js
    if (cleared && !window.confirm(form.dataset.confirmCleared)) {
      event.preventDefault();
      return;
    }
    const clean = (value) => value.replace(/[\t\n\r]/g, " ");
    const lines = [["set", "number", ...fields].join("\t")];
    changedRows.forEach((row) => {
      const values = fields.map((field) => clean(row.querySelector(`input[data-field="${field}"]`).value));
      lines.push([set, row.dataset.number, ...values].join("\t"));
    });
    form.querySelector("textarea[name=rows]").value = lines.join("\n") + "\n";
    rows.forEach((row) => {
      row.querySelectorAll("input[data-field]").forEach((input) => input.removeAttribute("name"));
      const scan = scanOf(row);
      if (hasScan(row)) scan.name = "scan-" + row.dataset.number; // read by catalog views._grid_scans
      else scan.removeAttribute("name");
    });
  });

  status.querySelector("[data-discard-draft]").addEventListener("click", () => {
    try { localStorage.removeItem(key); } catch (e) { /* nothing kept */ }
    rows.forEach((row) => {
      row.querySelectorAll("input[data-field]").forEach((input) => { input.value = input.dataset.original; });
      if (hasScan(row)) setScan(row, null);
      mark(row);
    });
    try { localStorage.removeItem(scansKey); } catch (e) { /* nothing kept */ }
    document.getElementById("grid-scans-dropped").hidden = true;
    status.querySelector("[data-draft-note]").hidden = true;
    count();
  });

  restore();
})();
