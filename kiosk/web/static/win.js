// Score a win: capture or upload a photo (or tap the tiles in), correct any tile, set the
// situation (pre-filled from the table), see the breakdown, then apply. Double ron: add a
// second winner before applying.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const { t, api, act, live, el, $, $$, WINDS, fmt, pts, toast } = K;
  // kita: Norths pulled out beside the hand (sanma's nukidora), asked only where the rules
  // pull them (state.game.kita) and sent with the tiles as hand.kita.
  // how: "tsumo" or "ron", null until tapped: nothing is preselected, so a forgotten "who dealt
  // in" is asked for, never recorded as a tsumo (issue 38, item 9).
  const sit = { winner: null, discarder: null, how: null, riichi: "none", flags: new Set(), kita: 0 };
  let mode = "tiles", state = null, pending = [], lastScore = null, capture = null;
  // Whatever is brought into view (Tap tiles in's box, a new meld, a focused button, Capture
  // once scored) lands clear of the bar at the foot, however many lines it takes (three on a
  // phone once scored): the page scrolls as if the screen ended at the bar (issue 38, item 2).
  const footBar = () => {
    document.documentElement.style.scrollPaddingBottom = `${$("#win-bar").offsetHeight + 8}px`;
  };
  footBar();
  if (window.ResizeObserver) new ResizeObserver(footBar).observe($("#win-bar"));
  // Quick mode: han and fu, a yakuman count or the points. `choices` (GET /api/quick) holds the
  // fu a real hand can have under the table's rules, per win type and han.
  let quickKind = "hanfu", choices = null, choicesFor = null;

  // --- tiles: the editor (win_fix.js) ------------------------------------------------------
  const tiles = FIX.editor(() => invalidate());
  // What to check in the reading, said again after each edit; which tile won (win_check.js).
  const guide = GUIDE.checker(tiles);
  $("#layout-btn").addEventListener("click", GUIDE.showLayout);
  // A meld is added from "More", further down: bring the new meld (at the top) into view.
  for (const b of $$(".add-meld")) b.addEventListener("click", () => {
    tiles.addMeld(b.dataset.kind);
    $("#g-melds").lastElementChild.scrollIntoView({ block: "nearest" });
  });

  // A reading: its tiles into the editor, what to check in words (kiosk/words/reading_words.py).
  function loadReading(out) {
    capture = out.id ? { id: out.id } : null;
    if (out.recognised) showTaught(out.taught);
    tiles.load(out);
    // The still (with the boxes) is what is checked now: the live view makes room for it.
    $("#camera-panel").classList.toggle("has-still", !!out.image_url);
    guide.load(out);
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
    loadReading({ message: t("entry.manual_help") });
    $("#win-more").open = true;  // the box to type the hand in is folded there: shown in view
    $("#mpsz-box").scrollIntoView({ block: "nearest" });
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
      if (sit.discarder === v) { sit.discarder = null; sit.how = null; }
      sit.riichi = state.seats[v].riichi ? (sit.riichi === "double" ? "double" : "riichi") : "none";
    });
    seg($("#discarder"), [[null, t("win.tsumo")]].concat(
      seats.filter(([s]) => s !== sit.winner).map(([s, n]) => [s, t("win.ron_from", { name: n })])),
      () => (sit.how === null ? undefined : sit.discarder),
      (v) => { sit.discarder = v; sit.how = v === null ? "tsumo" : "ron"; });
    const asking = sit.winner !== null && sit.how === null;
    const asked = $("#discarder").classList.contains("asked");
    $("#discarder").classList.toggle("asked", asking);
    $("#win-grid").classList.toggle("asking", asking);  // a phone brings the question up
    if (asking && !asked) aboveTheBar($$("#discarder .btn").pop());
    renderQuick();
    for (const b of $$("#riichi .btn")) b.classList.toggle("on", b.dataset.v === sit.riichi);
    for (const b of $$("#flags .btn")) b.classList.toggle("on", sit.flags.has(b.dataset.flag));
    showKita();
    const pao = $("#pao"), keep = pao.value;
    pao.replaceChildren(el("option", { value: "", text: "—" }),
      ...seats.filter(([s]) => s !== sit.winner).map(([s, n]) => el("option", { value: s, text: n })));
    pao.value = keep;
  }
  // Tsumo and who dealt in, asked once the winner is tapped, scrolled up from under the bar at
  // the foot where the tiles above took the room (a wall set aside at 800x480).
  function aboveTheBar(last) {
    const bar = $("#win-bar").getBoundingClientRect().top, below = last.getBoundingClientRect().bottom;
    if (below > bar) window.scrollBy({ top: below - bar + 8 });
  }
  for (const b of $$("#riichi .btn")) b.addEventListener("click", () => { sit.riichi = b.dataset.v; invalidate(); renderSituation(); });
  // Kita count a hand's tiles, not a quick han total (which already has their dora).
  function showKita() {
    $("#kita-row").hidden = !(state && state.game && state.game.kita) || mode !== "tiles";
    for (const b of $$("#kita .btn")) b.classList.toggle("on", +b.dataset.v === sit.kita);
  }
  for (const b of $$("#kita .btn")) b.addEventListener("click", () => { sit.kita = +b.dataset.v; invalidate(); showKita(); });
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
    $("#more-tiles").hidden = mode !== "tiles";
    showKita();
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
    s.hand = tiles.spec();
    if (sit.kita && !$("#kita-row").hidden) s.hand.kita = sit.kita;
    if (capture) s.capture = { id: capture.id, tiles: tiles.located() };
    return s;
  }
  // A complete hand with its winner is scored as soon as it is known, so a photo read right
  // is Capture, the winner, (who dealt in,) Apply: no Score tap (docs/kiosk.md, tap counts).
  let autoTimer = null;
  function autoScore() {
    clearTimeout(autoTimer);
    if (mode !== "tiles" || sit.winner === null || sit.how === null || !state || !tiles.complete()) return;
    autoTimer = setTimeout(() => scoreNow(true), 120);
  }
  let generation = 0;  // edits since: an answer to an older hand is dropped
  function invalidate() {
    generation += 1;
    lastScore = null;
    $("#breakdown").replaceChildren();
    $("#result-hint").hidden = false;
    $("#win-actions").replaceChildren();
    $("#bar-total").textContent = "";
    $("#win-grid").classList.remove("scored");
    guide.changed();
    autoScore();
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
    // On a small landscape screen the breakdown takes the photo's place (win_layout.css).
    $("#win-grid").classList.add("scored");
    if (!b.is_win) {
      box.replaceChildren(el("p", { class: "verdict", id: "verdict", text: b.verdict }),
        el("ul", {}, (b.problems || []).map((p) => el("li", { text: p }))),
        el("div", { class: "row" },
          el("button", { class: "btn danger", type: "button", id: "chombo-btn",
            text: t("win.chombo", { name: state.seats[sit.winner].name }),
            onclick: K.action(async (key) => {
              const out = await api("POST", "/api/chombo", { seat: sit.winner }, { key });
              const who = state.seats[sit.winner];
              K.backToTable(t("net.chombo", { who: `${WINDS()[who.wind - 1]} ${who.name}` }), out);
              return out;
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
    const inferred = (b.breakdowns || [b]).filter((x) => x.win_inferred).map((x) => x.win_inferred.text);
    if (inferred.length) parts.push(el("p", { id: "win-inferred", class: "muted", text: inferred.join(" ") }));
    parts.push(el("p", { class: "total", id: "total", text: b.summary }),
      el("p", { id: "base", text: b.base.text }));
    const lines = (b.breakdowns || [b]).flatMap((x) => x.payment_lines || []);
    parts.push(el("h3", { text: t("win.payments") }),
      el("table", { id: "payment-lines" }, lines.map((l) => row(
        [el("div", { text: l.text }), l.detail ? el("div", { class: "muted", text: l.detail }) : null],
        l.amount ? pts(l.amount) : "", { class: "line " + l.kind }))));
    // Chips (祝儀) beside the points, where the rules pay them: "ura 1, aka 2: 3 chips from each".
    const chips = (b.breakdowns || [b]).filter((x) => x.chips).map((x) => x.chips.text);
    if (chips.length) parts.push(el("h3", { text: t("win.chips") }), el("p", { id: "chips-line", text: chips.join(" · ") }));
    parts.push(el("h3", { text: t("win.changes") }),
      el("table", { id: "payments" }, state.seats.map((s) => el("tr", {},
        el("td", { text: `${WINDS()[s.wind - 1]} ${s.name}` }),
        el("td", { class: "num delta " + (b.payments[s.seat] > 0 ? "plus" : b.payments[s.seat] < 0 ? "minus" : ""),
                   text: fmt(b.payments[s.seat]) })))));
    if (sit.discarder !== null) {
      parts.push(el("div", { class: "row" }, el("button", { class: "btn", type: "button",
        id: "another-btn", text: t("win.another"), onclick: another })));
    }
    box.replaceChildren(...parts);
    // Apply sits in the bar at the foot of the screen, beside what the hand is worth: a photo
    // read right is Capture, the winner, Apply, with nothing to scroll to (docs/kiosk.md).
    $("#bar-total").textContent = b.summary;
    $("#win-actions").replaceChildren(el("button", { class: "btn primary", type: "button",
      id: "apply-btn", text: t("win.apply"), onclick: apply }));
  }

  // `auto`: scored because the hand became complete; a hand the scorer refuses then says
  // nothing (the Score button still shows why).
  // A Score refused is said over the header bar, the page brought back to the top (it may
  // have been scrolled down to the typing box or the photo): the toast covers neither the
  // tiles nor the situation it speaks of (issue 38, item 4).
  const refused = () => window.scrollTo({ top: 0 });
  async function scoreNow(auto) {
    if (sit.winner === null) { toast(t("win.pick_winner"), true); refused(); return; }
    if (sit.how === null) { toast(t("win.pick_how"), true); refused(); return; }
    const wins = pending.concat([spec()]);  // a double ron: honba and sticks go to one winner
    const body = wins.length > 1 ? { wins } : wins[0], asked = generation;
    const out = auto === true ? await api("POST", "/api/score", body).catch(() => null)
      : await act(() => api("POST", "/api/score", body));
    if (!out && auto !== true) refused();
    if (out && asked === generation) {
      lastScore = out; renderBreakdown(out);
      // Quick mode's breakdown is beside or under its short form; in tiles mode the bar shows
      // the total, and scrolling would take the winner's buttons away.
      if (mode === "quick") $("#result").scrollIntoView({ block: "nearest" });
    }
  }
  // One action however often Apply is drawn again: a double tap, or a retry after a lost
  // answer, records the win once (K.action).
  const apply = K.action(async (key) => {
    // A riichi win without its ura dora asks for them first (win_ura.js); null: not now.
    const wins = await URA.ask(pending.concat([spec()]));
    if (!wins) return null;
    const out = await api("POST", "/api/wins", wins.length > 1 ? { wins } : wins[0], { key });
    K.backToTable(t("win.applied"), out.state);
    return out;
  });
  function another() {
    pending.push(spec());
    const discarder = sit.discarder;
    $("#pending").textContent = t("win.pending", { n: pending.length });
    capture = null;
    sit.winner = null; sit.discarder = discarder; sit.how = "ron";
    sit.flags.clear(); sit.riichi = "none"; sit.kita = 0;
    tiles.reset(); renderSituation();
  }
  $("#score-btn").addEventListener("click", () => scoreNow());

  const cameraState = async () => {
    const c = await api("GET", "/api/camera");
    const usable = c.ok || c.state === "starting";
    // The camera by what it is, not its internal path (folder:/tmp/.../demo_frames)
    const name = c.demo ? t("camera.demo")
      : String(c.camera).startsWith("folder:") ? t("camera.folder") : c.camera;
    $("#camera-state").textContent = (usable ? t("camera.ok") + " (" + name + ")"
      : t("camera.none") + (c.message ? ": " + c.message : ""))
      + (c.recogniser.available ? "" : " — " + c.recogniser.message);
    $("#capture-btn").disabled = !usable;
    showTaught(c.recogniser.taught);
  };
  // Whether the table's taught tiles are read with (issue 36, item 6): Forget, after a
  // confirm, reads as shipped again (DELETE /api/teach, as the teach page does).
  const showTaught = (taught) => {
    $("#taught-line").hidden = !taught || !$("#taught-ask").hidden;
  };
  $("#taught-forget").addEventListener("click", () => {
    $("#taught-line").hidden = true;
    $("#taught-ask").hidden = false;
  });
  $("#taught-no").addEventListener("click", () => { $("#taught-ask").hidden = true; cameraState(); });
  $("#taught-yes").addEventListener("click", async () => {
    const out = await act(() => api("DELETE", "/api/teach"), t("teach.forgotten"));
    $("#taught-ask").hidden = true;
    if (out) showTaught(false);
  });
  cameraState();
  setInterval(cameraState, 5000);
  // The live view is a stream the kiosk sends for as long as it is open: open it only while it
  // is on screen (not display:none, scrolled into view, the tab visible); a refused or broken
  // one is tried again in 5 s.
  const liveView = $("#live-view"), streamUrl = liveView.getAttribute("src");
  let liveOnScreen = true;
  const showLive = () => {
    const want = liveOnScreen && document.visibilityState === "visible";
    if (want && !liveView.hasAttribute("src")) liveView.src = streamUrl;
    else if (!want && liveView.hasAttribute("src")) liveView.removeAttribute("src");
  };
  new IntersectionObserver((seen) => {
    liveOnScreen = seen[seen.length - 1].isIntersecting; showLive();
  }).observe(liveView);
  document.addEventListener("visibilitychange", showLive);
  showLive();  // a page opened in a background tab
  liveView.addEventListener("error", () => {
    if (liveView.hasAttribute("src")) { liveView.removeAttribute("src"); setTimeout(showLive, 5000); }
  });
  live((s) => {
    const first = !state; state = s;
    // Nobody calls chi at three players: no "+ Chi" to add one.
    const offers = s.game && s.game.offers;
    for (const b of $$('.add-meld[data-kind="chi"]')) b.hidden = !!offers && !offers.chi;
    if (first) { renderSituation(); autoScore(); }
    const game = s.game && s.game.id;
    if (game && game !== choicesFor) act(() => loadChoices(game));
  });
  tiles.render();
});
