// The table screen: four seats (three at sanma), round / honba / sticks, riichi taps, undo / redo, live.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const { t, api, live, $, $$, WINDS, fmt, pts } = K;
  const MOVED_MS = 6000;  // how long what moved stays marked
  // The live state is the same for every open page: it names the last event in each language.
  const LANG = document.documentElement.lang;
  // What this tab's table page showed last, kept across page loads: the Win, Draw and Chombo
  // pages come back here with a fresh page, which shows what moved since, as a watching page does.
  const SEEN = "kiosk.table.seen";
  let state = null;
  let shown = null;  // the seat whose point differences are open
  let seen = null;
  try { seen = JSON.parse(sessionStorage.getItem(SEEN)); } catch (e) { seen = null; }
  let movedTimer = null;

  const snapshot = (s) => ({ game: s.game.id, events: s.game.events, honba: s.honba,
                             sticks: s.riichi_sticks, points: s.seats.map((x) => x.points) });
  const same = (a, b) => a.events === b.events && a.honba === b.honba && a.sticks === b.sticks
    && a.points.every((p, i) => p === b.points[i]);

  function render(s) {
    state = s;
    if (!s.game) { $("#round").textContent = t("table.no_game"); return; }
    // A new game of another size (three players after four, started from another device):
    // the server lays out the seats, so load the page again rather than show a wrong table.
    if (s.seats.length !== +$("#table").dataset.seats) { location.reload(); return; }
    const now = snapshot(s);
    const before = seen && seen.game === now.game && seen.points.length === now.points.length
      ? seen : null;
    seen = now;
    try { sessionStorage.setItem(SEEN, JSON.stringify(now)); } catch (e) { /* not kept */ }
    $("#round").textContent = t("round", { wind: WINDS()[s.round_wind - 1], hand: s.hand });
    $("#honba").textContent = t("table.honba", { n: s.honba });
    $("#sticks").textContent = t("table.sticks", { n: s.riichi_sticks });
    $("#ruleset").textContent = s.game.ruleset_name[LANG];
    $("#finished").hidden = !s.finished;
    $("#undo-btn").disabled = !s.can_undo;
    $("#redo-btn").disabled = !s.can_redo;
    $("#last-event").textContent = s.last_event ? s.last_event.text[LANG] : "";
    for (const seat of s.seats) {
      const box = $(`.seat[data-seat="${seat.seat}"]`);
      box.classList.toggle("dealer", seat.dealer);
      $(".wind", box).textContent = WINDS()[seat.wind - 1];
      $(".dealer-mark", box).textContent = seat.dealer ? t("table.dealer") : "";
      $(".name", box).textContent = seat.name;
      $(".points", box).textContent = pts(seat.points);
      $(".stick", box).hidden = !seat.riichi;
      // Chips (祝儀) beside the points, where the rules pay them.
      $(".chips", box).hidden = !s.game.chips;
      $(".chips", box).textContent = t("table.chips", { chips: fmt(seat.chips) });
      // Riichi is offered to a seat that may declare it: not twice, not below the stick's points
      // where the rules need them. After the game app.js's gate says why it is off.
      const from = s.game.offers ? s.game.offers.riichi_from : 0;
      $(".riichi-btn", box).disabled = seat.riichi || seat.points < from;
    }
    showDiffs(shown);
    fitNames();
    if (before && !same(before, now)) showMoved(before, s);
  }

  // A name is shown whole: one wider than its seat (12 wide letters, a long name) is set smaller,
  // down to 12 px, and past that wraps, rather than being cut.
  function fitNames() {
    for (const name of $$(".seat .name")) {
      name.style.fontSize = "";
      name.style.whiteSpace = "";
      let size = parseFloat(getComputedStyle(name).fontSize);
      while (name.scrollWidth > name.clientWidth + 1 && size > 12) {
        size -= 1;
        name.style.fontSize = `${size}px`;
      }
      if (name.scrollWidth > name.clientWidth + 1) name.style.whiteSpace = "normal";
    }
  }
  fitNames();
  window.addEventListener("resize", fitNames);
  // Phones join on request: the QR code and the PIN in a dialog.
  $("#join-btn").addEventListener("click", () => $("#join-dialog").showModal());

  // For a few seconds: each seat's change, the new honba and sticks, and what happened.
  function showMoved(before, s) {
    for (const seat of s.seats) {
      const box = $(`.seat[data-seat="${seat.seat}"]`);
      const change = seat.points - before.points[seat.seat];
      const delta = $(".delta", box);
      delta.textContent = change ? fmt(change) : "±0";
      delta.className = "delta " + (change > 0 ? "plus" : change < 0 ? "minus" : "even");
      box.classList.toggle("moved", change !== 0);
    }
    $("#honba").classList.toggle("changed", before.honba !== s.honba);
    $("#sticks").classList.toggle("changed", before.sticks !== s.riichi_sticks);
    $("#counters").classList.add("moved");
    const one = s.game.events === before.events + 1 && s.last_event;
    $("#moved").textContent = one ? s.last_event.text[LANG] : "";
    $("#moved").hidden = !one;
    $("#ruleset").hidden = !!one;
    // The last event shows once: in the centre while it is new, under the table after.
    $("#last-event").hidden = !!one;
    clearTimeout(movedTimer);
    movedTimer = setTimeout(settle, MOVED_MS);
  }
  function settle() {
    for (const box of $$(".seat")) {
      box.classList.remove("moved");
      $(".delta", box).textContent = "";
      $(".delta", box).className = "delta";
    }
    for (const id of ["#honba", "#sticks"]) $(id).classList.remove("changed");
    $("#counters").classList.remove("moved");
    $("#moved").hidden = true;
    $("#ruleset").hidden = false;
    $("#last-event").hidden = false;
  }

  function showDiffs(seatNo) {
    shown = seatNo;
    for (const box of $$(".seat")) {
      const diffs = $(".diffs", box);
      const me = +box.dataset.seat;
      diffs.hidden = seatNo !== me;
      if (seatNo !== me || !state || !state.game) continue;
      const mine = state.seats[me].points;
      // Said for what they are: how far this seat is from each other seat.
      diffs.textContent = t("table.diffs", { list: state.seats.filter((o) => o.seat !== me)
        .map((o) => `${o.name} ${fmt(mine - o.points)}`).join(" · ") });
    }
  }

  for (const box of $$(".seat")) {
    box.addEventListener("click", (ev) => {
      if (ev.target.closest(".riichi-btn")) return;
      const seat = +box.dataset.seat;
      showDiffs(shown === seat ? null : seat);
    });
  }
  // Riichi applies at once; the toast names whose it was and offers its Undo.
  // Each tap is one action (K.action): a double tap records it once.
  for (const button of $$(".riichi-btn")) {
    button.addEventListener("click", K.action(async (key) => {
      const out = await api("POST", "/api/riichi", { seat: +button.dataset.seat }, { key });
      K.offer(out);
      const seat = out.seats[+button.dataset.seat];
      K.undoable(t("net.riichi", { who: `${WINDS()[seat.wind - 1]} ${seat.name}` }), out);
      return out;
    }));
  }
  const step = (path, done) => K.action(async (key) => K.offer(await api("POST", path, undefined, { key })), done);
  $("#undo-btn").addEventListener("click", step("/api/undo", t("table.undone")));
  $("#redo-btn").addEventListener("click", step("/api/redo", t("table.redone")));
  live(render);
  const displayBox = $("#display-state");
  api("GET", "/api/display").then((d) => {
    if (d.configured) displayBox.textContent = t(d.connected ? "display.on" : "display.off");
  }).catch(() => {});
});
