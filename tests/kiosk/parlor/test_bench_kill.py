"""The durability benchmark's code path, briefly: the parlor server killed with SIGKILL twice
while two simulated kiosks post; nothing acknowledged lost, nothing doubled, every event stored
once at the end. The full run (30 kills) is `python -m kiosk.bench.parlor_kill`: docs/security.md,
"Measured"."""

from __future__ import annotations

import json
from pathlib import Path

from kiosk.bench import parlor_kill


def test_two_kills_lose_and_double_nothing(tmp_path: Path) -> None:
    out = tmp_path / "kill.json"
    status = parlor_kill.main(["--kills", "2", "--up-min", "0.5", "--up-max", "1",
                               "--grace", "60", "--json", str(out)])
    report = json.loads(out.read_text())
    assert status == 0, report
    assert (report["kills"], report["acknowledged_lost"], report["doubled"]) == (2, 0, 0)
    assert report["caught_up"] is True and report["player_errors"] == []
    final = report["final"]
    assert final["exactly_once"] is True and final["recorded"] == final["stored"] > 0
    assert (final["missing"], final["differing"], final["extra"]) == (0, 0, 0)
