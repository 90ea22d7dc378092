// The photo to collection page (decks/collection/photo.html, issue #25, 3.). The photo goes to
// the reading jobs' JSON door (POST /reading/jobs/, kind "recognise"); the page polls the job
// for its progress, then puts the matches (a server-rendered fragment) under the form, with
// the user's own crop of each card beside the approved scans. Each Add (or Add all) answers
// JSON; a card added is greyed out so Add all does not add it twice. Every sentence comes from
// the template (data-*), so it is translated with the page. Without this script the form
// posts to the page itself and the job page refreshes until the reading is done.
(function () {
  "use strict";
  const form = document.getElementById("photo-form");
  if (!form) return;
  const results = document.getElementById("photo-results");
  const fileInput = document.getElementById("photo-file");
  const send = document.getElementById("photo-send");
  const error = document.getElementById("photo-error");
  const progress = document.getElementById("photo-progress");
  const bar = document.getElementById("photo-progress-bar");
  const said = document.getElementById("photo-progress-said");
  const preview = document.getElementById("photo-preview");
  const fileName = document.getElementById("photo-file-name");
  const csrf = () => form.querySelector("input[name=csrfmiddlewaretoken]").value;
  const POLL_MS = 1000;
  const POLL_MOST = 240; // four minutes: past the reading's own time bound, which ends it failed

  let photoURL = null; // the chosen photo as a data: URL (the page's CSP allows data: images)

  function showError(message) {
    error.textContent = message;
    error.hidden = !message;
  }

  function setBusy(busy) {
    send.disabled = busy;
    send.setAttribute("aria-busy", busy ? "true" : "false");
  }

  function setProgress(percent, text) {
    progress.hidden = false;
    bar.value = percent;
    said.textContent = text + (percent ? " " + percent + "%" : "");
  }

  fileInput.addEventListener("change", () => {
    const file = fileInput.files[0];
    fileName.textContent = file ? file.name : "";
    photoURL = null;
    preview.hidden = true;
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => {
      photoURL = reader.result;
      preview.src = photoURL;
      preview.hidden = false;
    };
    reader.readAsDataURL(file);
  });

  function errorOf(body, fallback) {
    if (body && body.errors && body.errors.length) {
      return body.errors.map((e) => e.message).join(" ");
    }
    return (body && body.message) || fallback;
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    showError("");
    if (!fileInput.files[0]) {
      showError(form.dataset.noPhoto);
      return;
    }
    results.textContent = "";
    setBusy(true);
    setProgress(0, form.dataset.sending);
    fetch(form.dataset.jobsUrl, {
      method: "POST",
      body: new FormData(form),
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": csrf() },
    })
      .then((response) => response.json().then((body) => ({ ok: response.ok, body })))
      .then(({ ok, body }) => {
        if (!ok) throw new Error(errorOf(body, form.dataset.network));
        poll(body, 0);
      })
      .catch((exc) => fail(exc.message || form.dataset.network));
  });

  function fail(message) {
    progress.hidden = true;
    setBusy(false);
    showError(message);
  }

  function poll(state, tries) {
    if (state.status === "done") {
      setProgress(100, form.dataset.done);
      showMatches(state.token);
      return;
    }
    if (state.status === "failed") {
      fail(state.message);
      return;
    }
    if (tries >= POLL_MOST) {
      fail(form.dataset.tooLong);
      return;
    }
    setProgress(state.progress || 0, state.status === "pending" ? form.dataset.waiting : form.dataset.reading);
    window.setTimeout(() => {
      fetch(state.url, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then((response) => (response.ok ? response.json() : Promise.reject(new Error())))
        .then((next) => poll(Object.assign({ url: state.url }, next), tries + 1))
        .catch(() => poll(state, tries + 1)); // a blip: ask again
    }, POLL_MS);
  }

  function showMatches(token) {
    fetch(form.dataset.matchesUrl.replace("TOKEN", token), { credentials: "same-origin" })
      .then((response) => (response.ok ? response.text() : Promise.reject(new Error())))
      .then((html) => {
        results.innerHTML = html;
        setBusy(false);
        progress.hidden = true;
        drawCrops();
        wireChoices();
        const first = results.querySelector("h2");
        if (first) first.scrollIntoView({ block: "start" });
      })
      .catch(() => fail(form.dataset.network));
  }

  // Each card's crop of the user's own photo, from the box the reader found it in.
  function drawCrops() {
    if (!photoURL) return;
    const picture = new Image();
    picture.onload = () => {
      results.querySelectorAll("img.photo-crop[data-box]").forEach((img) => {
        const [x, y, w, h] = img.dataset.box.split(" ").map(Number);
        const sw = Math.max(1, Math.round(w * picture.naturalWidth));
        const sh = Math.max(1, Math.round(h * picture.naturalHeight));
        const scale = Math.min(1, 240 / Math.max(sw, sh));
        const canvas = document.createElement("canvas");
        canvas.width = Math.round(sw * scale);
        canvas.height = Math.round(sh * scale);
        canvas
          .getContext("2d")
          .drawImage(picture, Math.round(x * picture.naturalWidth), Math.round(y * picture.naturalHeight), sw, sh, 0, 0, canvas.width, canvas.height);
        img.src = canvas.toDataURL("image/jpeg", 0.8);
        img.hidden = false;
      });
    };
    picture.src = photoURL;
  }

  // A printing belongs to one card: offer only the chosen card's later printings.
  function showPrintings(card) {
    const chosen = card.querySelector("input[type=radio]:checked");
    const select = card.querySelector("select[data-printings]");
    if (!select) return;
    select.querySelectorAll("option[data-card]").forEach((option) => {
      const mine = chosen && option.dataset.card === chosen.value;
      option.hidden = !mine;
      option.disabled = !mine;
      if (!mine && option.selected) select.value = "";
    });
  }

  function wireChoices() {
    results.querySelectorAll("fieldset.photo-card").forEach((card) => {
      showPrintings(card);
      card.addEventListener("change", (event) => {
        if (event.target.type === "radio") showPrintings(card);
      });
    });
  }

  // Adding: one card (its place) or every card not yet added; JSON answers, whole or nothing.
  results.addEventListener("submit", (event) => {
    const addForm = event.target.closest("#photo-add-form");
    if (!addForm) return;
    event.preventDefault();
    const button = event.submitter;
    const status = document.getElementById("photo-add-status");
    const data = new FormData(addForm, button);
    button.disabled = true;
    fetch(addForm.action, {
      method: "POST",
      body: data,
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": csrf() },
    })
      .then((response) => response.json().then((body) => ({ ok: response.ok, body })))
      .then(({ ok, body }) => {
        button.disabled = false;
        if (!ok) {
          status.className = "photo-add-status message error";
          status.textContent = [body.message].concat((body.errors || []).map((e) => e.message)).join(" ");
          return;
        }
        status.className = "photo-add-status message success";
        status.textContent = body.message;
        (body.added || []).forEach((place) => {
          const card = addForm.querySelector('fieldset.photo-card[data-place="' + place + '"]');
          if (!card) return;
          card.classList.add("added");
          card.disabled = true; // its fields are no longer sent: Add all skips it
          const add = card.querySelector("button.photo-add");
          if (add) add.textContent = add.dataset.added || "✓";
        });
        const left = addForm.querySelectorAll("fieldset.photo-card:not(.added)").length;
        const all = document.getElementById("photo-add-all");
        if (all && !left) all.disabled = true;
      })
      .catch(() => {
        button.disabled = false;
        status.className = "photo-add-status message error";
        status.textContent = form.dataset.network;
      });
  });

  // The job page without the script refreshes itself; with it, the matches are drawn here.
  if (results.querySelector("#photo-add-form")) wireChoices();
})();
