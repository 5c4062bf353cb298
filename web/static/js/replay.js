"use strict";
/* The replay: a slider over a game's events; the state after N events is drawn read-only
   by the table's renderer. ?at=N in the address keeps the position over a reload. */
(() => {
  const bar = document.getElementById("replay");
  const gameId = Number(bar.dataset.game);
  const slider = document.getElementById("replay-slider");
  const label = document.getElementById("replay-at");
  let view = null;
  let shown = -1;
  let wanted = 0;
  let loading = false;

  /* Fetch and draw the state after ``at`` events; the latest request wins. */
  async function show(at) {
    wanted = Math.max(0, Math.min(at, Number(slider.max)));
    slider.value = String(wanted);
    if (loading) return;
    loading = true;
    while (shown !== wanted) {
      const target = wanted;
      const data = await Companion.attempt(Companion.get(`/api/games/${gameId}/replay?at=${target}`));
      if (!data) break;
      shown = target;
      view.draw({ state: data.state, events: data.at, change: data.event ? { kind: "move", event: data.event, text: data.event_text } : null });
      label.textContent = data.event
        ? `Event ${data.at} of ${data.events}: ${data.event_text}`
        : `Start of the game (${data.events} events in all)`;
      history.replaceState(null, "", `?at=${target}`);
    }
    loading = false;
  }

  function step(delta) { show(Number(slider.value) + delta); }

  document.addEventListener("DOMContentLoaded", async () => {
    await Companion.loadBeans();
    view = new Companion.TableView(document.getElementById("table"), { gameId, readOnly: true });
    const game = await Companion.attempt(Companion.get(`/api/games/${gameId}`));
    if (!game) return;
    slider.max = String(game.events);
    const asked = new URLSearchParams(location.search).get("at");
    show(asked !== null && /^\d+$/.test(asked) ? Number(asked) : game.events);
    slider.addEventListener("input", () => show(Number(slider.value)));
    document.getElementById("replay-first").onclick = () => show(0);
    document.getElementById("replay-prev").onclick = () => step(-1);
    document.getElementById("replay-next").onclick = () => step(1);
    document.getElementById("replay-last").onclick = () => show(Number(slider.max));
    Companion.live(gameId, {
      state: (snapshot) => {  // a running game grows: follow it when at the end
        const atEnd = Number(slider.value) === Number(slider.max);
        slider.max = String(snapshot.events);
        if (atEnd || Number(slider.value) > snapshot.events) show(snapshot.events);
      },
    });
  });
})();
