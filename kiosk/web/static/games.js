// The games page (templates/games.html): every stored game, newest first, with where it stands;
// Resume (Standings, for a finished game) makes it the table's game; Delete, after a confirm in
// the game's row, removes one (not the game played: DELETE /api/games/<id>); a game record file
// is imported as a game of the list (the game played stays), and one that is refused says why
// while nothing stored changes.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const { t, api, live, el, $, WINDS, pts } = K;
  const lang = document.documentElement.lang;
  // The catalogue's word, or `fallback` where it has none (a ruleset named by an import).
  const words = (key, fallback) => (t(key) === key ? fallback : t(key));
  const where = (g) => t("games.round", {
    round: t("round", { wind: WINDS()[g.round_wind - 1], hand: g.hand }),
    honba: t("table.honba", { n: g.honba }) });
  const when = (iso) => new Date(iso).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });

  // One action a game (K.action): a double tap resumes it once.
  const resume = (g) => K.action(async (key) => {
    const out = await api("POST", `/api/games/${encodeURIComponent(g.id)}/resume`, undefined, { key });
    K.leave(g.finished ? "/standings" : "/");
    return out;
  });

  // Delete asks first, in the game's own row: Yes, delete / Cancel (the game played has none).
  const remove = (g) => K.action(async () => {
    const out = await api("DELETE", `/api/games/${encodeURIComponent(g.id)}`);
    K.toast(t("games.deleted", { players: g.players.join(", ") }));
    await render();
    return out;
  });
  function ask(g, row) {
    const box = $(".delete-ask", row);
    box.replaceChildren(el("span", { text: t("games.delete_confirm") }),
      el("button", { class: "btn danger", type: "button", "data-delete-yes": g.id,
                     text: t("games.delete_yes"), onclick: remove(g) }),
      el("button", { class: "btn", type: "button", "data-delete-no": g.id,
                     text: t("common.cancel"), onclick: () => { box.hidden = true; } }));
    box.hidden = false;
  }

  function item(g) {
    const status = g.unreadable ? [t("games.unreadable", { error: g.unreadable })]
      : [g.current ? t("games.current") : null, g.finished ? t("games.finished") : where(g)];
    const action = g.unreadable || g.current ? null : el("button", {
      class: "btn" + (g.finished ? "" : " primary"), type: "button", "data-resume": g.id,
      text: g.finished ? t("games.see_standings") : t("games.resume"), onclick: resume(g) });
    const row = el("li", { class: "game" + (g.current ? " current" : "") + (g.finished ? " finished" : ""),
                           "data-game": g.id },
      el("div", { class: "about" },
        el("div", { class: "status", text: status.filter(Boolean).join(" · ") }),
        g.unreadable ? null : el("div", { class: "points" }, g.players.map((name, i) =>
          el("span", { class: "player" }, el("b", { text: name }), " " + pts(g.points[i])))),
        el("div", { class: "muted", text: [words("ruleset." + g.rules, g.rules),
          t("games.started", { date: when(g.created) }), t("games.events", { n: g.events })].join(" · ") })),
      action,
      g.current ? null : el("button", { class: "btn small", type: "button", "data-delete": g.id,
        text: t("games.delete"), onclick: () => ask(g, row) }),
      el("div", { class: "delete-ask row", role: "alert", hidden: true }));
    return row;
  }

  async function render() {
    const out = await api("GET", "/api/games");
    $("#games").replaceChildren(...(out.games.length ? out.games.map(item)
      : [el("li", { class: "muted", text: t("games.none") })]));
    const count = $("#games-count");
    count.hidden = out.total <= out.games.length;
    count.textContent = t("games.more", { shown: out.games.length, total: out.total });
  }

  // One action (K.action): a double tap imports the file once; a refusal shows under the form.
  const importFile = K.action(async (key) => {
    const file = $("#import-file").files[0];
    const box = $("#import-error");
    box.hidden = true;
    if (!file) {
      $("#import-failed").textContent = t("games.pick_file");
      $("#import-problem").textContent = "";
      box.hidden = false;
      return null;
    }
    const body = new FormData();
    body.append("record", file);
    try {
      const s = await api("POST", "/api/import", body, { key });
      K.toast(t(s.new ? "games.imported" : "games.imported_before",
                { players: s.game.players.join(", ") }));
      $("#import-form").reset();
      await render();
      return s;
    } catch (e) {
      $("#import-failed").textContent = t("games.import_failed", { file: file.name });
      $("#import-problem").textContent = e.detail || e.message;
      box.hidden = false;
      return null;
    }
  });
  $("#import-form").addEventListener("submit", (ev) => { ev.preventDefault(); importFile(ev); });
  render();
  live(render);  // another device's resume, import or new game shows here too
});
