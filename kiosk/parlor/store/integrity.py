"""Which stored games count in the statistics, and the rules staff accept.

Whoever holds a table's token (or the kiosk's PIN) can post any legal game, so the statistics
and boards count a finished game only when

- its rules are ones the parlor accepts: one of the scorer's presets exactly, or rules a staff
  member approved (`approve`); every ruleset a game used is listed for staff (`rules_seen`), so
  a forged ``uma [1000, 0, 0, -1000]`` or a start of 10,000,000 points counts for nobody until
  someone looks at it;
- at least one hand was played in it;
- no game that started earlier has the same events (the same record imported three times, with
  a BOM or as UTF-16, is one game: the parlor keeps events as canonical JSON, so equal records
  have equal digests).

The digests live beside each game's cached result (`parlor_result_keys`, rebuilt with it).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

from kiosk.parlor.store.db import Database
from kiosk.parlor.store.registry import ParlorError, now
from kiosk.store.event_log import Tx
from scorer.rules import PARLOR_RULESETS, RULESETS, Ruleset
from scorer.table import GameStarted, event_to_dict

PRESET = "preset"  # who approved the scorer's own presets
DIGEST_LENGTH = 64

# The clause `seat_rows` adds for counted games (r: parlor_results of the row).
COUNTED = (
    " AND r.hands > 0 AND EXISTS (SELECT 1 FROM parlor_result_keys k JOIN parlor_rules a ON "
    "a.digest = k.rules AND a.approved IS NOT NULL WHERE k.table_id = r.table_id AND "
    "k.game_id = r.game_id AND NOT EXISTS (SELECT 1 FROM parlor_result_keys d JOIN "
    "parlor_results q ON q.table_id = d.table_id AND q.game_id = d.game_id WHERE "
    "d.content = k.content AND q.finished = 1 AND (q.started < r.started OR (q.started = "
    "r.started AND (d.table_id < k.table_id OR (d.table_id = k.table_id AND "
    "d.game_id < k.game_id))))))")


def rules_digest(rules: Ruleset) -> str:
    """The SHA-256 of a ruleset as a game records it (name and every option)."""
    recorded = event_to_dict(GameStarted(("", "", "", "")[:rules.players], rules))["rules"]
    return hashlib.sha256(json.dumps(recorded, sort_keys=True).encode()).hexdigest()


def content_digest(bodies: Iterable[str]) -> str:
    return hashlib.sha256("\n".join(bodies).encode()).hexdigest()


def seed_presets(db: Database) -> None:
    """The scorer's presets, the free parlors' too, are accepted without asking (once per
    start, idempotent)."""
    with db.transaction() as tx:
        for name, rules in {**RULESETS, **PARLOR_RULESETS}.items():
            tx.run("INSERT INTO parlor_rules (digest, name, approved_by, approved) VALUES "
                   "(?, ?, ?, ?) ON CONFLICT DO NOTHING", (rules_digest(rules), name, PRESET,
                                                          now()))


def keep_keys(tx: Tx, table_id: int, game: str, rules: Ruleset | None,
              bodies: list[str]) -> None:
    """A game's digests, written with its cached result; a ruleset not seen before is listed
    for staff, not approved."""
    tx.run("DELETE FROM parlor_result_keys WHERE table_id = ? AND game_id = ?", (table_id, game))
    if rules is None:
        return
    digest = rules_digest(rules)
    tx.run("INSERT INTO parlor_rules (digest, name) VALUES (?, ?) ON CONFLICT DO NOTHING",
           (digest, rules.name[:80]))
    tx.run("INSERT INTO parlor_result_keys (table_id, game_id, rules, content) VALUES "
           "(?, ?, ?, ?)", (table_id, game, digest, content_digest(bodies)))


def rules_seen(db: Database) -> list[dict[str, Any]]:
    """Every ruleset the parlor knows: presets and those of stored games, with how many games
    used each and whether (and by whom) it is approved."""
    with db.transaction() as tx:
        rows = tx.rows("SELECT a.digest, a.name, a.approved_by, a.approved, COUNT(k.game_id) "
                       "FROM parlor_rules a LEFT JOIN parlor_result_keys k ON k.rules = "
                       "a.digest GROUP BY a.digest, a.name, a.approved_by, a.approved "
                       "ORDER BY a.approved IS NOT NULL, a.name, a.digest")
    return [{"digest": d, "name": n, "approved_by": by, "approved": at, "games": int(g)}
            for d, n, by, at, g in rows]


def approve(db: Database, digest: str, staff: str | None) -> None:
    """Approve a ruleset staff have looked at (`staff`), or withdraw the approval (None)."""
    with db.transaction() as tx:
        found = tx.rows("SELECT approved_by FROM parlor_rules WHERE digest = ?", (digest,))
        if not found:
            raise ParlorError(f"no ruleset {digest[:DIGEST_LENGTH]!r} (GET /api/rules lists "
                              "them)", 404, "digest")
        if found[0][0] == PRESET:
            raise ParlorError("a preset of the scorer is always accepted", 409, "digest")
        tx.run("UPDATE parlor_rules SET approved_by = ?, approved = ? WHERE digest = ?",
               (staff, now() if staff else None, digest))
