"""The scale benchmark's code path, briefly (not timed): three simulated kiosks post hands to a
parlor server process for a quarter of a minute, the live page open in chromium where it is
installed; every event is stored exactly once and the report holds every figure. The full run
(50 kiosks, 10 minutes) is `python -m kiosk.bench.parlor`: docs/parlor.md, "Scale"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kiosk.bench import parlor as bench
from kiosk.bench.parlor_kiosks import Hand
from kiosk.bench.parlor_page import lags

SPREAD = {"count", "p50_ms", "p95_ms", "p99_ms", "max_ms"}


def _browser() -> list[str]:
    """The page's options: chromium if Playwright and Debian's chromium are here, else none."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return ["--no-browser"]
    return [] if Path("/usr/bin/chromium").exists() else ["--no-browser"]


def test_the_benchmark_stores_every_event_once_and_reports_every_figure(
        parlor_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.json"
    no_page = _browser()  # [] when the live page is opened
    status = bench.main(["--kiosks", "3", "--minutes", "0.25", "--every", "1", "--db",
                         parlor_db, "--progress", "5", "--grace", "30", "--out", str(out),
                         *no_page])
    printed = capsys.readouterr()
    assert status == 0, printed.out + printed.err
    report = json.loads(out.read_text())
    assert {"config", "machine", "events", "requests", "live_page", "server", "postgres",
            "seconds", "kiosk_errors"} <= set(report)
    events = report["events"]
    assert events["exactly_once"] and events["hands"] >= 15, events
    assert events["recorded"] == events["stored"] == events["posted"] > events["hands"]
    assert events["missing"] == events["differing"] == events["extra"] == events["doubled"] == 0
    assert SPREAD | {"failed"} <= set(report["requests"]) and report["requests"]["count"] > 0
    assert report["server"]["cpu_seconds"] > 0 and report["server"]["peak_rss_mb"] > 10
    assert report["postgres"] is None  # --db: not its own server, its CPU is not measured
    assert not report["kiosk_errors"]
    if not no_page:  # the live page was open
        live = report["live_page"]
        assert {"poll_s", "hands", "not_seen", "from_record", "from_post"} <= set(live)
        assert SPREAD <= set(live["from_record"]) and live["not_seen"] == 0
        assert live["from_record"]["count"] == events["hands"]
        assert 0 <= live["from_record"]["p99_ms"] < 20_000  # the page follows within seconds
    assert "stored exactly once" in printed.out and "[" in printed.err  # a progress line


def test_bounds_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    for wrong in (["--kiosks", "0"], ["--minutes", "500"], ["--every", "0.1"],
                  ["--db", "mysql://x"]):
        with pytest.raises(SystemExit):
            bench.checked(wrong)
        assert "must be" in capsys.readouterr().err


def test_the_lag_is_until_the_page_first_shows_the_hand_or_a_later_one() -> None:
    hands = [Hand("T1", "g1", 3, 10.0), Hand("T1", "g1", 5, 20.0), Hand("T1", "g2", 2, 30.0),
             Hand("T1", "g2", 4, 40.0)]
    seen = [(11.5, "T1", "g1", 3), (23.0, "T1", "g1", 6), (31.0, "T1", "g2", 2),
            (35.0, "T1", "old", 9)]  # a game of an earlier run: ignored
    posted = {("g1", 2): 10.5, ("g1", 4): 20.5, ("g2", 1): 30.2}
    got = lags(hands, {"T1": ["g1", "g2"]}, seen, posted)
    assert got["hands"] == 4 and got["not_seen"] == 1  # g2's 4th event never showed
    assert got["from_record"]["count"] == 3 and got["from_record"]["max_ms"] == 3000
    assert got["from_record"]["p50_ms"] == 1500  # 1.5, 3.0, 1.0 s
    assert got["from_post"]["count"] == 3 and got["from_post"]["max_ms"] == 2500
