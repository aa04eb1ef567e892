// Editing a hand by touch, shared by the win page and the draw page's tenpai check (issue 18,
// items 3 and 10): tiles sorted as a player sorts them, the tile menu (the classifier's
// alternatives first, then the full picker), a picker that stays open and adds tiles in
// sequence, and a text box that takes mpsz notation. Tiles here are the reading's JSON objects
// ({label, confidence, low, box, alternatives, ...}); a corrected tile is a new object.
"use strict";
const HAND = (() => {
  const { t, el, $, tile, pickTile, pickerGrid } = K;

  // m, p, s, honours, then face-down; a red five just before its plain five, as players lay
  // their hands out (and Tenhou numbers the red five first of its four).
  const rank = (label) => label === "back" ? 1000
    : "mpsz".indexOf(label[1]) * 100 + (+label[0] || 5) * 10 + (label[0] === "0" ? 0 : 1);
  const sortTiles = (list) => list.slice().sort((a, b) => rank(a.label) - rank(b.label));
  const kindOf = (label) => (label[0] === "0" ? "5" + label[1] : label);

  // A tile as players write it in a sentence: 6s / 6索, red 5s / 赤5索, East wind / 東.
  function shortName(label) {
    if (label === "back") return t("tile.name_back");
    if (label[1] === "z") return t("tile." + label);
    const plain = t("tile." + label[1], { n: +label[0] || 5 });
    return label[0] === "0" ? t("reading.red", { name: plain }) : plain;
  }

  // --- mpsz: "123m456p789s11z", 0 = red five -------------------------------------------------
  // Either {labels} or {error} naming the part that cannot be read, in the page's language.
  function parseMpsz(text) {
    const s = text.replace(/[\s,]+/g, "");
    if (!s) return { error: t("entry.err_empty") };
    const labels = [];
    for (let i = 0; i < s.length;) {
      const [part, digits, suit] = /^(\d*)(\D?)/.exec(s.slice(i));
      if (!suit) return { error: t("entry.err_no_suit", { part }) };
      if (!"mpsz".includes(suit)) return { error: t("entry.err_char", { part }) };
      if (!digits) return { error: t("entry.err_no_digit", { part: s.slice(i, i + 2) }) };
      for (const d of digits) {
        if (suit === "z" && d === "0") return { error: t("entry.err_honour_red", { part: d + suit }) };
        if (suit === "z" && +d > 7) return { error: t("entry.err_honour", { part: d + suit }) };
        labels.push(d + suit);
      }
      i += part.length;
    }
    const counts = new Map();
    for (const l of labels) counts.set(kindOf(l), (counts.get(kindOf(l)) || 0) + 1);
    for (const [kind, n] of counts) {
      if (n > 4) return { error: t("entry.err_too_many", { part: kind, n }) };
    }
    return { labels };
  }

  // The text box: type, then Set (or Enter). `apply(labels)` answers an error message or null.
  function mpszBox(id, help, apply) {
    const input = el("input", { id, type: "text", autocomplete: "off", autocapitalize: "off",
      spellcheck: "false", inputmode: "text", placeholder: "123m456p789s1122z",
      "aria-describedby": id + "-help" });
    const error = el("p", { class: "error", id: id + "-error", role: "alert" });
    const submit = () => {
      const read = parseMpsz(input.value);
      error.textContent = read.error || apply(read.labels) || "";
    };
    input.addEventListener("keydown", (ev) => { if (ev.key === "Enter") submit(); });
    input.addEventListener("input", () => { error.textContent = ""; });
    return el("div", { class: "mpsz" },
      el("label", { for: id, text: t("entry.label") }),
      el("div", { class: "row" }, input,
        el("button", { class: "btn", type: "button", id: id + "-set", text: t("entry.set"),
                       onclick: submit })),
      el("p", { class: "muted", id: id + "-help", text: help }), error);
  }

  // --- the pickers, in the page's one #tile-picker dialog ------------------------------------
  function dialog(mode) {
    let box = $("#tile-picker");
    if (!box) { box = el("dialog", { id: "tile-picker" }); document.body.append(box); }
    box.className = mode || "";
    box.replaceChildren();
    return box;
  }

  // The picker that stays open: each tap adds a tile where `step()` says the next one goes
  // ({title, tiles: the labels there so far} or null once nothing more fits, which closes it).
  // `add(label)` puts it there, `back()` takes the last one back. Resolves when closed.
  function pickMany(step, add, back) {
    const box = dialog("seq");
    return new Promise((resolve) => {
      const title = el("h2", { id: "picker-next" });
      const strip = el("div", { class: "tiles picker-strip", id: "picker-strip" });
      const close = () => { box.close(); box.className = ""; resolve(); };
      const refresh = () => {
        const next = step();
        if (!next) { close(); return; }
        title.textContent = next.title;
        strip.replaceChildren(...next.tiles.map((l) => tile(l, { small: true })));
      };
      box.append(title, pickerGrid((label) => { add(label); refresh(); }), strip,
        el("div", { class: "row" },
          el("button", { class: "btn", type: "button", id: "picker-back", text: t("entry.back"),
                         onclick: () => { back(); refresh(); } }),
          el("button", { class: "btn primary", type: "button", id: "picker-done",
                         text: t("entry.done"), onclick: close })));
      box.addEventListener("cancel", () => { box.className = ""; resolve(); }, { once: true });
      refresh();
      if (box.className) box.showModal();
    });
  }

  // The classifier's other choices for a tile, best first; a five's twin (red or plain) leads,
  // as the one difference the camera often cannot see and a table's set decides.
  function candidates(x) {
    const twin = /^[05][mps]$/.test(x.label) ? (x.label[0] === "0" ? "5" : "0") + x.label[1] : null;
    // An alternative the reader gave under half a percent would show as "0 %": not offered.
    const alts = (x.alternatives || []).map(([label, p]) => ({ label, p }))
      .filter((a) => a.p == null || Math.round(a.p * 100) >= 1);
    const all = (twin ? [{ label: twin, p: null }] : []).concat(alts.filter((a) => a.label !== twin));
    return all.filter((a) => a.label !== x.label).slice(0, 4);
  }

  // A tap on a tile read from a photo: its alternatives first, then the whole picker. `moves`
  // ([{label, run}]) are the tap-based way to move it (drag does the same). Resolves with
  // {label}, {remove: true}, {moved: true} or null.
  function tileMenu(x, moves) {
    const box = dialog("menu");
    return new Promise((resolve) => {
      let settled = false;
      const done = (v) => { if (settled) return; settled = true; box.close(); box.className = ""; resolve(v); };
      const caption = (text) => el("span", { class: "alt-p", text });
      box.append(el("h2", { text: t("fix.what") }),
        el("p", { class: "muted", id: "menu-read", text: x.confidence != null
          ? t("fix.read_as", { name: shortName(x.label), p: Math.round(x.confidence * 100) })
          : shortName(x.label) }),
        el("div", { class: "row alts", id: "menu-alts" }, candidates(x).map((a) =>
          el("div", { class: "alt" }, tile(a.label, { onclick: () => done({ label: a.label }) }),
             caption(a.p == null ? "" : Math.round(a.p * 100) + "%")))),
        el("div", { class: "row" },
          el("button", { class: "btn", type: "button", id: "menu-other", text: t("fix.other"),
            onclick: async () => {
              settled = true; box.close(); box.className = "";
              const v = await pickTile(x.label, true);
              resolve(v === null ? null : v === "" ? { remove: true } : { label: v });
            } }),
          moves.map((m) => el("button", { class: "btn", type: "button", "data-move": m.id,
            text: m.label, onclick: () => { m.run(); done({ moved: true }); } }))),
        el("div", { class: "row" },
          el("button", { class: "btn danger", type: "button", id: "menu-remove",
                         text: t("picker.remove"), onclick: () => done({ remove: true }) }),
          el("button", { class: "btn", type: "button", id: "menu-cancel", text: t("common.cancel"),
                         onclick: () => done(null) })));
      box.addEventListener("cancel", () => done(null), { once: true });
      box.showModal();
    });
  }

  // A corrected tile: the new label, no longer doubtful, marked as changed by the player.
  const relabel = (x, label) => Object.assign({}, x, { label, low: false, changed: true });
  const fresh = (label) => ({ label });

  return { rank, sortTiles, shortName, parseMpsz, mpszBox, pickMany, tileMenu, candidates,
           relabel, fresh, kindOf };
})();
