"use strict";
/* The live stream: one EventSource per page; hardware status drawn inline in the top bar.
   Companion.live(gameId, {state, refused, games, hardware}) calls the handlers as events come. */
(() => {
  function setHw(id, state, text) {
    const node = document.getElementById(id);
    if (!node) return;
    node.dataset.state = state;
    node.textContent = text;
  }

  function drawHardware(status) {
    const dice = status.dice || {};
    const rejects = Object.values(dice.rejects || {}).reduce((a, b) => a + b, 0);
    let diceText = dice.state === "online" ? `dice online${dice.device ? ": " + dice.device : ""}`
      : dice.state === "none" ? "dice: manual entry" : (dice.message || "dice offline");
    if (rejects) diceText += ` · ${rejects} rejected line${rejects === 1 ? "" : "s"}`;
    setHw("hw-dice", dice.state || "none", diceText);
    const camera = status.camera || {};
    setHw("hw-camera", camera.state || "none", camera.state === "none" ? "camera: manual entry" : (camera.message || "camera"));
  }

  function live(gameId, handlers = {}) {
    const url = gameId === null || gameId === undefined ? "/api/live" : `/api/live?game=${gameId}`;
    let source = null;
    let retryTimer = null;
    const on = (name, fn) => source.addEventListener(name, (msg) => fn(JSON.parse(msg.data)));
    function connect() {
      source = new EventSource(url);
      setHw("hw-live", "connecting", "live: connecting");
      source.onopen = () => setHw("hw-live", "online", "live");
      source.onerror = () => {
        setHw("hw-live", "offline", "live: reconnecting");
        if (source.readyState === EventSource.CLOSED) {
          clearTimeout(retryTimer);
          retryTimer = setTimeout(connect, 1000);
        }
      };
      on("hardware", (data) => { drawHardware(data); if (handlers.hardware) handlers.hardware(data); });
      on("state", (data) => { if (handlers.state) handlers.state(data); });
      on("games", (data) => { if (handlers.games) handlers.games(data); });
      on("refused", (data) => {
        if (handlers.refused) handlers.refused(data);
        else if (data.source !== "tablet") Companion.alert(`${data.source}: ${data.error}`, { rule: data.rule });
      });
      on("stale", () => { source.close(); connect(); });
    }
    connect();
    return { close: () => { clearTimeout(retryTimer); if (source) source.close(); } };
  }

  Companion.live = live;
  Companion.drawHardware = drawHardware;
})();
