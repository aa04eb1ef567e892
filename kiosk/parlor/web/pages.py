"""The counter's pages: plain server-rendered HTML, readable on any counter PC (the tables page
alone has a few lines of script, to follow the tables; without it, it reloads itself).

The templates live here as strings so the parlor needs no package data of its own; Flask's
`render_template_string` escapes every value. Their words are the kiosk's catalogues'
(``parlor.page.*``, kiosk/words/locale/), in the language a kiosk's page would choose:
``?lang=`` (kept for the next pages), else the browser's (Accept-Language), else English.
"""

from __future__ import annotations

from typing import Any

from flask import has_request_context, render_template_string, request, session
from markupsafe import Markup

from kiosk.words import i18n

BASE = """<!doctype html>
<html lang="{{ lang }}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
{% if refresh %}<noscript><meta http-equiv="refresh" content="{{ refresh }}"></noscript>{% endif %}
<title>{{ t('parlor.page.title', title=title) }}</title>
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
.langs { display: flex; gap: .6rem; justify-content: flex-end; margin: .3rem 0 0; }
</style></head><body>
{% if staff %}<nav><a href="/counter/">{{ t('parlor.page.tables') }}</a>
<a href="/counter/today">{{ t('parlor.page.today') }}</a>
<a href="/counter/members">{{ t('parlor.page.members') }}</a>
<a href="/counter/leaderboard">{{ t('parlor.page.leaderboard') }}</a>
<a href="/counter/report.csv">{{ t('parlor.page.report') }}</a>
<form method="post" action="/counter/logout"><input type="hidden" name="csrf" value="{{ csrf }}">
<span class="muted">{{ staff }}</span> <button>{{ t('parlor.page.sign_out') }}</button></form>
</nav>{% endif %}
<p class="langs">{% for id, name in languages.items() %}
{%- if id == lang %}<strong>{{ name }}</strong>
{%- else %}<a href="?lang={{ id }}" hreflang="{{ id }}" lang="{{ id }}">{{ name }}</a>{% endif %}
{% endfor %}</p>
<h1>{{ title }}</h1>
{{ body }}
</body></html>"""

LOGIN = """{% if message %}<p class="error">{{ message }}</p>{% endif %}
<form method="post" action="/counter/login" class="filter">
<input type="hidden" name="csrf" value="{{ csrf }}">
<label>{{ t('parlor.page.name') }}
<input name="name" autocomplete="username" required autofocus></label>
<label>{{ t('parlor.page.password') }}
<input name="password" type="password" autocomplete="current-password" required>
</label><button>{{ t('parlor.page.sign_in') }}</button></form>"""

# The live page's rows, served alone by /counter/live for its script (an ETag while nothing moved).
# Each row says which game and how many of its events it shows (data-game, data-events).
TABLE_ROWS = """<tr><th>{{ t('parlor.page.table') }}</th><th>{{ t('parlor.page.hand') }}</th>
<th class="n">{{ t('parlor.page.sticks') }}</th><th>{{ t('parlor.page.players_points') }}</th>
<th>{{ t('parlor.page.dealer') }}</th><th class="n">{{ t('parlor.page.playing_time') }}</th>
<th>{{ t('parlor.page.state') }}</th></tr>
{% for row in tables %}<tr data-table="{{ row.name }}" data-game="{{ row.game.id if row.game else ''
}}"
data-events="{{ row.game.events if row.game else 0 }}"><td>{{ row.name }}
{%- if row.revoked %} {{ t('parlor.page.revoked') }}{% endif %}</td>
{% if row.game and row.game.unreadable %}<td colspan="6" class="error">
{{- t('parlor.page.unreadable', why=row.game.unreadable) }}</td>
{% elif row.game %}{% set g = row.game %}<td>{{ g.label }}</td>
<td class="n">{{ g.riichi_sticks }}</td>
<td>{% for p in g.players %}{{ p }} {{ "{:,}".format(g.points[loop.index0]) }}
{%- if loop.index0 in g.riichi %} {{ t('parlor.page.riichi') }}{% endif %}
{%- if not loop.last %}; {% endif %}
{%- endfor %}</td>
<td>{{ g.players[g.dealer] }}</td>
<td class="n">{{ t('parlor.page.minutes', n=g.playing_seconds // 60) }}</td>
<td>{{ t('parlor.page.finished' if g.finished else 'parlor.page.playing') }}</td>
{% else %}<td colspan="6" class="muted">{{ t('parlor.page.no_game') }}</td>{% endif %}</tr>
{% endfor %}"""

