// The smaller pages: draws, chombo / correction / end, history, standings (the new-game form:
// new_game.js; the games list: games.js).
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const { t, api, act, action, live, el, $, $$, WINDS, fmt, pts } = K;
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

  if (page === "draw") {
    const tenpai = new Set(), nagashi = new Set();
    live((s) => {
      if (!s.game) return;
      // Only the abortive draws these rules know (three rons only where they abort the hand).
      const aborts = s.game.offers ? s.game.offers.aborts : null;
      for (const b of $$(".abort-btn")) b.hidden = !!aborts && !aborts.includes(b.dataset.kind);
      if ($("#tenpai").children.length) return;
      toggles($("#tenpai"), s.seats, tenpai);
      toggles($("#nagashi"), s.seats, nagashi);
      // Tenpai from a photo (taken, uploaded or typed, and corrected): draw_tenpai.js, which
      // taps a seat's #tenpai toggle when the check says otherwise.
    });
    // Each change is one action (K.action): a double tap records it once.
    $("#draw-apply").addEventListener("click", action(async (key) => {
      const out = await api("POST", "/api/draws", { tenpai: [...tenpai].sort(), nagashi: [...nagashi].sort() }, { key });
      K.backToTable(t("draw.done"), out);
      return out;
    }));
    for (const b of $$(".abort-btn")) b.addEventListener("click", action(async (key) => {
      const out = await api("POST", "/api/aborts", { kind: b.dataset.kind }, { key });
      K.backToTable(t("net.abort", { kind: b.textContent.trim() }), out);
      return out;
    }));
  }

  if (page === "other") {
    // One section at a time: a tab shows its panel (other.html).
    const tabs = $$("#other-tabs [role=tab]");
    for (const tab of tabs) tab.addEventListener("click", () => {
      for (const other of tabs) {
        other.setAttribute("aria-selected", String(other === tab));
        $("#" + other.getAttribute("aria-controls")).hidden = other !== tab;
      }
    });
    let built = false;
    live((s) => {
      if (!s.game || built) return;
      built = true;
      // What a chombo costs shows before it is applied: under each seat's button.
      const cost = (seat) => {
        const c = s.game.offers && s.game.offers.chombo && s.game.offers.chombo[seat.seat];
        if (!c) return null;
        const said = [c.pays ? t("other.chombo_pays", { points: pts(c.pays) }) : "",
          c.final ? t("other.chombo_final", { points: pts(c.final) }) : ""].filter(Boolean);
        return said.length ? el("span", { class: "chombo-cost", text: said.join(" · ") }) : null;
      };
      $("#chombo").replaceChildren(...s.seats.map((seat) => el("button", { class: "btn danger", type: "button",
        "data-needs-game": true, "data-seat": seat.seat, onclick: action(async (key) => {
          const out = await api("POST", "/api/chombo", { seat: seat.seat }, { key });
          K.backToTable(t("net.chombo", { who: seatName(seat) }), out);
          return out;
        }) }, el("span", { text: seatName(seat) }), cost(seat))));
      $("#correction").replaceChildren(...s.seats.map((seat) => el("label", {}, seatName(seat),
        el("input", { type: "number", step: "100", value: "0", "data-seat": seat.seat }))));
    });
    $("#correction-apply").addEventListener("click", action(async (key) => {
      const deltas = $$("#correction input").map((i) => +i.value || 0);
      const out = await api("POST", "/api/corrections", { deltas, reason: $("#reason").value }, { key });
      K.backToTable(t("net.correction"), out);
      return out;
    }));
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
    $("#end-btn").addEventListener("click", action(async (key) => {
      if (!confirm(t("other.end_confirm"))) return null;
      const out = await api("POST", "/api/end", undefined, { key });
      K.leave("/standings");
      return out;
    }));
  }

  if (page === "history") {
    // The winning hand as the scorer read it ("123m 55p [pon 666s] (kanchan wait on 345s)"):
    // each group of tiles apart, a called meld framed.
    const handTiles = (reading) => el("div", { class: "tiles hand" },
      (reading.split(" (")[0].match(/\[[^\]]*\]|\S+/g) || []).map((g) => el("span",
        { class: g[0] === "[" ? "set called" : "set" }, [...g.matchAll(/(\d+)([mpsz])/g)]
          .flatMap(([, digits, suit]) => [...digits].map((d) => K.tile(d + suit, { small: true }))))));
    // The same with the red fives and each meld's sideways tile (the record's `tiles`).
    const drawnTiles = (d) => el("div", { class: "tiles hand" },
      d.groups.map((g) => el("span", { class: "set" }, g.map((x) => K.tile(x, { small: true })))),
      d.melds.map((m) => el("span", { class: "set called", "data-meld": m.kind },
        m.tiles.map((x, i) => K.tile(x, { small: true, sideways: i === m.sideways })))));
    const render = async () => {
      const h = await api("GET", "/api/history");
      const s = K.state;
      $("#undo-btn").disabled = !(s && s.can_undo);
      $("#redo-btn").disabled = !(s && s.can_redo);
      $("#entries").replaceChildren(...h.entries.slice().reverse().map((e) => {
        // In the page's language (the server words each entry from the event, not its `summary`).
        const parts = [el("div", { class: "row" }, el("b", { text: `${e.index + 1}. ${e.round_text}` }),
          el("span", { text: e.text }),
          e.deltas ? el("span", { class: "muted", text: e.deltas.map((d, i) => `${h.players[i]} ${fmt(d)}`).join(" · ") }) : null)];
        for (const hand of e.hands || []) {
          parts.push(el("div", { class: "muted" }, hand.text));
          if (hand.tiles) parts.push(drawnTiles(hand.tiles));
          else if (hand.reading) parts.push(handTiles(hand.reading));
        }
        return el("div", { class: "entry", "data-index": e.index, "data-type": e.type }, parts);
      }));
    };
    $("#undo-btn").addEventListener("click", action((key) => api("POST", "/api/undo", undefined, { key }), t("table.undone")));
    $("#redo-btn").addEventListener("click", action((key) => api("POST", "/api/redo", undefined, { key }), t("table.redone")));
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
