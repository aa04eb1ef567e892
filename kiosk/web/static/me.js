// A phone at its seat (/me): its own seat at the bottom and the others where they sit (the next
// seat counter-clockwise on the right, then across, then on the left; at three players right and
// left), each with how far it is from this seat ("7,800 above you"), live. The seat comes from
// the address (/me?seat=2) or was chosen once on this phone (localStorage).
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const { t, live, el, $, $$, WINDS, pts } = K;
  const KEPT = "kiosk.me.seat";
  const asked = new URLSearchParams(location.search).get("seat");
  let mine = asked !== null && /^[0-3]$/.test(asked) ? +asked : null;
  if (mine === null) {
    try { const kept = localStorage.getItem(KEPT); if (kept !== null && /^[0-3]$/.test(kept)) mine = +kept; } catch (e) { /* none */ }
  }
  let state = null;

  function choose(seat) {
    mine = seat;
    try { localStorage.setItem(KEPT, String(seat)); } catch (e) { /* this visit only */ }
    const url = new URL(location.href);
    url.searchParams.set("seat", String(seat));
    history.replaceState(null, "", url);
    if (state) render(state);
  }
  $("#change-seat").addEventListener("click", () => {
    mine = null;
    try { localStorage.removeItem(KEPT); } catch (e) { /* none */ }
    if (state) render(state);
  });

  // Where each other seat sits as seen from `me`.
  const PLACES = { 4: ["right", "across", "left"], 3: ["right", "left"] };

  // How far another seat is from mine, said as such: "7,800 above you", "Level with you".
  function distance(other, me) {
    const d = other.points - me.points;
    if (!d) return el("div", { class: "me-apart even", text: t("me.level") });
    const words = t(d > 0 ? "me.above" : "me.below", { points: "\u0000" }).split("\u0000");
    return el("div", { class: "me-apart " + (d > 0 ? "above" : "below") },
      words[0], el("b", { text: pts(Math.abs(d)) }), words[1] || "");
  }

  function seatBox(seat, place, me) {
    return el("article", { class: "me-seat place-" + place + (seat.dealer ? " dealer" : ""),
                           "data-seat": seat.seat },
      el("div", { class: "watch-name" }, el("span", { class: "wind", text: WINDS()[seat.wind - 1] }),
        el("span", { class: "name", text: seat.name }),
        seat.dealer ? el("span", { class: "dealer-mark", text: t("table.dealer") }) : null,
        seat.riichi ? el("span", { class: "stick", title: t("table.riichi") }) : null),
      el("div", { class: "watch-points" }, el("span", { class: "points", text: pts(seat.points) })),
      place === "mine" ? el("div", { class: "me-you", text: t("me.you") }) : distance(seat, me));
  }

  function render(s) {
    state = s;
    $("#no-game").hidden = !!s.game;
    const n = s.seats.length;
    if (!s.game || mine === null || mine >= n) {
      $("#me-table").hidden = true; $("#me-foot").hidden = true;
      $("#choose").hidden = !s.game;
      $("#choices").replaceChildren(...s.seats.map((seat) => el("button", { class: "btn big",
        type: "button", "data-seat": seat.seat, text: `${WINDS()[seat.wind - 1]} ${seat.name}`,
        onclick: () => choose(seat.seat) })));
      return;
    }
    $("#choose").hidden = true;
    $("#me-table").hidden = false; $("#me-foot").hidden = false;
    $("#me-table").className = "me-table seats-" + n;
    $("#round").textContent = t("round", { wind: WINDS()[s.round_wind - 1], hand: s.hand });
    $("#honba").textContent = t("table.honba", { n: s.honba });
    $("#sticks").textContent = t("table.sticks", { n: s.riichi_sticks });
    const me = s.seats[mine];
    for (const old of $$(".me-seat")) old.remove();
    $("#me-table").append(seatBox(me, "mine", me),
      ...PLACES[n].map((place, i) => seatBox(s.seats[(mine + i + 1) % n], place, me)));
  }
  live(render);
});
