// The win page's tile editor (issue 18, items 3 and 10). The reading's groups, the hand sorted
// as a player sorts it; only the doubtful tiles marked; each located tile's box drawn on the
// still photo; a tap on a box or a tile opens its alternatives first, then the whole picker;
// a tile moves to the winning tile or into a meld by dragging (pointer events: mouse, pen and
// touch) or from its menu; + adds tiles in sequence; the hand can be typed in mpsz.
"use strict";
const FIX = (() => {
  const { t, el, $, tile, pickTile } = K;
  const KANS = ["minkan", "ankan", "kakan"];
  // Where a meld's called tile lies says whom it came from, as tables lay it out: the left
  // player's (kamicha) leftmost, the opposite player's (toimen) in the middle, the right
  // player's (shimocha) rightmost; a chi is always from the left, a closed kan from no one.
  // The API gets it as `source`, and the history draws the sideways tile there.
  const FROM = ["kamicha", "toimen", "shimocha"];
  const sizeOf = (m) => (KANS.includes(m.kind) ? 4 : 3);
  function sourceOf(m) {
    if (m.kind === "ankan" || m.called == null) return null;
    if (m.kind === "chi" || m.called === 0) return "kamicha";
    return m.called >= sizeOf(m) - 1 ? "shimocha" : "toimen";
  }
  const calledAt = (m, source) => ({ kamicha: 0, toimen: 1, shimocha: sizeOf(m) - 1 })[source];
  const NS = "http://www.w3.org/2000/svg";
  const svgEl = (tag, attrs) => {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    return node;
  };

  // Drag a tile ([data-group] button) inside `root` and drop it on a group ([data-drop]) or on
  // a tile there: onDrop({group, index}, {group, index|null}). The click a drag ends with is
  // swallowed, so a drag never also opens the tile's menu.
  function draggable(root, onDrop) {
    let start = null, ghost = null, swallow = false;
    const zoneAt = (x, y) => {
      const hit = document.elementFromPoint(x, y);
      return hit ? { zone: hit.closest("[data-drop]"), on: hit.closest(".tile[data-group]") } : {};
    };
    const mark = (zone) => {
      for (const z of root.querySelectorAll("[data-drop].over")) if (z !== zone) z.classList.remove("over");
      if (zone) zone.classList.add("over");
    };
    const stop = () => {
      if (ghost) ghost.remove();
      if (start) start.b.classList.remove("dragging");
      mark(null);
      ghost = null; start = null;
    };
    root.addEventListener("pointerdown", (ev) => {
      const b = ev.target.closest(".tile[data-group]");
      if (b && ev.button === 0) start = { x: ev.clientX, y: ev.clientY, b, id: ev.pointerId };
    });
    root.addEventListener("pointermove", (ev) => {
      if (!start || ev.pointerId !== start.id) return;
      if (!ghost) {
        if (Math.hypot(ev.clientX - start.x, ev.clientY - start.y) < 10) return;  // a tap
        ghost = start.b.cloneNode(true);
        ghost.classList.add("ghost");
        document.body.append(ghost);
        start.b.classList.add("dragging");
        try { start.b.setPointerCapture(ev.pointerId); } catch (e) { /* released already */ }
      }
      ghost.style.left = ev.clientX - ghost.offsetWidth / 2 + "px";
      ghost.style.top = ev.clientY - ghost.offsetHeight / 2 + "px";
      mark(zoneAt(ev.clientX, ev.clientY).zone);
    });
    root.addEventListener("pointerup", (ev) => {
      if (!start || ev.pointerId !== start.id) return;
      if (!ghost) { start = null; return; }  // a tap: the click opens the menu
      const from = { group: start.b.dataset.group, index: +start.b.dataset.index };
      const { zone, on } = zoneAt(ev.clientX, ev.clientY);
      stop();
      swallow = true;
      setTimeout(() => { swallow = false; }, 0);
      if (zone) {
        onDrop(from, { group: zone.dataset.drop,
                       index: on && on.dataset.group === zone.dataset.drop ? +on.dataset.index : null });
      }
    });
    root.addEventListener("pointercancel", stop);
    root.addEventListener("click", (ev) => {
      if (swallow) { ev.stopPropagation(); ev.preventDefault(); swallow = false; }
    }, true);
  }

  // `changed()` is called after every edit (the page drops a stale breakdown).
  function editor(changed) {
    let groups = { concealed: [], win: [], dora: [], ura: [], discards: [], unplaced: [] };
    let melds = [];  // [{kind, tiles, called}]: called is the sideways tile's index
    let photo = null;  // {url, width, height} of the still the tiles were read from

    const meldOf = (name) => (name.startsWith("meld:") ? +name.slice(5) : null);
    const listOf = (name) => (meldOf(name) !== null ? melds[meldOf(name)].tiles : groups[name]);
    const room = (name) => {
      const m = meldOf(name);
      if (m !== null) return KANS.includes(melds[m].kind) ? 4 : 3;
      return { concealed: Math.max(0, 13 - 3 * melds.length), win: 1, dora: 5, ura: 5,
               discards: 30, unplaced: 0 }[name];
    };
    const groupName = (name) => (meldOf(name) !== null ? t("fix.move_meld", { n: meldOf(name) + 1 })
      : t("entry.g_" + name));
    function setList(name, list, called) {
      const m = meldOf(name);
      if (m === null) {
        groups = Object.assign({}, groups, { [name]: name === "concealed" ? HAND.sortTiles(list) : list });
      } else {
        melds = melds.map((o, j) => (j === m ? Object.assign({}, o, { tiles: list },
          called === undefined ? {} : { called }) : o));
      }
    }
    function take(name, i) {
      const list = listOf(name), m = meldOf(name);
      const called = m === null ? undefined
        : melds[m].called === i ? null : melds[m].called > i ? melds[m].called - 1 : melds[m].called;
      setList(name, list.filter((_, k) => k !== i), called);
      return list[i];
    }
    const put = (name, x) => setList(name, listOf(name).concat([x]));
    const replace = (name, i, x) => setList(name, listOf(name).map((y, k) => (k === i ? x : y)));
    const edited = () => { changed(); render(); };

    // Into a group with room it goes at the end; onto a full group's tile (or the winning tile's
    // one place) the two swap; a full group otherwise says so.
    function move(from, to) {
      if (from.group === to.group) return;
      const target = listOf(to.group);
      if (target.length < room(to.group)) {
        put(to.group, take(from.group, from.index));
      } else if (to.index !== null || room(to.group) === 1) {
        const j = to.index === null ? 0 : to.index;
        const x = listOf(from.group)[from.index], y = target[j];
        replace(from.group, from.index, y);
        replace(to.group, j, x);
      } else {
        K.toast(t("fix.full", { group: groupName(to.group) }), true);
        return;
      }
      edited();
    }
    const movesFor = (name, i) => ["win", "concealed", ...melds.map((_, m) => "meld:" + m)]
      .filter((g) => g !== name)
      .map((g) => ({ id: g, label: g === "win" ? t("fix.move_win") : g === "concealed"
        ? t("fix.move_hand") : groupName(g), run: () => move({ group: name, index: i },
                                                            { group: g, index: null }) }));

    // A set-aside tile (grey, not counted) comes in with one tap: into the hand, else the
    // winning tile, else a meld with room; where none has room, its menu opens.
    const intoHand = () => ["concealed", "win", ...melds.map((_, m) => "meld:" + m)]
      .find((g) => listOf(g).length < room(g));
    // The dora row clears in one tap: its tiles are set aside, where a drag brings one back.
    function clearDora() {
      setList("unplaced", groups.unplaced.concat(groups.dora));
      setList("dora", []);
      edited();
    }

    // A tile read from a photo opens its alternatives first; one typed or tapped in, the picker.
    async function open(name, i) {
      if (name === "unplaced" && intoHand()) {
        move({ group: name, index: i }, { group: intoHand(), index: null });
        return;
      }
      const x = listOf(name)[i];
      let out;
      if (x.alternatives) out = await HAND.tileMenu(x, movesFor(name, i));
      else {
        const v = await pickTile(x.label, true);
        out = v === null ? null : v === "" ? { remove: true } : { label: v };
      }
      if (!out || out.moved) return;
      if (out.remove) take(name, i); else replace(name, i, HAND.relabel(x, out.label));
      edited();
    }

    // + on a group: the picker stays open, filling it; the hand goes on to the winning tile.
    function addInSequence(start) {
      const chain = start === "concealed" ? ["concealed", "win"] : [start];
      const added = [];
      const where = () => chain.find((g) => listOf(g).length < room(g));
      return HAND.pickMany(() => {
        const g = where();
        if (!g) return null;
        return { title: g === "win" && start !== "win" ? t("entry.next_win")
          : t("entry.next", { group: groupName(g), k: listOf(g).length + 1, n: room(g) }),
                 tiles: listOf(g).map((x) => x.label) };
      }, (label) => {
        const g = where();
        if (!g) return;
        const x = HAND.fresh(label);
        put(g, x); added.push([g, x]); edited();
      }, () => {
        const last = added.pop();
        if (last) { take(last[0], listOf(last[0]).indexOf(last[1])); edited(); }
      });
    }

    const addButton = (name) => el("button", { class: "tile add", type: "button",
      title: t("win.add_tile"), onclick: () => addInSequence(name) }, el("span", { class: "face", text: "+" }));
    const tileButton = (name, x, i, opts) => {
      const b = tile(x.label, Object.assign({ low: x.low, changed: x.changed,
        confidence: x.confidence, onclick: () => open(name, i) }, opts || {}));
      b.dataset.group = name; b.dataset.index = i;
      if (opts && opts.aside) b.classList.add("aside");
      if (x.ref != null) b.dataset.ref = x.ref;
      return b;
    };
    function renderGroup(name, box, opts) {
      box.dataset.drop = name;
      box.replaceChildren(...listOf(name).map((x, i) => tileButton(name, x, i, opts)));
      if (listOf(name).length < room(name)) box.append(addButton(name));
    }
    function render() {
      renderGroup("concealed", $("#g-concealed"));
      renderGroup("win", $("#g-win"), { big: true });
      $("#g-melds").replaceChildren(...melds.map((m, mi) => {
        const tiles = el("div", { class: "tiles" });
        m.tiles.forEach((x, i) => tiles.append(tileButton("meld:" + mi, x, i, { sideways: i === m.called })));
        tiles.dataset.drop = "meld:" + mi;
        if (m.tiles.length < room("meld:" + mi)) tiles.append(addButton("meld:" + mi));
        // The kind and whom it was called from, stacked beside the tiles (no wider a row).
        return el("div", { class: "meld" }, el("div", { class: "meld-opts" },
          el("select", { class: "meld-kind", onchange: (ev) => {
            melds = melds.map((o, j) => (j === mi ? Object.assign({}, o, { kind: ev.target.value }) : o));
            edited();
          } }, ["chi", "pon", "minkan", "ankan", "kakan"].filter((k) => k !== "chi" || m.kind === "chi"
            || !K.state || !K.state.game || !K.state.game.offers || K.state.game.offers.chi).map((k) =>
            el("option", { value: k, selected: k === m.kind, text: t("meld." + k) }))),
          m.kind === "chi" || m.kind === "ankan" ? null : el("select", {
            class: "meld-from", "aria-label": t("meld.from"), onchange: (ev) => {
              melds = melds.map((o, j) => (j === mi ? Object.assign({}, o,
                { called: calledAt(o, ev.target.value) }) : o));
              edited();
            } }, FROM.map((s) => el("option", { value: s, selected: s === sourceOf(m),
                                                text: t("meld.from_" + s) })))),
          tiles,
          el("button", { class: "btn small danger", type: "button", text: "✕", title: t("picker.remove"),
                         onclick: () => { melds = melds.filter((_, j) => j !== mi); edited(); } }));
      }));
      for (const name of ["dora", "ura", "discards"]) renderGroup(name, $("#g-" + name));
      renderGroup("unplaced", $("#g-unplaced"), { aside: true });
      $("#unplaced-group").hidden = !groups.unplaced.length;
      if (groups.dora.length) {
        $("#g-dora").append(el("button", { class: "btn small", type: "button", id: "dora-clear",
          text: t("fix.clear_dora"), title: t("fix.clear_dora_title"), onclick: clearDora }));
      }
      drawPhoto();
    }

    // The still, cropped to the tiles found, with each one's box: red and thick where doubtful,
    // dashed once corrected. A tap on a box is a tap on its tile. A row that runs down the
    // photo is turned to run across the panel, so its boxes are as large as the width allows.
    function drawPhoto() {
      const view = $("#still");
      const found = [];
      for (const name of Object.keys(groups)) listOf(name).forEach((x, i) => found.push([name, x, i]));
      melds.forEach((m, mi) => m.tiles.forEach((x, i) => found.push(["meld:" + mi, x, i])));
      const boxed = found.filter(([, x]) => x.box);
      view.toggleAttribute("hidden", !photo);  // an <svg> has no .hidden property
      if (!photo) return;
      let [x1, y1, x2, y2] = [photo.width, photo.height, 0, 0];
      for (const [, x] of boxed) {
        x1 = Math.min(x1, x.box[0]); y1 = Math.min(y1, x.box[1]);
        x2 = Math.max(x2, x.box[2]); y2 = Math.max(y2, x.box[3]);
      }
      if (!boxed.length) [x1, y1, x2, y2] = [0, 0, photo.width, photo.height];
      const pad = boxed.length ? Math.max(x2 - x1, y2 - y1) * 0.08 + 12 : 0;
      x1 = Math.max(0, x1 - pad); y1 = Math.max(0, y1 - pad);
      x2 = Math.min(photo.width, x2 + pad); y2 = Math.min(photo.height, y2 + pad);
      const line = Math.max(1.5, Math.max(x2 - x1, y2 - y1) / 160);
      const turn = y2 - y1 > 1.5 * (x2 - x1);  // rotate(-90) takes (x, y) to (y, -x)
      const [w, h] = turn ? [y2 - y1, x2 - x1] : [x2 - x1, y2 - y1];
      view.setAttribute("viewBox", turn ? `${y1} ${-x2} ${w} ${h}` : `${x1} ${y1} ${w} ${h}`);
      view.style.width = `min(100%, ${(42 * w / h).toFixed(2)}vh)`;  // the crop's shape
      const content = svgEl("g", turn ? { transform: "rotate(-90)" } : {});
      view.replaceChildren(content);
      content.append(svgEl("image", { href: photo.url, x: 0, y: 0, width: photo.width,
        height: photo.height }), ...boxed.map(([name, x, i]) => {
        const r = svgEl("rect", { class: "box" + (x.low ? " doubt" : "") + (x.changed ? " changed" : "")
          + (name === "unplaced" ? " aside" : ""),
          x: x.box[0], y: x.box[1], width: x.box[2] - x.box[0], height: x.box[3] - x.box[1],
          "stroke-width": x.low ? line * 2 : line, "data-ref": x.ref, "data-tile": x.label,
          role: "button", tabindex: 0, "aria-label": K.tileName(x.label) });
        r.addEventListener("click", () => open(name, i));
        return r;
      }));
    }

    function load(out) {
      const h = Object.assign({ concealed: [], win: null, melds: [], dora: [], ura: [], unplaced: [] },
                              out.hand || {});
      let ref = 0;
      const tag = (x) => Object.assign({}, x, { ref: ref++ });
      groups = { concealed: HAND.sortTiles(h.concealed.map(tag)), win: h.win ? [tag(h.win)] : [],
                 dora: h.dora.map(tag), ura: (h.ura || []).map(tag), discards: groups.discards,
                 unplaced: (h.unplaced || []).map(tag) };
      melds = h.melds.map((m) => ({ kind: m.kind, tiles: m.tiles.map(tag), called: m.called }));
      photo = out.image_url ? { url: out.image_url, width: out.width, height: out.height } : null;
      edited();
    }
    // A new hand for a second ron: the dora, ura and discards stay.
    function reset() {
      groups = Object.assign({}, groups, { concealed: [], win: [], unplaced: [] });
      melds = []; photo = null;
      edited();
    }
    function addMeld(kind) {
      melds = melds.concat([{ kind, tiles: [], called: kind === "ankan" ? null : 0 }]);
      edited();
    }
    // The typed hand: the hand's tiles, and the winning tile when one more is typed.
    function typed(labels) {
      const hand = room("concealed");
      if (labels.length !== hand && labels.length !== hand + 1) {
        return t("entry.err_count", { n: labels.length, melds: melds.length, hand, whole: hand + 1 });
      }
      setList("concealed", labels.slice(0, hand).map(HAND.fresh));
      if (labels.length > hand) setList("win", [HAND.fresh(labels[hand])]);
      edited();
      return null;
    }

    const labels = (list) => list.map((x) => x.label).join(",");
    // Without a winning tile set apart the hand goes in the photo's row order: where it makes
    // no difference which tile won, the one nearest the row's end is taken (kiosk/table/win_tile.py).
    const spec = () => ({
      concealed: groups.win.length ? labels(groups.concealed)
        : labels(rowOrder().map((i) => groups.concealed[i])),
      win: groups.win.length ? groups.win[0].label : "",
      melds: melds.map((m) => ({ kind: m.kind, tiles: labels(m.tiles),
        called: m.called != null && m.tiles[m.called] ? m.tiles[m.called].label : null,
        source: m.called != null && m.tiles[m.called] ? sourceOf(m) : null })),
      dora: labels(groups.dora), ura: labels(groups.ura), discards: labels(groups.discards) });
    // The tiles the player confirmed with their boxes (the capture keeps them).
    const located = () => ["concealed", "win", "dora", "ura"].flatMap((g) => groups[g])
      .concat(melds.flatMap((m) => m.tiles)).filter((x) => x.box)
      .map((x) => ({ label: x.label, box: x.box }));
    // All the tiles there; the winning tile may still lie among the hand's (scored where it
    // makes no difference, else asked: "Which tile won?").
    const complete = () => groups.concealed.length + groups.win.length === room("concealed") + 1
      && groups.win.length <= 1 && melds.every((m, i) => m.tiles.length === room("meld:" + i));
    const doubtful = () => ["concealed", "win", "dora", "ura", "discards"].flatMap((g) => groups[g])
      .concat(melds.flatMap((m) => m.tiles)).filter((x) => x.low).length;
    const counted = () => groups.concealed.length + groups.win.length + melds.length * 3;
    // The tiles as the page holds them, to check again (POST /api/reading/check): the hand in
    // the photo's row order (a tile added by hand after those read), `order` the editor's
    // index of each; `toWin(i)` makes the hand's tile i the winning tile ("Which tile won?").
    function rowOrder() {
      const at = (i) => (groups.concealed[i].ref != null ? groups.concealed[i].ref : 1e6 + i);
      return groups.concealed.map((_, i) => i).sort((a, b) => at(a) - at(b));
    }
    function seen() {
      const one = (x) => (x.box ? { label: x.label, box: x.box, confidence: x.confidence }
        : { label: x.label });
      const order = rowOrder();
      return { order, hand: { concealed: order.map((i) => one(groups.concealed[i])),
        win: groups.win.length ? one(groups.win[0]) : null,
        melds: melds.map((m) => ({ kind: m.kind, tiles: m.tiles.map(one) })),
        dora: groups.dora.map(one), unplaced: groups.unplaced.map(one) } };
    }
    const toWin = (i) => move({ group: "concealed", index: i }, { group: "win", index: null });

    draggable($("#tiles-editor"), move);
    $("#mpsz-box").replaceChildren(HAND.mpszBox("mpsz", t("entry.help"), typed));
    return { load, reset, render, addMeld, spec, located, complete, doubtful, counted, seen,
             toWin };
  }

  return { editor, draggable };
})();