# Without scripts the page reloads itself every `refresh` s (BASE); with them it asks for the
# rows every `poll` s, one short request a time (no connection held open), and swaps them in.
TABLES = """<p class="muted">{{ t('parlor.page.follows', s=poll) }}</p>
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
{% for name, label, value, kind in fields %}<label>{{ t(label) }}
<input name="{{ name }}" value="{{ value }}" type="{{ kind }}"></label>{% endfor %}
{% if orders %}<label>{{ t('parlor.page.order') }} <select name="order">{% for o in orders %}
<option{% if o == order %} selected{% endif %}>{{ o }}</option>{% endfor %}</select></label>
{% endif %}
<button>{{ t('parlor.page.show') }}</button></form>"""

MEMBERS = PERIOD_FORM + """<table><tr><th>{{ t('parlor.page.number') }}</th>
<th>{{ t('parlor.page.name') }}</th>
{% for key in ("games", "avg_place", "first", "last", "avg_score", "win", "deal_in", "riichi_rate",
               "avg_win", "chips", "money") %}<th class="n">{{ t('parlor.page.' ~ key) }}</th>
{% endfor %}</tr>
{% for m in members %}{% set s = m.stats %}<tr><td><a href="/counter/members/
{{- m.number|urlencode }}/card" title="{{ t('parlor.page.print_card') }}">{{ m.number }}</a></td>
<td>{{ m.name }}</td>
<td class="n">{{ s.games }}</td><td class="n">{{ num(s.average_place, 2) }}</td>
<td class="n">{{ pct(s.first_share) }}</td><td class="n">{{ pct(s.last_share) }}</td>
<td class="n">{{ num(s.average_score, 1) }}</td><td class="n">{{ pct(s.win_rate) }}</td>
<td class="n">{{ pct(s.deal_in_rate) }}</td><td class="n">{{ pct(s.riichi_rate) }}</td>
<td class="n">{{ num(s.average_win, 0) }}</td><td class="n">{{ "{:+,}".format(s.chips) }}</td>
<td class="n">{{ "{:+,}".format(s.money) if s.money is not none else "" }}</td></tr>
{% else %}<tr><td colspan="13" class="muted">{{ t('parlor.page.no_members') }}</td></tr>
{% endfor %}</table>"""

BOARD = PERIOD_FORM + """<p>{{ board.board }}{% if board.board != board.period.from ~ " to " ~
board.period.to %} {{ t('parlor.page.period', start=board.period.from, end=board.period.to) }}
{%- endif %}{{ t('parlor.page.board_rule', n=board.min_games, order=board.order) }}
{% if seasons %}{{ t('parlor.page.seasons') }} {% for s in seasons %}
<a href="?season={{ s.name|urlencode }}">{{ s.name }}</a>{% endfor %}{% endif %}</p>
<table><tr><th class="n">#</th><th>{{ t('parlor.page.member') }}</th>
{% for key in ("games", "total", "avg_score", "avg_place", "first", "rating") %}
<th class="n">{{ t('parlor.page.' ~ key) }}</th>{% endfor %}</tr>
{% for r in board.rows %}<tr><td class="n">{{ r.place }}</td><td>{{ r.name }} ({{ r.number }})</td>
<td class="n">{{ r.games }}</td><td class="n">{{ num(r.total_score, 1) }}</td>
<td class="n">{{ num(r.average_score, 1) }}</td><td class="n">{{ num(r.average_place, 2) }}</td>
<td class="n">{{ pct(r.first_share) }}</td><td class="n">{{ num(r.rating, 0) }}</td></tr>
{% else %}<tr><td colspan="8" class="muted">{{ t('parlor.page.nobody') }}</td></tr>{% endfor %}
</table>"""

