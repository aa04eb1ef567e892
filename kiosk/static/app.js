// The kiosk's shared browser code: API calls (with CSRF and PIN handling), live updates over
// Server-Sent Events, the message catalogue, tile drawing and the tile picker. No dependencies.
"use strict";
const K = (() => {
  const catalogue = JSON.parse(document.getElementById("catalogue").textContent);
  const t = (key, vars) => {
    let s = catalogue[key] || key;
    for (const [k, v] of Object.entries(vars || {})) s = s.replaceAll("{" + k + "}", v);
    return s;
  };
  const csrf = () => document.querySelector('meta[name="csrf-token"]').content;
  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (v === true) node.setAttribute(k, "");
      else if (v !== false && v != null) node.setAttribute(k, v);
    }
    for (const c of children.flat()) if (c != null) node.append(c);
    return node;
  };

  let toastTimer = null;
  function toast(message, bad) {
    const box = $("#toast");
    box.textContent = message;
    box.classList.toggle("bad", !!bad);
    box.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { box.hidden = true; }, bad ? 6000 : 2500);
  }

  class ApiError extends Error {
    constructor(status, body) {
      super(body.error || ("HTTP " + status));
      this.status = status; this.body = body;
    }
    get detail() {
      const p = (this.body.problems || []).join("; ");
      return p ? this.message + ": " + p : this.message;
    }
  }

  async function api(method, path, body, opts) {
    const init = { method, headers: { "X-CSRF-Token": csrf() }, credentials: "same-origin" };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const res = await fetch(path, init);
    const data = await res.json().catch(() => ({ error: res.statusText }));
    if (res.ok) return data;
    if (res.status === 401 && data.needs_pin && !(opts && opts.noPin)) {
      if (await askPin()) return api(method, path, body, { noPin: true });
    }
    throw new ApiError(res.status, data);
  }

  // Run an action, showing its error plainly instead of failing silently.
  async function act(fn, okMessage) {
    try {
      const out = await fn();
      if (okMessage) toast(okMessage);
      return out;
    } catch (e) {
      toast(e.detail || e.message, true);
      return null;
    }
  }

  function askPin() {
    const dialog = $("#pin-dialog");
    $("#pin-error").textContent = "";
    $("#pin-input").value = "";
    dialog.showModal();
    return new Promise((resolve) => {
      const form = $("#pin-form");
      const submit = async (ev) => {
        if (ev.submitter && ev.submitter.value === "cancel") { cleanup(); resolve(false); return; }
        ev.preventDefault();
        try {
          const out = await api("POST", "/api/session/pin", { pin: $("#pin-input").value },
                                { noPin: true });
          document.querySelector('meta[name="csrf-token"]').content = out.csrf;
          dialog.close(); cleanup(); resolve(true);
        } catch (e) { $("#pin-error").textContent = e.detail || e.message; }
      };
      const cleanup = () => form.removeEventListener("submit", submit);
      form.addEventListener("submit", submit);
    });
  }

  // Live state: one EventSource per page; listeners get every new state.
  const listeners = [];
  let lastState = null;
  function live(fn) {
    listeners.push(fn);
    if (lastState) fn(lastState);
  }
  function connect() {
    const dot = $("#live");
    const source = new EventSource("/api/events");
    source.addEventListener("state", (ev) => {
      lastState = JSON.parse(ev.data);
      dot.classList.add("on");
      for (const fn of listeners) fn(lastState);
    });
    source.onerror = () => dot.classList.remove("on");
  }

  // --- tiles --------------------------------------------------------------------------
  // Faces use plain digits and letters so they read without a CJK font; Japanese adds kanji.
  const JA = document.documentElement.lang === "ja";
  const HONOURS = JA ? ["", "東", "南", "西", "北", "白", "發", "中"]
                     : ["", "E", "S", "W", "N", "", "F", "C"];
  const SUIT_GLYPH = JA ? { m: "萬", p: "筒", s: "索" } : { m: "man", p: "pin", s: "sou" };
  const ALL_TILES = [];
  for (const s of "mps") for (let n = 1; n <= 9; n++) ALL_TILES.push(n + s);
  for (let n = 1; n <= 7; n++) ALL_TILES.push(n + "z");
  ALL_TILES.push("0m", "0p", "0s", "back");

  function tile(label, opts) {
    opts = opts || {};
    const classes = ["tile"];
    let face = "", suit = "";
    if (label === "back") classes.push("back");
    else {
      const n = +label[0], s = label[1];
      classes.push(s);
      if (n === 0) classes.push("red");
      if (s === "z") { face = HONOURS[n]; if (n >= 5) classes.push("dragon-" + n); }
      else { face = String(n || 5); suit = SUIT_GLYPH[s]; }
    }
    if (opts.low) classes.push("low");
    if (opts.changed) classes.push("changed");
    if (opts.sideways) classes.push("sideways");
    if (opts.big) classes.push("big");
    const title = opts.confidence != null
      ? label + " (" + Math.round(opts.confidence * 100) + "%)" : label;
    return el("button", { class: classes.join(" "), type: "button", title,
                          "data-tile": label, onclick: opts.onclick },
      el("span", { class: "face", text: face }), el("span", { class: "suit", text: suit }),
      el("span", { class: "label", text: label === "back" ? "" : label }));
  }
  function tileRow(labels, opts) {
    return el("div", { class: "tiles" }, labels.map((l) => tile(l, opts)));
  }

  // The tile picker: resolves with a label, "" to delete, or null when cancelled.
  function pickTile(current, allowDelete) {
    let dialog = $("#tile-picker");
    if (!dialog) {
      dialog = el("dialog", { id: "tile-picker" });
      document.body.append(dialog);
    }
    dialog.replaceChildren();
    return new Promise((resolve) => {
      const done = (v) => { dialog.close(); resolve(v); };
      dialog.append(el("h2", { text: t("picker.title") + (current ? " (" + current + ")" : "") }));
      dialog.append(el("div", { class: "picker" },
        ALL_TILES.map((l) => tile(l, { big: true, onclick: () => done(l) }))));
      dialog.append(el("div", { class: "row" },
        allowDelete ? el("button", { class: "btn danger", type: "button", text: t("picker.remove"),
                                     onclick: () => done("") }) : null,
        el("button", { class: "btn", type: "button", text: t("common.cancel"),
                       onclick: () => done(null) })));
      dialog.addEventListener("cancel", () => resolve(null), { once: true });
      dialog.showModal();
    });
  }

  const WINDS = () => [t("wind.1"), t("wind.2"), t("wind.3"), t("wind.4")];
  const fmt = (n) => (n > 0 ? "+" : "") + n.toLocaleString("en-US");
  const pts = (n) => n.toLocaleString("en-US");

  async function session() {
    const s = await api("GET", "/api/session");
    const button = $("#pin-button");
    if (button && !s.can_change) {
      button.hidden = false;
      button.onclick = async () => { if (await askPin()) location.reload(); };
    }
    return s;
  }

  document.addEventListener("DOMContentLoaded", () => { connect(); session(); });
  return { t, api, act, toast, live, tile, tileRow, pickTile, el, $, $$, WINDS, fmt, pts,
           ALL_TILES, askPin, session, get state() { return lastState; } };
})();
