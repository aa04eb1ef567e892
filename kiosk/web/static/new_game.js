// The new-game form (templates/new_game.html): choosing a preset fills every option from the
// preset's values (carried by the page, so there is no wait); each group says how many of its
// options differ from the preset; Start posts the preset and every option (POST /api/games).
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const { t, api, $, $$ } = K;
  const form = $("#new-game");
  const presets = JSON.parse($("#preset-values").textContent);
  const options = () => $$("[data-name]", form);

  // An input's value as the API takes it (kiosk/table/rules_json.py): sets as sorted lists.
  const read = (input) => {
    const kind = input.dataset.kind;
    if (kind === "bool") return input.checked;
    if (kind === "int") return +input.value;
    if (kind === "set") return $$("input:checked", input).map((c) => c.value).sort();
    return input.value;
  };
  const write = (input, value) => {
    const kind = input.dataset.kind;
    if (kind === "bool") input.checked = !!value;
    else if (kind === "set") for (const c of $$("input", input)) c.checked = value.includes(c.value);
    else input.value = value;
  };
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

  // What differs from the chosen preset: marked on the option and counted on its group, so a
  // changed rule shows even while its group is closed.
  function mark() {
    const preset = presets[$("#preset").value];
    for (const group of $$(".rule-group", form)) {
      let changed = 0;
      for (const input of $$("[data-name]", group)) {
        const differs = !same(read(input), preset[input.dataset.name]);
        input.closest(".opt-row").classList.toggle("changed", differs);
        changed += differs ? 1 : 0;
      }
      const count = $(".changed-count", group);
      count.hidden = !changed;
      count.textContent = t("new.changed", { n: changed });
    }
  }

  // One name field a seat: three at a three-player table (a sanma preset, or the players
  // option set to 3). A hidden field is disabled too, so its `required` cannot stop Start.
  const seats = () => (+($("#opt-players") || {}).value === 3 ? 3 : 4);
  function showSeats() {
    for (const label of $$(".players label[data-seat]", form)) {
      const off = +label.dataset.seat >= seats();
      label.hidden = off;
      $("input", label).disabled = off;
    }
  }

  function fill() {
    const name = $("#preset").value;
    for (const input of options()) write(input, presets[name][input.dataset.name]);
    $("#start-points").value = presets[name].start_points;
    const help = "preset." + name + ".help";
    $("#preset-help").textContent = t(help) === help ? "" : t(help);
    showSeats();
    mark();
  }

  $("#preset").addEventListener("change", fill);
  form.addEventListener("input", (ev) => {
    if (ev.target.closest(".rule-group")) mark();
    if (ev.target.id === "opt-players") showSeats();
  });
  // A value the browser refuses (out of range) may sit in a closed group: open it, so the
  // browser can point at it instead of refusing without a word.
  form.addEventListener("invalid", (ev) => {
    const group = ev.target.closest("details");
    if (group) group.open = true;
  }, true);
  // One action (K.action): a double tap on Start starts one game.
  const start = K.action(async (key) => {
    const chosen = Object.fromEntries(options().map((input) => [input.dataset.name, read(input)]));
    chosen.start_points = +$("#start-points").value;
    const players = [0, 1, 2, 3].slice(0, seats()).map((i) => $(`[name=player${i}]`).value);
    const out = await api("POST", "/api/games",
                          { players, ruleset: $("#preset").value, options: chosen }, { key });
    K.leave("/");
    return out;
  });
  form.addEventListener("submit", (ev) => { ev.preventDefault(); start(ev); });
  mark();
});
