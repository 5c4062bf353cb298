"use strict";
/* Players' phones on the table page: what a phone sees when it opens the table's join link (which seat is
   yours?), the line saying which seat it plays or why it only watches, and the host's panel with the QR code
   of the join link and the buttons that renew or withdraw the join code. table.js draws them in its view. */
(() => {
  const { el } = Companion;

  /* The phone's side: ?join=CODE (and ?seat=N) in the address, the seat taken or left. */
  class Joining {
    constructor(gameId, redraw) {
      const params = new URLSearchParams(window.location.search);
      this.gameId = gameId;
      this.redraw = redraw;
      this.code = params.get("join");
      this.seatAsked = /^\d+$/.test(params.get("seat") || "") ? Number(params.get("seat")) : null;
      this.refused = null;
      if (this.code !== null) window.history.replaceState(null, "", window.location.pathname);  // not left in the address bar
    }

    /* Opened with a join link: the seat taken (the link's, or the one tapped in root), or watching chosen. The page
       starts watching after this, so that a table that needs the PIN to watch lets the phone in with its seat. */
    async chosen(names, root) {
      if (!this.code) return;
      if (this.seatAsked === null) {
        this.seatAsked = await new Promise((resolve) => root.replaceChildren(this.chooser(names, resolve)));
      }
      root.replaceChildren(el("p", { class: "muted" }, "Loading the table…"));
      if (this.seatAsked !== null) await this.take(this.seatAsked);
      this.code = null;
    }

    /* This phone's seat in this game (null: it plays none here). */
    seat() {
      const held = Companion.seat();
      return held && held.game_id === this.gameId ? held.seat : null;
    }

    /* Why this phone only watches: its join code was revoked, or a join was refused (null if neither). */
    ended() { return this.seat() === null ? (this.refused || Companion.seatEnded()) : null; }

    /* The top of the page: the seat this phone plays, or why it watches. */
    render(names) {
      const seat = this.seat();
      if (seat !== null) {
        return el("div", { class: "seat-bar", id: "seat-bar" },
          el("span", {}, "This phone plays ", el("b", {}, names[seat]), "'s seat."),
          el("button", { type: "button", class: "secondary", id: "leave-seat", onclick: () => this.leave() }, "Leave seat"));
      }
      const ended = this.ended();
      return ended ? el("div", { class: "seat-bar ended", id: "seat-ended", role: "status" }, ended) : null;
    }

    /* Which seat is yours? One button per player; pick(seat), or pick(null) to watch. */
    chooser(names, pick) {
      return el("section", { class: "panel join-chooser", id: "join-chooser" },
        el("h2", {}, "Which seat is yours?"),
        el("div", { class: "row" }, names.map((name, seat) => el("button", {
          type: "button", class: "join-seat", dataset: { seat }, onclick: () => pick(seat),
        }, name)), el("button", { type: "button", class: "secondary", id: "just-watch", onclick: () => pick(null) }, "Just watch")));
    }

    async take(seat) {
      try {
        await Companion.post("/api/join", { code: this.code, game: this.gameId, seat });
        this.refused = null;
      } catch (err) {
        this.refused = err.message;
      }
      await Companion.refreshSession();
      this.redraw();
    }

    async leave() {
      await Companion.attempt(Companion.request("DELETE", "/api/join"));
      await Companion.refreshSession();
      this.redraw();
    }
  }

  /* The host's side (a browser with the PIN): the QR code of the join link, the seats phones hold, new code, stop. */
  class HostPanel {
    constructor(gameId, redraw) {
      this.gameId = gameId;
      this.redraw = redraw;
      this.open = false;
      this.data = null;
      document.addEventListener("companion:joins", () => { if (this.open) this.load(); });
    }

    render(names) {
      if (!Companion.isEditor()) return null;
      const toggle = el("button", {
        type: "button", class: "secondary phones-toggle", id: "phones-toggle", "aria-expanded": this.open ? "true" : "false",
        onclick: () => { this.open = !this.open; if (this.open) this.load(); this.redraw(); },
      }, `${this.open ? "▾" : "▸"} Players' phones`);
      return el("section", { class: "panel phones", id: "phones" }, toggle, this.open ? this.body(names) : null);
    }

    body(names) {
      const d = this.data;
      if (!d) return el("p", { class: "muted" }, "…");
      if (!d.code) {
        return el("div", { class: "phones-body" },
          el("p", {}, "No join code: no phone may join. With one, each player scans the QR code, taps a name, and that "
            + "phone shows the player's fields and makes the player's moves, without the PIN."),
          el("button", { type: "button", id: "join-renew", onclick: () => this.change("POST") }, "Hand out a join code"));
      }
      return el("div", { class: "phones-body" },
        el("img", { class: "join-qr", id: "join-qr", alt: "QR code of the join link",
          src: `/api/join/qr?game=${this.gameId}&code=${encodeURIComponent(d.code)}` }),
        el("div", { class: "phones-text" },
          el("p", {}, "Each player scans this with a phone and taps their name: no PIN needed."),
          el("a", { class: "join-link", id: "join-link", href: d.link }, d.link),
          d.loopback ? el("p", { class: "phones-warning", id: "join-loopback" }, d.loopback) : null,
          el("p", { id: "seats-held" }, heldLine(d.held, names)),
          el("div", { class: "row" },
            el("button", { type: "button", class: "secondary", id: "join-renew", onclick: () => this.change("POST") }, "New code"),
            el("button", { type: "button", class: "danger", id: "join-withdraw", onclick: () => this.change("DELETE") }, "Stop joining")),
          el("p", { class: "hint" }, "A new code, or stopping, turns every phone that joined with this one into a watcher at once.")));
    }

    async load() {
      const data = await Companion.attempt(Companion.get(`/api/join?game=${this.gameId}`));
      if (data) this.data = data;
      this.redraw();
    }

    async change(method) {
      const data = await Companion.attempt(Companion.request(method, `/api/join/code?game=${this.gameId}`));
      if (data) this.data = data;
      this.redraw();
    }
  }

  /* "Phones: Ann, Ben (2)": who plays from a phone now. */
  function heldLine(held, names) {
    const seats = Object.entries(held).map(([seat, n]) => `${names[Number(seat)]}${n > 1 ? ` (${n})` : ""}`);
    return seats.length ? `Phones now: ${seats.join(", ")}` : "No phone has joined yet.";
  }

  Companion.Joining = Joining;
  Companion.HostPanel = HostPanel;
})();
