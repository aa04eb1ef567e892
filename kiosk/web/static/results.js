// The final ranking: one row a player, in place order, from GET /api/standings (provisional while
// the game runs). Drawn on /results, a page by itself (live; Back goes where it came from), and
// over the table screen, the TV and the phones when the game ends (moments.js). The columns are
// a list: a money column (chips, the settlement) is one more entry, pushed from its own script
// loaded after this one (RESULTS.columns.splice(...)), before anything is drawn.
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

  // `out`: GET /api/standings. The table of the ranking, its columns as the list says.
  function table(out) {
    const rows = out.standings;
    const shown = columns.filter((c) => !c.shown || c.shown(rows, out));
    return el("table", { class: "ranking" },
      el("thead", {}, el("tr", {}, shown.map((c) => el("th", { class: "c-" + c.id, text: t(c.head) })))),
      el("tbody", {}, rows.map((r) => el("tr", { "data-seat": r.seat, "data-place": r.place,
        class: "place-" + r.place }, shown.map((c) => el("td", { class: "c-" + c.id,
        text: c.cell(r, out) }))))));
  }
  const title = (out) => t(out.finished ? "results.title" : "results.now");

  // The page /results: back where it came from (a path of this kiosk only), and there by itself
  // when the next game starts.
  document.addEventListener("DOMContentLoaded", () => {
    if (!$("#results")) return;
    const back = new URLSearchParams(location.search).get("back");
    const home = back && /^\/(?!\/)/.test(back) ? back : "/";
    $("#results-back").href = home;
    let game = null;
    live(async (s) => {
      if (game && s.game && s.game.id !== game && back) { location.href = home; return; }
      game = s.game ? s.game.id : null;
      const out = await api("GET", "/api/standings");
      $("#results-title").textContent = title(out);
      $("#results-state").hidden = out.finished;
      const drawn = table(out);
      drawn.id = "ranking";
      $("#ranking").replaceWith(drawn);
    });
  });
  return { columns, table, title };
})();
