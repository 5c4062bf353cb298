"use strict";
/* The archive: every stored game (refreshed on the live "games" event), and record import. */
(() => {
  const { el } = Companion;
  const list = document.getElementById("games");

  function when(seconds) {
    return new Date(seconds * 1000).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
  }

  function row(game) {
    const title = game.title || `Game ${game.id}`;
    const kind = game.problem ? "cannot be opened" : game.game === "dice" ? "dice game" : game.ruleset;
    return el("li", { class: "game-row panel", dataset: { game: game.id } },
      el("div", { class: "game-info" },
        el("span", { class: "game-title" }, title, " · ", game.players.join(", ")),
        el("span", { class: "muted" }, `${kind} · ${game.events} event${game.events === 1 ? "" : "s"} · ${when(game.updated)}`)),
      el("span", { class: "game-state", dataset: { finished: game.finished ? "yes" : "no" } }, game.finished ? "finished" : "running"),
      el("div", { class: "game-actions" },
        el("a", { class: "button open", href: `/games/${game.id}` }, game.finished ? "Open" : "Resume"),
        el("a", { class: "button secondary replay", href: `/games/${game.id}/replay` }, "Replay"),
        el("a", { class: "button secondary export", href: `/api/games/${game.id}/record`, download: "" }, "Export")));
  }

  async function refresh() {
    const data = await Companion.attempt(Companion.get("/api/games"));
    if (!data) return;
    list.replaceChildren(...(data.games.length ? data.games.map(row)
      : [el("li", { class: "muted" }, "No games yet: start one with New game, or import a record.")]));
  }

  document.getElementById("import-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = document.getElementById("import-file");
    const error = document.getElementById("import-error");
    error.textContent = "";
    if (!file.files.length) {
      error.textContent = "Choose a record file first.";
      return;
    }
    const form = new FormData();
    form.append("record", file.files[0]);
    try {
      const game = await Companion.post("/api/games/import", form);
      Companion.alert(`Imported as game ${game.game_id}.`, { kind: "info" });
      file.value = "";
      refresh();
    } catch (err) {
      error.textContent = err.message;
    }
  });

  document.addEventListener("DOMContentLoaded", () => {
    refresh();
    Companion.live(null, { games: refresh });
  });
})();
