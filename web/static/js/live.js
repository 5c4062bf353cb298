"use strict";
/* The live stream: one EventSource per page; hardware status drawn inline in the top bar.
   Companion.live(gameId, {state, refused, games, hardware}) calls the handlers as events come, and returns
   {close, unlessStreamed}.
   A server with all its streams taken refuses more (503, which an EventSource cannot read: it just
   closes); the page then polls its game (or the archive its list) every few seconds and asks for a stream
   again later. */
(() => {
  const POLL_MS = 3000;
  const REFUSED_RETRY_MS = 10000;  // the server's Retry-After for a refused stream (RETRY_AFTER_S in web/live.py)

  function setHw(id, state, text, detail = "") {
    const node = document.getElementById(id);
    if (!node) return;
    node.dataset.state = state;
    node.textContent = text;
    node.title = detail || text;
  }

  function drawHardware(status) {
    const dice = status.dice || {};
    const rejects = Object.values(dice.rejects || {}).reduce((a, b) => a + b, 0);
    // short in the top bar (one line on a phone); the whole message is its title and, offline, on the dice page
    let diceText = dice.state === "online" ? `dice online${dice.device ? ": " + dice.device : ""}`
      : dice.state === "none" ? "dice: manual entry" : `dice ${dice.state === "error" ? "error" : "offline"}`;
    if (rejects) diceText += ` · ${rejects} rejected line${rejects === 1 ? "" : "s"}`;
    setHw("hw-dice", dice.state || "none", diceText, dice.message);
    const camera = status.camera || {};
    setHw("hw-camera", camera.state || "none", camera.state === "none" ? "camera: manual entry" : (camera.message || "camera"));
  }

  function live(gameId, handlers = {}) {
    const game = gameId !== null && gameId !== undefined;
    const url = game ? `/api/live?game=${gameId}` : "/api/live";
    let source = null;
    let retryTimer = null;
    let pollTimer = null;
    let shown = null;  // revision and event count of the last state handed on, so a poll hands on only news
    let heard = 0;  // hardware statuses the stream has told
    const on = (name, fn) => source.addEventListener(name, (msg) => fn(JSON.parse(msg.data)));
    function handOn(snapshot) {
      shown = `${snapshot.revision}:${snapshot.events}`;
      if (handlers.state) handlers.state(snapshot);
    }
    async function poll() {
      if (!game) {  // the archive: its handler reloads the list
        if (handlers.games) handlers.games({ game_id: null, change: "poll" });
        return;
      }
      const snapshot = await Companion.get(`/api/games/${gameId}`).catch(() => null);  // the next poll tries again
      if (snapshot && pollTimer !== null && `${snapshot.revision}:${snapshot.events}` !== shown) {
        handOn({ ...snapshot, change: { kind: "connect", event: null } });  // a whole fresh state: drawn as is
      }
    }
    function stopPolling() { clearInterval(pollTimer); pollTimer = null; }
    /* The stream was refused (or the game is gone): poll meanwhile, and ask again after the server's Retry-After. */
    function fallBack() {
      setHw("hw-live", "polling", "live: not connected, checking every few seconds");
      if (pollTimer === null) {
        pollTimer = setInterval(poll, POLL_MS);
        poll();
      }
      clearTimeout(retryTimer);
      retryTimer = setTimeout(connect, REFUSED_RETRY_MS * (1 + Math.random() / 2));  // spread, so not all ask at once
    }
    function connect() {
      source = new EventSource(url);
      if (pollTimer === null) setHw("hw-live", "connecting", "live: connecting");
      source.onopen = () => { stopPolling(); setHw("hw-live", "online", "live"); };
      source.onerror = () => {
        if (source.readyState === EventSource.CLOSED) fallBack();
        else setHw("hw-live", "offline", "live: reconnecting");
      };
      on("hardware", (data) => { heard += 1; drawHardware(data); if (handlers.hardware) handlers.hardware(data); });
      on("state", handOn);
      on("games", (data) => { if (handlers.games) handlers.games(data); });
      on("joins", (data) => {  // a join code renewed or withdrawn, a phone joined or left: phones re-read their seat
        Companion.refreshSession().catch(() => {});
        document.dispatchEvent(new CustomEvent("companion:joins", { detail: data }));
      });
      on("refused", (data) => {
        if (handlers.refused) handlers.refused(data);
        else if (data.source !== "tablet") Companion.alert(`${data.source}: ${data.error}`, { rule: data.rule });
      });
      on("stale", () => { source.close(); connect(); });
    }
    connect();
    document.addEventListener("companion:unlocked", () => {  // with --private, a stream needs the PIN: now it may open
      if (pollTimer !== null || source.readyState === EventSource.CLOSED) { clearTimeout(retryTimer); source.close(); connect(); }
    });
    const close = () => { clearTimeout(retryTimer); stopPolling(); if (source) source.close(); };
    /* A page left behind must give its stream back: a browser holds only six connections to one server,
       so streams of pages kept in the back-forward cache would starve the next page's requests. */
    window.addEventListener("pagehide", close);
    window.addEventListener("pageshow", (event) => { if (event.persisted) connect(); });
    /* A hardware status fetched beside the stream: null when the stream told one while it was on its way, as the
       stream's may be the newer (and the stream tells every later change). */
    async function unlessStreamed(fetched) {
      const before = heard;
      const status = await fetched;
      return heard === before ? status : null;
    }
    return { close, unlessStreamed };
  }

  Companion.live = live;
  Companion.drawHardware = drawHardware;
})();
