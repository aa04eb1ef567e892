"""The counter's pages: plain server-rendered HTML, readable on any counter PC (the tables page
alone has a few lines of script, to follow the tables; without it, it reloads itself).

The templates live here as strings so the parlor needs no package data of its own; Flask's
`render_template_string` escapes every value.
"""

from __future__ import annotations

from typing import Any

from flask import render_template_string
from markupsafe import Markup

BASE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
{% if refresh %}<noscript><meta http-equiv="refresh" content="{{ refresh }}"></noscript>{% endif %}
<title>{{ title }} - parlor</title>
<style>
body { font: 16px/1.4 system-ui, sans-serif; margin: 0 1rem 2rem; color: #111; }
nav { display: flex; gap: 1rem; align-items: center; padding: .6rem 0;
      border-bottom: 1px solid #999; flex-wrap: wrap; }
nav a { font-weight: 600; } nav form { margin-left: auto; }
table { border-collapse: collapse; margin: .8rem 0; }
th, td { border: 1px solid #bbb; padding: .25rem .5rem; text-align: left; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
form.filter { display: flex; gap: .6rem; flex-wrap: wrap; align-items: end; margin: .8rem 0; }
label { display: flex; flex-direction: column; font-size: .9rem; }
input, select, button { font: inherit; padding: .2rem .4rem; }
.error { background: #fee; border: 1px solid #c00; padding: .5rem; }
.muted { color: #555; }
</style></head><body>
{% if staff %}<nav><a href="/counter/">Tables</a><a href="/counter/today">Today's games</a>
<a href="/counter/members">Members</a><a href="/counter/leaderboard">Leaderboard</a>
<a href="/counter/report.csv">Daily report (CSV)</a>
<form method="post" action="/counter/logout"><input type="hidden" name="csrf" value="{{ csrf }}">
<span class="muted">{{ staff }}</span> <button>Sign out</button></form></nav>{% endif %}
<h1>{{ title }}</h1>
{{ body }}
</body></html>"""

LOGIN = """{% if message %}<p class="error">{{ message }}</p>{% endif %}
<form method="post" action="/counter/login" class="filter">
<input type="hidden" name="csrf" value="{{ csrf }}">
<label>Name <input name="name" autocomplete="username" required autofocus></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required>
</label><button>Sign in</button></form>"""

# The live page's rows, served alone by /counter/live for its script (an ETag while nothing moved).
# Each row says which game and how many of its events it shows (data-game, data-events).
TABLE_ROWS = """<tr><th>Table</th><th>Hand</th><th class="n">Sticks</th><th>Players (points)</th>
<th>Dealer</th><th class="n">Playing</th><th>State</th></tr>
{% for t in tables %}<tr data-table="{{ t.name }}" data-game="{{ t.game.id if t.game else '' }}"
data-events="{{ t.game.events if t.game else 0 }}"><td>{{ t.name }}
{%- if t.revoked %} (revoked){% endif %}</td>
{% if t.game and t.game.unreadable %}<td colspan="6" class="error">unreadable:
{{ t.game.unreadable }}</td>
{% elif t.game %}{% set g = t.game %}<td>{{ g.label }}</td><td class="n">{{ g.riichi_sticks }}</td>
<td>{% for p in g.players %}{{ p }} {{ "{:,}".format(g.points[loop.index0]) }}
{%- if loop.index0 in g.riichi %} (riichi){% endif %}{% if not loop.last %}; {% endif %}
{%- endfor %}</td>
<td>{{ g.players[g.dealer] }}</td><td class="n">{{ g.playing_seconds // 60 }} min</td>
<td>{{ "finished" if g.finished else "playing" }}</td>
{% else %}<td colspan="6" class="muted">no game yet</td>{% endif %}</tr>
{% endfor %}"""

# Without scripts the page reloads itself every `refresh` s (BASE); with them it asks for the
# rows every `poll` s, one short request a time (no connection held open), and swaps them in.
TABLES = """<p class="muted">Follows the tables every {{ poll }} s.</p>
<table id="live-tables" data-etag="{{ etag }}">""" + TABLE_ROWS + """</table>
<script>
(() => {
  const rows = document.getElementById("live-tables");
  let tag = rows.dataset.etag;
  const poll = async () => {
    try {
      const r = await fetch("/counter/live", {cache: "no-store", headers: {"If-None-Match": tag}});
      if (r.redirected || r.status === 401) { location.reload(); return; }
      if (r.status === 200) { rows.innerHTML = await r.text(); tag = r.headers.get("ETag") || tag; }
    } catch (e) { /* the parlor is away for a moment: the next poll tries again */ }
    setTimeout(poll, {{ poll * 1000 }});
  };
  setTimeout(poll, {{ poll * 1000 }});
})();
</script>"""

PERIOD_FORM = """<form class="filter" method="get">
{% for name, label, value, kind in fields %}<label>{{ label }}
<input name="{{ name }}" value="{{ value }}" type="{{ kind }}"></label>{% endfor %}
{% if orders %}<label>Order <select name="order">{% for o in orders %}
<option{% if o == order %} selected{% endif %}>{{ o }}</option>{% endfor %}</select></label>
{% endif %}
<button>Show</button></form>"""

MEMBERS = PERIOD_FORM + """<table><tr><th>Number</th><th>Name</th><th class="n">Games</th>
<th class="n">Avg place</th><th class="n">1st %</th><th class="n">Last %</th>
<th class="n">Avg score</th><th class="n">Win %</th><th class="n">Deal-in %</th>
<th class="n">Riichi %</th><th class="n">Avg win</th><th class="n">Chips</th>
<th class="n">Money</th></tr>
{% for m in members %}{% set s = m.stats %}<tr><td><a href="/counter/members/
{{- m.number|urlencode }}/card" title="Print the member card">{{ m.number }}</a></td>
<td>{{ m.name }}</td>
<td class="n">{{ s.games }}</td><td class="n">{{ num(s.average_place, 2) }}</td>
<td class="n">{{ pct(s.first_share) }}</td><td class="n">{{ pct(s.last_share) }}</td>
<td class="n">{{ num(s.average_score, 1) }}</td><td class="n">{{ pct(s.win_rate) }}</td>
<td class="n">{{ pct(s.deal_in_rate) }}</td><td class="n">{{ pct(s.riichi_rate) }}</td>
<td class="n">{{ num(s.average_win, 0) }}</td><td class="n">{{ "{:+,}".format(s.chips) }}</td>
<td class="n">{{ "{:+,}".format(s.money) if s.money is not none else "" }}</td></tr>
{% else %}<tr><td colspan="13" class="muted">no members</td></tr>{% endfor %}</table>"""

BOARD = PERIOD_FORM + """<p>{{ board.board }}{% if board.board != board.period.from ~ " to " ~
board.period.to %} ({{ board.period.from }} to {{ board.period.to }}){% endif %},
at least {{ board.min_games }} game{{ "" if board.min_games == 1 else "s" }}, by {{ board.order }}.
{% if seasons %}Seasons: {% for s in seasons %}
<a href="?season={{ s.name|urlencode }}">{{ s.name }}</a>{% endfor %}{% endif %}</p>
<table><tr><th class="n">#</th><th>Member</th><th class="n">Games</th><th class="n">Total</th>
<th class="n">Avg score</th><th class="n">Avg place</th><th class="n">1st %</th>
<th class="n">R</th></tr>
{% for r in board.rows %}<tr><td class="n">{{ r.place }}</td><td>{{ r.name }} ({{ r.number }})</td>
<td class="n">{{ r.games }}</td><td class="n">{{ num(r.total_score, 1) }}</td>
<td class="n">{{ num(r.average_score, 1) }}</td><td class="n">{{ num(r.average_place, 2) }}</td>
<td class="n">{{ pct(r.first_share) }}</td><td class="n">{{ num(r.rating, 0) }}</td></tr>
{% else %}<tr><td colspan="8" class="muted">nobody with enough games</td></tr>{% endfor %}
</table>"""

TODAY = PERIOD_FORM + """<p><a href="/counter/report.csv?date={{ day }}">This day's report
(CSV)</a></p>
{% for table, games in tables.items() %}<h2>{{ table }}</h2>
<table><tr><th>Started (UTC)</th><th class="n">Hands</th><th>State</th>
<th>Results (place. player: score / points)</th></tr>
{% for g in games %}<tr><td>{{ g.started[11:16] }}</td><td class="n">{{ g.hands }}</td>
<td>{{ "finished" if g.finished else "playing" }}{% if g.held %}<br><strong>{{ g.held }}</strong>
(a change after it finished){% endif %}</td><td>
{% if g.finished %}{% for s in g.seats|sort(attribute="place") %}{{ s.place }}. {{ s.player }}:
{{ num(s.score, 1) }} / {{ "{:,}".format(s.points) }}{% if not loop.last %}; {% endif %}
{%- endfor %}{% else %}{% for s in g.seats %}{{ s.player }} {{ "{:,}".format(s.points) }}
{%- if not loop.last %}; {% endif %}{% endfor %}{% endif %}
</td></tr>{% endfor %}</table>
{% else %}<p class="muted">No games on {{ day }}.</p>{% endfor %}"""

# A member's card, credit-card sized: name, number and the QR code a kiosk scans at a new game
# (kiosk.parlor.link.cards: it says `riichi-member:<number>`). Printing shows the card alone.
CARD = """<style>
.card { width: 85.6mm; height: 54mm; box-sizing: border-box; border: 1px solid #333;
        border-radius: 3mm; padding: 4mm; display: flex; gap: 4mm; align-items: center;
        background: #fff; }
.card svg { width: 40mm; height: 40mm; flex: none; }
.card .who { display: flex; flex-direction: column; gap: 2mm; min-width: 0; }
.card .name { font-size: 5mm; font-weight: 700; overflow-wrap: anywhere; }
.card .number { font: 700 6mm/1 ui-monospace, monospace; letter-spacing: .5mm; }
.card .kind { font-size: 3mm; color: #444; }
@media print { nav, h1, .no-print { display: none; } body { margin: 0; }
               .card { margin: 10mm; } }
</style>
<div class="card" id="member-card" data-number="{{ member.number }}">{{ qr }}
<div class="who"><span class="kind">Member</span><span class="name">{{ member.name }}</span>
<span class="number">{{ member.number }}</span></div></div>
<p class="no-print muted">Print this page (Ctrl+P) to print the card alone. Its QR code says
<code>{{ text }}</code>: a kiosk's new-game form reads it with its camera.</p>"""

ERROR = """<p class="error">{{ status }}: {{ message }}
{%- if field %} (field: {{ field }}){% endif %}</p>
<p><a href="/counter/">Tables</a> &middot; <a href="/counter/login">Sign in</a></p>"""


def pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}"


def num(value: float | None, places: int) -> str:
    return "-" if value is None else f"{value:,.{places}f}"


def page(title: str, body: str, *, staff: str | None, csrf: str, refresh: int = 0,
         **values: Any) -> str:
    inner = render_template_string(body, pct=pct, num=num, csrf=csrf, refresh=refresh, **values)
    return render_template_string(BASE, title=title, body=Markup(inner), staff=staff, csrf=csrf,
                                  refresh=refresh)


def fragment(body: str, **values: Any) -> str:
    """A part of a page alone (the live page's rows), escaped as a page is."""
    return render_template_string(body, pct=pct, num=num, **values)


def error_page(status: int, message: str, field: str | None) -> str:
    from kiosk.web.security import Security

    return page(f"Error {status}", ERROR, staff=None, csrf=Security.csrf_token(), status=status,
                message=message, field=field)
