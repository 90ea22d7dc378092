// Marking a set's layout (catalog.layout_views.py, templates/catalog/layout_mark.html).
// 1. The scan is sent to the reading jobs' JSON door (POST /reading/jobs/, kind=straighten) and
//    the job polled, with its progress, until the card is straightened; then the page opens the
//    job (?job=<token>), which the server draws. Without JavaScript the form posts to the page.
// 2. On the straightened card, each region is an SVG rectangle: drag it to move it, drag a
//    corner of the chosen one to resize it (mouse, pen or touch: pointer events). Its four number
//    fields (fractions of the card, 0 to 1) follow, and typing in them moves the rectangle.
(function () {
  "use strict";
  const EDGES = ["left", "top", "right", "bottom"];
  const MIN = 0.02; // a dragged region never gets thinner than 2% of the card
  const clamp = (value, low, high) => Math.min(high, Math.max(low, value));

  // ---- 1. the scan, straightened by the worker ----
  const upload = document.getElementById("upload-form");
  if (upload) {
    const box = document.getElementById("upload-progress");
    const said = box.querySelector("[data-said]");
    const percent = box.querySelector("[data-percent]");
    const bar = box.querySelector("progress");
    const error = document.getElementById("upload-error");
    const send = document.getElementById("upload-send");
    const token = upload.querySelector("input[name=csrfmiddlewaretoken]").value;
    const headers = { Accept: "application/json", "X-CSRFToken": token };

    const fail = (message) => {
      box.hidden = true;
      error.textContent = message;
      error.hidden = false;
      send.disabled = false;
    };
    const show = (text, value) => {
      box.hidden = false;
      said.textContent = text;
      if (value === null) {
        bar.removeAttribute("value");
        percent.textContent = "";
      } else {
        bar.value = value;
        percent.textContent = value + "%";
      }
    };
    const poll = (url, tries) => {
      fetch(url, { credentials: "same-origin", headers })
        .then((response) => response.json())
        .then((job) => {
          if (job.status === "done") {
            window.location.assign(window.location.pathname + "?job=" + encodeURIComponent(job.token));
          } else if (job.status === "failed") {
            fail(upload.dataset.failed + " " + (job.message || ""));
          } else if (tries < 300) {
            show(upload.dataset.reading, job.progress || 0);
            window.setTimeout(() => poll(url, tries + 1), 1000);
          } else {
            fail(upload.dataset.lost);
          }
        })
        .catch(() => fail(upload.dataset.lost));
    };
    upload.addEventListener("submit", (event) => {
      const file = upload.querySelector("input[type=file]");
      if (!file.files.length) return; // the browser's own "required" message
      event.preventDefault();
      error.hidden = true;
      send.disabled = true;
      show(upload.dataset.sending, null);
      const data = new FormData();
      data.append("photo", file.files[0]);
      data.append("set", upload.dataset.set);
      data.append("kind", "straighten");
      fetch(upload.dataset.jobs, { method: "POST", body: data, credentials: "same-origin", headers })
        .then((response) =>
          response.json().then((body) => {
            if (response.status === 202) poll(body.url, 0);
            else fail(body.message || upload.dataset.lost);
          })
        )
        .catch(() => fail(upload.dataset.lost));
    });
  }

  // ---- 2. the regions on the straightened card ----
  const svg = document.getElementById("layout-editor");
  if (!svg) return;
  const NS = "http://www.w3.org/2000/svg";
  const W = Number(svg.dataset.width);
  const H = Number(svg.dataset.height);
  const regions = {};
  document.querySelectorAll("fieldset.region-field").forEach((fieldset) => {
    const name = fieldset.dataset.region;
    const group = svg.querySelector(`g[data-region="${name}"]`);
    const inputs = EDGES.map((edge) => fieldset.querySelector(`input[name="${name}-${edge}"]`));
    regions[name] = { name, fieldset, group, inputs, box: null };
  });

  const handles = document.createElementNS(NS, "g");
  handles.setAttribute("class", "handles");
  handles.setAttribute("hidden", "");
  const corners = ["nw", "ne", "sw", "se"].map((corner) => {
    const handle = document.createElementNS(NS, "rect");
    handle.setAttribute("class", "handle");
    handle.dataset.corner = corner;
    handles.appendChild(handle);
    return handle;
  });
  svg.appendChild(handles);
  let active = null;

  const read = (region) => {
    const values = region.inputs.map((input) => input.value.trim());
    if (values.every((v) => v === "")) return { box: null, ok: true };
    const numbers = values.map(Number);
    if (values.some((v) => v === "") || numbers.some((n) => !Number.isFinite(n))) return { box: null, ok: false };
    const ok =
      numbers.every((n) => n >= 0 && n <= 1) && numbers[2] - numbers[0] >= 0.01 && numbers[3] - numbers[1] >= 0.01;
    return { box: numbers, ok };
  };
  const write = (region) => {
    region.inputs.forEach((input, i) => {
      input.value = region.box ? region.box[i].toFixed(4) : "";
    });
  };
  const draw = (region, ok = true) => {
    const { group, box } = region;
    group.classList.toggle("invalid", !ok);
    const buttons = region.fieldset.querySelector(".region-buttons");
    if (buttons) {
      buttons.hidden = false;
      buttons.querySelector("[data-add]").hidden = Boolean(box);
      buttons.querySelector("[data-remove]").hidden = !box;
    }
    if (!box) {
      group.setAttribute("hidden", "");
      if (active === region) activate(null);
      return;
    }
    group.removeAttribute("hidden");
    const [left, top, right, bottom] = box;
    const rect = group.querySelector("rect");
    const text = group.querySelector("text");
    rect.setAttribute("x", left * W);
    rect.setAttribute("y", top * H);
    rect.setAttribute("width", Math.max(0, (right - left) * W));
    rect.setAttribute("height", Math.max(0, (bottom - top) * H));
    text.setAttribute("x", left * W);
    text.setAttribute("y", top * H);
    if (active === region) placeHandles();
  };
  const scale = () => W / svg.getBoundingClientRect().width; // SVG units a CSS pixel
  function placeHandles() {
    if (!active || !active.box) {
      handles.setAttribute("hidden", "");
      return;
    }
    handles.removeAttribute("hidden");
    // Outside the corners, so a small region (the card number) stays free to drag by its
    // middle; kept on the card where a region touches its edge.
    const size = 20 * scale();
    const [left, top, right, bottom] = active.box;
    const at = {
      nw: [left * W - size, top * H - size],
      ne: [right * W, top * H - size],
      sw: [left * W - size, bottom * H],
      se: [right * W, bottom * H],
    };
    corners.forEach((handle) => {
      const [x, y] = at[handle.dataset.corner];
      handle.setAttribute("x", clamp(x, 0, W - size));
      handle.setAttribute("y", clamp(y, 0, H - size));
      handle.setAttribute("width", size);
      handle.setAttribute("height", size);
    });
  }
  function activate(region) {
    if (active) {
      active.group.classList.remove("active");
      active.fieldset.classList.remove("active");
    }
    active = region;
    if (region) {
      region.group.classList.add("active");
      region.fieldset.classList.add("active");
      svg.insertBefore(region.group, handles); // on top of the others, under its corners
    }
    placeHandles();
  }

  Object.values(regions).forEach((region) => {
    const { box, ok } = read(region);
    region.box = box;
    draw(region, ok);
    region.inputs.forEach((input) =>
      input.addEventListener("input", () => {
        const state = read(region);
        if (state.box) region.box = state.box;
        else if (state.ok) region.box = null;
        draw(region, state.ok);
      })
    );
    region.fieldset.addEventListener("focusin", () => activate(region.box ? region : null));
    const buttons = region.fieldset.querySelector(".region-buttons");
    if (buttons) {
      buttons.querySelector("[data-add]").addEventListener("click", () => {
        region.box = [0.35, 0.45, 0.65, 0.55];
        write(region);
        draw(region);
        activate(region);
      });
      buttons.querySelector("[data-remove]").addEventListener("click", () => {
        region.box = null;
        write(region);
        draw(region);
      });
    }
  });

  const point = (event) => {
    const rect = svg.getBoundingClientRect();
    return [(event.clientX - rect.left) / rect.width, (event.clientY - rect.top) / rect.height];
  };
  let drag = null;
  svg.addEventListener("pointerdown", (event) => {
    const corner = event.target.closest(".handle");
    const group = event.target.closest("g.region");
    if (corner && active) {
      drag = { region: active, corner: corner.dataset.corner };
    } else if (group) {
      activate(regions[group.dataset.region]);
      drag = { region: active, corner: null };
    } else {
      activate(null);
      return;
    }
    drag.start = point(event);
    drag.box = drag.region.box.slice();
    svg.setPointerCapture(event.pointerId);
    event.preventDefault();
  });
  svg.addEventListener("pointermove", (event) => {
    if (!drag) return;
    const [x, y] = point(event);
    const dx = x - drag.start[0];
    const dy = y - drag.start[1];
    let [left, top, right, bottom] = drag.box;
    if (!drag.corner) {
      const moveX = clamp(dx, -left, 1 - right);
      const moveY = clamp(dy, -top, 1 - bottom);
      left += moveX;
      right += moveX;
      top += moveY;
      bottom += moveY;
    } else {
      if (drag.corner.includes("w")) left = clamp(left + dx, 0, right - MIN);
      if (drag.corner.includes("e")) right = clamp(right + dx, left + MIN, 1);
      if (drag.corner.includes("n")) top = clamp(top + dy, 0, bottom - MIN);
      if (drag.corner.includes("s")) bottom = clamp(bottom + dy, top + MIN, 1);
    }
    drag.region.box = [left, top, right, bottom];
    write(drag.region);
    draw(drag.region);
  });
  const end = () => {
    drag = null;
  };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", end);
  window.addEventListener("resize", placeHandles);
})();