TODAY = PERIOD_FORM + """<p><a href="/counter/report.csv?date={{ day }}">
{{- t('parlor.page.day_report') }}</a></p>
{% for table, games in tables.items() %}<h2>{{ table }}</h2>
<table><tr><th>{{ t('parlor.page.started') }}</th><th class="n">{{ t('parlor.page.hands') }}</th>
<th>{{ t('parlor.page.state') }}</th><th>{{ t('parlor.page.results') }}</th></tr>
{% for g in games %}<tr><td>{{ g.started[11:16] }}</td><td class="n">{{ g.hands }}</td>
<td>{{ t('parlor.page.finished' if g.finished else 'parlor.page.playing') }}
{%- if g.held %}<br><strong>{{ g.held }}</strong> {{ t('parlor.page.held') }}{% endif %}</td><td>
{% if g.finished %}{% for s in g.seats|sort(attribute="place") %}{{ s.place }}. {{ s.player }}:
{{ num(s.score, 1) }} / {{ "{:,}".format(s.points) }}{% if not loop.last %}; {% endif %}
{%- endfor %}{% else %}{% for s in g.seats %}{{ s.player }} {{ "{:,}".format(s.points) }}
{%- if not loop.last %}; {% endif %}{% endfor %}{% endif %}
</td></tr>{% endfor %}</table>
{% else %}<p class="muted">{{ t('parlor.page.no_games', day=day) }}</p>{% endfor %}"""

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
<div class="who"><span class="kind">{{ t('parlor.page.member') }}</span>
<span class="name">{{ member.name }}</span>
<span class="number">{{ member.number }}</span></div></div>
<p class="no-print muted">{{ t('parlor.page.print_how') }}
<code>{{ text }}</code>{{ t('parlor.page.print_qr') }}</p>"""

ERROR = """<p class="error">{{ status }}: {{ message }}
{%- if field %} {{ t('parlor.page.field', field=field) }}{% endif %}</p>
<p><a href="/counter/">{{ t('parlor.page.tables') }}</a> &middot;
<a href="/counter/login">{{ t('parlor.page.sign_in') }}</a></p>"""


def pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}"


def num(value: float | None, places: int) -> str:
    return "-" if value is None else f"{value:,.{places}f}"


def language() -> str:
    """The pages' language, chosen as a kiosk's page chooses it: ``?lang=`` (kept in the
    session for the pages after it), else the session's choice, else the first of the
    browser's languages the catalogues have (Accept-Language), else English."""
    if not has_request_context():
        return "en"
    asked = i18n.negotiate([request.args.get("lang", "")])
    if asked is not None:
        session["lang"] = asked
        return asked
    chosen = session.get("lang")
    if chosen in i18n.LANGS:
        return str(chosen)
    return i18n.negotiate(request.accept_languages.values()) or "en"


def words(lang: str) -> dict[str, Any]:
    """What every template is given to say things in `lang`: `t(key, **values)`, the
    language's id and the switcher's languages."""
    def t(key: str, **values: Any) -> str:
        return i18n.t(key, lang, **values)
    return {"t": t, "lang": lang, "languages": i18n.LANGUAGES}


def page(title: str, body: str, *, staff: str | None, csrf: str, refresh: int = 0,
         title_values: dict[str, Any] | None = None, **values: Any) -> str:
    """A whole page; `title` is a catalogue key (``parlor.page.title_*``) filled from
    `title_values`; a field's label in `values["fields"]` is a key too."""
    said = words(language())
    inner = render_template_string(body, pct=pct, num=num, csrf=csrf, refresh=refresh, **said,
                                   **values)
    return render_template_string(BASE, title=said["t"](title, **(title_values or {})),
                                  body=Markup(inner), staff=staff, csrf=csrf, refresh=refresh,
                                  **said)


def fragment(body: str, **values: Any) -> str:
    """A part of a page alone (the live page's rows), escaped as a page is."""
    return render_template_string(body, pct=pct, num=num, **words(language()), **values)


def error_page(status: int, message: str, field: str | None) -> str:
    from kiosk.web.security import Security

    return page("parlor.page.title_error", ERROR, staff=None, csrf=Security.csrf_token(),
                title_values={"status": status}, status=status, message=message, field=field)
