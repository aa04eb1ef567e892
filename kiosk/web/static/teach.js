// Teach tiles: show the order to lay the set out in, take or upload photos of it, show each
// located tile with the label its place gives (tap one to correct it), confirm to teach, and
// forget with a confirm step. Talks to /api/teach (docs/api.md, "Teaching tiles").
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const { t, api, act, toast, el, $, pickTile } = K;
  const SVG = "http://www.w3.org/2000/svg";
  let order = [];      // rows of labels the kiosk asks for
  const shots = [];    // {id, image, width, height, tiles: [{box, row, label}], problems}

  function rowCaption(row) {
    const suits = new Set(row.map((l) => (l === "back" || l[0] === "0" ? "other" : l[1])));
    return suits.size === 1 ? t("teach.row_" + [...suits][0]) : t("teach.row_other");
  }

  function drawOrder() {
    $("#order").replaceChildren(...order.map((row, i) => el("div", { class: "order-row" },
      el("label", { class: "row-pick" },
        el("input", { type: "checkbox", checked: true, "data-row": i }),
        el("b", { text: t("teach.row", { n: i + 1 }) }), el("span", { text: rowCaption(row) })),
      el("div", { class: "tiles" }, row.map((l) => K.tile(l))))));
  }

  function chosenRows() {
    return [...document.querySelectorAll("#order input[data-row]")]
      .filter((c) => c.checked).map((c) => c.dataset.row);
  }

  async function refresh() {
    const s = await api("GET", "/api/teach");
    order = s.rows;
    if (!$("#order").children.length) drawOrder();
    const line = $("#status-line");
    if (s.taught) {
      const when = new Date(s.summary.taught_at).toLocaleString(document.documentElement.lang);
      line.textContent = t("teach.taught", { kinds: s.summary.kinds.length,
                                             photos: s.summary.photos, n: s.summary.photos, when });
      line.classList.add("taught");
    } else {
      line.textContent = t("teach.untaught");
      line.classList.remove("taught");
    }
    $("#status-problem").hidden = !s.problem;
    $("#status-problem").title = s.problem || "";
    $("#status-unavailable").hidden = s.available;
    $("#take-btn").disabled = !s.available;
    $("#forget-box").hidden = !(s.taught || s.problem) || !$("#forget-ask").hidden;
    return s;
  }

  // The photo with each located box drawn and its label; the tiles below, row by row.
  function drawShot(shot, index) {
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", `0 0 ${shot.width} ${shot.height}`);
    const size = Math.max(12, Math.round(shot.width / 60));
    shot.tiles.forEach((tile, k) => {
      const [x1, y1, x2, y2] = tile.box;
      const rect = document.createElementNS(SVG, "rect");
      for (const [a, v] of Object.entries({ x: x1, y: y1, width: x2 - x1, height: y2 - y1 })) {
        rect.setAttribute(a, v);
      }
      rect.setAttribute("class", tile.label ? "box" : "box unlabelled");
      const text = document.createElementNS(SVG, "text");
      text.setAttribute("x", (x1 + x2) / 2);
      text.setAttribute("y", Math.max(size, y1 - size * 0.25));
      text.setAttribute("font-size", size);
      text.setAttribute("class", tile.label ? "box-label" : "box-label unlabelled");
      text.textContent = tile.label || "?";
      rect.dataset.k = text.dataset.k = k;
      svg.append(rect, text);
    });
    const rows = [];
    shot.tiles.forEach((tile, k) => {
      (rows[tile.row] = rows[tile.row] || []).push(el("span", { class: "slot" },
        tile.label ? K.tile(tile.label, { onclick: () => relabel(shot, k) })
          : el("button", { class: "tile unknown", type: "button", text: "?", "data-tile": "",
                           onclick: () => relabel(shot, k) })));
    });
    // A photo not laid out as asked cannot be confirmed (the API refuses it too): its tiles'
    // labels by place would land on the wrong crops (a book read as a tile shifts a row).
    const problems = shot.problems.length
      ? el("div", {}, el("p", { class: "error not-ok", text: t("teach.not_ok") }),
           el("ul", { class: "problems" }, shot.problems.map((p) => el("li", { text: p }))))
      : el("p", { class: "ok-line", text: t("teach.as_expected") });
    return el("div", { class: "shot", "data-id": shot.id },
      el("div", { class: "teach-photo", style: `--aspect: ${shot.width / shot.height}` },
         el("img", { src: shot.image, alt: t("teach.photo") }), svg),
      el("p", { class: "found", text: t("teach.found", { n: shot.tiles.length }) }),
      problems,
      el("div", { class: "shot-tiles" }, rows.filter(Boolean).map((r) =>
        el("div", { class: "tiles" }, r))),
      el("div", { class: "row" }, el("button", { class: "btn", type: "button",
        text: t("teach.remove"), onclick: () => { shots.splice(index, 1); drawShots(); } })));
  }

  // Why the last Confirm was refused ("" clears it): said until the photos change.
  function refused(why) {
    const line = $("#teach-refused");
    line.textContent = why;
    line.hidden = !why;
    if (why) line.scrollIntoView({ block: "center" });  // clear of the foot bar
  }

  function drawShots() {
    refused("");
    $("#shots").replaceChildren(...shots.map(drawShot));
    $("#confirm-btn").disabled = !shots.length || shots.some((s) => !s.ok);
  }

  async function relabel(shot, k) {
    const label = await pickTile(shot.tiles[k].label, true);
    if (label === null) return;
    shot.tiles[k].label = label || null;  // "" (remove): not taught from
    drawShots();
  }

  async function send(body) {
    const rows = chosenRows();
    if (!rows.length) return;
    const out = await act(() => api("POST", "/api/teach/photo?rows=" + rows.join(","), body));
    if (!out) return;
    shots.push({ ...out, image: out.image_url });
    drawShots();
  }

  $("#take-btn").addEventListener("click", async () => {
    $("#take-btn").disabled = true;
    await send(undefined);
    $("#take-btn").disabled = false;
  });
  $("#upload").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    const form = new FormData();
    form.append("photo", file);
    await send(form);
    ev.target.value = "";
  });

  $("#confirm-btn").addEventListener("click", async () => {
    $("#confirm-btn").disabled = true;
    const body = { shots: shots.map((s) => ({ id: s.id, labels: s.tiles.map((x) => x.label) })) };
    let why = "";
    const out = await act(() => api("POST", "/api/teach", body).catch((e) => {
      why = e.detail || e.message;
      throw e;
    }));
    if (out) {
      shots.length = 0;
      drawShots();
      toast(t("teach.done", { seconds: out.seconds }));
      await refresh();
    } else {
      drawShots();
      refused(why);  // e.g. the win photo of 21:04 reads 1m 7m without it and 2m 8m with it
    }
  });

  $("#forget-btn").addEventListener("click", () => {
    $("#forget-box").hidden = true;
    $("#forget-ask").hidden = false;
  });
  $("#forget-no").addEventListener("click", () => {
    $("#forget-ask").hidden = true;
    refresh();
  });
  $("#forget-yes").addEventListener("click", async () => {
    const out = await act(() => api("DELETE", "/api/teach"), t("teach.forgotten"));
    $("#forget-ask").hidden = true;
    if (out) await refresh();
  });

  refresh();
});
