// The table screen: four seats, round / honba / sticks, riichi taps, undo / redo, live.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const { t, api, act, live, $, $$, WINDS, fmt, pts } = K;
  let state = null;
  let shown = null;  // the seat whose point differences are open

  function render(s) {
    const prev = state;
    state = s;
    if (!s.game) { $("#round").textContent = t("table.no_game"); return; }
    $("#round").textContent = t("round", { wind: WINDS()[s.round_wind - 1], hand: s.hand });
    $("#honba").textContent = t("table.honba", { n: s.honba });
    $("#sticks").textContent = t("table.sticks", { n: s.riichi_sticks });
    $("#ruleset").textContent = s.game.ruleset;
    $("#finished").hidden = !s.finished;
    $("#undo-btn").disabled = !s.can_undo;
    $("#redo-btn").disabled = !s.can_redo;
    $("#last-event").textContent = s.last_event ? s.last_event.summary : "";
    for (const seat of s.seats) {
      const box = $(`.seat[data-seat="${seat.seat}"]`);
      box.classList.toggle("dealer", seat.dealer);
      $(".wind", box).textContent = WINDS()[seat.wind - 1];
      $(".dealer-mark", box).textContent = seat.dealer ? t("table.dealer") : "";
      $(".name", box).textContent = seat.name;
      $(".points", box).textContent = pts(seat.points);
      $(".stick", box).hidden = !seat.riichi;
      const delta = $(".delta", box);
      const change = prev && prev.game && prev.game.id === s.game.id
        ? seat.points - prev.seats[seat.seat].points : 0;
      delta.textContent = change ? fmt(change) : "";
      delta.className = "delta " + (change > 0 ? "plus" : change < 0 ? "minus" : "");
      const riichi = $(".riichi-btn", box);
      riichi.disabled = seat.riichi || s.finished;
    }
    showDiffs(shown);
  }

  function showDiffs(seatNo) {
    shown = seatNo;
    for (const box of $$(".seat")) {
      const diffs = $(".diffs", box);
      const me = +box.dataset.seat;
      diffs.hidden = seatNo !== me;
      if (seatNo !== me || !state || !state.game) continue;
      const mine = state.seats[me].points;
      diffs.textContent = state.seats.filter((o) => o.seat !== me)
        .map((o) => `${o.name} ${fmt(mine - o.points)}`).join(" · ");
    }
  }

  for (const box of $$(".seat")) {
    box.addEventListener("click", (ev) => {
      if (ev.target.closest(".riichi-btn")) return;
      const seat = +box.dataset.seat;
      showDiffs(shown === seat ? null : seat);
    });
  }
  for (const button of $$(".riichi-btn")) {
    button.addEventListener("click", () =>
      act(() => api("POST", "/api/riichi", { seat: +button.dataset.seat }), t("table.riichi_done")));
  }
  $("#undo-btn").addEventListener("click", () => act(() => api("POST", "/api/undo"), t("table.undone")));
  $("#redo-btn").addEventListener("click", () => act(() => api("POST", "/api/redo"), t("table.redone")));
  live(render);
  const displayBox = $("#display-state");
  api("GET", "/api/display").then((d) => {
    if (d.configured) displayBox.textContent = t(d.connected ? "display.on" : "display.off");
  }).catch(() => {});
});
