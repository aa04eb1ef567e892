// The TV beside the table (/tv): each seat's points in large digits and how far it is from each
// other seat (its points less theirs, as the table screen's "Points apart"), live; for a few
// seconds after a change, what each seat gained or lost.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const { t, live, el, $, WINDS, fmt, pts } = K;
  const MOVED_MS = 6000;
  let before = null, movedTimer = null;

  // The round, honba and sticks: one line over the seats.
  function centre(s) {
    $("#round").textContent = t("round", { wind: WINDS()[s.round_wind - 1], hand: s.hand });
    $("#honba").textContent = t("table.honba", { n: s.honba });
    $("#sticks").textContent = t("table.sticks", { n: s.riichi_sticks });
  }

  const apart = (seat, s) => el("ul", { class: "apart" }, s.seats.filter((o) => o.seat !== seat.seat)
    .map((o) => {
      const d = seat.points - o.points;
      return el("li", { "data-seat": o.seat }, el("span", { class: "who", text: o.name }),
        el("b", { class: d > 0 ? "plus" : d < 0 ? "minus" : "even", text: d ? fmt(d) : "±0" }));
    }));

  function render(s) {
    $("#no-game").hidden = !!s.game;
    $("#tv").hidden = !s.game;
    if (!s.game) return;
    centre(s);
    const moved = before && before.game === s.game.id && before.points.length === s.seats.length
      ? before.points : null;
    $("#seats").className = "tv-seats seats-" + s.seats.length;
    $("#seats").replaceChildren(...s.seats.map((seat) => {
      const change = moved ? seat.points - moved[seat.seat] : 0;
      return el("article", { class: "tv-seat" + (seat.dealer ? " dealer" : ""), "data-seat": seat.seat },
        el("div", { class: "watch-name" }, el("span", { class: "wind", text: WINDS()[seat.wind - 1] }),
          el("span", { class: "name", text: seat.name }),
          seat.dealer ? el("span", { class: "dealer-mark", text: t("table.dealer") }) : null,
          seat.riichi ? el("span", { class: "stick", title: t("table.riichi") }) : null,
          change ? el("span", { class: "delta " + (change > 0 ? "plus" : "minus"), text: fmt(change) })
            : null),
        el("div", { class: "watch-points" }, el("span", { class: "points", text: pts(seat.points) })),
        el("div", { class: "tv-apart" }, el("div", { class: "apart-head", text: t("tv.apart") }),
          apart(seat, s)));
    }));
    const changed = moved && s.seats.some((seat) => seat.points !== moved[seat.seat]);
    before = { game: s.game.id, points: s.seats.map((x) => x.points) };
    if (changed) {
      // The gains show a few seconds, then the seats settle.
      clearTimeout(movedTimer);
      movedTimer = setTimeout(() => {
        for (const d of document.querySelectorAll(".tv-seat .delta")) d.remove();
      }, MOVED_MS);
    }
  }
  live(render);
});
