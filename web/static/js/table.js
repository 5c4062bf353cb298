"use strict";
/* The card game's table: one renderer (Companion.TableView) that draws a whole game
   state, used live on the table page (with the controls for manual play) and read-only
   by the replay. The table page starts it from the live stream. */
(() => {
  const { el, beanImg } = Companion;
  const SERIES = ["#1f5fa8", "#b3261e", "#2f8a3a", "#d9a520", "#7b3fa0", "#138086", "#a35a1a"];

  let beanCatalogue = {};
  const beanName = (id) => (beanCatalogue[id] ? beanCatalogue[id].name : id);
  const shortName = (id) => beanName(id).replace(/ Bean$/, "");
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

  /* The moves the engine offers a seat now (the page knows no rule of its own). */
  const legalOf = (s, seat) => (s.legal && s.legal[seat]) || [];
  const offers = (s, seat, type, source) => legalOf(s, seat).some((m) => m.type === type && (!source || m.fields.source === source));
  /* Whether the engine lets ``pick`` (a card waiting to be planted) go into ``field``: a value it names or offers. */
  const takes = (m, name, value) => m.fields[name] === value || (!!m.choose[name] && m.choose[name].options.includes(value));
  const fitsPick = (s, pick, field) => legalOf(s, pick.player).some((m) => m.type === "plant" && m.fields.source === pick.source
    && takes(m, "bean", pick.bean) && takes(m, "field", field));
  const HANDLED = new Set(["turn-over", "trade", "end-trading", "draw", "harvest", "buy-field", "build"]);
  const handled = (m) => HANDLED.has(m.type) || (m.type === "plant" && ["hand", "face-up", "received"].includes(m.fields.source));

  function changeLine(change) {
    if (!change) return "";
    if ((change.kind === "move" || change.kind === "connect") && change.text) {
      const source = change.source && change.source !== "tablet" ? ` (from the ${change.source})` : "";
      return `Last: ${change.text}${source}`;
    }
    if (change.kind === "undo") {
      return change.undone && change.undone.length ? `Undone: ${change.undone.join("; ")}` : `Undone: ${plural(change.count, "event")}`;
    }
    if (change.kind === "external") return "Changed elsewhere (another server or a terminal): this is the game as stored";
    return "";
  }

  /* Where a player's score came from: the coins by bean ("blue 4 · chili 3"), then what the variants add
     ("+ buildings 19 + tipi 1 + bonus 3"), as the engine's score breakdown names it. */
  function breakdown(s, player) {
    const parts = Object.entries(player.coins_by_bean || {}).map(([bean, n]) => `${shortName(bean)} ${n}`);
    const added = Object.entries((s.score_breakdown || {})[player.name] || {})
      .filter(([kind, n]) => kind !== "coins" && n).map(([kind, n]) => ` + ${kind} ${n}`);
    return (parts.length ? ` (${parts.join(" · ")})` : "") + added.join("");
  }

  /* A simple bar: one segment per pass of the draw pile, the current one filled as the pile shrinks. */
  function gauge(state) {
    const total = state.deck_size || 1;
    const segments = [];
    for (let pass = 0; pass < state.end_pass; pass += 1) {
      let fill = 0;
      if (pass < state.passes) fill = 1;
      else if (pass === state.passes) fill = Math.max(0, Math.min(1, 1 - state.draw_pile / total));
      segments.push(el("span", { class: "gauge-seg" }, el("span", { class: "gauge-fill", style: `width:${(fill * 100).toFixed(1)}%` })));
    }
    const text = state.game_over ? "The game is over." : (state.forecast ? state.forecast.text : "");
    return el("div", { class: "gauge" },
      el("div", { class: "gauge-text", id: "forecast" }, text),
      el("div", { class: "gauge-bar", role: "img", "aria-label": `pass ${state.passes} of ${state.end_pass}` }, segments));
  }

  /* Players with equal scores are drawn side by side (a line's width apart), not hidden under each other. */
  const LINE = 4;
  function tieOffset(row, seat) {
    const tied = row.map((v, i) => i).filter((i) => row[i] === row[seat]);
    return (tied.indexOf(seat) - (tied.length - 1) / 2) * LINE;
  }

  /* Every player's coins over the game, as an inline SVG line chart drawn ``width`` CSS pixels wide, so that
     its lettering keeps its size (14 px) on a phone as on a tablet. */
  function coinChart(progress, width) {
    const W = Math.round(Math.min(760, Math.max(280, width || 640))), H = Math.round(Math.max(220, W * 0.4));
    const L = 40, R = 12, T = 12, B = 34;
    const steps = Math.max(progress.scores.length - 1, 1);
    const top = Math.max(1, ...progress.scores.flat());
    const x = (i) => L + (i / steps) * (W - L - R);
    const y = (v) => H - B - (v / top) * (H - T - B);
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    const node = (tag, attrs, text) => {
      const n = document.createElementNS(ns, tag);
      for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
      if (text !== undefined) n.textContent = text;
      svg.append(n);
      return n;
    };
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("class", "coin-chart");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "coins of every player over the game");
    const tick = top <= 10 ? 1 : Math.ceil(top / 8);
    for (let v = 0; v <= top; v += tick) {
      node("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" });
      node("text", { x: L - 6, y: y(v) + 5, "text-anchor": "end", class: "axis" }, v);
    }
    node("text", { x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle", class: "axis" }, `events (${steps})`);
    progress.players.forEach((name, seat) => {
      const points = progress.scores.map((row, i) => `${x(i).toFixed(1)},${(y(row[seat]) + tieOffset(row, seat)).toFixed(1)}`).join(" ");
      node("polyline", { points, fill: "none", stroke: SERIES[seat % SERIES.length], "stroke-width": LINE, "stroke-linejoin": "round", "data-player": name });
    });
    return svg;
  }

  class TableView {
    /* root: the element to fill; readOnly: no controls (the replay); joining and host: the phones' parts
       (phones.js) on the live page. */
    constructor(root, { gameId, readOnly = false, joining = null, host = null }) {
      this.root = root;
      this.gameId = gameId;
      this.replay = readOnly;
      this.joining = joining;
      this.host = host;
      this.snapshot = null;
      this.inFlight = 0;
      this.progressKey = null;
      this.refusedHere = new Set();
      this.ui = this.freshUi("");
      this.tapped = null;
      this.history = { open: false, key: null, loading: false, data: null, confirm: null };
      if (!readOnly) root.addEventListener("click", (event) => this.noteTap(event), true);
    }

    /* No controls: the replay, or a phone that watches since its join code was revoked. */
    get readOnly() {
      return this.replay || (this.joining !== null && this.joining.ended() !== null && !Companion.isEditor());
    }

    /* The seat this phone plays (null: a tablet or a watcher, which see every seat alike). */
    mySeat() { return this.joining ? this.joining.seat() : null; }

    /* Whether this page offers the controls of ``seat``: a phone only its own seat's. */
    mayTouch(seat) {
      const mine = this.mySeat();
      return mine === null || mine === seat;
    }

    /* Where the last tap was (page coordinates): a refusal is shown there. Any tap clears the last refusal. */
    noteTap(event) {
      const node = event.target.closest("button, select");
      if (!node) return;
      const box = node.getBoundingClientRect();
      this.tapped = { left: box.left + window.scrollX, top: box.top + window.scrollY, bottom: box.bottom + window.scrollY };
      clearRefusal();
    }

    /* Run an API call; a refusal is said next to what was tapped, and the call gives null. */
    async call(promise) {
      try {
        return await promise;
      } catch (err) {
        showRefusal(err.message, err.rule, this.tapped);
        return null;
      }
    }

    freshUi(key) {
      return { key, pick: null, target: null, correcting: null, mode: null, turned: [], trade: { partner: null, face_up: [], hand: [], receive: [] } };
    }

    /* Draw a whole snapshot ({state, change, revision}); keeps the choices of the current step. */
    draw(snapshot) {
      if (this.snapshot && snapshot.revision !== this.snapshot.revision) {  // the next move: old refusals go
        clearRefusal();
        document.querySelectorAll("#alerts .alert-error").forEach((item) => item.remove());
      }
      this.snapshot = snapshot;
      const s = snapshot.state;
      const key = `${s.turn}/${s.phase}/${s.active_player}/${s.game_over}`;
      if (key !== this.ui.key) {
        this.ui = this.freshUi(key);
        this.ui.trade.partner = (s.active_player + 1) % s.players.length;
      }
      this.dropStale(s);
      const names = s.players.map((p) => p.name);
      const mine = this.readOnly ? null : this.mySeat();
      const others = s.players.map((p, seat) => (seat === mine ? null : this.seat(s, p, seat)));
      const view = el("div", { class: "table-view", dataset: {
        phase: s.phase, active: s.active_player, over: s.game_over ? "yes" : "no", events: snapshot.events ?? "",
        mode: this.replay ? "replay" : this.readOnly ? "watch" : mine === null ? "live" : "seat",
      } },
        this.joining ? this.joining.render(names) : null,
        mine === null ? null : this.mine(s, names, mine),
        this.head(s, names, snapshot.change),
        this.readOnly ? null : this.brokenLog(snapshot.broken),
        this.readOnly || s.game_over || mine !== null ? null : this.proposals(s, snapshot.proposals || [], names),
        s.game_over ? this.ending(s) : null,
        el("div", { class: "table-body" },
          el("div", { class: "seats" }, others),
          this.readOnly || s.game_over || mine !== null ? null : this.controls(s, names)),
        this.readOnly ? null : this.historyPanel(),
        this.host && !this.replay ? this.host.render(names) : null);
      this.root.replaceChildren(view);
    }

    /* A phone's own part, first on its screen: its seat (fields, coins, hand) and what it may do now. */
    mine(s, names, seat) {
      return el("section", { class: "mine", id: "mine" }, this.seat(s, s.players[seat], seat),
        s.game_over ? null : this.controls(s, names, seat));
    }

    redraw() { if (this.snapshot) this.draw(this.snapshot); }

    /* The game so far: every stored event in the engine's words (newest first), the undone ones struck through;
       "Undo from here" undoes an event and every one after it, after one question. */
    historyPanel() {
      const h = this.history;
      const key = `${this.snapshot.revision}/${this.snapshot.seq}`;
      if (h.open && h.key !== key) this.loadHistory(key);
      const toggle = el("button", { type: "button", class: "secondary history-toggle", id: "history-toggle", "aria-expanded": h.open ? "true" : "false",
        onclick: () => { h.open = !h.open; h.confirm = null; this.redraw(); } },
      `${h.open ? "▾" : "▸"} The game so far (${plural(this.snapshot.events ?? 0, "event")})`);
      const rows = h.open && h.data ? [...h.data.history].reverse() : [];
      return el("section", { class: "panel history", id: "history" }, toggle,
        h.open ? el("ol", { class: "history-list", id: "history-list" }, rows.map((row) => this.historyRow(row))) : null);
    }

    async loadHistory(key) {
      const h = this.history;
      if (h.loading) return;
      h.loading = true;
      const data = await this.call(Companion.get(`/api/games/${this.gameId}/history`));
      h.loading = false;
      h.key = key;
      if (data) h.data = data;
      this.redraw();
    }

    historyRow(row) {
      const text = row.text || row.type;
      if (row.undone) {
        return el("li", { class: "history-row undone", dataset: { undone: "yes" } },
          el("s", { class: "history-text" }, text), el("span", { class: "history-tag" }, "undone"));
      }
      const h = this.history;
      return el("li", { class: "history-row", dataset: { at: row.at } },
        el("span", { class: "history-no" }, row.at), el("span", { class: "history-text" }, text),
        this.mySeat() !== null ? null : h.confirm === row.at ? this.undoQuestion(row.at)
          : el("button", { type: "button", class: "secondary undo-to", onclick: () => { h.confirm = row.at; this.redraw(); } }, "Undo from here"));
    }

    undoQuestion(at) {
      const { events, seq } = this.history.data;
      const after = events - at;
      return el("div", { class: "undo-question", role: "group" },
        el("span", {}, `Undo this${after ? ` and the ${plural(after, "event")} after it` : ""}?`),
        el("button", { type: "button", class: "danger", id: "undo-confirm", onclick: () => this.undoBack(after + 1, seq) }, `Undo ${plural(after + 1, "event")}`),
        el("button", { type: "button", class: "secondary", id: "undo-keep", onclick: () => { this.history.confirm = null; this.redraw(); } }, "Keep"));
    }

    async undoBack(count, after) {
      this.inFlight += 1;
      const result = await this.call(Companion.post(`/api/games/${this.gameId}/undo`, { count, after }));
      this.inFlight -= 1;
      this.history.confirm = null;
      if (result) {
        this.ui.pick = null;
        this.accept(result);
      }
    }

    /* A stored event that no longer replays: the game stops before it until it is undone. */
    brokenLog(broken) {
      if (!broken) return null;
      const more = broken.undo > 1 ? ` and the ${plural(broken.undo - 1, "event")} after it` : "";
      return el("section", { class: "panel broken-log", id: "broken-log", role: "alert" },
        el("h2", {}, `Event ${broken.event} does not replay`),
        el("p", {}, broken.error, broken.rule ? " " : "", broken.rule ? el("code", { class: "rule" }, broken.rule) : null),
        el("p", {}, `The table shows the game before it. Undo it${more} to go on.`),
        el("button", { type: "button", id: "repair", onclick: () => this.repair() }, `Undo event ${broken.event}${more}`));
    }

    async repair() {
      this.inFlight += 1;
      const result = await this.call(Companion.post(`/api/games/${this.gameId}/repair`, {}));
      this.inFlight -= 1;
      if (result) this.accept({ ...result, change: { kind: "undo", count: result.undone } });
    }

    /* Events the camera (or another tool) proposes: each waits for a tap to confirm, correct or dismiss. */
    proposals(s, list, names) {
      if (!list.length) return null;
      return el("section", { class: "proposals panel", id: "proposals" },
        el("h2", {}, "Seen, waiting for a tap"),
        list.map((p) => el("div", { class: `proposal${p.legal ? "" : " refused"}`, dataset: { proposal: p.id } },
          el("span", { class: "proposal-text" }, `${p.source}: ${p.text || p.event.type}`),
          p.legal ? null : el("span", { class: "proposal-rule" }, p.error, " ", el("code", { class: "rule" }, p.rule)),
          p.after ? el("span", { class: "proposal-after" }, "Goes in by itself once the proposals above it are confirmed as they are") : null,
          el("div", { class: "proposal-actions" },
            el("button", { type: "button", class: "confirm", disabled: !p.legal, onclick: () => this.settle(p) }, "Confirm"),
            p.event.type === "plant" ? el("button", {
              type: "button", class: "secondary correct", "aria-pressed": this.ui.correcting === p.id ? "true" : "false",
              onclick: () => { this.ui.correcting = this.ui.correcting === p.id ? null : p.id; this.redraw(); },
            }, "Correct") : null,
            el("button", { type: "button", class: "secondary dismiss", onclick: () => this.settle(p, false) }, "Dismiss")),
          (p.alternatives || []).length ? el("div", { class: "proposal-alternatives" },
            el("span", { class: "muted" }, "Or:"),
            p.alternatives.map((other) => el("button", {
              type: "button", class: "secondary alternative", onclick: () => this.settle(p, true, other.event),
            }, other.text || other.event.type))) : null,
          this.ui.correcting === p.id
            ? this.beanPicker(s, { chosen: p.event.bean, needUnseen: false, onPick: (bean) => this.settle(p, true, { ...p.event, bean }) })
            : null)));
    }

    /* Confirm (as seen, or corrected) or dismiss a proposal. */
    async settle(proposal, confirm = true, corrected = null) {
      const path = `/api/games/${this.gameId}/proposals/${proposal.id}`;
      const call = !confirm ? Companion.request("DELETE", path)
        : Companion.post(`${path}/confirm`, corrected ? { event: corrected } : {});
      this.inFlight += 1;
      const result = await this.call(call);
      this.inFlight -= 1;
      if (result) {
        this.ui.correcting = null;
        this.accept(result);
      }
    }

    /* Forget choices another page has overtaken: a picked card planted, a turned-over card traded. */
    dropStale(s) {
      const pick = this.ui.pick;
      const gone = pick && ((pick.source === "face-up" && !s.face_up.includes(pick.bean))
        || (pick.source === "received" && !s.players[pick.player].received.includes(pick.bean)));
      if (gone) this.ui.pick = null;
      let left = [...s.face_up];
      this.ui.trade.face_up = this.ui.trade.face_up.filter((bean) => {
        const kept = left.includes(bean);
        left = removeOne(left, bean);
        return kept;
      });
    }

    head(s, names, change) {
      const active = names[s.active_player];
      const banner = s.game_over
        ? el("div", { class: "banner" }, el("strong", {}, "Game over"))
        : el("div", { class: "banner" },
          el("span", { class: "turn-no" }, `Turn ${s.turn}`),
          el("strong", { class: "active-name", id: "active-name" }, active),
          el("span", { class: "phase", id: "phase", dataset: { phase: s.phase } }, s.phase_text || `Phase ${s.phase}`));
      const faceUp = el("div", { class: "face-up", id: "face-up" },
        el("span", { class: "label" }, "Turned over"),
        s.face_up.length ? s.face_up.map((bean, i) => this.faceUpCard(s, bean, i)) : el("span", { class: "muted" }, "none"));
      const piles = el("div", { class: "piles" },
        el("div", { class: "pile", id: "draw-pile" }, beanImg("back", "pile-img"), el("span", {}, el("b", {}, s.draw_pile), " to draw")),
        el("div", { class: "pile", id: "discard-pile" }, s.discard_top ? beanImg(s.discard_top, "pile-img") : el("span", { class: "pile-img empty-pile" }),
          el("span", {}, el("b", {}, s.discard_pile), " discarded")));
      const undo = this.readOnly || this.mySeat() !== null ? null
        : el("button", { type: "button", class: "secondary undo", id: "undo", onclick: () => this.undo() }, "↶ Undo");
      return el("section", { class: "table-head panel" },
        el("div", { class: "head-row" }, banner,
          el("div", { class: "last-move muted", id: "last-move" }, changeLine(change)), undo),
        el("div", { class: "head-row" }, faceUp, gauge(s), piles),
        s.notes && s.notes.length ? el("div", { class: "notes", id: "notes" }, s.notes.map((note) => el("p", {}, note))) : null);
    }

    faceUpCard(s, bean, index, extra = "") {
      const content = [beanImg(bean, "card-img"), el("span", {}, shortName(bean))];
      const trading = offers(s, s.active_player, "trade");
      const usable = trading || offers(s, s.active_player, "plant", "face-up");
      if (this.readOnly || s.game_over || !usable || !this.mayTouch(s.active_player)) {
        return el("span", { class: "card", dataset: { bean } }, content);
      }
      const trade = this.ui.trade;
      const chosen = trading ? countIn(trade.face_up, bean) > countBefore(s.face_up, bean, index)
        : this.isPicked("face-up", s.active_player, bean) && s.face_up.indexOf(bean) === index;
      return el("button", {
        type: "button", class: `card${chosen ? " chosen" : ""}${extra ? ` ${extra}` : ""}`, "aria-pressed": chosen ? "true" : "false",
        dataset: { bean, index },
        onclick: () => {
          if (trading) {
            trade.face_up = chosen ? removeOne(trade.face_up, bean) : [...trade.face_up, bean];
          } else {
            this.ui.pick = chosen ? null : { player: s.active_player, bean, source: "face-up" };
          }
          this.redraw();
        },
      }, content);
    }

    isPicked(source, player, bean) {
      const p = this.ui.pick;
      return !!p && p.source === source && p.player === player && p.bean === bean;
    }

    seat(s, p, seat) {
      const active = seat === s.active_player && !s.game_over;
      const target = !this.readOnly && this.ui.pick && this.ui.pick.player === seat;
      const buying = legalOf(s, seat).find((m) => m.type === "buy-field");
      const buy = !this.readOnly && buying && this.mayTouch(seat)
        ? el("div", { class: "field" }, el("button", {
          type: "button", class: "buy-field", dataset: { seat }, title: buying.text,
          onclick: () => this.send({ type: "buy-field", player: seat }),
        }, "+", el("br"), "field"))
        : null;
      const received = p.received.length
        ? el("div", { class: "received" }, el("span", { class: "label" }, "To plant"),
          p.received.map((bean) => this.receivedCard(s, seat, bean)))
        : null;
      return el("article", { class: `seat${active ? " active" : ""}${target ? " targeted" : ""}`, dataset: { seat }, style: `order: ${2 * seat}` },
        el("header", { class: "seat-head" },
          el("span", { class: "seat-name" }, p.name),
          el("span", { class: "coins", title: "coins" }, el("b", {}, p.coins), p.coins === 1 ? " coin" : " coins"),
          el("span", { class: "hand" }, el("b", {}, p.hand_size), " in hand")),
        el("div", { class: "fields" }, p.fields.map((f, i) => this.field(s, seat, f, i, p.harvest_values[i])), buy),
        received, this.town(s, p, seat));
    }

    /* High Bohn: a seat's thalers by bean, its buildings, what lies under them and on its store, and a button for
       each building the engine lets it buy now (any time, any seat). */
    town(s, p, seat) {
      const b = s.buildings;
      if (!b) return null;
      const thalers = Object.entries(p.coins_by_bean || {});
      const chips = (label, items) => (items.length ? el("div", { class: "town-row" }, el("span", { class: "label" }, label), items) : null);
      const owned = Object.entries(b.owned[seat] || {}).map(([kind, price]) =>
        el("span", { class: "building", dataset: { building: kind, price } }, `${price} ${(b.kinds[kind] || { name: kind }).name}`));
      const under = [[b.stew[seat], "under the saloon"], [(b.distilled || [])[seat] || [], "under the distillery"]]
        .filter(([pile]) => pile.length).map(([pile, where]) => el("span", { class: "kept" }, `${plural(pile.length, "thaler")} ${where}`));
      const stored = ((s.stored || [])[seat] || []).map((bean) => el("span", { class: "card stored", dataset: { bean } }, beanImg(bean, "card-img"), el("span", {}, shortName(bean))));
      const builds = this.readOnly || s.game_over || !this.mayTouch(seat) ? []
        : legalOf(s, seat).filter((m) => m.type === "build").map((m) => el("button", {
          type: "button", class: "secondary build", dataset: { building: m.fields.building, price: m.fields.price },
          onclick: () => this.send({ type: "build", ...m.fields }),
        }, m.text));
      return el("div", { class: "town", dataset: { seat } },
        chips("Thalers", thalers.map(([bean, n]) => el("span", { class: "thaler", dataset: { bean } }, beanImg(bean, "pick-img"), `${n} ${shortName(bean)}`))),
        chips("Buildings", [...owned, ...under]), chips("On the store", stored), chips("Build", builds));
    }

    receivedCard(s, seat, bean) {
      const content = [beanImg(bean, "card-img"), el("span", {}, shortName(bean))];
      if (this.readOnly || !offers(s, seat, "plant", "received") || !this.mayTouch(seat)) {
        return el("span", { class: "card", dataset: { bean, seat } }, content);
      }
      const chosen = this.isPicked("received", seat, bean);
      return el("button", {
        type: "button", class: `card received-card${chosen ? " chosen" : ""}`, "aria-pressed": chosen ? "true" : "false",
        dataset: { bean, seat },
        onclick: () => { this.ui.pick = chosen ? null : { player: seat, bean, source: "received" }; this.redraw(); },
      }, content);
    }

    field(s, seat, f, index, value) {
      const body = f
        ? [beanImg(f.bean, "field-img"), el("span", { class: "field-count" }, `×${f.count}`),
          el("span", { class: "field-name" }, shortName(f.bean)),
          el("span", { class: "field-value", title: "what a harvest pays now" }, "pays ", el("b", {}, value))]
        : [el("span", { class: "field-empty" }, `field ${index + 1}`), el("span", { class: "field-name" }, "empty")];
      const kind = ((s.field_kinds || [])[seat] || [])[index];
      if (kind && (kind.only || kind.mixed)) {
        const text = kind.only ? `${shortName(kind.only)} only`
          : kind.mixed === "stew" ? `stew: ${[...new Set(kind.cards)].map(shortName).join(", ")}` : "with soy (farm)";
        body.push(el("span", { class: "field-kind" }, text));
      }
      const attrs = { class: `field-plot${f ? "" : " empty"}`, dataset: { seat, field: index, bean: f ? f.bean : "", count: f ? f.count : 0 } };
      if (this.readOnly || s.game_over || !this.mayTouch(seat)) return el("div", { class: "field" }, el("div", attrs, body));
      const pick = this.ui.pick;
      const fits = pick && pick.player === seat && fitsPick(s, pick, index);
      const target = this.ui.target && this.ui.target.seat === seat && this.ui.target.field === index;
      attrs.class += fits ? " fits" : "";
      attrs.class += target ? " target" : "";
      attrs.type = "button";
      attrs["aria-label"] = `field ${index + 1} of ${s.players[seat].name}`;
      attrs.onclick = () => this.fieldTapped(s, seat, index);
      return el("div", { class: "field" },
        el("button", attrs, body),
        this.harvestButton(seat, f, index, value));
    }

    /* Harvest: one tap, or two when the harvest would pay nothing (the first asks). */
    harvestButton(seat, f, index, value) {
      const key = `${seat}/${index}`;
      const asking = this.ui.askHarvest === key;
      return el("button", {
        type: "button", class: `secondary harvest${asking ? " asking" : ""}`, disabled: !f, dataset: { seat, field: index },
        onclick: () => {
          if (value === 0 && !asking) {
            this.ui.askHarvest = key;
            this.redraw();
            return;
          }
          this.ui.askHarvest = null;
          this.send({ type: "harvest", player: seat, field: index });
        },
      }, asking ? "Pays 0: harvest?" : "Harvest");
    }

    /* A field tapped: the picked card goes there; with none picked, it becomes the field for the next plant from hand. */
    fieldTapped(s, seat, field) {
      const target = this.ui.target;
      if (!this.ui.pick && seat === s.active_player && offers(s, seat, "plant", "hand")) {
        this.ui.target = target && target.field === field ? null : { seat, field };
        this.ui.mode = "plant";
        this.redraw();
        return;
      }
      this.plantIn(seat, field);
    }

    plantIn(seat, field) {
      const pick = this.ui.pick;
      if (!pick) {
        showRefusal("Choose the card to plant first, then tap the field.", null, this.tapped, "info");
        return;
      }
      if (pick.player !== seat) {
        showRefusal(`That card is ${this.snapshot.state.players[pick.player].name}'s to plant: tap one of their fields.`, null, this.tapped, "info");
        return;
      }
      this.send({ type: "plant", player: pick.player, bean: pick.bean, source: pick.source, field });
    }

    /* The controls for whoever must act (on a phone: for its seat), drawn from the moves the engine offers. */
    controls(s, names, seat = (s.to_act || [s.active_player])[0]) {
      const moves = legalOf(s, seat);
      const types = new Set(moves.map((m) => m.type));
      let parts;
      if (types.has("trade") || types.has("end-trading")) parts = this.phaseTwo(s, names, moves);
      else if (types.has("turn-over") || offers(s, seat, "plant", "hand")) parts = this.phaseOne(s, names[seat], moves);
      else parts = this.phaseThree(s, names, moves, seat);
      const phone = this.mySeat() !== null;
      // on a phone the seats and the controls share one column: the controls come right after the seat that acts
      return el("aside", { class: "controls panel", id: "controls", style: `order: ${2 * seat + 1}` },
        phone ? this.offersOf(seat, names) : null, parts, this.otherMoves(s, names),
        phone && !(s.to_act || []).includes(seat) ? this.waitingFor(s, names) : null);
    }

    /* Every other move the engine offers (a variant's or a module's; a phone: its seat's), a picker for each open choice. */
    otherMoves(s, names) {
      const rows = (s.to_act || []).filter((seat) => this.mayTouch(seat))
        .flatMap((seat) => legalOf(s, seat).filter((m) => !handled(m)).map((m) => this.moveRow(m, names)));
      return rows.length ? el("div", { class: "other-moves", id: "other-moves" }, rows) : null;
    }

    /* On a phone whose seat has nothing to do now: who the table waits for. */
    waitingFor(s, names) {
      const waiting = (s.to_act || []).map((seat) => names[seat]).join(", ");
      return el("p", { class: "hint waiting", id: "waiting" }, `Waiting for ${waiting || "the table"}: ${s.phase_text || `phase ${s.phase}`}.`);
    }

    /* On a phone: the trades offered to its seat (accept or decline) and those it offered (withdraw). */
    offersOf(seat, names) {
      const trades = (this.snapshot.proposals || []).filter((p) => typeof p.event.partner === "number");
      const rows = trades.filter((p) => p.event.partner === seat || p.event.player === seat).map((p) => {
        const mine = p.event.player === seat;
        const other = names[mine ? p.event.partner : p.event.player];
        const text = p.text || p.event.type;
        return el("div", { class: `offer-row${p.legal ? "" : " refused"}`, dataset: { proposal: p.id, mine: mine ? "yes" : "no" } },
          el("span", { class: "offer-text" }, mine ? `Waiting for ${other}'s answer: ${text}` : text),
          p.legal ? null : el("span", { class: "proposal-rule" }, p.error),
          el("div", { class: "row" },
            mine ? null : el("button", { type: "button", class: "accept", disabled: !p.legal, onclick: () => this.settle(p) }, "Accept"),
            el("button", { type: "button", class: "secondary decline", onclick: () => this.settle(p, false) }, mine ? "Withdraw" : "Decline")));
      });
      return rows.length ? el("div", { class: "offers", id: "offers" }, rows) : null;
    }

    moveRow(move, names) {
      const chosen = {};
      const label = (name, value) => {
        if (typeof value === "string") return beanCatalogue[value] ? shortName(value) : value;
        if (name === "victim" || name === "partner") return names[value];
        return name.endsWith("field") ? `field ${value + 1}` : name === "at" ? `place ${value + 1}` : String(value);
      };
      const pickers = Object.entries(move.choose).flatMap(([name, choice]) => {
        const count = choice.many ? (choice.exactly ?? 1) : 1;
        return Array.from({ length: count }, (_, i) => {
          const set = (value) => {
            const parsed = JSON.parse(value);
            if (choice.many) { chosen[name] = chosen[name] || []; chosen[name][i] = parsed; } else chosen[name] = parsed;
          };
          set(JSON.stringify(choice.options[0]));
          return el("select", { class: "choice", dataset: { choice: name }, "aria-label": name, onchange: (e) => set(e.target.value) },
            choice.options.map((o) => el("option", { value: JSON.stringify(o) }, label(name, o))));
        });
      });
      return el("div", { class: "row move-row", dataset: { type: move.type } }, ...pickers,
        el("button", { type: "button", class: "move", dataset: { type: move.type },
          onclick: () => this.send({ type: move.type, ...move.fields, ...chosen }) }, move.text));
    }

    /* A button per bean (the engine's order); the small number is how many of that bean are still unseen. */
    beanPicker(s, { chosen = null, onPick, needUnseen = true, id = null, label = null }) {
      const picker = el("div", { class: "picker", id }, Object.keys(s.unseen).map((bean) => el("button", {
        type: "button", class: `bean-pick${chosen === bean ? " chosen" : ""}`, dataset: { bean },
        disabled: needUnseen && !s.unseen[bean], "aria-pressed": chosen === bean ? "true" : "false",
        onclick: () => onPick(bean),
      }, beanImg(bean, "pick-img"), el("span", { class: "pick-name" }, shortName(bean)),
      el("span", { class: "pick-left", title: "still unseen" }, s.unseen[bean]))));
      return label ? el("div", { class: "picker-box" }, el("span", { class: "label" }, label), picker) : picker;
    }

    tabs(options, current, onChange) {
      return el("div", { class: "tabs", role: "tablist" }, options.map(([value, label]) => el("button", {
        type: "button", role: "tab", class: `tab${value === current ? " chosen" : ""}`, dataset: { tab: value },
        "aria-selected": value === current ? "true" : "false", onclick: () => onChange(value),
      }, label)));
    }

    /* Phase 1: a bean tapped in the hand's picker is planted at once, in the fitting field (or the field tapped
       first); the cards turned over are picked in the same view, and the last one the engine asks for sends them. */
    phaseOne(s, active, moves) {
      const ui = this.ui;
      const turning = moves.find((m) => m.type === "turn-over");
      const mode = ui.mode || (turning ? "turn" : "plant");
      const tabs = this.tabs([["plant", "Plant from hand"], ["turn", "Turn over"]], mode, (value) => { ui.mode = value; this.redraw(); });
      return [tabs, ...(mode === "turn" ? this.turnOverPart(s, active, turning) : this.handPlantPart(s, active)), pickerHelp()];
    }

    handPlantPart(s, active) {
      const target = this.ui.target;
      const where = target ? `field ${target.field + 1}` : "the fitting field";
      return [
        el("p", { class: "hint", id: "plant-hint" }, `Tap the bean ${active} plants from the front of the hand: it goes in ${where}.`,
          target ? " Tap the field again to let the page choose." : " To choose the field, tap it first."),
        this.beanPicker(s, { onPick: (bean) => this.send({
          type: "plant", player: s.active_player, bean, source: "hand", field: target ? target.field : null,
        }) }),
      ];
    }

    turnOverPart(s, active, turning) {
      const ui = this.ui;
      if (!turning) return [el("p", { class: "hint" }, `${active} plants from the hand first.`)];
      const count = (turning.fields.beans || []).length || (turning.choose.beans && turning.choose.beans.exactly) || 0;
      const turnOver = () => this.send({ type: "turn-over", ...turning.fields, beans: [...ui.turned] });
      const pick = (bean) => {
        if (count && ui.turned.length >= count) return;
        ui.turned.push(bean);
        if (ui.turned.length === count) turnOver(); else this.redraw();
      };
      const chosen = el("div", { class: "chosen-row", id: "turned" }, ui.turned.length
        ? ui.turned.map((bean, i) => el("button", {
          type: "button", class: "card chosen", title: "remove", dataset: { bean },
          onclick: () => { ui.turned.splice(i, 1); this.redraw(); },
        }, beanImg(bean, "card-img"), el("span", {}, shortName(bean))))
        : el("span", { class: "muted" }, "None picked yet."));
      return [
        el("p", { class: "hint" }, count ? `Tap the ${plural(count, "card")} that came up: the last tap turns them over.` : turning.text),
        chosen,
        this.beanPicker(s, { onPick: pick }),
        count ? null : el("button", { type: "button", id: "turn-over", disabled: !ui.turned.length, onclick: turnOver },
          `Turn over ${ui.turned.map(shortName).join(" + ")}`),
      ];
    }

    /* Phase 2: the partner, what each side gives (turned-over cards and either hand, in one view), then Trade. */
    phaseTwo(s, names, moves) {
      const t = this.ui.trade;
      const activeSeat = s.active_player;
      const partner = t.partner;
      const partnerName = partner === null ? "partner" : names[partner];
      const empty = !t.face_up.length && !t.hand.length && !t.receive.length;
      const gift = !empty && (!t.receive.length || (!t.face_up.length && !t.hand.length));
      return [
        el("h2", { class: "controls-title" }, "Trade or give"),
        this.partnerRow(names, activeSeat),
        this.offerPart("offer-give", `${names[activeSeat]} gives`, [...t.face_up, ...t.hand], (i) => {
          if (i < t.face_up.length) t.face_up.splice(i, 1); else t.hand.splice(i - t.face_up.length, 1);
        }),
        this.faceUpToggles(s),
        this.beanPicker(s, { needUnseen: false, id: "give-picker", label: `from ${names[activeSeat]}'s hand`,
          onPick: (bean) => { t.hand.push(bean); this.redraw(); } }),
        this.offerPart("offer-get", `${partnerName} gives`, t.receive, (i) => t.receive.splice(i, 1)),
        this.beanPicker(s, { needUnseen: false, id: "receive-picker", label: `from ${partnerName}'s hand`,
          onPick: (bean) => { t.receive.push(bean); this.redraw(); } }),
        pickerHelp(),
        el("div", { class: "row" },
          el("button", { type: "button", id: "make-trade", disabled: empty || partner === null, onclick: () => {
            const event = { type: "trade", player: activeSeat, partner, give_face_up: [...t.face_up], give_hand: [...t.hand], receive: [...t.receive] };
            if (this.offering()) this.offer(event); else this.send(event);
          } }, `${this.offering() ? "Offer: " : ""}${gift ? "Give" : "Trade"}`),
          el("button", { type: "button", class: "secondary", onclick: () => { this.ui.trade = { ...this.freshUi("").trade, partner }; this.redraw(); } }, "Clear"),
          moves.some((m) => m.type === "end-trading")
            ? el("button", { type: "button", id: "end-trading", class: "end-trading", onclick: () => this.send({ type: "end-trading", player: activeSeat }) }, "End trading")
            : null),
      ];
    }

    partnerRow(names, activeSeat) {
      const t = this.ui.trade;
      return el("div", { class: "row partners" }, el("span", { class: "label" }, "With"),
        names.map((name, seat) => (seat === activeSeat ? null : el("button", {
          type: "button", class: `partner${t.partner === seat ? " chosen" : " secondary"}`, dataset: { seat },
          "aria-pressed": t.partner === seat ? "true" : "false",
          onclick: () => { t.partner = seat; this.redraw(); },
        }, name))));
    }

    /* One side of the offer: its cards as chips (a tap takes one back). */
    offerPart(id, label, beans, remove) {
      return el("div", { class: "offer", id }, el("span", { class: "label" }, label),
        beans.length ? beans.map((bean, i) => el("button", {
          type: "button", class: "chip", title: "take back", dataset: { bean },
          onclick: () => { remove(i); this.redraw(); },
        }, beanImg(bean, "chip-img"), shortName(bean))) : el("span", { class: "muted" }, "nothing"));
    }

    /* The turned-over cards again, beside the offer (a phone shows the table's head far away). */
    faceUpToggles(s) {
      if (!s.face_up.length) return null;
      return el("div", { class: "offer face-up-offer" }, el("span", { class: "label" }, "turned over"),
        s.face_up.map((bean, i) => this.faceUpCard(s, bean, i, "give-face-up")));
    }

    /* Phase 3 and the draw: "Plant these" plants every waiting card the engine offers, each in its fitting field. */
    phaseThree(s, names, moves, seat) {
      const pick = this.ui.pick;
      const waiting = this.waitingPlants(s);
      const drawing = moves.find((m) => m.type === "draw");
      const listed = waiting.map((m) => `${names[m.fields.player]}: ${shortName(m.fields.bean)}`).join(", ");
      return [
        drawing || waiting.length ? el("h2", { class: "controls-title" }, drawing ? `${names[seat]} draws` : "Plant") : null,
        waiting.length ? el("button", { type: "button", id: "plant-all", class: "wide", onclick: () => this.plantAll() },
          `Plant ${waiting.length === 1 ? "it" : `these ${waiting.length}`}: ${listed}`) : null,
        el("p", { class: "hint" }, pick ? `Now tap a field of ${s.players[pick.player].name} for the ${beanName(pick.bean)}.`
          : waiting.length ? "Each goes in its fitting field. To choose a field, tap the card, then the field." : ""),
        drawing ? el("button", { type: "button", class: "wide", id: "draw", onclick: () => this.send({ ...drawing.fields, type: "draw" }) },
          `${names[seat]}: ${drawing.text}`) : null,
      ];
    }

    /* Plant the waiting cards one by one, as the engine offers them; stops at the first refusal. */
    async plantAll() {
      for (let guard = 0; guard < 64; guard += 1) {
        const move = this.waitingPlants(this.snapshot.state)[0];
        if (!move || !(await this.send({ ...move.fields, type: "plant", field: null }))) return;
      }
    }

    /* The cards waiting to be planted that this page plants (a phone: its seat's). */
    waitingPlants(s) { return waitingPlants(s).filter((m) => this.mayTouch(m.fields.player)); }

    ending(s) {
      const won = (name) => (s.winners.includes(name) ? 1 : 0);
      const order = s.players.map((p) => p.name).sort((a, b) => s.scores[b] - s.scores[a] || won(b) - won(a));
      const section = el("section", { class: "game-end panel", id: "game-end" },
        el("h2", {}, s.winners.length > 1 ? `Shared win: ${s.winners.join(" & ")}` : `${s.winners[0] || "?"} wins`),
        el("ol", { class: "ranking", id: "ranking" }, order.map((name) => el("li", { class: s.winners.includes(name) ? "winner" : "" },
          el("span", { class: "rank-name" }, name), " ", el("b", {}, plural(s.scores[name], "coin")),
          el("span", { class: "breakdown muted" }, breakdown(s, s.players.find((p) => p.name === name)))))),
        s.result ? el("p", { class: "result", id: "result" }, s.result) : null,
        el("h3", {}, "Coins over the game"),
        el("div", { class: "chart", id: "coin-chart" }, el("span", { class: "muted" }, "…")),
        el("div", { class: "legend" }, s.players.map((p, seat) => el("span", { class: "legend-item" },
          el("span", { class: "swatch", style: `background:${SERIES[seat % SERIES.length]}` }), p.name))));
      this.loadChart(section.querySelector(".chart"));
      return section;
    }

    async loadChart(box) {
      const key = `${this.gameId}/${this.snapshot.events ?? ""}`;
      if (this.progressKey !== key) {
        this.progress = await Companion.attempt(Companion.get(`/api/games/${this.gameId}/progress`));
        this.progressKey = key;
      }
      if (this.progress) box.replaceChildren(coinChart(this.progress, box.clientWidth));
    }

    async send(event) {
      this.inFlight += 1;
      const result = await this.call(Companion.post(`/api/games/${this.gameId}/moves`, event));
      if (!result) this.remember(event);
      this.inFlight -= 1;
      if (!result) {
        if (event.type === "turn-over") { this.ui.turned = []; this.redraw(); }  // no half-made selection stays
        return null;
      }
      if (event.type === "plant") this.ui.pick = null;
      if (event.type === "trade") this.ui.trade = { ...this.freshUi("").trade, partner: event.partner };
      if (event.type === "plant" && event.source === "hand") { this.ui.target = null; this.ui.mode = null; }
      if (event.type === "turn-over") this.ui.turned = [];
      this.accept(result);
      return result;
    }

    /* A phone offers its trades: the partner answers on their phone (the host's tablet enters them at once). */
    offering() { return this.mySeat() !== null && !Companion.isEditor(); }

    async offer(event) {
      this.inFlight += 1;
      const result = await this.call(Companion.post(`/api/games/${this.gameId}/proposals`, { event, source: "phone" }));
      this.inFlight -= 1;
      if (result) {
        this.ui.trade = { ...this.freshUi("").trade, partner: event.partner };
        this.redraw();
      }
    }

    /* A refusal this page has shown already; its live echo is not shown twice. */
    remember(event) {
      const key = JSON.stringify(event);
      this.refusedHere.add(key);
      setTimeout(() => this.refusedHere.delete(key), 10000);
    }

    ownRefusal(data) {
      return this.inFlight > 0 || (data.source === "tablet" && this.refusedHere.has(JSON.stringify(data.event)));
    }

    async undo() {
      this.inFlight += 1;
      const result = await this.call(Companion.post(`/api/games/${this.gameId}/undo`, { count: 1, after: this.snapshot.seq }));
      this.inFlight -= 1;
      if (result) {
        this.ui.pick = null;
        this.accept(result);
      }
    }

    /* Draw a snapshot unless a newer one is already on screen (a reconnect always draws). */
    accept(snapshot) {
      const current = this.snapshot;
      const fresh = !current || snapshot.revision >= current.revision || (snapshot.change && snapshot.change.kind === "connect");
      if (fresh) this.draw(snapshot);
    }
  }

  const pickerHelp = () => el("p", { class: "hint pick-help", id: "pick-help" },
    "The small number on a bean: how many of its cards no one has seen yet (in a hand or the draw pile).");

  /* A refusal (or a hint) beside what was tapped, floating over the page: nothing below it moves.
     Below the tapped control, or above it when that would leave the screen; never under the sticky header. */
  function showRefusal(message, rule, at, kind = "error") {
    clearRefusal();
    const box = el("div", { class: `refusal refusal-${kind}`, id: "refusal", role: "alert" },
      el("span", { class: "refusal-text" }, message), rule ? el("code", { class: "rule" }, rule) : null,
      el("button", { type: "button", class: "alert-close", "aria-label": "Dismiss", onclick: clearRefusal }, "×"));
    document.body.append(box);
    const width = box.offsetWidth;
    const pageWidth = document.documentElement.clientWidth;
    const spot = at || { left: 8, top: window.scrollY + window.innerHeight / 2, bottom: window.scrollY + window.innerHeight / 2 };
    const header = document.querySelector(".topbar");
    const headerBottom = header && getComputedStyle(header).position === "sticky" ? header.getBoundingClientRect().bottom : 0;
    let top = spot.bottom + 6;
    if (top + box.offsetHeight > window.scrollY + window.innerHeight && spot.top - box.offsetHeight - 6 >= window.scrollY + headerBottom) {
      top = spot.top - box.offsetHeight - 6;
    }
    box.style.left = `${Math.max(8, Math.min(spot.left, pageWidth - width - 8))}px`;
    box.style.top = `${top}px`;
  }

  function clearRefusal() {
    const old = document.getElementById("refusal");
    if (old) old.remove();
  }

  /* The plants of cards waiting on the table (turned over, received) that the engine offers now. */
  function waitingPlants(s) {
    return (s.to_act || []).flatMap((seat) => legalOf(s, seat)
      .filter((m) => m.type === "plant" && ["face-up", "received"].includes(m.fields.source) && m.fields.bean));
  }

  function countIn(list, bean) { return list.filter((b) => b === bean).length; }
  function countBefore(list, bean, index) { return list.slice(0, index).filter((b) => b === bean).length; }
  function removeOne(list, bean) {
    const i = list.indexOf(bean);
    return i < 0 ? list : [...list.slice(0, i), ...list.slice(i + 1)];
  }

  async function loadBeans() { beanCatalogue = await Companion.beans(); }

  async function startTablePage() {
    const root = document.getElementById("table");
    const gameId = Number(root.dataset.game);
    let view = null;
    const redraw = () => { if (view) view.redraw(); };
    const joining = new Companion.Joining(gameId, redraw);
    await joining.chosen(JSON.parse(root.dataset.players || "[]"), root);  // first: a private table lets a seat in
    await loadBeans();
    view = new TableView(root, { gameId, joining, host: new Companion.HostPanel(gameId, redraw) });
    document.addEventListener("companion:session", redraw);
    Companion.live(gameId, {
      state: (snapshot) => view.accept(snapshot),
      refused: (data) => {  // a phone hears of its own seat's refusals only
        const elsewhere = view.mySeat() !== null && data.event && data.event.player !== view.mySeat();
        if (!view.ownRefusal(data) && !elsewhere) Companion.alert(`${data.source}: ${data.error}`, { rule: data.rule });
      },
    });
  }

  Companion.TableView = TableView;
  Companion.loadBeans = loadBeans;
  if (document.body.dataset.page === "table") {
    document.addEventListener("DOMContentLoaded", () => { startTablePage(); });
  }
})();
