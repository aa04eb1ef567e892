// The new-game form's recent players (issue 38, item 6; templates/new_game.html): the names of
// the table's recent games (GET /api/players/recent, newest first), one tap each, so names are
// not typed every game. A tapped name goes to the seat whose name was tapped last, else to the
// first seat still holding the form's own name ("Player 2"); the seat after it is next. A name
// already seated is lit, and tapping it again gives its seat back its own name. **Same players**
// seats the last game's players as they sat. A parlor member's name keeps its #number, so the
// parlor still counts the seat (the member picker finds members who never played here). The
// names are data-player, never data-name: new_game.js reads every data-name as a rule option.
"use strict";
document.addEventListener("DOMContentLoaded", async () => {
  const { t, api, $, $$, el, toast } = K;
  const box = $("#recent-players");
  if (!box) return;
  const all = $$(".players input[name^=player]");
  const open = () => all.filter((f) => !f.disabled);  // three seats at a three-player table
  const own = (f) => f.value.trim() === "" || f.value === f.defaultValue;
  let next = null;  // the seat the next tapped name goes to
  for (const f of all) f.addEventListener("focus", () => { next = f; });

  function put(f, name) {
    f.value = name;
    f.dispatchEvent(new Event("input", { bubbles: true }));
  }
  function mark() {
    const seated = new Set(open().map((f) => f.value));
    for (const b of $$("button[data-player]", box)) b.classList.toggle("on", seated.has(b.dataset.player));
  }
  function pick(name) {
    const seats = open();
    const seated = seats.find((f) => f.value === name);
    if (seated) {  // tapped again: the seat gets its own name back and is the next to fill
      put(seated, seated.defaultValue);
      next = seated;
      mark();
      return;
    }
    const seat = next && seats.includes(next) ? next : seats.find(own);
    if (!seat) { toast(t("new.recent_full"), true); return; }
    put(seat, name);
    const at = seats.indexOf(seat);
    next = seats.slice(at + 1).concat(seats.slice(0, at)).find(own) || null;
    mark();
  }

  let out;
  try {
    out = await api("GET", "/api/players/recent");
  } catch (e) {
    return;  // no suggestions: the names are typed as before
  }
  if (!out.players.length) return;
  $("#recent-names").replaceChildren(...out.players.map((name) => el("button", {
    type: "button", class: "btn small", "data-player": name, text: name, onclick: () => pick(name) })));
  const same = $("#same-players");
  same.hidden = !out.last;
  same.addEventListener("click", () => {
    open().forEach((f, i) => put(f, out.last[i] || f.defaultValue));
    next = null;
    mark();
  });
  box.hidden = false;
  $("#new-game").addEventListener("input", mark);
  mark();
});
