// Reading scans into the set grid (catalog/set_grid.html, issue #25 item 2). Each row's chosen
// front scan is sent as a "read" job (POST /reading/jobs/, catalog/reading_views.py), a few at a
// time (data-at-once); the row shows the job's progress, then its fields are filled with what
// the worker read, each with its confidence. A field under the threshold comes back empty: its
// cell is emptied and marked "check" (an icon and words, not colour alone) with what was read
// as a hint, never filled silently. A cell the user typed is never overwritten: its mark says
// what was read instead. Focus goes to the first field to check once a row (or all) is read.
// Cells are filled through their "input" event, so set_grid.js marks and keeps them as typed.
(function () {
  "use strict";
  const box = document.getElementById("grid-reading");
  const grid = document.getElementById("set-grid");
  const form = document.getElementById("grid-form");
  if (!box || !grid || !form) return;
  const said = box.dataset;
  const rows = Array.from(grid.tBodies[0].rows);
  const atOnce = Math.max(1, parseInt(said.atOnce, 10) || 1);
  const columns = new Map(said.columns.split(" ").map((pair) => pair.split(":")));
  const statusLine = document.getElementById("grid-reading-status");
  const readAll = box.querySelector("[data-read-all]");
  const token = form.querySelector("input[name=csrfmiddlewaretoken]").value;
  const POLL_MS = 700;
  const POLL_GIVE_UP_MS = 10 * 60 * 1000; // the worker's own bound is far shorter

  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
  const scanOf = (row) => row.querySelector("input[data-scan]");
  const hasScan = (row) => scanOf(row).files.length > 0;
  const cellOf = (row, column) => row.querySelector(`input[data-field="${column}"]`);
  const typed = (input) =>
    input.value !== input.dataset.original && input.value !== (input.dataset.readValue ?? input.dataset.original);

  function say(text) {
    statusLine.textContent = text;
  }

  // -- a row's state: its button, progress and message --------------------------------------
  function rowState(row, text, { progress = null, failed = false } = {}) {
    const state = row.querySelector("[data-read-state]");
    const bar = row.querySelector("[data-read-progress]");
    state.textContent = text;
    state.classList.toggle("read-failed", failed);
    bar.hidden = progress === null;
    if (progress !== null) bar.value = progress;
  }

  const readFile = new WeakMap(); // the file each row's marks were read from

  function showButtons() {
    rows.forEach((row) => {
      // Another scan for the row (chosen here or by the many-files chooser), or none: the
      // marks were about the one before.
      if (readFile.has(row) && readFile.get(row) !== scanOf(row).files[0] && row.dataset.reading !== "1") {
        readFile.delete(row);
        clearRow(row);
      }
      const button = row.querySelector("[data-read-row]");
      button.hidden = !hasScan(row);
      button.disabled = row.dataset.reading === "1";
    });
    readAll.disabled = busy > 0;
  }

  // -- a cell's mark ------------------------------------------------------------------------
  function clearMark(input) {
    const mark = input.parentElement.querySelector(".read-mark");
    if (mark) mark.remove();
    input.classList.remove("read-check", "read-filled");
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
    input.removeAttribute("placeholder");
  }

  function setMark(input, kind, text, title) {
    clearMark(input);
    const mark = document.createElement("span");
    mark.className = "read-mark read-" + kind;
    mark.id = "read-mark-" + input.closest("tr").dataset.number + "-" + input.dataset.field;
    mark.textContent = text;
    mark.title = title || text;
    input.after(mark);
    input.setAttribute("aria-describedby", mark.id);
  }

  function clearRow(row) {
    row.querySelectorAll("input[data-field]").forEach(clearMark);
    row.querySelectorAll(".read-row-note").forEach((note) => note.remove());
    rowState(row, "");
  }

  const fire = (input) => input.dispatchEvent(new Event("input", { bubbles: true }));

  // Fill a row from a reading's result; return the cells left to check, in grid order.
  function apply(row, result) {
    const toCheck = [];
    let filled = 0;
    columns.forEach((column, field) => {
      const input = cellOf(row, column);
      const got = result.fields[field];
      if (!input || !got) return;
      const read = got.read || "";
      const sure = got.value !== "";
      if (typed(input)) {
        setMark(input, "kept", fill(said.kept, { read: read || "—", confidence: got.confidence }));
        return;
      }
      if (sure) {
        input.value = got.value;
        fire(input);
        setMark(input, "filled", fill(said.filled, { confidence: got.confidence }));
        input.classList.add("read-filled");
        input.dataset.readValue = got.value;
        filled += 1;
      } else {
        input.value = "";
        fire(input);
        const hint = read
          ? fill(said.hint, { read: read, confidence: got.confidence })
          : fill(said.hintNothing, { confidence: got.confidence });
        setMark(input, "check", "⚠ " + hint, hint);
        input.classList.add("read-check");
        input.setAttribute("aria-invalid", "true");
        input.placeholder = read ? read + "?" : "?";
        input.dataset.readValue = "";
        toCheck.push(input);
      }
    });
    const number = result.fields.number;
    if (number && number.value && number.value !== row.dataset.number) {
      const note = document.createElement("span");
      note.className = "read-row-note";
      note.textContent = "⚠ " + fill(said.otherNumber, { read: number.value, row: row.dataset.number });
      row.querySelector("[data-read-state]").after(note);
    }
    rowState(row, fill(said.done, { filled: filled, check: toCheck.length }));
    return toCheck;
  }

  // -- one job ------------------------------------------------------------------------------
  async function answer(response) {
    let body = null;
    try { body = await response.json(); } catch (e) { body = null; }
    if (!response.ok || !body) {
      throw new Error((body && body.message) || fill(said.httpError, { status: response.status }));
    }
    return body;
  }

  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  async function readRow(row) {
    const file = scanOf(row).files[0];
    if (!file) return [];
    row.dataset.reading = "1";
    clearRow(row);
    readFile.set(row, file);
    showButtons();
    rowState(row, said.sending, { progress: 0 });
    try {
      const data = new FormData();
      data.append("photo", file, file.name);
      data.append("set", grid.dataset.set);
      data.append("kind", "read");
      let state = await answer(await fetch(said.url, {
        method: "POST",
        body: data,
        headers: { "Accept": "application/json", "X-CSRFToken": token },
        credentials: "same-origin",
      }));
      const started = Date.now();
      while (state.status === "pending" || state.status === "running") {
        rowState(row, fill(said.reading, { progress: state.progress || 0 }), { progress: state.progress || 0 });
        if (Date.now() - started > POLL_GIVE_UP_MS) throw new Error(said.noAnswer);
        await wait(POLL_MS);
        state = await answer(await fetch(state.url, {
          headers: { "Accept": "application/json" },
          credentials: "same-origin",
        }));
      }
      if (state.status !== "done") throw new Error(state.message || said.noAnswer);
      return apply(row, state.result);
    } catch (error) {
      const message = error instanceof TypeError ? said.network : error.message;
      rowState(row, "⚠ " + fill(said.failed, { message: message }), { failed: true });
      return [];
    } finally {
      row.dataset.reading = "";
    }
  }

  // -- many rows, a few at a time ------------------------------------------------------------
  let busy = 0;
  function focusFirst(cells) {
    const first = cells.find((input) => input.classList.contains("read-check"));
    if (!first) return;
    first.focus();
    first.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  async function readRows(chosen) {
    busy += 1;
    showButtons();
    let done = 0;
    const toCheck = new Map();
    say(fill(said.progress, { done: 0, total: chosen.length }));
    const queue = chosen.slice();
    async function worker() {
      while (queue.length) {
        const row = queue.shift();
        toCheck.set(row, await readRow(row));
        done += 1;
        say(fill(said.progress, { done: done, total: chosen.length }));
        showButtons();
      }
    }
    await Promise.all(Array.from({ length: Math.min(atOnce, chosen.length) }, worker));
    busy -= 1;
    showButtons();
    const cells = chosen.flatMap((row) => toCheck.get(row) || []);
    const failed = chosen.filter((row) => row.querySelector("[data-read-state].read-failed")).length;
    say(fill(said.finished, { read: chosen.length - failed, failed: failed, check: cells.length }));
    focusFirst(cells);
  }

  readAll.addEventListener("click", () => {
    const chosen = rows.filter((row) => hasScan(row) && row.dataset.reading !== "1");
    if (!chosen.length) {
      say(said.noScans);
      return;
    }
    readRows(chosen);
  });

  grid.addEventListener("click", (event) => {
    const button = event.target.closest("[data-read-row]");
    if (button && !button.disabled) readRows([button.closest("tr")]);
  });

  grid.addEventListener("change", (event) => {
    if (event.target.matches("input[data-scan]")) showButtons();
  });
  grid.addEventListener("click", (event) => {
    if (event.target.matches("[data-scan-clear]")) showButtons();
  });
  document.getElementById("grid-scans").addEventListener("change", () => setTimeout(showButtons));

  // A cell to check that the user types into is checked: the mark says so and keeps the hint.
  grid.addEventListener("input", (event) => {
    const input = event.target;
    if (!event.isTrusted || !input.matches("input.read-check")) return;
    const mark = input.parentElement.querySelector(".read-mark");
    const hint = mark ? mark.title : "";
    setMark(input, "checked", "✓ " + said.checked, hint);
  });

  document.querySelector("[data-discard-draft]").addEventListener("click", () => rows.forEach(clearRow));

  // Cells read as unsure and still empty: ask once before sending them empty (runs before
  // set_grid.js's own check, which leaves these cells to this one).
  form.addEventListener("submit", (event) => {
    const unsure = Array.from(grid.querySelectorAll("input.read-check")).filter((input) => input.value === "");
    if (!unsure.length) return;
    if (!window.confirm(fill(said.confirmUnsure, { n: unsure.length }))) {
      event.preventDefault();
      event.stopImmediatePropagation();
      focusFirst(unsure);
    }
  }, { capture: true });

  showButtons();
})();
