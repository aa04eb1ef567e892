// The photo's guidance on the win page (issue 38, items 2 and 3). What to check in a reading
// sits over the tiles, in sight at 800x480, and is said again after every edit (POST
// /api/reading/check, the capture's own checks), so it never goes stale. Where the hand has its
// 14 tiles but none set apart as the winning tile, it asks "Which tile won?" with the hand's
// tiles, the likeliest first (those that complete the hand, then from the row's end back): one
// tap on one makes it the winning tile. And "How to lay out" shows the photo convention drawn
// with the kiosk's own tile faces (docs/photo-layout.md).
"use strict";
const GUIDE = (() => {
  const { t, api, el, $, tile } = K;

  // `tiles`: the win page's editor (win_fix.js). load(out) with each reading (a capture, an
  // upload, or the typed-in start); changed() after every edit.
  function checker(tiles) {
    let on = false, fixed = "", timer = null, asked = 0;

    function say(out, order) {
      const problems = out.problems || [], choices = out.win_choices || [];
      const n = tiles.counted(), doubt = tiles.doubtful();
      const checks = problems.filter((p) => p !== out.set_aside);
      $("#reading-message").textContent = fixed || (!on || choices.length ? ""
        : doubt ? t("reading.check", { n, d: doubt }) : checks.length ? "" : t("reading.all_good", { n }));
      $("#reading-problems").replaceChildren(...problems.map((p) => el("li", { text: p,
        class: p === out.set_aside ? "aside" : "" })));
      const hand = order ? tiles.seen().hand.concealed : [];
      $("#win-ask").hidden = !order || !choices.length;
      $("#win-ask-tiles").replaceChildren(...(order ? choices : []).map((i, k) => {
        const b = tile(hand[i].label, { onclick: () => tiles.toWin(order[i]) });
        if (k < out.completing) b.classList.add("completes");
        return b;
      }));
    }
    // `fallback`: said if the check cannot be made (the capture's own problems).
    async function recheck(fallback) {
      const mine = ++asked, seen = tiles.seen();
      if (!seen.hand.concealed.length && !seen.hand.win) { on = false; say({}); return; }
      const out = await api("POST", "/api/reading/check", { hand: seen.hand })
        .catch(() => fallback || null);
      if (out && mine === asked && on) say(out, out === fallback ? null : seen.order);
    }
    // A read photo is checked at once: its problems said as they stand after loading.
    function load(out) {
      on = !!out.recognised && !!(out.hand && (out.hand.concealed.length || out.hand.win));
      fixed = out.message || "";
      clearTimeout(timer);
      asked += 1;
      if (on) recheck(out); else say(out);
    }
    function changed() {
      $("#win-ask").hidden = true;  // its tiles may have moved: asked again with the answer
      if (!on) return;
      fixed = "";
      clearTimeout(timer);
      timer = setTimeout(recheck, 120);
    }
    return { load, changed };
  }

  // --- how to lay out the hand: the photo convention, drawn ----------------------------------
  // One row facing the camera: the hand, a small gap, the winning tile, then the called melds as
  // they lie (the called tile sideways; a closed kan with its two outer tiles face down); a
  // second row, optional, with the dora indicators. The example is a real hand: 234m 678p 5s
  // waiting on 5s, a pon of Chun called from across, a closed kan of East.
  const EXAMPLE = [
    ["hand", ["2m", "3m", "4m", "6p", "7p", "8p", "5s"]],
    ["win", ["5s"]],
    ["melds", ["7z", "7z", "7z"], 1],
    ["kan", ["back", "1z", "1z", "back"]],
  ];
  const DORA = ["3s", "9m"];

  function group(name, labels, sideways, n) {
    return el("figure", { class: "lay-group lay-" + name, "data-group": name },
      el("span", { class: "lay-n", text: String(n) }),
      el("div", { class: "tiles" }, labels.map((l, i) => tile(l, { sideways: i === sideways }))));
  }
  function picture() {
    const row = EXAMPLE.map(([name, labels, side], i) => group(name, labels, side, i + 1));
    return el("div", { class: "lay-picture", id: "lay-picture", role: "img",
                       "aria-label": t("layout.title") },
      el("div", { class: "lay-row" }, row),
      el("div", { class: "lay-row lay-second" }, group("dora", DORA, null, 5)));
  }
  function dialog() {
    let box = $("#layout-dialog");
    if (box) return box;
    const legend = ["hand", "win", "melds", "kan", "dora"].map((k, i) => el("li", {
      value: String(i + 1), text: t("layout." + k) }));
    box = el("dialog", { id: "layout-dialog", class: "layout-dialog",
                         "aria-labelledby": "layout-title" },
      el("form", { method: "dialog" },
        el("h2", { id: "layout-title", text: t("layout.title") }),
        picture(),
        el("ol", { class: "lay-legend" }, legend),
        el("p", { class: "muted", text: t("layout.rest") }),
        el("button", { class: "btn primary", value: "close", id: "layout-close",
                       text: t("common.ok") })));
    document.body.append(box);
    return box;
  }
  function showLayout() { dialog().showModal(); }

  return { checker, showLayout, picture };
})();
