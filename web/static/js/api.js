"use strict";
/* The page's way to the server: JSON API calls with the CSRF token, the PIN dialog,
   alerts, and the bean catalogue. Every page script uses window.Companion. */
const Companion = (() => {
  let csrf = null;
  let editor = false;
  let seat = null;  // the seat this phone joined with the table's join code: {game_id, seat, name}
  let seatEnded = null;  // why it holds its seat no more (the host revoked the join code)
  let beanCache = null;

  class ApiError extends Error {
    constructor(status, data) {
      super((data && data.error) || `request failed (${status})`);
      this.status = status;
      this.rule = data ? data.rule : undefined;
      this.data = data || {};
    }
  }

  function updatePinButton() {
    const button = document.getElementById("pin-button");
    if (!button) return;
    button.textContent = editor ? "Unlocked" : "Enter PIN";
    button.dataset.editor = editor ? "yes" : "no";
    document.body.dataset.editor = editor ? "yes" : "no";
  }

  /* Read who this browser is; a change of editor or seat is announced (companion:session) so pages redraw. */
  async function refreshSession() {
    const response = await fetch("/api/session", { credentials: "same-origin" });
    const data = await response.json();
    const before = JSON.stringify([editor, seat, seatEnded]);
    csrf = data.csrf_token;
    editor = data.editor;
    seat = data.seat || null;
    seatEnded = data.seat_ended || null;
    updatePinButton();
    if (JSON.stringify([editor, seat, seatEnded]) !== before) document.dispatchEvent(new Event("companion:session"));
    return data;
  }

  /* A read; when the server was started with --private it needs the PIN too, asked for as for a change. */
  async function get(path, retried = false) {
    const response = await fetch(path, { credentials: "same-origin" });
    const data = await response.json().catch(() => ({ error: response.statusText }));
    if (response.status === 403 && data.need_pin && !retried && (await askPin(data.error))) return get(path, true);
    if (!response.ok) throw new ApiError(response.status, data);
    return data;
  }

  async function request(method, path, body, retried = false) {
    if (!csrf) await refreshSession();
    const options = { method, credentials: "same-origin", headers: { "X-CSRF-Token": csrf } };
    if (body instanceof FormData) {
      options.body = body;
    } else if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(path, options);
    const data = await response.json().catch(() => ({ error: response.statusText }));
    if (response.status === 403 && !retried) {
      if (data.need_csrf) {
        await refreshSession();
        return request(method, path, body, true);
      }
      if (data.need_pin && (await askPin())) return request(method, path, body, true);
    }
    if (response.status === 403 && data.seat_ended) await refreshSession();  // the page turns into a watcher's
    if (!response.ok) throw new ApiError(response.status, data);
    return data;
  }

  /* Ask for the PIN (once, however many calls are waiting for it); resolves whether it was entered. */
  let pinAsked = null;
  function askPin(reason = "") {
    if (!pinAsked) pinAsked = promptPin(reason).finally(() => { pinAsked = null; });
    return pinAsked;
  }

  function promptPin(reason) {
    const dialog = document.getElementById("pin-dialog");
    const form = document.getElementById("pin-form");
    const input = document.getElementById("pin-input");
    const error = document.getElementById("pin-error");
    error.textContent = reason;
    input.value = "";
    return new Promise((resolve) => {
      const finish = (ok) => {
        form.onsubmit = null;
        document.getElementById("pin-cancel").onclick = null;
        if (dialog.open) dialog.close();
        resolve(ok);
      };
      form.onsubmit = async (event) => {
        event.preventDefault();
        try {
          await request("POST", "/api/session", { pin: input.value }, true);
          editor = true;
          updatePinButton();
          document.dispatchEvent(new Event("companion:unlocked"));  // a stream refused for want of the PIN asks again
          document.dispatchEvent(new Event("companion:session"));
          finish(true);
        } catch (err) {
          error.textContent = err.message;
          input.select();
        }
      };
      document.getElementById("pin-cancel").onclick = () => finish(false);
      dialog.showModal();
      input.focus();
    });
  }

  /* Show a message in the alert strip; errors name the rule a move broke. */
  function alert(message, { rule = null, kind = "error", timeout = kind === "error" ? 12000 : 5000 } = {}) {
    const strip = document.getElementById("alerts");
    if (!strip) return;
    const item = document.createElement("div");
    item.className = `alert alert-${kind}`;
    const text = document.createElement("span");
    text.textContent = message;
    item.append(text);
    if (rule) {
      const tag = document.createElement("code");
      tag.className = "rule";
      tag.textContent = rule;
      item.append(tag);
    }
    const close = document.createElement("button");
    close.type = "button";
    close.className = "alert-close";
    close.setAttribute("aria-label", "Dismiss");
    close.textContent = "×";
    close.onclick = () => item.remove();
    item.append(close);
    strip.prepend(item);
    if (timeout) setTimeout(() => item.remove(), timeout);
  }

  /* Run an API call; on failure show the reason (and rule) and return null. */
  async function attempt(promise) {
    try {
      return await promise;
    } catch (err) {
      alert(err.message, { rule: err.rule });
      return null;
    }
  }

  async function beans() {
    if (!beanCache) {
      const data = await get("/api/beans");
      beanCache = Object.fromEntries(data.beans.map((b) => [b.id, b]));
    }
    return beanCache;
  }

  function beanImg(id, className = "bean-img") {
    const img = document.createElement("img");
    img.src = `/static/beans/${id}.svg`;
    img.alt = id;
    img.className = className;
    img.draggable = false;
    return img;
  }

  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "dataset") Object.assign(node.dataset, value);
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  document.addEventListener("DOMContentLoaded", () => {
    const button = document.getElementById("pin-button");
    if (button) {
      button.addEventListener("click", async () => {
        if (editor) {
          await request("DELETE", "/api/session");
          await refreshSession();
        } else {
          await askPin();
        }
      });
    }
    refreshSession().catch(() => {});
  });

  return {
    ApiError, get, request, askPin, alert, attempt, beans, beanImg, el, refreshSession,
    post: (path, body) => request("POST", path, body),
    isEditor: () => editor,
    seat: () => seat,
    seatEnded: () => seatEnded,
  };
})();
window.Companion = Companion;
