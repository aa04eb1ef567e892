"""The display at a three-player (sanma) table: the `RTC` frame's golden bytes, four-player frames
byte for byte as before, every bad field named, and a whole three-player game shown by
`python -m device display-sim` on a real pseudo-terminal, driven by the real supervisor.

The game (tenhou_sanma: 35,000 start, tsumo loss, 200 a honba, 1,000 from each noten player) is
the one tests/kiosk/test_browser_sanma.py plays: seat 1 declares riichi (34,000) and wins by
tsumo, 4 han 20 fu with a kita: 1,300 from seat 2, 2,600 from the dealer, plus the stick; a draw
with seat 2 alone tenpai (1,000 from each of the others); the dealer, seat 2, rons seat 0 for a
yakuman, 48,000 and 200 for the honba, and seat 0 goes bust.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.__main__ import main
from device.display.protocol import FieldError, StateFrame, checksum, decode, encode
from device.display.sim import render, summary
from device.display.state import MAX_POINTS, DisplayState, DisplayStateError
from device.display.supervisor import DisplaySupervisor
from tests.device.peers import wait_until
from tests.device.test_display_sim import SimProcess

#: The table after each event of the game above: (round wind, hand, honba, sticks, dealer,
#: points, riichi flags).
GAME = [
    DisplayState(1, 1, 0, 0, 0, (35000, 35000, 35000), (False, False, False)),  # started
    DisplayState(1, 1, 0, 1, 0, (35000, 34000, 35000), (False, True, False)),  # riichi
    DisplayState(1, 2, 0, 0, 1, (32400, 38900, 33700), (False, False, False)),  # tsumo
    DisplayState(1, 3, 1, 0, 2, (31400, 37900, 35700), (False, False, False)),  # draw
    # The dealer won, so the table counts a honba more (renchan), though the bust ends it.
    DisplayState(1, 3, 2, 0, 2, (-16800, 37900, 83900), (False, False, False)),  # bust
]
FOUR = DisplayState(1, 1, 2, 3, 0, (25000, 24000, 26000, 25000), (False, True, False, True))


def _sentence(body: str) -> bytes:
    return b"$%s*%02X" % (body.encode(), checksum(body.encode()))


@pytest.mark.parametrize("message, wire", [
    (StateFrame(5, GAME[2]), b"$RTC,1,5,E,2,0,0,1,32400,38900,33700,000*2B\r\n"),
    (StateFrame(999, DisplayState(4, 3, 999, 999, 2, (-9999900,) * 3, (True,) * 3)),
     b"$RTC,1,999,N,3,999,999,2,-9999900,-9999900,-9999900,111*0B\r\n"),
    (StateFrame(0, GAME[4]), b"$RTC,1,0,E,3,2,0,2,-16800,37900,83900,000*03\r\n"),
], ids=["after-a-tsumo", "extremes", "bust"])
def test_three_seats_go_out_as_rtc(message: StateFrame, wire: bytes) -> None:
    assert encode(message) == wire
    assert decode(wire) == message
    assert checksum(wire[1:wire.index(b"*")]) == int(wire[-4:-2], 16)


def test_four_player_frames_are_unchanged_byte_for_byte() -> None:
    # The golden line of docs/serial-protocol.md (and test_display_protocol) since version 1.
    assert encode(StateFrame(17, FOUR)) == (
        b"$RTA,1,17,E,1,2,3,0,25000,24000,26000,25000,0101*37\r\n")
    assert decode(b"$RTA,1,17,E,1,2,3,0,25000,24000,26000,25000,0101*37\r\n").state.seats == 4


@pytest.mark.parametrize("body, words", [
    ("RTC,1,5,E,2,0,0,1,32400,38900,33700,0000", "riichi flags '0000' are not three"),
    ("RTC,1,5,E,4,0,0,1,32400,38900,33700,000", "hand_number: 4 is not a hand number 1-3"),
    ("RTC,1,5,E,2,0,0,3,32400,38900,33700,000", "dealer: 3 is not a seat 0-2"),
    ("RTC,1,5,E,2,0,0,1,32400,38900,33700,25000,000", "12 fields, version 1 has 11"),
    ("RTC,1,5,E,2,0,0,1,32400,38900,000", "10 fields, version 1 has 11"),
    ("RTC,1,5,X,2,0,0,1,32400,38900,33700,000", "RTC: round wind 'X'"),
    ("RTC,1,5,E,2,0,0,1,32400,3890x,33700,000", "RTC: points1 '3890x'"),
    # A four-seat sentence never carries three seats: its length is fixed by version 1.
    ("RTA,1,5,E,2,0,0,1,32400,38900,33700,000", "11 fields, version 1 has 12"),
])
def test_bad_three_seat_frames_name_the_field(body: str, words: str) -> None:
    with pytest.raises(FieldError, match=words):
        decode(_sentence(body))


def test_a_newer_version_of_rtc_may_append_fields() -> None:
    frame = decode(_sentence("RTC,2,5,E,2,0,0,1,32400,38900,33700,000,future"))
    assert frame == StateFrame(5, GAME[2])


def test_a_state_has_one_riichi_flag_a_seat() -> None:
    with pytest.raises(DisplayStateError, match="riichi: .* is not 3 booleans"):
        DisplayState(1, 1, 0, 0, 0, (35000,) * 3, (False,) * 4)
    with pytest.raises(DisplayStateError, match="points"):
        DisplayState(1, 1, 0, 0, 0, (35000,) * 5, (False,) * 5)


three_seat_states = st.builds(
    DisplayState,
    round_wind=st.integers(1, 4), hand_number=st.integers(1, 3), honba=st.integers(0, 999),
    riichi_sticks=st.integers(0, 999), dealer=st.integers(0, 2),
    points=st.tuples(*[st.integers(-MAX_POINTS, MAX_POINTS)] * 3),
    riichi=st.tuples(*[st.booleans()] * 3))


@given(three_seat_states, st.integers(0, 999))
def test_every_three_seat_state_round_trips_in_one_short_line(state: DisplayState,
                                                              seq: int) -> None:
    wire = encode(StateFrame(seq, state))
    assert wire.startswith(b"$RTC,") and decode(wire) == StateFrame(seq, state)
    assert len(wire) <= 70 and wire.endswith(b"\r\n")


def test_the_reference_display_shows_three_seats() -> None:
    assert render(GAME[1]) == [
        "+------------------------------+",
        "| East 1    honba 0  sticks 1  |",
        "|  seat 0 dealer 35000         |",
        "|  seat 1        34000  riichi |",
        "|  seat 2        35000         |",
        "+------------------------------+",
    ]
    assert summary(StateFrame(3, GAME[3])) == (
        "seq=3 round=E3 honba=1 sticks=0 dealer=2 points=31400,37900,35700 riichi=000")


def test_a_whole_three_player_game_on_the_simulated_display() -> None:
    """display-sim in its own process on a real pty: each state of the game shows, three seats
    and three riichi flags, within a second of its change."""
    sim = SimProcess("--plain")
    try:
        first = sim.wait_line("display-sim: port", 10.0)  # a cold interpreter start
        assert first is not None
        sup = DisplaySupervisor(first.split()[2], backoff_s=(0.1, 0.5))
        sup.publish(GAME[0])
        sup.start()
        try:
            assert sim.wait_line("round=E1 honba=0 sticks=0 dealer=0 "
                                 "points=35000,35000,35000 riichi=000", 3.0)
            for state in GAME[1:]:
                sup.publish(state)
                points = ",".join(map(str, state.points))
                flags = "".join("1" if r else "0" for r in state.riichi)
                line = sim.wait_line(f"points={points} riichi={flags}", 1.0)
                assert line is not None, state
                assert f"round=E{state.hand_number} honba={state.honba} " \
                       f"sticks={state.riichi_sticks} dealer={state.dealer}" in line
            assert wait_until(lambda: sup.status().last_ack is not None, 2.0)
            assert sup.status().garbled_replies == 0
        finally:
            sup.stop()
    finally:
        assert sim.stop() == 0


def test_display_send_shows_three_seats(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["display-send", "loop://", "--round", "S3", "--dealer", "2",
                 "--points", "43900,33700,27400", "--riichi", "010", "--seconds", "0.3"])
    assert code == 0, capsys.readouterr().out
    code = main(["display-send", "loop://", "--points", "1,2,3", "--riichi", "0100",
                 "--seconds", "0.1"])
    assert code == 2 and "riichi" in capsys.readouterr().out
