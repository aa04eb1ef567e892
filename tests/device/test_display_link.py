"""The real display driver (supervisor -> link -> pyserial) against a real pty pair and a real
TCP socket on 127.0.0.1: frames after a change, heartbeats, replies, unplug / replug, a stuck port.
"""

from __future__ import annotations

import logging
import os
import time
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest

from device.display.protocol import (
    Ack,
    Capability,
    Hello,
    HonbaFrame,
    Query,
    StateFrame,
    encode,
)
from device.display.state import DisplayState
from device.display.supervisor import (
    DisplayStatus,
    DisplaySupervisor,
    LinkState,
    NullDisplay,
    make_display,
)
from tests.device.peers import Peer, PtyPeer, SocketPeer, wait_until

FAST = 0.05  # "returns at once", with room for a busy CI machine; a blocked write takes 0.2 s+
START = DisplayState(round_wind=1, hand_number=1, honba=0, riichi_sticks=0, dealer=0,
                     points=(25000, 25000, 25000, 25000), riichi=(False, False, False, False))
# Seat 2 rons seat 1 for 3900 while seat 1 had declared riichi: the stick goes to the winner.
AFTER_WIN = DisplayState(round_wind=1, hand_number=2, honba=0, riichi_sticks=0, dealer=1,
                         points=(25000, 20100, 29900, 25000), riichi=(False,) * 4)


def _state_is(state: DisplayState):  # noqa: ANN202 - a predicate factory
    return lambda m: isinstance(m, StateFrame) and m.state == state


@pytest.fixture(params=["pty", "socket"])
def peer(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Peer]:
    p: PtyPeer | SocketPeer = PtyPeer(tmp_path) if request.param == "pty" else SocketPeer()
    yield p
    p.unplug()


class Recorder:
    """The kiosk's status callback: every status it was told, in order."""

    def __init__(self) -> None:
        self.seen: list[DisplayStatus] = []

    def __call__(self, status: DisplayStatus) -> None:
        self.seen.append(status)

    def states(self) -> list[LinkState]:
        return [s.state for s in self.seen]


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


def start(peer: Peer, recorder: Recorder, **options: object) -> DisplaySupervisor:
    sup = DisplaySupervisor(peer.url, on_status=recorder, heartbeat_s=options.pop(
        "heartbeat_s", 1.0), backoff_s=(0.1, 0.8), **options)  # type: ignore[arg-type]
    sup.start()
    assert wait_until(lambda: recorder.states()[-1:] == [LinkState.CONNECTED], 3.0), sup.status()
    return sup


def test_frames_arrive_after_a_change(peer: Peer, recorder: Recorder) -> None:
    sup = start(peer, recorder)
    try:
        assert peer.wait_for(lambda m: isinstance(m, Query), 2.0) is not None
        sup.publish(START)
        assert peer.wait_for(_state_is(START), 1.0) is not None
        published = time.monotonic()
        sup.publish(AFTER_WIN)
        frame = peer.wait_for(_state_is(AFTER_WIN), 1.0)
        assert frame is not None and time.monotonic() - published < 1.0
        assert recorder.states() == [LinkState.CONNECTED]  # told once, nothing since
    finally:
        sup.stop()


def test_heartbeat_repeats_the_state_with_new_sequence_numbers(peer: Peer,
                                                               recorder: Recorder) -> None:
    sup = start(peer, recorder, heartbeat_s=0.2)
    try:
        sup.publish(AFTER_WIN)
        first = peer.wait_for(_state_is(AFTER_WIN), 1.0)
        second = peer.wait_for(_state_is(AFTER_WIN), 1.0)
        assert isinstance(first, StateFrame) and isinstance(second, StateFrame)
        assert second.seq == first.seq + 1
    finally:
        sup.stop()


def test_default_heartbeat_is_between_one_and_two_seconds() -> None:
    assert 1.0 <= DisplaySupervisor("loop://").heartbeat_s <= 2.0


def test_garbled_replies_are_ignored_and_a_hello_is_heard(peer: Peer, recorder: Recorder) -> None:
    sup = start(peer, recorder)
    try:
        sup.publish(START)
        frame = peer.wait_for(_state_is(START), 1.0)
        assert isinstance(frame, StateFrame)
        peer.write(b"\x00\xff\xfenoise\r\n")  # line noise: no '$', not even a sentence
        peer.write(b"$\xff\xfe#@!\r\n")  # a garbled sentence
        peer.write(b"$RTK,1,5*00\r\n")  # a wrong checksum
        peer.write(b"$RTK,1,5")  # cut short ...
        peer.write(encode(Ack(frame.seq)))  # ... and resynchronised by the next '$'
        hello = Hello("Table-7", frozenset({Capability.FULL, Capability.ACK}))
        peer.write(encode(hello))
        assert wait_until(lambda: sup.status().display_name == "Table-7", 2.0), sup.status()
        status = sup.status()
        assert status.garbled_replies == 2  # the cut-short ACK was dropped at the next '$'
        assert status.last_ack == frame.seq
        assert status.capabilities == ("ack", "full")
        assert status.state is LinkState.CONNECTED
        sup.publish(AFTER_WIN)  # still working
        assert peer.wait_for(_state_is(AFTER_WIN), 1.0) is not None
    finally:
        sup.stop()


def test_a_honba_only_display_gets_honba_frames(peer: Peer, recorder: Recorder) -> None:
    sup = start(peer, recorder)
    try:
        sup.publish(DisplayState(1, 3, 4, 1, 2, (25000,) * 4, (False,) * 4))
        assert peer.wait_for(lambda m: isinstance(m, StateFrame), 1.0) is not None
        peer.write(encode(Hello("Honba2", frozenset({Capability.HONBA_ONLY}))))
        # The link resends at once in the format the display asked for.
        frame = peer.wait_for(lambda m: isinstance(m, HonbaFrame), 1.0)
        assert isinstance(frame, HonbaFrame) and frame.honba == 4
    finally:
        sup.stop()


