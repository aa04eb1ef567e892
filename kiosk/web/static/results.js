// The final ranking by itself (/results): one row a player, in place order, from
// GET /api/standings (provisional while the game runs), live. The columns are a list: a money
// column (chips, the settlement) is one more entry, pushed from its own script loaded after this
// one (RESULTS.columns.splice(...)), before the page is drawn at DOMContentLoaded.
"use strict";
const RESULTS = (() => {
  const { t, api, live, el, $, pts } = K;
  // One decimal, signed: uma +20.0, oka +20.0, a final score of +43.0 (thousands of points).
  const score = (n) => (n > 0 ? "+" : "") + n.toFixed(1);
  const columns = [
    { id: "place", head: "results.place", cell: (r) => String(r.place) },
    { id: "name", head: "standings.player", cell: (r) => r.name },
    { id: "points", head: "standings.points", cell: (r) => pts(r.points) },
    { id: "uma", head: "standings.uma", cell: (r) => score(r.uma) },
    { id: "oka", head: "standings.oka", cell: (r) => score(r.oka) },
    // Only where a chombo was deducted at the end.
    { id: "penalty", head: "group.penalties", cell: (r) => score(-r.penalty),
      shown: (rows) => rows.some((r) => r.penalty) },
    { id: "final", head: "standings.final", cell: (r) => score(r.final) },
  ];

  function draw(out) {
    const rows = out.standings;
    const shown = columns.filter((c) => !c.shown || c.shown(rows, out));
    $("#results-title").textContent = t(out.finished ? "results.title" : "results.now");
    $("#results-state").hidden = out.finished;
    $("#ranking thead tr").replaceChildren(...shown.map((c) => el("th", { class: "c-" + c.id,
      text: t(c.head) })));
    $("#ranking tbody").replaceChildren(...rows.map((r) => el("tr", { "data-seat": r.seat,
      "data-place": r.place, class: "place-" + r.place },
      shown.map((c) => el("td", { class: "c-" + c.id, text: c.cell(r, out) })))));
  }

  // Back where the page came from (a same-site path only): the table, the TV or a phone's seat.
  const back = new URLSearchParams(location.search).get("back");
  const home = back && /^\/(?!\/)/.test(back) ? back : "/";
  let game = null;
  document.addEventListener("DOMContentLoaded", () => {
    $("#results-back").href = home;
    live(async (s) => {
      // A new game started (from any device): the screen goes back to follow it.
      if (game && s.game && s.game.id !== game && back) { location.href = home; return; }
      game = s.game ? s.game.id : null;
      draw(await api("GET", "/api/standings"));
    });
  });
  return { columns, draw };
})();
