"""`python -m device display-sim` as people use it: a separate process on a real pty, driven by
the real supervisor; plus the reference rendering and the CLI's help."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from device.__main__ import COMMANDS, main
from device.display.protocol import Capability, HonbaFrame, StateFrame
from device.display.sim import SimDisplay, render, summary
from device.display.state import DisplayState
from device.display.supervisor import DisplaySupervisor, LinkState
from tests.device.peers import wait_until

ROOT = Path(__file__).resolve().parents[2]
START = DisplayState(1, 1, 0, 0, 0, (25000, 25000, 25000, 25000), (False, True, False, False))
AFTER_WIN = DisplayState(1, 2, 0, 0, 1, (25000, 20100, 29900, 25000), (False,) * 4)


class SimProcess:
    """display-sim in its own process; its output read line by line with a deadline."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "device", "display-sim", *args],
                                     cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        assert self.proc.stdout is not None
        self.fd = self.proc.stdout.fileno()
        self.buf = b""
        self.lines: list[str] = []

    def wait_line(self, needle: str, timeout: float) -> str | None:
        deadline = time.monotonic() + timeout
        seen = 0
        while True:
            for line in self.lines[seen:]:
                if needle in line:
                    return line
            seen = len(self.lines)
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                return None
            data = os.read(self.fd, 4096)
            if not data:
                return None
            self.buf += data
            *done, self.buf = self.buf.split(b"\n")
            self.lines += [d.decode() for d in done]

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # Ctrl+C is ignored in background jobs
        return self.proc.wait(5)


@pytest.fixture
def sim_process(tmp_path: Path) -> Iterator[tuple[SimProcess, Path]]:
    link = tmp_path / "riichi-display"
    sim = SimProcess("--plain", "--link", str(link))
    yield sim, link
    sim.stop()


def test_applying_a_win_updates_the_simulated_display_within_a_second(
        sim_process: tuple[SimProcess, Path]) -> None:
    sim, link = sim_process
    first = sim.wait_line("display-sim: port", 10.0)  # a cold interpreter start
    assert first is not None and f"--display {link}" in first and link.is_symlink()
    sup = DisplaySupervisor(str(link), backoff_s=(0.1, 0.5))
    sup.publish(START)
    sup.start()
    try:
        assert sim.wait_line("round=E1 honba=0 sticks=0 dealer=0 "
                             "points=25000,25000,25000,25000 riichi=0100", 3.0)
        assert wait_until(lambda: sup.status().display_name == "RiichiSim", 2.0)
        applied = time.monotonic()
        sup.publish(AFTER_WIN)
        line = sim.wait_line("points=25000,20100,29900,25000", 1.0)
        assert line is not None and "round=E2" in line and "dealer=1" in line
        assert time.monotonic() - applied < 1.0
        assert sup.status().capabilities == ("ack", "full")
        assert wait_until(lambda: sup.status().last_ack is not None, 2.0)
    finally:
        sup.stop()
    assert sim.stop() == 0
    assert not link.exists()  # the symlink goes with the simulator


def test_a_honba_only_simulator_shows_two_digits(tmp_path: Path) -> None:
    sim = SimProcess("--plain", "--honba-only", "--frames", "1")
    try:
        first = sim.wait_line("display-sim: port", 10.0)
        assert first is not None
        port = first.split()[2]
        sup = DisplaySupervisor(port, backoff_s=(0.1, 0.5))
        sup.publish(DisplayState(2, 1, 3, 1, 0, (25000,) * 4, (False,) * 4))
        sup.start()
        try:
            assert sim.wait_line("honba=03", 3.0) is not None
            assert sim.proc.wait(3) == 0  # --frames 1: it exits after showing one frame
        finally:
            sup.stop()
    finally:
        sim.stop()


def test_in_process_simulator_acknowledges_and_renders() -> None:
    shown: list[StateFrame | HonbaFrame] = []
    sim = SimDisplay(name="Bench", show=shown.append)
    stop = threading.Event()
    thread = threading.Thread(target=lambda: [sim.poll(0.05) for _ in iter(stop.is_set, True)])
    thread.start()
    sup = DisplaySupervisor(sim.path, backoff_s=(0.1, 0.5))
    sup.start()
    try:
        sup.publish(AFTER_WIN)
        assert wait_until(lambda: any(getattr(m, "state", None) == AFTER_WIN for m in shown), 2)
        assert wait_until(lambda: sup.status().display_name == "Bench", 2.0)
        assert sup.status().state is LinkState.CONNECTED
        assert Capability.ACK in sim.hello.capabilities
    finally:
        sup.stop()
        stop.set()
        thread.join()
        sim.close()


def test_reference_rendering() -> None:
    state = DisplayState(2, 3, 1, 2, 2, (31000, 18000, 25000, 26000), (False, True, False, False))
    assert render(state) == [
        "+------------------------------+",
        "| South 3   honba 1  sticks 2  |",
        "|  seat 0        31000         |",
        "|  seat 1        18000  riichi |",
        "|  seat 2 dealer 25000         |",
        "|  seat 3        26000         |",
        "+------------------------------+",
    ]
    assert summary(HonbaFrame(4, 7)) == "seq=4 honba=07"


def test_display_send_talks_to_a_display(capsys: pytest.CaptureFixture[str]) -> None:
    shown: list[StateFrame | HonbaFrame] = []
    sim = SimDisplay(show=shown.append)
    stop = threading.Event()
    thread = threading.Thread(target=lambda: [sim.poll(0.05) for _ in iter(stop.is_set, True)])
    thread.start()
    try:
        code = main(["display-send", sim.path, "--round", "S2", "--honba", "3",
                     "--points", "30000,20000,25000,25000", "--riichi", "0100",
                     "--seconds", "0.6"])
    finally:
        stop.set()
        thread.join()
        sim.close()
    out = capsys.readouterr().out
    assert code == 0 and "connected display 'RiichiSim' ack,full" in out
    want = DisplayState(2, 2, 3, 0, 0, (30000, 20000, 25000, 25000), (False, True, False, False))
    assert any(isinstance(m, StateFrame) and m.state == want for m in shown)


def test_display_send_fails_clearly_without_a_display(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["display-send", str(tmp_path / "nothing"), "--seconds", "0.2"])
    out = capsys.readouterr().out
    assert code == 1 and "disconnected" in out and "nothing" in out


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_every_command_has_help(command: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--help"] if command is None else [command, "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "usage: python -m device" in out
    if command is None:
        assert all(name in out for name in COMMANDS)
    else:
        assert "options:" in out and len(out.splitlines()) > 5
