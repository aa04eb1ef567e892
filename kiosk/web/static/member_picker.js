// The new-game form's member picker (templates/new_game.html, only where a parlor is configured;
// kiosk/web/api/members.py): search the parlor's members by name or number, or scan a member card
// with the kiosk's camera. A picked member fills the chosen seat's name as "Name #NUMBER" (the
// parlor counts the seat for that member); a guest's name is typed in the seat as before. When
// the parlor cannot be reached the note says so and the names are typed.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  if (!document.getElementById("members")) return;
  const { t, api, $, el } = K;
  const seatPick = $("#member-seat"), query = $("#member-q"), note = $("#member-note");
  const list = $("#member-results");
  const field = (seat) => $(`[name=player${seat}]`);
  const NAME_MAX = 24;  // a player's name (scorer.limits.NAME_LENGTH)
  let asked = 0;  // the latest search: an older answer arriving late is dropped

  const say = (text, bad) => { note.textContent = text; note.classList.toggle("bad", !!bad); };
  const open = () => [0, 1, 2, 3].filter((s) => !field(s).disabled);
  // Seats the form hides (three players) cannot be picked.
  function syncSeats() {
    for (const o of seatPick.options) o.disabled = field(+o.value).disabled;
    if (field(+seatPick.value).disabled) seatPick.value = String(open()[0]);
  }
  function fill(name, who) {
    const seat = +seatPick.value;
    const input = field(seat);
    input.value = name;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    say(t("members.picked", { name: who, seat: seatPick.selectedOptions[0].textContent }));
    list.replaceChildren();
    query.value = "";
    const seats = open();
    seatPick.value = String(seats[(seats.indexOf(seat) + 1) % seats.length]);
  }
  function show(members) {
    list.replaceChildren(...members.map((m) => el("li", {}, el("button", {
      type: "button", class: "btn member-pick", "data-number": m.number,
      onclick: () => fill(m.seat_name, m.name),
    }, `${m.name} #${m.number}`))));
    say(members.length ? t("members.found", { n: members.length }) : t("members.none"));
  }
  async function search() {
    const q = query.value.trim();
    const mine = ++asked;
    if (!q) { list.replaceChildren(); return; }
    say(t("members.searching"));
    try {
      const out = await api("POST", "/api/members/search", { q });
      if (mine === asked) show(out.members);
    } catch (e) {
      if (mine !== asked) return;
      list.replaceChildren();
      say(e.detail || e.message, true);
    }
  }
  // A card read while the parlor is away gives its number only: it goes after the typed name.
  function offlineCard(number) {
    const input = field(+seatPick.value);
    const tag = " #" + number;
    let name = input.value.replace(/\s*#[0-9A-Za-z-]{1,16}\s*$/, "").trim();
    if (!name || name === input.defaultValue) name = t("members.member");
    fill(name.slice(0, Math.max(NAME_MAX - tag.length, 0)).trim() + tag, "#" + number);
    say(t("members.card_offline", { number }), true);
  }
  async function scan() {
    say(t("members.scanning"));
    list.replaceChildren();
    try {
      const out = await api("POST", "/api/members/scan");
      if (out.offline) offlineCard(out.member.number);
      else fill(out.member.seat_name, out.member.name);
    } catch (e) {
      say(e.detail || e.message, true);
    }
  }

  let typing = null;
  query.addEventListener("input", () => { clearTimeout(typing); typing = setTimeout(search, 350); });
  query.addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter") return;
    ev.preventDefault();  // Enter searches; it must not start the game
    clearTimeout(typing);
    search();
  });
  $("#member-find").addEventListener("click", () => { clearTimeout(typing); search(); });
  $("#member-scan").addEventListener("click", scan);
  // Tapping a seat's name makes it the seat a member is picked for.
  for (const seat of [0, 1, 2, 3]) {
    field(seat).addEventListener("focus", () => { seatPick.value = String(seat); });
  }
  $("#new-game").addEventListener("input", (ev) => { if (ev.target.id === "opt-players") syncSeats(); });
  $("#preset").addEventListener("change", syncSeats);
  syncSeats();
});
