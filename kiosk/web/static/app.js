// The kiosk's shared browser code: API calls (with CSRF and PIN handling), live updates over
// Server-Sent Events, the message catalogue, tile drawing and the tile picker. No dependencies.
"use strict";
const K = (() => {
  const words = document.getElementById("catalogue");
  const catalogue = JSON.parse(words.textContent);
  // An entry with a plural is its forms, in the order of the language's CLDR categories
  // (data-plural, from kiosk/words/i18n.py): the count n picks one, as gettext does there.
  const pluralTags = words.dataset.plural.split(" ");
  const plural = new Intl.PluralRules(document.documentElement.lang);
  const t = (key, vars) => {
    let s = catalogue[key] || key;
    if (Array.isArray(s)) {
      const n = vars && vars.n !== undefined ? Number(vars.n) : NaN;
      s = s[Number.isNaN(n) ? s.length - 1 : Math.max(0, pluralTags.indexOf(plural.select(n)))];
    }
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

  // One toast at a time, over the header bar (never over a result): a new one replaces it, a
  // tap puts it away, a good result clears an error. `action` ({label, run}) adds a button.
  let toastTimer = null;
  let undoFor = null;  // {game, events}: the change the toast's Undo takes back
  function hideToast() {
    const box = $("#toast");
    clearTimeout(toastTimer);
    undoFor = null;
    box.hidden = true;
    box.classList.remove("bad");
    box.replaceChildren();
  }
  function toast(message, bad, action) {
    const box = $("#toast");
    undoFor = null;
    box.replaceChildren(el("span", { text: message, title: message }));
    if (action) {
      box.append(el("button", { class: "btn small", type: "button", id: "toast-action",
        text: action.label, onclick: (ev) => { ev.stopPropagation(); hideToast(); action.run(); } }));
    }
    box.classList.toggle("bad", !!bad);
    box.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(hideToast, action ? 8000 : bad ? 6000 : 2500);
  }
  function clearError() {
    if ($("#toast").classList.contains("bad")) hideToast();
  }

  class ApiError extends Error {
    constructor(status, body) {
      // A refusal the web server gave before the session was read (kiosk/serve/server.py) is English:
      // a page in another language words it from its code, as kiosk/errors.py does. An English
      // session's refusal comes with `said`, its player's words (the API's `error` is for scripts).
      const own = body.untranslated && document.documentElement.lang !== "en"
        && catalogue["err." + body.code];
      super(own ? t("err." + body.code, body.words)
        : (body.said && body.said.error) || body.error || ("HTTP " + status));
      this.status = status; this.body = body;
    }
    get detail() {
      // Joined as the page's language writes it, each problem said once.
      const said = (this.body.said && this.body.said.problems) || this.body.problems || [];
      const p = [...new Set(said)].join(t("err.problems_sep"));
      return p ? t("err.with_problems", { message: this.message, problems: p }) : this.message;
    }
  }

  // A change's Idempotency-Key (docs/api.md): 128 random bits. getRandomValues, as
  // crypto.randomUUID needs a secure context and a phone opens the kiosk over plain http.
  const newKey = () => Array.from(crypto.getRandomValues(new Uint8Array(16)),
    (b) => b.toString(16).padStart(2, "0")).join("");

  // Every change carries a key: the action's (`opts.key`, see `action`), else one of its own.
  async function api(method, path, body, opts) {
    const init = { method, headers: { "X-CSRF-Token": csrf() }, credentials: "same-origin" };
    if (method !== "GET") init.headers["Idempotency-Key"] = (opts && opts.key) || newKey();
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const res = await fetch(path, init);
    const data = await res.json().catch(() => ({ error: res.statusText }));
    if (res.ok) return data;
    if (res.status === 401 && data.needs_pin && !(opts && opts.noPin)) {
      if (await askPin()) return api(method, path, body, { ...opts, noPin: true });
    }
    throw new ApiError(res.status, data);
  }

  // Run an action, showing its error plainly instead of failing silently.
  async function act(fn, okMessage) {
    try {
      const out = await fn();
      if (okMessage) toast(okMessage); else clearError();
      return out;
    } catch (e) {
      toast(e.detail || e.message, true);
      return null;
    }
  }

  // One user action (Apply, Record the draw, a chombo...): `fn(key)` makes its request with
  // `{ key }`. While it is in flight the action is off and its button disabled, so a double tap
  // sends once; every try sends the same key until one is answered, so a retry after a lost
  // answer is recorded once (the kiosk answers it with the first answer).
  // Once a change has been recorded and the page is leaving, nothing more is sent from it.
  let leaving = false;
  function leave(url, replace) {
    leaving = true;
    if (replace) location.replace(url); else location.href = url;
  }
  function action(fn, okMessage) {
    let key = null, busy = false;
    return async (ev) => {
      if (busy || leaving) return null;
      const button = ev && (ev.submitter || ev.currentTarget);
      const off = button instanceof HTMLButtonElement ? button : null;
      busy = true;
      if (off) off.disabled = true;
      key = key || newKey();
      try {
        const out = await act(() => fn(key), okMessage);
        if (out) key = null;  // answered: the next tap is a new action
        return out;
      } finally {
        busy = false;
        if (off && !leaving) off.disabled = false;
      }
    };
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
  let streaming = false;
  const where = (s) => (s && s.game ? s.game.id + "/" + s.game.events : "");
  function live(fn) {
    listeners.push(fn);
    if (lastState) fn(lastState);
  }
  function take(s) {
    const before = lastState;
    lastState = s;
    if (before && where(before) !== where(s)) clearError();  // a new result: old errors go
    if (undoFor && where(s) !== undoFor.game + "/" + undoFor.events) hideToast();
    for (const fn of listeners) fn(s);
    gate(s);
  }
  // A change's answer (a State) shown at once when the live stream is down; while it is up, the
  // stream brings the same state in order with everyone else's.
  function offer(s) {
    if (s && s.seats && !streaming) take(s);
    return s;
  }
  function connect() {
    const dot = $("#live");
    const source = new EventSource("/api/events");
    source.addEventListener("state", (ev) => {
      streaming = true;
      dot.classList.add("on");
      take(JSON.parse(ev.data));
    });
    source.onerror = () => { streaming = false; dot.classList.remove("on"); };
  }

  // The net under one-tap changes (riichi, chombo, draws, wins, corrections): the change applies
  // at once and a toast offers to take it back for 8 s. The Undo names the state the change
  // answered, so it never drops a change another device recorded since (the server answers 409).
  function undoable(message, s) {
    if (!s || !s.game) { toast(message); return; }
    const mark = { game: s.game.id, events: s.game.events };
    toast(message, false, { label: t("table.undo"),
      run: () => act(() => api("POST", "/api/undo", mark), t("table.undone")).then(offer) });
    undoFor = mark;
  }
  // A page that recorded a change goes back to the table (replacing itself in the history, so
  // Back cannot apply it twice); the table's toast says what was recorded and offers the Undo.
  const CARRIED = "kiosk.carried";
  function backToTable(message, s) {
    try {
      sessionStorage.setItem(CARRIED, JSON.stringify({ message, at: Date.now(),
        game: s && s.game ? { id: s.game.id, events: s.game.events } : null }));
    } catch (e) { /* no session storage: the table shows the change without the toast */ }
    leave("/", true);
  }
  function pickUp() {
    let carried = null;
    try {
      carried = JSON.parse(sessionStorage.getItem(CARRIED));
      sessionStorage.removeItem(CARRIED);
    } catch (e) { carried = null; }
    if (carried && Date.now() - carried.at < 15000) undoable(carried.message, carried);
  }

  // After the game has ended nothing can be recorded: what would record ([data-needs-game])
  // looks off and, tapped, says why; Undo, New game and Standings stay.
  let over = false;
  function gate(s) {
    over = !!(s && s.finished);
    for (const node of $$("[data-needs-game]")) {
      if (over) node.setAttribute("aria-disabled", "true");
      else node.removeAttribute("aria-disabled");
    }
    const note = $("#over-note");
    if (note) note.hidden = !over;
  }
  document.addEventListener("click", (ev) => {
    if (!over || !ev.target.closest || !ev.target.closest("[data-needs-game]")) return;
    ev.preventDefault();
    ev.stopImmediatePropagation();
    toast(t("over.short"));
  }, true);

  // --- tiles --------------------------------------------------------------------------
  // Every tile on every page is drawn here: the SVG face of tiles.js (TILES.svg) in a button,
  // or in a span where tapping it does nothing, named in the page's language.
  const ALL_TILES = [];
  for (const s of "mps") for (let n = 1; n <= 9; n++) ALL_TILES.push(n + s);
  for (let n = 1; n <= 7; n++) ALL_TILES.push(n + "z");
  ALL_TILES.push("0m", "0p", "0s", "back");
  const IS_TILE = new Set(ALL_TILES);

  function tileName(label) {
    if (label === "back") return t("tile.name_back");
    const n = +label[0], s = label[1];
    if (s === "z") return t("tile." + label);
    const k = n || 5;
    const name = t("tile.name_" + s, { n: k, kanji: TILES.NUMERALS[k] });
    return n === 0 ? t("tile.name_red", { name }) : name;
  }

  function tile(label, opts) {
    opts = opts || {};
    const known = IS_TILE.has(label);
    const classes = ["tile"];
    if (label === "back") classes.push("back");
    else if (known) {
      classes.push(label[1]);
      if (label[0] === "0") classes.push("red");
    }
    for (const o of ["low", "changed", "sideways", "big", "small"]) if (opts[o]) classes.push(o);
    let name = known ? tileName(label) : label;
    if (opts.sideways) name = t("tile.name_sideways", { name });
    const title = opts.confidence != null
      ? name + " (" + Math.round(opts.confidence * 100) + "%)" : name;
    const face = known ? TILES.svg(label, { sideways: !!opts.sideways, name })
      : el("span", { class: "face", text: label });
    return el(opts.onclick ? "button" : "span", { class: classes.join(" "), title,
      type: opts.onclick ? "button" : null, "data-tile": label, onclick: opts.onclick }, face);
  }
  function tileRow(labels, opts) {
    return el("div", { class: "tiles" }, labels.map((l) => tile(l, opts)));
  }

  // The tile picker: resolves with a label, "" to delete, or null when cancelled. A row per
  // suit, each ending in its red five (the back after the honours); kiosk.css moves the red
  // fives and the back to a fifth row on a narrow screen.
  // The 38 faces in the picker's grid; a tap calls onPick(label). Also the sequence picker's.
  function pickerGrid(onPick) {
    return el("div", { class: "picker" }, ALL_TILES.map((l) => {
      const b = tile(l, { onclick: () => onPick(l) });
      b.style.setProperty("--row", l === "back" ? 4 : "mpsz".indexOf(l[1]) + 1);
      b.style.setProperty("--col", l === "back" || l[0] === "0" ? 10 : +l[0]);
      return b;
    }));
  }
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
      dialog.append(pickerGrid(done));
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
  document.addEventListener("DOMContentLoaded", () => {
    $("#toast").addEventListener("click", hideToast);
    pickUp();
  });
  return { t, api, act, action, leave, toast, hideToast, undoable, backToTable, offer, live, tile, tileRow, pickTile, pickerGrid, tileName, el, $, $$, WINDS, fmt, pts,
           ALL_TILES, askPin, session, get state() { return lastState; } };
})();
