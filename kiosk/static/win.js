// Score a win: capture or upload a photo (or tap the tiles in), correct any tile, set the
// situation (pre-filled from the table), see the breakdown, then apply. Double ron: add a
// second winner before applying.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const { t, api, act, live, tile, pickTile, el, $, $$, WINDS, fmt, pts, toast } = K;
  const draft = { capture: null, concealed: [], win: null, melds: [], dora: [], ura: [], discards: [] };
  const sit = { winner: null, discarder: null, riichi: "none", flags: new Set() };
  let mode = "tiles", state = null, pending = [], lastScore = null;
  // Quick mode: han and fu, a yakuman count or the points. `choices` (GET /api/quick) holds the
  // fu a real hand can have under the table's rules, per win type and han.
  let quickKind = "hanfu", choices = null, choicesFor = null;

  const simple = (label, extra) => Object.assign({ label }, extra || {});

  // --- tiles ---------------------------------------------------------------------------
  function editTile(list, i) {
    return async () => {
      const v = await pickTile(list[i].label, true);
      if (v === null) return;
      if (v === "") list.splice(i, 1);
      else list[i] = Object.assign({}, list[i], { label: v, low: false, changed: true });
      invalidate(); renderTiles();
    };
  }
  function addTo(list) {
    return async () => {
      const v = await pickTile("", false);
      if (v) { list.push(simple(v)); invalidate(); renderTiles(); }
    };
  }
  const addButton = (fn) => el("button", { class: "tile add", type: "button", onclick: fn,
    title: t("win.add_tile") }, el("span", { class: "face", text: "+" }));

  function renderGroup(box, list, max) {
    box.replaceChildren(...list.map((x, i) => tile(x.label, { low: x.low, changed: x.changed,
      confidence: x.confidence, onclick: editTile(list, i) })));
    if (list.length < max) box.append(addButton(addTo(list)));
  }
  function renderTiles() {
    renderGroup($("#g-concealed"), draft.concealed, 13);
    const win = $("#g-win");
    win.replaceChildren();
    if (draft.win) {
      win.append(tile(draft.win.label, { low: draft.win.low, changed: draft.win.changed,
        confidence: draft.win.confidence, big: true, onclick: async () => {
          const v = await pickTile(draft.win.label, true);
          if (v === null) return;
          draft.win = v ? Object.assign({}, draft.win, { label: v, low: false, changed: true }) : null;
          invalidate(); renderTiles();
        } }));
    } else {
      win.append(addButton(async () => {
        const v = await pickTile("", false);
        if (v) { draft.win = simple(v); invalidate(); renderTiles(); }
      }));
    }
    const melds = $("#g-melds");
    melds.replaceChildren(...draft.melds.map((m, mi) => {
      const size = ["minkan", "ankan", "kakan"].includes(m.kind) ? 4 : 3;
      const box = el("div", { class: "meld" },
        el("select", { class: "meld-kind", onchange: (ev) => { m.kind = ev.target.value; invalidate(); renderTiles(); } },
          ["chi", "pon", "minkan", "ankan", "kakan"].map((k) =>
            el("option", { value: k, selected: k === m.kind, text: t("meld." + k) }))));
      const tiles = el("div", { class: "tiles" });
      m.tiles.forEach((x, i) => tiles.append(tile(x.label, { low: x.low, changed: x.changed,
        sideways: i === m.called, onclick: editTile(m.tiles, i) })));
      if (m.tiles.length < size) tiles.append(addButton(addTo(m.tiles)));
      box.append(tiles, el("button", { class: "btn small danger", type: "button", text: "✕",
        title: t("picker.remove"), onclick: () => { draft.melds.splice(mi, 1); invalidate(); renderTiles(); } }));
      return box;
    }));
    renderGroup($("#g-dora"), draft.dora, 5);
    renderGroup($("#g-ura"), draft.ura, 5);
    renderGroup($("#g-discards"), draft.discards, 30);
  }
  for (const b of $$(".add-meld")) {
    b.addEventListener("click", () => {
      draft.melds.push({ kind: b.dataset.kind, tiles: [], called: b.dataset.kind === "ankan" ? null : 0 });
      renderTiles();
    });
  }

  function loadReading(out) {
    draft.capture = out.recognised ? { id: out.id } : (out.id ? { id: out.id } : null);
    const h = out.hand || { concealed: [], win: null, melds: [], dora: [], ura: [] };
    draft.concealed = h.concealed.slice();
    draft.win = h.win;
    draft.melds = h.melds.map((m) => ({ kind: m.kind, tiles: m.tiles.slice(), called: m.called }));
    draft.dora = h.dora.slice();
    draft.ura = (h.ura || []).slice();
    $("#reading-message").textContent = out.message || "";
    $("#reading-problems").replaceChildren(...(out.problems || []).map((p) => el("li", { text: p })));
    if (out.image_url) { $("#still").src = out.image_url; $("#still").hidden = false; }
    invalidate(); renderTiles();
  }

  $("#capture-btn").addEventListener("click", async () => {
    $("#capture-btn").disabled = true;
    const out = await act(() => api("POST", "/api/captures"));
    $("#capture-btn").disabled = false;
    if (out) loadReading(out);
  });
  $("#upload").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    const form = new FormData();
    form.append("photo", file);
    const out = await act(() => api("POST", "/api/captures/upload", form));
    if (out) loadReading(out);
    ev.target.value = "";
  });
  $("#manual-btn").addEventListener("click", () => {
    loadReading({ message: t("win.manual_help") });
  });

  // --- situation ----------------------------------------------------------------------
  function seg(box, items, get, set) {
    box.replaceChildren(...items.map(([v, label]) => el("button", {
      class: "btn small" + (get() === v ? " on" : ""), type: "button", "data-v": String(v),
      text: label, onclick: () => { set(v); invalidate(); renderSituation(); } })));
  }
  function renderSituation() {
    if (!state || !state.game) return;
    const seats = state.seats.map((s) => [s.seat, `${WINDS()[s.wind - 1]} ${s.name}`]);
    seg($("#winner"), seats, () => sit.winner, (v) => {
      sit.winner = v;
      if (sit.discarder === v) sit.discarder = null;
      sit.riichi = state.seats[v].riichi ? (sit.riichi === "double" ? "double" : "riichi") : "none";
    });
    seg($("#discarder"), [[null, t("win.tsumo")]].concat(
      seats.filter(([s]) => s !== sit.winner).map(([s, n]) => [s, t("win.ron_from", { name: n })])),
      () => sit.discarder, (v) => { sit.discarder = v; });
    renderQuick();
    for (const b of $$("#riichi .btn")) b.classList.toggle("on", b.dataset.v === sit.riichi);
    for (const b of $$("#flags .btn")) b.classList.toggle("on", sit.flags.has(b.dataset.flag));
    const pao = $("#pao"), keep = pao.value;
    pao.replaceChildren(el("option", { value: "", text: "—" }),
      ...seats.filter(([s]) => s !== sit.winner).map(([s, n]) => el("option", { value: s, text: n })));
    pao.value = keep;
  }
  for (const b of $$("#riichi .btn")) b.addEventListener("click", () => { sit.riichi = b.dataset.v; invalidate(); renderSituation(); });
  for (const b of $$("#flags .btn")) b.addEventListener("click", () => {
    const f = b.dataset.flag;
    if (sit.flags.has(f)) sit.flags.delete(f); else sit.flags.add(f);
    invalidate(); renderSituation();
  });
  for (const b of $$("#mode .btn")) b.addEventListener("click", () => {
    mode = b.dataset.mode;
    for (const o of $$("#mode .btn")) o.classList.toggle("on", o === b);
    $("#tiles-editor").hidden = mode !== "tiles";
    $("#camera-panel").hidden = mode !== "tiles";
    $("#quick-editor").hidden = mode !== "quick";
    $("#win-grid").classList.toggle("quick", mode === "quick");
    invalidate();
  });

  // --- quick mode: only the han / fu a hand can have --------------------------------------
  async function loadChoices(game) {
    choicesFor = game;
    choices = await api("GET", "/api/quick");
    const han = $("#q-han"), keep = +han.value;
    han.replaceChildren(...choices.han.map((h) => el("option", { value: h, text: String(h) })));
    han.value = choices.han.includes(keep) ? keep : choices.han[0];
    renderQuick();
  }
  // The fu offered follow the han and the win type; from 5 han fu do not count and are not
  // asked. A fu that became impossible moves to 30 (20 fu on a ron) or to the highest below
  // it (120 fu at 3 han), and the note says so.
  function renderQuick(userFu) {
    for (const b of $$("#q-kind .btn")) b.classList.toggle("on", b.dataset.kind === quickKind);
    $("#q-hanfu").hidden = quickKind !== "hanfu";
    $("#q-yakuman-box").hidden = quickKind !== "yakuman";
    $("#q-points-box").hidden = quickKind !== "points";
    if (!choices) return;
    const han = $("#q-han").value, how = sit.discarder === null ? "tsumo" : "ron";
    const offered = choices.fu[how][han] || [];
    const fu = $("#q-fu"), before = +fu.value;
    $("#q-fu-box").hidden = !offered.length;
    $("#q-no-fu").hidden = !!offered.length;
    $("#q-no-fu").textContent = offered.length ? ""
      : t("quick.no_fu", { limit: choices.limits[han] || "" });
    if (!offered.length) { $("#q-note").textContent = ""; return; }
    const below = offered.filter((f) => f >= 30 && f <= before);
    const now = offered.includes(before) ? before
      : below.length ? below[below.length - 1] : offered.includes(30) ? 30 : offered[0];
    fu.replaceChildren(...offered.map((f) => el("option", { value: f, text: String(f) })));
    fu.value = now;
    $("#q-note").textContent = now === before || userFu ? ""
      : t("quick.fu_reset", { han, fu: before, how: t("quick.by_" + how), new: now });
  }
  for (const b of $$("#q-kind .btn")) b.addEventListener("click", () => {
    quickKind = b.dataset.kind; invalidate(); renderQuick();
  });
  $("#q-han").addEventListener("change", () => { invalidate(); renderQuick(); });
  $("#q-fu").addEventListener("change", () => { invalidate(); renderQuick(true); });
  for (const id of ["#q-yakuman", "#q-points", "#blessing", "#pao"]) {
    $(id).addEventListener("change", invalidate);
  }

  // --- request, breakdown, apply ---------------------------------------------------------
  const labels = (list) => list.map((x) => x.label).join(",");
  function spec() {
    const s = { winner: sit.winner, discarder: sit.discarder, riichi: sit.riichi };
    for (const f of ["ippatsu", "last_tile", "rinshan", "chankan", "chankan_of_ankan"]) s[f] = sit.flags.has(f);
    if ($("#blessing").value) s.blessing = $("#blessing").value;
    if ($("#pao").value !== "") s.pao = +$("#pao").value;
    if (mode === "quick") {
      if (quickKind === "points") s.quick = { points: +$("#q-points").value };
      else if (quickKind === "yakuman") s.quick = { yakuman: +$("#q-yakuman").value };
      else {
        s.quick = { han: +$("#q-han").value };
        if (!$("#q-fu-box").hidden) s.quick.fu = +$("#q-fu").value;
      }
      return s;
    }
    s.hand = {
      concealed: labels(draft.concealed), win: draft.win ? draft.win.label : "",
      melds: draft.melds.map((m) => ({ kind: m.kind, tiles: labels(m.tiles),
        called: m.called != null && m.tiles[m.called] ? m.tiles[m.called].label : null })),
      dora: labels(draft.dora), ura: labels(draft.ura), discards: labels(draft.discards),
    };
    if (draft.capture) {
      const all = [...draft.concealed, ...(draft.win ? [draft.win] : []),
                   ...draft.melds.flatMap((m) => m.tiles), ...draft.dora, ...draft.ura];
      s.capture = { id: draft.capture.id,
                    tiles: all.filter((x) => x.box).map((x) => ({ label: x.label, box: x.box })) };
    }
    return s;
  }
  function invalidate() {
    lastScore = null;
    $("#breakdown").replaceChildren();
    $("#result-hint").hidden = false;
  }

  // The breakdown explains every point with the scorer's numbers and words (nothing is worked
  // out here): yaku and each kind of dora, fu items and their rounding, the base points, then
  // who pays whom, honba and riichi sticks, which add up to each seat's change.
  const row = (label, value, attrs) => el("tr", attrs || {},
    el("td", {}, label), el("td", { class: "num", text: value }));
  const hanText = (y) => y.han_text || y.han + " " + t("han");

  function renderBreakdown(b) {
    const box = $("#breakdown");
    $("#result-hint").hidden = true;
    if (!b.is_win) {
      box.replaceChildren(el("p", { class: "verdict", id: "verdict", text: b.verdict }),
        el("ul", {}, (b.problems || []).map((p) => el("li", { text: p }))),
        el("div", { class: "row" },
          el("button", { class: "btn danger", type: "button", id: "chombo-btn",
            text: t("win.chombo", { name: state.seats[sit.winner].name }),
            onclick: () => act(async () => {
              const out = await api("POST", "/api/chombo", { seat: sit.winner });
              const who = state.seats[sit.winner];
              K.backToTable(t("net.chombo", { who: `${WINDS()[who.wind - 1]} ${who.name}` }), out);
            }) })));
      return;
    }
    const parts = [];
    const yaku = b.yaku.map((y) => row(y.name, hanText(y), { "data-yaku": y.id }))
      .concat((b.dora_lines || []).map((d) => row(d.name, d.han + " " + t("han"),
        { "data-dora": d.id })));
    if (yaku.length) parts.push(el("h3", { text: t("win.yaku") }), el("table", { id: "yaku-table" }, yaku));
    if (b.fu_counts && b.fu_items.length) {
      parts.push(el("h3", { text: t("win.fu") }),
        el("table", { id: "fu-table" }, b.fu_items.map((f) => row(f.text, f.fu + " " + t("fu")))),
        el("p", { id: "fu-total", text: b.fu_text }));
    }
    parts.push(el("p", { class: "total", id: "total", text: b.summary }),
      el("p", { id: "base", text: b.base.text }));
    const lines = (b.breakdowns || [b]).flatMap((x) => x.payment_lines || []);
    parts.push(el("h3", { text: t("win.payments") }),
      el("table", { id: "payment-lines" }, lines.map((l) => row(
        [el("div", { text: l.text }), l.detail ? el("div", { class: "muted", text: l.detail }) : null],
        l.amount ? pts(l.amount) : "", { class: "line " + l.kind }))));
    parts.push(el("h3", { text: t("win.changes") }),
      el("table", { id: "payments" }, state.seats.map((s) => el("tr", {},
        el("td", { text: `${WINDS()[s.wind - 1]} ${s.name}` }),
        el("td", { class: "num delta " + (b.payments[s.seat] > 0 ? "plus" : b.payments[s.seat] < 0 ? "minus" : ""),
                   text: fmt(b.payments[s.seat]) })))));
    parts.push(el("div", { class: "row" },
      el("button", { class: "btn primary", type: "button", id: "apply-btn", text: t("win.apply"), onclick: apply }),
      sit.discarder !== null ? el("button", { class: "btn", type: "button", id: "another-btn",
        text: t("win.another"), onclick: another }) : null));
    box.replaceChildren(...parts);
  }

  async function scoreNow() {
    if (sit.winner === null) { toast(t("win.pick_winner"), true); return; }
    const wins = pending.concat([spec()]);  // a double ron: honba and sticks go to one winner
    const out = await act(() => api("POST", "/api/score", wins.length > 1 ? { wins } : wins[0]));
    if (out) {
      lastScore = out; renderBreakdown(out);
      $("#result").scrollIntoView({ block: "nearest" });
    }
  }
  async function apply() {
    const wins = pending.concat([spec()]);
    const out = await act(() => api("POST", "/api/wins", wins.length > 1 ? { wins } : wins[0]));
    if (out) K.backToTable(t("win.applied"), out.state);
  }
  function another() {
    pending.push(spec());
    const discarder = sit.discarder;
    $("#pending").textContent = t("win.pending", { n: pending.length });
    draft.concealed = []; draft.win = null; draft.melds = []; draft.capture = null;
    sit.winner = null; sit.discarder = discarder; sit.flags.clear(); sit.riichi = "none";
    invalidate(); renderTiles(); renderSituation();
  }
  $("#score-btn").addEventListener("click", scoreNow);

  const cameraState = async () => {
    const c = await api("GET", "/api/camera");
    const usable = c.ok || c.state === "starting";
    $("#camera-state").textContent = (usable ? t("camera.ok") + " (" + c.camera + ")"
      : t("camera.none") + (c.message ? ": " + c.message : ""))
      + (c.recogniser.available ? "" : " — " + c.recogniser.message);
    $("#capture-btn").disabled = !usable;
  };
  cameraState();
  setInterval(cameraState, 5000);
  // The live view's stream ends every few minutes (to free the server); open it again.
  const liveView = $("#live-view"), streamUrl = liveView.getAttribute("src");
  setInterval(() => { liveView.src = streamUrl + "?t=" + Date.now(); }, 200000);
  live((s) => {
    const first = !state; state = s;
    if (first) renderSituation();
    const game = s.game && s.game.id;
    if (game && game !== choicesFor) act(() => loadChoices(game));
  });
  renderTiles();
});
