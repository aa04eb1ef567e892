// The draw page's tenpai check (issue 18, item 10): one seat's hand from a photo (taken by the
// camera, or uploaded where there is none) or typed in mpsz; a tap on a tile opens its
// alternatives, then the picker; + adds tiles in sequence. After each change the hand is
// checked again, and the seat's tenpai toggle (built by pages.js) follows the answer.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const { t, api, act, live, el, $, $$, tile, pickTile, WINDS } = K;
  let seat = null, concealed = [], melds = [], asked = 0, camera = false;
  const seatName = (s) => `${WINDS()[s.wind - 1]} ${s.name}`;
  const want = () => Math.max(0, 13 - 3 * melds.length);
  const labels = (list) => list.map((x) => x.label).join(",");

  async function open(i) {
    const x = concealed[i];
    let out;
    if (x.alternatives) out = await HAND.tileMenu(x, []);
    else {
      const v = await pickTile(x.label, true);
      out = v === null ? null : v === "" ? { remove: true } : { label: v };
    }
    if (!out) return;
    concealed = out.remove ? concealed.filter((_, k) => k !== i)
      : HAND.sortTiles(concealed.map((y, k) => (k === i ? HAND.relabel(x, out.label) : y)));
    render();
  }
  function addInSequence() {
    const added = [];
    return HAND.pickMany(() => (concealed.length < want() ? {
      title: t("entry.next", { group: t("entry.g_concealed"), k: concealed.length + 1, n: want() }),
      tiles: concealed.map((x) => x.label) } : null),
    (label) => {
      const x = HAND.fresh(label);
      added.push(x); concealed = HAND.sortTiles(concealed.concat([x])); render();
    }, () => {
      const x = added.pop();
      if (x) { concealed = concealed.filter((y) => y !== x); render(); }
    });
  }

  function render() {
    const box = $("#t-concealed");
    box.replaceChildren(...concealed.map((x, i) => tile(x.label, { low: x.low, changed: x.changed,
      confidence: x.confidence, onclick: () => open(i) })));
    if (concealed.length < want()) {
      box.append(el("button", { class: "tile add", type: "button", title: t("win.add_tile"),
        onclick: addInSequence }, el("span", { class: "face", text: "+" })));
    }
    $("#t-melds").replaceChildren(...melds.map((m) => el("div", { class: "meld" },
      el("span", { class: "muted", text: t("meld." + m.kind) }),
      el("div", { class: "tiles" }, m.tiles.map((x, i) => tile(x.label, { sideways: i === m.called }))))));
    check();
  }

  // The answer to the latest hand only; a hand of the wrong size says how far off it is.
  async function check() {
    const mine = ++asked, result = $("#tenpai-result");
    if (seat === null) return;
    if (concealed.length !== want()) {
      result.textContent = t("draw.count", { n: concealed.length + 3 * melds.length, want: 13 });
      return;
    }
    const out = await act(() => api("POST", "/api/tenpai", { concealed: labels(concealed),
      melds: melds.map((m) => ({ kind: m.kind, tiles: labels(m.tiles) })) }));
    if (!out || mine !== asked) return;
    const toggle = $(`#tenpai button[data-seat="${seat.seat}"]`);
    if (toggle && toggle.classList.contains("on") !== out.tenpai) toggle.click();
    result.textContent = `${seatName(seat)}: ` + (out.tenpai
      ? t("draw.is_tenpai", { waits: out.waits.map(HAND.shortName).join(t("list.sep")) }) : t("draw.not_tenpai"));
  }

  // A photo's hand: at a draw there is no winning tile, so a tile the reader set apart joins
  // the hand. The reader's problems are about a win (14 tiles): the count line says it here.
  function load(out) {
    $("#tenpai-problems").replaceChildren(...(out.message ? [el("li", { text: out.message })] : []));
    const h = out.hand || { concealed: [], win: null, melds: [] };
    concealed = HAND.sortTiles(h.concealed.concat(h.win ? [h.win] : []));
    melds = h.melds.map((m) => ({ kind: m.kind, tiles: m.tiles, called: m.called }));
    render();
  }
  const photo = async (request) => {
    const out = await act(request);
    if (out) load(out);
  };

  function choose(s) {
    seat = s;
    concealed = []; melds = [];
    for (const b of $$("#tenpai-photo .btn")) b.classList.toggle("on", +b.dataset.seat === s.seat);
    $("#tenpai-check").hidden = false;
    $("#tenpai-who").textContent = t("draw.check_title", { name: seatName(s) });
    $("#tenpai-problems").replaceChildren();
    render();
    if (camera) photo(() => api("POST", "/api/captures"));  // one tap, as before
  }

  $("#tenpai-capture").addEventListener("click", () => photo(() => api("POST", "/api/captures")));
  $("#tenpai-upload").addEventListener("change", (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    const form = new FormData();
    form.append("photo", file);
    ev.target.value = "";
    photo(() => api("POST", "/api/captures/upload", form));
  });
  // Typed tiles: 13 are the whole hand and replace the photo's reading, its melds too (a meld
  // read wrong is typed over, not refused); fewer fill the hand beside the melds shown.
  $("#tenpai-mpsz").replaceChildren(HAND.mpszBox("tenpai-text", t("entry.help_draw"), (typed) => {
    if (typed.length === 13) melds = [];
    else if (typed.length !== want()) {
      return melds.length ? t("entry.err_count_draw_melds", { n: typed.length, hand: want() })
        : t("entry.err_count_draw", { n: typed.length, melds: 0, hand: 13 });
    }
    concealed = HAND.sortTiles(typed.map(HAND.fresh));
    render();
    return null;
  }));

  api("GET", "/api/camera").then((c) => {
    camera = !!(c.ok || c.state === "starting");
    $("#tenpai-capture").hidden = !camera;
  }).catch(() => { $("#tenpai-capture").hidden = true; });
  let built = false;
  live((s) => {
    if (!s.game || built) return;
    built = true;
    $("#tenpai-photo").replaceChildren(...s.seats.map((one) => el("button", {
      class: "btn small", type: "button", "data-seat": one.seat,
      text: t("draw.photo", { name: seatName(one) }), onclick: () => choose(one) })));
  });
});
