// Chips and money at the end of a game (issue 39). On the standings page a settlement table from
// GET /api/standings: each player's chips and, where the rules have stakes (Ruleset.stakes), the
// money: the final score at the rate per 1,000 points, the chips at their value, the game fee,
// the total (scorer.table.money.settle_money). On the results page (results.js) two more
// columns, chips and money, where it is loaded after results.js.
"use strict";
(() => {
  const { t, api, live, el, $, fmt } = K;
  const money = (out, r) => out.money.lines.find((l) => l.seat === r.seat);
  if (typeof RESULTS !== "undefined") {
    const at = RESULTS.columns.findIndex((c) => c.id === "final") + 1;
    RESULTS.columns.splice(at, 0,
      { id: "chips", head: "settle.chips", cell: (r) => fmt(r.chips), shown: (rows, out) => out.chips },
      { id: "money", head: "settle.total", cell: (r, out) => fmt(money(out, r).total),
        shown: (rows, out) => !!out.money });
  }

  function stakes(m) {
    const said = [t("settle.rate", { rate: m.rate.toLocaleString("en-US") })];
    if (m.chip) said.push(t("settle.chip_value", { chip: m.chip.toLocaleString("en-US") }));
    if (m.game_fee) said.push(t("settle.game_fee", { fee: m.game_fee.toLocaleString("en-US") }));
    if (m.top_fee) said.push(t("settle.top_fee", { fee: m.top_fee.toLocaleString("en-US") }));
    return said.join(" · ");
  }

  function draw(out) {
    const box = $("#settlement");
    box.hidden = !out.money && !out.chips;
    if (box.hidden) return;
    const m = out.money;
    const heads = ["#", t("standings.player"), t("settle.chips")]
      .concat(m ? [t("settle.for_score"), t("settle.for_chips"), t("settle.fee"), t("settle.total")] : []);
    const rows = out.standings.map((r) => {
      const cells = [String(r.place), r.name, fmt(r.chips)];
      if (m) {
        const line = money(out, r);
        cells.push(fmt(line.for_score), fmt(line.for_chips), line.fee ? fmt(-line.fee) : "0", fmt(line.total));
      }
      return el("tr", { "data-seat": r.seat }, cells.map((c, i) => el("td", {
        class: i > 1 ? "num" : "", text: c })));
    });
    $("#settlement-stakes").textContent = m ? stakes(m) : "";
    $("#settlement-house").textContent = m && m.lines.some((l) => l.fee)
      ? t("settle.house", { fee: m.lines.reduce((a, l) => a + l.fee, 0).toLocaleString("en-US") }) : "";
    $("#settlement-table").replaceChildren(el("thead", {}, el("tr", {}, heads.map((h) => el("th", { text: h })))),
      el("tbody", {}, rows));
  }

  document.addEventListener("DOMContentLoaded", () => {
    if (!$("#settlement")) return;
    live(async () => draw(await api("GET", "/api/standings")));
  });
})();
