// Ura dora, asked for when it matters (issue 38, item 7): Apply on a riichi win whose ura dora
// were not entered opens this step before the win is applied, since the ura change the score.
// The player turns over the tiles under the dora indicators and taps each ura indicator in; the
// total with them shows at once (POST /api/score); Apply records the win with them, "Apply
// without ura dora" as it was. One ura row serves every riichi winner of a double ron.
"use strict";
const URA = (() => {
  const { t, api, el, $ } = K;
  const MAX = 5;  // as many as the dora indicators: one, and one more for each kan

  const riichiHands = (wins) => wins.filter((w) => w.hand && w.riichi && w.riichi !== "none");
  const count = (labels) => (labels ? labels.split(",").filter(Boolean).length : 0);

  // The wins with `ura` (comma-separated labels) on every riichi hand.
  const withUra = (wins, ura) => wins.map((w) => (w.hand && w.riichi && w.riichi !== "none"
    ? { ...w, hand: { ...w.hand, ura } } : w));

  // Resolves with the wins to apply (the ura in them), or null when the step is cancelled.
  function ask(wins) {
    // Not where the rules play without ura dora (the state's game.offers.ura).
    const offers = K.state && K.state.game && K.state.game.offers;
    const riichi = offers && offers.ura === false ? [] : riichiHands(wins);
    if (!riichi.length || riichi.some((w) => count(w.hand.ura))) return Promise.resolve(wins);
    const most = Math.min(MAX, Math.max(1, ...riichi.map((w) => count(w.hand.dora))));
    let dialog = $("#ura-dialog");
    if (!dialog) {
      dialog = el("dialog", { id: "ura-dialog", class: "ura-dialog" });
      document.body.append(dialog);
    }
    const chosen = [];
    let asked = 0;
    return new Promise((resolve) => {
      const done = (v) => { dialog.close(); resolve(v); };
      const strip = el("div", { class: "tiles ura-chosen", id: "ura-chosen" });
      const total = el("p", { class: "ura-total", id: "ura-total", role: "status" });
      const back = el("button", { class: "btn", type: "button", id: "ura-back",
        text: t("ura.take_back"), onclick: () => { chosen.pop(); changed(); } });
      const grid = K.pickerGrid((label) => {
        if (chosen.length < most) { chosen.push(label); changed(); }
      });
      // What the hand is worth with the ura tapped so far, scored as Apply will record it.
      async function changed() {
        strip.replaceChildren(...chosen.map((l) => K.tile(l)));
        back.disabled = !chosen.length;
        grid.classList.toggle("full", chosen.length >= most);
        const mine = ++asked;
        if (!chosen.length) { total.textContent = ""; return; }
        const trial = withUra(wins, chosen.join(","));
        const out = await api("POST", "/api/score", trial.length > 1 ? { wins: trial } : trial[0])
          .catch(() => null);
        if (mine !== asked || !out) return;
        const said = (out.breakdowns || [out]).map((b) => b.summary).join(" · ");
        total.textContent = t("ura.with", { summary: said });
      }
      dialog.replaceChildren(el("div", { class: "ura-body" },
        el("div", { class: "ura-side" },
          el("h2", { text: t("win.ura") }),
          el("p", { text: t("ura.ask") }),
          strip, total,
          el("div", { class: "row" }, back,
            el("button", { class: "btn", type: "button", id: "ura-cancel", text: t("common.cancel"),
                           onclick: () => done(null) })),
          el("div", { class: "row" },
            el("button", { class: "btn", type: "button", id: "ura-none", text: t("ura.none"),
                           onclick: () => done(wins) }),
            el("button", { class: "btn primary", type: "button", id: "ura-apply",
                           text: t("win.apply"),
                           onclick: () => done(chosen.length ? withUra(wins, chosen.join(",")) : wins) }))),
        grid));
      dialog.addEventListener("cancel", () => resolve(null), { once: true });
      changed();
      dialog.showModal();
    });
  }
  return { ask, withUra };
})();