def test_unplug_and_replug_recovers_within_five_seconds(peer: Peer, recorder: Recorder,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="device.display.supervisor")
    sup = start(peer, recorder)
    try:
        sup.publish(START)
        assert peer.wait_for(_state_is(START), 1.0) is not None
        peer.unplug()
        assert wait_until(lambda: sup.status().state is LinkState.DISCONNECTED, 3.0)
        # Scoring goes on while the display is away: publish returns at once.
        t = time.perf_counter()
        sup.publish(AFTER_WIN)
        assert time.perf_counter() - t < FAST
        time.sleep(1.0)  # a few reconnect attempts fail meanwhile (0.1, 0.2, 0.4 s ...)
        replugged = time.monotonic()
        peer.replug()
        # The display catches up with what was published while it was away.
        frame = peer.wait_for(_state_is(AFTER_WIN), 5.0)
        assert frame is not None, f"no frame within 5 s of replug; status {sup.status()}"
        assert time.monotonic() - replugged < 5.0
        assert sup.status().state is LinkState.CONNECTED
        assert wait_until(lambda: recorder.states()[-1] is LinkState.CONNECTED, 1.0)
        states = recorder.states()
        assert states[0] is LinkState.CONNECTED and states[-1] is LinkState.CONNECTED
        assert LinkState.DISCONNECTED in states
        lost = [r for r in caplog.records if r.levelno == logging.WARNING]
        assert len(lost) == 1, [r.getMessage() for r in lost]  # once per outage, not per retry
    finally:
        sup.stop()


def test_a_path_that_now_names_another_port_is_followed(tmp_path: Path,
                                                        recorder: Recorder) -> None:
    old = PtyPeer(tmp_path)
    sup = start(old, recorder, heartbeat_s=0.3)
    new_master, new_slave = os.openpty()
    try:
        sup.publish(START)
        assert old.wait_for(_state_is(START), 1.0) is not None
        # The adapter re-enumerated: the stable name points at a new tty while the old one lingers.
        old.master, old.slave, stale = new_master, new_slave, (old.master, old.slave)
        tty.setraw(new_slave)
        os.symlink(os.ttyname(new_slave), old.url + ".new")
        os.replace(old.url + ".new", old.url)
        assert old.wait_for(_state_is(START), 3.0) is not None, sup.status()
        assert LinkState.DISCONNECTED in recorder.states()
        for fd in stale:
            os.close(fd)
    finally:
        sup.stop()
        old.unplug()


def test_publish_never_waits_for_a_stuck_port(tmp_path: Path, recorder: Recorder) -> None:
    peer = PtyPeer(tmp_path)
    sup = start(peer, recorder, write_timeout_s=0.2, heartbeat_s=0.2)
    try:
        peer.fill()  # nobody has read the display's side: the pty buffer is full
        slowest = 0.0
        started = time.perf_counter()
        for honba in range(300):  # a game's worth of changes while the port is stuck
            t = time.perf_counter()
            sup.publish(DisplayState(1, 1, honba, 0, 0, (25000,) * 4, (False,) * 4))
            slowest = max(slowest, time.perf_counter() - t)
        # A publish that waited for the port would take the write timeout (0.2 s) each time.
        assert time.perf_counter() - started < 0.5 and slowest < FAST
        assert wait_until(lambda: sup.status().state is LinkState.STALLED, 3.0), sup.status()
        peer.drain()  # the display reads again: the newest state arrives, older ones were dropped
        last = DisplayState(1, 1, 299, 0, 0, (25000,) * 4, (False,) * 4)
        assert wait_until(lambda: (peer.drain(), any(
            isinstance(m, StateFrame) and m.state == last for m in peer.received))[1], 3.0)
        honbas = [m.state.honba for m in peer.received if isinstance(m, StateFrame)]
        assert len(set(honbas)) < 10  # the queue kept only the latest, not 300 frames
        assert wait_until(lambda: sup.status().state is LinkState.CONNECTED, 2.0)
    finally:
        sup.stop()
        peer.unplug()


def test_absent_port_is_reported_disconnected_with_the_reason(tmp_path: Path,
                                                              recorder: Recorder) -> None:
    sup = DisplaySupervisor(str(tmp_path / "no-such-port"), on_status=recorder,
                            backoff_s=(0.05, 0.2))
    sup.start()
    try:
        assert wait_until(lambda: recorder.seen, 2.0)
        status = recorder.seen[0]
        assert status.state is LinkState.DISCONNECTED and not status.connected
        assert status.error is not None and "no-such-port" in status.error
        t = time.perf_counter()
        sup.publish(START)
        assert time.perf_counter() - t < FAST
    finally:
        sup.stop()


def test_loop_url_takes_the_same_path_and_ignores_its_own_echo(recorder: Recorder) -> None:
    sup = DisplaySupervisor("loop://", on_status=recorder, heartbeat_s=0.1)
    sup.start()
    try:
        sup.publish(START)
        assert wait_until(lambda: sup.status().frames_sent >= 3, 2.0)
        assert sup.status().garbled_replies == 0 and sup.status().state is LinkState.CONNECTED
    finally:
        sup.stop()


def test_no_display_configured_is_a_null_display() -> None:
    for url in (None, "", "none", "NONE", "off"):
        display = make_display(url)
        assert isinstance(display, NullDisplay)
        display.start()
        display.publish(START)
        assert display.status().state is LinkState.OFF
        assert display.status().as_dict()["connected"] is False
        display.stop()
    assert isinstance(make_display("/dev/riichi-display"), DisplaySupervisor)
