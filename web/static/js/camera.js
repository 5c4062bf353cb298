"use strict";
/* The camera page: the annotated live view (MJPEG, or a refreshed JPEG), the cards it
   recognises, and guided enrollment of a group's own deck, bean by bean. */
(() => {
  const { el, get, request, attempt, alert } = Companion;
  const $ = (id) => document.getElementById(id);
  const CARDS_EVERY_MS = 1000;
  const FRAME_EVERY_MS = 1000;

  let camera = { state: "none", message: "" };
  let mode = "off"; // "stream", "frames" or "off"
  let frameTimer = null;
  let cardsTimer = null;
  let enrollment = null;
  let selected = null;

  /* --- live view ------------------------------------------------------------------ */

  function setMode(next) {
    const img = $("live-img");
    clearInterval(frameTimer);
    frameTimer = null;
    mode = next;
    $("live-view").dataset.mode = next;
    if (next === "stream") {
      img.onerror = () => { if (mode === "stream") setMode("frames"); };
      img.src = `/api/camera/stream?t=${Date.now()}`;
    } else if (next === "frames") {
      img.onerror = null;
      const refresh = () => { img.src = `/api/camera/frame.jpg?t=${Date.now()}`; };
      refresh();
      frameTimer = setInterval(refresh, FRAME_EVERY_MS);
    } else {
      img.onerror = null;
      img.removeAttribute("src"); // closes an open stream
    }
  }

  function wantedMode() {
    if (!["online", "blind"].includes(camera.state) || document.hidden) return "off";
    return mode === "frames" ? "frames" : "stream";
  }

  function onCamera(status) {
    camera = status || { state: "none" };
    const stateNode = $("cam-state");
    stateNode.dataset.state = camera.state;
    stateNode.textContent = camera.state === "none" ? "no camera" : camera.message || camera.state;
    $("live-off").textContent = camera.state === "none"
      ? "Live view is off: no camera is configured (start the companion with --camera). You can still teach it your deck from photos below."
      : camera.state === "online" ? ""
      : camera.state === "blind" ? `${camera.message}. The game goes on; cards can be entered by hand.`
      : `Live view is off: ${camera.message || "camera offline"}. The game goes on; cards can be entered by hand.`;
    $("live-view").dataset.blind = camera.state === "blind" ? "yes" : "no";
    $("capture-btn").hidden = camera.state === "none";
    $("capture-btn").disabled = camera.state !== "online";
    $("layout-read").hidden = camera.state === "none";
    $("layout-btn").disabled = camera.state !== "online";
    $("cards-title").hidden = camera.state === "none";
    drawReferee();
    const next = wantedMode();
    if (next !== mode) setMode(next);
    clearInterval(cardsTimer);
    cardsTimer = null;
    if (camera.state === "online") {
      loadCards();
      cardsTimer = setInterval(loadCards, CARDS_EVERY_MS);
    } else {
      drawCards([]);
    }
  }

  async function loadCards() {
    if (document.hidden) return;
    try {
      const seen = await get("/api/camera/cards");
      drawCards(seen.cards);
      drawStacks(seen.stacks || []);
    } catch (err) {
      drawCards([]);
      drawStacks([]);
    }
  }

  function drawStacks(stacks) {
    $("seen-stacks").replaceChildren(...stacks.map((stack) => el("li", { class: "seen-card" },
      Companion.beanImg(stack.bean),
      el("span", { class: "seen-name" }, `${stack.count} × ${stack.name}`),
      el("span", { class: "muted" }, stack.zone || "outside every zone"))));
  }

  function drawReferee() {
    $("referee").hidden = camera.state === "none";
    $("auto-accept").checked = Boolean(camera.auto_accept);
    const last = camera.last_seen;
    $("last-seen").textContent = !last ? "Nothing seen to referee yet."
      : last.note ? last.note
      : last.agrees ? "The table agrees with the game again."
      : `Last seen: ${last.events.length} event(s) ${last.pushed ? "pushed" : "proposed on the table page"}.`;
  }

  /* --- zones drawn on a still frame ----------------------------------------------------- */

  const ZONES = [...[0, 1, 2, 3, 4, 5].map((seat) => ({ name: `fields-${seat}`, kind: "fields", seat,
    label: `Player ${seat + 1}'s fields` })), { name: "face-up", kind: "face_up", seat: null, label: "Face-up area" },
  { name: "discard", kind: "discard", seat: null, label: "Discard pile" }];
  const drawn = new Map();  // zone name -> corners in frame pixels
  const unsaved = new Set();  // zones drawn here since the last save: a load of the saved ones keeps them
  let corners = [];

  $("zone-pick").replaceChildren(...ZONES.map((z) => el("option", { value: z.name }, z.label)));

  async function loadZones() {
    const saved = await attempt(get("/api/camera/zones"));
    for (const name of [...drawn.keys()]) if (!unsaved.has(name)) drawn.delete(name);
    for (const zone of (saved && saved.zones) || []) if (!unsaved.has(zone.name)) drawn.set(zone.name, zone.polygon);
    drawZones();
  }

  function drawZones() {
    const img = $("zone-img");
    const svg = $("zone-svg");
    svg.setAttribute("viewBox", `0 0 ${img.naturalWidth || 1} ${img.naturalHeight || 1}`);
    const shapes = [...drawn].map(([name, poly]) => [name, poly]).concat(corners.length ? [["", corners]] : []);
    svg.replaceChildren(...shapes.map(([name, poly]) => {
      const shape = document.createElementNS("http://www.w3.org/2000/svg", "polygon");
      shape.setAttribute("points", poly.map(([x, y]) => `${x},${y}`).join(" "));
      shape.setAttribute("class", name ? "zone-shape" : "zone-shape drawing");
      return shape;
    }));
    $("zone-list").textContent = drawn.size ? `Drawn: ${[...drawn.keys()].join(", ")}` : "No zones drawn.";
  }

  $("zone-start").addEventListener("click", () => {
    const img = $("zone-img");
    img.onload = () => { $("zone-board").hidden = false; drawZones(); };
    img.src = `/api/camera/frame.jpg?still=${Date.now()}`;
    corners = [];
  });

  $("zone-img").addEventListener("click", (event) => {
    const img = event.target;
    const box = img.getBoundingClientRect();
    const scale = img.naturalWidth / box.width;
    corners.push([Math.round((event.clientX - box.left) * scale), Math.round((event.clientY - box.top) * scale)]);
    if (corners.length === 4) {
      drawn.set($("zone-pick").value, corners);
      unsaved.add($("zone-pick").value);
      corners = [];
      $("zone-save").disabled = false;
    }
    drawZones();
  });

  $("zone-save").addEventListener("click", async () => {
    const zones = ZONES.filter((z) => drawn.has(z.name)).map((z) => ({ name: z.name, kind: z.kind, seat: z.seat,
      facing: null, polygon: drawn.get(z.name) }));
    if (await attempt(request("PUT", "/api/camera/zones", { zones }))) {
      unsaved.clear();
      $("zone-save").disabled = true;
      alert("Zones saved: each field the camera sees is now given to its player.", { kind: "info" });
    }
  });

  $("zone-forget").addEventListener("click", async () => {
    if (confirm("Forget the drawn zones? Printed markers still give theirs.") &&
        await attempt(request("DELETE", "/api/camera/zones"))) {
      unsaved.clear();
      await loadZones();
    }
  });

  $("auto-accept").addEventListener("change", async (event) => {
    const data = await attempt(request("PUT", "/api/camera/auto-accept", { on: event.target.checked }));
    if (!data) event.target.checked = !event.target.checked;
  });

  function drawCards(cards) {
    $("card-count").textContent = camera.state === "online" ? `(${cards.length})` : "";
    const list = $("seen-cards");
    list.replaceChildren(...cards.map((card) => el("li", { class: "seen-card", dataset: { label: card.label } },
      card.label === "unknown" ? el("span", { class: "bean-img unknown-img" }, "?") : Companion.beanImg(card.label),
      el("span", { class: "seen-name" }, card.name),
      card.label === "unknown" ? null : el("span", { class: "muted" }, `${Math.round(card.confidence * 100)} %`))));
    if (!cards.length && camera.state === "online") list.append(el("li", { class: "muted" }, "no card in view"));
  }

  document.addEventListener("visibilitychange", () => {
    const next = wantedMode();
    if (next !== mode) setMode(next);
  });

  /* --- enrollment --------------------------------------------------------------------- */

  const beanPath = (id) => `/api/camera/enrollment/${encodeURIComponent(id)}`;

  async function loadEnrollment() {
    const data = await attempt(get("/api/camera/enrollment"));
    if (data) drawEnrollment(data);
  }

  function drawEnrollment(data) {
    enrollment = data;
    $("wanted").textContent = data.wanted;
    const percent = Math.round(data.progress * 100);
    $("enroll-bar").style.width = `${percent}%`;
    $("enroll-progress").setAttribute("aria-valuenow", String(percent));
    const done = data.beans.filter((b) => b.photos >= b.wanted).length;
    $("enroll-text").textContent = `${done} of ${data.beans.length} beans done`;
    $("bean-steps").replaceChildren(...data.beans.map((bean) => el("button", {
      type: "button", role: "listitem", class: "bean-tile",
      dataset: { bean: bean.id, done: bean.photos >= bean.wanted ? "yes" : bean.photos ? "some" : "no" },
      "aria-pressed": bean.id === selected ? "true" : "false",
      onclick: () => select(bean.id),
    }, Companion.beanImg(bean.id), el("span", { class: "tile-name" }, bean.name),
    el("span", { class: "tile-count" }, `${bean.photos}/${bean.wanted}`))));
    drawStep();
    drawDeck();
  }

  function select(id, scroll = true) {
    selected = id;
    drawEnrollment(enrollment);
    if (scroll) $("bean-step").scrollIntoView({ behavior: "smooth", block: "nearest" });
  }

  function drawStep() {
    const bean = enrollment.beans.find((b) => b.id === selected);
    $("bean-step").hidden = !bean;
    if (!bean) return;
    $("step-img").src = `/static/beans/${bean.id}.svg`;
    $("step-name").textContent = bean.name;
    $("step-count").textContent = `${bean.photos} of ${bean.wanted} photos`
      + (bean.photos >= bean.wanted ? " — done (more photos still help)" : "");
    $("clear-bean").hidden = bean.photos === 0;
    $("thumbs").replaceChildren(...bean.photo_ids.map((photo) => el("figure", { class: "thumb" },
      el("img", { src: `${beanPath(bean.id)}/photos/${photo}.png?v=${photo}`, alt: `photo ${photo} of ${bean.name}` }),
      el("button", {
        type: "button", class: "thumb-delete", "aria-label": `delete photo ${photo}`,
        onclick: () => change("DELETE", `${beanPath(bean.id)}/photos/${photo}`),
      }, "×"))));
    $("learnt-cards").hidden = bean.learnt_ids.length === 0;
    $("learnt-thumbs").replaceChildren(...bean.learnt_ids.map((card) => learntThumb(bean, card)));
  }

  /* One learnt card, forgotten with ×; one the camera took for another bean says so, and is kept with a tap. */
  function learntThumb(bean, card) {
    const takenFor = bean.learnt_doubts[card];
    const path = `${beanPath(bean.id)}/learnt/${card}`;
    return el("figure", { class: "thumb", dataset: { doubt: takenFor ? "yes" : "no" } },
      el("span", { class: "thumb-pic" },
        el("img", { src: `${path}.png?v=${card}`, alt: `card ${card} learnt in play as ${bean.name}` }),
        el("button", {
          type: "button", class: "thumb-delete", "aria-label": `forget learnt card ${card}`,
          onclick: () => change("DELETE", path),
        }, "×")),
      ...(takenFor ? [el("figcaption", {}, `Looks like ${nameOf(takenFor)}`),
        el("button", { type: "button", class: "secondary thumb-vouch", onclick: () => change("POST", `${path}/vouch`) },
          `It is ${bean.name}`)] : []));
  }

  const nameOf = (id) => (enrollment.beans.find((b) => b.id === id) || { name: id }).name;

  function drawDeck() {
    const profile = enrollment.profile;
    const lines = [];
    if (profile) {
      lines.push(el("p", {}, `The camera names the cards of your deck (${profile.beans} kinds of card from ${profile.photos} photos).`));
      if (profile.missing.length) lines.push(el("p", { class: "muted" }, `Never named: ${profile.missing.map(nameOf).join(", ")}.`));
      if (profile.outdated) lines.push(el("p", { class: "warn" }, "Photos changed since the deck was built: build it again."));
      const learnt = Object.keys(profile.learnt_counts).map(nameOf).join(", ");
      lines.push(el("p", { class: "muted", id: "learnt-state" }, profile.learnt
        ? `Learnt in play: ${profile.learnt} cards (${learnt}), the top cards of fields whose bean the game knows.`
        : "While you play, the camera learns your cards from the top card of each field whose bean the game knows."));
      const doubts = Object.entries(profile.learnt_doubts);
      if (doubts.length) {
        const count = doubts.reduce((sum, [, n]) => sum + n, 0);
        lines.push(el("p", { class: "warn", id: "learnt-doubts" }, `${count} learnt ${count === 1 ? "card looks" : "cards look"} `
          + `like another bean (under ${doubts.map(([id]) => nameOf(id)).join(", ")}): was the field entered right? `
          + "Forget a card that is not its bean."));
      }
    } else {
      lines.push(el("p", {}, "The camera names the cards of the house deck."));
    }
    if (enrollment.profile_problem) lines.push(el("p", { class: "warn" }, enrollment.profile_problem));
    if (enrollment.problem) lines.push(el("p", { class: "muted" }, enrollment.problem));
    $("deck-state").replaceChildren(...lines);
    $("build-deck").disabled = Boolean(enrollment.problem);
    $("forget-deck").hidden = !profile;
    $("forget-learnt").hidden = !(profile && profile.learnt);
  }

  async function change(method, path, body) {
    const data = await attempt(request(method, path, body));
    if (data) await loadEnrollment();
    return data;
  }

  $("photo-input").addEventListener("change", async (event) => {
    const files = [...event.target.files];
    event.target.value = "";
    if (!files.length || !selected) return;
    const bean = selected;
    for (const file of files) { // one request per photo: phone photos are large
      const form = new FormData();
      form.append("photo", file, file.name);
      const data = await change("POST", `${beanPath(bean)}/photos`, form);
      if (data && data.added.some((a) => !a.outline_found)) {
        alert(`${file.name}: no card outline found, the middle of the photo was kept. Check it, or take it again with some table around the card.`, { kind: "info" });
      } else if (data && data.added.some((a) => a.crop_in_doubt)) {
        alert(`${file.name}: the card's crop is in doubt (the card runs off the photo, or cloth in the crop). Check it, or take it again, flat and whole, with some table around the card.`, { kind: "info" });
      }
    }
  });

  $("capture-btn").addEventListener("click", () => selected && change("POST", `${beanPath(selected)}/capture`));

  $("next-bean").addEventListener("click", () => {
    const beans = enrollment.beans;
    const start = beans.findIndex((b) => b.id === selected);
    const order = [...beans.slice(start + 1), ...beans.slice(0, start + 1)];
    const next = order.find((b) => b.photos < b.wanted) || order[0];
    select(next.id);
  });

  $("clear-bean").addEventListener("click", () => {
    const bean = enrollment.beans.find((b) => b.id === selected);
    if (bean && confirm(`Delete all ${bean.photos} photos of ${bean.name}?`)) change("DELETE", `${beanPath(bean.id)}/photos`);
  });

  $("build-deck").addEventListener("click", async () => {
    $("build-deck").disabled = true;
    const data = await change("POST", "/api/camera/deck");
    if (data) alert(`Deck built from ${data.profile.photos} photos: the camera now names your cards.`, { kind: "info" });
    else drawDeck();
  });

  $("forget-deck").addEventListener("click", () => change("DELETE", "/api/camera/deck"));

  $("forget-learnt").addEventListener("click", () => {
    if (confirm("Forget the cards the camera learnt in play? Your photos stay.")) change("DELETE", "/api/camera/deck/learnt");
  });

  /* --- the whole deck laid out under the camera, read from one frame --------------------- */

  const LAYOUT_PATH = "/api/camera/enrollment/layout";
  let layout = null; // the laid-out deck waiting to be kept, as the server read it
  let layoutSeen = 0; // counts the layouts shown, so that a slow load does not undo a newer reading

  function showLayout(next) {
    layout = next;
    layoutSeen += 1;
    drawLayout();
  }

  async function loadLayout() {
    const seen = layoutSeen;
    let waiting = null;
    try {
      waiting = await get(LAYOUT_PATH);
    } catch (err) {
      waiting = null; // none waiting (404), or no camera
    }
    if (seen === layoutSeen) showLayout(waiting);
  }

  function drawLayout() {
    const cards = layout ? layout.cards : [];
    $("layout-tiles").replaceChildren(...cards.map(layoutTile));
    $("layout-actions").hidden = !cards.length;
    checkPicks();
  }

  function layoutTile(card) {
    const beans = enrollment ? enrollment.beans : [];
    const guess = card.label === "unknown" ? "not recognised" : `${card.name} ${Math.round(card.confidence * 100)} %`;
    const picker = el("select", {
      class: "layout-pick", dataset: { index: card.index }, "aria-label": `Bean of card ${card.index}`,
      onchange: checkPicks,
    }, el("option", { value: "" }, "skip"),
    ...beans.map((bean) => el("option", { value: bean.id, selected: bean.id === card.label }, bean.name)));
    return el("figure", { class: "layout-tile", role: "listitem", dataset: { index: card.index, flagged: card.flags.length ? "yes" : "no" } },
      el("img", { src: card.crop, alt: `card ${card.index} as the camera sees it` }),
      el("figcaption", {},
        el("b", {}, `Card ${card.index}`),
        el("span", { class: "muted" }, `camera: ${guess}`),
        picker,
        el("ul", { class: "layout-flags" }, ...card.flags.map((flag) => el("li", {}, flag)))));
  }

  /* Each card's bean as picked (null: skip), by card index. */
  const picks = () => [...document.querySelectorAll("#layout-tiles .layout-pick")]
    .map((select) => [select.dataset.index, select.value || null]);

  /* One card of each bean: the same bean picked twice is named, and nothing is kept until it is resolved. */
  function checkPicks() {
    const taken = new Map();
    let problem = "";
    for (const [index, bean] of picks()) {
      if (!bean) continue;
      if (taken.has(bean) && !problem) {
        problem = `${nameOf(bean)} is picked for cards ${taken.get(bean)} and ${index}: pick another bean for one of them, or skip it.`;
      }
      taken.set(bean, index);
    }
    $("layout-problem").textContent = problem;
    $("layout-keep").disabled = Boolean(problem) || taken.size === 0;
  }

  $("layout-btn").addEventListener("click", async () => {
    $("layout-btn").disabled = true;
    const data = await attempt(request("POST", LAYOUT_PATH));
    $("layout-btn").disabled = camera.state !== "online";
    if (!data) return;
    if (!enrollment) await loadEnrollment(); // the pickers list its beans
    showLayout(data);
    $("layout-tiles").scrollIntoView({ behavior: "smooth", block: "nearest" });
  });

  $("layout-keep").addEventListener("click", async () => {
    $("layout-keep").disabled = true;
    const beans = Object.fromEntries(picks());
    const data = await attempt(request("POST", `${LAYOUT_PATH}/confirm`, { beans, layout: layout.layout }));
    if (!data) {
      await loadLayout(); // read again or kept elsewhere meanwhile: show what waits now
      return;
    }
    showLayout(null);
    drawEnrollment(data);
    const kept = data.added.map((a) => nameOf(a.bean)).join(", ");
    alert(`Kept ${data.added.length} photo(s): ${kept}.`, { kind: "info" });
  });

  document.addEventListener("DOMContentLoaded", async () => {
    const stream = Companion.live(null, { hardware: (status) => onCamera(status.camera) });
    const status = await stream.unlessStreamed(attempt(get("/api/camera")));
    if (status) onCamera(status);
    if (camera.state !== "none") await loadZones();
    await loadEnrollment();
    if (camera.state !== "none") await loadLayout();
    if (enrollment && !selected) select((enrollment.beans.find((b) => b.photos < b.wanted) || enrollment.beans[0]).id, false);
  });
})();
