// The smaller pages: new game, draws, chombo / correction / end, history, standings.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const { t, api, act, live, el, $, $$, WINDS, fmt, pts } = K;
  const page = document.body.className.replace("page-", "");
  const seatName = (s) => `${WINDS()[s.wind - 1]} ${s.name}`;
  const toggles = (box, seats, selected) => {
    box.replaceChildren(...seats.map((s) => el("button", {
      class: "btn" + (selected.has(s.seat) ? " on" : ""), type: "button", "data-seat": s.seat,
      text: seatName(s), onclick: (ev) => {
        if (selected.has(s.seat)) selected.delete(s.seat); else selected.add(s.seat);
        ev.target.classList.toggle("on", selected.has(s.seat));
      } })));
  };

  if (page === "new") {
    let info = null;
    const box = $("#rule-options");
    const field = (f, value) => {
      const id = "opt-" + f.name;
      let input;
      if (f.kind === "bool") input = el("input", { id, type: "checkbox", checked: !!value });
      else if (f.kind === "enum") input = el("select", { id }, f.choices.map((c) => el("option", { value: c, text: c, selected: c === value })));
      else if (f.kind === "int") input = el("input", { id, type: "number", value });
      else if (f.kind === "set") {
        input = el("span", { id, class: "seg" }, f.choices.map((c) => el("label", {},
          el("input", { type: "checkbox", value: c, checked: value.includes(c) }), c)));
      } else input = el("input", { id, value: value });
      input.dataset.name = f.name; input.dataset.kind = f.kind;
      return el("label", { title: f.name }, el("span", { class: "opt", text: f.name.replaceAll("_", " ") }), input);
    };
    const fill = () => {
      const preset = info.presets[$("#preset").value];
      box.replaceChildren(...info.fields.filter((f) => f.name !== "name" && f.name !== "start_points")
        .map((f) => field(f, preset[f.name])));
      $("#start-points").value = preset.start_points;
    };
    api("GET", "/api/rulesets").then((r) => { info = r; fill(); });
    $("#preset").addEventListener("change", fill);
    $("#new-game").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const options = {};
      for (const input of $$("[data-name]", box)) {
        const k = input.dataset.kind;
        options[input.dataset.name] = k === "bool" ? input.checked : k === "int" ? +input.value
          : k === "set" ? $$("input:checked", input).map((c) => c.value) : input.value;
      }
      options.start_points = +$("#start-points").value;
      const players = [0, 1, 2, 3].map((i) => $(`[name=player${i}]`).value);
      const out = await act(() => api("POST", "/api/games", { players, ruleset: $("#preset").value, options }));
      if (out) location.href = "/";
    });
  }

  if (page === "draw") {
    const tenpai = new Set(), nagashi = new Set();
    live((s) => {
      if (!s.game) return;
      if ($("#tenpai").children.length) return;
      toggles($("#tenpai"), s.seats, tenpai);
      toggles($("#nagashi"), s.seats, nagashi);
      // Tenpai from a photo of the seat's hand: capture, read, check the waits.
      $("#tenpai-photo").replaceChildren(...s.seats.map((seat) => el("button", {
        class: "btn small", type: "button", "data-seat": seat.seat,
        text: t("draw.photo", { name: seatName(seat) }), onclick: async () => {
          const cap = await act(() => api("POST", "/api/captures"));
          if (!cap) return;
          if (!cap.recognised) { K.toast(cap.message, true); return; }
          const h = cap.hand;
          const tiles = [...h.concealed, ...(h.win ? [h.win] : [])].map((x) => x.label).join(",");
          const melds = h.melds.map((m) => ({ kind: m.kind, tiles: m.tiles.map((x) => x.label).join(",") }));
          const out = await act(() => api("POST", "/api/tenpai", { concealed: tiles, melds }));
          if (!out) return;
          if (out.tenpai) tenpai.add(seat.seat); else tenpai.delete(seat.seat);
          toggles($("#tenpai"), s.seats, tenpai);
          $("#tenpai-result").textContent = `${seatName(seat)}: ` + (out.tenpai
            ? t("draw.is_tenpai", { waits: out.waits.join(" ") }) : t("draw.not_tenpai"));
        } })));
    });
    $("#draw-apply").addEventListener("click", async () => {
      const out = await act(() => api("POST", "/api/draws", { tenpai: [...tenpai].sort(), nagashi: [...nagashi].sort() }));
      if (out) K.backToTable(t("draw.done"), out);
    });
    for (const b of $$(".abort-btn")) b.addEventListener("click", async () => {
      const out = await act(() => api("POST", "/api/aborts", { kind: b.dataset.kind }));
      if (out) K.backToTable(t("net.abort", { kind: b.textContent.trim() }), out);
    });
  }

  if (page === "other") {
    let built = false;
    live((s) => {
      if (!s.game || built) return;
      built = true;
      $("#chombo").replaceChildren(...s.seats.map((seat) => el("button", { class: "btn danger", type: "button",
        "data-needs-game": true, "data-seat": seat.seat, text: seatName(seat), onclick: async () => {
          const out = await act(() => api("POST", "/api/chombo", { seat: seat.seat }));
          if (out) K.backToTable(t("net.chombo", { who: seatName(seat) }), out);
        } })));
      $("#correction").replaceChildren(...s.seats.map((seat) => el("label", {}, seatName(seat),
        el("input", { type: "number", step: "100", value: "0", "data-seat": seat.seat }))));
    });
    $("#correction-apply").addEventListener("click", async () => {
      const deltas = $$("#correction input").map((i) => +i.value || 0);
      const out = await act(() => api("POST", "/api/corrections", { deltas, reason: $("#reason").value }));
      if (out) K.backToTable(t("net.correction"), out);
    });
    const devices = $("#devices");
    const showDevices = async () => {
      const out = await act(() => api("GET", "/api/tokens"));
      if (!out) return;
      devices.replaceChildren(...(out.tokens.length ? out.tokens.map((tok) => el("li", { class: "row" },
        el("b", { text: tok.name }),
        el("span", { class: "muted", text: tok.expired ? t("other.expired")
          : t("other.expires", { date: new Date(tok.expires * 1000).toLocaleDateString() }) }),
        el("button", { class: "btn danger", type: "button", text: t("other.revoke"), "data-token": tok.id,
          onclick: async () => { if (await act(() => api("DELETE", `/api/tokens/${tok.id}`), t("other.done"))) showDevices(); } })))
        : [el("li", { class: "muted", text: t("other.devices_none") })]));
    };
    if (devices) showDevices();
    $("#end-btn").addEventListener("click", async () => {
      if (!confirm(t("other.end_confirm"))) return;
      const out = await act(() => api("POST", "/api/end"));
      if (out) location.href = "/standings";
    });
  }

  if (page === "history") {
    // The winning hand as the scorer read it ("123m 55p [pon 666s] (kanchan wait on 345s)"):
    // each group of tiles apart, a called meld framed.
    const handTiles = (reading) => el("div", { class: "tiles hand" },
      (reading.split(" (")[0].match(/\[[^\]]*\]|\S+/g) || []).map((g) => el("span",
        { class: g[0] === "[" ? "set called" : "set" }, [...g.matchAll(/(\d+)([mpsz])/g)]
          .flatMap(([, digits, suit]) => [...digits].map((d) => K.tile(d + suit, { small: true }))))));
    const render = async () => {
      const h = await api("GET", "/api/history");
      const s = K.state;
      $("#undo-btn").disabled = !(s && s.can_undo);
      $("#redo-btn").disabled = !(s && s.can_redo);
      $("#entries").replaceChildren(...h.entries.slice().reverse().map((e) => {
        const parts = [el("div", { class: "row" }, el("b", { text: `${e.index + 1}. ${e.round || ""}` }),
          el("span", { text: e.summary }),
          e.deltas ? el("span", { class: "muted", text: e.deltas.map((d, i) => `${h.players[i]} ${fmt(d)}`).join(" · ") }) : null)];
        for (const b of e.breakdowns || []) {
          parts.push(el("div", { class: "muted" }, b.yaku.map((y) => `${y.name} ${y.han}`).join(", ") + (b.dora ? `, dora ${b.dora}` : "") + " — " + b.summary));
          if (b.reading) parts.push(handTiles(b.reading));
        }
        return el("div", { class: "entry" }, parts);
      }));
    };
    $("#undo-btn").addEventListener("click", () => act(() => api("POST", "/api/undo"), t("table.undone")));
    $("#redo-btn").addEventListener("click", () => act(() => api("POST", "/api/redo"), t("table.redone")));
    live(render);
  }

  if (page === "standings") {
    live(async () => {
      const out = await api("GET", "/api/standings");
      $("#standings-state").textContent = out.finished ? t("standings.final_result") : t("standings.provisional");
      $("#standings tbody").replaceChildren(...out.standings.map((r) => el("tr", {},
        el("td", { class: "place", text: r.place }),
        el("td", { class: "player" }, K.tile(`${r.seat + 1}z`, { small: true }), el("span", { text: r.name })),
        el("td", { text: pts(r.points) }),
        el("td", { text: fmt(r.uma) }), el("td", { text: fmt(r.oka) }), el("td", { class: "place", text: r.final.toFixed(1) }))));
    });
  }
});
