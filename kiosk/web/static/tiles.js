// Tile faces, drawn by our own code as inline SVG: an ivory face over a coloured back, with
// the classic pin circles, sou sticks and 1s bird, man numerals over a red 萬, the four winds
// and three dragons, red fives in red with a red frame, a face-down back, and any face lying
// sideways (a called tile) in a box of swapped width and height. The viewBox scales with the
// tile, so a face is as crisp in the picker as in the history. Kanji are SVG text in a CJK
// font: Noto Sans CJK JP where installed (the Pi installer adds fonts-noto-cjk, with a real
// bold), else the subset the pages ship (kiosk.css); a small Latin index in a corner ("3m",
// "E") names man tiles and honours as well. No dependencies:
// TILES.svg(label, {sideways, name}) returns an <svg> element (a fresh copy each call).
"use strict";
const TILES = (() => {
  // The face is 60 x 80 units, the tile's side (its thickness, then its coloured back) shows
  // 5 units below it: a tile 46 px wide is 65 px tall.
  const FACE_W = 60, FACE_H = 80, SIDE = 5;
  const C = {
    ivory: "#fbf7ea", line: "#b3a886", side: "#e4d9b9", back: "#e8962e", backDark: "#b86a12",
    backLight: "#f4b25a", ink: "#1d1d1d", red: "#cc2b2b", blue: "#1b4f9c", green: "#1e7a3c",
    index: "#6b6350",
  };
  const CJK = "'Noto Sans CJK JP', 'Kiosk Sans CJK JP', 'IPAGothic', 'IPAexGothic', 'VL Gothic', sans-serif";
  const LATIN = "'DejaVu Sans', 'Liberation Sans', Arial, sans-serif";
  const NUMERALS = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
  const HONOURS = ["", "東", "南", "西", "北", "白", "發", "中"];
  const HONOUR_INDEX = ["", "E", "S", "W", "N", "", "G", "R"];
  const VALID = /^(?:[0-9][mps]|[1-7]z|back)$/;

  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const n2 = (v) => Math.round(v * 100) / 100;

  // --- pin: each circle a ring, a gap and a centre; 1p one large ornate circle -------------
  function pip(x, y, r, colour) {
    return `<g class="pip" transform="translate(${n2(x)} ${n2(y)})">` +
      `<circle r="${n2(r)}" fill="${colour}"/>` +
      `<circle r="${n2(r * 0.74)}" fill="${C.ivory}"/>` +
      `<circle r="${n2(r * 0.55)}" fill="${colour}"/>` +
      `<circle r="${n2(r * 0.16)}" fill="${C.ivory}"/></g>`;
  }
  function bigPip(red) {
    const ring = red ? C.red : C.green, dots = red ? C.red : C.blue;
    let petals = "";
    for (let i = 0; i < 16; i++) {
      const a = (i * Math.PI) / 8;
      petals += `<circle r="2" cx="${n2(17.2 * Math.cos(a))}" cy="${n2(17.2 * Math.sin(a))}" ` +
        `fill="${dots}"/>`;
    }
    return `<g class="pip big" transform="translate(30 40)">` +
      `<circle r="25" fill="${ring}"/><circle r="22.2" fill="${C.ivory}"/>${petals}` +
      `<circle r="13.2" fill="${C.red}"/><circle r="9.6" fill="${C.ivory}"/>` +
      `<circle r="7.4" fill="${dots}"/><circle r="2.6" fill="${C.ivory}"/></g>`;
  }
  // The classic arrangements and colours: [x, y, colour] per circle, with the circles' radius.
  const B = "blue", G = "green", R = "red";
  const PINS = {
    2: [11, [[30, 22, G], [30, 58, B]]],
    3: [9.5, [[15, 16, B], [30, 40, R], [45, 64, G]]],
    4: [10, [[17, 22, B], [43, 22, G], [17, 58, G], [43, 58, B]]],
    5: [9, [[16, 17, B], [44, 17, G], [30, 40, R], [16, 63, G], [44, 63, B]]],
    6: [8.5, [[18, 14, G], [42, 14, G], [18, 44, R], [42, 44, R], [18, 65, R], [42, 65, R]]],
    7: [7.4, [[14, 10.5, G], [30, 18, G], [46, 25.5, G],
              [19, 46, R], [41, 46, R], [19, 65, R], [41, 65, R]]],
    8: [7.5, [[19, 12.5, B], [41, 12.5, B], [19, 30.5, B], [41, 30.5, B],
              [19, 49.5, B], [41, 49.5, B], [19, 67.5, B], [41, 67.5, B]]],
    9: [7.6, [[14, 16, B], [30, 16, B], [46, 16, B], [14, 40, R], [30, 40, R], [46, 40, R],
              [14, 64, G], [30, 64, G], [46, 64, G]]],
  };
  function pins(n, red) {
    if (n === 1) return bigPip(false);
    const [r, spots] = PINS[n];
    return spots.map(([x, y, c]) => pip(x, y, r, red ? C.red : C[c === B ? "blue" : c === G
      ? "green" : "red"])).join("");
  }

  // --- sou: bamboo sticks (a joint in the middle and at each end); 1s a bird ---------------
  function stick(x, y, w, h, colour, angle) {
    const hw = w / 2, hh = h / 2, dark = colour === C.red ? "#8f1a1a"
      : colour === C.blue ? "#0f3570" : "#0f5227";
    const joint = (jy) => `<rect x="${n2(-hw - 0.8)}" y="${n2(jy - 1.1)}" width="${n2(w + 1.6)}" ` +
      `height="2.2" rx="1.1" fill="${dark}"/>`;
    const turn = angle ? ` rotate(${angle})` : "";
    return `<g class="stick" transform="translate(${n2(x)} ${n2(y)})${turn}">` +
      `<rect x="${n2(-hw)}" y="${n2(-hh)}" width="${n2(w)}" height="${n2(h)}" ` +
      `rx="${n2(hw * 0.8)}" fill="${colour}"/>` +
      `<rect x="${n2(-w * 0.1)}" y="${n2(-hh + 2)}" width="${n2(w * 0.2)}" height="${n2(h - 4)}" ` +
      `rx="${n2(w * 0.1)}" fill="${C.ivory}" opacity="0.55"/>` +
      joint(-hh + 1.1) + joint(0) + joint(hh - 1.1) + `</g>`;
  }
  // [x, y, colour, angle] per stick, with the sticks' width and height.
  const SOUS = {
    2: [9.5, 30, [[30, 22, G], [30, 58, G]]],
    3: [9.5, 30, [[30, 22, G], [18, 58, G], [42, 58, G]]],
    4: [9.5, 30, [[18, 22, G], [42, 22, G], [18, 58, G], [42, 58, G]]],
    5: [8.5, 28, [[14, 21, G], [46, 21, G], [30, 40, R], [14, 59, G], [46, 59, G]]],
    6: [8.5, 30, [[14, 22, G], [30, 22, G], [46, 22, G], [14, 58, G], [30, 58, G], [46, 58, G]]],
    7: [8, 20.5, [[30, 14, R], [15, 39, G], [30, 39, G], [45, 39, G],
                  [15, 64, G], [30, 64, G], [45, 64, G]]],
    8: [7.5, 28, [[9, 22, G], [23.5, 22, G, 26], [36.5, 22, G, -26], [51, 22, G],
                  [9, 58, G], [23.5, 58, G, -26], [36.5, 58, G, 26], [51, 58, G]]],
    9: [8, 21, [[15, 16, G], [30, 16, R], [45, 16, G], [15, 40, G], [30, 40, R], [45, 40, G],
                [15, 64, G], [30, 64, R], [45, 64, G]]],
  };
  function sous(n, red) {
    if (n === 1) return bird();
    const [w, h, spots] = SOUS[n];
    return spots.map(([x, y, c, a]) => stick(x, y, w, h, red || c === R ? C.red
      : c === B ? C.blue : C.green, a || 0)).join("");
  }
  // The 1s: a standing bird (the classic sparrow / peacock), green and blue with a red crest,
  // its tail fanned out behind it.
  function bird() {
    const g = C.green, b = C.blue, r = C.red;
    const feather = (a, colour) => `<g transform="translate(28 54) rotate(${a}) translate(0 11)">` +
      `<ellipse rx="4.4" ry="11" fill="${colour}"/><circle cy="5.5" r="2.5" fill="${C.ivory}"/>` +
      `<circle cy="5.5" r="1.3" fill="${r}"/></g>`;
    return `<g class="bird">` + feather(72, g) + feather(48, b) + feather(24, g) +
      `<path d="M25 58 C15 50 18 30 31 27 C40 25 46 33 43 45 C41 54 33 60 25 58 Z" fill="${g}"/>` +
      `<path d="M27 53 C22 46 24 36 31 33 C34 40 34 48 27 53 Z" fill="${b}"/>` +
      `<circle cx="40" cy="20" r="7.5" fill="${g}"/>` +
      `<path d="M46.5 18 L55 21.5 L46.5 24 Z" fill="${r}"/>` +
      `<circle cx="41.5" cy="18.5" r="2.4" fill="${C.ivory}"/>` +
      `<circle cx="42" cy="18.5" r="1.2" fill="${C.ink}"/>` +
      `<path d="M36 13 L33 5 M39.5 12.5 L39 4 M43 13.5 L46 6" stroke="${r}" stroke-width="2" ` +
      `stroke-linecap="round"/>` +
      `<path d="M33 59 L31 72 M38 56 L39 72 M28 72 L42 72" stroke="${C.ink}" stroke-width="1.8" ` +
      `stroke-linecap="round"/></g>`;
  }

  // --- man, honours: kanji as text, with a Latin index in a corner --------------------------
  const text = (x, y, size, colour, s, cls) => `<text class="${cls}" x="${x}" y="${y}" ` +
    `font-size="${size}" fill="${colour}" font-family="${CJK}" font-weight="700" ` +
    `text-anchor="middle" dominant-baseline="central">${s}</text>`;
  const index = (s, colour) => `<text class="index" x="5.5" y="12" font-size="10" ` +
    `fill="${colour || C.index}" font-family="${LATIN}" font-weight="700">${s}</text>`;
  function man(n, red) {
    return text(30, 23, 28, red ? C.red : C.ink, NUMERALS[n], "numeral") +
      text(30, 58, 34, C.red, "萬", "suit") + index(n + "m", red ? C.red : null);
  }
  function honour(n) {
    if (n === 5) {  // White: the classic empty blue frame
      return `<g class="frame"><rect x="10" y="11" width="40" height="58" rx="3" fill="none" ` +
        `stroke="${C.blue}" stroke-width="4"/><rect x="15.5" y="16.5" width="29" height="47" ` +
        `rx="1.5" fill="none" stroke="${C.blue}" stroke-width="1.4"/></g>`;
    }
    const colour = n === 6 ? C.green : n === 7 ? C.red : C.ink;
    return text(30, 42, 40, colour, HONOURS[n], "kanji") + index(HONOUR_INDEX[n], colour);
  }

  // --- the tile: body, side, face, and the face's content -----------------------------------
  function content(label) {
    if (label === "back") return "";
    const n = +label[0], s = label[1], red = n === 0, k = red ? 5 : n;
    const mark = red ? `<rect class="red-mark" x="3" y="3" width="54" height="74" rx="5" ` +
      `fill="none" stroke="${C.red}" stroke-width="1.8"/>` : "";
    if (s === "z") return honour(n);
    return mark + (s === "p" ? pins(k, red) : s === "s" ? sous(k, red) : man(k, red));
  }

  function markup(label, sideways, name) {
    const w = sideways ? FACE_H : FACE_W, h = (sideways ? FACE_W : FACE_H) + SIDE;
    const fw = w - 1.5, fh = h - SIDE - 1.5;
    let body = `<rect x="0.75" y="0.75" width="${fw}" height="${h - 1.5}" rx="7" ` +
      `fill="${C.back}" stroke="${C.backDark}" stroke-width="1.5"/>`;
    if (label === "back") {
      body += `<rect class="back" x="4" y="3.5" width="${w - 8}" height="${h - SIDE - 6}" rx="5" ` +
        `fill="${C.backLight}" stroke="${C.backDark}" stroke-width="0.8" opacity="0.7"/>`;
    } else {
      body += `<rect x="0.75" y="0.75" width="${fw}" height="${h - 3.5}" rx="7" fill="${C.side}" ` +
        `stroke="${C.line}" stroke-width="1"/>` +
        `<rect x="0.75" y="0.75" width="${fw}" height="${fh}" rx="7" fill="${C.ivory}" ` +
        `stroke="${C.line}" stroke-width="1.5"/>`;
    }
    // A sideways face turns a quarter counter-clockwise (its top to the left), as a called tile
    // lies on the table; its side still shows below it.
    const turn = sideways ? ` transform="translate(0 ${FACE_W}) rotate(-90)"` : "";
    const cls = "tile-face" + (sideways ? " sideways" : "");
    return `<svg xmlns="http://www.w3.org/2000/svg" class="${cls}" ` +
      `viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(name || label)}" ` +
      `data-face="${label}">${body}` +
      `<g class="content"${turn}>${content(label)}</g></svg>`;
  }

  const cache = new Map();
  // An <svg> for `label` (mpsz, "0m" a red five, "back"): opts.sideways turns it, opts.name
  // is its accessible name (the label when not given).
  function svg(label, opts) {
    opts = opts || {};
    if (!VALID.test(label)) throw new Error("not a tile: " + label);
    const key = label + (opts.sideways ? "/s" : "") + "|" + (opts.name || "");
    let node = cache.get(key);
    if (!node) {
      const tpl = document.createElement("template");
      tpl.innerHTML = markup(label, !!opts.sideways, opts.name);
      node = tpl.content.firstElementChild;
      cache.set(key, node);
    }
    return node.cloneNode(true);
  }

  return { svg, markup, NUMERALS, FACE_W, FACE_H, SIDE };
})();
