"""The display protocol's pure layer: golden bytes, round trips, and every kind of bad line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.display.protocol import (
    Ack,
    Capability,
    ChecksumError,
    FieldError,
    FramingError,
    Hello,
    HonbaFrame,
    LineReader,
    Query,
    StateFrame,
    checksum,
    decode,
    encode,
    frame_for,
)
from device.display.state import MAX_POINTS, DisplayState, DisplayStateError

S = DisplayState(round_wind=1, hand_number=1, honba=2, riichi_sticks=3, dealer=0,
                 points=(25000, 24000, 26000, 25000), riichi=(False, True, False, True))


@pytest.mark.parametrize("sentence, want", [
    # Published NMEA 0183 sentences with their checksums: the same XOR our protocol uses.
    ("GPGGA,092750.000,5321.6802,N,00630.3372,W,1,8,1.03,61.7,M,55.2,M,,", 0x76),
    ("GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W", 0x6A),
    ("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,", 0x47),
])
def test_checksum_is_the_nmea_xor(sentence: str, want: int) -> None:
    assert checksum(sentence.encode()) == want


@pytest.mark.parametrize("message, wire", [
    (StateFrame(17, S), b"$RTA,1,17,E,1,2,3,0,25000,24000,26000,25000,0101*37\r\n"),
    (StateFrame(999, DisplayState(4, 4, 999, 999, 3, (-9999900,) * 4, (True,) * 4)),
     b"$RTA,1,999,N,4,999,999,3,-9999900,-9999900,-9999900,-9999900,1111*06\r\n"),
    (StateFrame(0, DisplayState(2, 3, 0, 0, 2, (31000, -1200, 45200, 25000), (False,) * 4)),
     b"$RTA,1,0,S,3,0,0,2,31000,-1200,45200,25000,0000*0C\r\n"),
    (HonbaFrame(5, 2), b"$RTB,1,5,2*5E\r\n"),
    (Query(), b"$RTQ,1*4A\r\n"),
    (Hello("RiichiSim 1.0", frozenset({Capability.FULL, Capability.ACK})),
     b"$RTH,1,RiichiSim 1.0,ack+full*6A\r\n"),
    (Ack(7), b"$RTK,1,7*4B\r\n"),
], ids=["state", "state-extremes", "state-negative", "honba", "query", "hello", "ack"])
def test_golden_bytes(message: object, wire: bytes) -> None:
    assert encode(message) == wire  # type: ignore[arg-type]
    assert decode(wire) == message
    assert checksum(wire[1:wire.index(b"*")]) == int(wire[-4:-2], 16)


def test_honba_only_frames_clamp_to_two_digits() -> None:
    assert encode(HonbaFrame(1, 120)) == b"$RTB,1,1,99*68\r\n"


def test_lower_case_checksum_and_missing_crlf_are_accepted() -> None:
    assert decode(b"$RTK,1,7*4b") == Ack(7)


@pytest.mark.parametrize("line, error, words", [
    (b"RTK,1,7*4B", FramingError, "not a $...*HH"),
    (b"$RTK,1,7", FramingError, "not a $...*HH"),
    (b"$RTK,1,7*ZZ", FramingError, "not two hex digits"),
    (b"$RTK,1,7*4C", ChecksumError, "does not match 4B"),
    (b"$" + b"A" * 130 + b"*00", FramingError, "longer than 120"),
    (b"$RTZ,1,1*%02X" % checksum(b"RTZ,1,1"), FieldError, "unknown sentence type 'RTZ'"),
])
def test_framing_and_checksum_errors(line: bytes, error: type, words: str) -> None:
    with pytest.raises(error, match=words.replace("$", r"\$").replace("*", r"\*")):
        decode(line)


def _sentence(body: str) -> bytes:
    return b"$%s*%02X" % (body.encode(), checksum(body.encode()))


@pytest.mark.parametrize("body, words", [
    ("RTA,1,17,X,1,2,3,0,25000,24000,26000,25000,0101", "round wind 'X'"),
    ("RTA,1,17,E,1,2,3,0,25000,24000,26000,25000,01x1", "riichi flags '01x1'"),
    ("RTA,1,17,E,5,2,3,0,25000,24000,26000,25000,0101", "hand_number: 5"),
    ("RTA,1,17,E,1,2,3,4,25000,24000,26000,25000,0101", "dealer: 4"),
    ("RTA,1,17,E,1,2,3,0,25000,24000,26000,0101", "11 fields, version 1 has 12"),
    ("RTA,1,17,E,1,2,3,0,25000,24000,26000,25000,0101,9", "13 fields, version 1 has 12"),
    ("RTA,1,1000,E,1,2,3,0,25000,24000,26000,25000,0101", "seq '1000'"),
    ("RTB,1,5,100", "honba '100'"),
    ("RTK,x,5", "version 'x'"),
    ("RTK", "missing the version"),
    ("RTH,1,bad*name,full", "name 'bad"),
])
def test_field_errors_name_the_field(body: str, words: str) -> None:
    with pytest.raises(FieldError, match=words.replace("*", r"\*")):
        decode(_sentence(body))


def test_a_newer_version_may_append_fields() -> None:
    assert decode(_sentence("RTK,2,5,extra")) == Ack(5)
    frame = decode(_sentence("RTA,2,17,E,1,2,3,0,25000,24000,26000,25000,0101,future"))
    assert frame == StateFrame(17, S)


def test_unknown_capabilities_are_ignored() -> None:
    hello = decode(_sentence("RTH,1,Clock,honba-only+colour+ack"))
    assert hello == Hello("Clock", frozenset({Capability.HONBA_ONLY, Capability.ACK}))


def test_frame_for_follows_the_capabilities() -> None:
    assert frame_for(S, 3, frozenset({Capability.FULL})) == StateFrame(3, S)
    assert frame_for(S, 3, frozenset({Capability.HONBA_ONLY})) == HonbaFrame(3, 2)
    both = frozenset({Capability.HONBA_ONLY, Capability.FULL})
    assert frame_for(S, 3, both) == StateFrame(3, S)


states = st.builds(
    DisplayState,
    round_wind=st.integers(1, 4), hand_number=st.integers(1, 4), honba=st.integers(0, 999),
    riichi_sticks=st.integers(0, 999), dealer=st.integers(0, 3),
    points=st.tuples(*[st.integers(-MAX_POINTS, MAX_POINTS)] * 4),
    riichi=st.tuples(*[st.booleans()] * 4))


@given(states, st.integers(0, 999))
def test_every_state_round_trips_in_one_short_line(state: DisplayState, seq: int) -> None:
    wire = encode(StateFrame(seq, state))
    assert decode(wire) == StateFrame(seq, state)
    assert len(wire) <= 70 and wire.endswith(b"\r\n") and wire.count(b"$") == 1


def test_line_reader_splits_joins_and_resynchronises() -> None:
    r = LineReader()
    ack, hello = encode(Ack(1)), encode(Hello("D", frozenset({Capability.FULL})))
    assert r.feed(ack[:5]) == []
    assert r.feed(ack[5:] + hello[:3]) == [ack[:-2]]
    assert r.feed(hello[3:]) == [hello[:-2]]
    # A frame cut short, then a whole one on the same line: only the whole one is kept.
    assert r.feed(b"noise$RTK,1," + ack) == [ack[:-2]]
    assert r.feed(b"no dollar here\n") == []
    # A flood without newlines is dropped; the reader still works afterwards.
    assert r.feed(b"x" * 1000) == []
    assert r.feed(ack) == [ack[:-2]]


@pytest.mark.parametrize("change, words", [
    ({"round_wind": 0}, "round_wind: 0"),
    ({"hand_number": 5}, "hand_number: 5"),
    ({"honba": -1}, "honba: -1"),
    ({"riichi_sticks": 1000}, "riichi_sticks: 1000"),
    ({"dealer": 4}, "dealer: 4"),
    ({"points": (25000, 25000)}, "points"),  # three are a sanma table (test_display_sanma)
    ({"points": (25000, 25000, 25000)}, "riichi"),  # three seats need three riichi flags
    ({"points": (25000, 25000, 25000, 10**8)}, "points"),
    ({"riichi": (0, 1, 0, 0)}, "riichi"),
    ({"honba": True}, "honba: True"),
])
def test_display_state_names_the_bad_field(change: dict[str, object], words: str) -> None:
    fields = {"round_wind": 1, "hand_number": 1, "honba": 0, "riichi_sticks": 0, "dealer": 0,
              "points": (25000,) * 4, "riichi": (False,) * 4} | change
    with pytest.raises(DisplayStateError, match=words.replace("(", r"\(")):
        DisplayState(**fields)  # type: ignore[arg-type]


def test_the_documented_examples_are_valid_sentences() -> None:
    doc = Path(__file__).resolve().parents[2] / "docs" / "serial-protocol.md"
    text = doc.read_text()
    examples = text[text.index("## Examples"):text.index("## A display in a few lines")]
    # A sentence, then two or more spaces, then the explanation.
    sentences = [re.split(r"\s{2,}", line)[0] for line in examples.splitlines()
                 if line.startswith("$")]
    assert len(sentences) == 8  # two of them RTC, the three-seat frame
    for sentence in sentences:
        decode(sentence.encode())  # raises on a wrong checksum or field
