"use strict";
/* New game: pick the game, its ruleset and options (as /api/rulesets offers them),
   the players in seating order and who starts; POST /api/games, then open the table. */
(() => {
  const { el } = Companion;
  const form = {
    catalog: [],
    game: null,
    ruleset: null,
    options: {},
    modules: new Set(),
    cardData: {},
    players: [{ name: "" }, { name: "" }, { name: "" }],
    starter: null,
  };

  const gameEntry = () => form.catalog.find((g) => g.game === form.game);
  const rulesetEntry = () => gameEntry().rulesets.find((r) => r.name === form.ruleset);

  function chooseGame(game) {
    form.game = game;
    chooseRuleset(gameEntry().rulesets[0].name);
  }

  function chooseRuleset(name) {
    form.ruleset = name;
    const rules = rulesetEntry();
    form.options = Object.fromEntries(rules.options.map((o) => [o.name, o.default]));
    form.modules = new Set();
    form.cardData = {};
    while (form.players.length < rules.min_players) form.players.push({ name: "" });
    while (form.players.length > rules.max_players) form.players.pop();
    if (!form.players.includes(form.starter)) form.starter = form.players[0];
    draw();
  }

  function choiceButton(label, detail, chosen, onclick, data) {
    return el("button", { type: "button", class: `choice${chosen ? " chosen" : ""}`, "aria-pressed": chosen ? "true" : "false", dataset: data, onclick },
      el("span", {}, label, detail ? el("small", {}, detail) : null));
  }

  /* Each option as a list to choose from, with the sentence that says what the chosen value means. */
  function drawOptions(rules) {
    return rules.options.map((option) => {
      const id = `option-${option.name}`;
      const aboutOf = (value) => (option.choices.find((c) => c.value === value) || {}).about || "";
      const about = el("p", { class: "option-about", id: `${id}-about` }, aboutOf(form.options[option.name]));
      const select = el("select", { id, name: option.name, "aria-describedby": about.id, onchange: (e) => {
        form.options[option.name] = e.target.value;
        about.textContent = aboutOf(e.target.value);
      } },
      option.choices.map(({ value, about: sentence }) => el("option", { value, title: sentence, selected: form.options[option.name] === value },
        value === option.default ? `${value} (default)` : value)));
      return el("div", { class: "option-row" }, el("label", { for: id }, option.title || option.name.replace(/_/g, " ")), select, about);
    });
  }

  /* The modules the books allow with this ruleset and player count, each a checkbox with its sentence. */
  function drawModules() {
    const allowed = (gameEntry().modules || []).filter((m) => (m.with[form.ruleset] || []).includes(form.players.length));
    for (const name of [...form.modules]) if (!allowed.some((m) => m.name === name)) form.modules.delete(name);
    return allowed.map((module) => {
      const id = `module-${module.name}`;
      const box = el("input", { type: "checkbox", id, name: "modules", value: module.name, checked: form.modules.has(module.name),
        onchange: (e) => { if (e.target.checked) form.modules.add(module.name); else form.modules.delete(module.name); } });
      return el("div", { class: "option-row module-row" }, box,
        el("label", { for: id }, el("b", {}, module.title), " ", el("small", {}, module.about)));
    });
  }

  /* High Bohn: what the group's own cards print where the book does not (beanometers, the banks' actions),
     the documented default filled in and marked; only the values changed are sent (options.card_data). */
  function drawCardData(rules) {
    if (!rules.card_data) return [];
    const changed = (card, value, defaults) => {
      if (JSON.stringify(value) === JSON.stringify(defaults)) delete form.cardData[card];
      else form.cardData[card] = value;
    };
    const rows = Object.entries(rules.card_data.cards).map(([card, entry]) => {
      const id = `card-${card}`;
      let editor;
      if (entry.beanometer) {
        const steps = [...entry.beanometer];
        editor = el("span", { class: "steps" }, steps.map((step, i) => el("input", {
          type: "number", min: 1, max: 30, value: step ?? "", class: "step", "aria-label": `${entry.title}: cards for ${i + 1} thaler${i ? "s" : ""}`,
          oninput: (e) => { steps[i] = e.target.value === "" ? null : Number(e.target.value); changed(card, { beanometer: [...steps] }, { beanometer: entry.beanometer }); },
        })), el("small", {}, " cards for 1, 2, 3, 4 thalers"));
      } else {
        const action = { ...entry.action };
        const update = () => changed(card, { action: { ...action } }, { action: entry.action });
        editor = el("span", { class: "action" },
          el("select", { "aria-label": `${entry.title}: when`, onchange: (e) => { action.when = e.target.value; update(); } },
            Object.entries(rules.card_data.when).map(([when, text]) => el("option", { value: when, selected: when === action.when }, text))),
          el("input", { type: "number", min: 0, max: 9, value: action.thalers, class: "step", "aria-label": `${entry.title}: thalers`,
            oninput: (e) => { action.thalers = Number(e.target.value); update(); } }),
          el("small", {}, " thalers from the discard pile"));
      }
      return el("div", { class: "option-row card-data-row", id, dataset: { card } },
        el("b", {}, entry.title), " ", editor, el("p", { class: "option-about" }, entry.source));
    });
    return [el("details", { class: "card-data", id: "card-data" },
      el("summary", {}, "Values printed on your cards (the book does not print them)"), rows)];
  }

  function move(index, delta) {
    const to = index + delta;
    if (to < 0 || to >= form.players.length) return;
    [form.players[index], form.players[to]] = [form.players[to], form.players[index]];
    draw();
  }

  function drawPlayers(rules) {
    const count = form.players.length;
    return form.players.map((player, index) => el("li", { class: "player-row", dataset: { seat: index } },
      el("span", { class: "seat-no" }, index + 1),
      el("input", {
        type: "text", class: "player-name", value: player.name, placeholder: `Player ${index + 1}`, maxlength: 24,
        "aria-label": `name of player ${index + 1}`, oninput: (e) => { player.name = e.target.value; },
      }),
      el("label", { class: "start-mark" },
        el("input", { type: "radio", name: "start", class: "start-player", checked: form.starter === player,
          onchange: () => { form.starter = player; } }), " starts"),
      el("button", { type: "button", class: "secondary move-up", "aria-label": "move up", disabled: index === 0, onclick: () => move(index, -1) }, "↑"),
      el("button", { type: "button", class: "secondary move-down", "aria-label": "move down", disabled: index === count - 1, onclick: () => move(index, 1) }, "↓"),
      el("button", {
        type: "button", class: "secondary remove-player", "aria-label": "remove", disabled: count <= rules.min_players,
        onclick: () => {
          form.players.splice(index, 1);
          if (!form.players.includes(form.starter)) form.starter = form.players[0];
          draw();
        },
      }, "✕")));
  }

  function draw() {
    const rules = rulesetEntry();
    document.getElementById("game-choices").replaceChildren(...form.catalog.map((g) =>
      choiceButton(g.title, null, g.game === form.game, () => chooseGame(g.game), { game: g.game })));
    document.getElementById("ruleset-choices").replaceChildren(...gameEntry().rulesets.map((r) =>
      choiceButton(r.title, `${r.min_players}–${r.max_players} players${r.about ? ` · ${r.about}` : ""}`, r.name === form.ruleset, () => chooseRuleset(r.name), { ruleset: r.name })));
    document.getElementById("ruleset-options").replaceChildren(...drawOptions(rules), ...(form.game === "bohnanza" ? drawModules() : []),
      ...drawCardData(rules));
    document.getElementById("player-limits").textContent = `${rules.min_players} to ${rules.max_players} players. Tap "starts" for the start player.`;
    document.getElementById("players").replaceChildren(...drawPlayers(rules));
    document.getElementById("add-player").disabled = form.players.length >= rules.max_players;
  }

  async function start(event) {
    event.preventDefault();
    const error = document.getElementById("new-error");
    error.textContent = "";
    const players = form.players.map((p, i) => p.name.trim() || `Player ${i + 1}`);
    const options = { ...form.options };
    if (form.modules.size) options.modules = [...form.modules];
    if (Object.keys(form.cardData).length) options.card_data = form.cardData;
    const body = { game: form.game, ruleset: form.ruleset, players, start_player: form.players.indexOf(form.starter), options };
    const title = document.getElementById("game-title").value.trim();
    if (title) body.meta = { title };
    try {
      const game = await Companion.post("/api/games", body);
      location.href = `/games/${game.game_id}`;
    } catch (err) {
      error.textContent = err.message;
    }
  }

  document.addEventListener("DOMContentLoaded", async () => {
    const data = await Companion.attempt(Companion.get("/api/rulesets"));
    if (!data) return;
    form.catalog = data.games;
    form.starter = form.players[0];
    document.getElementById("add-player").addEventListener("click", () => {
      if (form.players.length < rulesetEntry().max_players) form.players.push({ name: "" });
      draw();
    });
    document.getElementById("new-game-form").addEventListener("submit", start);
    chooseGame(form.catalog[0].game);
    Companion.live(null, {});
  });
})();
