"use strict";
/* The dice game screen: draws the state from the API and the live stream, and turns taps
   into events posted to /api/games/<id>/moves (refusals are shown with their rule). */
(() => {
  const C = window.Companion;
  const el = C.el;
  const gameId = Number(document.body.dataset.gameId);
  const $ = (id) => document.getElementById(id);
  const ORDERS = 5;

  let snap = null;            // the latest snapshot drawn
  let selected = new Set();   // dice chosen to save
  let manual = [];            // manual roll entry: the bean chosen per die (null: not chosen)
  let diceState = null;       // the electronic dice' state: "none", "offline", "online", "error"
  let lastRollSeq;            // the last electronic roll reported (undefined: no status seen yet)
  let catalogue = null;       // {group, sample} from /api/dice/catalogue
  let busy = false;

  /* ------------------------------------------------------------ talking to the server */

  /* Send one change (``call`` makes the request) unless one is under way; draw the answer. */
  async function act(call) {
    if (busy) return null;
    busy = true;
    document.body.classList.add("busy");
    try {
      const data = await C.attempt(call());
      if (data && data.state) draw(data);
      return data;
    } finally {
      busy = false;
      document.body.classList.remove("busy");
    }
  }

  const move = (event) => act(() => C.post(`/api/games/${gameId}/moves`, event));

  /* ------------------------------------------------------------ drawing */

  function draw(snapshot) {
    /* The answer to a move and its live echo carry the same revision: draw it once. A (re)connect
       always draws, since revisions start again when the server does. */
    const reconnect = snapshot.change && snapshot.change.kind === "connect";
    const same = snap && snapshot.revision === snap.revision && snapshot.events === snap.events;
    if (snap && (same || (!reconnect && snapshot.revision <= snap.revision))) return;
    const fresh = !snap || snapshot.revision !== snap.revision;
    snap = snapshot;
    const s = snapshot.state;
    if (fresh) {
      selected = new Set();
      manual = s.dice.map(() => null);
    }
    drawStatus(s);
    drawDraw(s);
    drawDice(s);
    drawRoll(s);
    drawCompletions(s);
    drawPlayers(s);
    $("undo-button").disabled = snapshot.events === 0;
  }

  function name(s, seat) { return s.players[seat].name; }

  function drawStatus(s) {
    const active = name(s, s.active_player);
    $("turn").textContent = s.game_over ? "Game over" : `${active}'s turn`;
    let phase;
    if (s.game_over) phase = "The game is over.";
    else if (s.pending_draw !== null) phase = `${name(s, s.pending_draw)} draws a harvest card.`;
    else if (s.phase === "roll") phase = `${active} rolls ${s.to_roll.length} ${s.to_roll.length === 1 ? "die" : "dice"}.`;
    else if (s.phase === "save") phase = `Everyone checks the roll; ${active} saves at least one die.`;
    else phase = `All dice are in the bean field: ${active} ends the turn.`;
    $("phase").textContent = phase;
    $("phase").dataset.phase = s.pending_draw !== null && !s.game_over ? "draw" : s.phase;
    $("deck-left").textContent = s.harvest_deck_left;
    $("aid-left").textContent = s.aid_cards_left;
    $("bean-piece-state").textContent = s.bean_piece_used ? "used" : "ready";
    $("target").textContent = s.target_dollars;
    $("final-phase").hidden = !s.final_phase || s.game_over;
    const winners = $("winners");
    winners.hidden = !s.game_over;
    if (s.game_over) {
      const best = s.winners.length ? s.scores[s.winners[0]] : 0;
      winners.textContent = s.winners.length > 1
        ? `Shared victory: ${s.winners.join(", ")} with ${best} $`
        : `Winner: ${s.winners[0]} with ${best} $`;
    }
  }

  function drawDraw(s) {
    const due = s.pending_draw !== null && !s.game_over;
    $("draw-panel").hidden = !due;
    if (!due) return;
    const player = s.players[s.pending_draw];
    const place = player.top_card === null ? "top" : "bottom";
    $("draw-title").textContent = `${player.name} draws a harvest card (${place} place)`;
    $("deal-part").hidden = s.deck !== "known";
    $("pick-part").hidden = s.deck === "known";
    if (s.deck !== "known") {
      if (!$("new-card-orders").childElementCount) buildNewCardForm();
      if (catalogue === null) loadCatalogue();
      else drawCatalogue();
    }
  }

  function dieTile(s, index, { selectable }) {
    const die = s.dice[index];
    const chosen = selected.has(index);
    const tile = el("button", {
      type: "button", class: `die die-${die.kind}${die.saved ? " saved" : ""}${chosen ? " chosen" : ""}`,
      "aria-pressed": selectable ? String(chosen) : null, disabled: !selectable,
      "aria-label": `die ${index + 1} (${die.kind}): ${die.bean || "not rolled"}${die.saved ? ", saved" : ""}`,
      dataset: { die: index, bean: die.bean || "" },
      onclick: () => {
        if (selected.has(index)) selected.delete(index); else selected.add(index);
        drawDice(snap.state);
      },
    },
    die.bean ? C.beanImg(die.bean, "die-bean") : el("span", { class: "die-blank" }, "?"),
    el("span", { class: "die-label" }, die.bean || `die ${index + 1}`));
    return tile;
  }

  function drawDice(s) {
    const saving = s.phase === "save" && s.pending_draw === null && !s.game_over;
    const rolled = $("rolled");
    const field = $("bean-field");
    rolled.replaceChildren();
    field.replaceChildren();
    s.dice.forEach((die, index) => {
      if (die.saved) field.append(dieTile(s, index, { selectable: false }));
      else rolled.append(dieTile(s, index, { selectable: saving && die.bean !== null }));
    });
    if (!field.childElementCount) field.append(el("p", { class: "muted empty" }, "empty"));
    $("roll-count").textContent = s.last_roll ? "" : "(not rolled yet this turn)";
    const save = $("save-button");
    save.disabled = !saving || selected.size === 0;
    save.textContent = selected.size ? `Save ${selected.size} ${selected.size === 1 ? "die" : "dice"}` : "Save (tap dice first)";
    $("bean-piece-button").disabled = !saving || s.bean_piece_used;
    $("end-turn-button").disabled = s.phase !== "turn-end" || s.pending_draw !== null || s.game_over;
  }

  function drawRoll(s) {
    const due = s.phase === "roll" && s.pending_draw === null && !s.game_over;
    $("roll-panel").hidden = !due;
    if (!due) return;
    const box = $("manual-dice");
    box.replaceChildren();
    for (const index of s.to_roll) {
      const die = s.dice[index];
      const faces = [...new Set(die.faces)];
      box.append(el("div", { class: "manual-die", dataset: { die: index } },
        el("span", { class: "manual-die-name" }, `Die ${index + 1} (${die.kind})`),
        el("div", { class: "faces" }, faces.map((bean) => el("button", {
          type: "button", class: `face${manual[index] === bean ? " chosen" : ""}`,
          "aria-pressed": String(manual[index] === bean), "aria-label": `die ${index + 1}: ${bean}`,
          dataset: { bean },
          onclick: () => { manual[index] = bean; drawRoll(snap.state); },
        }, C.beanImg(bean, "face-bean"), el("span", {}, bean))))));
    }
    $("manual-submit").disabled = s.to_roll.some((i) => manual[i] === null);
  }

  function drawCompletions(s) {
    const box = $("completions");
    const done = s.last_completions;
    box.hidden = !done.length && !s.last_roll;
    const lines = done.map((c) => el("li", {}, `${c.name} completed order ${c.index + 1}: `, el("code", {}, c.order)));
    const roll = s.last_roll
      ? el("p", { class: "last-roll" }, "Last roll: ", s.last_roll.map((b) => (b ? C.beanImg(b, "mini-bean") : null)),
        s.last_roll.filter(Boolean).join(", "))
      : null;
    box.replaceChildren(roll, done.length ? el("ul", { id: "completion-list" }, lines) : el("p", { class: "muted" }, "No order completed by the last move."));
  }

  function orderText(text) {
    /* The order with a small picture before each bean word. */
    const parts = text.split(/([a-z-]+)/);
    return parts.flatMap((part) => (/^[a-z-]+$/.test(part) && part !== "or" && part !== "x"
      ? [C.beanImg(part, "mini-bean"), part] : [part]));
  }

  function drawPlayers(s) {
    const box = $("players");
    box.replaceChildren(...s.players.map((p) => {
      const card = p.top_card;
      const orders = card ? card.orders.map((o, i) => el("li", {
        class: `order${o.completed ? " done" : ""}`, dataset: { index: i },
      },
      el("span", { class: "tick", "aria-label": o.completed ? "completed" : "open" }, o.completed ? "✓" : ""),
      el("span", { class: "order-text" }, orderText(o.order)),
      el("span", { class: "odds", title: `exact odds ${o.fraction}` }, `${o.percent.toFixed(1)} %`))) : [];
      const harvest = el("button", {
        type: "button", class: "harvest big", disabled: !p.can_harvest,
        onclick: () => move({ type: "harvest", player: p.seat }),
      }, p.completed >= 3 ? `Harvest ${p.completed - 2} $` : "Harvest (3+ orders)");
      const exchange = p.can_exchange ? el("button", {
        type: "button", class: "exchange secondary", onclick: () => move({ type: "exchange", player: p.seat }),
      }, "Exchange 5 $ for an aid card") : null;
      return el("article", {
        class: `panel player${p.seat === s.active_player && !s.game_over ? " active" : ""}${s.winners.includes(p.name) ? " winner" : ""}`,
        dataset: { seat: p.seat },
      },
      el("header", { class: "player-head" },
        el("h2", {}, p.name, p.seat === s.active_player && !s.game_over ? el("span", { class: "badge" }, "rolling") : null),
        el("span", { class: "dollars" }, `${p.dollars} $`, p.aid_cards ? el("small", {}, ` (${p.aid_cards} aid)`) : null)),
      card ? el("p", { class: "muted card-id" }, `card ${card.id || "?"} · ${p.completed}/5 done${p.bottom_card ? "" : " · no bottom card"}`)
        : el("p", { class: "muted" }, "no harvest card yet"),
      el("ol", { class: "orders", reversed: true }, orders.reverse()),
      el("div", { class: "row" }, harvest, exchange));
    }));
  }

  /* ------------------------------------------------------------ harvest-card draws */

  async function loadCatalogue() {
    catalogue = await C.attempt(C.get("/api/dice/catalogue"));
    if (catalogue) drawCatalogue();
  }

  function drawCatalogue() {
    const query = $("card-search").value.trim().toLowerCase();
    const cards = [
      ...catalogue.group.cards.map((c) => ({ ...c, from: "group" })),
      ...catalogue.sample.cards.map((c) => ({ ...c, from: "sample" })),
    ].filter((c) => !query || c.id.toLowerCase().includes(query) || c.orders.some((o) => o.includes(query)));
    const list = $("card-list");
    const holders = inPlay(snap.state);
    list.replaceChildren(...cards.slice(0, 60).map((card) => el("button", {
      type: "button", class: `card-pick${card.from === "sample" ? " sample" : ""}${holders[card.id] ? " in-play" : ""}`,
      dataset: { card: card.id }, disabled: !!holders[card.id],
      onclick: () => drawCard({ id: card.id, orders: card.orders, printed: card.printed }),
    },
    el("b", {}, card.from === "sample" ? `${card.id} (SAMPLE)` : card.id,
      holders[card.id] ? el("span", { class: "in-play-note" }, ` · in play: ${holders[card.id]}`) : null),
    el("ol", { class: "pick-orders", reversed: true }, [...card.orders].reverse().map((o) => el("li", {}, o))))));
    if (!cards.length) list.append(el("p", { class: "muted" }, catalogue.group.cards.length ? "no card matches" : "The group's catalogue is empty: type the card in."));
  }

  /* The harvest cards on the table (top and bottom of each player), by label: whose they are. */
  function inPlay(s) {
    const holders = {};
    for (const p of s.players) {
      if (p.top_card && p.top_card.id) holders[p.top_card.id] = p.name;
      if (p.bottom_card) holders[p.bottom_card] = p.name;
    }
    return holders;
  }

  function drawCard(card) {
    return move({ type: "draw", player: snap.state.pending_draw, card });
  }

  function buildNewCardForm() {
    const box = $("new-card-orders");
    for (let i = 0; i < ORDERS; i += 1) {
      const order = el("input", { id: `order-${i}`, class: "order-input", required: true, placeholder: i === 0 ? "e.g. 2x green or 2x soy" : "", "aria-label": `Order ${i + 1}` });
      const printed = el("input", { id: `printed-${i}`, class: "printed-input", inputmode: "decimal", placeholder: "%", "aria-label": `Printed percentage of order ${i + 1}` });
      const note = el("span", { id: `odds-${i}`, class: "order-odds muted" });
      const check = debounce(() => checkOrder(i), 300);
      order.addEventListener("input", check);
      printed.addEventListener("input", check);
      order.addEventListener("focus", () => { typingOrder = i; markTypingOrder(); });
      box.append(el("div", { class: "order-entry", dataset: { order: i } },
        el("label", { for: `order-${i}` }, `${i + 1}${i === 0 ? " (bottom)" : i === ORDERS - 1 ? " (top)" : ""}`), order, printed, note));
    }
    box.append(beanKeys());
    markTypingOrder();
    $("new-card-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const orders = [...Array(ORDERS).keys()].map((i) => $(`order-${i}`).value.trim());
      const printed = [...Array(ORDERS).keys()].map((i) => $(`printed-${i}`).value.trim() || null);
      const added = await C.attempt(C.post("/api/dice/catalogue", { id: $("new-card-id").value.trim(), orders, printed }));
      if (!added) return;
      loadCatalogue();
      const done = await drawCard({ id: added.card.id, orders: added.card.orders, printed: added.card.printed || null });
      if (done) {
        $("new-card-form").reset();
        for (let i = 0; i < ORDERS; i += 1) $(`odds-${i}`).textContent = "";
      }
    });
    $("card-search").addEventListener("input", () => catalogue && drawCatalogue());
  }

  /* Enter an order by tapping beans: each tap adds a die showing that bean ("+"), "or" starts another way
     to meet it; the order being entered is the one last tapped into (the bottom one first). */
  let typingOrder = 0;
  function beanKeys() {
    const beans = [...new Set(snap.state.dice.flatMap((die) => die.faces))];
    const add = (text) => {
      const input = $(`order-${typingOrder}`);
      const now = input.value.trim();
      if (text === "or" && (!now || now.endsWith(" or"))) return;
      input.value = !now || now.endsWith(" or") ? `${now} ${text}`.trim() : text === "or" ? `${now} or` : `${now} + ${text}`;
      input.dispatchEvent(new Event("input"));
    };
    return el("div", { class: "bean-keys", id: "bean-keys" },
      el("p", { class: "muted" }, "Or tap the beans of each order:"),
      el("div", { class: "faces" }, beans.map((bean) => el("button", {
        type: "button", class: "face bean-key", dataset: { bean }, "aria-label": `add ${bean}`, onclick: () => add(bean),
      }, C.beanImg(bean, "face-bean"), el("span", {}, bean)))),
      el("div", { class: "row" },
        el("button", { type: "button", class: "secondary", id: "key-or", onclick: () => add("or") }, "or"),
        el("button", { type: "button", class: "secondary", id: "key-clear", onclick: () => {
          $(`order-${typingOrder}`).value = "";
          $(`odds-${typingOrder}`).textContent = "";
        } }, "Clear this order"),
        el("button", { type: "button", class: "secondary", id: "key-next", onclick: () => {
          typingOrder = (typingOrder + 1) % ORDERS;
          markTypingOrder();
        } }, "Next order ↑")));
  }

  function markTypingOrder() {
    document.querySelectorAll(".order-entry").forEach((row) => row.classList.toggle("typing", Number(row.dataset.order) === typingOrder));
  }

  async function checkOrder(i) {
    const text = $(`order-${i}`).value.trim();
    const note = $(`odds-${i}`);
    note.className = "order-odds muted";
    if (!text) { note.textContent = ""; return; }
    const printed = $(`printed-${i}`).value.trim();
    const query = new URLSearchParams({ order: text, game: String(gameId) });
    if (printed) query.set("printed", printed);
    try {
      const odds = await C.get(`/api/dice/odds?${query}`);
      let message = `${odds.order}: ${odds.percent.toFixed(1)} %`;
      if (odds.printed && !odds.printed.agrees) {
        message += ` — printed ${odds.printed.value} % disagrees (computed ${odds.printed.computed} %)`;
        note.className = "order-odds bad";
      }
      note.textContent = message;
    } catch (err) {
      note.textContent = err.data && err.data.pointer ? `${err.data.reason} at position ${err.data.position + 1}` : err.message;
      note.className = "order-odds bad";
    }
  }

  function debounce(fn, ms) {
    let timer = null;
    return () => { clearTimeout(timer); timer = setTimeout(fn, ms); };
  }

  /* ------------------------------------------------------------ electronic dice */

  function onHardware(status) {
    const dice = status.dice || {};
    const roll = dice.last_roll;
    const seq = roll ? roll.seq : null;
    if (lastRollSeq !== undefined && seq !== lastRollSeq && roll.note) {
      C.alert(`Dice roll not counted: ${roll.note}`, { kind: "info" });
    }
    lastRollSeq = seq;
    const state = dice.state || "none";
    $("dice-problem").textContent = state === "offline" || state === "error" ? dice.message || "" : "";
    $("dice-problem").hidden = !$("dice-problem").textContent;
    $("throw-dice").hidden = !(dice.emulated && state === "online");
    if (state === diceState) return;
    diceState = state;
    const online = state === "online";
    document.body.dataset.dice = state;
    $("dice-hint").hidden = !online;
    $("manual-roll").open = !online;
    $("manual-summary").textContent = online ? "Dice not working? Enter the roll by hand" : "Enter the roll by hand";
    $("virtual-roll").classList.toggle("secondary", online);
  }

  function onRefused(data) {
    /* The page that sent a refused move shows it already; refusals of the electronic dice are news. */
    if (data.source !== "tablet" && data.source !== "virtual") C.alert(`${data.source}: ${data.error}`, { rule: data.rule });
  }

  /* ------------------------------------------------------------ wiring */

  $("save-button").addEventListener("click", () => move({ type: "save", dice: [...selected].sort((a, b) => a - b) }));
  $("bean-piece-button").addEventListener("click", () => move({ type: "bean-piece" }));
  $("end-turn-button").addEventListener("click", () => move({ type: "end-turn" }));
  $("virtual-roll").addEventListener("click", () => act(() => C.post(`/api/dice/games/${gameId}/roll`)));
  $("throw-dice").addEventListener("click", () => act(() => C.post("/api/hardware/dice/throw")));
  $("deal-button").addEventListener("click", () => act(() => C.post(`/api/dice/games/${gameId}/deal`)));
  $("undo-button").addEventListener("click", () => act(() => C.post(`/api/games/${gameId}/undo`, { count: 1, after: snap.seq })));
  $("manual-submit").addEventListener("click", () => {
    const s = snap.state;
    move({ type: "roll", beans: s.dice.map((die, i) => (s.to_roll.includes(i) ? manual[i] : null)) });
  });

  C.get(`/api/games/${gameId}`).then(draw).catch((err) => C.alert(err.message));
  const stream = C.live(gameId, { state: draw, hardware: onHardware, refused: onRefused });
  stream.unlessStreamed(C.get("/api/hardware")).then((status) => { if (status) onHardware(status); }).catch(() => {});
})();
