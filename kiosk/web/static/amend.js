// Correcting a hand from the history (docs/api.md, "Correcting a hand"): tap a win or an
// exhaustive draw, change its winner, who dealt in, han and fu (or, for a hand scored from its
// tiles, the tiles: amend_tiles.js) or the tenpai seats, look at what that changes (each later
// hand's payment before and after, the final points) and Apply. The event as recorded comes
// from the game record (GET /api/export.json).
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const { t, api, action, el, $, fmt, pts } = K;
  const dialog = $("#amend-dialog");
  const entries = $("#entries");
  if (!dialog || !entries) return;
  const EDITABLE = new Set(["win", "exhaustive_draw"]);
  let players = [], index = 0, recorded = null, quick = null, body = null, shown = null;

  // Each hand the history shows that can be corrected: marked, tappable, reachable by keyboard.
  const mark = () => {
    for (const entry of entries.querySelectorAll(".entry[data-index]")) {
      if (!EDITABLE.has(entry.dataset.type) || entry.classList.contains("amendable")) continue;
      entry.classList.add("amendable");
      entry.tabIndex = 0;
      entry.setAttribute("role", "button");
      const row = entry.querySelector(".row");
      if (row) row.append(el("span", { class: "amend-mark", text: t("amend.edit") }));
    }
  };
  new MutationObserver(mark).observe(entries, { childList: true });
  const pick = (ev) => {
    const entry = ev.target.closest(".entry.amendable");
    if (entry) open(Number(entry.dataset.index));
  };
  entries.addEventListener("click", pick);
  entries.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); pick(ev); } });

  const select = (name, options, value) => el("select", { name, onchange: stale },
    options.map(([v, label]) => el("option", { value: v, selected: String(v) === String(value), text: label })));
  const seatOptions = () => players.map((p, i) => [i, p]);
  const field = (label, control) => el("label", {}, el("span", { text: label }), control);

  // A hand's han: 1-13, or yakuman (once or more); fu from the quick form's choices for its
  // han and win type (none from 5 han). A hand scored from tiles offers Tiles beside them: the
  // hand typed again and scored again by the rules (amend_tiles.js).
  function handRow(hand, i) {
    const han = hand.yakuman ? `y${hand.yakuman}` : hand.han;
    const hans = quick.han.map((h) => [h, `${h} ${t("han")}`]).concat(
      [1, 2].map((n) => [`y${n}`, n === 1 ? t("limit.yakuman") : `${n}× ${t("limit.yakuman")}`]));
    const byHan = (label, control) => { const f = field(label, control); f.classList.add("by-han"); return f; };
    const rec = AMEND_TILES.recorded(hand);
    const row = el("div", { class: "hand-row", "data-hand": i },
      field(t("amend.winner"), select("winner", seatOptions(), hand.winner)),
      byHan(t("han"), select("han", hans, han)),
      byHan(t("fu"), select("fu", [], hand.fu)));
    if (!rec) return row;
    const tiles = AMEND_TILES.fields(i, rec, () => $("#amend-preview-btn").click(), stale);
    row.append(el("button", { class: "btn small amend-by-tiles", type: "button", "aria-pressed": "false",
      text: t("amend.tiles"), onclick: (ev) => {
        const on = row.classList.toggle("by-tiles");
        ev.currentTarget.classList.toggle("on", on);
        ev.currentTarget.setAttribute("aria-pressed", String(on));
        stale();
        if (on) tiles.querySelector("[name='tiles']").focus();
      } }), tiles);
    return row;
  }
  function fillFu(row, tsumo) {
    const fu = row.querySelector('[name="fu"]'), han = row.querySelector('[name="han"]').value;
    const choices = han.startsWith("y") ? [] : quick.fu[tsumo ? "tsumo" : "ron"][han] || [];
    const keep = Number(fu.value || fu.dataset.was);
    fu.replaceChildren(...choices.map((f) => el("option", { value: f, text: `${f} ${t("fu")}`, selected: f === keep })));
    fu.closest("label").hidden = !choices.length;
  }
  const tsumo = () => $("#amend-fields [name='discarder']").value === "";

  function fields(event) {
    const box = $("#amend-fields");
    if (event.type === "win") {
      const payer = select("discarder", [["", t("amend.tsumo")]].concat(seatOptions()),
        event.discarder == null ? "" : event.discarder);
      box.replaceChildren(field(t("amend.payer"), payer), ...event.hands.map(handRow));
      for (const row of box.querySelectorAll(".hand-row")) {
        row.querySelector('[name="fu"]').dataset.was = event.hands[row.dataset.hand].fu;
        fillFu(row, event.discarder == null);
      }
      box.addEventListener("change", () => { for (const row of box.querySelectorAll(".hand-row")) fillFu(row, tsumo()); });
    } else {
      const on = new Set(event.tenpai);
      box.replaceChildren(el("span", { text: t("amend.tenpai") }), el("div", { class: "seats" },
        players.map((p, s) => el("button", { class: "btn" + (on.has(s) ? " on" : ""), type: "button",
          "data-seat": s, "aria-pressed": String(on.has(s)), text: p, onclick: (ev) => {
            const b = ev.currentTarget, now = b.getAttribute("aria-pressed") !== "true";
            b.classList.toggle("on", now);
            b.setAttribute("aria-pressed", String(now));
            stale();
          } }))));
    }
  }

  // What the form says, as the correction the API takes.
  function correction() {
    if (recorded.type === "win") {
      const discarder = tsumo() ? null : Number($("#amend-fields [name='discarder']").value);
      const wins = [...$("#amend-fields").querySelectorAll(".hand-row")].map((row) => {
        const winner = Number(row.querySelector('[name="winner"]').value);
        if (row.classList.contains("by-tiles")) {
          const rec = AMEND_TILES.recorded(recorded.hands[row.dataset.hand]);
          return { winner, discarder, ...AMEND_TILES.spec(row, rec, winner) };
        }
        const han = row.querySelector('[name="han"]').value;
        const q = han.startsWith("y") ? { yakuman: Number(han.slice(1)) }
          : Number(han) >= quick.limit_han ? { han: Number(han) }
            : { han: Number(han), fu: Number(row.querySelector('[name="fu"]').value) };
        return { winner, discarder, quick: q };
      });
      return { win: wins.length === 1 ? wins[0] : wins };
    }
    const tenpai = [...$("#amend-fields").querySelectorAll("[aria-pressed='true']")].map((b) => Number(b.dataset.seat));
    return { event: { type: "exhaustive_draw", tenpai, nagashi: recorded.nagashi || [] } };
  }

  function stale() {
    shown = null;
    $("#amend-apply").hidden = true;
    $("#amend-preview").replaceChildren();
    $("#amend-error").textContent = "";
  }

  async function open(at) {
    try {
      const [record, choices] = await Promise.all([api("GET", "/api/export.json"), quick || api("GET", "/api/quick")]);
      quick = choices;
      players = record.events[0].players;
      index = at;
      recorded = record.events[at];
    } catch (e) {
      K.toast(e.detail || e.message, true);
      return;
    }
    $("#amend-title").textContent = t("amend.title", { n: index + 1 });
    fields(recorded);
    stale();
    dialog.showModal();
  }

  // The preview: each event from the corrected one on, what it paid each seat before (struck)
  // and after; the final points; later events the corrected game cannot reach, and why.
  const cell = (was, now, money) => el("td", { class: "num" },
    was !== now ? el("span", { class: "was", text: money(was) }) : null, el("span", { text: money(now) }));
  function render(out) {
    const head = el("tr", {}, el("th", { text: "#" }), el("th", { text: t("amend.hand") }),
      el("th", { class: "what", text: t("amend.what") }), players.map((p) => el("th", { class: "num", text: p })));
    const rows = out.changes.map((c) => el("tr", { class: c.changed ? "changed" : "same", "data-index": c.index },
      el("td", { text: c.index + 1 }),
      el("td", {}, c.old.round_text !== c.new.round_text ? el("span", { class: "was", text: c.old.round_text }) : null,
        el("span", { text: c.new.round_text })),
      el("td", { class: "what" }, c.old.text !== c.new.text ? el("span", { class: "was", text: c.old.text }) : null,
        el("span", { text: c.new.text })),
      c.new.deltas.map((d, s) => cell(c.old.deltas[s], d, fmt))));
    const total = el("tr", { class: "total" }, el("td", {}), el("td", { text: t("amend.final") }), el("td", { class: "what" }),
      out.points.new.map((p, s) => cell(out.points.old[s], p, pts)));
    const parts = [el("table", { class: "amend-table", id: "amend-table" }, el("thead", {}, head), el("tbody", {}, rows, total))];
    if (out.dropped.length) {
      parts.push(el("div", { class: "amend-drop", id: "amend-drop", role: "alert" },
        el("b", { text: out.refusal ? out.refusal.text : "" }),
        el("div", { text: t("amend.dropped", { n: out.dropped.length }) }),
        el("ul", {}, out.dropped_text.map((text, i) => el("li", { text: `${out.dropped[i] + 1}. ${text}` })))));
    }
    $("#amend-preview").replaceChildren(...parts);
    const apply = $("#amend-apply");
    apply.textContent = out.dropped.length ? t("amend.apply_drop", { n: out.dropped.length }) : t("amend.apply");
    apply.classList.toggle("danger", out.dropped.length > 0);
    apply.hidden = false;
    $("#amend-table").scrollIntoView({ block: "nearest" });
  }

  // One key per preview shown: Apply sent again (a lost answer) is recorded once; a new preview
  // is a new action.
  const newKey = () => Array.from(crypto.getRandomValues(new Uint8Array(16)),
    (b) => b.toString(16).padStart(2, "0")).join("");
  let key = null;
  $("#amend-preview-btn").addEventListener("click", async () => {
    $("#amend-error").textContent = "";
    try {
      body = correction();
      shown = await api("POST", `/api/history/${index}/preview`, body);
      key = newKey();
      render(shown);
    } catch (e) {
      stale();
      $("#amend-error").textContent = e.detail || e.message;
    }
  });
  $("#amend-apply").addEventListener("click", action(async () => {
    if (!shown) return null;
    const out = await api("POST", `/api/history/${index}`, { ...body, game: shown.game, events: shown.events,
      drop_later: shown.dropped.length > 0 }, { key });
    dialog.close();
    return out;
  }, t("amend.applied")));
});
