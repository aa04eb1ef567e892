// The moments after a change, on the pages that watch the table (the table screen, /tv, /me):
// a win shown over the whole screen for a few seconds, as the online platforms show it (the
// winner, the yaku, the limit's name, the points and each seat's change; a tap puts it away),
// and at the game's end the final ranking over the screen until a tap (results.js draws it).
// A moment shows once a tab: for a change newer than what this tab showed last (kept in the
// tab's sessionStorage, so the table page the win page goes back to shows the win it applied).
"use strict";
const MOMENTS = (() => {
  const { t, api, live, el, $, fmt, pts } = K;
  const SHOW_MS = 6000;  // how long a win stays over the screen
  const SEEN = "kiosk.moment.seen";
  let seen = null;
  try { seen = JSON.parse(sessionStorage.getItem(SEEN)); } catch (e) { seen = null; }
  let timer = null, after = null;

  // "Mangan", "満貫", "2x yakuman"; below the limits "3 han 40 fu" (the catalogue's own words).
  function worth(b) {
    if (b.yakuman > 1) return t("limit.yakuman_n", { n: b.yakuman });
    if (b.limit) return t("limit." + b.limit.replace(" ", "_"));
    return t("summary.han_fu", { han: b.han, fu: b.fu });
  }
  const hanOf = (y) => (y.yakuman ? (y.yakuman > 1 ? t("limit.yakuman_n", { n: y.yakuman })
    : t("limit.yakuman")) : y.han + " " + t("han"));
  const known = (key) => t(key) !== key;
  const yakuName = (y) => (known("yaku." + y.id) ? t("yaku." + y.id) : y.name);

  // One hand of the win: who won and how, the limit's name, the points, the yaku.
  // A ron by the rules core's summary ("ron off Bun: ..."), its discarder the one who paid.
  function hand(b, s, ron) {
    const lines = b.payment_lines || [];
    const paid = lines.filter((l) => l.kind === "hand");
    const winner = paid.length ? paid[0].to : lines.length ? lines[0].to : null;
    const payers = new Set(paid.flatMap((l) => l.from));
    const who = (seat) => (seat === null || !s.seats[seat] ? "" : s.seats[seat].name);
    const head = ron && payers.size
      ? t("moment.ron", { winner: who(winner), from: who([...payers][0]) })
      : t("moment.tsumo", { winner: who(winner) });
    const yaku = b.yaku.concat(b.dora_lines || []);
    return el("section", { class: "moment-hand", "data-winner": winner },
      el("div", { class: "moment-head", text: head }),
      el("div", { class: "moment-limit" + (b.limit ? " limit-" + b.limit.replace(" ", "_") : ""),
                  text: worth(b) }),
      el("div", { class: "moment-points", text: pts(b.points) }),
      el("ul", { class: "moment-yaku" }, yaku.map((y) => el("li", { "data-yaku": y.id },
        el("span", { text: yakuName(y) }), el("b", { text: hanOf(y) })))));
  }

  // Each seat's change, the honba and the riichi sticks counted (the event's deltas).
  function changes(deltas, s) {
    return el("table", { class: "moment-changes" }, s.seats.map((seat) => {
      const d = deltas[seat.seat];
      return el("tr", { "data-seat": seat.seat },
        // by name only: the winds have moved on with the hand (the dealer may have passed)
        el("td", { class: "who", text: seat.name }),
        el("td", { class: "delta " + (d > 0 ? "plus" : d < 0 ? "minus" : "even"),
                   text: d ? fmt(d) : "±0" }),
        el("td", { class: "now", text: pts(seat.points) }));
    }));
  }

  function hide() {
    clearTimeout(timer);
    const box = $("#moment");
    if (box) box.remove();
    const next = after;
    after = null;
    if (next) next();
  }

  // `entry`: the win's /api/history entry (its breakdowns; the words in this page's language
  // from the ids), `s` the state after it.
  function show(entry, s, then) {
    hide();
    after = then || null;
    const box = el("div", { id: "moment", class: "moment", role: "dialog", "aria-modal": "true",
                            "aria-label": t("moment.title"), onclick: hide },
      el("div", { class: "moment-card" },
        el("div", { class: "moment-hands" }, entry.breakdowns.map((b) => hand(b, s, /^ron/i.test(entry.summary)))),
        el("div", { class: "moment-side" }, changes(entry.deltas, s),
          el("p", { class: "moment-close", text: t("moment.close") }))));
    document.body.append(box);
    timer = setTimeout(hide, SHOW_MS);
  }

  // At the game's end: the final ranking over the screen (results.js draws it), until a tap;
  // New game and the ranking on a page of its own (/results) from there.
  async function ranking() {
    if ($("#moment")) { after = ranking; return; }  // after the win on the screen
    const out = await api("GET", "/api/standings").catch(() => null);
    if (!out || typeof RESULTS === "undefined" || $("#final-ranking")) return;
    const back = encodeURIComponent(location.pathname + location.search);
    const box = el("div", { id: "final-ranking", class: "moment final", role: "dialog",
                            "aria-modal": "true", "aria-label": RESULTS.title(out),
                            onclick: (ev) => { if (!ev.target.closest("a")) box.remove(); } },
      el("div", { class: "final-card results" },
        el("h1", { text: RESULTS.title(out) }), RESULTS.table(out),
        el("div", { class: "row results-actions" },
          el("a", { class: "btn primary", href: "/new", text: t("nav.new_game") }),
          el("a", { class: "btn", href: "/results?back=" + back, text: t("results.page") }),
          el("span", { class: "moment-close", text: t("moment.close") }))));
    document.body.append(box);
  }

  // One state after another, in order (each may wait for the history): the base of each is the
  // state handled before it, so a win followed at once by the game's end shows both.
  async function handle(s) {
    if (!s.game) return;
    const now = { game: s.game.id, events: s.game.events, finished: !!s.finished };
    const before = seen && seen.game === now.game ? seen : null;
    seen = now;
    try { sessionStorage.setItem(SEEN, JSON.stringify(now)); } catch (e) { /* not kept */ }
    if (!before) return;
    // The end taken back (Undo): the ranking goes with it.
    if (!now.finished && $("#final-ranking")) $("#final-ranking").remove();
    const ended = now.finished && !before.finished;
    if (now.events > before.events) {
      const h = await api("GET", "/api/history").catch(() => null);
      const fresh = h ? h.entries.filter((e) => e.index >= before.events && e.index < now.events) : [];
      const win = fresh.reverse().find((e) => e.type === "win" && e.breakdowns.length);
      if (win) show(win, s, null);
    }
    if (ended) ranking();
  }
  let chain = Promise.resolve();
  live((s) => { chain = chain.then(() => handle(s)).catch(() => {}); });
  return { show, hide, ranking };
})();
