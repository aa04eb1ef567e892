// Correcting a win's tiles from the history (amend.js; docs/api.md, "Correcting a hand"): a hand
// recorded from tiles is typed again in mpsz as on the win page (HAND.mpszBox), prefilled with
// the hand as recorded (its tiles sorted, then the winning tile), its melds kept as played, the
// dora indicators typed beside it. The correction sends the win's `hand`, not `quick`, so the
// rules score it again: yaku, fu, chips.
"use strict";
const AMEND_TILES = (() => {
  const { t, el, tile } = K;
  // The yaku of the situation, sent again as the win page's flags (kiosk/table/winspec.py) while
  // the winner stays the one who played it.
  const SITUATION = {
    ippatsu: { ippatsu: true }, double_riichi: { riichi: "double" },
    haitei_raoyue: { last_tile: true }, houtei_raoyui: { last_tile: true },
    rinshan_kaihou: { rinshan: true }, chankan: { chankan: true },
    tenhou: { blessing: "tenhou" }, chiihou: { blessing: "chiihou" }, renhou: { blessing: "renhou" },
  };

  // Labels as compact mpsz, in their order: ["2m", "3m", "0p"] -> "23m0p".
  function mpsz(labels) {
    let out = "";
    labels.forEach((label, i) => {
      out += label[0];
      if (i === labels.length - 1 || labels[i + 1][1] !== label[1]) out += label[1];
    });
    return out;
  }

  // A meld as played ("pon 666s" in the hand's text), with the tile lying sideways in the
  // history's drawing (breakdown.tiles.melds) as its called tile and whom it came from.
  function meld(kind, tiles, drawn) {
    const one = { kind, tiles };
    if (kind === "ankan" || !drawn || drawn.sideways == null) return one;
    one.called = drawn.tiles[drawn.sideways];
    const from = drawn.sideways === 0 ? "kamicha" : drawn.sideways === 1 ? "toimen" : "shimocha";
    if (kind !== "chi" || from === "kamicha") one.source = from;
    return one;
  }

  // What a hand of the game record (GET /api/export.json) was scored from, or null where it was
  // not scored from tiles (han and fu, points): {typed, melds, kita, riichi, flags, liable, dora}.
  function recorded(h) {
    const found = /^(\S+) win (\S+)((?: \[[^\]]+\])*)$/.exec((h && h.hand) || "");
    const b = (h && h.breakdown) || {};
    if (!found || !b.is_win) return null;
    const read = HAND.parseMpsz(found[1]);
    const at = read.labels ? read.labels.indexOf(found[2]) : -1;
    if (at < 0) return null;
    const rest = read.labels.filter((_, i) => i !== at).sort((x, y) => HAND.rank(x) - HAND.rank(y));
    const drawn = (b.tiles && b.tiles.melds) || [];
    const melds = [...found[3].matchAll(/\[(\w+) (\S+)\]/g)].map(([, kind, tiles], i) =>
      meld(kind, tiles, drawn[i]));
    const ids = (b.yaku || []).map((y) => y.id).concat(b.yakuman_ids || []);
    const dora = b.dora_detail || {};
    return { typed: `${mpsz(rest)} ${found[2]}`, melds, kita: b.kita || 0, winner: h.winner,
      riichi: ids.includes("riichi") || ids.includes("double_riichi"), liable: h.liable,
      flags: Object.assign({}, ...ids.map((id) => SITUATION[id] || {})),
      dora: dora.dora || 0, ura: dora.ura || 0, indicators: b.tiles && b.tiles.dora
        ? { dora: mpsz(b.tiles.dora), ura: mpsz(b.tiles.ura || []) } : null };
  }

  // The hand with its winning tile: 14 tiles beside no meld, 3 fewer for each (a kan too).
  const whole = (rec) => 14 - 3 * rec.melds.length;
  const count = (labels, rec) => labels.length === whole(rec) ? null
    : t("amend.err_count", { n: labels.length, melds: rec.melds.length, whole: whole(rec) });

  // The fields: the typed hand (Set or Enter shows the changes), the melds as played, the dora
  // indicators (and the ura dora's after a riichi); what the hand had as played where the
  // record does not keep its indicators.
  function fields(i, rec, show, stale) {
    const box = HAND.mpszBox(`amend-tiles-${i}`, t("entry.help"), (labels) => {
      const bad = count(labels, rec);
      if (!bad) show();
      return bad;
    });
    const input = box.querySelector("input");
    input.value = rec.typed;
    input.name = "tiles";
    // Prefilled where the record keeps the indicators (wins scored since it does).
    const was = rec.indicators || {};
    const indicator = (name, label) => el("label", {}, el("span", { text: label }),
      el("input", { type: "text", name, class: "indicators", autocomplete: "off",
        autocapitalize: "off", spellcheck: "false", placeholder: "1z", value: was[name] || "" }));
    const parts = [box];
    if (rec.melds.length) {
      parts.push(el("div", { class: "amend-melds", "data-melds": rec.melds.length },
        el("span", { text: t("amend.melds") }), rec.melds.map((m) => el("span", { class: "tiles" },
          HAND.parseMpsz(m.tiles).labels.map((l) => tile(l, { small: true }))))));
    }
    parts.push(el("div", { class: "amend-dora" }, indicator("dora", t("win.dora")),
      rec.riichi ? indicator("ura", t("win.ura")) : null));
    if ((rec.dora || rec.ura) && !rec.indicators) {
      parts.push(el("p", { class: "muted amend-dora-was", text: t("amend.dora_was", { dora: rec.dora, ura: rec.ura }) }));
    }
    const out = el("div", { class: "amend-tiles" }, parts);
    out.addEventListener("input", stale);
    // Enter in a box shows the changes (the hand's box by its Set), never the dialog's Cancel,
    // the form's first button, which Enter in a form's text box would press.
    out.addEventListener("keydown", (ev) => {
      if (ev.key !== "Enter" || ev.target.tagName !== "INPUT") return;
      ev.preventDefault();
      if (ev.target !== input) show();
    });
    return out;
  }

  // The win as POST /api/wins takes it, less winner and who dealt in: its `hand` and, where the
  // winner is the one who played it, the situation as played. Throws the words of a hand that
  // cannot be sent (a tile that does not read, a wrong count).
  function spec(row, rec, winner) {
    const read = HAND.parseMpsz(row.querySelector("[name='tiles']").value);
    const bad = read.error || count(read.labels, rec);
    if (bad) throw new Error(bad);
    const labels = read.labels.slice(), win = labels.pop();
    const hand = { concealed: mpsz(labels), win };
    if (rec.melds.length) hand.melds = rec.melds;
    if (rec.kita) hand.kita = rec.kita;
    for (const input of row.querySelectorAll("input.indicators")) {
      if (!input.value.trim()) continue;
      const tiles = HAND.parseMpsz(input.value);
      if (tiles.error) throw new Error(`${input.previousSibling.textContent}: ${tiles.error}`);
      hand[input.name] = mpsz(tiles.labels);
    }
    const same = winner === rec.winner;
    return Object.assign({ hand }, same ? rec.flags : {},
      same && rec.liable != null ? { pao: rec.liable } : {});
  }

  return { recorded, fields, spec, mpsz };
})();
